"""The engine agrees with the spec's data: error codes, rule IDs under test, view fields."""

import re
from pathlib import Path

from reference_impl import Match
from reference_impl.errors import CODES

from .spec_data import (
    codes_in_check_order,
    error_codes,
    object_fields,
    rule_ids,
    table_fields,
    variant_rule_ids,
)
from .support import bid_and_declare, play, start

HERE = Path(__file__).parent


def test_engine_codes_are_the_codes_of_errors_yaml_in_check_order():
    assert list(CODES) == [c["code"] for c in codes_in_check_order()]
    base = [c for c in CODES if c in {e["code"] for e in error_codes()}]
    assert base == [c["code"] for c in error_codes()]


def test_every_rule_has_a_unit_test_citing_it():
    """Each rule ID of rules.md and variants.md appears in a test's name or docstring (as
    BID-03 or bid_03)."""
    cited = set()
    for path in HERE.glob("test_*.py"):
        text = path.read_text()
        cited |= set(re.findall(r"\b([A-Z]+-\d\d)\b", text))
        cited |= {f"{a.upper()}-{n}" for a, n in re.findall(r"def test_([a-z]+)_(\d\d)_", text)}
    ids = rule_ids() + variant_rule_ids()
    assert len(ids) == len(set(ids)) > 120
    assert sorted(set(ids) - cited) == []
    assert sorted(cited - set(ids)) == [], "a test cites a rule ID that does not exist"


def sample_positions():
    m = bid_and_declare(start(), "A", {"marks": 1}, 6, stacks=1)
    yield m.clone()
    play(m, "A 5|5", "B 3|5", "C 0|5")
    yield m.clone()
    play(m, "D 6|6")
    yield m  # set: round_over with a result
    yield Match.from_seed(11)


def test_referee_view_has_exactly_the_fields_of_observation_md():
    for m in sample_positions():
        view = m.view()
        assert list(view) == table_fields("## Referee view")
        if view["contract"]:
            assert list(view["contract"]) == object_fields("Contract")
        for trick in view["tricks"]:
            assert list(trick) == object_fields("Trick")
        if view["result"]:
            assert list(view["result"]) == object_fields("Result")


def test_seat_observation_has_exactly_the_fields_of_observation_md():
    for m in sample_positions():
        for seat in "ABCD":
            obs = m.observe(seat)
            assert list(obs) == table_fields("## Seat observation")
            for captured in obs["captured"]:
                assert list(captured) == object_fields("Captured")
