"""Options that change the match and the deal: match_points (MPTS), deal_by_drawing
(DRAW)."""

import random

import pytest

from reference_impl import IllegalAction, Match
from reference_impl.dealing import (
    dealer_of_draws,
    draw_first_dealer,
    drawn_order,
    draws_problem,
)
from reference_impl.rules import Contract, winner_after_round
from reference_impl.tiles import NAMES, TILE_INDEX
from reference_impl.variant_rules import points_score, points_stake
from reference_impl.variants import rules_for

from .support import EXAMPLE, SIXES, bid_and_declare, play, play_out, start

POINTS = {"match_points": True}


def points_rules(**settings):
    return rules_for({"match_points": settings or True})


# ---- match_points ----------------------------------------------------------------------


def test_mpts_01_settings():
    """MPTS-01: target 1..10000 (an integer), end early/play_out."""
    for value in (True, {"target": 1}, {"target": 10000}, {"end": "play_out"}):
        start(variants={"match_points": value})
    for value in ({"target": 0}, {"target": 10001}, {"target": 250.0}, {"end": "never"},
                  {"goal": 250}):
        with pytest.raises(IllegalAction):
            start(variants={"match_points": value})


def test_mpts_02_scores_in_points_starting_below_the_target():
    """MPTS-02: starting scores 0..target - 1 (a partial map is invalid)."""
    m = start(variants=POINTS, marks={"AC": 249, "BD": 120})
    assert m.view()["marks"] == {"AC": 249, "BD": 120}
    for marks, variants in (({"AC": 250, "BD": 0}, POINTS), ({"AC": -1, "BD": 0}, POINTS),
                            ({"AC": 100, "BD": 0}, {"match_points": {"target": 100}}),
                            ({"AC": 10}, POINTS), ({"AC": 7, "BD": 0}, {})):
        with pytest.raises(IllegalAction) as raised:
            start(variants=variants, marks=marks)
        assert raised.value.code == "INVALID_SETUP"


def test_mpts_03_the_value_of_a_bid():
    """MPTS-03: B for a point bid of B, 42 n for n marks, 168 for a plunge."""
    rules = points_rules()
    assert points_stake(rules, Contract(0, 0, "points", 31)) == 31
    assert points_stake(rules, Contract(0, 0, "marks", 2)) == 84
    assert points_stake(rules, Contract(2, 0, "marks", 4, partner_declares=True)) == 168
    m = bid_and_declare(start(variants=POINTS), "A", {"marks": 1}, 6, stacks=1)
    assert m.view()["contract"]["stake"] == 42


def test_mpts_04_a_made_point_contract_adds_each_teams_round_points():
    """MPTS-04 (variants.md's example): 31 made with 35 adds 35 and 7."""
    rules = points_rules()
    assert points_score(rules, Contract(0, 0, "points", 31), "made", [35, 7]) == (0, [35, 7])
    m = bid_and_declare(start(SIXES, variants=POINTS), "A", {"points": 30}, 6)
    play_out(m)
    view = m.view()
    assert view["result"]["outcome"] == "made"
    assert view["marks"] == view["points"] and view["result"]["marks"] == view["points"]["AC"]


def test_mpts_05_a_made_marks_contract_adds_its_value_to_the_bidders():
    """MPTS-05: 2 marks made: 84 to the bidders, nothing to the defenders."""
    rules = points_rules()
    assert points_score(rules, Contract(0, 0, "marks", 2), "made", [42, 0]) == (0, [84, 0])
    m = play_out(bid_and_declare(start(SIXES, variants=POINTS), "A", {"marks": 2}, 6, 1))
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 84}
    assert m.view()["marks"] == {"AC": 84, "BD": 0}


def test_mpts_06_a_set_contract_gives_the_defenders_its_value_and_their_points():
    """MPTS-06 (variants.md's examples): 31 set with 14: 45; 2 marks set by an 11-point
    trick: 95; four passes add nothing."""
    rules = points_rules()
    assert points_score(rules, Contract(0, 0, "points", 31), "set", [20, 14]) == (1, [0, 45])
    assert points_score(rules, Contract(0, 0, "marks", 2), "set", [0, 11]) == (1, [0, 95])
    m = bid_and_declare(start(EXAMPLE, variants=POINTS), "A", {"marks": 2}, 6, stacks=1)
    play(m, "A 5|5", "B 3|5", "C 0|5", "D 6|6")  # D trumps: 1 + 10 + 5 points to BD
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 84 + 16}
    m = start(variants=POINTS, marks={"AC": 10, "BD": 20})
    for seat in "ABCD":
        m.apply({"type": "pass", "seat": seat})
    assert m.view()["marks"] == {"AC": 10, "BD": 20}


def test_mpts_07_the_result_names_the_team_the_contract_favours():
    """MPTS-07: awarded_to is the bidders when made (their addition in result.marks), the
    defenders when set; the other team's round points show only in `marks`."""
    m = bid_and_declare(start(SIXES, variants=POINTS), "A", {"points": 30}, 6)
    play_out(m)
    view = m.view()
    assert view["result"]["awarded_to"] == "AC" and view["marks"]["BD"] == view["points"]["BD"]


