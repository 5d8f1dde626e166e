"""The spec read as data: rule IDs (rules.md, variants.md), error codes (errors.yaml) and
conformance levels (levels.yaml).

The one parser of the rule index: the harness (`t42 check`, `t42 coverage`, scenario
loading), tools/gen_errors_md.py and tests/spec/ all read the spec through this module,
and nothing else keeps a list of rule IDs, error codes or variant names.

A rule is a top-level Markdown list item that starts with its ID in bold
(`- **BID-03** ...`; rules.md, preamble). In variants.md a rule belongs to the option of
the nearest preceding `## ` heading that starts with the option name in backticks, up to
the next `#`/`## ` heading (variants.md, "How the harness reads this file"). Whatever
does not fit these forms is a problem that `t42 check` reports, never silently skipped.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from conformance.specdata.files import spec_dir
from conformance.specdata.levels import STRICT, Level
from conformance.specdata.yamlload import read_yaml

RULE_FILES = ("rules.md", "variants.md")
# Any top-level item that opens in bold is read as a rule, so a malformed ID is reported.
RULE_ITEM = re.compile(r"^- \*\*([^*]+)\*\*(.*)$")
RULE_ID = re.compile(r"^[A-Z]+-\d{2}$")
# A bold ID-like token anywhere: each must be the head of a rule item (none hidden).
BOLD_ID = re.compile(r"\*\*([A-Z][A-Z0-9]*-\d+)\*\*")
# An ID cited anywhere in prose or data: capitals, a dash, exactly two digits.
CITED_ID = re.compile(r"\b([A-Z]{2,}-\d{2})\b")
OPTION_HEADING = re.compile(r"^## `([^`]+)`")
OPTION_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
SECTION_HEADING = re.compile(r"^#{1,2} ")
# variants.md, "How the harness reads this file": the rules of another option that an
# option puts in force, which its scenarios may cite (PTERMS-02: the plunge's).
IN_FORCE = re.compile(r"^In force with this option: (.+)\.$")
IN_FORCE_ITEM = re.compile(r"^([A-Z]+)-(\d{2})(?: \.\. \1-(\d{2}))?$")
# rules.md, preamble: a withdrawn rule keeps its ID and is marked *(withdrawn)*.
WITHDRAWN = re.compile(r"^\s*\*\(withdrawn\)\*")
WITHDRAWN_LIKE = re.compile(r"^\W*withdrawn", re.IGNORECASE)
# variants.md: a rule of one setting opens on it, as `With `sweep_marks: 2`, ...` or
# `Interactions of `when: "any_time"``; it holds under that value and the others it states.
SETTING_RULE = re.compile(r"^\s*(?:With|Interactions of) `(?P<name>[a-z_]+): (?P<value>[^`]+)`")
CODE_KEYS = {"code", "rules", "applies_to", "when", "variants", "check_after"}


@dataclass(frozen=True)
class Rule:
    id: str
    file: str
    line: int
    variant: str | None  # None for a base rule and for the general rules of variants.md
    withdrawn: bool
    text: str = ""  # the item's Markdown after the bold ID, continuation lines joined
    section: str = ""  # the `## ` heading the rule sits under

    @property
    def summary(self) -> str:
        """The rule in one line: its first sentence, cut at about 160 characters, as plain
        text (a report is read in a terminal): no bold, and no leading **Decision.**
        marker (the spec's record of how an open point was settled)."""
        text = re.sub(r"^\*\*Decision\.\*\*\s*", "", self.text).replace("**", "")
        first = re.split(r"(?<=\.)\s", text, maxsplit=1)[0]
        return first if len(first) <= 160 else first[:157].rstrip() + "..."

    @property
    def setting_values(self) -> tuple[str, tuple[Any, ...]] | None:
        """For a rule that opens on one setting of its option (variants.md: `With` or
        `Interactions of` and the setting in backticks, as `With `sweep_marks: 2``): the
        setting's name and the values the rule states, that one and any other it states
        after (PTERMS-03: `With `"partner"` the partner leads`). None for any other rule,
        which holds whenever its option is on."""
        opening = SETTING_RULE.match(self.text)
        if not opening:
            return None
        name, rest = opening["name"], self.text[opening.end():]
        stated = [opening["value"]] + re.findall(rf'With `{name}: ([^`]+)`', rest) + \
            re.findall(r'With `("[^"`]+")`', rest)
        values = []
        for value in stated:
            try:
                values.append(json.loads(value))
            except ValueError:
                continue  # not JSON: a name in prose, not a value
        return name, tuple(values)

    def sentence(self, about: str) -> str:
        """The sentence of the rule that a failure `about` something breaks: of the
        sentences that say MUST (or MAY), the one sharing the most words with `about`;
        in an interaction rule that says neither (its first sentence only names the
        option), the clause sharing the most; else the summary. VIS-09
        opens with what is public, but a leak breaks its "MUST NOT be shown the round
        points"."""
        text = re.sub(r"^\*\*Decision\.\*\*\s*", "", self.text).replace("**", "")
        sentences = [s for s in re.split(r"(?<=\.)\s+", text) if re.search(r"\bMUST|\bMAY", s)]
        words = set(re.findall(r"[a-z]{4,}", about.lower()))

        def shared(sentence: str) -> int:
            return len(words & set(re.findall(r"[a-z]{4,}", sentence.lower())))

        if not sentences and text.startswith("Interactions of"):
            sentences = [s for s in re.split(r"(?<=[.;])\s+", text)[1:] if shared(s)]
        if not sentences or not words:
            return self.summary
        best = max(sentences, key=shared)
        return best if len(best) <= 200 else best[:197].rstrip() + "..."


@dataclass(frozen=True)
class ErrorCode:
    code: str
    rules: tuple[str, ...]
    applies_to: tuple[str, ...]


@dataclass(frozen=True)
class CheckKind:
    """A kind of check the harness makes (levels.yaml `checks`)."""

    name: str
    level: Level
    means: str
    rules: tuple[str, ...] = ()


@dataclass
class Levels:
    """levels.yaml: the levels lowest first, every check kind, the rejections judged above
    `rules`, and the rule areas behind each view field."""

    names: tuple[Level, ...] = (Level("rules"), Level("codes"), STRICT)  # without levels.yaml
    means: dict[str, str] = field(default_factory=dict)
    checks: dict[str, CheckKind] = field(default_factory=dict)
    rejections: dict[str, Level] = field(default_factory=dict)  # code -> level
    inputs: dict[str, CheckKind] = field(default_factory=dict)  # test inputs refused
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)  # field -> areas

    def level(self, name: str) -> Level:
        """`name` as a Level; ValueError when levels.yaml has no such level."""
        if name not in self.names:
            raise ValueError(f"unknown level {name} (one of {', '.join(self.names)})")
        return Level(name)

    def rank(self, level: str) -> int:
        """The place of a level, lowest first (ValueError for a name levels.yaml has not:
        a level read back from a report or a plant is a plain string)."""
        return self.names.index(level)

    def judged(self, level: str, at: str) -> bool:
        """Is a check of `level` judged in a run at level `at`?"""
        return self.rank(level) <= self.rank(at)

    def of(self, kind: str, code: str | None = None, test_input: str | None = None
           ) -> Level:
        """The level of one check; a code check is never below its rejection's level, nor
        the refusal of a test input (`inputs`) below that input's."""
        level = self.checks[kind].level
        if code is not None and kind in ("rejected", "code", "check_order"):
            floor = self.rejections.get(code, self.names[0])
            entry = self.inputs.get(test_input or "")
            if entry is not None:
                floor = max(floor, entry.level, key=self.rank)
            level = max(level, floor, key=self.rank)
        return level


