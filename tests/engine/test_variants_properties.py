"""Properties over random matches under random combinations of options (Hypothesis): every
legal action applies and is listed in canonical order, everything else is rejected with a
code of errors.yaml and changes nothing, trick winners, outcomes and scores follow the
rule functions and variants.md, JSON round-trips, observations leak nothing.

The oracle here recomputes each round from its views with suits and ranks written from
the spec's text (never the engine's rule functions, tables, masks or seat orders): the
contract as shown, its declared doubles included (NOTRUMP-05, NELLO-13)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl import Match
from reference_impl.actions import action_key
from reference_impl.rules import COUNTERS
from reference_impl.tiles import NAMES, SEATS, TILE_INDEX
from reference_impl.variants import OPTIONS, rules_for

from .property_checks import candidates, check_observations, check_rejected
from .spec_data import schema_validator
from .support import examples

VALIDATE_ACTION = schema_validator("action.schema.json")
KINDS = ["pass", "bid", "trump", "play"]
TRUMP_ORDER = [0, 1, 2, 3, 4, 5, 6, "doubles", "none", "nello", "sevens", "first_tile", "plunge"]


@st.composite
def variant_sets(draw) -> dict:
    """A random `variants` object: any subset of the options, each `true`, `{}` or some of
    its settings at random allowed values."""
    chosen = draw(st.lists(st.sampled_from(list(OPTIONS)), unique=True, max_size=9))
    variants = {}
    for name in chosen:
        option = OPTIONS[name]
        form = draw(st.sampled_from(["true", "empty", "settings"]))
        if form == "true":
            variants[name] = True
        elif form == "empty" or not option.settings:
            variants[name] = {}
        else:
            values = {}
            for key, setting in option.settings.items():
                if draw(st.booleans()):
                    allowed = ([v for v in (1, 2, 7, 42, 100, 250) if v in setting.values]
                               if isinstance(setting.values, range) else list(setting.values))
                    values[key] = draw(st.sampled_from(allowed))
            variants[name] = values
    return variants


def settings_of(variants: dict, name: str) -> dict | None:
    """The settings of option `name` with defaults filled in, or None when it is off."""
    if name not in variants:
        return None
    given = {} if variants[name] is True else variants[name]
    return {key: given.get(key, s.default) for key, s in OPTIONS[name].settings.items()}


def variant_candidates(rng: random.Random, seat, count: int) -> list:
    """Actions only the options define, well formed or not."""
    pool = [
        {"type": "bid", "seat": seat, "plunge": True},
        {"type": "bid", "seat": seat, "plunge": rng.choice([False, 1, None])},
        {"type": "bid", "seat": seat, "points": 42},
        {"type": "bid", "seat": seat, "splash": True},
        {"type": "trump", "seat": seat, "trump": "plunge"},
        {"type": "trump", "seat": seat,
         "trump": rng.choice(["nello", "sevens", "first_tile", "follow_me"])},
        {"type": "trump", "seat": seat,
         "trump": rng.choice(["nello", "sevens", "first_tile", "follow_me"]),
         "stacks": rng.choice([1, 2, 3])},
    ]
    return [rng.choice(pool) for _ in range(count)]


def canonical_position(action: dict) -> tuple:
    """actions.md, canonical order with variants."""
    special = {"plunge": 99, "splash": 100}  # after every marks bid: the plunge, the splash
    marks = next((n for k, n in special.items() if k in action), action.get("marks", 0))
    return (KINDS.index(action["type"]), "marks" in action or marks >= 99,
            action.get("points", marks),
            TRUMP_ORDER.index(action["trump"]) if "trump" in action else 0,
            action.get("stacks", 0), NAMES.index(action["tile"]) if "tile" in action else 0)


def check_legal_list(m: Match, legal: list) -> None:
    keys = [json.dumps(a, sort_keys=True) for a in legal]
    assert len(set(keys)) == len(keys), "duplicate legal actions"
    assert len({action_key(a) for a in legal}) == len(legal)
    assert all(a["seat"] == m.to_act for a in legal)
    order = [canonical_position(a) for a in legal]
    assert order == sorted(order), "legal actions not in canonical order"
    assert not any(a.get("trump") == "follow_me" for a in legal)  # FOLLOWME-02
    for action in legal:
        VALIDATE_ACTION(action)
        child = m.clone()
        child.apply(action)
    assert (legal == []) == (m.to_act is None)


def doubles_of(m: Match, contract: dict) -> str:
    """Where the doubles of a contract without trumps play (RANK-05, NOTRUMP-02,
    NOTRUMP-03, NELLO-06, NELLO-10): the value its declarer named (NOTRUMP-05,
    NELLO-13: `contract.doubles`, shown from the declaration on), else the option's
    fixed setting, else the base game's doubles high. The setting alone is not enough:
    under `"declared"` it names no placement, the declaration does."""
    if "doubles" in contract:
        return contract["doubles"]
    option = {"none": "no_trump", "nello": "nello"}.get(contract["trump"])
    chosen = settings_of(m.variants, option) if option else None
    return chosen["doubles"] if chosen else "high"


def is_double(tile: str) -> bool:
    return tile[0] == tile[2]


def ends(tile: str) -> tuple[int, int]:
    return int(tile[0]), int(tile[2])


def is_trump(tile: str, trump) -> bool:
    """SUIT-01 (a number trump: every tile showing it), SUIT-02 (`doubles`: the doubles);
    no-trump, Nel-O and Sevens have no trumps (SUIT-03, NELLO-06, SEVENS-04)."""
    if isinstance(trump, int):
        return trump in ends(tile)
    return trump == "doubles" and is_double(tile)


def called_suit(lead: str, trump, doubles: str):
    """SUIT-04 (a trump led calls trumps), NOTRUMP-03/NELLO-06 (a double led calls the
    doubles when they are a suit of their own), SUIT-05 (else the larger number)."""
    if is_trump(lead, trump):
        return "trump"
    if is_double(lead) and doubles in ("own_suit", "own_suit_reversed"):
        return "doubles"
    return max(ends(lead))


def follows(tile: str, called, trump, doubles: str) -> bool:
    """SUIT-04, SUIT-06; a suit of doubles is followed by doubles only, and a double
    then follows no number (NOTRUMP-03, NELLO-06, NELLO-10)."""
    if called == "trump":
        return is_trump(tile, trump)
    if called == "doubles":
        return is_double(tile)
    if is_trump(tile, trump):
        return False
    if is_double(tile) and doubles in ("own_suit", "own_suit_reversed"):
        return False
    return called in ends(tile)


def rank(tile: str, called, trump, doubles: str) -> float:
    """RANK-01..RANK-05, NOTRUMP-02 (a double lowest of its suit), NELLO-06, NELLO-10
    (the doubles' own suit in reverse): higher wins; a tile that neither follows nor is a
    trump never wins (RANK-02)."""
    a, b = ends(tile)
    if is_trump(tile, trump):
        if trump == "doubles":
            return 200 + a  # RANK-04
        return 200 + (7 if a == b else a + b - trump)  # RANK-03 in the trump suit
    if not follows(tile, called, trump, doubles):
        return -1
    if called == "doubles":
        return 6 - a if doubles == "own_suit_reversed" else a
    if a == b:
        return -0.5 if doubles == "low" else 7  # NOTRUMP-02, NELLO-06; RANK-03, RANK-05
    return a + b - called  # the other number


def distance(tile: str) -> int:
    """SEVENS-03: `|a + b - 7|`."""
    return abs(sum(ends(tile)) - 7)


def naive_legal_plays(m: Match, view: dict) -> list[str]:
    """PLAY-04..PLAY-06, SEVENS-04, written from the spec text: the suits of the contract
    as declared (its `doubles` included)."""
    hand = view["hands"][view["to_act"]]
    contract = view["contract"]
    trump = contract["trump"]
    if trump == "sevens":
        if settings_of(m.variants, "sevens")["duty"] == "free":
            return sorted(hand, key=TILE_INDEX.get)
        nearest = min(distance(t) for t in hand)
        return sorted((t for t in hand if distance(t) == nearest),
                      key=TILE_INDEX.get)
    allowed = hand
    if view["trick"] and trump != "first_tile":
        doubles = doubles_of(m, contract)
        called = called_suit(view["trick"][0]["tile"], trump, doubles)
        allowed = [t for t in hand if follows(t, called, trump, doubles)] or hand
    return sorted(allowed, key=TILE_INDEX.get)


def naive_winner(m: Match, trick: dict, contract: dict) -> str:
    """RANK (NELLO-06, NELLO-10, NOTRUMP-02, NOTRUMP-03, SEVENS-05) from the spec text,
    the contract's declared doubles included, and the plays' own seats."""
    trump, plays = contract["trump"], trick["plays"]
    if trump == "sevens":
        nearest = min(distance(p["tile"]) for p in plays)
        tied = [p["seat"] for p in plays if distance(p["tile"]) == nearest]
        if settings_of(m.variants, "sevens")["ties"] == "bidders":
            return next((s for s in tied if s in contract["team"]), tied[0])
        return tied[0]
    doubles = doubles_of(m, contract)
    called = called_suit(plays[0]["tile"], trump, doubles)
    ranks = [rank(p["tile"], called, trump, doubles) for p in plays]
    return plays[ranks.index(max(ranks))]["seat"]


def decide(contract: dict, trump, points: dict, won: dict, us: str, them: str):
    """END-01..END-04, NELLO-07, SEVENS-06 after a trick."""
    if trump == "nello":
        return "set" if won[us] else ("made" if won[them] == 7 else None)
    if "marks" in contract["bid"]:
        return "set" if won[them] else ("made" if won[us] == 7 else None)
    bid = contract["bid"]["points"]
    return "made" if points[us] >= bid else ("set" if points[them] > 42 - bid else None)


def special_marks(m: Match, bid: dict, last: int) -> int:
    """The marks of a plunge or splash after a marks bid of `last` (0: none, or point bids
    only): PLUNGE-03 (4), PTERMS-05 (its `marks`), SPLASH-03 (its `marks`), SPLASH-06
    (the marks carried); PLUNGE-07, SPLASH-07 (`when: "any_time"`: one more over its own
    marks); PLUNGE-09, SPLASH-08 (`when: "raise"`: the last marks bid plus its marks)."""
    if "plunge" in bid:
        terms = settings_of(m.variants, "plunge_terms")
        marks, when = (terms["marks"] if terms else 4), settings_of(m.variants, "plunge")
        when = when["when"] if when else "before_bids"  # plunge_terms alone: before bids
    else:
        splash = settings_of(m.variants, "splash")
        marks = bid["splash"] if splash["marks"] == "bid" else splash["marks"]
        when = splash["when"]
    if when == "raise":
        return last + marks
    return marks + 1 if when == "any_time" and last == marks else marks


def bid_marks(m: Match, bids: list[dict]) -> int:
    """The marks of the last marks bid of `bids` (BID-05, BID-06, special_marks)."""
    last = 0
    for bid in bids:
        if "marks" in bid:
            last = bid["marks"]
        elif "plunge" in bid or "splash" in bid:
            last = special_marks(m, bid, last)
    return last


def check_round_result(m: Match, view: dict, start_marks: dict) -> None:
    """The round recomputed from the views: winners, points, outcome, when it ended, the
    score (SCORE or MPTS) and the match winner (MATCH, MPTS-08)."""
    result, contract, tricks = view["result"], view["contract"], view["tricks"]
    mpts = settings_of(m.variants, "match_points")
    marks_target = settings_of(m.variants, "match_marks")  # TARGET-02, TARGET-03
    target = mpts["target"] if mpts else (marks_target["target"] if marks_target else 7)
    if contract is None:
        assert settings_of(m.variants, "forced_bid") is None  # FORCE-02
        assert result == {"outcome": "all_passed", "awarded_to": None, "marks": 0}
        assert view["marks"] == start_marks
        return
    bids = view["bids"]
    top = [b for b in bids if b["type"] == "bid"][-1]
    if "plunge" in top or "splash" in top:  # PLUNGE-04, SPLASH-04: the partner declares
        partner = SEATS[(SEATS.index(top["seat"]) + 2) % 4]
        assert contract["declarer"] == partner
        assert contract["bid"]["marks"] == bid_marks(m, bids)
    trump = contract["trump"]
    us = contract["team"]
    them = "BD" if us == "AC" else "AC"
    points, won, first = {"AC": 0, "BD": 0}, {"AC": 0, "BD": 0}, None
    for n, trick in enumerate(tricks, 1):
        assert trick["winner"] == naive_winner(m, trick, contract)
        if trump == "nello":
            out = SEATS[(SEATS.index(contract["declarer"]) + 2) % 4]
            assert len(trick["plays"]) == 3 and out not in [p["seat"] for p in trick["plays"]]
        value = 1 + sum(COUNTERS.get(p["tile"], 0) for p in trick["plays"])
        assert trick["points"] == value
        points[trick["team"]] += value
        won[trick["team"]] += 1
        first = first or decide(contract, trump, points, won, us, them)
        play_out = mpts is not None and mpts["end"] == "play_out"
        assert (n == len(tricks)) == (first is not None and (not play_out or n == 7))
    assert view["points"] == points and view["tricks_won"] == won
    if len(tricks) == 7 and trump != "nello":
        assert points["AC"] + points["BD"] == 42  # PTS-03
    if "points" in contract["bid"]:
        value = contract["bid"]["points"] if mpts else 1
    else:
        n = contract["bid"]["marks"]
        value = (42 * 2 ** (n - 1) if mpts and mpts["ladder"] == "doubling"  # MPTS-10
                 else n * (42 if mpts else 1))
    assert contract["stake"] == value  # SCORE-01, MPTS-03
    gains = {"AC": 0, "BD": 0}
    team = us if first == "made" else them
    if not mpts:
        gains[team] = value
    elif first == "made" and "points" in contract["bid"]:
        gains = dict(points)  # MPTS-04
    elif first == "made":
        gains[us] = value  # MPTS-05
    else:
        whole = mpts["high_bids"] == "all_or_nothing" and value >= 42  # MPTS-11
        gains[them] = value + (0 if whole else points[them])  # MPTS-06
    assert result == {"outcome": first, "awarded_to": team, "marks": gains[team]}
    marks = {t: start_marks[t] + gains[t] for t in gains}
    assert view["marks"] == marks
    reached = [t for t in ("AC", "BD") if marks[t] >= target]
    expected = None if not reached else (us if len(reached) == 2 else reached[0])
    assert view["winner"] == expected and (m.phase == "match_over") == (expected is not None)


def check_json_round_trip(m: Match) -> None:
    data = m.to_json()
    again = Match.from_json(json.loads(json.dumps(data)))
    assert again == m and again.view() == m.view() and again.to_json() == data


def play_match(variants: dict, seed: int, rng: random.Random, rounds: int) -> None:
    m = Match.from_seed(seed, variants=variants)
    assert m.rules is rules_for(variants)
    for _ in range(rounds):
        start_marks = m.view()["marks"]
        while m.to_act is not None:
            legal = m.legal_actions()
            check_legal_list(m, legal)
            if m.phase == "playing":
                assert [a["tile"] for a in legal] == naive_legal_plays(m, m.view())
            for action in candidates(rng, 3) + variant_candidates(rng, m.to_act, 3):
                check_rejected(m, action, legal)
            check_observations(m, validate=rng.random() < 0.1)
            if rng.random() < 0.2:
                check_json_round_trip(m)
            m.apply(rng.choice(legal))
        check_observations(m, validate=True)
        check_round_result(m, m.view(), start_marks)
        check_json_round_trip(m)
        if m.phase == "match_over":
            break
        m.deal({"order": rng.sample(NAMES, 28)})


@settings(max_examples=examples(40), deadline=None)
@given(variants=variant_sets(), seed=st.integers(0, 2**32 - 1),
       rng=st.randoms(use_true_random=False))
def test_random_variant_matches_keep_every_invariant(variants, seed, rng):
    """VAR-01..VAR-03 and every option's rules: DIG-01..DIG-03, the legal lists, winners,
    outcomes, scores and the match winner, VIS-01/VIS-06, JSON round trips."""
    play_match(variants, seed, rng, rounds=2)


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False),
       nello=st.sampled_from(["high", "low", "own_suit"]),
       sevens=st.sampled_from([{"duty": "closest"}, {"duty": "free", "ties": "bidders"}]),
       end=st.sampled_from(["early", "play_out"]))
def test_option_choices_are_declared_often(seed, rng, nello, sevens, end):
    """The options' own choices get played: every marks contract declares nello, sevens or
    first_tile when it may (NELLO, SEVENS, UNDECL, MPTS-09)."""
    variants = {"nello": {"doubles": nello, "min_marks": 1}, "sevens": sevens,
                "undeclared_trump": True, "match_points": {"end": end}, "plunge": True,
                "forced_bid": {"bid": "any"}}
    m = Match.from_seed(seed, variants=variants)
    for _ in range(3):
        start_marks = m.view()["marks"]
        while m.to_act is not None:
            legal = m.legal_actions()
            check_legal_list(m, legal)
            options = [a for a in legal if a.get("trump") in ("nello", "sevens", "first_tile")]
            if m.phase == "bidding":
                marks_bids = [a for a in legal if "marks" in a or "plunge" in a]
                action = rng.choice(marks_bids or legal)
            else:
                action = rng.choice(options or legal)
            if m.phase == "playing":
                assert [a["tile"] for a in legal] == naive_legal_plays(m, m.view())
            m.apply(action)
            check_observations(m, validate=False)
        check_round_result(m, m.view(), start_marks)
        check_json_round_trip(m)
        if m.phase == "match_over":
            break
        m.deal({"order": rng.sample(NAMES, 28)})


# A leads 5|5 in a no-trump whose declarer named the doubles (NOTRUMP-05). B holds two
# fives (4|5, 1|5) and one double (6|6); C no double; D one five (5|6) and three doubles.
LED_DOUBLE = {"A": ["5|5", "0|0", "0|1", "0|2", "0|3", "0|4", "1|1"],
              "B": ["6|6", "4|5", "1|2", "1|3", "1|4", "1|5", "1|6"],
              "C": ["0|5", "2|3", "2|4", "2|5", "2|6", "3|4", "3|5"],
              "D": ["0|6", "2|2", "3|3", "3|6", "4|4", "4|6", "5|6"]}


@pytest.mark.parametrize("doubles, plays, legal, winner", [
    # RANK-05: 5|5 led calls fives and is the highest five, so the leader wins.
    ("high", ["5|5", "4|5", "0|5", "5|6"],
     [["1|5", "4|5"], ["0|5", "2|5", "3|5"], ["5|6"]], "A"),
    # NOTRUMP-02: 5|5 still calls fives, but is the lowest: 5|6 > 4|5 > 0|5 > 5|5.
    ("low", ["5|5", "4|5", "0|5", "5|6"],
     [["1|5", "4|5"], ["0|5", "2|5", "3|5"], ["5|6"]], "D"),
    # NOTRUMP-03: 5|5 calls the doubles; only doubles follow (B's fives do not), C holds
    # none and plays freely, and 6|6 is the highest double.
    ("own_suit", ["5|5", "6|6", "0|5", "3|3"],
     [["6|6"], LED_DOUBLE["C"], ["2|2", "3|3", "4|4"]], "B"),
])
def test_the_oracle_judges_a_led_double_by_the_declared_doubles(doubles, plays, legal,
                                                                  winner):
    """NOTRUMP-05 (NOTRUMP-02, NOTRUMP-03, RANK-05): under `no_trump` `doubles:
    "declared"` the doubles named in the declaration decide what follows a led double and
    who wins; the oracle of the property tests is keyed by them and agrees with these
    expectations, worked by hand from the spec, as the engine must."""
    m = Match.start({"dealer": "D", "hands": LED_DOUBLE,
                     "variants": {"no_trump": {"doubles": "declared"}}})
    m.apply({"type": "bid", "seat": "A", "points": 30})
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    m.apply({"type": "trump", "seat": "A", "trump": "none", "doubles": doubles})
    assert m.view()["contract"]["doubles"] == doubles
    m.apply({"type": "play", "seat": "A", "tile": plays[0]})
    for seat, tile, expected in zip("BCD", plays[1:], legal, strict=True):
        expected = sorted(expected, key=TILE_INDEX.get)
        assert naive_legal_plays(m, m.view()) == expected
        assert [a["tile"] for a in m.legal_actions()] == expected
        m.apply({"type": "play", "seat": seat, "tile": tile})
    view = m.view()
    trick = view["tricks"][0]
    assert naive_winner(m, trick, view["contract"]) == winner
    assert trick["winner"] == winner
