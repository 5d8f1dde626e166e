"""Options that change bidding: forced_bid (FORCE), bid_42 (FORTYTWO), plunge (PLUNGE)."""

import pytest

from reference_impl import IllegalAction, Match

from .support import EXAMPLE, SIXES, bid_and_declare, play, play_out, rejects, start


def bid(seat, **kw):
    return {"type": "bid", "seat": seat, **kw}


def passes(seat):
    return {"type": "pass", "seat": seat}


def three_passes(m):
    for seat in "ABC":
        m.apply(passes(seat))
    return m


# A holds four doubles (0|0 1|1 2|2 3|3); B three (4|4 5|5 6|6); D holds 1|2 and 2|3.
DOUBLES4 = {"A": ["0|0", "1|1", "2|2", "3|3", "0|1", "0|2", "0|3"],
            "B": ["4|4", "5|5", "6|6", "0|4", "0|5", "0|6", "1|3"],
            "C": ["1|4", "1|5", "1|6", "2|4", "2|5", "2|6", "3|4"],
            "D": ["1|2", "2|3", "3|5", "3|6", "4|5", "4|6", "5|6"]}


# ---- forced_bid ----------------------------------------------------------------------


def test_force_01_value_is_true_or_the_bid_setting():
    """FORCE-01: `bid` is "minimum" (the default) or "any"."""
    for value in (True, {}, {"bid": "minimum"}, {"bid": "any"}):
        start(variants={"forced_bid": value})
    for value in ({"bid": 30}, {"bid": "max"}, {"minimum": True}):
        with pytest.raises(IllegalAction):
            start(variants={"forced_bid": value})


def test_force_02_the_dealer_may_not_pass_after_three_passes():
    """FORCE-02: FORCED_BID, the pass is not legal, and the round never ends all_passed."""
    m = three_passes(start(variants={"forced_bid": True}))
    rejects(m, passes("D"), "FORCED_BID")
    assert passes("D") not in m.legal_actions()
    m.apply(bid("D", points=30))
    assert m.phase == "declaring" and m.view()["contract"]["declarer"] == "D"


def test_force_02_a_dealer_after_a_bid_may_pass_and_other_seats_always_may():
    """FORCE-02 binds only the dealer, only after three passes."""
    m = start(variants={"forced_bid": True})
    m.apply(passes("A"))
    m.apply(bid("B", points=30))
    m.apply(passes("C"))
    assert passes("D") in m.legal_actions()
    m.apply(passes("D"))
    assert m.view()["contract"]["declarer"] == "B"


def test_force_03_minimum_allows_only_30():
    """FORCE-03 "minimum": every other bid the base rules accept is FORCED_BID; a bid the
    base rules refuse keeps its own code (checked first, errors.yaml)."""
    m = three_passes(start(variants={"forced_bid": True, "bid_42": True}))
    assert m.legal_actions() == [bid("D", points=30)]
    for other in (bid("D", points=31), bid("D", points=42), bid("D", marks=1),
                  bid("D", marks=2)):
        rejects(m, other, "FORCED_BID")
    rejects(m, bid("D", points=43), "POINT_BID_RANGE")
    rejects(m, bid("D", marks=3), "MARKS_BID_STEP")


def test_force_03_any_allows_every_bid_but_no_pass():
    """FORCE-03 "any": the forced dealer's legal actions are every bid, no pass."""
    m = three_passes(start(variants={"forced_bid": {"bid": "any"}}))
    legal = m.legal_actions()
    assert legal == [bid("D", points=p) for p in range(30, 42)] + [
        bid("D", marks=1), bid("D", marks=2)]
    m.apply(bid("D", marks=2))
    assert m.view()["contract"]["bid"] == {"marks": 2}


def test_force_03_a_forced_plunge_needs_bid_any():
    """FORCE-03 with PLUNGE-03: a forced dealer with four doubles may plunge only with
    "any"; without the doubles it is PLUNGE_NOT_ALLOWED, checked before FORCED_BID."""
    hands = {"A": DOUBLES4["D"], "B": DOUBLES4["B"], "C": DOUBLES4["C"], "D": DOUBLES4["A"]}
    m = three_passes(start(hands, variants={"forced_bid": True, "plunge": True}))
    rejects(m, bid("D", plunge=True), "FORCED_BID")
    m = three_passes(start(hands, variants={"forced_bid": {"bid": "any"}, "plunge": True}))
    assert bid("D", plunge=True) in m.legal_actions()
    m.apply(bid("D", plunge=True))
    assert m.view()["contract"]["declarer"] == "B"
    m2 = start({"A": DOUBLES4["B"], "B": DOUBLES4["A"], "C": DOUBLES4["C"],
                "D": DOUBLES4["D"]}, variants={"forced_bid": True, "plunge": True})
    three_passes(m2)
    rejects(m2, bid("D", plunge=True), "PLUNGE_NOT_ALLOWED")


def test_force_04_a_forced_contract_is_ordinary():
    """FORCE-04: declared, played and scored like any point contract (set: 1 mark)."""
    m = three_passes(start(variants={"forced_bid": True}))
    m.apply(bid("D", points=30))
    m.apply({"type": "trump", "seat": "D", "trump": 6})
    play_out(m)
    result = m.view()["result"]
    assert result["outcome"] in ("made", "set") and result["marks"] == 1


def test_force_01_house_settings_and_no_boolean_for_a_number():
    """FORCE-01: `nello_sevens` is "any_contract" or "forced_only", `sweep_marks` 1 or 2;
    `true` is not the number 1 (DIG-01), nor "2" the number 2 (VAR-01)."""
    for value in ({"nello_sevens": "forced_only"}, {"nello_sevens": "any_contract"},
                  {"sweep_marks": 1}, {"sweep_marks": 2, "bid": "any"}):
        start(variants={"forced_bid": value})
    for value in ({"sweep_marks": True}, {"sweep_marks": False}, {"sweep_marks": "2"},
                  {"sweep_marks": 3}, {"sweep_marks": 2.0}, {"nello_sevens": True},
                  {"nello_sevens": "forced"}):
        with pytest.raises(IllegalAction) as refused:
            start(variants={"forced_bid": value})
        assert refused.value.code == "INVALID_SETUP", value