@dataclass
class SpecIndex:
    rules: dict[str, Rule] = field(default_factory=dict)  # well-formed, first definition
    items: list[Rule] = field(default_factory=list)  # every rule item as written
    variants: dict[str, tuple[str, int]] = field(default_factory=dict)  # option -> (file, line)
    in_force: dict[str, tuple[str, ...]] = field(default_factory=dict)  # option -> other rules
    codes: dict[str, ErrorCode] = field(default_factory=dict)
    order: tuple[str, ...] = ()  # the codes in the single check order (DIG-03)
    levels: Levels = field(default_factory=Levels)
    problems: list[str] = field(default_factory=list)


def parse_rules(path: Path, index: SpecIndex) -> None:
    """Add the rule items and option headings of one markdown file to the index."""
    variant: str | None = None
    section = ""
    base = path.name == "rules.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        heading = OPTION_HEADING.match(line)
        if line.startswith("## "):
            section = line[3:].strip()
        if heading:
            variant = heading.group(1)
            _add_option(variant, path.name, number, base, index)
            continue
        if SECTION_HEADING.match(line):
            variant = None
            continue
        in_force = IN_FORCE.match(line)
        if in_force:
            _add_in_force(variant, in_force.group(1), f"{path.name}:{number}", index)
            continue
        item = RULE_ITEM.match(line)
        if item:
            text = " ".join([item.group(2).strip(), *_continuation(lines, number)]).strip()
            _add_rule(item.group(1), item.group(2), path.name, number, variant, index,
                      text, section)


