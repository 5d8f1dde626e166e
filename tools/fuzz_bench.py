"""Throughput of `t42 fuzz`: complete rounds per second, in one run, three ways.

    python tools/fuzz_bench.py [--seconds S] [--jobs N]

- engine: the reference engine alone playing uniform random rounds
  (reference_impl.bench, policy (b)): the ceiling the harness is measured against;
- in process: `fuzz()` against a second in-process reference adapter;
- protocol: `fuzz()` against `t42 serve` over the JSON-lines protocol.

Each fuzz figure is also printed as a share of the engine's rate. With `--jobs N` the
two fuzz figures are measured again as a campaign of N pytest-xdist workers
(`pytest --t42-fuzz`), and printed with their speed-up over one worker. Figures are wall
time, the best of `--trials` runs, so other load on the machine only ever lowers them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
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

    def pipeline(self, requests):
        replies = self.inner.pipeline(requests)
        if requests[0][0] in ("setup", "deal") and not isinstance(replies[0], Exception):
            self.rounds += 1
        return replies

    def close(self) -> None:
        self.inner.close()


def engine_rate(seconds: float, trials: int) -> float:
    from reference_impl.bench import new_round, uniform_round

    rng, best = random.Random(0), 0.0
    for _ in range(trials):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / trials:
            for _ in range(20):
                uniform_round(new_round(rng), rng)
            done += 20
        best = max(best, done / (time.perf_counter() - start))
    return best


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


def campaign_rate(adapter: str, jobs: int, games: int) -> float:
    """Rounds/s of `pytest --t42-fuzz` with `-n jobs` (0: no xdist), steady state: two
    campaigns of `games` and 3 x `games` games, the rounds and the wall time of the
    difference, so that starting the workers is not counted."""
    import re
    import subprocess
    import tempfile

    def run(count: int) -> tuple[int, float]:
        with tempfile.TemporaryDirectory() as tmp:
            junit = Path(tmp) / "fuzz.xml"
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                       "--rootdir", tmp, tmp, "--t42-fuzz", str(count), "--t42-fuzz-seed",
                       "1000000", "--t42-adapter", adapter, f"--junitxml={junit}"]
            command += ["-n", str(jobs)] if jobs else ["-p", "no:xdist"]
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=True, cwd=tmp)
            seconds = time.perf_counter() - start
            rounds = sum(map(int, re.findall(r'name="rounds" value="(\d+)"',
                                             junit.read_text())))
        return rounds, seconds

    small, large = run(games), run(3 * games)
    return (large[0] - small[0]) / max(large[1] - small[1], 1e-9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per figure")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0,
                        help="also measure pytest --t42-fuzz campaigns with -n JOBS")
    parser.add_argument("--games", type=int, default=300,
                        help="games of the smaller campaign for --jobs (in process)")
    args = parser.parse_args(argv)
    serve = f"{sys.executable} -m conformance.cli.main serve"
    engine = engine_rate(args.seconds, args.trials)
    inproc = fuzz_rate(ReferenceAdapter, args.seconds, args.trials, games=5)
    wire = fuzz_rate(lambda: ProcessAdapter(serve), args.seconds, args.trials, games=2)
    print(f"{'engine alone (uniform rounds)':34} {engine:10,.0f} rounds/s")
    print(f"{'fuzz, in process':34} {inproc:10,.0f} rounds/s  {inproc / engine:7.2%} of engine")
    print(f"{'fuzz, protocol (t42 serve)':34} {wire:10,.0f} rounds/s  "
          f"{wire / engine:7.2%} of engine")
    if args.jobs:
        for label, adapter, games in (("in process", "reference", args.games),
                                      ("protocol", f"cmd:{serve}", args.games // 4)):
            one = campaign_rate(adapter, 0, games)
            many = campaign_rate(adapter, args.jobs, games)
            print(f"{'pytest --t42-fuzz, ' + label:34} {one:10,.0f} rounds/s; with -n "
                  f"{args.jobs}: {many:,.0f} rounds/s, {many / one:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
