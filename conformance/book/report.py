"""A run's outcomes on the scenario book: `t42 run --report-html DIR` and the pytest plugin."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from conformance.run.results import Outcome, Result, summary_line


def capture_failures(chosen: Iterable[Any], results: Sequence[Result],
                     adapter: Any, level: str = "strict") -> dict[str, dict[str, Any]]:
    """The implementation's table at each failing step of each failed scenario, by id."""
    from conformance.book.actual import capture

    bad = {r.id for r in results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)}
    shots = {}
    for item in chosen:
        sc = item.scenario
        if sc is not None and sc.id in bad:
            shots[sc.id] = capture(sc, adapter, level)
    return shots


def write_report(out: Path, paths: Sequence[Path], results: Sequence[Result | dict[str, Any]],
                 shots: dict[str, dict[str, Any]] | None, adapter: Any,
                 counts: dict[str, int], level: str = "strict",
                 checks: dict[str, list[list[Any]]] | None = None,
                 loaded: list[Any] | None = None) -> Path:
    """The book with this run's outcomes and compliance table; returns the index page.
    `results`: Result objects, or Result.to_json() dicts with their `checks`
    (compliance.checks_to_json) by id, as the pytest plugin's controller has them.
    `loaded`: the scenarios the run read, so that a file changed since is not shown."""
    from conformance.book.build import build
    from conformance.book.compliance import result_from_json

    as_json = [r.to_json() if isinstance(r, Result) else r for r in results]
    judged = [r if isinstance(r, Result) else result_from_json(r, (checks or {}).get(r["id"], ()))
              for r in results]
    options = ", ".join(sorted(getattr(adapter, "variants", []) or []))
    name = adapter if isinstance(adapter, str) else (
        f"{getattr(adapter, 'name', '?')} {getattr(adapter, 'version', '')}".strip())
    run = {"adapter": name, "variants": options, "summary": summary_line(counts, level),
           "level": level, "results": judged}
    build(out, paths, as_json, shots, run, loaded)
    return out / "index.html"
