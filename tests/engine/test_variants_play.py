"""Options that add trump choices: nello (NELLO), sevens (SEVENS), undeclared_trump
(UNDECL), follow_me (FOLLOWME)."""

import pytest

from reference_impl import IllegalAction, Match
from reference_impl.actions import action_from_key, action_key
from reference_impl.rules import BASE_RULES, Contract
from reference_impl.tiles import TILE_INDEX
from reference_impl.variant_rules import closest_tiles, distance, first_tile_trump

from .support import EXAMPLE, bid_and_declare, play, play_out, rejects, start


def trump(seat, choice, stacks=None):
    action = {"type": "trump", "seat": seat, "trump": choice}
    if stacks is not None:
        action["stacks"] = stacks
    return action


def mask(*tiles):
    return sum(1 << TILE_INDEX[t] for t in tiles)


# A holds the seven doubles; C (A's partner) holds non-doubles of 1..5; B and D between
# them hold a tile of every number, so under Nel-O doubles "low" A never wins a trick.
DOUBLES_HAND = {"A": ["0|0", "1|1", "2|2", "3|3", "4|4", "5|5", "6|6"],
                "B": ["0|1", "0|2", "0|3", "0|4", "0|5", "0|6", "1|6"],
                "C": ["1|2", "1|3", "1|4", "2|3", "2|4", "3|4", "1|5"],
                "D": ["2|5", "2|6", "3|5", "3|6", "4|5", "4|6", "5|6"]}


def nello(doubles="high", min_marks=2, hands=None, marks=2, declarer="A", **more):
    m = start(hands or DOUBLES_HAND, variants={"nello": {"doubles": doubles,
                                                          "min_marks": min_marks}, **more})
    return bid_and_declare(m, declarer, {"marks": marks}, "nello", stacks=1)


# ---- nello ---------------------------------------------------------------------------


def test_nello_01_settings():
    """NELLO-01: doubles high/low/own_suit, min_marks 1 or 2."""
    for value in (True, {"doubles": "own_suit"}, {"min_marks": 1}, {"doubles": "low",
                                                                   "min_marks": 2}):
        start(variants={"nello": value})
    for value in ({"doubles": "middle"}, {"min_marks": 3}, {"min_marks": "2"}):
        with pytest.raises(IllegalAction):
            start(variants={"nello": value})


def test_nello_02_declared_on_marks_contracts_of_min_marks():
    """NELLO-02: with min_marks 2, not on 1 mark nor on a point contract (even with
    min_marks 1), checked before the stacks; listed among the legal choices when allowed."""
    for bid, min_marks, allowed in (({"marks": 1}, 2, False), ({"marks": 2}, 2, True),
                                    ({"marks": 1}, 1, True), ({"points": 30}, 1, False)):
        m = start(variants={"nello": {"min_marks": min_marks}})
        for seat in "ABCD":
            m.apply({"type": "bid", "seat": seat, **bid} if seat == "A"
                    else {"type": "pass", "seat": seat})
        listed = {a["trump"] for a in m.legal_actions()}
        assert ("nello" in listed) == allowed
        if not allowed:
            rejects(m, trump("A", "nello"), "TRUMP_NOT_ALLOWED")
            rejects(m, trump("A", "nello", 1), "TRUMP_NOT_ALLOWED")
        else:
            rejects(m, trump("A", "nello"), "STACKS_REQUIRED")
            m.apply(trump("A", "nello", 2))
            assert m.view()["contract"]["trump"] == "nello"


def test_nello_03_the_partner_sits_out():
    """NELLO-03: C never acts (NOT_YOUR_TURN), keeps 7 hidden tiles, even after the round."""
    m = nello("low")
    seen = []
    while m.to_act is not None:
        seen.append(m.to_act)
        rejects(m, {"type": "play", "seat": "C", "tile": "1|2"}, "NOT_YOUR_TURN")
        m.apply(m.legal_actions()[0])
    assert "C" not in seen and m.view()["hands"]["C"] == DOUBLES_HAND["C"]
    for seat in "ABD":
        assert not set(DOUBLES_HAND["C"]) & set(str(m.observe(seat)).split("'"))