def test_force_05_the_dealers_bid_after_three_passes_is_forced():
    """FORCE-05: forced only after three passes and only with forced_bid; a dealer who
    outbids another seat, or bids after three passes in the base game, is not forced."""
    m = three_passes(start(variants={"forced_bid": {"bid": "any"}}))
    m.apply(bid("D", marks=2))
    assert m.contract.compelled
    m = start(variants={"forced_bid": True})
    m.apply(passes("A"))
    m.apply(bid("B", points=30))
    m.apply(passes("C"))
    m.apply(bid("D", points=31))
    assert not m.contract.compelled
    m = three_passes(start())
    m.apply(bid("D", points=30))
    assert not m.contract.compelled
    m = three_passes(start(variants={"forced_bid": True}))
    m.apply(bid("D", points=30))
    m.apply({"type": "trump", "seat": "D", "trump": 6})
    assert m.contract.compelled  # kept through the declaration (CON-04)


FORCED_ONLY = {"forced_bid": {"bid": "any", "nello_sevens": "forced_only"},
               "nello": {"min_marks": 1}, "sevens": True}


@pytest.mark.parametrize("choice", ["nello", "sevens"])
def test_force_06_nello_and_sevens_only_on_a_forced_contract(choice):
    """FORCE-06: TRUMP_NOT_ALLOWED on a contract that is not forced, accepted on a forced
    marks bid; the legal declarations say the same."""
    declare = {"type": "trump", "seat": "B", "trump": choice, "stacks": 1}
    m = start(variants=FORCED_ONLY)
    m.apply(passes("A"))
    m.apply(bid("B", marks=1))
    m.apply(passes("C"))
    m.apply(passes("D"))
    rejects(m, declare, "TRUMP_NOT_ALLOWED")
    assert declare not in m.legal_actions()
    m = three_passes(start(variants=FORCED_ONLY))
    m.apply(bid("D", marks=1))
    declare = {**declare, "seat": "D"}
    assert declare in m.legal_actions()
    m.apply(declare)
    assert m.contract.trump == choice


def test_force_06_checks_after_the_choices_own_limits_and_changes_nothing_without_them():
    """FORCE-06 keeps NELLO-02 (a forced 30 is a point contract: no Nel-O) and CON-01
    (without nello "nello" is INVALID_TRUMP); with "any_contract" Nel-O is free again."""
    m = three_passes(start(variants={**FORCED_ONLY, "forced_bid": {
        "nello_sevens": "forced_only"}}))
    m.apply(bid("D", points=30))
    rejects(m, {"type": "trump", "seat": "D", "trump": "nello"}, "TRUMP_NOT_ALLOWED")
    m = start(variants={"forced_bid": {"nello_sevens": "forced_only"}})
    for seat in "ABC":
        m.apply(bid(seat, marks=2) if seat == "A" else passes(seat))
    m.apply(passes("D"))
    rejects(m, {"type": "trump", "seat": "A", "trump": "nello", "stacks": 1},
            "INVALID_TRUMP")
    m = start(variants={**FORCED_ONLY, "forced_bid": True})
    bid_and_declare(m, "A", {"marks": 1}, "nello", 1)
    assert m.contract.trump == "nello"


def forced_sweep(sweep_marks: int, **variants) -> Match:
    """SIXES with A the dealer: B, C, D pass, A bids the forced 30 and declares sixes, and
    A (all seven sixes) wins every trick it leads."""
    m = start(SIXES, dealer="A",
              variants={"forced_bid": {"sweep_marks": sweep_marks}, **variants})
    for seat in "BCD":
        m.apply(passes(seat))
    m.apply(bid("A", points=30))
    m.apply({"type": "trump", "seat": "A", "trump": 6})
    return play_out(m)


def test_force_07_a_swept_forced_30_scores_sweep_marks():
    """FORCE-07: all seven tricks: made for 2 marks with sweep_marks 2 (the stake stays
    1), 1 mark with the default."""
    m = forced_sweep(2)
    view = m.view()
    assert view["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 2}
    assert view["contract"]["stake"] == 1 and view["marks"] == {"AC": 2, "BD": 0}
    assert forced_sweep(1).view()["result"]["marks"] == 1


def test_force_08_a_forced_30_plays_on_while_it_can_sweep():
    """FORCE-08: with sweep_marks 2 the round goes on past 30 round points while the
    bidders win every trick; by default it ends at 30 (END-05)."""
    assert len(forced_sweep(2).tricks) == 7
    default = forced_sweep(1)
    assert len(default.tricks) < 7 and default.view()["points"]["AC"] >= 30


def test_force_09_no_sweep_bonus_under_match_points():
    """FORCE-09: with match_points sweep_marks is not read: played and scored as any point
    contract (MPTS-04: the bidders add their 42 round points, MPTS-09 play_out)."""
    m = forced_sweep(2, match_points={"end": "play_out"})
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 42}
    early = forced_sweep(2, match_points=True)
    assert len(early.tricks) < 7


def test_force_09_whatever_function_values_the_points_stake():
    """FORCE-09: sweep_marks is read only in a match scored by the marks game's stake
    (SCORE-01); a match_points whose stake is another function (an engine's own values)
    still does not read it."""
    from reference_impl import variants as v
    from reference_impl.rules import BASE_RULES

    own = v.OPTIONS["match_points"]._replace(
        changes=lambda s, rules: {**v.match_points(s, rules), "stake": lambda r, c: c.value})
    sweep = {"forced_bid": {"sweep_marks": 2}}
    points = v.rules_for({"match_points": True, **sweep}, {**v.OPTIONS, "match_points": own})
    assert points.outcome is BASE_RULES.outcome and points.score is not BASE_RULES.score
    assert v.rules_for(sweep).outcome is not BASE_RULES.outcome


# ---- bid_42 ------------------------------------------------------------------------


def test_fortytwo_01_the_option_has_one_setting():
    """FORTYTWO-01: `true`, `{}` or `contract` "points" (the default) or "marks"."""
    for value in (True, {}, {"contract": "points"}, {"contract": "marks"}):
        start(variants={"bid_42": value})
    for value in ({"max": 42}, {"contract": "mark"}, {"contract": 1}, {"contract": True}):
        with pytest.raises(IllegalAction):
            start(variants={"bid_42": value})


