"""The reference engine's promise on illegal actions (DIG-01, DIG-03): every action that
is not legal is rejected with a code listed in errors.yaml, and the referee view, every
observation and the legal list are byte for byte what they were. Shared by the
Hypothesis test (test_illegal_actions.py) and tests/engine/illegal_probe.py (>= 100,000)."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from reference_impl import IllegalAction, Match
from reference_impl.tiles import NAMES, SEATS

from .spec_data import _codes

OPTION_SETS: list[dict[str, Any]] = [
    {}, {}, {"nello": True}, {"sevens": True}, {"plunge": True}, {"follow_me": True},
    {"forced_bid": True}, {"bid_42": True}, {"undeclared_trump": True},
    {"match_points": {"target": 7}}, {"deal_by_drawing": True},
    {"nello": True, "plunge": True, "sevens": True},
]


@cache
def listed_codes() -> frozenset[str]:
    return frozenset(c["code"] for c in _codes())


def snapshot(m: Match) -> bytes:
    """Everything a caller can read of a match, as bytes."""
    parts = [m.view(), m.legal_actions(), *(m.observe(seat) for seat in SEATS)]
    return json.dumps(parts, separators=(",", ":")).encode()


def position(seed: int, steps: int, variants: dict[str, Any]) -> Match:
    """A match from `seed` after up to `steps` random legal actions (deals included)."""
    rng = random.Random(seed)
    m = Match.from_seed(seed, variants=variants or None)
    for _ in range(steps):
        legal = m.legal_actions()
        if legal:
            m.apply(rng.choice(legal))
        elif m.phase == "match_over":
            break
        else:
            order = list(NAMES)
            rng.shuffle(order)
            m.deal({"order": order})
    return m


def near_legal(rng: random.Random, m: Match) -> Any:
    """An action close to a legal one: another seat, tile, type or field, or garbage."""
    legal = m.legal_actions()
    base = dict(rng.choice(legal)) if legal else {"type": "pass", "seat": "A"}
    change = rng.randrange(8)
    if change == 0:
        base["seat"] = rng.choice([*SEATS, "E", "", None, 0])
    elif change == 1:
        base["type"] = rng.choice(["pass", "bid", "trump", "play", "claim", None, 1])
    elif change == 2:
        base["tile"] = rng.choice([*NAMES, "7|7", "3|5", "6-6", 12, None])
    elif change == 3:
        base[rng.choice(["points", "marks", "trump", "stacks"])] = rng.choice(
            [-1, 0, 1, 6, 7, 29, 30, 41, 42, 43, 2**53, True, 1.0, "30", None, "doubles",
             "none", "follow_me", "nello", "sevens"])
    elif change == 4:
        base["x_extra"] = 1
    elif change == 5:
        base.pop(rng.choice(list(base)), None)
    elif change == 6:
        return rng.choice([None, [], {}, "pass", 7, [base], {"action": base}])
    return base


def judge(m: Match, action: Any) -> str:
    """'' if the engine keeps its promise for `action` at `m` (or the action is legal)."""
    if action in m.legal_actions():
        return ""
    if isinstance(action, dict) and action.get("trump") == "follow_me":
        return ""  # FOLLOWME-02: an accepted alias of "none", never listed
    before = snapshot(m)
    try:
        m.apply(action)
    except IllegalAction as error:
        if error.code not in listed_codes():
            return f"{action!r}: code {error.code} is not in errors.yaml"
        if snapshot(m) != before:
            return f"{action!r}: rejected with {error.code} but the match changed (DIG-03)"
        return ""
    except Exception as error:  # noqa: BLE001 - a crash is a violation too
        return f"{action!r}: raised {type(error).__name__}: {error}"
    return f"{action!r}: accepted, though not in legal_actions() (DIG-01)"
