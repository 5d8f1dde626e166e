"""Bidding: BID-01..BID-10."""

from .support import bid_and_declare, rejects, start


def bid(seat, **kw):
    return {"type": "bid", "seat": seat, **kw}


def passes(seat):
    return {"type": "pass", "seat": seat}


def test_bid_01_once_around_from_the_dealers_left_ending_with_the_dealer():
    """BID-01: each seat acts once, starting left of the dealer; then bidding is over."""
    m = start(dealer="A")
    order = []
    for points in (30, 31, 32, 33):
        order.append(m.to_act)
        m.apply(bid(m.to_act, points=points))
    assert order == ["B", "C", "D", "A"]
    assert m.phase == "declaring" and m.to_act == "A"
    rejects(m, passes("B"), "WRONG_PHASE")


def test_bid_02_point_bids_run_from_30_to_41():
    """BID-02: 29 and 42 are out of range; 30 and 41 are point bids."""
    m = start()
    for points in (29, 42, 0, -1, 100):
        rejects(m, bid("A", points=points), "POINT_BID_RANGE")
    m.apply(bid("A", points=30))
    m.apply(bid("B", points=41))
    assert [b.get("points") for b in m.view()["bids"]] == [30, 41]


def test_bid_03_a_point_bid_must_beat_every_earlier_point_bid():
    """BID-03: equal is not higher."""
    m = start()
    m.apply(bid("A", points=35))
    rejects(m, bid("B", points=35), "BID_TOO_LOW")
    rejects(m, bid("B", points=34), "BID_TOO_LOW")
    m.apply(bid("B", points=36))
    m.apply(passes("C"))
    rejects(m, bid("D", points=35), "BID_TOO_LOW")


def test_bid_04_any_marks_bid_outranks_every_point_bid():
    """BID-04: 1 mark after 41 points is legal and wins the contract."""
    m = start()
    m.apply(bid("A", points=41))
    assert bid("B", marks=1) in m.legal_actions()
    m.apply(bid("B", marks=1))
    m.apply(passes("C"))
    m.apply(passes("D"))
    assert m.view()["contract"]["declarer"] == "B"
    assert m.view()["contract"]["bid"] == {"marks": 1}


def test_bid_05_first_marks_bid_is_one_or_two():
    """BID-05: the first marks bid of a round is 1 or 2 marks."""
    m = start()
    for marks in (0, 3, 4, -1):
        rejects(m, bid("A", marks=marks), "MARKS_BID_STEP")
    assert [a for a in m.legal_actions() if "marks" in a] == [bid("A", marks=1),
                                                              bid("A", marks=2)]
    m.apply(bid("A", marks=2))


def test_bid_06_each_later_marks_bid_exactly_one_more():
    """BID-06: after 2 only 3, after 3 only 4; one pass around reaches 5."""
    m = start()
    m.apply(bid("A", marks=2))
    for marks in (1, 2, 4, 5):
        rejects(m, bid("B", marks=marks), "MARKS_BID_STEP")
    m.apply(bid("B", marks=3))
    m.apply(bid("C", marks=4))
    assert [a for a in m.legal_actions() if a["type"] == "bid"] == [bid("D", marks=5)]
    m.apply(bid("D", marks=5))
    assert m.view()["contract"]["bid"] == {"marks": 5}
    assert m.view()["contract"]["stake"] == 5


def test_bid_07_no_point_bid_after_a_marks_bid():
    """BID-07: once a marks bid is made, a point bid is too low, even 41."""
    m = start()
    m.apply(bid("A", marks=1))
    rejects(m, bid("B", points=41), "BID_TOO_LOW")
    assert m.legal_actions() == [passes("B"), bid("B", marks=2)]


def test_bid_08_the_highest_bid_wins_the_contract():
    """BID-08: marks beat points, larger beats smaller; the bidder declares."""
    m = start()
    for action in (bid("A", points=30), bid("B", points=35), passes("C"), passes("D")):
        m.apply(action)
    contract = m.view()["contract"]
    assert (contract["declarer"], contract["bid"], contract["trump"]) == ("B", {"points": 35},
                                                                         None)
    assert m.phase == "declaring" and m.to_act == "B"


def test_bid_09_four_passes_end_the_round_with_nothing_awarded():
    """BID-09: all_passed, no marks, no contract; it may repeat without a cap."""
    m = start(marks={"AC": 3, "BD": 4})
    for _ in range(3):
        for _ in range(4):
            m.apply(passes(m.to_act))
        view = m.view()
        assert view["phase"] == "round_over" and view["contract"] is None
        assert view["result"] == {"outcome": "all_passed", "awarded_to": None, "marks": 0}
        assert view["marks"] == {"AC": 3, "BD": 4}
        m.deal({"hands": view["hands"]})


def test_bid_10_no_pass_outside_bidding():
    """BID-10: a pass while declaring, playing or after the round is WRONG_PHASE."""
    m = start()
    for _ in range(3):
        m.apply(passes(m.to_act))
    m.apply(bid("D", points=30))
    rejects(m, passes("D"), "WRONG_PHASE")
    m.apply({"type": "trump", "seat": "D", "trump": 6})
    rejects(m, passes("D"), "WRONG_PHASE")
    m = bid_and_declare(start(), "A", {"points": 30}, 6)
    rejects(m, passes("A"), "WRONG_PHASE")