def test_fortytwo_02_point_bids_run_from_30_to_42():
    """FORTYTWO-02: 42 is a point bid; 43 and 29 are not."""
    m = start(variants={"bid_42": True})
    legal = m.legal_actions()
    assert bid("A", points=42) in legal and bid("A", points=43) not in legal
    rejects(m, bid("A", points=43), "POINT_BID_RANGE")
    rejects(m, bid("A", points=29), "POINT_BID_RANGE")
    m.apply(bid("A", points=41))
    m.apply(bid("B", points=42))
    m.apply(passes("C"))
    m.apply(passes("D"))
    assert m.view()["contract"]["bid"] == {"points": 42}


def test_fortytwo_03_42_ranks_with_one_mark():
    """FORTYTWO-03: after 42 a 1-mark bid is BID_TOO_LOW and only 2 marks may follow;
    after 1 mark, 42 is BID_TOO_LOW (BID-07); then marks rise by one."""
    m = start(variants={"bid_42": True})
    m.apply(bid("A", points=42))
    rejects(m, bid("B", marks=1), "BID_TOO_LOW")
    rejects(m, bid("B", points=42), "BID_TOO_LOW")
    rejects(m, bid("B", marks=3), "MARKS_BID_STEP")
    assert m.legal_actions() == [passes("B"), bid("B", marks=2)]
    m.apply(bid("B", marks=2))
    assert m.legal_actions() == [passes("C"), bid("C", marks=3)]
    m = start(variants={"bid_42": True})
    m.apply(bid("A", marks=1))
    rejects(m, bid("B", points=42), "BID_TOO_LOW")


def test_fortytwo_04_a_42_is_a_point_contract_made_only_with_every_trick():
    """FORTYTWO-04: no stacks, face-up tricks, stake 1; made with all 42 round points,
    set by the first trick the defenders win."""
    m = start(SIXES, variants={"bid_42": True})
    for seat in "ABCD":
        m.apply(bid(seat, points=42) if seat == "A" else passes(seat))
    rejects(m, {"type": "trump", "seat": "A", "trump": 6, "stacks": 1}, "STACKS_NOT_ALLOWED")
    m.apply({"type": "trump", "seat": "A", "trump": 6})
    assert m.view()["contract"]["stake"] == 1
    for _ in range(6):  # A leads a six each time and wins: 41 points or fewer so far
        for _ in range(4):
            m.apply(m.legal_actions()[0])
        assert m.phase == "playing" and m.view()["points"]["AC"] < 42
        assert all(c["tiles"] is not None for c in m.observe("B")["captured"])  # VIS-05
    play_out(m)
    view = m.view()
    assert view["points"]["AC"] == 42 and view["result"] == {
        "outcome": "made", "awarded_to": "AC", "marks": 1}


def test_fortytwo_04_a_42_is_set_by_a_blank_trick():
    """FORTYTWO-04: any trick the defenders win gives them at least 1 point: set."""
    m = bid_and_declare(start(EXAMPLE, variants={"bid_42": True}), "A", {"points": 42}, 6)
    play(m, "A 0|0", "B 0|3", "C 0|5", "D 0|6")  # D trumps with 0|6: a trick for BD
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 1}


def test_fortytwo_05_with_contract_marks_a_42_is_the_one_mark_contract():
    """FORTYTWO-05: stacks required, covered tricks, points hidden, contract.bid 1 mark
    while `bids` keeps the 42; made with all seven tricks, stake 1."""
    m = start(SIXES, variants={"bid_42": {"contract": "marks"}})
    for seat in "ABCD":
        m.apply(bid(seat, points=42) if seat == "A" else passes(seat))
    assert m.view()["contract"]["bid"] == {"marks": 1}
    assert m.view()["bids"][0] == bid("A", points=42)
    rejects(m, {"type": "trump", "seat": "A", "trump": 6}, "STACKS_REQUIRED")
    m.apply({"type": "trump", "seat": "A", "trump": 6, "stacks": 1})
    for _ in range(8):
        m.apply(m.legal_actions()[0])
    assert m.view()["points"] is None or m.observe("B")["points"] is None  # VIS-09
    assert m.observe("B")["captured"][0]["tiles"] is None  # VIS-06: covered
    play_out(m)
    assert m.view()["result"] == {"outcome": "made", "awarded_to": "AC", "marks": 1}


def test_fortytwo_05_bidding_is_unchanged_and_a_set_scores_one_mark():
    """FORTYTWO-05: 42 still ranks with 1 mark (FORTYTWO-03); a set 42 gives 1 mark."""
    m = start(variants={"bid_42": {"contract": "marks"}})
    m.apply(bid("A", points=42))
    rejects(m, bid("B", marks=1), "BID_TOO_LOW")
    assert m.legal_actions() == [passes("B"), bid("B", marks=2)]
    variants = {"bid_42": {"contract": "marks"}}
    m = bid_and_declare(start(EXAMPLE, variants=variants), "A", {"points": 42}, 6, stacks=2)
    play(m, "A 0|0", "B 0|3", "C 0|5", "D 0|6")  # D trumps with 0|6: a trick for BD
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 1}


def test_fortytwo_06_nello_and_sevens_may_be_declared_on_a_42_as_marks():
    """FORTYTWO-06: a 42 as 1 mark takes Nel-O with min_marks 1 (not with 2) and Sevens;
    the default reading still refuses both (FORTYTWO-04)."""
    def won_42(variants):
        m = start(SIXES, variants=variants)
        for seat in "ABCD":
            m.apply(bid(seat, points=42) if seat == "A" else passes(seat))
        return m

    marks = {"contract": "marks"}
    m = won_42({"bid_42": marks, "nello": {"min_marks": 1}, "sevens": True})
    for choice in ("nello", "sevens"):
        assert {"type": "trump", "seat": "A", "trump": choice, "stacks": 1} in m.legal_actions()
    m = won_42({"bid_42": marks, "nello": True})
    rejects(m, {"type": "trump", "seat": "A", "trump": "nello", "stacks": 1},
            "TRUMP_NOT_ALLOWED")
    m = won_42({"bid_42": True, "nello": {"min_marks": 1}, "sevens": True})
    rejects(m, {"type": "trump", "seat": "A", "trump": "sevens"}, "TRUMP_NOT_ALLOWED")


