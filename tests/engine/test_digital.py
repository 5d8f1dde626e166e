"""Actions, errors and what the game does not have: DIG-01..DIG-06."""

import copy

import pytest

from reference_impl import IllegalAction, Match

from .support import EXAMPLE, bid_and_declare, play, rejects, start

MALFORMED = [
    None, [], "pass", 42,
    {}, {"type": "pass"}, {"seat": "A"}, {"type": "Pass", "seat": "A"},
    {"type": "pass", "seat": "E"}, {"type": "pass", "seat": "a"}, {"type": "pass", "seat": 0},
    {"type": "pass", "seat": ["A"]}, {"type": "pass", "seat": "A", "points": 30},
    {"type": "bid", "seat": "A"}, {"type": "bid", "seat": "A", "points": 30, "marks": 1},
    {"type": "bid", "seat": "A", "points": "30"}, {"type": "bid", "seat": "A", "points": 30.0},
    {"type": "bid", "seat": "A", "points": True}, {"type": "bid", "seat": "A", "points": None},
    {"type": "bid", "seat": "A", "marks": False}, {"type": "bid", "seat": "A", "plunge": True},
    {"type": "bid", "seat": "A", "points": 30, "note": ""},
    {"type": "trump", "seat": "A"}, {"type": "trump", "seat": "A", "trump": True},
    {"type": "trump", "seat": "A", "trump": None}, {"type": "trump", "seat": "A", "trump": 6.0},
    {"type": "trump", "seat": "A", "trump": [6]}, {"type": "trump", "seat": "A", "trump": {}},
    {"type": "trump", "seat": "A", "trump": 6, "stacks": "1"},
    {"type": "trump", "seat": "A", "trump": 6, "stacks": True},
    {"type": "trump", "seat": "A", "trump": 6, "stacks": None},
    {"type": "play", "seat": "A"}, {"type": "play", "tile": "5|5"},
    {"type": "play", "seat": "A", "tile": "5|3"}, {"type": "play", "seat": "A", "tile": "7|7"},
    {"type": "play", "seat": "A", "tile": "5-5"}, {"type": "play", "seat": "A", "tile": " 5|5"},
    {"type": "play", "seat": "A", "tile": 55}, {"type": "play", "seat": "A", "tile": ["5|5"]},
    {"type": "play", "seat": "A", "tile": "5|5", "points": 10},
    {"type": "play", "seat": ["A"], "tile": "5|5"},
    {"type": ["play"], "seat": "A", "tile": "5|5"},
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_dig_01_an_action_not_of_the_json_form_is_malformed(action):
    """DIG-01: wrong shape, fields, JSON types, seats or tile strings, in every phase."""
    for m in (start(), bid_and_declare(start(), "A", {"points": 30}, 6)):
        rejects(m, action, "MALFORMED_ACTION")


def test_dig_02_wrong_phase_and_not_your_turn():
    """DIG-02: a kind the phase does not take is WRONG_PHASE; another seat NOT_YOUR_TURN."""
    m = start()
    rejects(m, {"type": "play", "seat": "A", "tile": "5|5"}, "WRONG_PHASE")
    rejects(m, {"type": "trump", "seat": "A", "trump": 6}, "WRONG_PHASE")
    rejects(m, {"type": "pass", "seat": "B"}, "NOT_YOUR_TURN")
    rejects(m, {"type": "bid", "seat": "C", "points": 30}, "NOT_YOUR_TURN")


@pytest.mark.parametrize("setup, action, code", [
    # malformed beats wrong phase and wrong seat
    ("bidding", {"type": "play", "seat": "B", "tile": "5|3"}, "MALFORMED_ACTION"),
    # wrong phase beats wrong seat
    ("bidding", {"type": "play", "seat": "B", "tile": "3|5"}, "WRONG_PHASE"),
    ("playing", {"type": "bid", "seat": "C", "points": 20}, "WRONG_PHASE"),
    # wrong seat beats every kind-specific check
    ("bidding", {"type": "bid", "seat": "C", "points": 20}, "NOT_YOUR_TURN"),
    ("playing", {"type": "play", "seat": "C", "tile": "6|6"}, "NOT_YOUR_TURN"),
    ("declaring", {"type": "trump", "seat": "B", "trump": "x", "stacks": 9}, "NOT_YOUR_TURN"),
    # kind-specific checks in the listed order
    ("after_marks", {"type": "bid", "seat": "B", "points": 29}, "POINT_BID_RANGE"),
    ("declaring", {"type": "trump", "seat": "A", "trump": "x", "stacks": 1}, "INVALID_TRUMP"),
    ("declaring_marks", {"type": "trump", "seat": "A", "trump": 9}, "INVALID_TRUMP"),
    ("following", {"type": "play", "seat": "B", "tile": "6|6"}, "TILE_NOT_IN_HAND"),
])
def test_dig_03_one_code_by_the_order_of_checks_and_nothing_changes(setup, action, code):
    """DIG-03: several failing checks report the first in errors.yaml; state unchanged."""
    m = start()
    if setup == "after_marks":
        m.apply({"type": "bid", "seat": "A", "marks": 1})
    elif setup in ("declaring", "declaring_marks"):
        m.apply({"type": "bid", "seat": "A", **({"marks": 1} if setup == "declaring_marks"
                                                else {"points": 30})})
        for seat in "BCD":
            m.apply({"type": "pass", "seat": seat})
    elif setup in ("playing", "following"):
        bid_and_declare(m, "A", {"points": 30}, 6)
        if setup == "following":
            play(m, "A 5|5")
    rejects(m, action, code)


def test_dig_03_a_rejected_action_never_reorders_a_hand():
    """DIG-03: after MUST_FOLLOW and TILE_NOT_IN_HAND the hand keeps its order."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5")
    before = copy.deepcopy(m.view()["hands"])
    for tile in ("1|4", "0|3", "6|6", "3|3"):
        with pytest.raises(IllegalAction):
            m.apply({"type": "play", "seat": "B", "tile": tile})
    assert m.view()["hands"] == before


def test_dig_04_points_and_winners_come_from_the_game_not_from_claims():
    """DIG-04: a play that claims points is malformed; the game computes them."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5", "B 3|5", "C 0|5")
    rejects(m, {"type": "play", "seat": "D", "tile": "6|6", "winner": "D"}, "MALFORMED_ACTION")
    play(m, "D 6|6")
    assert m.view()["tricks"][0]["winner"] == "D" and m.view()["points"]["BD"] == 16


