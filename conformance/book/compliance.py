"""The run report's compliance table: per rule area and rule ID, checks passed / failed /
not judged at each level, with each rule's failing scenarios.

The counts are conformance.report.text.compliance's, the very table `t42 run` prints and
`--report-json` writes (`compliance`): this module only lays them out and adds the links.
Under pytest-xdist a worker's checks travel as JSON (checks_to_json) and come back as
Result objects here (result_from_json), so the controller counts them the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from conformance.run.results import Check, Result
from conformance.specdata.levels import Level

COLUMNS = ("passed", "failed", "not_judged")


def checks_to_json(result: Result) -> list[list[Any]]:
    """A result's checks, compact: [kind, level, rules, passed, judged] each."""
    return [[c.kind, c.level, list(c.rules), c.passed, c.judged] for c in result.checks]


def result_from_json(data: dict[str, Any], checks: Sequence[Sequence[Any]] = ()) -> Result:
    """The Result a worker sent, with its checks, for the report."""
    result = Result.from_json(data)
    result.checks = [Check(kind, level, tuple(rules), passed, judged)
                     for kind, level, rules, passed, judged in checks]
    return result


def _cells(by_level: dict[str, dict[str, int]], names: Sequence[Level],
           level: Level, judged: Callable[[str, str], bool]) -> list[dict[str, Any]]:
    empty = dict.fromkeys(COLUMNS, 0)
    return [{"level": name, "judged": judged(name, level), **empty, **by_level.get(name, {})}
            for name in names]


def _scenarios(results: Sequence[Result]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Rule -> the scenarios with a failed check of it; rule -> those whose check of it
    differed above the run's level."""
    failing: dict[str, dict[str, None]] = {}
    unjudged: dict[str, dict[str, None]] = {}
    for result in results:
        for check in result.checks:
            if check.passed:
                continue
            for rule in check.rules:
                (failing if check.judged else unjudged).setdefault(rule, {})[result.id] = None
    return ({r: list(ids) for r, ids in failing.items()},
            {r: list(ids) for r, ids in unjudged.items()})


def table(results: Sequence[Result], level: Level, area_names: dict[str, str]
          ) -> dict[str, Any]:
    """The rows the template draws: areas, each with its rules, and the total."""
    from conformance.report.text import compliance, errored_by_area
    from conformance.specdata.index import load_index

    levels = load_index().levels
    names, judged = levels.names, levels.judged
    counts = compliance(list(results))
    errored = errored_by_area(list(results))
    failing, unjudged = _scenarios(results)
    areas: dict[str, dict[str, Any]] = {}
    # an area whose every scenario broke has no check at all: its row still says so
    for area, by_level in sorted({**dict.fromkeys(errored["areas"], {}),
                                  **counts["areas"]}.items()):
        areas[area] = {"key": area, "name": area_names.get(area, area), "rules": [],
                       "cells": _cells(by_level, names, level, judged),
                       "errored": errored["areas"].get(area, 0)}
    for rule, by_level in counts["rules"].items():
        area = rule.split("-")[0]
        areas[area]["rules"].append({
            "id": rule, "cells": _cells(by_level, names, level, judged),
            "failing": failing.get(rule, []), "not_judged": unjudged.get(rule, [])})
    return {"level": level, "levels": list(names),
            "judged": [name for name in names if judged(name, level)],
            "areas": list(areas.values()), "errored": errored["all"],
            "all": _cells(counts["all"].get("checks", {}), names, level, judged)}
