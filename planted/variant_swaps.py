"""Wrong variant rules, as changes to the `Rules` an option puts in force.

Each change takes the Rules of a game with the option on (reference_impl/variants.py) and
returns them with the one mistake its docstring names, the way real implementations of
spec/variants.md get it wrong. A change only ever runs when its option is on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from reference_impl import variant_rules as vr
from reference_impl.dealing import deal_order
from reference_impl.rules import Contract, Rules, contract_outcome
from reference_impl.tiles import PIPS

Outcome = Callable[[Rules, Contract, list[int], list[int]], "str | None"]

# ---- helpers -------------------------------------------------------------------------


def with_choice(rules: Rules, name: str, **fields: Any) -> Rules:
    """`rules` with fields of the option choice `name` (nello, sevens, first_tile)
    replaced."""
    choices = tuple((n, c._replace(**fields) if n == name else c) for n, c in rules.choices)
    return replace(rules, choices=choices)


def fields(**changes: Any):
    """A change that sets plain `Rules` fields."""
    return lambda rules: replace(rules, **changes)


def choice_fields(name: str, **changes: Any):
    """A change that sets fields of one option choice."""
    return lambda rules: with_choice(rules, name, **changes)


# ---- match_points (MPTS) -------------------------------------------------------------


def score_made_points_to_bidders_only(rules: Rules, contract: Contract, outcome: str,
                                      points: list[int]) -> tuple[int, list[int]]:
    """MPTS-04 broken: a made point contract adds the bidders' round points only; the
    defenders' round points are lost."""
    team, gains = vr.points_score(rules, contract, outcome, points)
    if outcome == "made" and contract.kind == "points":
        gains[1 - contract.team] = 0
    return team, gains


def score_set_without_round_points(rules: Rules, contract: Contract, outcome: str,
                                   points: list[int]) -> tuple[int, list[int]]:
    """MPTS-06 broken: a set contract adds the value of the bid to the defenders, without
    the round points they took."""
    team, gains = vr.points_score(rules, contract, outcome, points)
    if outcome == "set":
        gains[team] = rules.stake(rules, contract)
    return team, gains


def stake_is_bid_number(rules: Rules, contract: Contract) -> int:
    """MPTS-03 broken: a marks bid of n is worth n points (not 42 n)."""
    return contract.value


def winner_above_target(rules: Rules, marks: list[int]) -> int | None:
    """MPTS-08 broken: a team must pass the target (> instead of >=)."""
    for team, score in enumerate(marks):
        if score > rules.marks_target:
            return team
    return None


# ---- deal_by_drawing (DRAW) ----------------------------------------------------------


def drawn_clockwise(order: list[int], dealer: int) -> tuple:
    """DRAW-02 broken: the hands are drawn clockwise from the dealer's left (left-hand
    opponent, partner, right-hand opponent, dealer) instead of both opponents first."""
    hands: list[tuple[int, ...]] = [(), (), (), ()]
    for k in range(4):
        hands[(dealer + 1 + k) & 3] = tuple(order[7 * k:7 * k + 7])
    return tuple(hands)


DEALT_ONE_AT_A_TIME = fields(deal_order=deal_order)  # DRAW-02 broken: the base DEAL-02


# ---- undeclared_trump (UNDECL) -------------------------------------------------------


def first_tile_setting_flipped(setting: str, values: tuple[str, str]):
    """UNDECL-03 broken: the first tile reads the other value of `setting` (end: high and
    low swapped, or double: number and doubles swapped)."""
    def change(rules: Rules) -> Rules:
        given = rules.choice("first_tile").sets_trump.keywords
        flipped = {**given, setting: values[1] if given[setting] == values[0] else values[0]}
        return with_choice(rules, "first_tile",
                           sets_trump=partial(vr.first_tile_trump, **flipped))
    return change


# ---- nello and sevens: when the contract is decided ---------------------------------


def decided_after_seventh_trick(outcome: Outcome) -> Outcome:
    """NELLO-07, SEVENS-06 broken: `outcome` is consulted only once all seven tricks are
    played, so the round goes on after the trick that already set the contract."""
    def late(rules: Rules, contract: Contract, points: list[int], tricks_won: list[int]
             ) -> str | None:
        return outcome(rules, contract, points, tricks_won) if sum(tricks_won) == 7 else None
    return late


NELLO_DECIDED_LATE = decided_after_seventh_trick(vr.nello_outcome)  # NELLO-07 broken
SEVENS_DECIDED_LATE = decided_after_seventh_trick(contract_outcome)  # SEVENS-06 broken


# ---- nello (NELLO) -------------------------------------------------------------------

NELLO_DOUBLES_HIGH = dict(called_suit=vr.nello_called, follows=vr.nello_follows,
                          trick_rank=vr.nello_rank_doubles_high)


def nello_doubles_always_high(rules: Rules) -> Rules:
    """NELLO-06 broken: the `doubles` setting is ignored; doubles are always high."""
    return with_choice(rules, "nello", **NELLO_DOUBLES_HIGH)


# ---- sevens (SEVENS) -----------------------------------------------------------------


def sevens_rank_signed_distance(tile: int, called: int, trump: object) -> int:
    """SEVENS-03 broken: the distance is a + b - 7 without the absolute value, so the
    tiles under seven pips count as closest (0|0 wins every trick)."""
    a, b = PIPS[tile]
    return 7 - (a + b - 7)


# ---- match_points, again -------------------------------------------------------------


def score_made_marks_with_round_points(rules: Rules, contract: Contract, outcome: str,
                                       points: list[int]) -> tuple[int, list[int]]:
    """MPTS-05 broken: on a made marks contract the defenders also add their round
    points, as on a point contract."""
    team, gains = vr.points_score(rules, contract, outcome, points)
    if outcome == "made" and contract.kind == "marks":
        gains[1 - contract.team] = points[1 - contract.team]
    return team, gains


def target_setting_ignored(rules: Rules) -> Rules:
    """MPTS-01 broken: the `target` setting is ignored; every match is to 250."""
    return replace(rules, marks_target=250, marks_range=range(0, 250))
