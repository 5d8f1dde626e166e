"""Checks shared by the two property suites (test_properties.py for the base game,
test_variants_properties.py under random options): random candidate actions, the
rejection check (DIG-01..DIG-03) and the observation leak check (VIS-01, VIS-06)."""

from __future__ import annotations

import json
import random
from functools import cache

from conformance.specdata.index import load_index
from reference_impl import IllegalAction, Match
from reference_impl.tiles import NAMES, SEATS

from .spec_data import codes_in_check_order, schema_validator

ACCEPTS = {"pass": "bidding", "bid": "bidding", "trump": "declaring", "play": "playing"}
VALIDATE_VIEW = schema_validator("view.schema.json")
VALIDATE_OBS = schema_validator("observation.schema.json")


def candidates(rng: random.Random, count: int) -> list:
    """Random actions of every kind and seat, well formed or not."""
    seat = rng.choice([*SEATS, "E", None])
    pool = [
        {"type": "pass", "seat": seat},
        {"type": "bid", "seat": seat, "points": rng.randint(25, 45)},
        {"type": "bid", "seat": seat, "marks": rng.randint(-1, 6)},
        {"type": "trump", "seat": seat, "trump": rng.choice([0, 3, 6, 7, "doubles", "none", "x"])},
        {"type": "trump", "seat": seat, "trump": rng.randint(0, 6), "stacks": rng.randint(0, 3)},
        {"type": "play", "seat": seat, "tile": rng.choice(NAMES)},
        {"type": "play", "seat": seat, "tile": rng.choice(["6|5", "7|7", 5, None])},
        {"type": "play", "seat": seat, "tile": rng.choice(NAMES), "x": 1},
        {"type": "bid", "seat": seat, "points": True},
        {"type": rng.choice(["claim", None, 3]), "seat": seat},
        rng.choice([None, [], "play", 7]),
    ]
    return [rng.choice(pool) for _ in range(count)]


@cache
def _in_force(options: frozenset[str]) -> tuple[frozenset[str], dict[str, set[str]]]:
    """The rule IDs an error may cite and the codes (with the action types they apply to)
    it may carry when exactly `options` are on: the base ones, and with any option on the
    general variant rules and those of the options in force (variants.md; errors.yaml);
    PTERMS-02: `plunge_terms` puts the rules of `plunge` in force."""
    if "plunge_terms" in options:
        options = options | {"plunge"}
    index = load_index()
    lent = {rule for option in options for rule in index.in_force.get(option, ())}
    rules = frozenset(r.id for r in index.rules.values() if r.file == "rules.md" or (
        options and (r.variant is None or r.variant in options)) or r.id in lent)
    codes = {c["code"]: set(c["applies_to"]) for c in codes_in_check_order()
             if not c.get("variants") or options & set(c["variants"])}
    return rules, codes


def follow_me_alias(m: Match, action, legal: list) -> bool:
    """FOLLOWME-02: `"follow_me"` is accepted for `"none"` though never listed as legal."""
    return ("follow_me" in m.variants and isinstance(action, dict)
            and action.get("trump") == "follow_me" and {**action, "trump": "none"} in legal)


def check_rejected(m: Match, action, legal: list) -> None:
    """An action that is not legal is rejected (DIG-01) with a code of errors.yaml that
    applies to its type, citing a rule of the options in force, with WRONG_PHASE and
    NOT_YOUR_TURN settled first (DIG-02), and nothing changes (DIG-03)."""
    if action in legal or follow_me_alias(m, action, legal):
        return  # check_legal_list applies those
    rule_ids, applies_to = _in_force(frozenset(m.variants))
    before, before_json, before_view = m.clone(), m.to_json(), m.view()
    try:
        m.apply(action)
    except IllegalAction as error:
        code = error.code
        assert error.rule in rule_ids and error.message, error
    else:
        raise AssertionError(f"accepted an action not listed as legal: {action!r}")
    assert m == before and m.to_json() == before_json and m.view() == before_view  # DIG-03
    assert code in applies_to, (action, code)
    if code == "MALFORMED_ACTION":
        return
    assert type(action) is dict and action["type"] in applies_to[code], (action, code)
    if m.phase != ACCEPTS[action["type"]]:
        assert code == "WRONG_PHASE", (action, code)
    elif action["seat"] != m.to_act:
        assert code == "NOT_YOUR_TURN", (action, code)
    else:
        assert code not in ("WRONG_PHASE", "NOT_YOUR_TURN"), (action, code)


def check_observations(m: Match, validate: bool = True) -> None:
    """VIS-01, VIS-06 in every field; the views match their schemas (when `validate`)."""
    view = m.view()
    if validate:
        VALIDATE_VIEW(view)
    covered: set[str] = set()
    if m.phase == "playing" and view["contract"]["stacks"]:
        shown = view["contract"]["stacks"]
        for trick in view["tricks"][:-shown]:
            covered |= {p["tile"] for p in trick["plays"]}
    for seat in SEATS:
        obs = m.observe(seat)
        if validate:
            VALIDATE_OBS(obs)
        hidden = covered | {t for s in SEATS if s != seat for t in view["hands"][s]}
        text = json.dumps(obs)
        assert not any(f'"{t}"' in text for t in hidden), (seat, "sees a hidden tile")
        assert obs["hand"] == view["hands"][seat]
