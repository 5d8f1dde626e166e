"""The kit for Python engines (an adapter in process, `--adapter python:MODULE:OBJECT`):
the checks an adapter makes before its engine sees a payload, as the node, Go and Rust
kits have them. Each reads the payload with the reference engine's own parsers, so a form
rule is written once (`reference_impl/setup.py`, `reference_impl/actions.py`), and each
refusal is a `Rejected` with the code of spec/errors.yaml.

    from conformance.kit import PartialOption, check_action, check_setup

    variants: list[str | PartialOption] = [       # typed: an option supported in part
        "nello", {"name": "forced_bid", "settings": {"bid": ["any"]}}]

    def start(self, setup):
        checked = check_setup(setup)          # INVALID_SETUP before anything changes
        self.game = my42.Game(checked.dealer, checked.marks, checked.hands)
        self.variants = checked.variants

    def act(self, action):
        self.game.apply(check_action(action, self.variants))   # MALFORMED_ACTION first
"""

from __future__ import annotations

from typing import Any, NamedTuple

from conformance.adapters.protocol import Declared, PartialOption, Rejected

__all__ = ["Declared", "PartialOption", "Setup", "check_action", "check_setup"]


class Setup(NamedTuple):
    """A setup's parts, checked: the first dealer, the starting marks (each team's; under
    `match_points` its starting score), the options in force as given, each seat's hand
    in the order dealt (its `hands`, or its `order` dealt by DEAL-02)."""

    dealer: str
    marks: dict[str, int]
    variants: dict[str, Any]
    hands: dict[str, list[str]]


def check_setup(setup: Any) -> Setup:
    """A setup checked as the spec gives its form (actions.md, DIG-06, VAR-01, SCORE-03):
    a dealer (or, under `deal_by_drawing`, its draws), marks of both teams in range, valid
    options and settings, exactly one of hands and order with the 28 tiles; else
    `Rejected("INVALID_SETUP")`. Nothing of `setup` is kept: the parts are copies."""
    from reference_impl.errors import IllegalAction
    from reference_impl.setup import invalid, parse_setup
    from reference_impl.tiles import NAMES, SEATS
    from reference_impl.variants import rules_for

    try:
        if type(setup) is not dict:
            raise invalid("a setup must be an object")
        variants = setup.get("variants", {})
        dealer, marks, hands = parse_setup(setup, rules_for(variants))
    except IllegalAction as refused:
        raise Rejected(refused.code, refused.message) from None
    hand_of = {seat: [NAMES[tile] for tile in hand]
               for seat, hand in zip(SEATS, hands, strict=True)}
    return Setup(SEATS[dealer], {"AC": marks[0], "BD": marks[1]}, dict(variants), hand_of)


def check_action(action: Any, variants: dict[str, Any] | None = None) -> dict[str, Any]:
    """An action's form checked (DIG-01, actions.md "Malformed or illegal"): a known type
    with exactly its fields, seat A..D, integers, trump an integer or a string, a tile of
    the 28; a field an option adds only with that option in force (`variants`, the
    setup's, as check_setup returns them). Else `Rejected("MALFORMED_ACTION")`. Values
    are left to the rules (`"points": 29` is well formed). Returns the action."""
    from reference_impl.actions import parse_action
    from reference_impl.errors import IllegalAction
    from reference_impl.variants import rules_for

    try:
        parse_action(action, rules_for(variants or {}))
    except IllegalAction as refused:
        raise Rejected(refused.code, refused.message) from None
    return action