def test_fortytwo_06_a_forced_42_as_marks_is_a_forced_marks_contract():
    """FORTYTWO-06 with FORCE-05, FORCE-06: Sevens on a forced 42 (forced_only), not on
    an unforced one."""
    variants = {"bid_42": {"contract": "marks"}, "sevens": True,
                "forced_bid": {"bid": "any", "nello_sevens": "forced_only"}}
    sevens = {"type": "trump", "seat": "D", "trump": "sevens", "stacks": 1}
    m = three_passes(start(SIXES, dealer="D", variants=variants))
    m.apply(bid("D", points=42))
    assert m.view()["contract"]["bid"] == {"marks": 1} and sevens in m.legal_actions()
    m = start(SIXES, dealer="C", variants=variants)
    for seat in "DABC":
        m.apply(bid(seat, points=42) if seat == "D" else passes(seat))
    rejects(m, sevens, "TRUMP_NOT_ALLOWED")


# ---- plunge ------------------------------------------------------------------------


def test_plunge_01_the_option_has_one_setting():
    """PLUNGE-01: `true`, `{}` or `when` "before_bids" (the default) or "any_time"."""
    for value in (True, {}, {"when": "before_bids"}, {"when": "any_time"}):
        start(variants={"plunge": value})
    for value in ({"doubles": 5}, {"when": "always"}, {"when": True}):
        with pytest.raises(IllegalAction):
            start(variants={"plunge": value})


def test_plunge_02_four_doubles_before_any_bid():
    """PLUNGE-02: with four doubles a seat may plunge (legal, after the marks bids); with
    three it may not; after a bid nobody may; passes do not count."""
    m = start(DOUBLES4, variants={"plunge": True})
    assert m.legal_actions()[-1] == bid("A", plunge=True)
    m.apply(passes("A"))
    rejects(m, bid("B", plunge=True), "PLUNGE_NOT_ALLOWED")  # three doubles
    m = start(DOUBLES4, dealer="C", variants={"plunge": True})  # D bids first, then A
    m.apply(bid("D", points=30))
    assert bid("A", plunge=True) not in m.legal_actions()
    rejects(m, bid("A", plunge=True), "PLUNGE_NOT_ALLOWED")
    m = start(DOUBLES4, dealer="B", variants={"plunge": True})  # C, D pass; A may plunge
    m.apply(passes("C"))
    m.apply(passes("D"))
    m.apply(bid("A", plunge=True))
    assert m.view()["bids"][-1] == bid("A", plunge=True)


def test_plunge_02_malformed_plunge_fields():
    """PLUNGE-02 / DIG-01: with the option a bid has exactly one of points, marks and
    plunge, and plunge is true."""
    m = start(DOUBLES4, variants={"plunge": True})
    for action in (bid("A", plunge=False), bid("A", plunge=1), bid("A", plunge=None),
                   bid("A", plunge=True, marks=4), bid("A", plunge=True, points=30),
                   {"type": "bid", "seat": "A"}):
        rejects(m, action, "MALFORMED_ACTION")


def test_plunge_03_a_plunge_is_four_marks_outbid_only_by_five():
    """PLUNGE-03: 4 marks as the first marks bid; after it a point bid is BID_TOO_LOW and
    the only marks bid is 5; after 1 or 2 marks a plunge is MARKS_BID_STEP, after 3 marks
    PLUNGE_NOT_ALLOWED."""
    m = start(DOUBLES4, variants={"plunge": True})
    m.apply(bid("A", plunge=True))
    rejects(m, bid("B", points=41), "BID_TOO_LOW")
    rejects(m, bid("B", marks=4), "MARKS_BID_STEP")
    assert m.legal_actions() == [passes("B"), bid("B", marks=5)]
    m.apply(bid("B", marks=5))
    m.apply(passes("C"))
    m.apply(passes("D"))
    assert m.view()["contract"]["declarer"] == "B"
    assert m.view()["contract"]["bid"] == {"marks": 5}
    for before, code in ((1, "MARKS_BID_STEP"), (2, "MARKS_BID_STEP"),
                         (3, "PLUNGE_NOT_ALLOWED")):
        m = start(DOUBLES4, dealer="A", variants={"plunge": True})  # B bids first
        m.apply(bid("B", marks=1 if before == 1 else 2))
        if before == 3:
            m.apply(bid("C", marks=3))
        else:
            m.apply(passes("C"))
        m.apply(passes("D"))
        rejects(m, bid("A", plunge=True), code)


def test_plunge_04_the_partner_declares_and_leads():
    """PLUNGE-04: the contract's declarer is the partner, bid {marks: 4}, stake 4; the
    plunger's declaration is NOT_YOUR_TURN; the bids keep the plunge."""
    m = start(DOUBLES4, variants={"plunge": True})
    m.apply(bid("A", plunge=True))
    for seat in "BCD":
        m.apply(passes(seat))
    contract = m.view()["contract"]
    assert contract == {"declarer": "C", "team": "AC", "bid": {"marks": 4}, "stake": 4,
                        "trump": None, "stacks": None}
    assert m.to_act == "C" and m.view()["bids"][0] == bid("A", plunge=True)
    rejects(m, {"type": "trump", "seat": "A", "trump": "doubles", "stacks": 1},
            "NOT_YOUR_TURN")
    m.apply({"type": "trump", "seat": "C", "trump": "doubles", "stacks": 1})
    assert m.to_act == "C"
    rejects(m, {"type": "play", "seat": "A", "tile": "3|3"}, "NOT_YOUR_TURN")


def test_plunge_05_no_nello_on_a_plunge():
    """PLUNGE-05: TRUMP_NOT_ALLOWED, and nello is not among the partner's legal choices;
    Sevens is."""
    m = start(DOUBLES4, variants={"plunge": True, "nello": {"min_marks": 1},
                                  "sevens": True})
    m.apply(bid("A", plunge=True))
    for seat in "BCD":
        m.apply(passes(seat))
    rejects(m, {"type": "trump", "seat": "C", "trump": "nello", "stacks": 1},
            "TRUMP_NOT_ALLOWED")
    trumps = {a["trump"] for a in m.legal_actions()}
    assert "nello" not in trumps and "sevens" in trumps