def test_mpts_08_the_target_wins_and_bidders_win_a_double_reach():
    """MPTS-08: a team at the target or more wins (no exact hit); if both reach it in one
    round, the bidding team wins even with the lower score."""
    m = bid_and_declare(start(SIXES, variants={"match_points": {"target": 100}},
                              marks={"AC": 20, "BD": 0}), "A", {"marks": 2}, 6, 1)
    play_out(m)
    assert m.view()["marks"]["AC"] == 104 and m.winner == 0 and m.phase == "match_over"
    found = 0
    for seed in range(60):  # made 30s under play_out where BD end higher than AC
        order = random.Random(seed).sample(NAMES, 28)
        m = Match.start({"dealer": "D", "order": order, "marks": {"AC": 220, "BD": 249},
                         "variants": {"match_points": {"end": "play_out"}}})
        bid_and_declare(m, "A", {"points": 30}, "none")
        play_out(m)
        view = m.view()
        if view["result"]["outcome"] == "made" and view["marks"]["BD"] > view["marks"]["AC"]:
            assert view["winner"] == "AC" and m.phase == "match_over"
            found += 1
    assert found
    rules = points_rules()
    assert winner_after_round(rules, [250, 300], 0) == 0
    assert winner_after_round(rules, [250, 300], 1) == 1
    assert winner_after_round(rules, [100, 300], 0) == 1
    assert winner_after_round(rules, [100, 200], 0) is None


def test_mpts_09_play_out_plays_every_trick_and_counts_them_all():
    """MPTS-09: with end play_out the result stays null until the seventh trick, the
    outcome decided first stands, and every trick's points count."""
    early = bid_and_declare(start(EXAMPLE, variants=POINTS), "A", {"marks": 2}, 6, 1)
    late = bid_and_declare(start(EXAMPLE, variants={"match_points": {"end": "play_out"}}),
                           "A", {"marks": 2}, 6, 1)
    for m in (early, late):
        play(m, "A 5|5", "B 3|5", "C 0|5", "D 6|6")
    assert early.phase == "round_over" and len(early.view()["tricks"]) == 1
    assert late.phase == "playing" and late.view()["result"] is None
    play_out(late)
    view = late.view()
    assert len(view["tricks"]) == 7 and sum(view["points"].values()) == 42
    assert view["result"] == {"outcome": "set", "awarded_to": "BD",
                              "marks": 84 + view["points"]["BD"]}


# ---- deal_by_drawing -----------------------------------------------------------------


def draws(*rounds: dict) -> list[dict]:
    return list(rounds)


def test_draw_01_no_settings():
    """DRAW-01: `true` or `{}` only."""
    start(variants={"deal_by_drawing": {}})
    with pytest.raises(IllegalAction):
        start(variants={"deal_by_drawing": {"seven": True}})


def test_draw_02_hands_are_drawn_seven_at_a_time():
    """DRAW-02 (variants.md's example): B dealing, tiles 0..6 to C, 7..13 to A, 14..20 to
    D, 21..27 to B, each in the order drawn; a deal given as hands is unaffected."""
    order = list(range(28))
    hands = drawn_order(order, 1)
    assert hands == (tuple(range(7, 14)), tuple(range(21, 28)), tuple(range(7)),
                     tuple(range(14, 21)))
    names = [NAMES[t] for t in random.Random(3).sample(range(28), 28)]
    m = Match.start({"dealer": "B", "order": names, "variants": {"deal_by_drawing": True}})
    assert m.view()["hands"] == {"C": names[0:7], "A": names[7:14], "D": names[14:21],
                                 "B": names[21:28]}
    m = start(EXAMPLE, dealer="B", variants={"deal_by_drawing": True})
    assert m.view()["hands"] == EXAMPLE


def test_draw_03_the_highest_pip_total_deals_and_ties_redraw():
    """DRAW-03: highest a + b; the tied seats alone draw again; from_seed draws this way."""
    tile = TILE_INDEX.__getitem__
    assert dealer_of_draws([{0: tile("4|6"), 1: tile("6|6"), 2: tile("1|2"),
                             3: tile("0|3")}]) == 1
    rng = random.Random(1)
    assert all(draw_first_dealer(rng) in range(4) for _ in range(50))
    counts = [0, 0, 0, 0]
    for seed in range(400):
        counts[draw_first_dealer(random.Random(seed))] += 1
    assert min(counts) > 60  # each seat deals first about a quarter of the time
    m = Match.from_seed(5, variants={"deal_by_drawing": True})
    rng = random.Random(5)
    assert m.dealer == draw_first_dealer(rng)