def test_nello_04_three_tile_tricks_pass_over_the_partner():
    """NELLO-04: clockwise from the leader passing over the partner, also across the D-A
    wrap (D declares, B sits out: D, A, C)."""
    m = nello("low")
    play(m, "A 0|0", "B 0|1")
    assert m.to_act == "D"
    play(m, "D 2|5")
    assert len(m.view()["tricks"][0]["plays"]) == 3 and m.view()["trick"] == []
    hands = {"A": DOUBLES_HAND["B"], "B": DOUBLES_HAND["C"], "C": DOUBLES_HAND["D"],
             "D": DOUBLES_HAND["A"]}
    m = nello("low", hands=hands, declarer="D")
    order = []
    for _ in range(6):
        order.append(m.to_act)
        m.apply(m.legal_actions()[0])
    assert order[:3] == ["D", "A", "C"] and "B" not in order


def test_nello_05_the_declarer_leads_then_each_winner():
    """NELLO-05: A leads the first trick; B, who wins it, leads the second."""
    m = nello("low")
    assert m.to_act == "A"
    play(m, "A 1|1", "B 1|6", "D 2|5")  # ones: B's 1|6 beats the low 1|1
    assert m.view()["tricks"][0]["winner"] == "B" and m.to_act == "B"


def test_nello_06_doubles_high_low_and_own_suit():
    """NELLO-06: no trump; "high": 5|5 tops fives; "low": 5|5 is the lowest five;
    "own_suit": doubles are a suit of their own, ranked by number."""
    def rank_of(m: Match):
        return lambda tile, suit: m.rules.trick_rank(TILE_INDEX[tile], suit, "nello")

    high = rank_of(Match.start({"dealer": "D", "hands": DOUBLES_HAND,
                                "variants": {"nello": True}}))
    assert high("5|5", 5) > high("5|6", 5) > high("0|5", 5)
    low = rank_of(nello("low"))
    assert low("5|6", 5) > low("0|5", 5) > low("5|5", 5) >= 0
    assert low("6|6", 5) == -1
    m = nello("own_suit")
    rules, rank = m.rules, rank_of(m)
    assert rules.called_suit(TILE_INDEX["4|4"], "nello") == 7
    assert rules.called_suit(TILE_INDEX["2|5"], "nello") == 5
    follow = {s: mask(*[n for n in TILE_INDEX if rules.follows(TILE_INDEX[n], s, "nello")])
              for s in (5, 7)}
    assert follow[7] == mask(*DOUBLES_HAND["A"])
    assert not follow[5] & mask("5|5")
    assert rank("6|6", 7) > rank("0|0", 7) >= 0
    assert rank("5|5", 5) == -1


def test_nello_07_set_by_the_declarers_first_trick():
    """NELLO-07: under "high" A's 0|0 tops the blanks: the declarer wins trick 1, set."""
    m = nello("high")
    play(m, "A 0|0", "B 0|1", "D 2|5")
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 2}


def test_nello_07_made_after_seven_tricks_and_08_points_fall_short():
    """NELLO-07: made after seven tricks without one for the declarer; NELLO-08: C's
    counters are never played, so the round points total less than 42."""
    m = play_out(nello("low"))
    view = m.view()
    assert view["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 2}
    assert view["tricks_won"] == {"AC": 0, "BD": 7} and len(view["tricks"]) == 7
    assert view["points"]["AC"] + view["points"]["BD"] == 42 - 5 - 5 < 42


def test_nello_09_views_of_three_tile_tricks():
    """NELLO-09: three plays in the trick and the captured tiles; the partner's hand_sizes
    stays 7; stacks cover as for any marks contract; the view matches its schema."""
    from .spec_data import schema_validator
    m = nello("low")
    play(m, "A 0|0", "B 0|1")
    assert len(m.observe("D")["trick"]) == 2
    play(m, "D 2|5")
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    obs = m.observe("B")
    assert obs["hand_sizes"] == {"A": 5, "B": 5, "C": 7, "D": 5}
    assert [c["tiles"] is None for c in obs["captured"]] == [True, False]  # stacks 1
    assert len(obs["captured"][1]["tiles"]) == 3
    schema_validator("view.schema.json")(m.view())
    schema_validator("observation.schema.json")(obs)


def points_nello(variants: dict, bid: int = 30) -> Match:
    """A bids `bid` points (B, C, D pass) and declares Nel-O without stacks."""
    m = start(DOUBLES_HAND, variants=variants)
    return bid_and_declare(m, "A", {"points": bid}, "nello")


def test_nello_11_on_a_point_contract_without_stacks():
    """NELLO-11: with min_marks 0 a point contract may declare Nel-O (listed, without
    stacks; with stacks STACKS_NOT_ALLOWED); C sits out; decided by NELLO-07 for the
    stake of a point bid, 1 mark; min_marks 1 still refuses it."""
    m = start(DOUBLES_HAND, variants={"nello": {"min_marks": 0, "doubles": "low"}})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", "points": 30} if seat == "A"
                else {"type": "pass", "seat": seat})
    assert trump("A", "nello") in m.legal_actions()
    assert trump("A", "nello", 1) not in m.legal_actions()
    rejects(m, trump("A", "nello", 1), "STACKS_NOT_ALLOWED")
    m.apply(trump("A", "nello"))
    assert m.view()["contract"]["stake"] == 1 and m.view()["contract"]["stacks"] is None
    play_out(m)
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 1}
    assert len(m.view()["tricks"]) == 7 and m.view()["hands"]["C"] == DOUBLES_HAND["C"]
    m = start(DOUBLES_HAND, variants={"nello": {"min_marks": 1}})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", "points": 30} if seat == "A"
                else {"type": "pass", "seat": seat})
    rejects(m, trump("A", "nello"), "TRUMP_NOT_ALLOWED")


