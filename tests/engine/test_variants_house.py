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


@pytest.mark.parametrize("variants", [
    {"plunge": True}, {"plunge_terms": {"leader": "partner"}},
    {"plunge_terms": {"leader": "plunger"}}])
def test_nello_12_the_plunge_partner_calls_nello_the_plunger_plays(variants):
    """NELLO-12: with on_plunge "allowed" D, the partner of B's plunge, declares Nel-O;
    D sits out (keeps 7 tiles, never to act), B leads whatever `leader` says; tricks
    of three; the stake is the plunge's 4 marks; set by B's first trick."""
    m = plunged({**variants, "nello": {"on_plunge": "allowed"}})
    assert {"type": "trump", "seat": "D", "trump": "nello", "stacks": 1} in m.legal_actions()
    m.apply({"type": "trump", "seat": "D", "trump": "nello", "stacks": 1})
    view = m.view()
    assert view["contract"]["declarer"] == "D" and view["contract"]["stake"] == 4
    assert m.to_act == "B"
    rejects(m, {"type": "play", "seat": "D", "tile": "0|5"}, "NOT_YOUR_TURN")
    play(m, "B 6|6", "C 1|3", "A 0|0")  # B's 6|6 tops the sixes: B wins, set
    assert m.view()["tricks"][0]["winner"] == "B"
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "AC", "marks": 4}
    assert len(m.view()["hands"]["D"]) == 7


def test_nello_12_and_15_the_plunge_partner_still_calls_nello_when_it_is_a_bid():
    """NELLO-15 leaves NELLO-12 as it is: a plunge carries no announcement, and its
    partner may declare Nel-O with on_plunge "allowed"."""
    m = plunged({"plunge": True, "nello": {"on_plunge": "allowed", "announce": "bid"}})
    m.apply({"type": "trump", "seat": "D", "trump": "nello", "stacks": 1})
    assert m.to_act == "B"


def test_nello_12_refused_by_default_and_with_splash_allowed():
    """NELLO-12: on_plunge "refused" keeps PLUNGE-05; with a splash the partner may
    declare Nel-O and the splasher leads."""
    m = plunged({"plunge": True, "nello": True})
    rejects(m, {"type": "trump", "seat": "D", "trump": "nello", "stacks": 1},
            "TRUMP_NOT_ALLOWED")
    m = started({"splash": True, "nello": {"on_plunge": "allowed"}}, PLUNGE_HANDS,
                dealer="A")
    m.apply({"type": "bid", "seat": "B", "splash": True})
    for seat in "CDA":
        m.apply({"type": "pass", "seat": seat})
    m.apply({"type": "trump", "seat": "D", "trump": "nello", "stacks": 2})
    assert m.to_act == "B" and m.view()["contract"]["stake"] == 3


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


DECLARED = {"plunge_terms": {"announce": "declaration", "marks": 2, "leader": "partner"}}


def bid_two_marks(variants: dict, seat: str = "B") -> Match:
    """Dealer A; `seat` bids 2 marks (B holds four doubles, A three), the others pass."""
    m = started(variants, PLUNGE_HANDS, dealer="A")
    for bidder in "BCDA":
        m.apply({"type": "bid", "seat": bidder, "marks": 2} if bidder == seat
                else {"type": "pass", "seat": bidder})
    return m


def test_pterms_06_the_declared_plunge_has_no_bid():
    """PTERMS-06: with announce "declaration" a bid with `plunge` is malformed, even with
    option plunge; the plunger bids marks as any seat."""
    for variants in (DECLARED, {**DECLARED, "plunge": True}):
        m = started(variants, PLUNGE_HANDS, dealer="A")
        rejects(m, {"type": "bid", "seat": "B", "plunge": True}, "MALFORMED_ACTION")
        assert not any("plunge" in a for a in m.legal_actions())
        rejects(m, {"type": "bid", "seat": "B", "marks": 3}, "MARKS_BID_STEP")


def test_pterms_07_who_may_declare_the_plunge():
    """PTERMS-07: a marks contract of `marks` or more, `doubles` doubles, no stacks."""
    plunge = {"type": "trump", "seat": "B", "trump": "plunge"}
    m = bid_two_marks(DECLARED)
    rejects(m, {**plunge, "stacks": 2}, "STACKS_NOT_ALLOWED")
    assert plunge in m.legal_actions()
    m = bid_two_marks({"plunge_terms": {"announce": "declaration", "marks": 3}})
    rejects(m, plunge, "TRUMP_NOT_ALLOWED")  # 2 marks < 3
    m = bid_two_marks({"plunge_terms": {"announce": "declaration", "marks": 2}}, seat="A")
    rejects(m, {**plunge, "seat": "A"}, "TRUMP_NOT_ALLOWED")  # A holds three doubles
    m = started(DECLARED, PLUNGE_HANDS, dealer="A")
    m.apply({"type": "bid", "seat": "B", "points": 30})
    for seat in "CDA":
        m.apply({"type": "pass", "seat": seat})
    rejects(m, plunge, "TRUMP_NOT_ALLOWED")  # a point contract
    rejects(started({"plunge_terms": True}, PLUNGE_HANDS), {**plunge, "seat": "A"},
            "WRONG_PHASE")