def test_plunge_06_made_and_set_as_any_marks_contract():
    """PLUNGE-06: set by the first trick the defenders win: 4 marks to them."""
    m = start(DOUBLES4, variants={"plunge": True})
    m.apply(bid("A", plunge=True))
    for seat in "BCD":
        m.apply(passes(seat))
    m.apply({"type": "trump", "seat": "C", "trump": 6, "stacks": 1})
    play(m, "C 1|6", "D 3|6")  # D's 3|6 beats 1|6 in trump sixes
    play(m, "A 0|1", "B 0|6")
    assert m.view()["result"] == {"outcome": "set", "awarded_to": "BD", "marks": 4}
    assert "3|3" in m.observe("A")["hand"] and "3|3" not in str(m.observe("B"))


def test_plunge_04_a_plunge_round_trips_through_json():
    """PLUNGE-04 with to_json: the plunge is replayed as `bid:plunge`."""
    m = start(DOUBLES4, variants={"plunge": True})
    m.apply(bid("A", plunge=True))
    data = m.to_json()
    assert data["actions"] == ["A bid:plunge"]
    assert Match.from_json(data) == m


# ---- plunge when: "any_time" (PLUNGE-07, PLUNGE-08) ----------------------------------

PLUNGE = {"type": "bid", "seat": "A", "plunge": True}
ANY_TIME = {"plunge": {"when": "any_time"}}


def test_plunge_07_a_plunge_jumps_to_four_over_a_lower_bid():
    """PLUNGE-07: over a point bid or 2 marks A's plunge is 4 marks; C declares."""
    for first in ({"points": 35}, {"marks": 2}):
        m = start(DOUBLES4, dealer="C", variants=ANY_TIME)  # D bids first, then A
        m.apply(bid("D", **first))
        assert PLUNGE in m.legal_actions()
        m.apply(PLUNGE)
        assert m.legal_actions() == [passes("B"), bid("B", marks=5)]
        m.apply(passes("B"))
        m.apply(passes("C"))
        assert m.view()["contract"]["bid"] == {"marks": 4}
        assert m.view()["contract"]["declarer"] == "C"
    m = start(DOUBLES4, dealer="C", variants={"plunge": True})  # the default: refused
    m.apply(bid("D", points=35))
    rejects(m, PLUNGE, "PLUNGE_NOT_ALLOWED")


def test_plunge_07_five_over_a_four_and_none_over_five():
    """PLUNGE-07: over 4 marks the plunge bids 5; over 5 it is MARKS_BID_STEP."""
    m = start(DOUBLES4, dealer="A", variants=ANY_TIME)  # B, C, D, then A
    for seat, marks in (("B", 2), ("C", 3), ("D", 4)):
        m.apply(bid(seat, marks=marks))
    m.apply(PLUNGE)
    assert m.view()["contract"]["bid"] == {"marks": 5}
    assert m.view()["contract"]["stake"] == 5 and m.view()["contract"]["declarer"] == "C"
    # B's splash (three doubles, 3 marks), then 4 and 5: a plunge over 5 is refused,
    # while one over the splash would have been 4 (PLUNGE-08)
    m = start(DOUBLES4, dealer="A", variants={**ANY_TIME, "splash": True})
    m.apply({"type": "bid", "seat": "B", "splash": True})
    m.apply(bid("C", marks=4))
    m.apply(bid("D", marks=5))
    rejects(m, PLUNGE, "MARKS_BID_STEP")
    assert PLUNGE not in m.legal_actions()


def test_plunge_07_fewer_doubles_is_still_refused():
    """PLUNGE-07: B, with three doubles, may not plunge over a bid."""
    m = start(DOUBLES4, dealer="D", variants=ANY_TIME)
    m.apply(bid("A", points=30))
    rejects(m, {"type": "bid", "seat": "B", "plunge": True}, "PLUNGE_NOT_ALLOWED")


def test_plunge_08_plunge_terms_marks_jump_and_match_points_value():
    """PLUNGE-08: under plunge_terms marks 3 the jump is 3 (4 over a 3); with
    match_points a 5-mark plunge is worth 210."""
    variants = {**ANY_TIME, "plunge_terms": {"marks": 3, "leader": "partner"}}
    m = start(DOUBLES4, dealer="C", variants=variants)
    m.apply(bid("D", marks=2))
    m.apply(PLUNGE)
    m.apply(passes("B"))
    m.apply(passes("C"))
    assert m.view()["contract"]["bid"] == {"marks": 3}
    m = start(DOUBLES4, dealer="A", variants={**ANY_TIME, "match_points": True})
    for seat, marks in (("B", 2), ("C", 3), ("D", 4)):
        m.apply(bid(seat, marks=marks))
    m.apply(PLUNGE)
    assert m.view()["contract"]["stake"] == 210
    m = start(DOUBLES4, dealer="A", variants={"plunge_terms": {"marks": 3}})
    m.apply(bid("B", marks=2))
    rejects(m, {"type": "bid", "seat": "C", "plunge": True}, "PLUNGE_NOT_ALLOWED")



def test_plunge_08_a_plunge_over_a_splash_and_over_a_42():
    """PLUNGE-08: 4 marks over a splash of 3 and over a 42 (which ranks as 1 mark)."""
    m = start(DOUBLES4, dealer="A", variants={**ANY_TIME, "splash": True})
    m.apply({"type": "bid", "seat": "B", "splash": True})
    m.apply(passes("C"))
    m.apply(passes("D"))
    m.apply(PLUNGE)
    assert m.view()["contract"]["bid"] == {"marks": 4}
    m = start(DOUBLES4, dealer="C", variants={**ANY_TIME, "bid_42": True})
    m.apply(bid("D", points=42))
    m.apply(PLUNGE)
    assert m.legal_actions() == [passes("B"), bid("B", marks=5)]


# ---- plunge_terms double_six and raise, splash marks "bid" and when (issue 28) ---------

# A holds four doubles with 6|6 (3|3 4|4 5|5 6|6); B three (0|0 1|1 2|2).
SIX_SIX4 = {"A": ["3|3", "4|4", "5|5", "6|6", "0|1", "0|2", "0|3"],
            "B": ["0|0", "1|1", "2|2", "0|4", "0|5", "0|6", "1|3"],
            "C": ["1|4", "1|5", "1|6", "2|4", "2|5", "2|6", "3|4"],
            "D": ["1|2", "2|3", "3|5", "3|6", "4|5", "4|6", "5|6"]}
