"""A run's outcomes on the scenario book: `t42 run --report-html DIR` and the pytest plugin.

Both draw each scenario as the run read it, never from its file again: `t42 run` keeps
the loaded scenarios, and the plugin sends each one with its result (`kept_scenario`),
from a worker to the controller under pytest-xdist too. A file changed, removed or grown
during the run costs nothing, and nothing is read twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance.book import KEPT_STEPS_CHARS
from conformance.corpus.scenario import Scenario, Step
from conformance.run.results import Result, summary_line
from conformance.specdata.levels import STRICT, Level

_ENCODER = json.JSONEncoder(separators=(",", ":"))


def _within(value: Any, budget: int) -> int | None:
    """The length of `value`'s JSON, if at most `budget`: the encoding stops past it, so
    an alias bomb costs no more than the budget."""
    size = 0
    for chunk in _ENCODER.iterencode(value):
        size += len(chunk)
        if size > budget:
            return None
    return size


def kept_scenario(sc: Scenario, budget: int = KEPT_STEPS_CHARS) -> dict[str, Any]:
    """A scenario as JSON for the report: its steps while they fit in `budget` characters,
    and how many more there were."""
    steps: list[list[Any]] = []
    for step in sc.steps:
        row = [step.label, step.line, step.kind, step.payload, step.reject, step.expect,
               list(step.also)]
        size = _within(row, budget)
        if size is None:
            break
        budget -= size
        steps.append(row)
    return {"id": sc.id, "title": sc.title, "description": sc.description,
            "rules": list(sc.rules), "variants": sc.variants, "path": str(sc.path),
            "needs": sorted(sc.needs), "steps": steps,
            "steps_not_kept": len(sc.steps) - len(steps)}


def scenario_from_kept(data: dict[str, Any]) -> Scenario:
    """The Scenario of `kept_scenario`'s JSON (the steps it kept)."""
    steps = tuple(Step(label, line, kind, payload, reject, expect, tuple(also))
                  for label, line, kind, payload, reject, expect, also in data["steps"])
    return Scenario(data["id"], data["title"], data["description"], tuple(data["rules"]),
                    dict(data["variants"]), steps, Path(data["path"]),
                    frozenset(data["needs"]))


def write_report(out: Path, paths: Sequence[Path], results: Sequence[Result | dict[str, Any]],
                 shots: dict[str, dict[str, Any]] | None, adapter: Any,
                 counts: dict[str, int], level: Level = STRICT,
                 checks: dict[str, list[list[Any]]] | None = None,
                 loaded: list[Any] | None = None,
                 steps_not_kept: dict[str, int] | None = None,
                 declared: Any = None) -> Path:
    """The book with this run's outcomes and compliance table; returns the index page.
    `results`: Result objects, or Result.to_json() dicts with their `checks`
    (compliance.checks_to_json) by id, as the pytest plugin's controller has them.
    `loaded`: the scenarios the run read, so that a file changed since is not shown;
    `steps_not_kept`: by id, how many steps of a scenario were too large to keep;
    `declared`: what declares the options when `adapter` is only a name (the pytest
    plugin's controller keeps the chosen adapter's `variants`, `settings` and
    `declaration`)."""
    from conformance.book.build import build
    from conformance.book.compliance import result_from_json

    as_json = [r.to_json() if isinstance(r, Result) else r for r in results]
    judged = [r if isinstance(r, Result) else result_from_json(r, (checks or {}).get(r["id"], ()))
              for r in results]
    from conformance.report.text import option_coverage

    options = ", ".join(sorted(getattr(adapter, "variants", []) or []))
    name = adapter if isinstance(adapter, str) else (
        f"{getattr(adapter, 'name', '?')} {getattr(adapter, 'version', '')}".strip())
    # per option, its entry as the hello gave it (settings and all) and what was judged
    source = declared if declared is not None else None if isinstance(adapter, str) else adapter
    coverage = [] if source is None else option_coverage(judged, source)
    for row in coverage:
        row["declared_text"] = json.dumps(row["declared"], ensure_ascii=False)
    run = {"adapter": name, "variants": options, "summary": summary_line(counts, level),
           "level": level, "results": judged, "steps_not_kept": steps_not_kept or {},
           "options": coverage}
    build(out, paths, as_json, shots, run, loaded)
    return out / "index.html"