def test_nello_11_set_at_the_first_trick_the_declarer_wins():
    """NELLO-11: under doubles "high" A's 0|0 wins the blanks: set at once, 1 mark to BD,
    although A's team could still reach 30 round points."""
    m = points_nello({"nello": {"min_marks": 0, "doubles": "high"}})
    play(m, "A 0|0", "B 0|1", "D 2|5")
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 1}


def test_nello_11_match_points_scores_the_bid():
    """NELLO-11 with match_points: made, the bidders add the bid (31), not their round
    points (MPTS-05 instead of MPTS-04); set, the defenders add 31 and their round
    points (MPTS-06)."""
    m = play_out(points_nello({"nello": {"min_marks": 0, "doubles": "low"},
                               "match_points": True}, 31))
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 31}
    assert m.view()["marks"] == {"AC": 31, "BD": 0}
    m = points_nello({"nello": {"min_marks": 0, "doubles": "high"},
                      "match_points": True}, 31)
    play(m, "A 0|0", "B 0|1", "D 2|5")
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 31}


def declaring(variants: dict, bid: dict, hands=None) -> Match:
    """A bids `bid` (B, C, D pass); A is to declare."""
    m = start(hands or DOUBLES_HAND, variants=variants)
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", **bid} if seat == "A"
                else {"type": "pass", "seat": seat})
    return m


def test_nello_13_the_declaration_names_the_doubles():
    """NELLO-13: the Nel-O declaration names its doubles (listed once per value after
    its stacks); without them DOUBLES_REQUIRED, an unlisted value or one on another
    choice DOUBLES_INVALID (after the stacks checks); recorded in the contract and the
    history; without the setting the field is malformed (VAR-04)."""
    m = declaring({"nello": {"doubles": "declared"}}, {"marks": 2})
    nellos = [action_key(a) for a in m.legal_actions() if a["trump"] == "nello"]
    assert nellos == [f"trump:nello/{s}@{d}" for s in (1, 2)
                      for d in ("high", "low", "own_suit", "own_suit_reversed")]
    rejects(m, trump("A", "nello", 1), "DOUBLES_REQUIRED")
    rejects(m, trump("A", "nello", 1) | {"doubles": "middle"}, "DOUBLES_INVALID")
    rejects(m, trump("A", 6, 1) | {"doubles": "low"}, "DOUBLES_INVALID")
    rejects(m, trump("A", "nello") | {"doubles": "low"}, "STACKS_REQUIRED")
    rejects(m, trump("A", "nello", 1) | {"doubles": 1}, "MALFORMED_ACTION")
    m.apply(trump("A", "nello", 1) | {"doubles": "low"})
    assert m.view()["contract"]["doubles"] == "low"
    assert m.view()["history"][-1] == trump("A", "nello", 1) | {"doubles": "low"}
    play(m, "A 0|0", "B 0|1", "D 2|5")  # low: B's 0|1 beats A's double
    assert m.view()["tricks"][0]["winner"] == "B"
    m = declaring({"nello": {"doubles": "declared"}}, {"marks": 2})
    m.apply(trump("A", "nello", 1) | {"doubles": "high"})
    play(m, "A 0|0", "B 0|1", "D 2|5")  # high: A's double tops the blanks, set
    assert m.view()["result"]["outcome"] == "set"
    m = declaring({"nello": True}, {"marks": 2})
    rejects(m, trump("A", "nello", 1) | {"doubles": "low"}, "MALFORMED_ACTION")
    assert "doubles" not in bid_and_declare(
        start(EXAMPLE), "A", {"marks": 1}, 6, 1).view()["contract"]


