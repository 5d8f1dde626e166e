"""The rule index of rules.md and variants.md: well formed, unique, and every citation real.

Both the real spec and small hand-written specs go through conformance.specdata.index, the one
parser, so each check here is also shown to fail on the mistake it is there for.
"""

import re
from collections import Counter
from pathlib import Path

import pytest

from conformance.specdata.index import (
    BOLD_ID,
    OPTION_HEADING,
    OPTION_NAME,
    RULE_ID,
    cited_ids,
    load_index,
)

# The checkout's spec (what is committed), not the copy an installed package carries.
SPEC = Path(__file__).resolve().parents[2] / "spec"
INDEX = load_index(SPEC)


def test_the_spec_has_no_index_problems():
    assert INDEX.problems == []


def test_rule_ids_are_well_formed():
    bad = [f"{r.file}:{r.line}: {r.id}" for r in INDEX.items if not RULE_ID.match(r.id)]
    assert not bad


def test_rule_ids_are_unique_across_both_files():
    counts = Counter(rule.id for rule in INDEX.items)
    assert not [rule_id for rule_id, n in counts.items() if n > 1]


def test_no_rule_hides_outside_a_top_level_list_item():
    """Every bold ID is a rule item the index sees (not indented, not mid-paragraph)."""
    for name in ("rules.md", "variants.md"):
        text = (SPEC / name).read_text(encoding="utf-8")
        bold = BOLD_ID.findall(text)
        seen = [rule.id for rule in INDEX.items if rule.file == name]
        assert sorted(bold) == sorted(seen), name
        assert seen, f"no rules found in {name}"


def test_base_rules_belong_to_no_option():
    assert all(rule.variant is None for rule in INDEX.items if rule.file == "rules.md")


def test_every_rule_of_errors_yaml_exists():
    missing = {(c.code, r) for c in INDEX.codes.values() for r in c.rules if r not in INDEX.rules}
    assert not missing


def test_every_rule_id_cited_anywhere_in_spec_exists():
    """A typo in a cross-reference (`SUIT-07`, `PLAY-9`) would otherwise go unseen."""
    for path in sorted(SPEC.glob("*.md")) + [SPEC / "errors.yaml"]:
        missing = cited_ids(path.read_text(encoding="utf-8")) - set(INDEX.rules)
        assert not missing, f"{path.name} cites unknown rules {sorted(missing)}"


def test_option_names_are_unique_snake_case():
    text = (SPEC / "variants.md").read_text(encoding="utf-8")
    headings = [m.group(1) for line in text.splitlines() if (m := OPTION_HEADING.match(line))]
    assert headings == list(INDEX.variants)
    assert all(OPTION_NAME.match(name) for name in headings)
    assert {"forced_bid", "nello", "sevens", "plunge"} <= set(headings)


def test_every_option_has_rules_with_one_prefix_of_its_own():
    prefixes: dict[str, set[str]] = {}
    for rule in INDEX.items:
        if rule.file == "variants.md":
            prefixes.setdefault(rule.variant or "", set()).add(rule.id.split("-")[0])
    assert prefixes.pop("") == {"VAR"}, "general rules must come before the first option"
    assert set(prefixes) == set(INDEX.variants), "an option without rules"
    assert all(len(p) == 1 for p in prefixes.values()), prefixes
    flat = [next(iter(p)) for p in prefixes.values()]
    assert len(flat) == len(set(flat)), "two options share a rule prefix"


def test_every_option_states_its_value_form():
    text = (SPEC / "variants.md").read_text(encoding="utf-8")
    sections = re.split(r"\n(?=## `)", text)[1:]
    for section in sections:
        name = re.match(r"## `([^`]+)`", section).group(1)
        assert "\nValue: `true`" in section, f"{name} does not state its value form"


def test_rule_numbers_run_without_gaps():
    """IDs are never renumbered; within a prefix they are numbered 01, 02, ... in order."""
    by_prefix: dict[str, list[int]] = {}
    for rule in INDEX.items:
        prefix, number = rule.id.split("-")
        by_prefix.setdefault(prefix, []).append(int(number))
    for prefix, numbers in by_prefix.items():
        assert numbers == list(range(1, len(numbers) + 1)), prefix


# The parser itself, on small specs written for one mistake each.

