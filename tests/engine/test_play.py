"""Play: PLAY-01..PLAY-08."""

from reference_impl.tiles import TILE_INDEX

from .support import EXAMPLE, SIXES, bid_and_declare, play, rejects, start
from .test_suits_ranks import FIVES


def p(seat, tile):
    return {"type": "play", "seat": seat, "tile": tile}


def test_play_01_the_declarer_leads_the_first_trick():
    """PLAY-01: after C declares, C is to act; another seat's lead is NOT_YOUR_TURN."""
    m = bid_and_declare(start(), "C", {"points": 31}, 4)
    assert m.to_act == "C"
    rejects(m, p("A", "5|5"), "NOT_YOUR_TURN")
    rejects(m, p("D", "6|6"), "NOT_YOUR_TURN")


def test_play_02_one_tile_each_clockwise_four_make_a_trick():
    """PLAY-02: the trick fills clockwise from the leader and completes at four."""
    m = bid_and_declare(start(FIVES), "C", {"points": 30}, 6)
    turns = []
    for tile in ("2|4", "1|4", "0|0", "0|4"):
        turns.append(m.to_act)
        m.apply(p(m.to_act, tile))
    assert turns == ["C", "D", "A", "B"]
    trick = m.view()["tricks"][0]
    assert [x["seat"] for x in trick["plays"]] == ["C", "D", "A", "B"]
    assert m.view()["trick"] == []


def test_play_03_the_trick_winner_leads_next():
    """PLAY-03: C's 1|5 wins the ones; C leads trick 2."""
    m = bid_and_declare(start(FIVES), "A", {"points": 30}, 6)
    play(m, "A 0|1", "B 1|3", "C 1|5", "D 1|4")
    assert m.view()["tricks"][0]["winner"] == "C" and m.to_act == "C"
    assert m.view()["tricks"][0]["leader"] == "A"


def test_play_04_the_leader_may_lead_any_tile():
    """PLAY-04: every tile of the leader's hand is a legal lead."""
    m = bid_and_declare(start(), "B", {"points": 30}, 6)
    assert [a["tile"] for a in m.legal_actions()] == sorted(EXAMPLE["B"], key=TILE_INDEX.get)


def test_play_05_a_seat_that_can_follow_must():
    """PLAY-05: B holds a five and may not play another tile on 5|5."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5")
    for tile in ("0|3", "1|4", "3|3"):
        rejects(m, p("B", tile), "MUST_FOLLOW")
    assert m.legal_actions() == [p("B", "3|5")]


def test_play_06_a_seat_that_cannot_follow_may_play_anything_no_duty_to_trump():
    """PLAY-06: D holds no five: a trump or not, any tile is legal."""
    m = play(bid_and_declare(start(SIXES), "A", {"points": 30}, 6), "A 0|6")
    assert len(m.legal_actions()) == 7  # B holds no trump
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5", "B 3|5", "C 0|5")
    assert len(m.legal_actions()) == 7
    play(m, "D 1|6")  # a low trump is fine; nothing forces the highest
    assert m.view()["tricks"][0]["winner"] == "D"


def test_play_07_a_seat_plays_only_from_its_own_hand():
    """PLAY-07: a tile never held, already played, or another seat's is refused."""
    m = bid_and_declare(start(), "A", {"points": 30}, 6)
    rejects(m, p("A", "6|6"), "TILE_NOT_IN_HAND")  # D's tile
    play(m, "A 0|0", "B 0|3", "C 0|5", "D 0|6")  # D wins and leads
    play(m, "D 6|6", "A 1|1")
    rejects(m, p("B", "0|3"), "TILE_NOT_IN_HAND")  # already played
    rejects(m, p("B", "0|0"), "TILE_NOT_IN_HAND")


def test_play_08_there_is_no_pass_in_play():
    """PLAY-08: a pass during play is WRONG_PHASE."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5")
    rejects(m, {"type": "pass", "seat": "B"}, "WRONG_PHASE")