def test_notrump_05_no_trump_names_its_doubles():
    """NOTRUMP-05: "none" (and "follow_me", recorded as "none") names high, low or
    own_suit; own_suit_reversed is Nel-O's only; a Nel-O of another setting names none."""
    variants = {"no_trump": {"doubles": "declared"}, "nello": {"min_marks": 0},
                "follow_me": True}
    m = declaring(variants, {"points": 30})
    nones = [action_key(a) for a in m.legal_actions() if a["trump"] == "none"]
    assert nones == ["trump:none@high", "trump:none@low", "trump:none@own_suit"]
    rejects(m, trump("A", "none"), "DOUBLES_REQUIRED")
    rejects(m, trump("A", "none") | {"doubles": "own_suit_reversed"}, "DOUBLES_INVALID")
    rejects(m, trump("A", "nello") | {"doubles": "low"}, "DOUBLES_INVALID")
    rejects(m, trump("A", "none", 1) | {"doubles": "low"}, "STACKS_NOT_ALLOWED")
    m.apply(trump("A", "follow_me") | {"doubles": "low"})
    view = m.view()
    assert view["contract"]["trump"] == "none" and view["contract"]["doubles"] == "low"
    assert view["history"][-1] == trump("A", "none") | {"doubles": "low"}
    rank = m.rules.trick_rank
    low, high = "none/low", "none/high"
    assert rank(TILE_INDEX["5|5"], 5, low) < rank(TILE_INDEX["0|5"], 5, low)
    assert rank(TILE_INDEX["5|5"], 5, high) > rank(TILE_INDEX["5|6"], 5, high)


def nello_bid(marks: int | None = 2, points: int | None = None, seat: str = "A") -> dict:
    bid = {"points": points} if points is not None else {"marks": marks}
    return {"type": "bid", "seat": seat, **bid, "nello": True}


def test_nello_14_nello_announced_with_a_bid():
    """NELLO-14: a marks bid may carry "nello": true (listed after the ordinary bid of its
    number); it ranks as that bid; fewer marks than min_marks, or a point bid without
    min_marks 0, is NELLO_BID_NOT_ALLOWED after the bid's own checks; malformed without
    the setting; its compact key is bid:2m@nello."""
    m = start(DOUBLES_HAND, variants={"nello": {"announce": "bid"}})
    keys = [action_key(a) for a in m.legal_actions()]
    assert keys[keys.index("bid:2m") + 1] == "bid:2m@nello" and "bid:1m@nello" not in keys
    rejects(m, nello_bid(1), "NELLO_BID_NOT_ALLOWED")
    rejects(m, nello_bid(points=30), "NELLO_BID_NOT_ALLOWED")
    rejects(m, nello_bid(3), "MARKS_BID_STEP")
    rejects(m, {**nello_bid(2), "nello": "yes"}, "MALFORMED_ACTION")
    m.apply(nello_bid(2))
    assert m.view()["bids"][-1] == nello_bid(2)
    rejects(m, {"type": "bid", "seat": "B", "marks": 2}, "MARKS_BID_STEP")
    m.apply({"type": "bid", "seat": "B", "marks": 3})
    assert action_from_key("A", "bid:2m@nello") == nello_bid(2)
    m = start(DOUBLES_HAND, variants={"nello": True})
    rejects(m, nello_bid(2), "MALFORMED_ACTION")
    forced = {"nello": {"announce": "bid", "min_marks": 0},
              "forced_bid": {"nello_sevens": "forced_only"}}
    m = start(DOUBLES_HAND, variants=forced)
    rejects(m, nello_bid(points=30), "NELLO_BID_NOT_ALLOWED")
    for seat in "ABC":
        m.apply({"type": "pass", "seat": seat})
    m.apply(nello_bid(points=30, seat="D"))
    assert [a["trump"] for a in m.legal_actions()] == ["nello"]


