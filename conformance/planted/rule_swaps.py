"""Wrong rule functions and data, swapped into `Rules` (the engine's extension point).

Each function is the reference function of `reference_impl/rules.py` with the one mistake
its docstring names, the way real implementations get it wrong. Each keeps the signature
of the table entry it replaces, so the engine's legal actions follow it too (they are
built from the same table).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from reference_impl.rules import (
    BASE_RULES,
    COUNTERS,
    MISSING,
    TRUMP_SUIT,
    Contract,
    Problem,
    Rules,
    contract_outcome,
    declaration_problem,
    declared,
    follows,
    is_trump,
    marks_bid_problem,
    point_bid_problem,
    suit_rank,
    trick_rank,
    trump_rank,
)
from reference_impl.tiles import PIPS, TILE_COUNT

# ---- The dealer (DEAL) and bidding (BID) ---------------------------------------------


def dealer_kept_after_passes(rules: Rules, dealer: int, result: Any) -> int:
    """DEAL-05 broken: after four passes the same seat deals again."""
    return dealer if result is not None and result[0] == "all_passed" else (dealer + 1) & 3


def dealer_never_rotates(rules: Rules, dealer: int, result: Any) -> int:
    """DEAL-05 broken: the first dealer deals every round."""
    return dealer


def bidding_from_dealer(dealer: int) -> tuple[int, ...]:
    """BID-01 broken: bidding starts with the dealer and ends with the seat right of it."""
    return tuple((dealer + k) & 3 for k in range(4))


def equal_point_bid(rules: Rules, points: int, high_points: int, last_marks: int
                    ) -> Problem | None:
    """BID-03 broken: a point bid equal to the highest so far is accepted (and wins)."""
    if points == high_points and high_points and not last_marks:
        high_points -= 1
    return point_bid_problem(rules, points, high_points, last_marks)


def marks_step_two(rules: Rules, marks: int, last_marks: int, high_points: int = 0
                   ) -> Problem | None:
    """BID-06 broken: a later marks bid may also be two more than the previous one."""
    if last_marks and marks == last_marks + 2:
        last_marks += 1
    return marks_bid_problem(rules, marks, last_marks, high_points)


# ---- The declaration (CON) -------------------------------------------------------------


def stacks_ignored_on_points(rules: Rules, contract: Contract, trump: Any, stacks: Any
                             ) -> Any:
    """CON-03 broken: a point contract's declaration with `stacks` is accepted (ignored);
    the check and the recorded declaration both see no stacks."""
    return MISSING if contract.kind == "points" else stacks


def stacks_default_two(rules: Rules, contract: Contract, trump: Any, stacks: Any) -> Any:
    """CON-02 broken: a marks declaration without `stacks` is accepted with 2 stacks."""
    return 2 if contract.kind == "marks" and stacks is MISSING else stacks


def declaring_with(stacks_of):
    """The table's two declaration entries with the stacks read by `stacks_of`."""
    def problem(rules: Rules, contract: Contract, trump: Any, stacks: Any) -> Problem | None:
        return declaration_problem(rules, contract, trump,
                                   stacks_of(rules, contract, trump, stacks))

    def as_declared(rules: Rules, contract: Contract, trump: Any, stacks: Any) -> Contract:
        return declared(rules, contract, trump, stacks_of(rules, contract, trump, stacks))
    return {"declaration_problem": problem, "declared": as_declared}


# ---- Play (PLAY) ---------------------------------------------------------------------


def tiles_of(mask: int) -> list[int]:
    return [t for t in range(TILE_COUNT) if mask >> t & 1]


def must_trump_when_void(rules: Rules, contract: Contract, trick: list[int], playable: int
                         ) -> int:
    """PLAY-06 broken: a seat void in the called suit must play a trump if it holds one."""
    if not trick:
        return playable
    trump = contract.trump
    called = rules.called_suit(trick[0], trump)
    if any(rules.follows(t, called, trump) for t in tiles_of(playable)):
        return playable
    trumps = sum(1 << t for t in tiles_of(playable) if rules.follows(t, TRUMP_SUIT, trump))
    return trumps or playable


def must_overtrump(rules: Rules, contract: Contract, trick: list[int], playable: int) -> int:
    """PLAY-06 broken: once a trump is in the trick, a seat that trumps or follows a trump
    lead must beat the highest trump if it can."""
    trump = contract.trump
    played = [t for t in trick if rules.follows(t, TRUMP_SUIT, trump)]
    if not played:
        return playable
    called = rules.called_suit(trick[0], trump)
    if called != TRUMP_SUIT and any(rules.follows(t, called, trump)
                                    for t in tiles_of(playable)):
        return playable
    top = max(rules.trick_rank(t, called, trump) for t in played)
    higher = sum(1 << t for t in tiles_of(playable) if rules.follows(t, TRUMP_SUIT, trump)
                 and rules.trick_rank(t, called, trump) > top)
    return higher or playable


def leader_left_of_dealer(rules: Rules, contract: Contract, dealer: int) -> int:
    """PLAY-01 broken: the seat left of the dealer leads the first trick."""
    return (dealer + 1) & 3


def leader_rotates(rules: Rules, contract: Contract, leader: int, winner: int) -> int:
    """PLAY-03 broken: the lead passes clockwise instead of to the trick's winner."""
    return (leader + 1) & 3


# ---- Stakes (SCORE) ------------------------------------------------------------------


def set_awards_bidders(rules: Rules, contract: Contract, outcome: str, points: list[int]
                       ) -> tuple[int, list[int]]:
    """SCORE-02 broken: a set contract's stake goes to the bidding team."""
    gains = [0, 0]
    gains[contract.team] = rules.stake(rules, contract)
    return contract.team, gains

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