ENTRY = "  - code: BAD_BID\n    rules: [BID-01]\n    applies_to: [bid]\n    when: x\n"
CODES = "codes:\n" + ENTRY


def small_spec(tmp_path: Path, rules: str, variants: str | None = None,
               codes: str = CODES) -> list[str]:
    (tmp_path / "rules.md").write_text("# Rules\n\n## 1. Bids\n\n" + rules, encoding="utf-8")
    if variants is not None:
        (tmp_path / "variants.md").write_text("# Variants\n\n" + variants, encoding="utf-8")
    (tmp_path / "errors.yaml").write_text(codes, encoding="utf-8")
    return load_index(tmp_path).problems


GOOD_VARIANTS = ("## General\n\n- **VAR-01** General.\n\n## `nello`: Nel-O\n\n"
                 "- **NELLO-01** Nel-O.\n\n## What the options add\n\n- **VAR-02** After.\n")


def test_a_small_good_spec_has_no_problems(tmp_path):
    assert small_spec(tmp_path, "- **BID-01** Bid.\n", GOOD_VARIANTS) == []
    index = load_index(tmp_path)
    assert {r.id: r.variant for r in index.items} == {
        "BID-01": None, "VAR-01": None, "NELLO-01": "nello", "VAR-02": None}
    assert index.variants == {"nello": ("variants.md", 7)}


@pytest.mark.parametrize("rules, says", [
    ("- **BID-1** Bid.\n", "not of the form AREA-NN"),
    ("- **bid-01** Bid.\n", "not of the form AREA-NN"),
    ("- **BID-001** Bid.\n", "not of the form AREA-NN"),
    ("- **BID-01** Bid.\n- **BID-01** Again.\n", "already defined at rules.md:5"),
    ("- **BID-01** Bid.\n  - **BID-02** Indented.\n", "**BID-02** is bold outside"),
    ("- **BID-01** Bid.\n* **BID-02** Other bullet.\n", "**BID-02** is bold outside"),
    ("- **BID-01** Bid, see **BID-02** mid-text.\n", "**BID-02** is bold outside"),
    ("- **BID-01** Bid; see BID-09.\n", "rules.md cites unknown rules BID-09"),
    ("- **BID-01** Bid.\n- **BID-02** (withdrawn) Gone.\n", "other than *(withdrawn)*"),
    ("## `nello`: no options here\n\n- **BID-01** Bid.\n", "option heading `nello` in the base"),
])
def test_the_parser_reports_each_malformed_rule_index(tmp_path, rules, says):
    problems = small_spec(tmp_path, rules)
    assert any(says in p for p in problems), problems


@pytest.mark.parametrize("variants, says", [
    ("## `Nel-O`\n\n- **NELLO-01** x.\n", "`Nel-O` is not snake_case"),
    ("## `nello`\n\n- **NELLO-01** x.\n\n## `nello`\n\n- **NELLO-02** y.\n",
     "option `nello` already headed at variants.md:3"),
    ("Some prose only.\n", "variants.md: no rule items found"),
])
def test_the_parser_reports_each_malformed_option(tmp_path, variants, says):
    problems = small_spec(tmp_path, "- **BID-01** Bid.\n", variants)
    assert any(says in p for p in problems), problems


@pytest.mark.parametrize("codes, says", [
    (CODES.replace("BID-01", "BID-07"), "BAD_BID cites unknown rule BID-07"),
    (CODES + ENTRY, "BAD_BID listed twice"),
    (CODES + "    colour: red\n", "unknown keys colour"),
    (CODES + "  - code: LATE\n    check_after: NOPE\n", "check_after names no placeable"),
    ("version: 1\n", "no `codes` list"),
])
def test_the_parser_reports_each_malformed_code_list(tmp_path, codes, says):
    problems = small_spec(tmp_path, "- **BID-01** Bid.\n", codes=codes)
    assert any(says in p for p in problems), problems


def test_withdrawn_rules_are_read_from_their_marker(tmp_path):
    rules = "- **BID-01** Bid.\n- **BID-02** *(withdrawn)* Gone.\n"
    assert small_spec(tmp_path, rules) == []
    assert [r.withdrawn for r in load_index(tmp_path).items] == [False, True]
