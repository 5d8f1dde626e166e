"""Lookup tables for the hot path, built once per `Rules` from its rule functions.

Indexed by trump index (position of the trump choice in `rules.trumps`), then by called
suit (0..6, or TRUMP_SUIT), then by tile. Nothing here restates a rule: every entry is
computed by the function in `rules.py` that cites it.
"""

from __future__ import annotations

from .actions import bidding_actions, declaring_actions
from .rules import TRUMP_SUIT, Rules, counter_points
from .tiles import TILE_COUNT

CALLED_SUITS = range(TRUMP_SUIT + 1)


class Tables:
    """Per trump: the suit a lead calls, follow masks and trick ranks; counter points;
    and the legal bidding and declaring actions, filled in as they are asked for."""

    __slots__ = ("rules", "called", "follow", "rank", "counters", "_bidding", "_declaring")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._bidding: dict[tuple[int, int, int], tuple[dict, ...]] = {}
        self._declaring: dict[tuple[int, str], tuple[dict, ...]] = {}
        tiles = range(TILE_COUNT)
        # called[trump][lead] -> called suit (SUIT-04, SUIT-05)
        self.called = tuple(tuple(rules.called_suit(t, trump) for t in tiles)
                            for trump in rules.trumps)
        # follow[trump][called] -> mask of the tiles that follow (SUIT-04, SUIT-06)
        self.follow = tuple(
            tuple(sum(1 << t for t in tiles if rules.follows(t, suit, trump))
                  for suit in CALLED_SUITS)
            for trump in rules.trumps)
        # rank[trump][called][tile] -> trick rank, the highest wins (RANK-01..RANK-05)
        self.rank = tuple(
            tuple(tuple(rules.trick_rank(t, suit, trump) for t in tiles)
                  for suit in CALLED_SUITS)
            for trump in rules.trumps)
        # counters[tile] -> round points (PTS-02)
        self.counters = tuple(counter_points(t, dict(rules.counters)) for t in tiles)


    def bidding(self, seat: int, high_points: int, last_marks: int) -> tuple[dict, ...]:
        key = (seat, high_points, last_marks)
        found = self._bidding.get(key)
        if found is None:
            found = self._bidding[key] = bidding_actions(self.rules, *key)
        return found

    def declaring(self, seat: int, kind: str) -> tuple[dict, ...]:
        key = (seat, kind)
        found = self._declaring.get(key)
        if found is None:
            found = self._declaring[key] = declaring_actions(self.rules, *key)
        return found


_TABLES: dict[int, Tables] = {}  # by id(rules); each entry keeps its rules alive


def tables_for(rules: Rules) -> Tables:
    """The tables of `rules`, built once (looked up by identity: hashing Rules is slow)."""
    tables = _TABLES.get(id(rules))
    if tables is None or tables.rules is not rules:
        tables = _TABLES[id(rules)] = Tables(rules)
    return tables
