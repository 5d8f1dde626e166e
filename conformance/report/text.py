"""Reports of a run: progress and failure blocks for people, JSON for machines."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from conformance.run.results import Outcome, Result

MARK = {Outcome.PASSED: ".", Outcome.FAILED: "F", Outcome.ERRORED: "E", Outcome.SKIPPED: "s"}
WIDTH = 64


class Progress:
    """One character per scenario (x for an expected failure), a count at each line end."""

    def __init__(self, total: int, expected: dict[str, str], verbose: bool = False,
                 stream: TextIO | None = None):
        self.total, self.expected, self.verbose = total, expected, verbose
        self.stream = stream or sys.stdout
        self.done = 0

    def __call__(self, result: Result) -> None:
        self.done += 1
        listed = result.id in self.expected and result.outcome in (Outcome.FAILED, Outcome.ERRORED)
        if self.verbose:
            tag = "xfail" if listed else result.outcome.value
            extra = f"  ({result.reason})" if result.reason else ""
            self.stream.write(f"{tag:8} {result.id}  {result.seconds * 1000:.1f} ms{extra}\n")
            return
        self.stream.write("x" if listed else MARK[result.outcome])
        if self.done % WIDTH == 0 or self.done == self.total:
            self.stream.write(f" {self.done}/{self.total}\n")
        self.stream.flush()


def details(results: list[Result]) -> str:
    """The failure blocks, then the skip reasons grouped."""
    blocks = [r.report() for r in results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    reasons: dict[str, int] = {}
    for r in results:
        if r.outcome is Outcome.SKIPPED:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
    skipped = [f"skipped {n}: {reason}" for reason, n in sorted(reasons.items())]
    return "\n\n".join(blocks + (["\n".join(skipped)] if skipped else []))


def by_variant(results: list[Result]) -> dict[str, dict[str, int]]:
    """Outcome counts per variant option (`base`: scenarios that need none); a scenario
    that needs several options counts under each."""
    table: dict[str, dict[str, int]] = {}
    for r in results:
        for name in r.variants or ("base",):
            row = table.setdefault(name, {o.value: 0 for o in Outcome})
            row[r.outcome.value] += 1
    return dict(sorted(table.items(), key=lambda item: (item[0] != "base", item[0])))


def variant_table(results: list[Result]) -> str:
    """The per-option table of a run, or "" when every scenario is of the base game."""
    table = by_variant(results)
    if set(table) <= {"base"}:
        return ""
    width = max(map(len, table))
    head = f"{'by option':{width}}  " + "  ".join(f"{o.value:>7}" for o in Outcome)
    rows = [f"{name:{width}}  " + "  ".join(f"{row[o.value]:>7}" for o in Outcome)
            for name, row in table.items()]
    return "\n".join([head, *rows])


def to_json(results: list[Result], adapter: Any, counts: dict[str, int],
            seconds: float, stale: list[str]) -> dict[str, Any]:
    from conformance.specdata.files import versions

    v = versions()
    return {
        "versions": {"suite": str(v["suite"]), "spec": str(v["spec"]),
                     "protocol": v["protocol"]},
        "adapter": {
            "name": getattr(adapter, "name", "?"),
            "version": getattr(adapter, "version", "?"),
            "variants": sorted(getattr(adapter, "variants", [])),
            "capabilities": sorted(getattr(adapter, "capabilities", [])),
        },
        "totals": {**counts,
                   "expected_failures": sum(r.expected_failure for r in results),
                   "stale_expected_failures": len(stale)},
        "stale_expected_failures": stale,
        "by_variant": by_variant(results),
        "seconds": round(seconds, 3),
        "scenarios": [r.to_json() for r in results],
    }


def write_json(path: Path, report: dict[str, Any]) -> None:
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
