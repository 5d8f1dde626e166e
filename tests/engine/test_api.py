"""The public API's contract (common brief): phases, to_act, copies, equality, errors."""

import pytest

from reference_impl import IllegalAction, Rules
from reference_impl.rules import BASE_RULES

from .spec_data import rule_ids
from .support import bid_and_declare, play, start


def test_phase_and_to_act_through_a_round():
    m = start()
    assert (m.phase, m.to_act) == ("bidding", "A")
    bid_and_declare(m, "A", {"points": 30}, 6)
    assert (m.phase, m.to_act) == ("playing", "A")
    play(m, "A 5|5", "B 3|5", "C 0|5", "D 6|6")
    assert (m.phase, m.to_act) == ("round_over", None)


def test_views_are_fresh_objects_the_caller_may_change():
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5")
    view, obs = m.view(), m.observe("B")
    view["hands"]["B"].clear()
    view["history"][0]["seat"] = "Z"
    obs["hand"].append("6|6")
    obs["trick"].clear()
    assert m.view() != view and m.observe("B") != obs
    assert len(m.view()["hands"]["B"]) == 7 and m.view()["history"][0]["seat"] == "A"


def test_legal_actions_returns_a_new_list_each_time():
    m = start()
    first = m.legal_actions()
    first.clear()
    assert len(m.legal_actions()) == 15


def test_observe_refuses_a_seat_that_does_not_exist():
    with pytest.raises(ValueError):
        start().observe("E")


def test_clone_is_equal_and_independent():
    m = bid_and_declare(start(), "A", {"points": 30}, 6)
    copy = m.clone()
    assert copy == m and copy is not m
    play(copy, "A 5|5")
    assert copy != m and m.view()["hands"]["A"][0] == "5|5"
    assert m != "not a match"


def test_illegal_action_carries_code_rule_and_message():
    m = start()
    with pytest.raises(IllegalAction) as raised:
        m.apply({"type": "bid", "seat": "A", "points": 29})
    error = raised.value
    assert (error.code, error.rule) == ("POINT_BID_RANGE", "BID-02")
    assert "29" in error.message and error.rule in rule_ids()
    with pytest.raises(ValueError):
        IllegalAction("NOT_A_CODE", "BID-02", "x")


def test_rules_is_the_base_configuration():
    assert Rules() == BASE_RULES
    assert list(BASE_RULES.point_bids) == list(range(30, 42))
    assert BASE_RULES.first_marks_bids == (1, 2) and BASE_RULES.marks_target == 7
    assert BASE_RULES.trumps == (0, 1, 2, 3, 4, 5, 6, "doubles", "none")
    with pytest.raises(AttributeError):
        BASE_RULES.marks_target = 5  # frozen: a variant is a new Rules
