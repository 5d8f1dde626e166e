"""Throughput of `t42 fuzz`: complete rounds per second, in one run, three ways.

    python tools/fuzz_bench.py [--seconds S] [--trials T]
                               [--jobs N [--games G] [--campaigns-only] [--junit]]
    python tools/fuzz_bench.py --cli-jobs N [--games G] [--trials T]

- engine: the reference engine alone playing uniform random rounds
  (reference_impl.bench, policy (b)): the ceiling the harness is measured against;
- in process: `fuzz()` against a second in-process reference adapter;
- protocol: `fuzz()` against `t42 serve` over the JSON-lines protocol.

Each fuzz figure is also printed as a share of the engine's rate and as the CPU a round
costs in engine rounds. `--cli-jobs N`: `t42 fuzz -j N` against `-j 1`. With `--jobs N` the
engine alone runs in N processes at once (what the machine gives N workers), and the
two fuzz figures are measured again as `pytest --t42-fuzz` campaigns, without xdist and
with N workers, alternately (`--trials` times): the rate of the `--games` games a large
campaign plays beyond a small one (so starting the workers is not counted), the CPU time
a round costs (all processes: so a shared machine's load shows as a lower rate, not a
higher cost), the start-up, the load average, and the ratio. Figures are wall time, the
best of `--trials` runs, so other load on the machine only ever lowers them.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.adapters.inprocess import harnessed  # noqa: E402
from conformance.adapters.process import ProcessAdapter  # noqa: E402
from conformance.adapters.protocol import Harnessed  # noqa: E402
from conformance.adapters.reference import ReferenceAdapter  # noqa: E402
from conformance.fuzz.differential import fuzz  # noqa: E402


class Counting(Harnessed):
    """A Harnessed adapter (a bare one wrapped as `t42 fuzz` wraps it) that counts the
    rounds it is dealt: one per accepted setup or deal."""

    def __init__(self, inner):
        self.inner, self.rounds = harnessed(inner), 0
        self.name, self.version = self.inner.name, self.inner.version
        self.variants, self.capabilities = self.inner.variants, self.inner.capabilities
        self.in_process = self.inner.in_process

    def pipeline(self, requests, expected=None):
        replies = self.inner.pipeline(requests, expected)
        # each accepted setup or deal of the pipeline (a game's steps may go in one)
        self.rounds += sum(1 for (cmd, _), reply in zip(requests, replies, strict=False)
                           if cmd in ("setup", "deal") and not isinstance(reply, Exception))
        return replies

    def close(self) -> None:
        self.inner.close()


def engine_rate(seconds: float, trials: int, clock=time.perf_counter) -> float:
    from reference_impl.bench import new_round, uniform_round

    rng, best = random.Random(0), 0.0
    for _ in range(trials):
        done, start = 0, clock()
        while clock() - start < seconds / trials:
            for _ in range(20):
                uniform_round(new_round(rng), rng)
            done += 20
        best = max(best, done / (clock() - start))
    return best


def _children_cpu(adapter) -> float:
    """CPU seconds of a JSON-lines adapter's process so far (Linux /proc), else 0."""
    proc = getattr(getattr(adapter, "inner", adapter), "_proc", None)
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (AttributeError, OSError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fuzz_cpu_rate(make, seconds: float, trials: int, games: int) -> float:
    """Rounds per CPU second of the campaign's process and its adapter's process: the
    cost of a round, which the load of a shared machine barely moves."""
    best, seed = 0.0, 10**6
    adapter = Counting(make())
    try:
        fuzz(adapter, games=1, seed=seed - 1)  # the adapter started
        for _ in range(trials):
            adapter.rounds = 0
            start, other = time.process_time(), _children_cpu(adapter)
            while time.process_time() - start < seconds / trials:
                _, divergences, errors = fuzz(adapter, games=games, seed=seed)
                assert not divergences and not errors, (divergences, errors)
                seed += games
            cpu = time.process_time() - start + _children_cpu(adapter) - other
            best = max(best, adapter.rounds / cpu)
    finally:
        adapter.close()
    return best


def _engine_rate_into(queue, seconds: float) -> None:
    queue.put(engine_rate(seconds, 1))


def engine_scaling(jobs: int, seconds: float) -> tuple[float, float]:
    """The engine alone in one process, then in `jobs` processes at once: the rates
    (rounds/s, summed). Their ratio is what the machine itself gives `jobs` workers, the
    ceiling of a campaign's ratio."""
    import multiprocessing

    rates = []
    for n in (1, jobs):
        queue = multiprocessing.Queue()
        workers = [multiprocessing.Process(target=_engine_rate_into, args=(queue, seconds))
                   for _ in range(n)]
        for worker in workers:
            worker.start()
        rates.append(sum(queue.get() for _ in workers))
        for worker in workers:
            worker.join()
    return rates[0], rates[1]


def fuzz_rate(make, seconds: float, trials: int, games: int) -> float:
    best, seed = 0.0, 0
    adapter = Counting(make())
    try:
        for _ in range(trials):
            adapter.rounds, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds / trials:
                _, divergences, errors = fuzz(adapter, games=games, seed=seed)
                assert not divergences and not errors, (divergences, errors)
                seed += games
            best = max(best, adapter.rounds / (time.perf_counter() - start))
    finally:
        adapter.close()
    return best


@dataclass
class Campaign:
    """One `pytest --t42-fuzz` campaign: rounds played, wall and CPU seconds (the
    controller and its workers), and the 1-minute load average when it ended."""

    rounds: int
    wall: float
    cpu: float
    load: float


def campaign(adapter: str, jobs: int, games: int, first_seed: int,
             junit: bool = False) -> Campaign:
    """`pytest --t42-fuzz GAMES` with `-n jobs` (0: without pytest-xdist). The rounds
    played are read from the campaign's last progress line; `junit`: also write the
    JUnit XML a CI job would (on the xdist controller, about a third of its work)."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "--rootdir", tmp, tmp, "--t42-fuzz", str(games), "--t42-fuzz-seed",
                   str(first_seed), "--t42-adapter", adapter]
        command += [f"--junitxml={Path(tmp) / 'fuzz.xml'}"] if junit else []
        command += ["-n", str(jobs)] if jobs else ["-p", "no:xdist"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=True, cwd=tmp, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    last = re.findall(r"^t42 fuzz: \d+/\d+ games, ([\d,]+) rounds", done.stdout, re.M)[-1]
    rounds = int(last.replace(",", ""))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Campaign(rounds, wall, cpu, os.getloadavg()[0])


def steady(small: Campaign, large: Campaign) -> tuple[float, float]:
    """Rounds/s and CPU ms per round of the games the large campaign plays beyond the
    small one: starting the workers, the same in both, is not counted."""
    rounds, wall = large.rounds - small.rounds, large.wall - small.wall
    if rounds <= 0 or wall <= 0:  # campaigns too small for the noise of a shared machine
        return float("nan"), float("nan")
    return rounds / wall, 1000 * (large.cpu - small.cpu) / rounds


def campaigns(label: str, adapter: str, jobs: int, games: int, small: int,
              trials: int, junit: bool = False) -> None:
    """Campaigns without xdist and with `-n jobs`, alternately, `trials` times: each a
    small and a large one (`small` and `small + games` games, the same seeds), the
    steady rate from their difference. Prints each trial and the ratio of the best rates."""
    seed, ratios, best = 1_000_000, [], {0: 0.0, jobs: 0.0}
    for trial in range(1, trials + 1):
        rates = {}
        for n in (0, jobs):
            start = campaign(adapter, n, small, seed, junit)
            whole = campaign(adapter, n, small + games, seed, junit)
            rates[n] = steady(start, whole) + (start.wall, whole.load)
        (one, cpu1, start1, load1), (many, cpu2, start2, load2) = rates[0], rates[jobs]
        ratios.append(many / one)
        best = {0: max(best[0], one), jobs: max(best[jobs], many)}
        print(f"pytest --t42-fuzz, {label}, trial {trial}: {games} games beyond {small}; "
              f"1 process {one:,.0f} rounds/s ({cpu1:.1f} ms CPU a round, {small} games "
              f"in {start1:.1f} s, load {load1:.1f}); -n {jobs} {many:,.0f} rounds/s "
              f"({cpu2:.1f} ms CPU a round, {small} games in {start2:.1f} s, load "
              f"{load2:.1f}): {many / one:.2f}x", flush=True)
    # each rate the best of its trials, as every figure here: the ratio of two best rates
    # is steadier on a shared machine than the best of the trials' ratios
    print(f"pytest --t42-fuzz, {label}: -n {jobs} over 1 process, best rates of {trials} "
          f"trials: {best[jobs]:,.0f} / {best[0]:,.0f} rounds/s = "
          f"{best[jobs] / best[0] if best[0] else float('nan'):.2f}x "
          f"(each trial: {', '.join(f'{r:.2f}' for r in ratios)})")


def cli_rate(jobs: int, games: int, adapter: str = "reference") -> tuple[float, float]:
    """`t42 fuzz --games G -j JOBS`: the rate it prints (rounds/s over all workers, the
    games only) and the load average when it ended."""
    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", "fuzz", "--adapter",
                           adapter, "--games", str(games), "--seed", "2000000", "-j",
                           str(jobs)], capture_output=True, text=True, check=False, cwd=ROOT)
    rate = re.search(r"rounds in [\d.]+ s[^(]*\(([\d,]+) rounds/s\)", done.stdout)
    if rate is None:
        raise SystemExit(f"t42 fuzz printed no rate:\n{done.stdout}{done.stderr}")
    return float(rate.group(1).replace(",", "")), os.getloadavg()[0]


def cli_jobs(jobs: int, games: int, trials: int) -> None:
    """`t42 fuzz -j 1` and `-j JOBS`, alternately, `trials` times: each trial's rates and
    ratio, then the ratio of the best rates."""
    best = {1: 0.0, jobs: 0.0}
    for trial in range(1, trials + 1):
        (one, load1), (many, load2) = cli_rate(1, games), cli_rate(jobs, games)
        best = {1: max(best[1], one), jobs: max(best[jobs], many)}
        print(f"t42 fuzz, trial {trial}: -j 1 {one:,.0f} rounds/s (load {load1:.1f}), "
              f"-j {jobs} {many:,.0f} rounds/s (load {load2:.1f}): {many / one:.2f}x",
              flush=True)
    print(f"t42 fuzz -j {jobs} over -j 1, best rates of {trials} trials: "
          f"{best[jobs]:,.0f} / {best[1]:,.0f} rounds/s = {best[jobs] / best[1]:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per figure")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0,
                        help="also measure pytest --t42-fuzz campaigns with -n JOBS")
    parser.add_argument("--games", type=int, default=2000,
                        help="games a --jobs campaign plays beyond the small one")
    parser.add_argument("--small", type=int, default=100,
                        help="games of the small campaign (the start-up subtracted)")
    parser.add_argument("--campaigns-only", action="store_true",
                        help="with --jobs: only the campaign figures")
    parser.add_argument("--junit", action="store_true",
                        help="with --jobs: the campaigns also write JUnit XML")
    parser.add_argument("--cli-jobs", type=int, default=0, metavar="N",
                        help="only `t42 fuzz -j N` against -j 1 (the rate each prints), "
                             "--trials times, --games games each")
    args = parser.parse_args(argv)
    if args.cli_jobs:
        cli_jobs(args.cli_jobs, args.games, args.trials)
        return 0
    serve = f"{sys.executable} -m conformance.cli.main serve"
    if not args.campaigns_only:
        engine = engine_rate(args.seconds, args.trials)
        inproc = fuzz_rate(ReferenceAdapter, args.seconds, args.trials, games=5)
        wire = fuzz_rate(lambda: ProcessAdapter(serve), args.seconds, args.trials, games=2)
        print(f"{'engine alone (uniform rounds)':34} {engine:10,.0f} rounds/s")
        print(f"{'fuzz, in process':34} {inproc:10,.0f} rounds/s  "
              f"{inproc / engine:7.2%} of engine ({engine / inproc:.1f}x its time a round)")
        print(f"{'fuzz, protocol (t42 serve)':34} {wire:10,.0f} rounds/s  "
              f"{wire / engine:7.2%} of engine ({engine / wire:.1f}x its time a round)",
              flush=True)
        # the same in CPU time (both processes over the protocol), side by side
        engine_cpu = engine_rate(args.seconds, args.trials, time.process_time)
        inproc_cpu = fuzz_cpu_rate(ReferenceAdapter, args.seconds, args.trials, games=5)
        wire_cpu = fuzz_cpu_rate(lambda: ProcessAdapter(serve), args.seconds, args.trials,
                                 games=2)
        print(f"{'engine alone, CPU':34} {engine_cpu:10,.0f} rounds/CPU s")
        print(f"{'fuzz, in process, CPU':34} {inproc_cpu:10,.0f} rounds/CPU s  "
              f"{engine_cpu / inproc_cpu:.1f}x the engine's CPU a round")
        print(f"{'fuzz, protocol, CPU (both ends)':34} {wire_cpu:10,.0f} rounds/CPU s  "
              f"{engine_cpu / wire_cpu:.1f}x the engine's CPU a round", flush=True)
    if args.jobs:
        one, many = engine_scaling(args.jobs, args.seconds)
        print(f"engine alone, {args.jobs} processes at once: {many:,.0f} / {one:,.0f} "
              f"rounds/s = {many / one:.2f}x (the machine's own ceiling)", flush=True)
        campaigns("in process", "reference", args.jobs, args.games, args.small, args.trials,
                  args.junit)
        campaigns("protocol", f"cmd:{serve}", args.jobs, args.games // 4, args.small // 4,
                  args.trials, args.junit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
