"""Reports of a run: progress and failure blocks for people, JSON for machines."""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from conformance.report.safe import safe
from conformance.run.results import Detail, Outcome, Result
from conformance.specdata.levels import STRICT, Level

RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*-\d+$")
MARK = {Outcome.PASSED: ".", Outcome.FAILED: "F", Outcome.ERRORED: "E", Outcome.SKIPPED: "s",
        Outcome.NOT_JUDGED: "n"}
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
            if result.stand_in:  # protocol.md, "A value standing in"
                extra += f"  (run with {'; '.join(result.stand_in)})"
            self.stream.write(safe(f"{tag:8} {result.id}  {result.seconds * 1000:.1f} ms"
                                   f"{extra}\n"))
            return
        self.stream.write("x" if listed else MARK[result.outcome])
        if self.done % WIDTH == 0 or self.done == self.total:
            self.stream.write(f" {self.done}/{self.total}\n")
        self.stream.flush()


FORM_FIX = ("name and type every field of a view and an observation as spec/schemas/ does "
            "(the kits' wire types are generated from them: kits/, t42 new-adapter)")
NOT_MISTAKES = ("the harness failed", "the implementation hung")


def _mistake(result: Result) -> tuple[str, str, str] | None:
    """(kind, what, fix) of the protocol or form mistake that failed or errored `result`:
    an adapter error as `t42 doctor` reads it, a form as the diagnosis named it (a schema
    failure filed under its document, not a rule); None for anything else."""
    from conformance.adapters.doctor import read_break

    detail = result.detail
    if result.outcome is Outcome.ERRORED and detail and not detail.problems:
        message = detail.message.removeprefix("the implementation is unusable: ")
        seen = read_break(message, detail.stderr)
        if seen.hint and not message.startswith(NOT_MISTAKES):
            what = message + (f"; its stderr says: {seen.last}" if seen.last else "")
            return seen.kind, what, seen.hint
    for failure in result.failures if result.outcome is Outcome.FAILED else ():
        if failure.kind == "schema" and failure.cause and not RULE_ID.match(failure.rule):
            return failure.cause, failure.cause, FORM_FIX
    return None


def verdict(results: list[Result], adapter: str = "") -> str:
    """The paragraph a run prints first when most scenarios that ran failed or errored
    for one protocol or form mistake: the mistake, its fix, and `t42 doctor`; else ""."""
    ran = [r for r in results if r.outcome is not Outcome.SKIPPED]
    seen: dict[str, list[tuple[str, str]]] = {}
    for result in ran:
        found = _mistake(result)
        if found:
            seen.setdefault(found[0], []).append(found[1:])
    hits = max(seen.values(), key=len, default=[])
    if 2 * len(hits) <= len(ran):
        return ""
    what, fix = hits[0]
    doctor = "t42 doctor" + (f" --adapter {shlex.quote(adapter)}" if adapter else "")
    return "\n".join([
        f"VERDICT: {len(hits)} of {len(ran)} scenarios fail for one protocol or form "
        "mistake, before any rule is judged:", f"  {safe(what)}", f"  fix: {fix}",
        f"  then `{safe(doctor)}` (each such mistake in one line) and run again; the "
        "blocks below follow from it"])


