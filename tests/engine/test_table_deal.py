"""Table, tiles and the deal: TBL-01, TBL-02, TIL-01, TIL-02, DEAL-01..DEAL-06."""

import pytest

from reference_impl import IllegalAction, Match
from reference_impl.tiles import NAMES, PIPS, TILE_COUNT

from .support import EXAMPLE, SIXES, bid_and_declare, play, rejects, start


def test_tbl_01_turns_go_clockwise_and_a_follows_d():
    """TBL-01: A, B, C, D clockwise; the seat after D is A."""
    m = start(dealer="B")
    seen = []
    for _ in range(4):
        seen.append(m.to_act)
        m.apply({"type": "pass", "seat": m.to_act})
    assert seen == ["C", "D", "A", "B"]


def test_tbl_02_partners_sit_opposite():
    """TBL-02: B's bid is team BD's contract; C and A score together."""
    m = bid_and_declare(start(), "B", {"points": 30}, 6)
    assert m.view()["contract"]["team"] == "BD"
    m = bid_and_declare(start(SIXES), "A", {"points": 30}, 6)
    play(m, "A 4|6", "B 5|5", "C 0|5", "D 1|4")
    assert m.view()["result"]["awarded_to"] == "AC"


def test_til_01_twenty_eight_distinct_tiles_of_double_six():
    """TIL-01: every pair a|b with 0 <= a <= b <= 6 once, 0|0 included."""
    assert TILE_COUNT == 28 and len(set(NAMES)) == 28
    assert {(a, b) for a, b in PIPS} == {(a, b) for a in range(7) for b in range(a, 7)}
    dealt = [t for hand in Match.from_seed(7).view()["hands"].values() for t in hand]
    assert sorted(dealt) == sorted(NAMES)


def test_til_02_tiles_written_small_first_and_sorted_canonically():
    """TIL-02: `a|b` with a <= b; canonical order by a then b; "5|3" is not a tile."""
    assert list(NAMES) == sorted(NAMES, key=lambda n: tuple(map(int, n.split("|"))))
    assert NAMES[0] == "0|0" and NAMES[6] == "0|6" and NAMES[7] == "1|1"
    m = bid_and_declare(start(), "A", {"points": 30}, 6)
    plays = [a["tile"] for a in m.legal_actions()]
    assert plays == sorted(plays, key=NAMES.index)
    rejects(m, {"type": "play", "seat": "A", "tile": "5|0"}, "MALFORMED_ACTION")


def test_deal_01_seven_tiles_each_no_boneyard():
    """DEAL-01: all 28 tiles dealt, 7 per seat; a hand of 6 is not a deal."""
    m = Match.from_seed(3)
    assert all(len(h) == 7 for h in m.view()["hands"].values())
    short = {**EXAMPLE, "A": EXAMPLE["A"][:6]}
    with pytest.raises(IllegalAction) as raised:
        start(short)
    assert raised.value.code == "INVALID_SETUP"


@pytest.mark.parametrize("dealer, first", [("D", "A"), ("A", "B"), ("B", "C"), ("C", "D")])
def test_deal_02_order_dealt_one_at_a_time_from_the_dealers_left(dealer, first):
    """DEAL-02: tile i of the order goes to seat (dealer + 1 + i) mod 4."""
    m = Match.start({"dealer": dealer, "order": list(NAMES)})
    seats = "ABCD"
    start_at = seats.index(first)
    for k in range(4):
        seat = seats[(start_at + k) % 4]
        assert m.view()["hands"][seat] == list(NAMES[k::4])


def test_deal_03_hand_order_kept_and_playing_keeps_the_rest_in_order():
    """DEAL-03: a hand keeps the order given; a play removes one tile only."""
    m = start()
    assert m.view()["hands"]["C"] == EXAMPLE["C"]
    bid_and_declare(m, "A", {"points": 30}, 6)
    play(m, "A 5|5", "B 3|5", "C 0|5")
    assert m.view()["hands"]["C"] == [t for t in EXAMPLE["C"] if t != "0|5"]
    assert m.observe("C")["hand"] == m.view()["hands"]["C"]


def test_deal_04_explicit_dealer_accepted_or_drawn_from_a_seed():
    """DEAL-04: a setup names the first dealer; from_seed draws one when none is given."""
    assert start(dealer="C").view()["dealer"] == "C"
    assert Match.from_seed(1, dealer="B").view()["dealer"] == "B"
    drawn = {Match.from_seed(seed).view()["dealer"] for seed in range(40)}
    assert drawn == {"A", "B", "C", "D"}
    assert Match.from_seed(5) == Match.from_seed(5)
    with pytest.raises(IllegalAction) as raised:
        start(dealer="E")
    assert raised.value.code == "INVALID_SETUP"


def test_deal_06_seeded_shuffles_give_every_tile_every_place():
    """DEAL-06: from_seed's shuffle (random.shuffle, Fisher-Yates) deals each tile to each
    seat, and at each place of a hand (DEAL-03), about equally often over 600 seeds, and
    two seeds deal apart."""
    from conformance.run.selfdeal import ALPHA, order_of, shuffle_tests

    orders = [order_of(Match.from_seed(seed).view()) for seed in range(600)]
    for test in shuffle_tests(orders[:300], orders[300:]):
        assert test.p > ALPHA, test.worst
    assert len({tuple(o) for o in orders}) == 600


def test_deal_05_deal_passes_clockwise_after_every_round_even_four_passes():
    """DEAL-05: the next dealer is left of the last, after a redeal too."""
    m = start(dealer="C")
    for expected in ["D", "A", "B", "C", "D"]:
        for _ in range(4):
            m.apply({"type": "pass", "seat": m.to_act})
        m.deal({"hands": EXAMPLE})
        assert m.view()["dealer"] == expected
    bid_and_declare(m, "A", {"points": 30}, 6)
    play(m, "A 5|5", "B 3|5", "C 0|5", "D 6|6")  # set at once (END-02)
    m.deal({"order": list(NAMES)})
    assert m.view()["dealer"] == "A" and m.view()["round"] == 7
