"""`t42 fuzz`: a campaign of seeded games, its progress line, shrinking and `--save`.

`-j N` plays the games in worker processes (parallel.py); `--shard i/n` plays one of n
ranges of the seeds, for a CI matrix or a Dask cluster (distributed.py), whose saved
causes `merge` puts together.
"""

from __future__ import annotations

import copy
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from conformance.fuzz.differential import Divergence, fuzz
from conformance.report.ended import Ended
from conformance.report.safe import echo


def shard_seeds(seed: int, games: int, shard: str | None) -> range:
    """Seeds seed..seed+games-1; with shard "i/n", the i-th (1-based) of n ranges of
    them, as even as can be: each part is an ordinary campaign of its own seeds, and the
    parts together are the whole. A range, not a list: tools/fuzz_reference.py shards a
    billion seeds."""
    seeds = range(seed, seed + games)
    if not shard:
        return seeds
    try:
        i, n = (int(x) for x in shard.split("/"))
    except ValueError:
        raise click.BadParameter(f"{shard!r} is not i/n", param_hint="--shard") from None
    if not 1 <= i <= n:
        raise click.BadParameter(f"{shard!r}: need 1 <= i <= n", param_hint="--shard")
    return seeds[(i - 1) * games // n:i * games // n]


def parse_variants(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--variants") from None
    if not isinstance(value, dict):
        raise click.BadParameter("a JSON object of options, e.g. '{\"nello\": true}'",
                                 param_hint="--variants")
    return value


class Progress:
    """A progress line on stderr: games, rounds/s, divergences so far, their causes new
    and known. On a terminal it is redrawn every half second; otherwise (CI logs) a line
    every 10 s."""

    def __init__(self, total: int, stream: Any = None,
                 counts: Callable[[], tuple[int, int]] | None = None):
        self.stream = stream or sys.stderr
        # the causes new and known as the campaign would settle them now (Causes.counts),
        # so that the last line agrees with the closing one; else the causes seen so far
        self.counts = counts
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.total, self.games, self.rounds, self.diverged = total, 0, 0, 0
        self.new: set[Any] = set()
        self.known: set[Any] = set()
        self.start = self.last = time.perf_counter()
        self.every = 0.5 if self.tty else 10.0

    def __call__(self, rounds: int, found: object, new: Any = (), known: Any = ()) -> None:
        """One game played: its rounds, whether it diverged, and its causes new and
        known."""
        self.games += 1
        self.rounds += rounds
        self.diverged += bool(found)
        self.new.update(new)
        self.known.update(known)
        now = time.perf_counter()
        if now - self.last >= self.every:
            self.last = now
            self.show(now)

    def line(self, now: float | None = None) -> str:
        seconds = max((now or time.perf_counter()) - self.start, 1e-9)
        new, known = self.counts() if self.counts else (len(self.new), len(self.known))
        causes = f" ({_plural(new, 'new cause')}, {known} known)" if new or known else ""
        return (f"{self.games}/{self.total} games, {self.rounds:,} rounds, "
                f"{self.rounds / seconds:,.0f} rounds/s, {self.diverged} diverged{causes}")

    def show(self, now: float | None = None) -> None:
        end = "\r" if self.tty else "\n"
        self.stream.write(self.line(now) + end)
        self.stream.flush()

    def done(self) -> None:
        if self.tty:
            self.stream.write(" " * 79 + "\r")
            self.stream.flush()


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


@dataclass
class Group:
    """The divergences of one cause: the shortest, the games that showed it."""

    cause: Any
    found: Divergence
    games: set[int]
    known: bool = False
    exact: bool = True  # `found` shows the cause as its first reading, not an alternative


class Causes:
    """A campaign's divergences grouped by the cause the diagnosis finds (save.diagnose,
    as `t42 run` files a failure), a divergence of two causes split; `known` causes
    (`--known`) are counted apart."""

    def __init__(self, adapter: Any, level: str, known: set[tuple[str, str]] | None = None):
        self.adapter, self.level, self.known = adapter, level, known or set()
        self.groups: dict[Any, Group] = {}
        self.not_judged = 0
        self.firm: Counter[str] = Counter()  # the rules of causes that fit one rule only

    def add(self, found: Divergence, diagnosis: Any = None) -> list[Group]:
        """File one divergence; the groups it went to. `diagnosis`: its `diagnose`, when
        a worker process made it (parallel.py)."""
        from conformance.fuzz import save as saving
        from conformance.run.diagnosis import Cause

        diagnosed, not_judged = diagnosis or diagnose(found, self.adapter, self.level)
        if not diagnosed and not_judged:
            self.not_judged += 1
            return []
        if not diagnosed:  # the runner finds no cause: filed under its likeliest rule
            diagnosed = [saving.Diagnosed(Cause(saving.rules_of(found)[0], kind_of(found)),
                                          found)]
        out = []
        for cause, part in diagnosed:
            settled = self._settled(cause, self.firm)
            exact = settled.rule == cause.rule and settled.what == cause.what
            cause = settled
            if not cause.alternatives:
                self.firm[cause.rule] += 1
            out.append(self._file(cause, part, {found.seed}, exact))
        return out

    def _file(self, cause: Any, found: Divergence, games: set[int], exact: bool) -> Group:
        """Add games of `cause` to its group; its example is the shortest of those that
        show the cause as their first reading, when any does."""
        from conformance.fuzz import save as saving

        key = ("entry", cause.entry) if cause.entry else cause  # one decision, one cause
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = Group(cause, found, set(),
                                             saving.is_known(cause, self.known), exact)
        elif (exact, -len(found.steps)) > (group.exact, -len(group.found.steps)):
            group.found, group.exact = found, exact
        group.games |= games
        return group

    @staticmethod
    def _settled(cause: Any, chosen: Counter[str]) -> Any:
        """A cause that fits several rules, filed under the one `chosen` prefers (the
        campaign's other causes), as `t42 run` settles a run's failures."""
        from conformance.run.diagnosis import Cause
        from conformance.run.settle import pick

        options = [(cause.rule, cause.what), *cause.alternatives]
        if not cause.alternatives or not any(rule in chosen for rule, _ in options):
            return cause
        return Cause(*pick(options, chosen), entry=cause.entry)

    def settle(self) -> None:
        """Settle the causes still open between rules together, with the fewest causes
        (settle.cover): the same engine makes the same mistake in every game. A cause
        settled to one already found joins its group."""
        from conformance.run.settle import Filing, cover

        groups = list(self.groups.values())
        open_: list[tuple[list[Filing], tuple[str, ...]]] = [
            ([(g.cause.rule, g.cause.what), *g.cause.alternatives], ())
            for g in groups if g.cause.alternatives]
        if not open_:
            return
        chosen = cover(open_, self.firm)
        self.groups = {}
        for group in groups:
            cause = self._settled(group.cause, chosen)
            exact = group.exact and cause.rule == group.cause.rule
            self._file(cause, group.found, group.games, exact)

    def game(self, played: Any, diagnoses: list[Any] | None = None
             ) -> tuple[list[Any], list[Any]]:
        """File a game's divergences (`diagnoses`: theirs, made by a worker): its new
        causes and its known ones."""
        self.not_judged += played.not_judged
        groups = [g for found, diagnosis in zip(played.divergences,
                                                diagnoses or [None] * len(played.divergences),
                                                strict=True)
                  for g in self.add(found, diagnosis)]
        return ([g.cause for g in groups if not g.known], [g.cause for g in groups if g.known])

    def counts(self) -> tuple[int, int]:
        """The causes new and known as settle() would leave them now (a copy is settled):
        the groups of causes that fit several rules merge once settled, so a count of the
        causes as found is larger than the closing line's."""
        preview = copy.copy(self)
        preview.groups = dict(self.groups)
        preview.settle()
        return len(preview.new()), len(preview.acknowledged())

    def new(self) -> list[Group]:
        return [g for g in self.groups.values() if not g.known]

    def acknowledged(self) -> list[Group]:
        return [g for g in self.groups.values() if g.known]


def diagnose(found: Divergence, adapter: Any, level: str) -> tuple[list[Any], int]:
    """save.diagnose, or nothing when it fails: the diagnosis is a help, and a divergence
    it cannot read is filed by its kind (Causes.add)."""
    from conformance.fuzz import save as saving

    try:
        return saving.diagnose(found, adapter, level)
    except Exception:  # noqa: BLE001 - the diagnosis is a help: file it by its kind
        return [], 0


def kind_of(found: Divergence) -> str:
    """The first of a divergence's signature (an outcome, a code, or a differing field, the
    referee view's before an observation's before the legal actions): what a divergence
    the diagnosis finds no cause for is filed under."""
    order = {"view": 0, "observe": 1, "legal": 2}
    return min(found.finding.signature, key=lambda s: (order.get(s.split(".")[0], -1), s))


def save_checked(found: Divergence, directory: Path, adapter: Any, number: int = 1,
                 stem: str | None = None, cause: Any = None) -> str:
    """Write the divergence as a scenario, run it on the reference and on `adapter`, and
    say so in one line: `  saved PATH (reference passed, NAME failed)`."""
    from conformance.fuzz import save as saving

    path = saving.write(found, directory, adapter.name, number, stem=stem, cause=cause)
    verdict = verify(path, adapter, cause)
    if not verdict.sound:  # a case that does not show its cause is no case: not kept
        path.unlink(missing_ok=True)
        return (f"  not saved: {path.name} does not show the cause alone (reference "
                f"{verdict.reference}, {adapter.name} {verdict.implementation})")
    return (f"  saved {path} (reference {verdict.reference}, "
            f"{adapter.name} {verdict.implementation})")


@dataclass
class Verdict:
    reference: str  # outcome of the saved scenario against the reference
    implementation: str  # "failed", or "failed with another cause" than the one saved

    @property
    def sound(self) -> bool:
        return self.reference == "passed" and self.implementation == "failed"


def verify(path: Path, adapter: Any, cause: Any = None) -> Verdict:
    """A saved scenario must pass on the reference and fail on the implementation (with
    its `cause`, when given: the rule and what of a failure, as `t42 run` files it)."""
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.corpus.scenario import load_scenario
    from conformance.run.runner import run_scenario

    loaded = load_scenario(path)
    if loaded.scenario is None:
        return Verdict("invalid: " + "; ".join(str(p) for p in loaded.problems[:2]), "-")
    theirs = run_scenario(loaded.scenario, adapter)
    outcome = theirs.outcome.value
    if cause is not None and outcome == "failed" and not any(
            (cause.rule, cause.what) in [(d.rule, d.cause), *map(tuple, d.alternatives)]
            for d in theirs.failures):
        outcome = "failed with another cause"
    return Verdict(run_scenario(loaded.scenario, ReferenceAdapter()).outcome.value, outcome)


def _in_workers(workers: Any, seeds: range, on_game: Any
                ) -> tuple[int, list[Divergence], list[str]]:
    """`differential.fuzz`'s result, the games played by worker processes: each game
    reaches `on_game` in seed order, with its diagnoses."""
    from conformance.fuzz.differential import Played

    divergences: list[Divergence] = []
    errors: list[str] = []
    for outcome in workers.games(seeds):
        if outcome.error:
            errors.append(outcome.error)
        played = outcome.played or Played(seed=outcome.seed)
        divergences += played.divergences
        on_game(played, outcome.diagnoses or None)
    return len(seeds), divergences, errors


def _refused(variants: dict[str, Any] | None) -> str | None:
    """The reference's message when it refuses a setup with these options."""
    import random

    from conformance.adapters.protocol import Rejected
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.fuzz.differential import random_setup

    try:
        ReferenceAdapter().start(random_setup(random.Random(0), "hands", variants or {}))
    except Rejected as refusal:
        return str(refusal)
    return None


@dataclass(frozen=True)
class FuzzPlan:
    """What a campaign will do, resolved from its options before any adapter starts."""

    adapter_spec: str
    seed: int
    seeds: range
    game: Any  # differential.Game: illegal rate, rounds, variants, deal, level
    timeout: float
    save: Path | None
    shard: str | None
    shrink: bool
    acknowledged: frozenset[tuple[str, str]]
    jobs: int
    in_process: bool

    @property
    def level(self) -> str:
        return str(self.game.level)


@dataclass
class Ran:
    """What the games gave: the count, the divergences, the errors, the causes found."""

    played: int
    divergences: list[Divergence]
    errors: list[str]
    causes: Causes
    progress: Progress
    stopped: list[str]
    start: float
    seconds: float


def fuzz_command(adapter_spec: str, *, games: int, seed: int, illegal_rate: float,
                 rounds: int, timeout: float, variants_json: str | None = None,
                 deal: str = "hands", level: str = "strict", save: Path | None = None,
                 shard: str | None = None, shrink: bool = True,
                 known: tuple[Path, ...] = (), jobs: int = 1,
                 in_process: bool = False) -> int:
    """Print each new cause's divergence (shrunk), the known causes and a closing count
    line; non-zero if a new cause was found or a game errored. `jobs` > 1: the games are
    played by that many worker processes (parallel.py), with the same result. Resolve,
    start, play, report; every early end is an `Ended`, told in one place."""
    try:
        plan = _resolve(adapter_spec, games, seed, illegal_rate, rounds, timeout,
                        variants_json, deal, level, save, shard, shrink, known, jobs,
                        in_process)
        workers, adapter = _start(plan)
        try:
            ran = _play(plan, adapter, workers)
            new, shrinking = _report_causes(plan, adapter, ran)
        finally:
            adapter.close()
        return _close(plan, adapter, ran, new, shrinking)
    except Ended as ended:
        return ended.tell()


def _resolve(adapter_spec: str, games: int, seed: int, illegal_rate: float, rounds: int,
             timeout: float, variants_json: str | None, deal: str, level: str,
             save: Path | None, shard: str | None, shrink: bool, known: tuple[Path, ...],
             jobs: int, in_process: bool) -> FuzzPlan:
    """The campaign's plan; Ended at the first option the campaign cannot start with."""
    from conformance.fuzz import save as saving
    from conformance.fuzz.differential import Game

    variants = parse_variants(variants_json)
    refused = _refused(variants)
    if refused:
        raise Ended(f"--variants: the reference engine refuses {variants_json}: {refused}")
    acknowledged: set[tuple[str, str]] = set()
    for path in known:
        try:
            acknowledged |= saving.known_causes(path)
        except ValueError as error:  # each problem as FILE:LINE: what
            raise Ended(f"--known {path} cannot be read:\n{error}",
                        f"0 agreed, 0 diverged, 0 errored (no game played: --known {path} "
                        "cannot be read)") from None
    if save:
        from conformance.report.outputs import unwritable_folder

        why = unwritable_folder(save)  # found now, not after the campaign
        if why:
            raise Ended(f"--save: cannot write {save}: {why}",
                        f"0 agreed, 0 diverged, 0 errored (no game played: --save {save} "
                        "cannot be written)")
    return FuzzPlan(adapter_spec, seed, shard_seeds(seed, games, shard),
                    Game(illegal_rate, rounds, variants, deal, level), timeout, save, shard,
                    shrink, frozenset(acknowledged), jobs, in_process)


def _start(plan: FuzzPlan) -> tuple[Any, Any]:
    """The worker processes (for -j > 1) and the adapter; Ended (the workers stopped) when
    the adapter cannot be built or is unusable."""
    from conformance.adapters.loading import load_adapter
    from conformance.adapters.protocol import broken_stderr_note

    workers = None
    if plan.jobs > 1 and len(plan.seeds) > 1:  # started first: a fork copies no adapter's
        from conformance.fuzz.parallel import Setting, Workers  # pipes

        workers = Workers(Setting(plan.adapter_spec, plan.timeout, plan.in_process, plan.game),
                          min(plan.jobs, len(plan.seeds)))
    try:
        adapter = load_adapter(plan.adapter_spec, plan.timeout, in_process=plan.in_process)
    except Exception as error:  # noqa: BLE001 - report any failure to build the adapter
        if workers:
            workers.stop()
        raise Ended(f"cannot load adapter {plan.adapter_spec!r}: {type(error).__name__}: "
                    f"{error}") from None
    if adapter.broken:
        adapter.close()
        if workers:
            workers.stop()
        raise Ended(f"the implementation is unusable: {adapter.broken}"
                    f"{broken_stderr_note(adapter)}")
    declared = set(getattr(adapter, "variants", None) or ())
    undeclared = sorted(set(plan.game.variants or ()) - declared)
    if undeclared:  # its games would judge rules it never claimed: every one a false cause
        adapter.close()
        if workers:
            workers.stop()
        name = getattr(adapter, "name", plan.adapter_spec)
        raise Ended(f"--variants: {name} does not declare {', '.join(undeclared)} (its "
                    f"hello's `variants`: {', '.join(sorted(declared)) or 'none'}); "
                    "a campaign plays only options the implementation declares",
                    "0 agreed, 0 diverged, 0 errored (no game played: --variants names "
                    f"{', '.join(undeclared)}, which the implementation does not declare)")
    return workers, adapter


def _play(plan: FuzzPlan, adapter: Any, workers: Any) -> Ran:
    """The games, in workers or here, each settled into causes as it ends; Ended with the
    signal's status on Ctrl-C, SIGTERM or SIGHUP (adapters/stopping.py)."""
    causes = Causes(adapter, plan.level, set(plan.acknowledged))
    progress = Progress(len(plan.seeds), counts=causes.counts)
    stopped: list[str] = []

    def on_game(played: Any, diagnoses: list[Any] | None = None) -> None:
        new, old = causes.game(played, diagnoses)
        if played.stopped:
            stopped.append(f"game seed {played.seed}: {played.stopped}")
        progress(played.rounds, played.divergences, new, old)

    start = time.perf_counter()
    game = plan.game
    try:
        if workers:
            played, divergences, errors = _in_workers(workers, plan.seeds, on_game)
        else:
            played, divergences, errors = fuzz(
                adapter, len(plan.seeds), plan.seed, illegal_rate=game.illegal_rate,
                max_rounds=game.max_rounds, variants=game.variants, deal=game.deal,
                level=game.level, seeds=plan.seeds, on_game=on_game)
    except KeyboardInterrupt as stop:
        from conformance.adapters import stopping

        if workers:
            workers.stop()
        how, status = stopping.what(stop)
        progress.done()
        raise Ended(None, f"interrupted ({how}) after {progress.games} of {len(plan.seeds)} "
                    f"games: {progress.games - progress.diverged} agreed, {progress.diverged} "
                    "diverged; no cause shrunk or saved", status=status) from None
    progress.done()
    seconds = time.perf_counter() - start
    if workers:
        workers.close()
    causes.settle()
    return Ran(played, divergences, errors, causes, progress, stopped, start, seconds)


def _report_causes(plan: FuzzPlan, adapter: Any, ran: Ran) -> tuple[list[Any], float]:
    """Each new cause shrunk (unless --no-shrink), printed and saved; the known ones
    named. Returns the new causes and the seconds spent shrinking and saving."""
    from conformance.fuzz import save as saving
    from conformance.fuzz.shrink import shrink as shrink_one

    new = ran.causes.new()
    stems: set[str] = set()
    shrinking = time.perf_counter()
    for number, group in enumerate(new, 1):
        found = group.found
        if plan.shrink:
            found = shrink_one(adapter, found, plan.level,
                               keeps=saving.shows(group.cause, adapter, plan.level,
                                                  group.exact))
        echo(f"cause {number}: {group.cause.rule}: {group.cause.what}")
        echo(f"{_plural(len(group.games), 'game')} showed it; the shortest:")
        echo(found.render())
        echo(saving.rule_line(found, group.cause))
        if plan.save:  # named by its cause, as pytest names it: a later campaign's same
            stem = saving.save_stem(group.cause)  # cause replaces it, never duplicates it
            stem += f"-{number}" if stem in stems else ""
            stems.add(stem)
            echo(save_checked(found, plan.save, adapter, number, stem=stem,
                              cause=group.cause))
        echo("")
    for group in ran.causes.acknowledged():
        echo(f"known cause {group.cause.rule}: {group.cause.what} "
             f"({_plural(len(group.games), 'game')}; not shrunk)")
    return new, time.perf_counter() - shrinking


def _close(plan: FuzzPlan, adapter: Any, ran: Ran, new: list[Any], shrinking: float) -> int:
    """The games stopped, the errors, the rate line and the count line; the status."""
    for where in ran.stopped[:3]:  # a few: they all end like the causes above
        echo(f"stopped (the referee states differ): {where}")
    if len(ran.stopped) > 3:
        echo(f"stopped (the referee states differ): ... and {len(ran.stopped) - 3} more "
             "games")
    for errored in ran.errors:
        echo(f"ERRORED {errored}")
    diverged = len({d.seed for d in ran.divergences})
    agreed = ran.played - diverged - len(ran.errors)
    what = f"{ran.played} games" + (f" (shard {plan.shard})" if plan.shard else "") + \
        f" from seed {plan.seed}"
    rounds, deal, level = ran.progress.rounds, plan.game.deal, plan.level
    # the rate is of the games (their diagnosis included); shrinking and saving the causes
    # after them is said apart, and the whole wall time beside
    echo(f"{rounds:,} rounds in {ran.seconds:.1f} s of play and diagnosis "
         f"({rounds / max(ran.seconds, 1e-9):,.0f} rounds/s), "
         f"{shrinking:.1f} s shrinking and saving, "
         f"{time.perf_counter() - ran.start:.1f} s in all; "
         f"deal {deal}, "
         f"level {level}, {_plural(len(new), 'new cause')}, "
         f"{len(ran.causes.acknowledged())} known, {ran.causes.not_judged} differences not "
         f"judged at {level}; "
         f"{_plural(len(ran.stopped), 'game')} stopped where the referee states differed")
    echo(f"{agreed} agreed, {diverged} diverged, {len(ran.errors)} errored ({what}, against "
         f"{adapter.name} {adapter.version})")
    return 1 if new or ran.errors else 0
