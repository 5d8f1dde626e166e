"""`t42 compare` in the terminal: the matrix (engines as columns, rule areas as rows,
checks passed/failed/not judged at each engine's level), each engine's causes in one
line, the scenarios they disagree on, a baseline's changes, and one last line."""

from __future__ import annotations

from typing import Any

from conformance.report.safe import safe

SHOWN = 6  # scenario ids shown in a line before `(+N more)`


def _cell(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return "error"
    triple = [cell["passed"], cell["failed"], cell["not_judged"]]
    return "/".join(map(str, triple)) if any(triple) else "-"


def _ids(ids: list[str]) -> str:
    more = f" (+{len(ids) - SHOWN} more)" if len(ids) > SHOWN else ""
    return ", ".join(ids[:SHOWN]) + more


def matrix(summary: dict[str, Any]) -> str:
    engines = summary["engines"]
    labels = [e["label"] for e in engines]
    width = max([len(label) for label in labels] + [12]) + 2
    head = f"{'checks':8}" + "".join(f"{label:>{width}}" for label in labels)
    levels = f"{'level':8}" + "".join(f"{e['level']:>{width}}" for e in engines)
    rows = [head, levels]
    for row in summary["areas"]:
        rows.append(f"{row['area']:8}" + "".join(f"{_cell(c):>{width}}" for c in row["cells"]))
    rows.append(f"{'all':8}" + "".join(f"{_cell(e['checks']):>{width}}" for e in engines))
    share = [("-" if e["share"] is None else f"{e['share']:g}%") if e["totals"] else "error"
             for e in engines]
    rows.append(f"{'share':8}" + "".join(f"{s:>{width}}" for s in share))
    totals = ["/".join(str(e["totals"][k]) for k in ("passed", "failed", "errored", "skipped"))
              if e["totals"] else "error" for e in engines]
    rows.append(f"{'p/f/e/s':8}" + "".join(f"{t:>{width}}" for t in totals))
    intro = ("by rule area: checks passed/failed/not judged, each engine at its level; "
             "share: judged checks passed; p/f/e/s: scenarios passed/failed/errored/skipped")
    return "\n".join([intro, *rows])


def causes(summary: dict[str, Any]) -> str:
    """Each engine's causes in one line: the rule broken and its scenarios, largest first."""
    lines = []
    for e in summary["engines"]:
        if e["totals"] is None:
            lines.append(f"{e['label']}: ERROR {e['error']}")
            continue
        said = [f"{c['rule']} in {len(c['scenarios'])} ({c['cause'][:50]})" for c in e["causes"]]
        if e["errored"]:
            said.append(f"errored in {len(e['errored'])} ({e['errored'][0]['cause'][:50]})")
        if e["error"]:
            said.append(f"cut short: {e['error']}")
        lines.append(f"{e['label']}: " + ("; ".join(said) if said else "no failure"))
    return "causes, per engine:\n" + "\n".join("  " + line for line in lines)


def disagreements(summary: dict[str, Any]) -> str:
    found = summary["disagreements"]
    if not found:
        return "no scenario where one engine passes and another fails"
    labels = [e["label"] for e in summary["engines"]]
    lines = [f"{len(found)} scenarios where engines disagree (one passes, another fails): "
             "there an engine or the spec is most likely wrong"]
    for item in found[:20]:
        fails = [f"{label} {c['rule'] or c['outcome']}" for label, c in
                 zip(labels, item["cells"], strict=True) if c and c["outcome"] != "passed"]
        lines.append(f"  {item['scenario']}: fails in {', '.join(fails)}")
    if len(found) > 20:
        lines.append(f"  (+{len(found) - 20} more: the HTML page or --json lists them all)")
    return "\n".join(lines)


def changes(summary: dict[str, Any]) -> str:
    found = summary["changes"]
    if not found:
        return ""
    lines = []
    for other in found["against"]:
        lines.append(f"{other['label']} against {found['baseline']}: "
                     f"{len(other['newly_failing'])} newly failing, "
                     f"{len(other['newly_passing'])} newly passing, "
                     f"{other['still_failing']} still failing")
        if other["newly_failing"]:
            lines.append("  newly failing: " + _ids([i["scenario"] for i in
                                                    other["newly_failing"]]))
        if other["newly_passing"]:
            lines.append("  newly passing: " + _ids([i["scenario"] for i in
                                                    other["newly_passing"]]))
        if other["rules_newly_broken"] or other["rules_mended"]:
            lines.append(f"  rules newly broken: {', '.join(other['rules_newly_broken']) or '-'}"
                         f"; no longer broken: {', '.join(other['rules_mended']) or '-'}")
    return "\n".join(lines)


def last_line(summary: dict[str, Any]) -> str:
    engines = summary["engines"]
    broken = sum(e["totals"] is None for e in engines)
    return (f"{len(engines)} engines compared, {broken} without a report; "
            f"{len(summary['disagreements'])} scenarios where they disagree")


def render(summary: dict[str, Any]) -> str:
    parts = [matrix(summary), causes(summary), disagreements(summary), changes(summary),
             last_line(summary)]
    return safe("\n\n".join(part for part in parts if part))