SIX_SIX = {"plunge_terms": {"double_six": "required", "leader": "partner"}}


def error_of(m, action):
    try:
        m.apply(action)
    except IllegalAction as error:
        return error.code, error.rule
    raise AssertionError(f"{action!r} was accepted")


def test_pterms_10_a_plunge_without_six_six_is_refused():
    """PTERMS-10: four doubles without 6|6 may not plunge (after the count); with 6|6
    they may; the default asks only for the count."""
    m = start(DOUBLES4, variants=SIX_SIX)
    assert error_of(m, PLUNGE) == ("PLUNGE_NOT_ALLOWED", "PTERMS-10")
    assert PLUNGE not in m.legal_actions()
    m = start(SIX_SIX4, variants=SIX_SIX)
    m.apply(PLUNGE)
    assert m.view()["contract"] is None and m.view()["bids"][-1] == PLUNGE
    start(DOUBLES4, variants={"plunge_terms": {"leader": "partner"}}).apply(PLUNGE)
    # a hand short of the count is refused for the count (PTERMS-02: plunge_terms' count
    # of PLUNGE-02), 6|6 or not
    m = start(SIX_SIX4, dealer="A", variants=SIX_SIX)
    assert error_of(m, {"type": "bid", "seat": "B", "plunge": True}) == (
        "PLUNGE_NOT_ALLOWED", "PTERMS-02")


def test_pterms_10_a_declared_plunge_needs_six_six():
    """PTERMS-10 with announce "declaration": TRUMP_NOT_ALLOWED without 6|6."""
    terms = {"announce": "declaration", "marks": 2, "double_six": "required"}
    declare = {"type": "trump", "seat": "A", "trump": "plunge"}
    for dealt, allowed in ((DOUBLES4, False), (SIX_SIX4, True)):
        m = start(dealt, variants={"plunge_terms": terms})
        m.apply(bid("A", marks=2))
        for seat in "BCD":
            m.apply(passes(seat))
        if allowed:
            m.apply(declare)
            assert m.view()["to_act"] == "C"
        else:
            assert error_of(m, declare) == ("TRUMP_NOT_ALLOWED", "PTERMS-10")


def test_pterms_11_a_declared_plunge_raises_the_contract_by_a_mark():
    """PTERMS-11: 2 marks bid, the plunge declared: a contract of 3 marks (126 points
    with match_points); the bid stays 2 marks; raise 0 keeps 2."""
    for raised, extra, stake in ((1, {}, 3), (1, {"match_points": True}, 126), (0, {}, 2)):
        terms = {"announce": "declaration", "marks": 2, "raise": raised}
        m = start(DOUBLES4, variants={"plunge_terms": terms, **extra})
        m.apply(bid("A", marks=2))
        for seat in "BCD":
            m.apply(passes(seat))
        m.apply({"type": "trump", "seat": "A", "trump": "plunge"})
        contract = m.view()["contract"]
        assert contract["bid"] == {"marks": 2 + raised} and contract["stake"] == stake
        assert m.view()["bids"][0] == bid("A", marks=2)


CHOOSE = {"splash": {"marks": "bid"}}


def splash(seat, value=True):
    return {"type": "bid", "seat": seat, "splash": value}


def test_splash_06_the_splasher_chooses_two_or_three():
    """SPLASH-06: the bid carries 2 or 3; `true` is malformed, 4 MARKS_BID_STEP; the
    contract is the marks carried, the bid kept as made."""
    m = start(SIX_SIX4, dealer="A", variants=CHOOSE)  # B bids first: three doubles
    assert m.legal_actions()[-2:] == [splash("B", 2), splash("B", 3)]
    rejects(m, splash("B"), "MALFORMED_ACTION")
    assert error_of(m, splash("B", 4)) == ("MARKS_BID_STEP", "SPLASH-06")
    m.apply(splash("B", 2))
    assert m.legal_actions() == [passes("C"), bid("C", marks=3)]
    for seat in "CDA":
        m.apply(passes(seat))
    contract = m.view()["contract"]
    assert contract["bid"] == {"marks": 2} and contract["declarer"] == "D"
    assert m.view()["bids"][0] == splash("B", 2)
    rejects(start(variants={"splash": True}), splash("A", 3), "MALFORMED_ACTION")
    # after a point bid, and after a marks bid of n - 1, PLUNGE_NOT_ALLOWED
    m = start(SIX_SIX4, dealer="D", variants=CHOOSE)
    m.apply(bid("A", marks=2))
    assert error_of(m, splash("B", 3))[0] == "PLUNGE_NOT_ALLOWED"
    assert error_of(m, splash("B", 2))[0] == "MARKS_BID_STEP"


def test_splash_07_a_splash_jumps_over_earlier_bids():
    """SPLASH-07: over a point bid 3 marks, over 3 marks 4, over 4 MARKS_BID_STEP; with
    marks "bid", only over fewer marks than it carries."""
    jumps = {"splash": {"when": "any_time"}}
    m = start(SIX_SIX4, dealer="D", variants=jumps)
    m.apply(bid("A", points=34))
    m.apply(splash("B"))
    assert m.view()["bids"][-1] == splash("B")
    m = start(SIX_SIX4, dealer="D", variants=jumps)
    m.apply(bid("A", marks=2))
    rejects(m, splash("B", 2), "MALFORMED_ACTION")
    m.apply(splash("B"))
    for seat in "CD":
        m.apply(passes(seat))
    assert m.view()["contract"]["bid"] == {"marks": 3}
    m = start(SIX_SIX4, dealer="C", variants=jumps)  # D, A, B
    m.apply(bid("D", marks=2))
    m.apply(bid("A", marks=3))
    m.apply(splash("B"))
    m.apply(passes("C"))
    assert m.view()["contract"]["bid"] == {"marks": 4}
    m = start(SIX_SIX4, dealer="C", variants=jumps)
    m.apply(bid("D", marks=2))
    m.apply(bid("A", marks=3))
    m.apply(bid("B", marks=4))
    m.apply(passes("C"))  # the round is over before any further splash
    m = start(SIX_SIX4, dealer="B", variants=jumps)  # C, D, A, B
    for seat, marks in (("C", 2), ("D", 3), ("A", 4)):
        m.apply(bid(seat, marks=marks))
    assert error_of(m, splash("B")) == ("MARKS_BID_STEP", "SPLASH-07")
    both = {"splash": {"when": "any_time", "marks": "bid"}}
    m = start(SIX_SIX4, dealer="D", variants=both)
    m.apply(bid("A", marks=2))
    assert error_of(m, splash("B", 2)) == ("MARKS_BID_STEP", "SPLASH-07")
    m.apply(splash("B", 3))
    assert m.legal_actions() == [passes("C"), bid("C", marks=4)]