@pytest.mark.parametrize("kind", ["claim", "undo", "reorder", "penalty", "wager", "deal"])
def test_dig_05_no_claim_undo_reorder_penalty_or_wager(kind):
    """DIG-05: such actions do not exist: MALFORMED_ACTION."""
    m = bid_and_declare(start(), "A", {"points": 30}, 6)
    rejects(m, {"type": kind, "seat": "A"}, "MALFORMED_ACTION")
    assert all(a["type"] == "play" for a in m.legal_actions())


BAD_DEALS = [
    {"hands": {**EXAMPLE, "A": EXAMPLE["B"]}},  # tiles twice, some missing
    {"hands": {**EXAMPLE, "A": EXAMPLE["A"][:6] + ["7|7"]}},
    {"hands": {**EXAMPLE, "A": EXAMPLE["A"][:6] + ["3|0"]}},
    {"hands": {**EXAMPLE, "A": EXAMPLE["A"] + ["0|0"]}},
    {"hands": {k: v for k, v in EXAMPLE.items() if k != "D"}},
    {"hands": {**EXAMPLE, "E": []}},
    {"order": [t for h in EXAMPLE.values() for t in h][:27]},
    {"order": [t for h in EXAMPLE.values() for t in h][:27] + ["0|0"]},
    {"order": [t for h in EXAMPLE.values() for t in h], "hands": EXAMPLE},
    {}, [], None, {"hands": EXAMPLE, "dealer": "A"}, {"hands": EXAMPLE, "marks": {}},
]


@pytest.mark.parametrize("deal", BAD_DEALS, ids=repr)
def test_dig_06_an_invalid_deal_or_setup_is_invalid_setup(deal):
    """DIG-06: in a setup and as a later deal (checked before the phase, errors.yaml)."""
    if isinstance(deal, dict) and "dealer" not in deal and "marks" not in deal:
        with pytest.raises(IllegalAction) as raised:
            Match.start({"dealer": "A", **deal})
        assert raised.value.code == "INVALID_SETUP"
    for m in (start(), bid_and_declare(start(), "A", {"points": 30}, 6)):
        before = m.clone()
        with pytest.raises(IllegalAction) as raised:
            m.deal(deal)
        assert raised.value.code == "INVALID_SETUP" and m == before


def test_dig_06_setups_that_are_not_valid():
    """DIG-06: bad marks, dealer, unknown fields, variants that are not an object of
    options (VAR-01: test_variants_general.py has the rest)."""
    good = {"dealer": "D", "hands": EXAMPLE}
    for setup in ({**good, "marks": {"AC": 7, "BD": 0}}, {**good, "dealer": None},
                  {"hands": EXAMPLE}, {**good, "extra": 1}, {**good, "variants": None},
                  {**good, "variants": {"forced_bids": True}}, None, []):
        with pytest.raises(IllegalAction) as raised:
            Match.start(setup)
        assert raised.value.code == "INVALID_SETUP", setup
    assert Match.start({**good, "variants": {}}) == Match.start(good)


def test_dig_06_a_valid_deal_mid_round_is_wrong_phase():
    """A deal is accepted only in round_over (actions.md)."""
    m = start()
    with pytest.raises(IllegalAction) as raised:
        m.deal({"hands": EXAMPLE})
    assert raised.value.code == "WRONG_PHASE"
