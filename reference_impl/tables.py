"""Lookup tables for the hot path, built once per `Rules` from its rule functions.

Indexed by trump index (position of the trump choice in `rules.trumps`), then by called
suit (0..6, or TRUMP_SUIT), then by tile. Nothing here restates a rule: every entry is
computed by the function of the rule table (`Rules`) that cites it.
"""

from __future__ import annotations

from .actions import bidding_actions, declaring_actions
from .rules import (
    BASE_RULES,
    TRUMP_SUIT,
    Bidding,
    Contract,
    Rules,
    counter_points,
    dealer_may_pass,
)
from .tiles import TILE_COUNT

CALLED_SUITS = range(TRUMP_SUIT + 1)


class Tables:
    """Per trump: the suit a lead calls, follow masks and trick ranks; counter points; and
    the legal bidding and declaring actions, filled in as they are asked for."""

    __slots__ = ("rules", "called", "follow", "rank", "counters", "bidding_orders",
                 "plain_bidding", "_bidding", "_declaring", "_doubles_matter")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._bidding: dict[tuple, tuple[dict, ...]] = {}
        self._declaring: dict[tuple, tuple[dict, ...]] = {}
        # Without special bids and with the base game's dealer after three passes, the legal
        # bids depend on the highest bids alone, so a key of (seat, high_points,
        # last_marks) will do (see bidding()).
        self.plain_bidding = (rules.dealer_bid_problem is dealer_may_pass  # pragma: no mutate
                              and not rules.special_bids)
        self._doubles_matter = (rules.declaration_problem is not  # pragma: no mutate
                                BASE_RULES.declaration_problem)
        tiles = range(TILE_COUNT)
        called, follows, rank = rules.called_suit, rules.follows, rules.trick_rank
        # called[trump][lead] -> called suit (SUIT-04, SUIT-05); one entry per suit key
        # (rules.suit_keys: the trumps, then a choice's named doubles, NELLO-13)
        keys = rules.suit_keys
        self.called = tuple(tuple(called(t, trump) for t in tiles) for trump in keys)
        # follow[trump][called] -> mask of the tiles that follow (SUIT-04, SUIT-06)
        self.follow = tuple(
            tuple(sum(1 << t for t in tiles if follows(t, suit, trump))
                  for suit in CALLED_SUITS)
            for trump in keys)
        # rank[trump][called][tile] -> trick rank, the highest wins (RANK-01..RANK-05)
        self.rank = tuple(
            tuple(tuple(rank(t, suit, trump) for t in tiles) for suit in CALLED_SUITS)
            for trump in keys)
        # bidding_orders[dealer] -> the seats in bidding order (BID-01)
        self.bidding_orders = tuple(map(rules.bidding_order, range(4)))  # pragma: no mutate
        # counters[tile] -> round points (PTS-02)
        # pragma: no mutate start
        self.counters = tuple(counter_points(t, dict(rules.counters)) for t in tiles)
        # pragma: no mutate end

    def bidding(self, seat: int, state: Bidding) -> tuple[dict, ...]:
        key = (seat, state)
        found = self._bidding.get(key)  # pragma: no mutate
        if found is None:
            found = self._bidding[key] = bidding_actions(self.rules, seat, state)
        return found

    def plain_bidding_actions(self, seat: int, high_points: int, last_marks: int
                              ) -> tuple[dict, ...]:
        """bidding() for `plain_bidding` rules, which read nothing else of the state."""
        key = (seat, high_points, last_marks)
        found = self._bidding.get(key)  # pragma: no mutate
        if found is None:
            state = Bidding(high_points, last_marks, False, False, 0)  # pragma: no mutate
            found = self._bidding[key] = bidding_actions(self.rules, seat, state)
        return found

    def declaring(self, seat: int, contract: Contract) -> tuple[dict, ...]:
        # the declarer's doubles matter only to an option's declaration check (PTERMS-07,
        # PTERMS-10): the base game keys them out, so one entry serves every hand
        doubles = contract.doubles if self._doubles_matter else 0  # pragma: no mutate
        key = (seat, contract.kind, contract.value,  # pragma: no mutate
               contract.partner_declares, contract.compelled, doubles, contract.announced)
        found = self._declaring.get(key)  # pragma: no mutate
        if found is None:
            found = self._declaring[key] = declaring_actions(self.rules, seat, contract)
        return found


_TABLES: dict[int, Tables] = {}  # by id(rules); each entry keeps its rules alive


def tables_for(rules: Rules) -> Tables:
    """The tables of `rules`, built once (looked up by identity: hashing Rules is slow)."""
    tables = _TABLES.get(id(rules))  # pragma: no mutate
    if tables is None or tables.rules is not rules:  # pragma: no mutate
        tables = _TABLES[id(rules)] = Tables(rules)  # pragma: no mutate
    return tables


def clear_tables() -> None:
    """Forget every table built so far (reference_impl.clear_caches)."""
    _TABLES.clear()
