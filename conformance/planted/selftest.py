"""`t42 selftest`: run the corpus against every planted-bug engine; each must be caught.

A scenario *catches* a planted bug when it passes against the reference engine and fails
against the planted one. Each plant is run at level strict, and the table says the lowest
conformance level (spec/levels.yaml) at which it is caught: the lowest level of a failed
check in any catching scenario. A plant that breaks a rule of the game must be caught at
level `rules`; one that only breaks a convention of the spec says so (`Bug.level`). A
planted engine that crashes (an errored result) is a broken plant, not a catch: it is
reported and fails the selftest.

By default a bug's run stops at its first catch at the level it must be caught at, the
scenarios citing its rule first: the question is whether the corpus catches it, and most
plants are caught within a few scenarios. `--full` runs every bug over the whole corpus
(no early stop), so the table shows how many scenarios see each mistake, how many of them
cite the rule it breaks, and every crash of a plant anywhere in the corpus.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from conformance.run.results import Outcome


@dataclass
class BugResult:
    name: str
    rule: str
    description: str
    catching: list[str] = field(default_factory=list)  # scenario ids, corpus order
    citing: int = 0  # catching scenarios that cite the broken rule
    errored: list[str] = field(default_factory=list)  # "id: message" of crashes
    variant: bool = False  # a variant plant (declares options), else a base plant
    level: str | None = None  # the lowest level at which it is caught
    wanted: str = "rules"  # the level it must be caught at: rules, unless a convention
    # --full: the report's groups (cause) of its failures judged at `wanted`, largest first
    groups: list[tuple[str, str, int]] = field(default_factory=list)

    also: tuple[str, ...] = ()  # the rules the catalog says it breaks as well, and why
    why: str = ""

    @property
    def named(self) -> bool:
        """Every group of its report names the rule it breaks (the diagnosis is right)."""
        return all(rule == self.rule for rule, _, _ in self.groups)

    @property
    def explained(self) -> bool:
        """Every group names its rule or one the catalog says it also breaks, by the spec."""
        return all(rule in (self.rule, *self.also) for rule, _, _ in self.groups)

    @property
    def caught(self) -> bool:
        return bool(self.catching)

    @property
    def caught_in_time(self) -> bool:
        """Caught at its level or below."""
        from conformance.specdata.index import load_index

        levels = load_index().levels
        return self.level is not None and levels.judged(self.level, self.wanted)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rule": self.rule, "description": self.description,
                "caught": len(self.catching), "citing": self.citing,
                "variant": self.variant, "level": self.level, "wanted": self.wanted,
                "catching": self.catching,
                "errored": self.errored,
                "groups": [{"rule": r, "cause": w, "scenarios": n} for r, w, n in self.groups]}


@dataclass
class SelfTest:
    scenarios: int
    reference_failures: list[str]  # ids that fail against the reference: not used
    invalid_files: list[str]
    bugs: list[BugResult]
    seconds: float = 0.0
    full: bool = True  # every bug over every scenario; else each to its first catch

    @property
    def ok(self) -> bool:
        return (all(b.caught_in_time and not b.errored for b in self.bugs)
                and not self.invalid_files)

    def to_json(self) -> dict[str, Any]:
        return {"scenarios": self.scenarios, "reference_failures": self.reference_failures,
                "invalid_files": self.invalid_files, "seconds": round(self.seconds, 3),
                "ok": self.ok, "full": self.full, "bugs": [b.to_json() for b in self.bugs]}


def run_bug(bug: Any, scenarios: Sequence[Any], index: Any, full: bool = True) -> BugResult:
    """The corpus against one planted engine: every scenario (`full`), or the scenarios
    citing its rule first and then the others, until the first catch at its level."""
    from conformance.run.runner import run_scenario

    adapter = bug.adapter()
    result = BugResult(bug.name, bug.rule, bug.description, also=bug.also, why=bug.why,
                       variant=bool(adapter.variants),
                       wanted=getattr(bug, "level", "rules"))
    rank = index.levels.rank
    if not full:  # a stable sort: the corpus order within each part
        scenarios = sorted(scenarios, key=lambda s: bug.rule not in s.rules)
    failed, agreed = [], []
    for scenario in scenarios:
        outcome = run_scenario(scenario, adapter, index)
        if outcome.outcome in (Outcome.PASSED, Outcome.NOT_JUDGED):
            agreed.append(replace(outcome, not_judged=[], checks=[]))  # settle's evidence
        if outcome.outcome is Outcome.FAILED:
            failed.append(outcome)
            result.catching.append(scenario.id)
            result.citing += bug.rule in scenario.rules
            lowest = min((d.level for d in outcome.failures), key=rank)
            if result.level is None or rank(lowest) < rank(result.level):
                result.level = lowest
            if not full and result.caught_in_time:
                break
        elif outcome.outcome is Outcome.ERRORED:
            assert outcome.detail is not None  # an errored result says why (run_scenario)
            result.errored.append(f"{scenario.id}: {outcome.detail.message}")
    if full:
        result.groups = report_groups(failed, result.wanted, index, agreed)
    return result


def report_groups(failed: list[Any], level: str, index: Any, agreed: Sequence[Any] = ()
                  ) -> list[tuple[str, str, int]]:
    """The groups `t42 run --level LEVEL` prints for these failed results, beside the
    scenarios that `agreed` (settle reads which rules they cite): (rule, cause,
    scenarios), largest first."""
    from conformance.report.text import groups
    from conformance.run.settle import settle

    judged = [replace(r, failures=[d for d in r.failures if index.levels.judged(d.level, level)])
              for r in failed]
    return [(g.rule, g.what, len(g.ids))
            for g in groups(settle([*(r for r in judged if r.failures), *agreed]))]


def run_selftest(paths: Sequence[Path] = (), keyword: str | None = None,
                 jobs: int = 1, full: bool = False) -> SelfTest:
    """Load the corpus once, keep the scenarios the reference passes, run every bug (to
    its first catch, or over every scenario with `full`)."""
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.corpus import select as suite
    from conformance.planted import BUGS
    from conformance.run.runner import run_scenario
    from conformance.specdata.files import display_path
    from conformance.specdata.index import load_index

    start = time.perf_counter()
    index = load_index()
    loaded = suite.load(list(paths))
    invalid = [display_path(item.path) for item in loaded if item.scenario is None]
    scenarios, failing = [], []
    reference = ReferenceAdapter()
    for item in loaded:
        if item.scenario is None:
            continue
        outcome = run_scenario(item.scenario, reference, index).outcome
        if outcome is Outcome.PASSED:
            scenarios.append(item.scenario)
        elif outcome is not Outcome.SKIPPED:  # skipped: a variant the reference lacks
            failing.append(item.scenario.id)
    bugs = [b for b in BUGS if not keyword or keyword in b.name]
    results = _run_bugs(bugs, scenarios, index, jobs, full)
    return SelfTest(len(scenarios), failing, invalid, results, time.perf_counter() - start,
                    full)


def _run_bugs(bugs: list[Any], scenarios: list[Any], index: Any, jobs: int,
              full: bool) -> list[BugResult]:
    if jobs <= 1 or len(bugs) < 2:
        return [run_bug(bug, scenarios, index, full) for bug in bugs]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _SHARED
    _SHARED = (scenarios, index, full)  # inherited by the forked workers, never pickled
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return list(pool.map(_run_named, [b.name for b in bugs]))


_SHARED: tuple[list[Any], Any, bool] = ([], None, True)


def _run_named(name: str) -> BugResult:
    from conformance.planted import BY_NAME

    return run_bug(BY_NAME[name], *_SHARED)


# ---- output ------------------------------------------------------------------------


def table(report: SelfTest, show: int = 3) -> Iterable[str]:
    width = max([len(b.name) for b in report.bugs] + [3])
    if not report.full:
        yield ("each bug run to its first catch at its level, the scenarios citing its rule "
               "first (--full: every scenario)")
    yield (f"{'bug':{width}}  {'rule':9} {'caught':>6} {'citing':>6}  {'level':7} "
           "first catching scenarios")
    for b in report.bugs:
        shown = ", ".join(b.catching[:show]) + (" ..." if len(b.catching) > show else "")
        mark = "" if b.caught else "NOT CAUGHT"
        if b.caught and not b.caught_in_time:
            mark = f"NOT CAUGHT AT LEVEL {b.wanted}: "
        level = b.level or "-"
        yield (f"{b.name:{width}}  {b.rule:9} {len(b.catching):6} {b.citing:6}  {level:7} "
               f"{mark}{shown}")
        for line in b.errored[:show]:
            yield f"{'':{width}}  BROKEN PLANT, errored: {line}"
    for path in report.invalid_files:
        yield f"invalid scenario file (not run): {path}"
    for scenario_id in report.reference_failures:
        yield f"note: {scenario_id} fails against the reference engine (not used)"
    for kind, variant in (("base", False), ("variant", True)):
        bugs = [b for b in report.bugs if b.variant is variant]
        if bugs:
            yield f"{kind} plants: {sum(b.caught for b in bugs)} of {len(bugs)} caught"
    if report.full:
        yield from diagnosis_lines(report)
    caught = sum(b.caught for b in report.bugs)
    broken = sum(bool(b.errored) for b in report.bugs)
    at: dict[str, int] = {}
    for b in report.bugs:
        at[b.level or "not caught"] = at.get(b.level or "not caught", 0) + 1
    yield "caught at level: " + ", ".join(f"{name} {n}" for name, n in at.items())
    yield (f"{len(report.bugs)} planted bugs, {caught} caught by the {report.scenarios} "
           f"scenarios the reference passes, {len(report.bugs) - caught} not caught, "
           f"{broken} broken plants ({report.seconds:.2f} s)")


def diagnosis_lines(report: SelfTest) -> Iterable[str]:
    """--full: for each plant whose report names another rule than its own, its groups;
    then how many plants' reports name only their rule."""
    failing = [b for b in report.bugs if b.groups]
    for b in failing:
        if not b.named:
            also = f" [also {', '.join(b.also)}: {b.why}]" if b.explained else ""
            yield f"diagnosis of {b.name} ({b.rule}): " + "; ".join(
                f"{rule} x{n} ({what})" for rule, what, n in b.groups[:4]) + also
    named = sum(b.named for b in failing)
    explained = sum(b.explained for b in failing)
    groups = sum(len(b.groups) for b in failing)
    share = max(len(failing), 1)
    yield (f"diagnosis: every group names the plant's rule for {named} of the {len(failing)} "
           f"plants that fail ({100 * named / share:.0f}%); {explained} "
           f"({100 * explained / share:.0f}%) counting the rules the catalog says a plant "
           f"also breaks, with why; {groups / share:.1f} groups a plant")


def selftest_command(paths: Sequence[Path] = (), keyword: str | None = None, jobs: int = 1,
                     full: bool = False, show: int = 3, as_json: bool = False,
                     list_only: bool = False) -> int:
    """`t42 selftest` (cli/main.py): the exit status, 0 when every plant is caught."""
    if list_only:
        from conformance.planted import BUGS

        for bug in BUGS:
            print(f"{bug.name:32} {bug.rule:9} {bug.description}")
        return 0
    report = run_selftest(paths, keyword, jobs, full)
    if as_json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for line in table(report, show):
            print(line)
    return 0 if report.ok and report.bugs else 1
