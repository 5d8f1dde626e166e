"""Lookup tables for the hot path, built once per `Rules` from its rule functions.

Indexed by trump index (position of the trump choice in `rules.trumps`), then by called
suit (0..6, or TRUMP_SUIT), then by tile. Nothing here restates a rule: every entry is
computed by the function in `rules.py` that cites it.
"""

from __future__ import annotations

from functools import cache

from .rules import TRUMP_SUIT, Rules, counter_points
from .tiles import TILE_COUNT

CALLED_SUITS = range(TRUMP_SUIT + 1)


class Tables:
    """Per trump: the suit a lead calls, follow masks and trick ranks; counter points."""

    __slots__ = ("called", "follow", "rank", "counters")

    def __init__(self, rules: Rules) -> None:
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


@cache
def tables_for(rules: Rules) -> Tables:
    return Tables(rules)