def test_pterms_08_the_partner_declares_the_declared_plunge():
    """PTERMS-08: after B declares the plunge, D is the declarer and to act; B is not;
    the contract is 2 marks; D may not hand it back nor declare Nel-O."""
    m = bid_two_marks({**DECLARED, "nello": True})
    m.apply({"type": "trump", "seat": "B", "trump": "plunge"})
    view = m.view()
    assert view["phase"] == "declaring" and view["to_act"] == "D"
    assert view["contract"] == {"declarer": "D", "team": "BD", "bid": {"marks": 2},
                                "stake": 2, "trump": None, "stacks": None}
    rejects(m, {"type": "trump", "seat": "B", "trump": 6, "stacks": 2}, "NOT_YOUR_TURN")
    rejects(m, {"type": "trump", "seat": "D", "trump": "plunge"}, "TRUMP_NOT_ALLOWED")
    rejects(m, {"type": "trump", "seat": "D", "trump": "nello", "stacks": 2},
            "TRUMP_NOT_ALLOWED")
    m.apply({"type": "trump", "seat": "D", "trump": 6, "stacks": 2})
    assert m.to_act == "D"
    assert m.view()["history"][4:] == [{"type": "trump", "seat": "B", "trump": "plunge"},
                                       {"type": "trump", "seat": "D", "trump": 6,
                                        "stacks": 2}]


def test_pterms_09_interactions_of_the_declared_plunge():
    """PTERMS-09: match_points stakes 42 times the marks; the partner leads by default
    (PTERMS-03), the plunger with leader "plunger"."""
    for leader, first in (("partner", "D"), ("plunger", "B")):
        m = bid_two_marks({"plunge_terms": {"announce": "declaration", "marks": 2,
                                            "leader": leader}, "match_points": True})
        m.apply({"type": "trump", "seat": "B", "trump": "plunge"})
        m.apply({"type": "trump", "seat": "D", "trump": 6, "stacks": 2})
        assert m.view()["contract"]["stake"] == 84 and m.to_act == first
    default = bid_two_marks({"plunge_terms": {"announce": "declaration", "marks": 2}})
    default.apply({"type": "trump", "seat": "B", "trump": "plunge"})
    default.apply({"type": "trump", "seat": "D", "trump": 6, "stacks": 2})
    assert default.to_act == "D"


def test_splash_01_02_three_doubles_before_any_bid():
    """SPLASH-01 (marks 2 or 3), SPLASH-02 (three doubles or more, before any bid)."""
    for value in ({"marks": 4}, {"marks": "3"}, {"doubles": 3}):
        with pytest.raises(IllegalAction):
            started({"splash": value})
    m = started({"splash": True}, PLUNGE_HANDS, dealer="D")  # A: three doubles
    assert {"type": "bid", "seat": "A", "splash": True} in m.legal_actions()
    m = started({"splash": True}, PLUNGE_HANDS, dealer="C")  # D first: no doubles
    rejects(m, {"type": "bid", "seat": "D", "splash": True}, "PLUNGE_NOT_ALLOWED")
    m.apply({"type": "bid", "seat": "D", "points": 30})
    rejects(m, {"type": "bid", "seat": "A", "splash": True}, "PLUNGE_NOT_ALLOWED")
    rejects(started({}, PLUNGE_HANDS), {"type": "bid", "seat": "A", "splash": True},
            "MALFORMED_ACTION")


@pytest.mark.parametrize("marks", [2, 3])
def test_splash_03_04_a_marks_bid_the_partner_declares(marks):
    """SPLASH-03 (a bid of `marks`; only `marks + 1` after it), SPLASH-04 (the partner C
    declares and leads; no Nel-O)."""
    m = started({"splash": {"marks": marks}, "nello": True}, PLUNGE_HANDS, dealer="D")
    m.apply({"type": "bid", "seat": "A", "splash": True})
    rejects(m, {"type": "bid", "seat": "B", "marks": marks + 2}, "MARKS_BID_STEP")
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    assert m.view()["contract"]["declarer"] == "C" and m.to_act == "C"
    rejects(m, {"type": "trump", "seat": "A", "trump": 1, "stacks": 1}, "NOT_YOUR_TURN")
    rejects(m, {"type": "trump", "seat": "C", "trump": "nello", "stacks": 1},
            "TRUMP_NOT_ALLOWED")
    m.apply({"type": "trump", "seat": "C", "trump": 1, "stacks": 1})
    assert m.view()["contract"]["bid"] == {"marks": marks} and m.to_act == "C"


def test_splash_05_beside_the_plunge():
    """SPLASH-05: with plunge, two special bids; the first made shuts out the other."""
    m = started({"splash": True, "plunge": True}, PLUNGE_HANDS, dealer="A")  # B: four
    legal = m.legal_actions()
    assert legal[-2:] == [{"type": "bid", "seat": "B", "plunge": True},
                          {"type": "bid", "seat": "B", "splash": True}]
    m.apply({"type": "bid", "seat": "B", "plunge": True})
    m.apply({"type": "pass", "seat": "C"})
    m.apply({"type": "pass", "seat": "D"})
    rejects(m, {"type": "bid", "seat": "A", "splash": True}, "MARKS_BID_STEP")
    m = started({"splash": True, "plunge": True}, PLUNGE_HANDS, dealer="D")  # A first
    m.apply({"type": "bid", "seat": "A", "splash": True})
    rejects(m, {"type": "bid", "seat": "B", "plunge": True}, "PLUNGE_NOT_ALLOWED")
