"""What running one scenario produced: an outcome and, when it is not a pass, why."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from conformance.run.matching import MISSING, Difference, show
from conformance.specdata.levels import STRICT, Level


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"  # the implementation gave a wrong answer
    ERRORED = "errored"  # it crashed, hung or broke the protocol; or the scenario file is invalid
    SKIPPED = "skipped"  # it does not declare a variant or capability the scenario needs
    NOT_JUDGED = "not judged"  # it differs only in checks above the run's level


@dataclass(frozen=True)
class Check:
    """One check the runner made (levels.yaml `checks`), for the compliance table."""

    kind: str
    level: Level
    rules: tuple[str, ...]
    passed: bool
    judged: bool  # False: above the run's level, counted as not judged whatever it found


_CHECKS: dict[Check, Check] = {}  # each distinct check once: a run keeps many alike


def interned(check: Check) -> Check:
    """The one Check equal to `check` (a run's results keep one per check made, most of
    them alike: shared, they cost a pointer each)."""
    return _CHECKS.setdefault(check, check)


_TUPLES: dict[tuple[str, ...], tuple[str, ...]] = {}


def shared(names: tuple[str, ...]) -> tuple[str, ...]:
    """One tuple of names (a result's rules, its options) for all equal ones."""
    return _TUPLES.setdefault(names, names)


@dataclass
class Detail:
    message: str
    step: str | None = None  # "steps[3]", "setup.contract", "setup"
    line: int | None = None
    action: object = MISSING  # the payload the step sent (any JSON: a malformed one too)
    rules: tuple[str, ...] = ()
    differences: list[Difference] = field(default_factory=list)
    stderr: str = ""
    problems: list[str] = field(default_factory=list)  # an invalid scenario file
    kind: str = ""  # the check that failed (levels.yaml `checks`); "" for an error
    level: str = ""  # that check's level
    rule: str = ""  # the rule the failure is filed under (grouping, rule text)
    context: list[str] = field(default_factory=list)  # the rule text, the table picture
    cause: str = ""  # what the engine did wrong, generalised over tiles and seats
    first_seen: str = ""  # the earlier step where the states first differed, if any
    since: list[str] = field(default_factory=list)  # the steps since the last checked one
    # other [rule, cause] pairs the failure fits as well, for settle (diagnosis.py)
    alternatives: list[list[str]] = field(default_factory=list)
    # the reference's rule-table entry whose decision explains it, if one does (settle)
    entry: str = ""
    # rules that explain every failure `rule` explains, and no other: nothing in the run
    # tells them from `rule` (settle); the report says so rather than guess
    either: list[str] = field(default_factory=list)
    # options' rules stated through `rule` (their text cites it), filed with it: the same
    # mistake where the option is on (settle)
    through: list[str] = field(default_factory=list)
    # the rules of the options in force that the failing step's decisions name (settle)
    decided: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, str]:
        """Failures with the same key print as one group: the same rule broken, at the
        same level (the ways it showed are listed in the group); a form mistake, named
        by its document, is one group per mistake."""
        form = not re.match(r"^[A-Z][A-Z0-9]*-\d+$", self.rule)
        return (self.rule, self.cause or self.kind if form else "", self.level)

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "step": self.step,
            "line": self.line,
            "action": None if self.action is MISSING else self.action,
            "kind": self.kind,
            "level": self.level,
            "rule": self.rule,
            "cause": self.cause,
            "first_seen": self.first_seen,
            "since": self.since,
            "alternatives": self.alternatives,
            "entry": self.entry,
            "either": self.either,
            "through": self.through,
            "decided": self.decided,
            "rules": list(self.rules),
            "differences": [
                {"path": d.path,
                 "expected": None if d.expected is MISSING else d.expected,
                 "actual": None if d.actual is MISSING else d.actual,
                 "note": d.note or ("absent" if d.actual is MISSING else "")}
                for d in self.differences
            ],
            "stderr": self.stderr,
            "problems": self.problems,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Detail:
        """The Detail `to_json` wrote (a pytest-xdist worker's, on the controller)."""
        differences = [Difference(d["path"], d["expected"], d["actual"], d["note"])
                       for d in data.get("differences", [])]
        return cls(data["message"], data.get("step"), data.get("line"),
                   MISSING if data.get("action") is None else data["action"],
                   tuple(data.get("rules", ())), differences, data.get("stderr", ""),
                   list(data.get("problems", [])), data.get("kind", ""),
                   data.get("level", ""), data.get("rule", ""),
                   cause=data.get("cause", ""), first_seen=data.get("first_seen", ""),
                   since=list(data.get("since", [])),
                   alternatives=[list(a) for a in data.get("alternatives", [])],
                   entry=data.get("entry", ""), either=list(data.get("either", [])),
                   through=list(data.get("through", [])),
                   decided=list(data.get("decided", [])))

    def lines(self, cause: bool = True) -> list[str]:
        """The block's lines; `cause=False` in a group, whose head names the cause."""
        out = []
        if self.action is not MISSING:
            out.append(f"action: {show(self.action)}")
        elif self.step and self.step.startswith("steps["):
            out.append(f"after {self.step} (an expectation only)")
        if self.kind:
            out.append(f"check: {self.kind} (level {self.level})")
        elif self.rules:
            out.append(f"rules: {', '.join(self.rules)}")
        if self.cause and cause:
            out.append(f"cause: {self.rule}: {self.cause}")
        if self.first_seen:
            out.append(f"the engine's state first differed from the reference's after "
                       f"{self.first_seen}, a step nothing checked")
        if self.since:
            out.append("since the last checked step: " + "; ".join(self.since))
        out.append(self.message)
        out += difference_lines(self.differences)
        out += self.context
        out += self.problems
        if self.stderr:
            out.append("stderr of the implementation:")
            out += [f"  | {line}" for line in self.stderr.splitlines()]
        return out


