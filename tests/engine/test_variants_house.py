"""The house-rule options of issue 18 (spec/variants.md): no_trump, match_marks,
plunge_terms and Nel-O's "own_suit_reversed" doubles, checked through the engine's API."""

import pytest

from reference_impl import IllegalAction, Match
from reference_impl.tiles import TILE_INDEX
from reference_impl.variants import rules_for

from .support import bid_and_declare, hands, play, rejects

NELLO_HANDS = hands(A="2|5 0|0 0|1 0|2 1|1 1|2 2|2", B="5|5 0|3 1|3 2|3 3|3 0|4 1|4",
                    C="1|5 3|5 4|5 5|6 3|6 4|6 6|6", D="0|5 3|4 2|4 4|4 0|6 1|6 2|6")
PLUNGE_HANDS = hands(A="0|0 1|1 2|2 0|1 0|2 1|2 0|3", B="6|6 5|5 4|4 3|3 5|6 4|6 4|5",
                     C="1|3 2|3 1|4 2|4 3|4 0|4 1|5", D="0|5 2|5 3|5 0|6 1|6 2|6 3|6")
MARKS_HANDS = hands(A="0|1 0|2 0|3 1|2 0|0 1|3 2|3", B="1|1 0|6 1|6 2|6 3|6 4|5 2|5",
                    C="5|5 4|6 6|6 5|6 4|4 3|3 2|2", D="0|4 0|5 1|4 1|5 2|4 3|4 3|5")


def started(variants: dict, hands_=NELLO_HANDS, dealer: str = "D", **extra) -> Match:
    return Match.start({"dealer": dealer, "hands": hands_, "variants": variants, **extra})


def winner_of_first_trick(m: Match) -> str:
    return m.view()["tricks"][0]["winner"]


def test_nello_10_own_suit_reversed_doubles_rank_blank_high():
    """NELLO-10: the doubles are their own suit, 0|0 highest and 6|6 lowest."""
    m = bid_and_declare(started({"nello": {"doubles": "own_suit_reversed"}}), "A",
                        {"marks": 2}, "nello", 1)
    play(m, "A 2|2", "B 5|5", "D 4|4")
    assert winner_of_first_trick(m) == "A"
    rank = rules_for({"nello": {"doubles": "own_suit_reversed"}}).trick_rank
    doubles_suit = rules_for({"nello": {"doubles": "own_suit"}}).called_suit(
        TILE_INDEX["3|3"], "nello")
    assert rank(TILE_INDEX["0|0"], doubles_suit, "nello") > rank(
        TILE_INDEX["6|6"], doubles_suit, "nello")


@pytest.mark.parametrize("doubles, winner", [("low", "A"), ("own_suit", "A")])
def test_notrump_02_03_a_no_trump_lead_of_fives(doubles, winner):
    """NOTRUMP-02 (5|5 lowest of the fives), NOTRUMP-03 (5|5 follows no five): either way
    A's 2|5 takes the trick that 5|5 takes in the base game."""
    m = bid_and_declare(started({"no_trump": {"doubles": doubles}}), "A", {"points": 30},
                        "none")
    if doubles == "own_suit":
        play(m, "A 2|5", "B 0|3", "C 1|5", "D 0|5")
    else:
        play(m, "A 2|5", "B 5|5", "C 1|5", "D 0|5")
    assert winner_of_first_trick(m) == winner
    base = bid_and_declare(started({}), "A", {"points": 30}, "none")
    play(base, "A 2|5", "B 5|5", "C 1|5", "D 0|5")
    assert winner_of_first_trick(base) == "B"


def test_notrump_01_04_only_none_changes_and_high_is_no_value():
    """NOTRUMP-01 (values low and own_suit only), NOTRUMP-04 (number trumps unchanged)."""
    with pytest.raises(IllegalAction):
        started({"no_trump": {"doubles": "high"}})
    m = bid_and_declare(started({"no_trump": True}), "A", {"points": 30}, 6)
    play(m, "A 2|5", "B 5|5", "C 1|5", "D 0|5")
    assert winner_of_first_trick(m) == "B"


