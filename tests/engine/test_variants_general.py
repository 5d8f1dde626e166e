"""Variant options in general: VAR-01..VAR-04, and the engine's options against variants.md."""

import re
from itertools import combinations

import pytest

import reference_impl
from reference_impl import IllegalAction, Match
from reference_impl.rules import BASE_RULES
from reference_impl.variants import OPTIONS, rules_for

from .spec_data import variant_options
from .support import EXAMPLE, SPEC, rejects, start

GOOD = {"dealer": "D", "hands": EXAMPLE}


def settings_tables() -> dict[str, dict[str, tuple[list[str], str]]]:
    """variants.md: per option, its settings table: setting -> (values as written, default)."""
    text = (SPEC / "variants.md").read_text()
    tables: dict[str, dict[str, tuple[list[str], str]]] = {}
    for section in re.split(r"\n## ", text)[1:]:
        name = re.match(r"`(\w+)`", section)
        if not name:
            continue
        rows = tables.setdefault(name.group(1), {})
        for line in section.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4 and cells[0].startswith("`") and cells[0] != "`setting`":
                values = re.findall(r"`([^`]+)`", cells[1])
                rows[cells[0].strip("`")] = (values or [cells[1]], cells[2].strip("`"))
    return tables


def as_written(value) -> str:
    return value.strip('"') if isinstance(value, str) else str(value)


def test_the_engine_declares_every_option_of_variants_md():
    """The adapter's list (reference_impl.VARIANTS) is every option, in variants.md's order."""
    assert list(reference_impl.VARIANTS) == variant_options() == list(OPTIONS)


def test_every_setting_matches_its_variants_md_table():
    """Each option's settings, allowed values and defaults are those variants.md lists."""
    tables = settings_tables()
    assert set(tables) == set(OPTIONS)
    for name, option in OPTIONS.items():
        written = tables[name]
        assert set(written) == set(option.settings), name
        for key, setting in option.settings.items():
            values, default = written[key]
            assert as_written(setting.default) == default.strip('"'), (name, key)
            if isinstance(setting.values, range):
                low, high = setting.values.start, setting.values.stop - 1
                assert values == [f"an integer from {low} to {high}"], (name, key)
            else:
                assert [as_written(v) for v in setting.values] == [v.strip('"') for v in values]


@pytest.mark.parametrize("name", list(OPTIONS))
def test_var_01_true_and_empty_object_mean_every_default(name):
    """VAR-01: `true`, `{}` and an object naming every default are the same game."""
    defaults = {k: s.default for k, s in OPTIONS[name].settings.items()}
    assert rules_for({name: True}) is rules_for({name: {}}) is rules_for({name: defaults})
    assert rules_for({name: True}) != BASE_RULES
    m = start(variants={name: True})
    assert m.variants == {name: True} and m.to_json()["variants"] == {name: True}


@pytest.mark.parametrize("variants", [
    {"no_such_option": True}, {"nello": False}, {"nello": None}, {"nello": 1},
    {"nello": "high"}, {"nello": []}, {"nello": {"doubles": "middle"}},
    {"nello": {"min_marks": 3}}, {"nello": {"min_marks": True}}, {"nello": {"min_marks": 2.0}},
    {"nello": {"colour": "red"}}, {"plunge": {"doubles": 4}}, {"bid_42": {"x": 1}},
    {"match_points": {"target": 0}}, {"match_points": {"target": 10001}},
    {"match_points": {"target": "250"}}, {"match_points": {"target": 250.5}},
    {"match_points": {"end": "late"}}, {"forced_bid": {"bid": "maximum"}},
    {"sevens": {"duty": "nearest"}}, {"sevens": {"ties": "defenders"}},
    {"undeclared_trump": {"end": "middle"}}, {"undeclared_trump": {"double": "none"}},
    {"deal_by_drawing": {"draws": 1}}, {"follow_me": {"alias": "x"}},
])
def test_var_01_unknown_options_settings_and_values_are_invalid_setups(variants):
    """VAR-01: an unknown option, a value of another form (false, null included), an
    unknown setting or a value the option does not list: INVALID_SETUP."""
    with pytest.raises(IllegalAction) as raised:
        Match.start({**GOOD, "variants": variants})
    assert raised.value.code == "INVALID_SETUP"


@pytest.mark.parametrize("variants", [None, [], "nello", 1, True])
def test_var_01_variants_must_be_an_object(variants):
    """VAR-01: `variants` is an object of options (absent or {} is the base game)."""
    with pytest.raises(IllegalAction) as raised:
        Match.start({**GOOD, "variants": variants})
    assert raised.value.code == "INVALID_SETUP"
    assert Match.start({**GOOD, "variants": {}}) == Match.start(GOOD)
    assert Match.start(GOOD).rules is BASE_RULES


def test_var_02_options_hold_for_the_whole_match_and_a_deal_carries_none():
    """VAR-02: a later round keeps the options; a deal with `variants` is INVALID_SETUP and
    changes nothing."""
    m = start(variants={"forced_bid": True})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": seat, "points": 30 + "ABCD".index(seat)})
    m.apply({"type": "trump", "seat": "D", "trump": 6})
    while m.to_act is not None:
        m.apply(m.legal_actions()[0])
    before = m.clone()
    for deal in ({"hands": EXAMPLE, "variants": {}}, {"hands": EXAMPLE,
                                                      "variants": {"forced_bid": True}}):
        with pytest.raises(IllegalAction) as raised:
            m.deal(deal)
        assert raised.value.code == "INVALID_SETUP" and m == before
    m.deal({"hands": EXAMPLE})  # dealt by A: B, C, D pass, then A is forced
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    rejects(m, {"type": "pass", "seat": "A"}, "FORCED_BID")