def difference_lines(differences: list[Difference], many: int = 4) -> list[str]:
    """One line per difference; many legal actions extra or missing as one line per kind
    (`18 declarations with stacks missing: ...`)."""
    divide = [d for d in differences if d.path.startswith("perft.divide.")]
    if len(divide) > many:  # a count per first action: one line, not one per action
        rest = [d for d in differences if d not in divide]
        return [*difference_lines(rest, many), _divide_line(divide)]
    legal = [d for d in differences if d.path == "legal"]
    if len(legal) <= many:
        return [d.render() for d in differences]
    kinds: dict[tuple[str, str], list[object]] = {}
    for d in legal:
        action = d.actual if d.expected is MISSING else d.expected
        noun = action.get("type", "action") if isinstance(action, dict) else "action"
        if isinstance(action, dict) and "stacks" in action:
            noun += " with stacks"
        kinds.setdefault((noun, d.note), []).append(action)
    out = [d.render() for d in differences if d.path != "legal"]
    for (noun, note), actions in kinds.items():
        shown = ", ".join(show(a) for a in actions[:2])
        more = f" (+{len(actions) - 2} more)" if len(actions) > 2 else ""
        out.append(f"legal: {len(actions)} {noun} actions, {note}: {shown}{more}")
    return out


def _divide_line(divide: list[Difference], shown: int = 3) -> str:
    """Perft's divide differences in one line: `perft.divide: 7 first actions differ
    (expected/actual): play:0|3 2/7, play:1|1 3/7, play:1|5 1/7 (+4 more)`."""
    def count(value: object) -> str:
        return "absent" if value is MISSING else show(value)

    each = [f"{d.path.removeprefix('perft.divide.')} {count(d.expected)}/{count(d.actual)}"
            for d in divide]
    more = f" (+{len(each) - shown} more)" if len(each) > shown else ""
    return (f"perft.divide: {len(divide)} first actions differ (expected/actual): "
            f"{', '.join(each[:shown])}{more}")


