"""Variant plants that override one `Match` method: the variant rules `Rules` cannot swap.

Like engines.py, each class breaks the one rule its docstring names and keeps
`legal_actions()` consistent with `apply()`. They read the engine's state fields
(`high_bidder`, `contract`, `trick`, `_duty`); see base.py for why that is confined here.
Each override changes nothing unless its option is on (a plunge, a Sevens duty).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from planted.base import PlantedMatch
from reference_impl import IllegalAction
from reference_impl.rules import MISSING, Bidding


class PlungeAfterBid(PlantedMatch):
    """PLUNGE-02 broken: a plunge is accepted after a point or marks bid (only the
    doubles are checked)."""

    __slots__ = ()

    def _bid(self, seat: int, kind: str, value: Any) -> None:
        bidder = self.high_bidder
        if kind != "plunge" or bidder is None:
            super()._bid(seat, kind, value)
            return
        self.high_bidder = None  # as if nobody had bid yet
        try:
            super()._bid(seat, kind, value)
        except IllegalAction:
            self.high_bidder = bidder
            raise

    def _bidding(self, seat: int) -> Bidding:
        return super()._bidding(seat)._replace(bid_made=False)


class PlungerDeclares(PlantedMatch):
    """PLUNGE-04 broken: the plunger, not the plunger's partner, declares and leads."""

    __slots__ = ()

    def _after_bidding_turn(self, seat: int) -> None:
        super()._after_bidding_turn(seat)
        contract = self.contract
        if self.phase == "declaring" and contract.plunge:
            self.contract = contract._replace(declarer=self.high_bidder)  # same team
            self.set_turn(self.high_bidder)


class SevensLeaderFree(PlantedMatch):
    """SEVENS-04 broken: with duty "closest" the leader may lead any tile; only the
    seats that follow must play their closest."""

    __slots__ = ()

    @contextmanager
    def _lead_without_duty(self) -> Iterator[None]:
        """While a trick is empty, the engine's duty check is off."""
        duty = self._duty
        if not self.trick:
            self._duty = None
        try:
            yield
        finally:
            self._duty = duty

    def _play(self, seat: int, tile: int) -> None:
        with self._lead_without_duty():
            super()._play(seat, tile)

    def legal_actions(self) -> list[dict]:
        with self._lead_without_duty():
            return super().legal_actions()


class FortyTwoIsOneMark(PlantedMatch):
    """FORTYTWO-04 broken: a winning bid of 42 makes a 1-mark contract (stacks, covered
    tricks, set by any defenders' trick) instead of a point contract."""

    __slots__ = ()

    def _after_bidding_turn(self, seat: int) -> None:
        super()._after_bidding_turn(seat)
        contract = self.contract
        if (self.phase == "declaring" and contract.kind == "points"
                and contract.value == self.rules.one_mark_points):
            self.contract = contract._replace(kind="marks", value=1)


class FirstTileStacksDefaultTwo(PlantedMatch):
    """UNDECL-02 broken: "first_tile" on a marks contract is accepted without `stacks`
    (as 2 stacks)."""

    __slots__ = ()

    def _declare(self, seat: int, trump: Any, stacks: Any) -> None:
        if trump == "first_tile" and self.contract.kind == "marks" and stacks is MISSING:
            stacks = 2
        super()._declare(seat, trump, stacks)


class NelloDeclarerAlwaysLeads(PlantedMatch):
    """NELLO-05 broken: in a Nel-O the declarer leads every trick, not the winner of the
    last one."""

    __slots__ = ()

    def _complete_trick(self) -> None:
        super()._complete_trick()
        if self.sitting_out is not None and self.phase == "playing":
            self.leader = self.contract.declarer
            self.set_turn(self.leader)
