"""What each seat may see: VIS-01..VIS-10 (spec/observation.md)."""

from reference_impl.tiles import NAMES

from .support import EXAMPLE, SIXES, bid_and_declare, play, play_out, start


def everyone(m):
    return [m.observe(seat) for seat in "ABCD"]


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def marks_contract(stacks, tricks):
    """A 1-mark contract on SIXES (A wins every trick) after `tricks` tricks."""
    m = bid_and_declare(start(SIXES), "A", {"marks": 1}, 6, stacks)
    for _ in range(4 * tricks):
        m.apply(m.legal_actions()[0])
    return m


def test_vis_01_own_hand_in_order_others_hidden_sizes_public():
    """VIS-01: a seat sees its hand in hand order and no other unplayed tile."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5")
    obs = m.observe("B")
    assert obs["hand"] == EXAMPLE["B"]
    assert obs["hand_sizes"] == {"A": 6, "B": 7, "C": 7, "D": 7}
    others = {t for s in "ACD" for t in m.view()["hands"][s]}
    assert others.isdisjoint(strings_in(obs))


def test_vis_02_dealer_phase_turn_bids_and_contract_are_public():
    """VIS-02: every seat sees the bids with their seats and the contract."""
    m = start(dealer="B")
    m.apply({"type": "bid", "seat": "C", "points": 30})
    m.apply({"type": "pass", "seat": "D"})
    m.apply({"type": "bid", "seat": "A", "marks": 1})
    m.apply({"type": "pass", "seat": "B"})
    m.apply({"type": "trump", "seat": "A", "trump": "none", "stacks": 2})
    view = m.view()
    for obs in everyone(m):
        for field in ("dealer", "phase", "to_act", "bids", "contract", "round"):
            assert obs[field] == view[field]
    assert view["bids"][2] == {"type": "bid", "seat": "A", "marks": 1}
    assert view["contract"]["stacks"] == 2 and view["contract"]["trump"] == "none"


def test_vis_03_the_current_trick_shows_tiles_and_seats_in_play_order():
    """VIS-03: document 000's example after A 5|5 and B 3|5."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5", "B 3|5")
    for obs in everyone(m):
        assert obs["trick"] == [{"seat": "A", "tile": "5|5"}, {"seat": "B", "tile": "3|5"}]
        assert obs["hand_sizes"] == {"A": 6, "B": 6, "C": 7, "D": 7}
        assert obs["captured"] == []


def test_vis_04_between_tricks_the_trick_is_empty_and_the_leader_is_to_act():
    """VIS-04: after trick 1 the winner is shown as the seat to act."""
    m = marks_contract(stacks=1, tricks=1)
    for obs in everyone(m):
        assert obs["trick"] == [] and obs["to_act"] == "A"


def test_vis_05_point_contract_shows_every_completed_trick():
    """VIS-05: all tiles of all captured tricks under a point contract."""
    m = bid_and_declare(start(SIXES), "A", {"points": 41}, 6)
    for _ in range(12):
        m.apply(m.legal_actions()[0])
    assert m.phase == "playing"
    for obs in everyone(m):
        assert [c["tiles"] is not None for c in obs["captured"]] == [True, True, True]


def test_vis_06_marks_contract_shows_only_the_latest_stacks():
    """VIS-06: three tricks: stacks 1 shows trick 3 only; stacks 2 tricks 2 and 3."""
    for stacks, shown in ((1, [False, False, True]), (2, [False, True, True])):
        m = marks_contract(stacks, tricks=3)
        covered = [c for c, up in zip(m.view()["tricks"], shown, strict=True) if not up]
        hidden = {x["tile"] for t in covered for x in t["plays"]}
        for obs in everyone(m):
            assert [c["tiles"] is not None for c in obs["captured"]] == shown
            assert hidden.isdisjoint(strings_in(obs))


def test_vis_07_the_cover_moves_only_when_a_trick_completes():
    """VIS-07: a tile played to trick 4 does not cover trick 3 (stacks 1)."""
    m = marks_contract(stacks=1, tricks=3)
    m.apply(m.legal_actions()[0])
    assert [c["tiles"] is not None for c in m.observe("B")["captured"]] == [False, False, True]
    for _ in range(3):
        m.apply(m.legal_actions()[0])
    assert [c["tiles"] is not None for c in m.observe("B")["captured"]] == [False] * 3 + [True]


def test_vis_08_a_captured_trick_names_no_seat_and_sorts_its_tiles():
    """VIS-08: number, team, sorted tiles; no seats, order or winner."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 0|0", "B 0|3", "C 0|5",
             "D 0|6")
    (captured,) = m.observe("A")["captured"]
    assert captured == {"number": 1, "team": "BD", "tiles": ["0|0", "0|3", "0|5", "0|6"]}
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5", "B 3|5", "C 0|5",
             "D 6|6")
    assert m.observe("C")["captured"][0]["tiles"] == ["0|5", "3|5", "5|5", "6|6"]


def test_vis_09_points_tricks_and_marks_are_public():
    """VIS-09: each seat sees both teams' round points, tricks won and marks."""
    m = play(bid_and_declare(start(marks={"AC": 2, "BD": 1}), "A", {"points": 30}, 6),
             "A 0|0", "B 0|3", "C 0|5", "D 0|6")
    for obs in everyone(m):
        assert obs["points"] == {"AC": 0, "BD": 6}
        assert obs["tricks_won"] == {"AC": 0, "BD": 1}
        assert obs["marks"] == {"AC": 2, "BD": 1}


def test_vis_09_marks_contract_hides_round_points_until_the_round_ends():
    """VIS-09: under a marks contract no seat sees the running round points (they would
    tell what covered tricks hold); the referee does; after the round every seat does."""
    m = bid_and_declare(start(SIXES), "A", {"marks": 1}, 0, stacks=1)
    assert all(obs["points"] is None for obs in everyone(m))
    play(m, "A 1|6", "B 0|0", "C 1|2", "D 3|3")  # set at trick 1 (END-04)
    assert m.phase == "round_over"
    assert all(obs["points"] == m.view()["points"] for obs in everyone(m))
    m = marks_contract(stacks=2, tricks=3)
    assert m.view()["points"] != {"AC": 0, "BD": 0}
    assert all(obs["points"] is None and obs["tricks_won"] == m.view()["tricks_won"]
               for obs in everyone(m))


def test_vis_10_after_the_round_history_and_every_trick_but_never_unplayed_tiles():
    """VIS-10: history is null during the round; after it, the whole history and all
    captured tiles; tiles never played stay hidden."""
    m = marks_contract(stacks=1, tricks=2)
    assert all(obs["history"] is None for obs in everyone(m))
    m = bid_and_declare(start(SIXES), "A", {"marks": 1}, 0, stacks=1)
    play(m, "A 1|6", "B 0|0", "C 1|2", "D 3|3")  # set at trick 1 (END-04)
    assert m.phase == "round_over"
    for seat in "ABCD":
        obs = m.observe(seat)
        assert obs["history"] == m.view()["history"] and len(obs["history"]) == 9
        assert obs["captured"][0]["tiles"] == ["0|0", "1|2", "1|6", "3|3"]
        unplayed = {t for s in "ABCD" if s != seat for t in m.view()["hands"][s]}
        assert unplayed.isdisjoint(strings_in(obs))
    m = play_out(marks_contract(stacks=1, tricks=0))
    assert all(c["tiles"] for c in m.observe("D")["captured"])
    assert set(NAMES) == {t for c in m.observe("D")["captured"] for t in c["tiles"]}
