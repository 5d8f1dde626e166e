"""The rule index of rules.md and variants.md: well formed, unique, and every citation real."""

import re
from collections import Counter

from spec_index import (
    OPTION_NAME,
    RULE_ID,
    SPEC,
    cited_ids,
    option_names,
    read_codes,
    read_rules,
)


def _ids() -> set[str]:
    return {rule.id for rule in read_rules()}


def test_rule_ids_are_well_formed():
    bad = [f"{r.file}:{r.line}: {r.id}" for r in read_rules() if not RULE_ID.match(r.id)]
    assert not bad


def test_rule_ids_are_unique_across_both_files():
    counts = Counter(rule.id for rule in read_rules())
    assert not [rule_id for rule_id, n in counts.items() if n > 1]


def test_no_rule_hides_outside_a_top_level_list_item():
    """Every bold ID is a rule item the index sees (not indented, not mid-paragraph)."""
    for name in ("rules.md", "variants.md"):
        text = (SPEC / name).read_text(encoding="utf-8")
        bold = re.findall(r"\*\*([A-Z]+-\d{2})\*\*", text)
        seen = [rule.id for rule in read_rules() if rule.file == name]
        assert sorted(bold) == sorted(seen), name
        assert seen, f"no rules found in {name}"


def test_base_rules_belong_to_no_option():
    assert all(rule.option is None for rule in read_rules() if rule.file == "rules.md")


def test_every_rule_of_errors_yaml_exists():
    ids = _ids()
    missing = {(c["code"], r) for c in read_codes() for r in c["rules"] if r not in ids}
    assert not missing


def test_every_rule_id_cited_anywhere_in_spec_exists():
    """A typo in a cross-reference (`SUIT-07`, `PLAY-9`) would otherwise go unseen."""
    ids = _ids()
    for path in sorted(SPEC.glob("*.md")) + [SPEC / "errors.yaml"]:
        missing = cited_ids(path.read_text(encoding="utf-8")) - ids
        assert not missing, f"{path.name} cites unknown rules {sorted(missing)}"


def test_option_names_are_unique_snake_case():
    names = option_names()
    assert len(names) == len(set(names))
    assert all(OPTION_NAME.match(name) for name in names)
    assert {"forced_bid", "nello", "sevens", "plunge"} <= set(names)


def test_every_option_has_rules_with_one_prefix_of_its_own():
    prefixes: dict[str, set[str]] = {}
    for rule in read_rules():
        if rule.file == "variants.md":
            prefixes.setdefault(rule.option or "", set()).add(rule.id.split("-")[0])
    assert prefixes.pop("") == {"VAR"}, "general rules must come before the first option"
    assert set(prefixes) == set(option_names()), "an option without rules"
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
    for rule in read_rules():
        prefix, number = rule.id.split("-")
        by_prefix.setdefault(prefix, []).append(int(number))
    for prefix, numbers in by_prefix.items():
        assert numbers == list(range(1, len(numbers) + 1)), prefix