def test_nello_15_the_announced_nello_is_declared():
    """NELLO-15: won by a Nel-O bid, only Nel-O may be declared; won by an ordinary bid,
    Nel-O may not (but a plunge partner may with on_plunge "allowed", NELLO-12); a
    plunge may not be declared on an announced Nel-O (PTERMS-07)."""
    m = start(DOUBLES_HAND, variants={"nello": {"announce": "bid", "doubles": "low"}})
    m.apply(nello_bid(2))
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    assert {a["trump"] for a in m.legal_actions()} == {"nello"}
    rejects(m, trump("A", 6, 1), "TRUMP_NOT_ALLOWED")
    m.apply(trump("A", "nello", 1))
    assert m.view()["contract"]["bid"] == {"marks": 2} and m.sitting_out == 2
    m = declaring({"nello": {"announce": "bid"}}, {"marks": 2})
    rejects(m, trump("A", "nello", 1), "TRUMP_NOT_ALLOWED")
    m = start(DOUBLES_HAND, variants={"nello": {"announce": "bid"},
                                      "plunge_terms": {"announce": "declaration",
                                                       "marks": 2, "doubles": 4}})
    m.apply(nello_bid(2))
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    rejects(m, trump("A", "plunge"), "TRUMP_NOT_ALLOWED")


# ---- sevens --------------------------------------------------------------------------


def sevens(duty="closest", ties="first_played", hands=None, declarer="A", marks=1):
    m = start(hands or EXAMPLE, variants={"sevens": {"duty": duty, "ties": ties}})
    return bid_and_declare(m, declarer, {"marks": marks}, "sevens", stacks=2)


def test_sevens_01_settings():
    """SEVENS-01: duty closest/free, ties first_played/bidders."""
    start(variants={"sevens": {"duty": "free", "ties": "bidders"}})
    for value in ({"duty": "any"}, {"ties": "defenders"}, {"order": 1}):
        with pytest.raises(IllegalAction):
            start(variants={"sevens": value})


def test_sevens_07_min_marks_two():
    """SEVENS-07: with min_marks 2, Sevens on 1 mark is TRUMP_NOT_ALLOWED (before the
    stacks) and not listed; on 2 marks it is declared."""
    m = start(EXAMPLE, variants={"sevens": {"min_marks": 2}})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", "marks": 1} if seat == "A"
                else {"type": "pass", "seat": seat})
    assert "sevens" not in {a["trump"] for a in m.legal_actions()}
    rejects(m, trump("A", "sevens", 1), "TRUMP_NOT_ALLOWED")
    rejects(m, trump("A", "sevens"), "TRUMP_NOT_ALLOWED")
    m = bid_and_declare(start(EXAMPLE, variants={"sevens": {"min_marks": 2}}), "A",
                        {"marks": 2}, "sevens", stacks=1)
    assert m.view()["contract"]["trump"] == "sevens"
    with pytest.raises(IllegalAction):
        start(variants={"sevens": {"min_marks": 3}})


def test_sevens_02_any_marks_contract_never_a_point_contract():
    """SEVENS-02: on 1 mark yes; on a point contract TRUMP_NOT_ALLOWED (before the stacks
    check: STACKS_NOT_ALLOWED is not reported)."""
    sevens()
    m = start(variants={"sevens": True})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", "points": 30} if seat == "A"
                else {"type": "pass", "seat": seat})
    rejects(m, trump("A", "sevens"), "TRUMP_NOT_ALLOWED")
    rejects(m, trump("A", "sevens", 1), "TRUMP_NOT_ALLOWED")
    assert "sevens" not in {a["trump"] for a in m.legal_actions()}


def test_sevens_03_distance_from_seven():
    """SEVENS-03: |a + b - 7|."""
    assert [distance(TILE_INDEX[t]) for t in ("1|6", "2|5", "3|4", "5|5", "0|4", "0|0",
                                               "6|6")] == [0, 0, 0, 3, 3, 7, 5]