# ---- plunge and splash when: "raise" (PLUNGE-09, PLUNGE-10, SPLASH-08; issue 41) -------

RAISES = {"plunge": {"when": "raise"}}


def test_plunge_09_a_plunge_raises_the_bid_before_it_by_four():
    """PLUNGE-09: over point bids only 4 marks; over 2 marks 6; over 4 marks 8; over 5
    marks 9 (no cap); the partner declares and `bids` keeps the plunge as made."""
    m = start(DOUBLES4, dealer="C", variants=RAISES)  # D bids first, then A
    m.apply(bid("D", points=35))
    m.apply(PLUNGE)
    assert m.legal_actions() == [passes("B"), bid("B", marks=5)]
    m = start(DOUBLES4, dealer="C", variants=RAISES)
    m.apply(bid("D", marks=2))
    assert PLUNGE in m.legal_actions()
    m.apply(PLUNGE)
    assert m.legal_actions() == [passes("B"), bid("B", marks=7)]  # BID-06 after it
    m = start(DOUBLES4, dealer="A", variants=RAISES)  # B, C, D, then A
    for seat, marks in (("B", 2), ("C", 3), ("D", 4)):
        m.apply(bid(seat, marks=marks))
    m.apply(PLUNGE)
    contract = m.view()["contract"]
    assert contract["bid"] == {"marks": 8} and contract["stake"] == 8
    assert contract["declarer"] == "C" and m.view()["bids"][-1] == PLUNGE
    assert Match.from_json(m.to_json()) == m
    m = start(DOUBLES4, dealer="A", variants={**RAISES, "marks_raise": True})
    for seat, marks in (("B", 2), ("C", 4), ("D", 5)):
        m.apply(bid(seat, marks=marks))
    m.apply(PLUNGE)
    assert m.view()["contract"]["bid"] == {"marks": 9}


def test_plunge_09_fewer_doubles_is_refused_and_any_time_still_jumps():
    """PLUNGE-09: B, with three doubles, may not plunge after a bid; `any_time` (PLUNGE-07)
    still bids 4 over 2 marks where `raise` bids 6."""
    m = start(DOUBLES4, dealer="D", variants=RAISES)
    m.apply(bid("A", points=30))
    assert error_of(m, {"type": "bid", "seat": "B", "plunge": True})[0] == \
        "PLUNGE_NOT_ALLOWED"
    m = start(DOUBLES4, dealer="C", variants=ANY_TIME)
    m.apply(bid("D", marks=2))
    m.apply(PLUNGE)
    assert m.legal_actions() == [passes("B"), bid("B", marks=5)]


def test_plunge_10_plunge_terms_splash_marks_raise_and_match_points():
    """PLUNGE-10: the plunge of plunge_terms raises by its `marks`; a plunge raises a
    splash by 4 and a raising splash a plunge by 3; marks_raise allows one or two more
    after it; match_points values it at 42 a mark."""
    m = start(DOUBLES4, dealer="C", variants={**RAISES, "plunge_terms": {"marks": 3}})
    m.apply(bid("D", marks=2))
    m.apply(PLUNGE)
    assert m.legal_actions() == [passes("B"), bid("B", marks=6)]
    both = {**RAISES, "splash": {"when": "raise"}}
    m = start(SIX_SIX4, dealer="D", variants=both)  # A: four doubles, B: three
    m.apply(PLUNGE)
    m.apply(splash("B"))
    for seat in "CD":
        m.apply(passes(seat))
    assert m.view()["contract"]["bid"] == {"marks": 7}
    assert m.view()["contract"]["declarer"] == "D"
    m = start(SIX_SIX4, dealer="C", variants=both)  # D, A, B, C
    m.apply(bid("D", marks=2))
    m.apply(splash("A"))  # A holds four doubles, so three too (SPLASH-02)
    m.apply(bid("B", marks=6))
    m = start(SIX_SIX4, dealer="D", variants={**RAISES, "splash": True})  # before_bids
    m.apply(PLUNGE)
    assert error_of(m, splash("B"))[0] == "MARKS_BID_STEP"
    m = start(DOUBLES4, dealer="C", variants={**RAISES, "marks_raise": True})
    m.apply(bid("D", marks=2))
    m.apply(PLUNGE)
    assert m.legal_actions() == [passes("B"), bid("B", marks=7), bid("B", marks=8)]
    m = start(DOUBLES4, dealer="C", variants={**RAISES, "match_points": True})
    m.apply(bid("D", marks=2))
    m.apply(PLUNGE)
    for seat in "BC":
        m.apply(passes(seat))
    assert m.view()["contract"]["stake"] == 42 * 6  # MPTS-03: 6 marks, linear


def test_splash_08_a_splash_raises_the_bid_before_it_by_its_marks():
    """SPLASH-08 (the Lechner Hall rules): 3 over a point bid, 5 over 2 marks, 7 over 4;
    with marks "bid" the splash carries its raise (2 or 3), kept as made; fewer than three
    doubles is refused."""
    raises = {"splash": {"when": "raise"}}
    m = start(SIX_SIX4, dealer="D", variants=raises)  # A, B, C, D; B holds three doubles
    m.apply(bid("A", points=34))
    m.apply(splash("B"))
    for seat in "CD":
        m.apply(passes(seat))
    assert m.view()["contract"]["bid"] == {"marks": 3}
    m = start(SIX_SIX4, dealer="D", variants=raises)
    m.apply(bid("A", marks=2))
    m.apply(splash("B"))
    assert m.legal_actions() == [passes("C"), bid("C", marks=6)]
    m = start(SIX_SIX4, dealer="B", variants=raises)  # C, D, A, B
    for seat, marks in (("C", 2), ("D", 3), ("A", 4)):
        m.apply(bid(seat, marks=marks))
    m.apply(splash("B"))
    assert m.view()["contract"]["bid"] == {"marks": 7}
    assert m.view()["contract"]["declarer"] == "D"
    m = start(SIX_SIX4, dealer="D", variants=raises)
    m.apply(bid("A", marks=2))
    m.apply(passes("B"))
    assert error_of(m, splash("C"))[0] == "PLUNGE_NOT_ALLOWED"  # C holds no double
    chosen = {"splash": {"when": "raise", "marks": "bid"}}
    m = start(SIX_SIX4, dealer="D", variants=chosen)
    m.apply(bid("A", marks=2))
    assert [a for a in m.legal_actions() if "splash" in a] == [splash("B", 2), splash("B", 3)]
    assert error_of(m, splash("B", 4)) == ("MARKS_BID_STEP", "SPLASH-06")
    m.apply(splash("B", 2))
    assert m.view()["bids"][-1] == splash("B", 2)
    assert m.legal_actions() == [passes("C"), bid("C", marks=5)]
    assert Match.from_json(m.to_json()) == m