def test_draw_04_a_setup_may_give_the_draws():
    """DRAW-04: exactly one of dealer and draws; all four seats first; each redraw exactly
    the tied seats; distinct tiles within a round; no round after the dealer is known; the
    last round not tied. variants.md's examples name B."""
    base = {"hands": EXAMPLE, "variants": {"deal_by_drawing": True}}
    one = [{"A": "4|6", "B": "6|6", "C": "1|2", "D": "0|3"}]
    two = [{"A": "4|6", "B": "5|5", "C": "1|2", "D": "0|3"}, {"A": "3|4", "B": "2|6"}]
    assert Match.start({**base, "draws": one}).view()["dealer"] == "B"
    assert Match.start({**base, "draws": two}).view()["dealer"] == "B"
    three = [{"A": "6|6", "B": "5|6", "C": "4|6", "D": "0|0"}]
    assert Match.start({**base, "draws": three}).view()["dealer"] == "A"
    bad = [
        [], [{"A": "4|6", "B": "6|6", "C": "1|2"}],  # a seat missing
        [{"A": "4|6", "B": "6|6", "C": "1|2", "D": "6|6"}],  # a tile twice
        [{"A": "4|6", "B": "5|5", "C": "1|2", "D": "0|3"}],  # still tied
        [{"A": "4|6", "B": "5|5", "C": "1|2", "D": "0|3"}, {"A": "3|4", "C": "2|6"}],
        one + [{"B": "1|1"}],  # a round after the dealer is known
        [{"A": "6|4", "B": "6|6", "C": "1|2", "D": "0|3"}],  # not a tile as written
        [{"A": "4|6", "B": "6|6", "C": "1|2", "D": "0|3", "E": "1|1"}], {"A": "4|6"}, None,
    ]
    for given in bad:
        with pytest.raises(IllegalAction) as raised:
            Match.start({**base, "draws": given})
        assert raised.value.code == "INVALID_SETUP", given
    for setup in ({**base, "draws": one, "dealer": "B"}, {"hands": EXAMPLE, "draws": one},
                  {"hands": EXAMPLE, "variants": {"deal_by_drawing": True}}):
        with pytest.raises(IllegalAction) as raised:
            Match.start(setup)
        assert raised.value.code == "INVALID_SETUP"
    assert draws_problem([{0: 1, 1: 2, 2: 3, 3: 4}]) is None


def test_draw_05_the_dealer_shows_and_passes_clockwise():
    """DRAW-05: the drawn dealer in `dealer`, no draws in any view; later dealers rotate."""
    m = Match.start({"hands": EXAMPLE, "variants": {"deal_by_drawing": True},
                     "draws": [{"A": "4|6", "B": "6|6", "C": "1|2", "D": "0|3"}]})
    assert m.view()["dealer"] == "B" and "6|6" not in str(m.observe("C")["bids"])
    assert "draws" not in m.view() and "draws" not in m.to_json()
    for seat in "CDAB":
        m.apply({"type": "pass", "seat": seat})
    m.deal({"order": list(NAMES)})
    assert m.view()["dealer"] == "C"
    assert m.view()["hands"]["D"] == list(NAMES[:7])  # drawn: D, left of C, first
    assert Match.from_json(m.to_json()) == m


def test_mpts_10_the_doubling_ladder():
    """MPTS-10: with ladder "doubling", n marks are worth 42 * 2^(n - 1): 42, 84, 168,
    336; point bids keep their points."""
    rules = rules_for({"match_points": {"ladder": "doubling"}})
    values = [points_stake(rules, Contract(0, 0, "marks", n)) for n in (1, 2, 3, 4, 5)]
    assert values == [42, 84, 168, 336, 672]
    assert points_stake(rules, Contract(0, 0, "points", 35)) == 35
    doubling = {"match_points": {"ladder": "doubling"}}
    m = bid_and_declare(start(variants=doubling), "A", {"marks": 2}, 6, stacks=1)
    assert m.view()["contract"]["stake"] == 84
    m = play_out(bid_and_declare(start(SIXES, variants=doubling), "A", {"marks": 2}, 6, 1))
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 84}


def test_mpts_11_all_or_nothing_above_42():
    """MPTS-11: with high_bids "all_or_nothing" a set contract worth 42 or more gives the
    defenders its value only; a point bid below 42 keeps MPTS-06."""
    rules = rules_for({"match_points": {"high_bids": "all_or_nothing"}})
    assert points_score(rules, Contract(0, 0, "marks", 2), "set", [0, 11]) == (1, [0, 84])
    assert points_score(rules, Contract(0, 0, "points", 31), "set", [20, 14]) == (1, [0, 45])
    assert points_score(rules, Contract(0, 0, "marks", 2), "made", [42, 0]) == (0, [84, 0])
    variants = {"match_points": {"high_bids": "all_or_nothing", "ladder": "doubling"}}
    m = bid_and_declare(start(EXAMPLE, variants=variants), "A", {"marks": 2}, 6, stacks=1)
    play(m, "A 5|5", "B 3|5", "C 0|5", "D 6|6")  # D trumps: 16 round points, not counted
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 84}
