"""Round points, outcome, stakes and the match: PTS-01..03, END-01..06, SCORE-01..03,
MATCH-01..03."""

import pytest

from reference_impl import IllegalAction
from reference_impl.rules import BASE_RULES, Contract, contract_outcome, counter_points
from reference_impl.tiles import NAMES

from .support import EXAMPLE, SIXES, bid_and_declare, play, play_out, rejects, start
from .test_suits_ranks import TWOS

# SIXES, A bids and names sixes: A 4|6 draws 5|5, 0|5 and 1|4: 1 + 10 + 10 + 5 + 5 = 31.
FIRST_TRICK_31 = ("A 4|6", "B 5|5", "C 0|5", "D 1|4")


def sixes(bid, trump=6, stacks=None, marks=None):
    extra = {"marks": marks} if marks else {}
    return bid_and_declare(start(SIXES, **extra), "A", bid, trump, stacks)


def test_pts_01_each_trick_is_one_round_point():
    """PTS-01: a trick with no counter is worth exactly 1."""
    m = bid_and_declare(start(TWOS), "A", {"points": 30}, "none")
    play(m, "A 1|2", "B 3|3", "C 2|5", "D 2|2")
    assert m.view()["tricks"][0]["points"] == 1
    assert m.view()["points"] == {"AC": 0, "BD": 1}
    assert m.view()["tricks_won"] == {"AC": 0, "BD": 1}


def test_pts_02_counters_five_and_ten():
    """PTS-02: 0|5, 1|4, 2|3 are 5; 4|6, 5|5 are 10; the rest 0."""
    values = {name: counter_points(i) for i, name in enumerate(NAMES)}
    assert {n: v for n, v in values.items() if v} == {
        "0|5": 5, "1|4": 5, "2|3": 5, "4|6": 10, "5|5": 10}
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5", "B 3|5", "C 0|5",
             "D 6|6")
    assert m.view()["points"] == {"AC": 0, "BD": 16}  # 1 + 10 + 5


def test_pts_03_a_round_totals_42_never_divided():
    """PTS-03: seven tricks and 35 counter points: 42."""
    m = play_out(sixes({"marks": 1}, stacks=1))
    assert len(m.view()["tricks"]) == 7
    assert m.view()["points"] == {"AC": 42, "BD": 0}
    assert BASE_RULES.round_points == 42


def test_end_01_point_contract_made_as_soon_as_bidders_reach_the_bid():
    """END-01: 31 >= 30 after trick 1: made, the round ends with six tricks unplayed."""
    m = play(sixes({"points": 30}), *FIRST_TRICK_31)
    assert m.phase == "round_over"
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 1}
    points = Contract(0, 0, "points", 30)
    assert contract_outcome(BASE_RULES, points, [29, 0], [1, 0]) is None
    assert contract_outcome(BASE_RULES, points, [30, 0], [1, 0]) == "made"