# ---- first_bidder (issue 28) ---------------------------------------------------------

# C holds 0|1.
HOLDER_C = {"A": ["3|3", "4|4", "5|5", "6|6", "1|4", "0|2", "0|3"],
            "B": ["0|0", "1|1", "2|2", "0|4", "0|5", "0|6", "1|3"],
            "C": ["0|1", "1|5", "1|6", "2|4", "2|5", "2|6", "3|4"],
            "D": ["1|2", "2|3", "3|5", "3|6", "4|5", "4|6", "5|6"]}
FIRST = {"first_bidder": True}


def test_first_01_value_is_true_or_empty():
    """FIRST-01: no settings."""
    for value in (True, {}):
        start(variants={"first_bidder": value})
    for value in ({"seat": "A"}, False, 1):
        with pytest.raises(IllegalAction):
            start(variants={"first_bidder": value})


def test_first_02_the_holder_of_0_1_bids_first_and_the_deal_passes_on():
    """FIRST-02: C holds 0|1: C, D, A, B; after four passes the next dealer is A."""
    m = start(HOLDER_C, dealer="D", variants=FIRST)
    assert m.view()["to_act"] == "C" and m.view()["dealer"] == "D"
    rejects(m, passes("A"), "NOT_YOUR_TURN")
    for seat in "CDAB":
        assert m.view()["to_act"] == seat
        m.apply(passes(seat))
    assert m.view()["result"]["outcome"] == "all_passed"
    m.deal({"hands": HOLDER_C})
    assert m.view()["dealer"] == "A" and m.view()["to_act"] == "C"


def test_first_03_the_last_bidder_ends_the_bidding():
    """FIRST-03: after B, the last bidder, the highest bid wins."""
    m = start(HOLDER_C, dealer="D", variants=FIRST)
    m.apply(bid("C", points=30))
    m.apply(bid("D", points=31))
    m.apply(passes("A"))
    assert m.phase == "bidding"
    m.apply(passes("B"))
    assert m.phase == "declaring" and m.view()["contract"]["declarer"] == "D"


def test_first_04_the_last_bidder_is_forced():
    """FIRST-04: with forced_bid the last bidder (B), not the dealer (D), may not pass
    after three passes."""
    m = start(HOLDER_C, dealer="D", variants={**FIRST, "forced_bid": True})
    for seat in "CDA":
        m.apply(passes(seat))
    rejects(m, passes("B"), "FORCED_BID")
    m.apply(bid("B", points=30))
    assert m.view()["contract"]["declarer"] == "B"


def test_force_10_the_forced_bid_is_at_least_31():
    """FORCE-10: with bid "at_least_31" the forced dealer may not bid 30; 31 and marks
    bids are accepted; an unforced 30 stays legal."""
    m = three_passes(start(variants={"forced_bid": {"bid": "at_least_31"}}))
    rejects(m, bid("D", points=30), "FORCED_BID")
    legal = m.legal_actions()
    assert bid("D", points=31) in legal and bid("D", marks=2) in legal
    assert bid("D", points=30) not in legal and passes("D") not in legal
    m.apply(bid("D", points=31))
    assert m.view()["contract"]["bid"] == {"points": 31}
    m = start(variants={"forced_bid": {"bid": "at_least_31"}})
    m.apply(bid("A", points=30))
    assert m.view()["bids"][0] == bid("A", points=30)


# ---- marks_raise (issue 28) ----------------------------------------------------------

RAISE = {"marks_raise": True}


def test_raise_01_no_settings():
    """RAISE-01: true or {}; any setting is INVALID_SETUP."""
    for value in (True, {}):
        start(variants={"marks_raise": value})
    with pytest.raises(IllegalAction):
        start(variants={"marks_raise": {"max": 2}})


def test_raise_02_a_marks_bid_raises_by_one_or_two():
    """RAISE-02: after 2 marks, 3 or 4 (5 is MARKS_BID_STEP); four bids reach 8."""
    m = start(variants=RAISE)
    m.apply(bid("A", marks=2))
    assert m.legal_actions() == [passes("B"), bid("B", marks=3), bid("B", marks=4)]
    assert error_of(m, bid("B", marks=5)) == ("MARKS_BID_STEP", "RAISE-02")
    rejects(m, bid("B", points=41), "BID_TOO_LOW")
    for seat, marks in (("B", 4), ("C", 6), ("D", 8)):
        m.apply(bid(seat, marks=marks))
    assert m.view()["contract"]["bid"] == {"marks": 8}
    rejects(start(variants=RAISE), bid("A", marks=3), "MARKS_BID_STEP")  # BID-05


def test_raise_03_special_bids_count_as_their_marks():
    """RAISE-03: after a plunge of 4, 5 or 6; a plunge after 2 marks passes the step and
    is PLUNGE_NOT_ALLOWED, after 1 mark MARKS_BID_STEP."""
    m = start(DOUBLES4, variants={**RAISE, "plunge": True})
    m.apply(PLUNGE)
    assert m.legal_actions()[-2:] == [bid("B", marks=5), bid("B", marks=6)]
    for first, code in ((2, "PLUNGE_NOT_ALLOWED"), (1, "MARKS_BID_STEP")):
        m = start(DOUBLES4, dealer="C", variants={**RAISE, "plunge": True})
        m.apply(bid("D", marks=first))
        rejects(m, PLUNGE, code)