@dataclass(slots=True)  # a run keeps one per scenario: no __dict__ each
class Result:
    id: str
    path: str
    outcome: Outcome
    seconds: float = 0.0
    detail: Detail | None = None
    reason: str = ""  # why it was skipped
    expected_failure: bool = False  # listed in --expected-failures and did not pass
    variants: tuple[str, ...] = ()  # the options the scenario needs (spec/variants.md)
    title: str = ""
    failures: list[Detail] = field(default_factory=list)  # every judged failure, in order
    not_judged: list[Detail] = field(default_factory=list)  # differences above the level
    checks: list[Check] = field(default_factory=list)
    stopped: str = ""  # why the run stopped before the scenario's end, if it did
    rules: tuple[str, ...] = ()  # the rules the scenario cites
    size: int = 0  # its steps: the shortest failing scenario is a group's example
    missing: tuple[str, ...] = ()  # skipped: the options it needs that were not declared
    # capability -> its checks not judged: the implementation does not declare it
    unanswered: dict[str, int] = field(default_factory=dict)
    # run with a supported setting value in place of one the scenario does not depend on
    # (run/standin.py): `plunge when: "any_time" for "before_bids"`
    stand_in: tuple[str, ...] = ()
    # what an HTML report draws of the failing steps (run/pictures.py), kept only when a
    # report is asked for; not part of to_json (the JSON report's schema has no place)
    pictures: dict[str, Any] = field(default_factory=dict)

    @property
    def where(self) -> str:
        if self.detail and self.detail.line:
            return f"{self.path}:{self.detail.line}"
        return self.path

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        """The Result `to_json` wrote, less its checks (see book.compliance)."""
        detail = data.get("detail")
        return cls(data["id"], data["path"], Outcome(data["outcome"]), data.get("seconds", 0.0),
                   Detail.from_json(detail) if detail else None, data.get("reason", ""),
                   data.get("expected_failure", False), tuple(data.get("variants", ())),
                   data.get("title", ""),
                   [Detail.from_json(d) for d in data.get("failures", [])],
                   [Detail.from_json(d) for d in data.get("not_judged", [])],
                   stopped=data.get("stopped", ""), rules=tuple(data.get("rules", ())),
                   size=data.get("size", 0), missing=tuple(data.get("missing", ())),
                   unanswered=dict(data.get("unanswered", {})),
                   stand_in=tuple(data.get("stand_in", ())))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "outcome": self.outcome.value,
            "expected_failure": self.expected_failure,
            "seconds": round(self.seconds, 6),
            "reason": self.reason,
            "variants": list(self.variants),
            "title": self.title,
            "detail": self.detail.to_json() if self.detail else None,
            "failures": [d.to_json() for d in self.failures],
            "not_judged": [d.to_json() for d in self.not_judged],
            "stopped": self.stopped,
            "rules": list(self.rules),
            "size": self.size,
            "missing": list(self.missing),
            "unanswered": dict(self.unanswered),
            "stand_in": list(self.stand_in),
        }

    def report(self, detail: Detail | None = None, cause: bool = True) -> str:
        """The block a person reads to fix their engine: one failure (default: the
        first), with the scenario's title and where the run stopped."""
        detail = detail or self.detail
        head = self.outcome.value.upper()
        if self.expected_failure:
            head += " (expected)"
        where = f"{self.path}:{detail.line}" if detail and detail.line else self.path
        step = f", {detail.step}" if detail and detail.step else ""
        lines = [f"{head} {self.id} ({where}{step})"]
        if self.title:
            lines.append(f"  {self.title}")
        if detail:
            lines += [f"  {line}" for line in detail.lines(cause)]
        if self.stopped:
            lines.append(f"  {self.stopped}")
        return "\n".join(lines)

    def reports(self) -> str:
        """Every failure of the scenario, one block each (-v, pytest)."""
        return "\n\n".join(self.report(d) for d in self._shown())

    def headline(self) -> str:
        """The first failure in one line (pytest's short summary, JUnit's message)."""
        shown = [d for d in self._shown() if d]
        if not shown:
            return f"{self.outcome.value} {self.id}"
        first, more = shown[0], len(shown) - 1
        # the rule first: pytest cuts a long summary line at the terminal's width
        where = f"{first.step}: " if first.step else ""
        rule = f"{first.rule} " if first.rule else ""
        return rule + where + first.message + (f"; and {more} more" if more else "")

    def _shown(self) -> Sequence[Detail | None]:
        return self.failures or self.not_judged or [self.detail]


def totals(results: Iterable[Result]) -> dict[str, int]:
    counts = {o.value: 0 for o in Outcome}
    for result in results:
        counts[result.outcome.value] += 1
    return counts


def summary_line(counts: dict[str, int], level: Level = STRICT) -> str:
    """The last line of every run: `N passed, N failed, N errored, N skipped, N not judged
    at level L`."""
    return ", ".join(f"{counts[o.value]} {o.value}" for o in Outcome) + f" at level {level}"


def exit_code(results: Iterable[Result], stale: Sequence[str] = ()) -> int:
    bad = any(r.outcome in (Outcome.FAILED, Outcome.ERRORED) and not r.expected_failure
              for r in results)
    return 1 if bad or stale else 0