def test_sevens_04_duty_closest_for_leader_and_followers():
    """SEVENS-04 "closest": the leader and every follower play a tile of least distance
    (MUST_PLAY_CLOSEST), whatever was led; "free": any tile."""
    m = sevens()  # A: 5|5 0|0 0|1 0|2 1|1 1|2 2|2 -> nearest 5|5 (3) and 2|2 (3)
    assert [a["tile"] for a in m.legal_actions()] == ["2|2", "5|5"]
    rejects(m, {"type": "play", "seat": "A", "tile": "0|0"}, "MUST_PLAY_CLOSEST")
    rejects(m, {"type": "play", "seat": "A", "tile": "6|6"}, "TILE_NOT_IN_HAND")
    play(m, "A 5|5")
    legal_b = [a["tile"] for a in m.legal_actions()]
    hand_b = m.view()["hands"]["B"]
    best = min(distance(TILE_INDEX[t]) for t in hand_b)
    assert legal_b == sorted((t for t in hand_b if distance(TILE_INDEX[t]) == best),
                             key=TILE_INDEX.get)
    assert closest_tiles(mask("0|0", "1|6", "2|5")) == mask("1|6", "2|5")
    m = sevens("free")
    assert len(m.legal_actions()) == 7


def test_sevens_05_nearest_wins_ties_by_setting():
    """SEVENS-05: least distance wins; a tie goes to the first played, or with "bidders" to
    the first bidders' tile (if none tied, to the first played)."""
    hands = {"A": ["5|5", "0|0", "0|1", "0|2", "1|1", "1|2", "2|2"],
             "B": ["0|4", "0|3", "1|3", "0|5", "0|6", "3|3", "1|4"],
             "C": ["3|5", "2|4", "4|4", "4|5", "4|6", "5|6", "6|6"],
             "D": ["1|6", "2|5", "3|4", "1|5", "2|3", "2|6", "3|6"]}

    def winner(ties, declarer, *moves):
        m = sevens("free", ties, hands=hands, declarer=declarer)
        play(m, *moves)
        return m.view()["tricks"][0]["winner"]

    assert winner("first_played", "A", "A 5|5", "B 0|4", "C 6|6", "D 2|3") == "D"  # 2 < 3
    assert winner("first_played", "A", "A 0|0", "B 0|6", "C 3|5", "D 1|5") == "B"  # 1,1,1
    assert winner("bidders", "A", "A 0|0", "B 0|6", "C 3|5", "D 1|5") == "C"
    assert winner("bidders", "A", "A 0|0", "B 0|6", "C 6|6", "D 2|6") == "B"  # no bidder
    assert winner("first_played", "B", "B 0|3", "C 3|5", "D 1|5", "A 0|1") == "C"
    assert winner("bidders", "B", "B 0|3", "C 3|5", "D 1|5", "A 0|1") == "D"


def test_sevens_06_declarer_leads_set_by_the_first_defender_trick():
    """SEVENS-06: A leads; C's 2|5 and D's 1|6 are both 0 away, C's first: AC's trick, C
    leads the next; the first trick BD win sets the contract and ends the round."""
    m = sevens()
    assert m.to_act == "A"
    for _ in range(4):
        m.apply(m.legal_actions()[0])
    view = m.view()
    assert [p["tile"] for p in view["tricks"][0]["plays"]] == ["2|2", "3|3", "2|5", "1|6"]
    assert view["tricks"][0]["winner"] == "C" and m.to_act == "C" and m.phase == "playing"
    play_out(m)
    view = m.view()
    teams = [t["team"] for t in view["tricks"]]
    assert teams.count("BD") <= 1 and ("BD" not in teams or teams[-1] == "BD")
    expected = "set" if "BD" in teams else "made"
    assert view["result"]["outcome"] == expected and (expected == "set" or len(teams) == 7)


# ---- undeclared_trump ------------------------------------------------------------------


def test_undecl_01_settings():
    """UNDECL-01: end high/low, double number/doubles."""
    start(variants={"undeclared_trump": {"end": "low", "double": "doubles"}})
    for value in ({"end": "middle"}, {"double": "none"}, {"first": True}):
        with pytest.raises(IllegalAction):
            start(variants={"undeclared_trump": value})


def test_undecl_02_first_tile_is_a_choice_with_stacks_on_a_marks_contract():
    """UNDECL-02: "first_tile" with a point contract (no stacks) or a marks contract
    (stacks required); it is listed last, and keyed `trump:first_tile`."""
    m = start(variants={"undeclared_trump": True})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", "marks": 1} if seat == "A"
                else {"type": "pass", "seat": seat})
    assert [action_key(a) for a in m.legal_actions()[-2:]] == [
        "trump:first_tile/1", "trump:first_tile/2"]
    rejects(m, trump("A", "first_tile"), "STACKS_REQUIRED")
    m = bid_and_declare(start(variants={"undeclared_trump": True}), "A", {"points": 30},
                        "first_tile")
    assert m.history[-1] == trump("A", "first_tile")


