"""The comparison as data: engines as columns, rule areas and rules as rows, the options
each declared, the scenarios they disagree on, and a baseline's changes. It is what
`t42 compare --json` writes (spec/schemas/compare.schema.json); the terminal table, the
HTML page and the badges are drawn from it, never from the reports again.

Every count is a report's own (`t42 run --report-json`: `compliance`, `groups`,
`by_variant`, each scenario's outcome): a cell is an engine's checks of that area or rule
passed, failed and not judged at the level that engine was run at.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conformance.compare.engines import Column

COUNTS = ("passed", "failed", "not_judged")
FAILING = ("failed", "errored")


def _checks(by_level: dict[str, dict[str, int]]) -> dict[str, int]:
    """A compliance cell over every level: the run judged the levels up to its own and
    counted the checks above it as not judged."""
    return {name: sum(cell.get(name, 0) for cell in by_level.values()) for name in COUNTS}


def share(checks: dict[str, int] | None) -> float | None:
    """The percentage of judged checks passed, one decimal; None when none was judged."""
    if not checks:
        return None
    judged = checks["passed"] + checks["failed"]
    return round(100 * checks["passed"] / judged, 1) if judged else None


def _failing_by_rule(report: dict[str, Any]) -> dict[str, list[str]]:
    """Rule -> the scenarios with a judged failure of a check of it (in run order)."""
    found: dict[str, dict[str, None]] = {}
    for scenario in report["scenarios"]:
        for failure in scenario["failures"] if scenario["outcome"] == "failed" else ():
            for rule in failure["rules"]:
                found.setdefault(rule, {})[scenario["id"]] = None
    return {rule: list(ids) for rule, ids in found.items()}


def _first_failure(scenario: dict[str, Any]) -> dict[str, str]:
    """The rule and cause of a scenario's first failure, or its error's message."""
    if scenario["failures"]:
        first = scenario["failures"][0]
        return {"rule": first["rule"], "cause": first["cause"] or first["message"]}
    detail = scenario.get("detail") or {}
    return {"rule": "", "cause": str(detail.get("message", scenario.get("reason", "")))}


def _engine(column: Column) -> dict[str, Any]:
    report = column.report
    engine = {"label": column.label, "source": column.engine.source,
              "from_file": column.engine.from_file, "level": column.level,
              "error": column.error or None, "seconds": round(column.seconds, 3)}
    if report is None:
        return {**engine, "name": None, "version": None, "variants": [], "declaration": None,
                "totals": None, "checks": None, "share": None, "causes": [], "errored": []}
    checks = _checks(report["compliance"]["all"].get("checks", {}))
    adapter = report["adapter"]
    return {**engine, "name": adapter["name"], "version": adapter["version"],
            "variants": adapter["variants"], "declaration": adapter.get("declaration"),
            "totals": report["totals"], "checks": checks, "share": share(checks),
            "causes": [{key: g[key] for key in ("rule", "cause", "level", "count",
                                                 "scenarios")}
                       for g in report["groups"] if not g["expected"]],
            "errored": [{"scenario": s["id"], **_first_failure(s)}
                        for s in report["scenarios"] if s["outcome"] == "errored"]}


def _rows(columns: Sequence[Column], section: str) -> list[dict[str, Any]]:
    """One row per area (`areas`) or rule (`rules`) any engine checked, a cell per engine:
    its checks, and its failing scenarios (None: the engine has no report)."""
    keys: dict[str, None] = {}
    for column in columns:
        if column.report:
            keys.update(dict.fromkeys(column.report["compliance"][section]))
    failing = [_failing_by_rule(c.report) if c.report else {} for c in columns]
    rows = []
    for key in sorted(keys):
        cells: list[dict[str, Any] | None] = []
        for column, by_rule in zip(columns, failing, strict=True):
            if column.report is None:
                cells.append(None)
                continue
            counts = _checks(column.report["compliance"][section].get(key, {}))
            ids = (by_rule.get(key, []) if section == "rules" else list(dict.fromkeys(
                i for rule, rule_ids in by_rule.items() if rule.split("-")[0] == key
                for i in rule_ids)))
            cells.append({**counts, "scenarios": ids})
        name = "area" if section == "areas" else "rule"
        rows.append({name: key, **({"area": key.split("-")[0]} if name == "rule" else {}),
                     "cells": cells})
    return rows


def _options(columns: Sequence[Column]) -> list[dict[str, Any]]:
    """A row per option of the spec, a cell per engine: declared or not, the settings it
    limited itself to (None: all of them), the outcomes of the scenarios needing it."""
    from conformance.specdata.index import load_index

    rows = []
    for option in load_index().variants:
        cells: list[dict[str, Any] | None] = []
        for column in columns:
            if column.report is None:
                cells.append(None)
                continue
            adapter = column.report["adapter"]
            settings = None
            for item in adapter.get("declaration") or ():
                if isinstance(item, dict) and item.get("name") == option:
                    settings = item.get("settings")
            cells.append({"declared": option in adapter["variants"], "settings": settings,
                          "outcomes": column.report["by_variant"].get(option)})
        rows.append({"option": option, "cells": cells})
    return rows


def _disagreements(columns: Sequence[Column]) -> list[dict[str, Any]]:
    """The scenarios one engine passes and another fails (or errors): those most engines
    fail first (a scenario, or the spec, may be wrong), then in corpus order."""
    order: dict[str, dict[str, Any]] = {}
    outcomes: list[dict[str, dict[str, Any]]] = []
    for column in columns:
        mine = {s["id"]: s for s in (column.report or {}).get("scenarios", [])}
        outcomes.append(mine)
        for sid, scenario in mine.items():
            order.setdefault(sid, scenario)
    found = []
    for sid, first in order.items():
        seen = [mine.get(sid) for mine in outcomes]
        said = {s["outcome"] for s in seen if s}
        if "passed" not in said or not said & set(FAILING):
            continue
        found.append({"scenario": sid, "title": first["title"], "path": first["path"],
                      "cells": [None if s is None else {
                          "outcome": s["outcome"],
                          **(_first_failure(s) if s["outcome"] in FAILING
                             else {"rule": "", "cause": ""})} for s in seen]})
    return sorted(found, key=lambda d: -sum(c is not None and c["outcome"] in FAILING
                                            for c in d["cells"]))


def _changes(columns: Sequence[Column], baseline: str) -> dict[str, Any]:
    """Against the engine labelled `baseline`: per other engine, the scenarios that
    newly fail and newly pass, and the rules newly broken and no longer broken."""
    base = next(c for c in columns if c.label == baseline)
    before = {s["id"]: s for s in (base.report or {}).get("scenarios", [])}
    broke = {g["rule"] for g in (base.report or {}).get("groups", [])}
    against = []
    for column in columns:
        if column is base or column.report is None or base.report is None:
            continue
        after = {s["id"]: s for s in column.report["scenarios"]}
        newly_failing, newly_passing = [], []
        for sid, now in after.items():
            then = before.get(sid)
            if then is None:
                continue
            if then["outcome"] == "passed" and now["outcome"] in FAILING:
                newly_failing.append({"scenario": sid, "outcome": now["outcome"],
                                      **_first_failure(now)})
            elif then["outcome"] in FAILING and now["outcome"] == "passed":
                newly_passing.append({"scenario": sid, "was": then["outcome"],
                                      **_first_failure(then)})
        rules = {g["rule"] for g in column.report["groups"]}
        against.append({"label": column.label, "newly_failing": newly_failing,
                        "newly_passing": newly_passing,
                        "still_failing": sum(1 for sid, now in after.items()
                                             if now["outcome"] in FAILING
                                             and sid in before
                                             and before[sid]["outcome"] in FAILING),
                        "rules_newly_broken": sorted(rules - broke),
                        "rules_mended": sorted(broke - rules)})
    return {"baseline": baseline, "against": against}


def summarize(columns: Sequence[Column], baseline: str | None = None) -> dict[str, Any]:
    """The comparison (compare.schema.json)."""
    from conformance.specdata.versions import versions

    v = versions()
    return {
        "versions": {"suite": str(v["suite"]), "spec": str(v["spec"]),
                     "protocol": v["protocol"]},
        "engines": [_engine(c) for c in columns],
        "disagreements": _disagreements(columns),
        "changes": _changes(columns, baseline) if baseline else None,
        "areas": _rows(columns, "areas"),
        "rules": _rows(columns, "rules"),
        "options": _options(columns),
    }


def badge(engine: dict[str, Any]) -> dict[str, Any]:
    """The engine's shields.io endpoint badge (https://shields.io/badges/endpoint-badge):
    the share of judged checks passed at the level it was run at."""
    label = f"Texas 42 ({engine['level']})"
    if engine["totals"] is None:
        return {"schemaVersion": 1, "label": label, "message": "did not run",
                "color": "lightgrey", "isError": True}
    pct = engine["share"]
    errored = engine["totals"]["errored"]
    message = ("no check judged" if pct is None else f"{pct:g}%") + (
        f", {errored} errored" if errored else "")
    color = ("lightgrey" if pct is None else "brightgreen" if pct == 100 and not errored
             else "green" if pct >= 95 else "yellowgreen" if pct >= 90
             else "yellow" if pct >= 75 else "orange" if pct >= 50 else "red")
    return {"schemaVersion": 1, "label": label, "message": message, "color": color}