def _continuation(lines: list[str], number: int) -> list[str]:
    """The indented lines that continue the list item on line `number` (1-based)."""
    out = []
    for line in lines[number:]:
        if not line.startswith("  ") or not line.strip():
            break
        out.append(line.strip())
    return out


def _add_option(name: str, file: str, line: int, base: bool, index: SpecIndex) -> None:
    where = f"{file}:{line}"
    if base:
        index.problems.append(f"{where}: option heading `{name}` in the base rules")
        return
    if not OPTION_NAME.match(name):
        index.problems.append(f"{where}: option name `{name}` is not snake_case")
    if name in index.variants:
        first = ":".join(map(str, index.variants[name]))
        index.problems.append(f"{where}: option `{name}` already headed at {first}")
        return
    index.variants[name] = (file, line)


def _add_in_force(option: str | None, listed: str, where: str, index: SpecIndex) -> None:
    """`In force with this option: PLUNGE-02 .. PLUNGE-06.`: IDs and ranges, comma-separated."""
    if option is None:
        index.problems.append(f"{where}: `In force with this option` outside an option")
        return
    ids: list[str] = []
    for item in (part.strip() for part in listed.split(",")):
        match = IN_FORCE_ITEM.match(item)
        if not match:
            index.problems.append(f"{where}: {item!r} is not a rule ID or a range `X-02 .. X-06`")
            continue
        area, first, last = match.group(1), match.group(2), match.group(3) or match.group(2)
        ids += [f"{area}-{n:02d}" for n in range(int(first), int(last) + 1)]
    index.in_force[option] = index.in_force.get(option, ()) + tuple(ids)


def options_citing(index: SpecIndex, rule: Rule) -> set[str]:
    """The options that let a scenario cite `rule`: its own, and every option that puts it
    in force (scenario-format.md). Empty for a base or general rule."""
    if rule.variant is None:
        return set()
    return {rule.variant} | {o for o, ids in index.in_force.items() if rule.id in ids}


def _add_rule(rule_id: str, rest: str, file: str, line: int, variant: str | None,
              index: SpecIndex, text: str = "", section: str = "") -> None:
    withdrawn = bool(WITHDRAWN.match(rest))
    rule = Rule(rule_id, file, line, variant, withdrawn, text, section)
    index.items.append(rule)
    where = f"{file}:{line}"
    if not RULE_ID.match(rule_id):
        index.problems.append(f"{where}: rule ID {rule_id!r} is not of the form AREA-NN")
        return
    if not withdrawn and WITHDRAWN_LIKE.match(rest):
        index.problems.append(f"{where}: {rule_id} is marked withdrawn other than *(withdrawn)*")
    if rule_id in index.rules:
        first = index.rules[rule_id]
        index.problems.append(f"{where}: rule {rule_id} already defined at "
                              f"{first.file}:{first.line}")
        return
    index.rules[rule_id] = rule


