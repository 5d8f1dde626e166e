"""`t42 compare --html DIR`: the comparison's page, in the scenario book's style (its base
template and stylesheet). Drawn from the summary alone (compare/summary.py): the
scenarios the engines disagree on first, a baseline's changes, the matrix by rule area
and by rule (each cell linking to the engine's failing scenarios there), the options
each engine declared, then each engine's causes and failing scenarios by rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.report.outputs import replace


def _failing(summary: dict[str, Any], i: int) -> list[tuple[str, list[tuple[str, Any]]]]:
    """Engine `i`'s failing scenarios: by area, then by rule, each with its causes."""
    engine = summary["engines"][i]
    why: dict[str, list[str]] = {}
    for cause in engine["causes"]:
        for sid in cause["scenarios"]:
            why.setdefault(sid, []).append(f"{cause['rule']}: {cause['cause']}")
    areas: dict[str, list[tuple[str, Any]]] = {}
    for row in summary["rules"]:
        cell = row["cells"][i]
        if cell and cell["scenarios"]:
            items = [(sid, "; ".join(why.get(sid, []))) for sid in cell["scenarios"]]
            areas.setdefault(row["area"], []).append((row["rule"], items))
    return list(areas.items())


def _all_cell(summary: dict[str, Any], i: int) -> dict[str, Any] | None:
    engine = summary["engines"][i]
    if engine["checks"] is None:
        return None
    ids = {sid: None for row in summary["rules"] if row["cells"][i]
           for sid in row["cells"][i]["scenarios"]}
    return {**engine["checks"], "scenarios": list(ids)}


def render(summary: dict[str, Any]) -> str:
    from conformance.book.build import _areas, environment
    from conformance.specdata.files import data_root
    from conformance.specdata.index import load_index

    engines = [{**e, "checks": _all_cell(summary, i)}
               for i, e in enumerate(summary["engines"])]
    failing = [_failing(summary, i) for i in range(len(engines))]
    return environment().get_template("compare.html.j2").render(
        s=summary, engines=engines, failing=failing, area_names=_areas(load_index()),
        root="", run=None, versions=summary["versions"], source=f"the {data_root().kind}")


def write_page(out: Path, summary: dict[str, Any]) -> Path:
    """Write OUT/index.html and the book's assets; returns the page."""
    from conformance.book.build import write_assets

    out.mkdir(parents=True, exist_ok=True)
    write_assets(out)
    page = out / "index.html"
    replace(page, render(summary))
    return page
