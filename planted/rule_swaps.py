"""Wrong rule functions and data, swapped into `Rules` (the engine's own seam).

Each function is the reference function of `reference_impl/rules.py` with the one mistake
its docstring names, the way real implementations get it wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from reference_impl.rules import (
    BASE_RULES,
    COUNTERS,
    TRUMP_SUIT,
    Contract,
    Rules,
    contract_outcome,
    follows,
    is_trump,
    suit_rank,
    trick_rank,
    trump_rank,
)
from reference_impl.tiles import PIPS

# ---- Suits (SUIT) --------------------------------------------------------------------


def called_by_smaller_end(lead: int, trump: Any) -> int:
    """SUIT-05 broken: a non-trump lead calls its smaller number."""
    if is_trump(lead, trump):
        return TRUMP_SUIT
    return PIPS[lead][0]


def trump_lead_calls_larger_end(lead: int, trump: Any) -> int:
    """SUIT-04 broken: every lead calls its larger number, a trump lead included."""
    return PIPS[lead][1]


def trump_follows_other_number(tile: int, called: int, trump: Any) -> bool:
    """SUIT-01 broken: under a number trump, a trump also follows its other number."""
    if called != TRUMP_SUIT and type(trump) is int:
        return called in PIPS[tile]
    return follows(tile, called, trump)


def double_follows_under_doubles(tile: int, called: int, trump: Any) -> bool:
    """SUIT-02 broken: under doubles trump, a double also follows its number."""
    if called != TRUMP_SUIT and trump == "doubles":
        return called in PIPS[tile]
    return follows(tile, called, trump)


def never_follows(tile: int, called: int, trump: Any) -> bool:
    """PLAY-05 broken: nothing is ever required to follow."""
    return False


# ---- Ranks (RANK) --------------------------------------------------------------------


def double_lowest_rank(tile: int, suit: int) -> int:
    """RANK-03 broken: the double is the lowest of its suit (0), the others 1 + other end."""
    a, b = PIPS[tile]
    if a == b:
        return 0
    return 1 + (a if b == suit else b)


def rank_doubles_low(tile: int, called: int, trump: Any) -> int:
    if is_trump(tile, trump):
        return 9 + (PIPS[tile][0] if trump == "doubles" else double_lowest_rank(tile, trump))
    if follows(tile, called, trump):
        return double_lowest_rank(tile, called)
    return -1


def rank_doubles_trump_reversed(tile: int, called: int, trump: Any) -> int:
    """RANK-04 broken: under doubles trump, 0|0 is the highest trump and 6|6 the lowest."""
    if trump == "doubles" and is_trump(tile, trump):
        return 8 + 6 - PIPS[tile][0]
    return trick_rank(tile, called, trump)


def rank_trump_not_above_suit(tile: int, called: int, trump: Any) -> int:
    """RANK-01 broken: a trump ranks on the same scale as the called suit (no trump bonus),
    so 6|6 of sixes called beats 0|3 under trump threes."""
    if is_trump(tile, trump):
        return trump_rank(tile, trump)
    return trick_rank(tile, called, trump)


def rank_off_suit_in_own_suit(tile: int, called: int, trump: Any) -> int:
    """RANK-02 broken: a tile that neither follows nor trumps ranks in its own (larger)
    suit, so an off-suit 6|6 beats the 5|6 of fives called."""
    if not is_trump(tile, trump) and not follows(tile, called, trump):
        return suit_rank(tile, PIPS[tile][1])
    return trick_rank(tile, called, trump)


# ---- Round points (PTS) ----------------------------------------------------------------


@dataclass(frozen=True)
class FixedTotalRules(Rules):
    """Counters changed, the 42 of END-02 left as a constant (as most engines write it)."""

    @property
    def round_points(self) -> int:
        return 42


def counter_rules(changes: dict[str, int]) -> Rules:
    """The base rules with some counter values changed (0 removes a counter)."""
    table = {**COUNTERS, **changes}
    return FixedTotalRules(counters=tuple((t, p) for t, p in table.items() if p))


# ---- Outcome (END), stakes (SCORE), match (MATCH) ------------------------------------


def outcome_set_at_remainder(rules: Rules, contract: Contract, points: list[int],
                             tricks_won: list[int]) -> str | None:
    """END-02 broken: set as soon as the defenders reach 42 - B (not exceed it)."""
    if contract.kind == "points":
        if points[contract.team] >= contract.value:
            return "made"
        if points[1 - contract.team] >= rules.round_points - contract.value:
            return "set"
        return None
    return contract_outcome(rules, contract, points, tricks_won)


def outcome_made_after_seven(rules: Rules, contract: Contract, points: list[int],
                             tricks_won: list[int]) -> str | None:
    """END-01 broken: a point contract is made only once all seven tricks are played."""
    outcome = contract_outcome(rules, contract, points, tricks_won)
    if outcome == "made" and contract.kind == "points" and sum(tricks_won) < 7:
        return None
    return outcome


def outcome_marks_set_by_counters(rules: Rules, contract: Contract, points: list[int],
                                  tricks_won: list[int]) -> str | None:
    """END-04 broken: a marks contract is set only by a trick holding a counter; a
    count-less trick won by the defenders does not set it."""
    if contract.kind != "marks":
        return contract_outcome(rules, contract, points, tricks_won)
    defenders = 1 - contract.team
    if points[defenders] > tricks_won[defenders]:  # PTS-01: 1 per trick; more = counters
        return "set"
    if sum(tricks_won) == 7:
        return "made"
    return None


def stake_always_one(rules: Rules, contract: Contract) -> int:
    """SCORE-01 broken: every contract is worth 1 mark."""
    return 1


def winner_at_exactly_target(rules: Rules, marks: list[int]) -> int | None:
    """MATCH-02 broken: only exactly 7 marks wins (6 + 2 = 8 does not)."""
    for team, team_marks in enumerate(marks):
        if team_marks == rules.marks_target:
            return team
    return None


def winner_by_two(rules: Rules, marks: list[int]) -> int | None:
    """MATCH-02 broken: 7 or more marks win only with a lead of two."""
    for team, team_marks in enumerate(marks):
        if team_marks >= rules.marks_target and team_marks - marks[1 - team] >= 2:
            return team
    return None


def base_with(**changes: Any) -> Rules:
    """The base rules with some fields changed."""
    return replace(BASE_RULES, **changes)