def test_target_01_02_the_match_ends_at_the_target():
    """TARGET-01 (1..100), TARGET-02 (won at target marks; starting marks below it)."""
    for target in (0, 101, True):
        with pytest.raises(IllegalAction):
            started({"match_marks": {"target": target}})
    with pytest.raises(IllegalAction):
        started({"match_marks": {"target": 3}}, marks={"AC": 3, "BD": 0})
    assert started({"match_marks": True}, marks={"AC": 9, "BD": 0}).view()["marks"]["AC"] == 9
    m = bid_and_declare(started({"match_marks": {"target": 3}}, MARKS_HANDS,
                                marks={"AC": 0, "BD": 2}),
                        "A", {"marks": 1}, 0, 1)
    play(m, "A 0|1", "B 0|6", "C 4|4", "D 0|4")
    assert m.view()["phase"] == "match_over" and m.view()["winner"] == "BD"


def test_target_03_match_points_wins_over_the_marks_target():
    """TARGET-03: with match_points the marks target is not read."""
    both = rules_for({"match_marks": {"target": 3}, "match_points": True})
    assert both == rules_for({"match_points": True})


def plunged(variants: dict) -> Match:
    m = started(variants, PLUNGE_HANDS, dealer="A")
    m.apply({"type": "bid", "seat": "B", "plunge": True})
    for seat in "CDA":
        m.apply({"type": "pass", "seat": seat})
    return m


def test_pterms_01_02_the_count_of_doubles():
    """PTERMS-01 (doubles 3..7, leader partner/plunger), PTERMS-02 (the count; the
    option alone turns the plunge on)."""
    for value in ({"doubles": 2}, {"doubles": 8}, {"leader": "dealer"}):
        with pytest.raises(IllegalAction):
            started({"plunge_terms": value})
    m = started({"plunge_terms": {"doubles": 5}}, PLUNGE_HANDS, dealer="A")
    rejects(m, {"type": "bid", "seat": "B", "plunge": True}, "PLUNGE_NOT_ALLOWED")
    m = started({"plunge_terms": {"doubles": 3}}, PLUNGE_HANDS, dealer="D")
    m.apply({"type": "bid", "seat": "A", "plunge": True})
    assert m.to_act == "B"


@pytest.mark.parametrize("leader, first", [("plunger", "B"), ("partner", "D")])
def test_pterms_03_who_leads_a_plunge(leader, first):
    """PTERMS-03: the partner D declares; B (plunger) or D leads by `leader`."""
    m = plunged({"plunge_terms": {"leader": leader}})
    m.apply({"type": "trump", "seat": "D", "trump": 6, "stacks": 2})
    assert m.view()["contract"]["declarer"] == "D" and m.to_act == first


def test_pterms_04_the_plunge_limits_hold():
    """PTERMS-04: no Nel-O on a plunge_terms plunge (PLUNGE-05)."""
    m = plunged({"plunge_terms": True, "nello": True})
    rejects(m, {"type": "trump", "seat": "D", "trump": "nello", "stacks": 2},
            "TRUMP_NOT_ALLOWED")


@pytest.mark.parametrize("marks", [2, 3])
def test_pterms_05_the_marks_a_plunge_bids(marks):
    """PTERMS-05: the plunge is a bid of `marks` marks; only `marks + 1` may follow; the
    contract the partner declares is of `marks` marks."""
    m = started({"plunge_terms": {"marks": marks}}, PLUNGE_HANDS, dealer="A")
    m.apply({"type": "bid", "seat": "B", "plunge": True})
    assert {"type": "bid", "seat": "C", "marks": marks + 1} in m.legal_actions()
    rejects(m, {"type": "bid", "seat": "C", "marks": marks + 2}, "MARKS_BID_STEP")
    for seat in "CDA":
        m.apply({"type": "pass", "seat": seat})
    m.apply({"type": "trump", "seat": "D", "trump": 6, "stacks": 2})
    assert m.view()["contract"]["bid"] == {"marks": marks}