def test_undecl_03_the_first_tile_sets_trump():
    """UNDECL-03: by settings; the first tile is then a trump lead; later leads do not
    change trump."""
    cases = [("2|5", "high", "number", 5), ("2|5", "low", "number", 2),
             ("4|4", "high", "doubles", "doubles"), ("0|4", "low", "number", 0),
             ("4|4", "low", "number", 4), ("2|5", "low", "doubles", 2)]
    contract = Contract(0, 0, "points", 30, "first_tile")
    for tile, end, double, expected in cases:
        assert first_tile_trump(BASE_RULES, contract, TILE_INDEX[tile], end=end,
                                double=double, inner=None) == expected
    m = bid_and_declare(start(EXAMPLE, variants={"undeclared_trump": True}), "A",
                        {"points": 30}, "first_tile")
    play(m, "A 1|2")  # end high: twos are trump, 1|2 is a trump lead
    assert m.view()["contract"]["trump"] == 2 and m.called == 7
    assert [a["tile"] for a in m.legal_actions()] == ["2|3"]  # B's only two (trump)
    play_out(m)
    assert m.view()["contract"]["trump"] == 2


def test_undecl_04_first_tile_shows_until_the_first_play():
    """UNDECL-04: contract.trump is "first_tile" in every view until the first play."""
    m = bid_and_declare(start(EXAMPLE, variants={"undeclared_trump": {"end": "low"}}), "A",
                        {"points": 30}, "first_tile")
    assert m.view()["contract"]["trump"] == "first_tile"
    assert all(m.observe(s)["contract"]["trump"] == "first_tile" for s in "ABCD")
    play(m, "A 1|2")
    assert m.view()["contract"]["trump"] == 1
    assert Match.from_json(m.to_json()) == m


# ---- follow_me -----------------------------------------------------------------------


def test_followme_01_no_settings():
    """FOLLOWME-01: `true` or `{}` only."""
    start(variants={"follow_me": {}})
    with pytest.raises(IllegalAction):
        start(variants={"follow_me": {"doubles": "low"}})


def test_followme_03_min_marks_one_no_trump_only_on_marks():
    """FOLLOWME-03: with min_marks 1 no-trump by either name is TRUMP_NOT_ALLOWED on a
    point contract (before the stacks check) and not listed; on 1 mark it is declared;
    with 0 (the default) a point contract may declare it."""
    m = start(EXAMPLE, variants={"follow_me": {"min_marks": 1}})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", "points": 30} if seat == "A"
                else {"type": "pass", "seat": seat})
    assert "none" not in {a["trump"] for a in m.legal_actions()}
    for choice in ("none", "follow_me"):
        rejects(m, trump("A", choice), "TRUMP_NOT_ALLOWED")
        rejects(m, trump("A", choice, 1), "TRUMP_NOT_ALLOWED")
    m.apply(trump("A", 6))
    m = bid_and_declare(start(EXAMPLE, variants={"follow_me": {"min_marks": 1}}), "A",
                        {"marks": 1}, "follow_me", stacks=1)
    assert m.view()["contract"]["trump"] == "none"
    m = bid_and_declare(start(EXAMPLE, variants={"follow_me": {"min_marks": 0}}), "A",
                        {"points": 30}, "none")
    assert m.view()["contract"]["trump"] == "none"
    with pytest.raises(IllegalAction):
        start(variants={"follow_me": {"min_marks": 2}})


def test_followme_02_an_alias_of_none_recorded_as_none():
    """FOLLOWME-02: accepted, recorded as none in contract and history, never listed; plays
    exactly as none."""
    m = start(EXAMPLE, variants={"follow_me": True})
    for seat in "ABCD":
        m.apply({"type": "bid", "seat": "A", "marks": 1} if seat == "A"
                else {"type": "pass", "seat": seat})
    assert not any(a["trump"] == "follow_me" for a in m.legal_actions())
    m.apply(trump("A", "follow_me", 2))
    view = m.view()
    assert view["contract"]["trump"] == "none" and view["history"][-1] == trump("A", "none", 2)
    plain = bid_and_declare(start(EXAMPLE), "A", {"marks": 1}, "none", 2)
    assert m.legal_actions() == plain.legal_actions()
    play_out(m)
    play_out(plain)
    assert m.view()["tricks"] == plain.view()["tricks"]