def check_hidden_rules(path: Path, index: SpecIndex) -> None:
    """Every bold rule ID of the file heads a top-level rule item (none indented, none
    mid-paragraph, none under another bullet), so the index misses no rule."""
    bold = Counter(BOLD_ID.findall(path.read_text(encoding="utf-8")))
    seen = Counter(rule.id for rule in index.items if rule.file == path.name)
    for rule_id in sorted((bold - seen).elements()):
        index.problems.append(f"{path.name}: **{rule_id}** is bold outside a rule item "
                              "(a rule is a top-level `- **ID**` item)")
    if not seen:
        index.problems.append(f"{path.name}: no rule items found")


def cited_ids(text: str) -> set[str]:
    """Every rule-ID-shaped token in a text."""
    return set(CITED_ID.findall(text))


def check_citations(root: Path, index: SpecIndex) -> None:
    """A typo in a cross-reference (`SUIT-07` for a rule that does not exist) is a problem."""
    for path in sorted(root.glob("*.md")) + [root / "errors.yaml"]:
        unknown = cited_ids(path.read_text(encoding="utf-8")) - set(index.rules)
        if unknown:
            index.problems.append(f"{path.name} cites unknown rules {', '.join(sorted(unknown))}")


def read_codes(path: Path) -> list[dict[str, Any]]:
    """The `codes` list of errors.yaml, as written."""
    doc = read_yaml(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("codes"), list):
        raise ValueError("no `codes` list")
    return doc["codes"]


