"""The rules of the base game as data and small functions, each citing its rule ID.

`Rules` is the configuration the engine consults: a variant (spec/variants.md) changes a
field of data or swaps one function, it does not fork the engine. The functions here are
written to read like spec/rules.md; the engine's hot path uses tables built from them
(`tables.py`), never a second copy of a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from .errors import IllegalAction
from .tiles import PIPS, TILE_INDEX

# CON-01: the nine trump choices, in the canonical order of actions.md.
TRUMP_CHOICES: tuple[int | str, ...] = (0, 1, 2, 3, 4, 5, 6, "doubles", "none")
# A called suit is a number 0..6, or TRUMP_SUIT when a trump was led (SUIT-04).
TRUMP_SUIT = 7
# PTS-02: counter tiles and their round points; every other tile is 0.
COUNTERS: Mapping[str, int] = {"0|5": 5, "1|4": 5, "2|3": 5, "4|6": 10, "5|5": 10}


class Contract(NamedTuple):
    """The winning bid and its declaration (CON-04); `trump`/`stacks` None until declared."""

    declarer: int
    team: int
    kind: str  # "points" or "marks"
    value: int
    trump: int | str | None = None
    stacks: int | None = None


# ---- Suits (SUIT) and ranks (RANK) --------------------------------------------------


def is_trump(tile: int, trump: int | str) -> bool:
    """SUIT-01 (number trump: any tile showing it), SUIT-02 (doubles), SUIT-03 (none)."""
    a, b = PIPS[tile]
    if trump == "doubles":
        return a == b
    if trump == "none":
        return False
    return trump in (a, b)


def called_suit(lead: int, trump: int | str) -> int:
    """SUIT-04: a trump lead calls trumps; SUIT-05: otherwise the larger number is called
    (a non-trump double calls its own number)."""
    if is_trump(lead, trump):
        return TRUMP_SUIT
    return PIPS[lead][1]


def follows(tile: int, called: int, trump: int | str) -> bool:
    """SUIT-04: only trumps follow a trump lead; SUIT-06: a non-trump showing the called
    number follows it."""
    if called == TRUMP_SUIT:
        return is_trump(tile, trump)
    return not is_trump(tile, trump) and called in PIPS[tile]


def suit_rank(tile: int, suit: int) -> int:
    """RANK-03 (and RANK-05): in number suit `suit` the double is highest (7), the others
    rank by their other number."""
    a, b = PIPS[tile]
    if a == b:
        return 7
    return a if b == suit else b


def trump_rank(tile: int, trump: int | str) -> int:
    """RANK-04: trump doubles rank by their number; RANK-03: a number trump as a suit."""
    if trump == "doubles":
        return PIPS[tile][0]
    return suit_rank(tile, int(trump))


def trick_rank(tile: int, called: int, trump: int | str) -> int:
    """RANK-01: any trump beats every non-trump; RANK-02: otherwise a tile of the called
    suit ranks in it, and a tile that neither follows nor is a trump never wins (-1)."""
    if is_trump(tile, trump):
        return 8 + trump_rank(tile, trump)
    if follows(tile, called, trump):
        return suit_rank(tile, called)
    return -1


def counter_points(tile: int, counters: Mapping[str, int] = COUNTERS) -> int:
    """PTS-02: round points of a tile captured in a trick."""
    for name, points in counters.items():
        if TILE_INDEX[name] == tile:
            return points
    return 0


# ---- Bidding (BID) and declaration (CON) --------------------------------------------

Problem = tuple[str, str, str]  # (error code, rule ID, message)


def point_bid_problem(rules: Rules, points: int, high_points: int, last_marks: int
                      ) -> Problem | None:
    """BID-02 range, then BID-07 (no point bid after a marks bid), then BID-03 (higher than
    every point bid so far); `high_points`/`last_marks` are 0 when there is none."""
    if points not in rules.point_bids:
        low, high = rules.point_bids[0], rules.point_bids[-1]
        return ("POINT_BID_RANGE", "BID-02", f"a point bid is {low}..{high}, not {points}")
    if last_marks and not rules.point_bid_after_marks:
        return ("BID_TOO_LOW", "BID-07", f"no point bid after a bid of {last_marks} marks")
    if points <= high_points:
        return ("BID_TOO_LOW", "BID-03", f"a point bid must be higher than {high_points}")
    return None


def marks_bid_problem(rules: Rules, marks: int, last_marks: int) -> Problem | None:
    """BID-05: the first marks bid is 1 or 2; BID-06: each later one exactly one more."""
    if not last_marks:
        if marks not in rules.first_marks_bids:
            allowed = " or ".join(map(str, rules.first_marks_bids))
            return ("MARKS_BID_STEP", "BID-05",
                    f"the first marks bid is {allowed} marks, not {marks}")
    elif marks != last_marks + rules.marks_step:
        return ("MARKS_BID_STEP", "BID-06",
                f"after {last_marks} marks the only marks bid is "
                f"{last_marks + rules.marks_step}, not {marks}")
    return None


def legal_point_bids(rules: Rules, high_points: int, last_marks: int) -> list[int]:
    """The point bids `point_bid_problem` accepts, by number."""
    return [p for p in rules.point_bids
            if point_bid_problem(rules, p, high_points, last_marks) is None]


def legal_marks_bids(rules: Rules, last_marks: int) -> list[int]:
    """The marks bids `marks_bid_problem` accepts, by number."""
    candidates = rules.first_marks_bids if not last_marks else (last_marks + rules.marks_step,)
    return [m for m in candidates if marks_bid_problem(rules, m, last_marks) is None]


MISSING: Any = object()  # a `stacks` field that was not given


def declaration_problem(rules: Rules, contract: Contract, trump: Any, stacks: Any
                        ) -> Problem | None:
    """CON-01 trump choice, then CON-03 (no stacks on a point contract), CON-02 (a marks
    contract needs stacks 1 or 2), in the check order of errors.yaml."""
    if trump not in rules.trumps:
        choices = ", ".join(map(str, rules.trumps))
        return ("INVALID_TRUMP", "CON-01", f"trump must be one of {choices}, not {trump!r}")
    if contract.kind == "points":
        if stacks is not MISSING:
            return ("STACKS_NOT_ALLOWED", "CON-03", "a point contract has no stacks choice")
        return None
    if stacks is MISSING:
        return ("STACKS_REQUIRED", "CON-02", "a marks contract must choose stacks 1 or 2")
    if stacks not in rules.stacks:
        return ("STACKS_INVALID", "CON-02", f"stacks must be 1 or 2, not {stacks}")
    return None


# ---- Outcome (END), stakes (SCORE) and the match (MATCH) -----------------------------


def contract_outcome(rules: Rules, contract: Contract, points: list[int],
                     tricks_won: list[int]) -> str | None:
    """END-01..END-04, checked after each completed trick (END-05): "made", "set" or
    None while undecided. `points`/`tricks_won` are indexed by team."""
    bidders, defenders = contract.team, 1 - contract.team
    if contract.kind == "marks":
        if tricks_won[defenders]:
            return "set"  # END-04: the first trick the defenders win
        if tricks_won[bidders] == 7:
            return "made"  # END-03
        return None
    if points[bidders] >= contract.value:
        return "made"  # END-01
    if points[defenders] > rules.round_points - contract.value:
        return "set"  # END-02
    return None


def contract_stake(rules: Rules, contract: Contract) -> int:
    """SCORE-01: 1 mark for a point contract, n marks for a marks bid of n."""
    return contract.value if contract.kind == "marks" else 1


def match_winner(rules: Rules, marks: list[int]) -> int | None:
    """MATCH-01, MATCH-02: the team with `marks_target` or more marks wins (only one team
    scores in a round, so at most one can reach it first)."""
    for team, team_marks in enumerate(marks):
        if team_marks >= rules.marks_target:
            return team
    return None


# ---- The configuration -------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The parameters and swappable rule functions of one game (the base game by default)."""

    point_bids: range = range(30, 42)  # BID-02: 30..41
    first_marks_bids: tuple[int, ...] = (1, 2)  # BID-05
    marks_step: int = 1  # BID-06
    point_bid_after_marks: bool = False  # BID-07
    trumps: tuple[int | str, ...] = TRUMP_CHOICES  # CON-01
    stacks: tuple[int, ...] = (1, 2)  # CON-02
    counters: tuple[tuple[str, int], ...] = tuple(COUNTERS.items())  # PTS-02
    marks_range: range = range(0, 7)  # SCORE-03: starting marks a setup may give
    marks_target: int = 7  # MATCH-01
    # The rule functions a variant may swap (Nel-O, Sevens, a 250-point match, ...).
    called_suit: Callable[[int, Any], int] = field(default=called_suit)
    follows: Callable[[int, int, Any], bool] = field(default=follows)
    trick_rank: Callable[[int, int, Any], int] = field(default=trick_rank)
    outcome: Callable[..., str | None] = field(default=contract_outcome)
    stake: Callable[[Rules, Contract], int] = field(default=contract_stake)
    match_winner: Callable[[Rules, list[int]], int | None] = field(default=match_winner)

    @cached_property
    def round_points(self) -> int:
        """PTS-03: 7 trick points plus the counters (42)."""
        return 7 + sum(points for _, points in self.counters)


BASE_RULES = Rules()


def rules_for(variants: Any) -> Rules:
    """The Rules for a setup's `variants` object; only the base game ({}) exists so far."""
    if variants == {}:
        return BASE_RULES
    if not isinstance(variants, dict):
        raise IllegalAction("INVALID_SETUP", "DIG-06", "`variants` must be an object")
    names = ", ".join(sorted(map(str, variants)))
    raise IllegalAction("INVALID_SETUP", "DIG-06",
                        f"the reference engine does not support variants yet: {names}")
