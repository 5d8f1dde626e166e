"""Contract and trump: CON-01..CON-04."""

import pytest

from .support import bid_and_declare, play, rejects, start

NINE = [0, 1, 2, 3, 4, 5, 6, "doubles", "none"]


def to_declaring(bid):
    m = start()
    m.apply({"type": "bid", "seat": "A", **bid})
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    return m


def trump(seat, choice, **kw):
    return {"type": "trump", "seat": seat, "trump": choice, **kw}


@pytest.mark.parametrize("choice", NINE)
def test_con_01_declarer_names_one_of_nine_trumps(choice):
    """CON-01: 0..6, doubles, none are accepted; only from the declarer."""
    m = to_declaring({"points": 30})
    assert m.legal_actions() == [trump("A", c) for c in NINE]
    rejects(m, trump("B", choice), "NOT_YOUR_TURN")
    m.apply(trump("A", choice))
    assert m.view()["contract"]["trump"] == choice and m.phase == "playing"


def test_con_01_any_other_trump_choice_is_invalid():
    """CON-01: 7, -1, "spades", "6", "Doubles" are INVALID_TRUMP (well formed, not allowed)."""
    m = to_declaring({"points": 30})
    for choice in (7, -1, "spades", "6", "Doubles", "follow_me", "nello"):
        rejects(m, trump("A", choice), "INVALID_TRUMP")


def test_con_02_marks_contract_needs_stacks_one_or_two():
    """CON-02: no stacks -> STACKS_REQUIRED; 0 or 3 -> STACKS_INVALID; 1 and 2 listed."""
    m = to_declaring({"marks": 1})
    rejects(m, trump("A", 6), "STACKS_REQUIRED")
    for stacks in (0, 3, -1):
        rejects(m, trump("A", 6, stacks=stacks), "STACKS_INVALID")
    assert m.legal_actions() == [trump("A", c, stacks=s) for c in NINE for s in (1, 2)]
    m.apply(trump("A", "none", stacks=2))
    assert m.view()["contract"]["stacks"] == 2


def test_con_03_point_contract_has_no_stacks_choice():
    """CON-03: a point-contract declaration offering stacks is STACKS_NOT_ALLOWED."""
    m = to_declaring({"points": 30})
    for stacks in (1, 2, 3):
        rejects(m, trump("A", 6, stacks=stacks), "STACKS_NOT_ALLOWED")
    m.apply(trump("A", 6))
    assert m.view()["contract"]["stacks"] is None


def test_con_04_contract_fixed_and_play_waits_for_the_declaration():
    """CON-04: no play before the declaration; no second declaration; contract stays."""
    m = to_declaring({"points": 30})
    rejects(m, {"type": "play", "seat": "A", "tile": "5|5"}, "WRONG_PHASE")
    m.apply(trump("A", 6))
    contract = m.view()["contract"]
    rejects(m, trump("A", 5), "WRONG_PHASE")
    play(m, "A 0|0")
    assert m.view()["contract"] == contract == {
        "declarer": "A", "team": "AC", "bid": {"points": 30}, "stake": 1, "trump": 6,
        "stacks": None}
    m2 = bid_and_declare(start(), "A", {"marks": 2}, "doubles", stacks=1)
    assert m2.view()["contract"]["stake"] == 2