def check_order(codes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The single check order (DIG-03; variants.md): base codes in list order, and every code
    with `check_after` placed immediately after the code it names (ValueError if impossible)."""
    names = [c["code"] for c in codes]
    if len(set(names)) != len(names):
        raise ValueError("a code is listed twice in errors.yaml")
    anchors = [c["check_after"] for c in codes if "check_after" in c]
    if len(set(anchors)) != len(anchors):
        raise ValueError("two codes name the same check_after code")
    order = [c for c in codes if "check_after" not in c]
    pending = [c for c in codes if "check_after" in c]
    while pending:
        placed = [c["code"] for c in order]
        ready = [c for c in pending if c["check_after"] in placed]
        if not ready:
            missing = sorted(c["check_after"] for c in pending)
            raise ValueError(f"check_after names no placeable code: {missing}")
        for code in ready:
            at = [c["code"] for c in order].index(code["check_after"])
            order.insert(at + 1, code)
            pending.remove(code)
    return order


def parse_codes(path: Path, index: SpecIndex) -> None:
    """Add the codes of errors.yaml; a duplicate, an unknown key, an unknown rule or a
    check order that cannot be built is a problem."""
    try:
        codes = read_codes(path)
    except ValueError as error:
        index.problems.append(f"{path.name}: {error}")
        return
    if not all(isinstance(entry, dict) and "code" in entry for entry in codes):
        index.problems.append(f"{path.name}: every entry of `codes` needs a `code`")
        return
    for entry in codes:
        code = entry["code"]
        if code in index.codes:
            index.problems.append(f"{path.name}: error code {code} listed twice")
        unknown_keys = set(entry) - CODE_KEYS
        if unknown_keys:
            index.problems.append(f"{path.name}: {code} has unknown keys "
                                  f"{', '.join(sorted(unknown_keys))}")
        index.codes[code] = ErrorCode(
            code, tuple(entry.get("rules", ())), tuple(entry.get("applies_to", ()))
        )
    for known in index.codes.values():
        for rule_id in known.rules:
            if rule_id not in index.rules:
                index.problems.append(f"{path.name}: {known.code} cites unknown rule {rule_id}")
    try:
        index.order = tuple(c["code"] for c in check_order(codes))
    except ValueError as error:
        index.problems.append(f"{path.name}: {error}")


LEVEL_KEYS = {"levels", "checks", "rejections", "fields"}
OPTIONAL_LEVEL_KEYS = {"inputs"}  # a small spec written for a test may leave it out
INPUT_KINDS = {"marks_at_target"}  # the test inputs the harness names (run/inputs.py)
CHECK_KINDS = {"accepted", "rejected", "known_code", "code", "check_order", "unchanged",
               "schema", "view", "observe", "legal", "perft", "hidden_tiles", "hidden_seats",
               "hidden_points", "self_deal", "observe_form",
               "hand_order"}


def parse_levels(path: Path, index: SpecIndex) -> None:
    """levels.yaml; every kind the harness judges needs a level, every name must exist."""
    doc = read_yaml(path)
    if not isinstance(doc, dict) or not LEVEL_KEYS <= set(doc) <= LEVEL_KEYS | \
            OPTIONAL_LEVEL_KEYS:
        index.problems.append(f"{path.name}: needs exactly the keys {sorted(LEVEL_KEYS)} "
                              f"(and may have {sorted(OPTIONAL_LEVEL_KEYS)})")
        return
    levels = Levels(tuple(Level(item["name"]) for item in doc["levels"]),
                    {item["name"]: " ".join(item["means"].split()) for item in doc["levels"]})
    problems = index.problems
    for kind, entry in doc["checks"].items():
        rules = tuple(entry.get("rules", ()))
        levels.checks[kind] = CheckKind(kind, Level(entry["level"]), entry["means"], rules)
        if entry["level"] not in levels.names:
            problems.append(f"{path.name}: check {kind} has unknown level {entry['level']}")
        problems += [f"{path.name}: check {kind} cites unknown rule {r}"
                     for r in rules if r not in index.rules]
    for kind in sorted(CHECK_KINDS ^ set(levels.checks)):
        problems.append(f"{path.name}: check kind {kind} is "
                        + ("missing" if kind in CHECK_KINDS else "not one the harness makes"))
    for code, level in doc["rejections"].items():
        if code not in index.codes:
            problems.append(f"{path.name}: rejections names unknown code {code}")
        if level not in levels.names:
            problems.append(f"{path.name}: rejection {code} has unknown level {level}")
        levels.rejections[code] = Level(level)
    _parse_inputs(path, doc.get("inputs") or {}, levels, index)
    areas = {rule.split("-")[0] for rule in index.rules}
    for name, field_areas in doc["fields"].items():
        problems += [f"{path.name}: field {name} names unknown rule area {a}"
                     for a in field_areas if a not in areas]
        levels.fields[name] = tuple(field_areas)
    index.levels = levels


def _parse_inputs(path: Path, inputs: dict[str, Any], levels: Levels, index: SpecIndex
                  ) -> None:
    """levels.yaml `inputs`: each a test input the harness names, with a known level."""
    for name, entry in inputs.items():
        rules = tuple(entry.get("rules", ()))
        levels.inputs[name] = CheckKind(name, Level(entry["level"]),
                                        " ".join(entry["means"].split()), rules)
        if name not in INPUT_KINDS:
            index.problems.append(f"{path.name}: input {name} is not one the harness names")
        if entry["level"] not in levels.names:
            index.problems.append(f"{path.name}: input {name} has unknown level "
                                  f"{entry['level']}")
        index.problems += [f"{path.name}: input {name} cites unknown rule {r}"
                           for r in rules if r not in index.rules]


@cache
def load_index(root: Path | None = None) -> SpecIndex:
    """Parse the spec directory once per process."""
    root = root or spec_dir()
    index = SpecIndex()
    for name in RULE_FILES:
        if name == "rules.md" or (root / name).exists():  # variants.md is optional
            parse_rules(root / name, index)
            check_hidden_rules(root / name, index)
    parse_codes(root / "errors.yaml", index)
    if (root / "levels.yaml").exists():  # optional in a small spec written for a test
        parse_levels(root / "levels.yaml", index)
    check_citations(root, index)
    for option, ids in index.in_force.items():
        where = ":".join(map(str, index.variants[option]))
        index.problems += [f"{where}: option `{option}` puts in force unknown rule {i}"
                           for i in ids if i not in index.rules]
    return index