def test_end_02_point_contract_set_when_defenders_pass_42_minus_bid():
    """END-02: 16 > 42 - 30 sets at once (document 000); 12 is not yet a set."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5", "B 3|5", "C 0|5",
             "D 6|6")
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 1}
    points = Contract(0, 0, "points", 30)
    assert contract_outcome(BASE_RULES, points, [0, 12], [0, 2]) is None
    assert contract_outcome(BASE_RULES, points, [0, 13], [0, 2]) == "set"
    top = Contract(1, 1, "points", 41)
    assert contract_outcome(BASE_RULES, top, [1, 0], [1, 0]) is None
    assert contract_outcome(BASE_RULES, top, [2, 0], [1, 0]) == "set"


def test_end_03_marks_contract_made_by_all_seven_tricks():
    """END-03: A takes every trick: made after the seventh, not before."""
    m = sixes({"marks": 2}, stacks=1)
    for _ in range(6):
        play_one_trick(m)
        assert m.phase == "playing"
    play_one_trick(m)
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 2}


def play_one_trick(m):
    for _ in range(4):
        m.apply(m.legal_actions()[0])


def test_end_04_marks_contract_set_by_the_first_defenders_trick_even_worthless():
    """END-04: trump zeros, A leads 1|6, B trumps with 0|0: a 1-point trick sets it."""
    m = play(sixes({"marks": 1}, trump=0, stacks=1), "A 1|6", "B 0|0", "C 1|2", "D 3|3")
    assert m.view()["points"] == {"AC": 0, "BD": 1}
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 1}
    assert m.phase == "round_over"


def test_end_05_decided_only_when_a_trick_completes_and_the_rest_stays_unplayed():
    """END-05: mid-trick nothing is decided; once decided the hands keep their tiles."""
    m = play(sixes({"points": 30}), *FIRST_TRICK_31[:3])
    assert m.phase == "playing" and m.view()["points"] == {"AC": 0, "BD": 0}
    play(m, FIRST_TRICK_31[3])
    assert m.phase == "round_over"
    assert all(len(h) == 6 for h in m.view()["hands"].values())
    assert m.view()["hands"]["B"] == SIXES["B"][1:]


def test_end_06_after_the_round_every_action_is_wrong_phase():
    """END-06: play, pass, bid and trump are all refused until the next deal."""
    m = play(sixes({"points": 30}), *FIRST_TRICK_31)
    for action in ({"type": "play", "seat": "A", "tile": "0|6"},
                   {"type": "pass", "seat": "A"},
                   {"type": "bid", "seat": "A", "points": 30},
                   {"type": "trump", "seat": "A", "trump": 6}):
        rejects(m, action, "WRONG_PHASE")
    assert m.legal_actions() == [] and m.to_act is None


def test_score_01_stake_one_mark_for_points_n_for_n_marks():
    """SCORE-01: a point contract stakes 1, a 3-mark bid 3."""
    assert sixes({"points": 41}).view()["contract"]["stake"] == 1
    assert sixes({"marks": 1}, stacks=2).view()["contract"]["stake"] == 1
    m = start(SIXES)
    for action in ({"type": "bid", "seat": "A", "marks": 2},
                   {"type": "bid", "seat": "B", "marks": 3},
                   {"type": "pass", "seat": "C"}, {"type": "pass", "seat": "D"}):
        m.apply(action)
    assert m.view()["contract"]["stake"] == 3


def test_score_02_stake_to_the_bidders_if_made_else_to_the_defenders_only():
    """SCORE-02: made -> bidders only; set -> defenders only; four passes -> nobody."""
    m = play(sixes({"points": 30}, marks={"AC": 2, "BD": 3}), *FIRST_TRICK_31)
    assert m.view()["marks"] == {"AC": 3, "BD": 3}
    m = play(sixes({"marks": 1}, trump=0, stacks=1, marks={"AC": 2, "BD": 3}),
             "A 1|6", "B 0|0", "C 1|2", "D 3|3")
    assert m.view()["marks"] == {"AC": 2, "BD": 4}


def test_score_03_starting_marks_0_to_6_carry_over():
    """SCORE-03: a setup may give 0..6 marks each; marks carry from round to round."""
    assert start().view()["marks"] == {"AC": 0, "BD": 0}
    m = play(sixes({"points": 30}, marks={"AC": 0, "BD": 6}), *FIRST_TRICK_31)
    m.deal({"hands": EXAMPLE})
    assert m.view()["marks"] == {"AC": 1, "BD": 6}
    for marks in ({"AC": 7, "BD": 0}, {"AC": 0, "BD": -1}, {"AC": 0}, {"AC": True, "BD": 0},
                  {"AC": 1.0, "BD": 0}):
        with pytest.raises(IllegalAction) as raised:
            start(marks=marks)
        assert raised.value.code == "INVALID_SETUP"


def test_match_01_seven_marks_win_and_end_the_match():
    """MATCH-01: 6 + 1 = 7: match_over, winner AC, no more deals."""
    m = play(sixes({"points": 30}, marks={"AC": 6, "BD": 6}), *FIRST_TRICK_31)
    view = m.view()
    assert (view["phase"], view["winner"], view["marks"]) == ("match_over", "AC",
                                                              {"AC": 7, "BD": 6})
    assert m.to_act is None and m.legal_actions() == []
    with pytest.raises(IllegalAction) as raised:
        m.deal({"hands": EXAMPLE})
    assert raised.value.code == "WRONG_PHASE"
    rejects(m, {"type": "pass", "seat": "A"}, "WRONG_PHASE")


def test_match_02_no_margin_needed_and_overshooting_is_fine():
    """MATCH-02: 6 marks and a 2-mark contract made: 8, a win."""
    m = play_out(sixes({"marks": 2}, stacks=2, marks={"AC": 6, "BD": 5}))
    assert m.view()["marks"] == {"AC": 8, "BD": 5} and m.view()["winner"] == "AC"


def test_match_03_otherwise_wait_for_the_next_deal_with_marks_carried():
    """MATCH-03: below 7 the phase is round_over until the next deal."""
    m = play(sixes({"points": 30}, marks={"AC": 5, "BD": 6}), *FIRST_TRICK_31)
    assert m.phase == "round_over" and m.view()["winner"] is None
    rejects(m, {"type": "pass", "seat": "A"}, "WRONG_PHASE")
    m.deal({"order": list(NAMES)})
    assert m.phase == "bidding" and m.view()["marks"] == {"AC": 6, "BD": 6}
    assert m.view()["result"] is None and m.view()["round"] == 2
    with pytest.raises(IllegalAction) as raised:
        m.deal({"order": list(NAMES)})
    assert raised.value.code == "WRONG_PHASE"
