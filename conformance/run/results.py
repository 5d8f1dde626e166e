"""What running one scenario produced: an outcome and, when it is not a pass, why."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from conformance.run.matching import MISSING, Difference, show


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
    level: str
    rules: tuple[str, ...]
    passed: bool
    judged: bool  # False: above the run's level, counted as not judged whatever it found


@dataclass
class Detail:
    message: str
    step: str | None = None  # "steps[3]", "setup.contract", "setup"
    line: int | None = None
    action: Any = MISSING  # the payload the step sent
    rules: tuple[str, ...] = ()
    differences: list[Difference] = field(default_factory=list)
    stderr: str = ""
    problems: list[str] = field(default_factory=list)  # an invalid scenario file
    kind: str = ""  # the check that failed (levels.yaml `checks`); "" for an error
    level: str = ""  # that check's level
    rule: str = ""  # the rule the failure is filed under (grouping, rule text)
    context: list[str] = field(default_factory=list)  # the rule text, the table picture

    @property
    def cause(self) -> tuple[str, str]:
        """Failures with the same cause print as one group: same rule, same kind."""
        return (self.rule, self.kind)

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "step": self.step,
            "line": self.line,
            "action": None if self.action is MISSING else self.action,
            "kind": self.kind,
            "level": self.level,
            "rule": self.rule,
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

    def lines(self) -> list[str]:
        out = []
        if self.action is not MISSING:
            out.append(f"action: {show(self.action)}")
        elif self.step and self.step.startswith("steps["):
            out.append(f"after {self.step} (an expectation only)")
        if self.kind:
            out.append(f"check: {self.kind} (level {self.level})")
        elif self.rules:
            out.append(f"rules: {', '.join(self.rules)}")
        out.append(self.message)
        out += [d.render() for d in self.differences]
        out += self.context
        out += self.problems
        if self.stderr:
            out.append("stderr of the implementation:")
            out += [f"  | {line}" for line in self.stderr.splitlines()]
        return out


@dataclass
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

    @property
    def where(self) -> str:
        if self.detail and self.detail.line:
            return f"{self.path}:{self.detail.line}"
        return self.path

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
        }

    def report(self, detail: Detail | None = None) -> str:
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
            lines += [f"  {line}" for line in detail.lines()]
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
        where = f"{first.step}: " if first.step else ""
        rule = f" ({first.rule})" if first.rule else ""
        return where + first.message + rule + (f"; and {more} more" if more else "")

    def _shown(self) -> list[Detail | None]:
        return self.failures or self.not_judged or [self.detail]


def totals(results: Iterable[Result]) -> dict[str, int]:
    counts = {o.value: 0 for o in Outcome}
    for result in results:
        counts[result.outcome.value] += 1
    return counts


def summary_line(counts: dict[str, int], level: str = "strict") -> str:
    """The last line of every run: `N passed, N failed, N errored, N skipped, N not judged
    at level L`."""
    return ", ".join(f"{counts[o.value]} {o.value}" for o in Outcome) + f" at level {level}"


def exit_code(results: Iterable[Result], stale: Sequence[str] = ()) -> int:
    bad = any(r.outcome in (Outcome.FAILED, Outcome.ERRORED) and not r.expected_failure
              for r in results)
    return 1 if bad or stale else 0
