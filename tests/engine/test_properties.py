"""Properties over random matches (Hypothesis): every legal action applies, everything else
is rejected with a code of errors.yaml and changes nothing, points and results follow the
rules, JSON round-trips, observations leak nothing."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl import Match
from reference_impl.actions import action_key
from reference_impl.rules import COUNTERS, called_suit, follows, trick_rank
from reference_impl.tiles import NAMES, TILE_INDEX

from .property_checks import candidates, check_observations, check_rejected
from .spec_data import schema_validator
from .support import examples

VALIDATE_ACTION = schema_validator("action.schema.json")


def check_legal_list(m: Match, legal: list) -> None:
    keys = [json.dumps(a, sort_keys=True) for a in legal]
    assert len(set(keys)) == len(keys), "duplicate legal actions"
    assert all(a["seat"] == m.to_act for a in legal)
    kinds = ["pass", "bid", "trump", "play"]
    trumps = [0, 1, 2, 3, 4, 5, 6, "doubles", "none"]
    order = [(kinds.index(a["type"]), "marks" in a, a.get("points", a.get("marks", 0)),
              trumps.index(a["trump"]) if "trump" in a else 0, a.get("stacks", 0),
              NAMES.index(a["tile"]) if "tile" in a else 0) for a in legal]
    assert order == sorted(order), "legal actions not in canonical order"
    for action in legal:
        VALIDATE_ACTION(action)
        child = m.clone()
        child.apply(action)  # every legal action applies
    assert (legal == []) == (m.to_act is None)


def naive_legal_plays(view: dict) -> list[str]:
    """PLAY-04..PLAY-06 straight from the rule functions (no tables, no masks)."""
    hand = view["hands"][view["to_act"]]
    if not view["trick"]:
        return sorted(hand, key=TILE_INDEX.get)
    trump = view["contract"]["trump"]
    called = called_suit(TILE_INDEX[view["trick"][0]["tile"]], trump)
    following = [t for t in hand if follows(TILE_INDEX[t], called, trump)]
    return sorted(following or hand, key=TILE_INDEX.get)


def naive_winner(trick: dict, trump) -> str:
    """RANK-01..RANK-05 straight from the rule functions."""
    tiles = [TILE_INDEX[p["tile"]] for p in trick["plays"]]
    called = called_suit(tiles[0], trump)
    ranks = [trick_rank(t, called, trump) for t in tiles]
    return trick["plays"][ranks.index(max(ranks))]["seat"]


def check_round_result(view: dict, start_marks: dict) -> None:
    """END-01..END-05 and SCORE-01, SCORE-02 recomputed from the tricks."""
    result, contract, tricks = view["result"], view["contract"], view["tricks"]
    if contract is None:
        assert result == {"outcome": "all_passed", "awarded_to": None, "marks": 0}
        assert view["marks"] == start_marks
        return
    for trick in tricks:
        assert trick["winner"] == naive_winner(trick, contract["trump"])
    us = contract["team"]
    them = "BD" if us == "AC" else "AC"
    points = {"AC": 0, "BD": 0}
    won = {"AC": 0, "BD": 0}
    outcome = None
    for n, trick in enumerate(tricks, 1):
        value = 1 + sum(COUNTERS.get(p["tile"], 0) for p in trick["plays"])
        assert trick["points"] == value
        points[trick["team"]] += value
        won[trick["team"]] += 1
        if "marks" in contract["bid"]:
            outcome = "set" if won[them] else ("made" if won[us] == 7 else None)
        else:
            bid = contract["bid"]["points"]
            outcome = ("made" if points[us] >= bid else
                       "set" if points[them] > 42 - bid else None)
        assert (outcome is None) == (n < len(tricks)), "round did not end at the first decision"
    assert view["points"] == points and view["tricks_won"] == won
    if len(tricks) == 7:
        assert points["AC"] + points["BD"] == 42  # PTS-03
    stake = contract["bid"].get("marks", 1)
    team = us if outcome == "made" else them
    assert result == {"outcome": outcome, "awarded_to": team, "marks": stake}
    assert view["marks"][team] == start_marks[team] + stake
    other = them if team == us else us
    assert view["marks"][other] == start_marks[other]


def play_match(seed: int, rng: random.Random, rounds: int, checks: int) -> Match:
    """Play up to `rounds` rounds with uniform random actions, checking every position."""
    m = Match.from_seed(seed)
    for _ in range(rounds):
        start_marks = m.view()["marks"]
        while m.to_act is not None:
            legal = m.legal_actions()
            check_legal_list(m, legal)
            if m.phase == "playing":
                assert [a["tile"] for a in legal] == naive_legal_plays(m.view())
            for action in candidates(rng, checks):
                check_rejected(m, action, legal)
            check_observations(m, validate=rng.random() < 0.2)  # schemas are slow
            m.apply(rng.choice(legal))
        check_observations(m)
        check_round_result(m.view(), start_marks)
        check_json_round_trip(m)
        if m.phase == "match_over":
            break
        order = list(NAMES)
        rng.shuffle(order)
        m.deal({"order": order})
    return m


def check_json_round_trip(m: Match) -> None:
    data = m.to_json()
    text = json.dumps(data)
    assert len(text) < 2048
    again = Match.from_json(json.loads(text))
    assert again == m and again.view() == m.view() and again.to_json() == data


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False))
def test_random_rounds_keep_every_invariant(seed, rng):
    """DIG-01..DIG-03, PLAY-05..07, END-01..05, PTS-03, SCORE-02, VIS-01, VIS-06."""
    play_match(seed, rng, rounds=2, checks=6)


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False),
       cut=st.integers(0, 40))
def test_json_round_trip_and_clone_at_any_point(seed, rng, cut):
    """to_json/from_json and clone are exact at any position; a clone is independent."""
    m = Match.from_seed(seed)
    for _ in range(cut):
        if m.to_act is None:
            break
        m.apply(rng.choice(m.legal_actions()))
    check_json_round_trip(m)
    copy = m.clone()
    assert copy == m and copy.view() == m.view()
    if copy.to_act is not None:
        copy.apply(copy.legal_actions()[-1])
        assert copy != m and Match.from_json(m.to_json()) == m


def test_state_does_not_grow_with_the_match():
    """A match keeps only the current round: size is the same in round 1 and round 40."""
    rng = random.Random(5)
    m = Match.from_seed(5)
    sizes = []
    for _ in range(40):
        while m.to_act is not None:
            m.apply(rng.choice(m.legal_actions()))
        sizes.append(len(json.dumps(m.to_json())))
        if m.phase == "match_over":
            m = Match.from_seed(rng.random())
        else:
            m.deal({"order": rng.sample(NAMES, 28)})
    assert max(sizes) < 2048
    assert len(m.history) <= 33


def test_action_keys_are_unique_per_position():
    """Perft keys (scenario-format.md) tell apart every legal action of a position."""
    rng = random.Random(1)
    m = Match.from_seed(1)
    while m.to_act is not None:
        legal = m.legal_actions()
        assert len({action_key(a) for a in legal}) == len(legal)
        m.apply(rng.choice(legal))