def test_var_03_every_combination_of_options_is_one_game():
    """VAR-03: no combination is refused; each pair, and all nine, start a match whose rules
    have every option's changes."""
    names = list(OPTIONS)
    for pair in combinations(names, 2):
        m = start(variants={name: True for name in pair})
        assert m.phase == "bidding"
    everything = rules_for({name: True for name in names})
    assert everything.trumps[-3:] == ("nello", "sevens", "first_tile")
    assert everything.point_bids == range(30, 43)
    special = [(bid.name, bid.doubles) for bid in everything.special_bids]
    assert special == [("plunge", 4), ("splash", 3)]
    assert everything.dealer_bid_problem(everything, None, None, True)[1] == "FORCE-02"
    assert everything.draws and everything.marks_target == 250
    assert everything.trump_aliases == (("follow_me", "none"),)


def test_var_04_option_forms_without_their_option_are_judged_by_the_base_rules():
    """VAR-04: a plunge field is MALFORMED_ACTION, option trumps are INVALID_TRUMP and a
    point bid of 42 is POINT_BID_RANGE when their option is off."""
    hands = {"A": ["0|0", "1|1", "2|2", "3|3", "0|1", "0|2", "0|3"],
             "B": ["4|4", "5|5", "6|6", "0|4", "0|5", "0|6", "1|2"],
             "C": ["1|3", "1|4", "1|5", "1|6", "2|3", "2|4", "2|5"],
             "D": ["2|6", "3|4", "3|5", "3|6", "4|5", "4|6", "5|6"]}
    m = start(hands, variants={"follow_me": True})  # another option is no help
    rejects(m, {"type": "bid", "seat": "A", "plunge": True}, "MALFORMED_ACTION")
    rejects(m, {"type": "bid", "seat": "A", "points": 42}, "POINT_BID_RANGE")
    m = start(hands)
    for seat in "ABC":
        m.apply({"type": "pass", "seat": seat})
    m.apply({"type": "bid", "seat": "D", "marks": 2})
    for choice in ("follow_me", "nello", "sevens", "first_tile"):
        rejects(m, {"type": "trump", "seat": "D", "trump": choice, "stacks": 1},
                "INVALID_TRUMP")


def test_var_01_the_setup_schema_accepts_exactly_the_variants_the_engine_accepts():
    """VAR-01 in spec/schemas/setup.schema.json: random `variants` objects, valid or not,
    are valid for the schema exactly when the engine starts a match with them."""
    import random

    from jsonschema import ValidationError

    from .spec_data import schema_validator

    validate = schema_validator("setup.schema.json")
    rng = random.Random(42)
    # No integral float (2.0): JSON Schema's "integer" accepts it, the engine (like its
    # action parsing, actions.md) takes only JSON integers written without a fraction.
    odd_values = [True, False, None, 0, 1, 2, 3, 2.5, "2", "high", "any", [], {}, 250, 10001]
    names = [*OPTIONS, "nello_high", "forced"]
    agreed = {True: 0, False: 0}
    for _ in range(3000):
        variants = {}
        for name in rng.sample(names, rng.randint(0, 3)):
            option = OPTIONS.get(name)
            if option is None or rng.random() < 0.2:
                variants[name] = rng.choice(odd_values)
                continue
            value = {}
            for key, setting in option.settings.items():
                if rng.random() < 0.5:
                    good = list(setting.values)[:3] + [setting.default]
                    value[key] = rng.choice(good if rng.random() < 0.7 else odd_values)
            if rng.random() < 0.1:
                value["unknown"] = 1
            variants[name] = value if value or rng.random() < 0.5 else True
        try:
            Match.start({**GOOD, "variants": variants})
            accepted = True
        except IllegalAction:
            accepted = False
        try:
            validate({**GOOD, "variants": variants})
            valid = True
        except ValidationError:
            valid = False
        assert accepted == valid, variants
        agreed[accepted] += 1
    assert min(agreed.values()) > 300


def test_the_protocol_hello_lists_exactly_the_options_of_variants_md():
    """protocol.md: a handshake's `variants` names options of variants.md only."""
    import json

    schema = json.loads((SPEC / "schemas" / "protocol" / "hello-result.json").read_text())
    assert schema["$defs"]["option"]["enum"] == variant_options()


def test_start_may_be_given_the_rules_to_play_by():
    """Match.start(setup, rules=...) plays by other Rules (planted engines, experiments):
    the setup is read by them; its variants are still checked (VAR-01) and recorded."""
    from dataclasses import replace

    rules = replace(BASE_RULES, point_bids=range(30, 43))
    m = Match.start(GOOD, rules=rules)
    assert m.rules is rules
    m.apply({"type": "bid", "seat": "A", "points": 42})
    m = Match.start({**GOOD, "variants": {"bid_42": True}}, rules=rules)
    assert m.rules is rules and m.variants == {"bid_42": True}
    with pytest.raises(IllegalAction) as refused:
        Match.start({**GOOD, "variants": {"bid_43": True}}, rules=rules)
    assert refused.value.code == "INVALID_SETUP"
