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

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "step": self.step,
            "line": self.line,
            "action": None if self.action is MISSING else self.action,
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
        if self.rules:
            out.append(f"rules: {', '.join(self.rules)}")
        out.append(self.message)
        out += [d.render() for d in self.differences]
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
            "detail": self.detail.to_json() if self.detail else None,
        }

    def report(self) -> str:
        """The block a person reads to fix their engine."""
        head = self.outcome.value.upper()
        if self.expected_failure:
            head += " (expected)"
        step = f", {self.detail.step}" if self.detail and self.detail.step else ""
        lines = [f"{head} {self.id} ({self.where}{step})"]
        if self.detail:
            lines += [f"  {line}" for line in self.detail.lines()]
        return "\n".join(lines)


def totals(results: Iterable[Result]) -> dict[str, int]:
    counts = {o.value: 0 for o in Outcome}
    for result in results:
        counts[result.outcome.value] += 1
    return counts


def summary_line(counts: dict[str, int]) -> str:
    """The last line of every run: `N passed, N failed, N errored, N skipped`."""
    return ", ".join(f"{counts[o.value]} {o.value}" for o in Outcome)


def exit_code(results: Iterable[Result], stale: Sequence[str] = ()) -> int:
    bad = any(r.outcome in (Outcome.FAILED, Outcome.ERRORED) and not r.expected_failure
              for r in results)
    return 1 if bad or stale else 0