def details(results: list[Result], verbose: bool = False) -> str:
    """The failures grouped by cause (every block with `verbose`), the errors, the
    differences not judged at this level, then the skip reasons grouped."""
    if verbose:
        blocks = [r.reports() for r in results
                  if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    else:
        blocks = [g.render() for g in groups(results)]
        blocks += errored_blocks(results)
    unjudged = not_judged_lines(results)
    if unjudged:
        blocks.append("\n".join(unjudged))
    skipped = stand_in_lines(results) + skip_lines(results)
    return "\n\n".join(blocks + (["\n".join(skipped)] if skipped else []))


def crash_kind(result: Result) -> str:
    """What an errored scenario broke on, its numbers as N: the same crash (a panic at one
    line, a hang, a reply not JSON) in every scenario is one kind."""
    from conformance.adapters.doctor import read_break

    detail = result.detail
    if detail is None:
        return ""
    seen = read_break(detail.message, detail.stderr)
    return seen.kind if seen.last else re.sub(r"\d+", "N", detail.message)


def crash_cause(result: Result) -> str:
    """What an errored scenario broke on, in a line: the harness's message, and for a
    crash the error its stderr shows (`act: the implementation exited (code 1) without
    replying; its stderr says: TypeError: ...`)."""
    from conformance.adapters.doctor import read_break

    detail = result.detail
    if detail is None:
        return ""
    seen = read_break(detail.message, detail.stderr)
    first = detail.message.splitlines()[0] if detail.message else "?"
    return clipped(first + (f"; its stderr says: {seen.last}" if seen.last else ""), 200)


def errored_blocks(results: list[Result], shown: int = 30) -> list[str]:
    """The errored scenarios by what they broke on, largest first: one block each, the
    shortest scenario's, and the ids of the others (a panic in an unwritten part of an
    engine errors dozens of scenarios the same way)."""
    kinds: dict[str, list[Result]] = {}
    for result in results:
        if result.outcome is Outcome.ERRORED:
            kinds.setdefault(crash_kind(result), []).append(result)
    blocks = []
    for same in sorted(kinds.values(), key=lambda rs: -len(rs)):
        first = min(same, key=lambda r: (r.size, r.id))
        block = first.report()
        if len(same) > 1:
            head = f"ERRORED the same way in {len(same)} scenarios: {crash_cause(first)}"
            block = (head.rstrip() + "\n"
                     + "\n".join("  " + line for line in block.splitlines())
                     + "\n" + all_ids([r.id for r in same], shown))
        blocks.append(block)
    return blocks


SETTING = "needs variant setting "  # runner.skip_reason: "...: A; B, which X does not support"


def stand_in_lines(results: list[Result]) -> list[str]:
    """One line for the scenarios run with a supported setting value in place of one they
    give and do not depend on (run/standin.py), with the count per value replaced."""
    counts: dict[str, int] = {}
    for r in results:
        for note in r.stand_in:
            counts[note] = counts.get(note, 0) + 1
    if not counts:
        return []
    ran = sum(1 for r in results if r.stand_in)
    values = ", ".join(f"{note} {n}" for note, n in sorted(counts.items()))
    return [f"ran {ran} with a supported setting value in place of one they do not depend "
            f"on, as the reference showed ({values}; -v names each)"]


def skip_lines(results: list[Result]) -> list[str]:
    """The skipped scenarios: those needing options not declared in one line, with the
    count per option; those needing setting values not supported in a line per option,
    with the count per value; each other reason (a capability) in a line of its own."""
    options: dict[str, int] = {}
    reasons: dict[str, int] = {}
    settings: dict[tuple[str, str], dict[str, int]] = {}  # (option, who) -> value -> count
    per_option: dict[tuple[str, str], int] = {}
    for r in results:
        if r.outcome is not Outcome.SKIPPED:
            continue
        if r.missing:
            for name in r.missing:
                options[name] = options.get(name, 0) + 1
        elif r.reason.startswith(SETTING) and ", which " in r.reason:
            needed, who = r.reason[len(SETTING):].rsplit(", which ", 1)
            seen: set[str] = set()
            for value in needed.split("; "):
                option, _, rest = value.partition(" ")
                counts = settings.setdefault((option, who), {})
                counts[rest] = counts.get(rest, 0) + 1
                seen.add(option)
            for option in seen:
                per_option[option, who] = per_option.get((option, who), 0) + 1
        else:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
    lines = []
    if options:
        skipped = [r for r in results if r.outcome is Outcome.SKIPPED and r.missing]
        per = ", ".join(f"{name} {n}" for name, n in sorted(options.items()))
        why = skipped[0].reason  # "needs variant X, not in ..." or "..., which A does not ..."
        source = why[why.index(", not in") + 2:] if ", not in" in why else (
            why[why.index(", which") + 2:] if ", which" in why else "not declared")
        lines.append(f"skipped {len(skipped)}: they need variant options, {source} ({per})")
    for (option, who), counts in sorted(settings.items()):
        values = ", ".join(f"{value} {n}" for value, n in sorted(counts.items()))
        lines.append(f"skipped {per_option[option, who]}: they need {option} settings which "
                     f"{who} ({values})")
    return lines + [f"skipped {n}: {reason}" for reason, n in sorted(reasons.items())]


@dataclass
class Group:
    """Failures with one cause: the same rule broken (diagnosis.py), in one or several
    ways; `what` is the most frequent."""

    rule: str
    what: str
    level: str
    expected: bool  # every member is listed in --expected-failures
    members: list[tuple[Result, Detail]] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.members[0][1].kind if self.members else ""

    @property
    def ids(self) -> list[str]:
        return list(dict.fromkeys(r.id for r, _ in self.members))

    def example(self) -> tuple[Result, Detail]:
        """The shortest scenario that shows it the most frequent way, one citing the rule
        first if any does; for a legal step refused, one whose title claims no refusal
        first: a step on the way to a refusal ("a point bid of 42 is POINT_BID_RANGE",
        failing at the bid of 41 before it) reads as a contradiction."""
        return min(self.members, key=lambda m: ((m[1].cause or m[1].kind) != self.what,
                                                m[1].kind == "accepted" and
                                                claims_a_refusal(m[0].title),
                                                self.rule not in m[0].rules, m[0].size,
                                                m[0].id))

    @property
    def ways(self) -> list[tuple[str, int]]:
        """How the cause showed (each failure's `cause`), most frequent first."""
        counts: dict[str, int] = {}
        for _, detail in self.members:
            what = detail.cause or detail.kind
            counts[what] = counts.get(what, 0) + 1
        return sorted(counts.items(), key=lambda item: -item[1])

    def head(self) -> str:
        """`FAILED RULE: how it showed (N times in M scenarios, level L)`, and the other
        ways it showed on a second line."""
        ids = self.ids
        head = "FAILED (expected)" if self.expected else "FAILED"
        count = len(self.members)
        times = f"{count} time{'s' * (count != 1)} in {len(ids)} scenario{'s' * (len(ids) != 1)}"
        ways = self.ways
        line = f"{head} {self.rule}: {ways[0][0]} ({times}, level {self.level})"
        if len(ways) > 1:
            line += "\n  also seen as: " + "; ".join(f"{w} ({n})" for w, n in ways[1:6])
        either = self.either
        if either:
            line += (f"\n  or {' or '.join(either)}: every failure here fits it as well, and "
                     "nothing else in this run tells them apart")
        through = self.through
        if through:
            line += (f"\n  also {', '.join(through)}: the rule{'s' * (len(through) > 1)} of "
                     f"{' and '.join(_options_of(through))} stated through {self.rule}, "
                     "failing with it: the same mistake where the option is on")
        also = self.also
        if also:
            entry = next((d.entry for _, d in self.members if d.entry), "")
            line += (f"\n  also {', '.join(also)}: one check decides them all (the "
                     f"reference's `{entry}`, made your engine's way, gives every failure "
                     "here)")
        return line

    @property
    def either(self) -> list[str]:
        """The rules the run cannot tell from the group's (settle)."""
        return list(dict.fromkeys(r for _, d in self.members for r in d.either))

    @property
    def through(self) -> list[str]:
        """The options' rules stated through the group's, filed with it (settle)."""
        return list(dict.fromkeys(r for _, d in self.members for r in d.through))

    @property
    def also(self) -> list[str]:
        """The other rules of the one decision that explains the group (settle)."""
        return list(dict.fromkeys(r for _, d in self.members for r in d.rules
                                  if r != self.rule))

    def render(self, shown: int = 30) -> str:
        ids = self.ids
        lines = self.head().splitlines()
        first, detail = self.example()
        lines += ["  " + line for line in first.report(detail, cause=False).splitlines()]
        if len(ids) > 1:
            lines.append(all_ids(ids, shown))
        return "\n".join(lines)


def _options_of(rules: list[str]) -> list[str]:
    """The options whose rules these are (spec/variants.md), each once."""
    from conformance.specdata.index import load_index

    known = load_index().rules
    return list(dict.fromkeys(f"`{known[r].variant}`" for r in rules
                              if r in known and known[r].variant))


def claims_a_refusal(title: str) -> bool:
    """Whether a scenario's title names an error code (spec/errors.yaml): its claim is a
    refusal."""
    from conformance.specdata.index import load_index

    codes = load_index().codes
    return any(word in codes for word in re.findall(r"[A-Z][A-Z_]+", title))


def all_ids(ids: list[str], shown: int = 30) -> str:
    """`  all N: a, b, ... (+M more)`: the scenarios of a group."""
    more = f" (+{len(ids) - shown} more)" if len(ids) > shown else ""
    return f"  all {len(ids)}: {', '.join(ids[:shown])}{more}"


def groups(results: list[Result]) -> list[Group]:
    """Every judged failure of every failed scenario, grouped by cause, largest first (the
    causes as the run settled them: settle)."""
    found: dict[tuple[str, str, str, bool], Group] = {}
    for result in results:
        if result.outcome is not Outcome.FAILED:
            continue
        for detail in result.failures:
            key = (*detail.key, result.expected_failure)
            group = found.setdefault(key, Group(detail.rule, detail.cause or detail.kind,
                                                detail.level, result.expected_failure))
            group.members.append((result, detail))
    for group in found.values():
        group.what = group.ways[0][0]  # its most frequent way of showing
    return sorted(found.values(), key=lambda g: (g.expected, -len(g.ids), g.rule, g.what))


def recap(results: list[Result], most: int = 8) -> str:
    """The causes again in one line (and the errored scenarios in another), just above
    the summary line: the blocks that say them have scrolled away behind the tables of a
    long run. "" when nothing failed or errored."""
    found = [g for g in groups(results) if not g.expected]
    errored = [r for r in results if r.outcome is Outcome.ERRORED]
    ways = len({crash_kind(r) for r in errored})
    crashed = (f"errored: {len(errored)} scenario{'s' * (len(errored) != 1)}, {ways} "
               f"way{'s' * (ways != 1)} (the ERRORED block{'s' * (ways != 1)} above)")
    if not found:
        return crashed if errored else ""
    twice = {g.rule for g in found if sum(o.rule == g.rule for o in found) > 1}

    def named(g: Group) -> str:  # a rule broken two ways says which way
        return f"{g.rule} ({clipped(g.what)})" if g.rule in twice else g.rule

    shown = ", ".join(f"{named(g)} in {len(g.ids)}" + (i == 0) * (
        " scenario" + "s" * (len(g.ids) != 1)) for i, g in enumerate(found[:most]))
    more = f", and {len(found) - most} more" if len(found) > most else ""
    one = len(found) == 1
    failed = (f"failed: {len(found)} cause{'' if one else 's'}: {safe(shown)}{more} "
              f"({'its' if one else 'their'} FAILED block{'' if one else 's'} above)")
    return failed + ("\n" + crashed if errored else "")


def clipped(text: str, most: int = 80) -> str:
    """`text` whole when it has at most `most` characters, else cut after its last whole
    word that fits, with `...` (a cause cut mid-word read as another word)."""
    if len(text) <= most:
        return text
    cut = text[:most - 3].rstrip()
    if text[len(cut)] not in " ,;:" and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."


def not_judged_lines(results: list[Result]) -> list[str]:
    """One line per cause of the differences above the run's level."""
    counts: dict[tuple[str, str, str], list[str]] = {}
    for result in results:
        for detail in result.not_judged:
            counts.setdefault((detail.level, detail.rule, detail.kind), []).append(result.id)
    lines = []
    for (level, rule, kind), ids in sorted(counts.items()):
        scenarios = list(dict.fromkeys(ids))
        lines.append(f"not judged: {rule} {kind} (level {level}) differs in "
                     f"{len(scenarios)} scenarios, e.g. {scenarios[0]}")
    return lines


def compliance(results: list[Result]) -> dict[str, dict[str, dict[str, dict[str, int]]]]:
    """Checks passed, failed and not judged, by level, per rule area and per rule ID."""
    table: dict[str, dict[str, dict[str, dict[str, int]]]] = {"areas": {}, "rules": {},
                                                               "all": {}}

    def count(section: str, key: str, level: str, column: str) -> None:
        row = table[section].setdefault(key, {})
        cell = row.setdefault(level, {"passed": 0, "failed": 0, "not_judged": 0})
        cell[column] += 1

    for result in results:
        for check in result.checks:
            column = ("not_judged" if not check.judged else
                      "passed" if check.passed else "failed")
            rules = [r for r in check.rules if RULE_ID.match(r)]  # not a form's document
            for rule in rules:
                count("rules", rule, check.level, column)
            for area in dict.fromkeys(rule.split("-")[0] for rule in rules):
                count("areas", area, check.level, column)
            count("all", "checks", check.level, column)  # each check once
    for section in table.values():
        for key in list(section):
            section[key] = dict(sorted(section.pop(key).items()))
    table["areas"] = dict(sorted(table["areas"].items()))
    table["rules"] = dict(sorted(table["rules"].items()))
    return table


def errored_by_area(results: list[Result]) -> dict[str, Any]:
    """Errored scenarios, in each area of the rules they cite (`areas`) and in all: their
    checks stop where the engine broke, so the checks alone would read as a pass (an
    engine whose play crashes made every play check it reached, and passed them)."""
    areas: dict[str, int] = {}
    errored = [r for r in results if r.outcome is Outcome.ERRORED]
    for result in errored:
        for area in dict.fromkeys(r.split("-")[0] for r in result.rules if RULE_ID.match(r)):
            areas[area] = areas.get(area, 0) + 1
    return {"areas": dict(sorted(areas.items())), "all": len(errored)}


def compliance_table(results: list[Result], level: Level) -> str:
    """The text form: one row per rule area, passed/failed/above the level at each level,
    and the errored scenarios apart."""
    from conformance.specdata.index import load_index

    names = load_index().levels.names
    table = compliance(results)
    errored = errored_by_area(results)
    areas = {**dict.fromkeys(errored["areas"], {}), **table["areas"]}
    if not areas:
        return ""
    head = f"{'checks':8}" + "".join(f"{name:>16}" for name in names) + f"{'errored':>9}"
    rows = [f"compliance at level {level} (checks passed/failed/above the level per rule area; "
            "a check counts in each area of its rules; errored: scenarios that broke, whose "
            "later checks were never made, in each area of the rules they cite)", head]
    for area, by_level in [*sorted(areas.items()), ("all", table["all"].get("checks", {}))]:
        cells = []
        for name in names:
            cell = by_level.get(name, {"passed": 0, "failed": 0, "not_judged": 0})
            triple = [cell["passed"], cell["failed"], cell["not_judged"]]
            cells.append("/".join(map(str, triple)) if any(triple) else "-")
        broke = errored["all"] if area == "all" else errored["areas"].get(area, 0)
        rows.append(f"{area:8}" + "".join(f"{c:>16}" for c in cells) + f"{broke or '-':>9}")
    return "\n".join([*rows, unanswered_line(results)]).rstrip("\n")


def unanswered_line(results: list[Result]) -> str:
    """What was not judged for a capability the implementation does not declare, and so
    is in no column above: `legal 412 checks in 116 scenarios, ...`; '' when nothing."""
    checks: dict[str, int] = {}
    scenarios: dict[str, int] = {}
    for result in results:
        for capability, count in result.unanswered.items():
            checks[capability] = checks.get(capability, 0) + count
            scenarios[capability] = scenarios.get(capability, 0) + 1
    if not checks:
        return ""
    each = ", ".join(f"{c} {checks[c]} checks in {scenarios[c]} scenarios" for c in sorted(checks))
    return (f"not judged, a capability not declared (every other check of those scenarios "
            f"was judged): {each}")


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
    rows = [f"{name:{width}}  " + "  ".join(f"{row[o.value]:>{max(7, len(o.value))}}"
                                            for o in Outcome)
            for name, row in table.items()]
    return "\n".join([head, *rows])


def option_coverage(results: list[Result], adapter: Any) -> list[dict[str, Any]]:
    """Per option the implementation declares: its entry as the hello gave it, the
    settings it supports when in part, how many scenarios judged it and how many were
    skipped for a setting; for an option declared in part, the `t42 fuzz --variants` that
    plays whole games with settings it supports (what the corpus could not judge)."""
    hello = getattr(adapter, "declaration", None) or []
    limits = getattr(adapter, "settings", None) or {}
    rows = []
    for name in sorted(getattr(adapter, "variants", None) or []):
        entry = next((e for e in hello if e == name or (isinstance(e, dict)
                                                         and e.get("name") == name)), name)
        mine = [r for r in results if name in r.variants]
        judged = sum(r.outcome is not Outcome.SKIPPED for r in mine)
        for_setting = sum(r.outcome is Outcome.SKIPPED and r.reason.startswith(SETTING)
                          and f"{name} " in r.reason[len(SETTING):] for r in mine)
        supported = {key: list(values) for key, values in (limits.get(name) or {}).items()
                     if isinstance(values, list | tuple) and values}
        fuzz = ""
        if supported:  # one supported value per limited setting: a campaign it can play
            fuzz = "t42 fuzz --variants " + shlex.quote(json.dumps(
                {name: {key: values[0] for key, values in supported.items()}}))
        rows.append({"name": name, "declared": entry, "settings": supported,
                     "judged": judged, "skipped_for_a_setting": for_setting, "fuzz": fuzz})
    return rows


def option_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The options declared in part, a line each: what the corpus judged of them."""
    out = []
    for row in rows:
        if not row["settings"]:
            continue
        said = "; ".join(f"{key} {', '.join(json.dumps(v) for v in values)}"
                         for key, values in row["settings"].items())
        out.append(f"{row['name']} declared in part ({said}): {row['judged']} scenarios "
                   f"judged it, {row['skipped_for_a_setting']} skipped for a setting"
                   + (f"; `{row['fuzz']}` plays whole games with settings you support"
                      if row["fuzz"] else ""))
    return out


def to_json(results: list[Result], adapter: Any, counts: dict[str, int],
            seconds: float, stale: list[str], level: Level = STRICT) -> dict[str, Any]:
    from conformance.specdata.versions import versions

    v = versions()
    return {
        "versions": {"suite": str(v["suite"]), "spec": str(v["spec"]),
                     "protocol": v["protocol"]},
        "adapter": {
            "name": getattr(adapter, "name", "?"),
            "version": getattr(adapter, "version", "?"),
            "variants": sorted(getattr(adapter, "variants", [])),
            "capabilities": sorted(getattr(adapter, "capabilities", [])),
            "declaration": getattr(adapter, "declaration", None),  # as the hello gave it
            "spec": getattr(adapter, "spec_version", None),
        },
        "totals": {**counts,
                   "expected_failures": sum(r.expected_failure for r in results),
                   "stale_expected_failures": len(stale)},
        "stale_expected_failures": stale,
        "level": level,
        "by_variant": by_variant(results),
        "option_coverage": option_coverage(results, adapter),
        "compliance": {**compliance(results), "errored": errored_by_area(results)},
        "groups": [{"rule": g.rule, "also": g.also, "either": g.either, "through": g.through,
                    "cause": g.what,
                    "kind": g.kind, "level": g.level, "expected": g.expected,
                    "count": len(g.members), "scenarios": g.ids} for g in groups(results)],
        "seconds": round(seconds, 3),
        "scenarios": [r.to_json() for r in results],
    }


def write_json(path: Path, report: dict[str, Any]) -> None:
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
