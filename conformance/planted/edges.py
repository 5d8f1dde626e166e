"""Planted engines broken at the edge: what goes in (setups, deals, actions) and what the
views show. They use only the engine's public API, through the reference adapter.
"""

from __future__ import annotations

import copy
from typing import Any

from conformance.adapters.protocol import Rejected
from conformance.planted.base import PlantedAdapter, ShownEdge
from reference_impl.actions import parse_action
from reference_impl.errors import IllegalAction
from reference_impl.tiles import SEATS, TILE_INDEX

# ---- What goes in --------------------------------------------------------------------


def valid_order(deal: Any) -> list[str] | None:
    """The `order` of a deal when it is a valid one (else None: let the engine reject)."""
    order = deal.get("order") if isinstance(deal, dict) else None
    if (isinstance(order, list) and len(order) == 28
            and all(isinstance(t, str) and t in TILE_INDEX for t in order)
            and len(set(order)) == 28):
        return order
    return None


def dealt_from_dealer(order: list[str], dealer: str) -> dict[str, list[str]]:
    """DEAL-02 broken: tile i goes to seat (dealer + i) mod 4, the dealer first."""
    d = SEATS.index(dealer)
    hands: dict[str, list[str]] = {s: [] for s in SEATS}
    for i, tile in enumerate(order):
        hands[SEATS[(d + i) % 4]].append(tile)
    return hands


class DealStartsAtDealer(PlantedAdapter):
    """DEAL-02 broken: a deal given as an order starts with the dealer."""

    def _as_hands(self, deal: Any, dealer: Any) -> Any:
        order = valid_order(deal)
        if order is None or dealer not in SEATS or "hands" in deal:  # that is INVALID_SETUP
            return deal
        rest = {k: v for k, v in deal.items() if k != "order"}
        return {**rest, "hands": dealt_from_dealer(order, dealer)}

    def start(self, setup: dict[str, Any]) -> None:
        dealer = setup.get("dealer") if isinstance(setup, dict) else None
        drawn = isinstance(setup, dict) and "deal_by_drawing" in (setup.get("variants") or {})
        super().start(setup if drawn else self._as_hands(setup, dealer))  # DRAW-02 is kept

    def deal(self, deal: dict[str, Any]) -> None:
        if "deal_by_drawing" in self.match.variants:
            return super().deal(deal)
        dealer = SEATS[(SEATS.index(self.match.view()["dealer"]) + 1) % 4]
        super().deal(self._as_hands(deal, dealer))


class StartingMarksIgnored(PlantedAdapter):
    """SCORE-03 broken: a setup's starting marks are ignored (every match starts 0-0)."""

    def start(self, setup: dict[str, Any]) -> None:
        if isinstance(setup, dict):
            setup = {k: v for k, v in setup.items() if k != "marks"}
        super().start(setup)


class BooleanIsInteger(PlantedAdapter):
    """DIG-01 broken: `true`/`false` are taken as the integers 1/0 (Python's bool is an
    int), so `{"marks": true}` is a 1-mark bid instead of MALFORMED_ACTION."""

    def act(self, action: Any) -> None:
        if isinstance(action, dict):
            # the integer fields only: a special bid's flag is `true` by its form
            action = {k: int(v) if type(v) is bool and k in ("points", "marks", "trump",
                                                               "stacks") else v
                      for k, v in action.items()}
        super().act(action)


# ---- What the views show ----------------------------------------------------------------


class ObservationEdge(PlantedAdapter):
    """Observations rewritten from the reference one and the referee view."""

    def observe(self, seat: str) -> dict[str, Any]:
        seen = copy.deepcopy(super().observe(seat))
        self.rewrite(seen, self.match.view())
        return seen

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        raise NotImplementedError


def trick_tiles(view: dict[str, Any], number: int) -> list[str]:
    """The tiles of completed trick `number`, sorted (TIL-02)."""
    tiles = [p["tile"] for p in view["tricks"][number - 1]["plays"]]
    return sorted(tiles, key=TILE_INDEX.__getitem__)


def covered_during_play(view: dict[str, Any], extra: int = 0) -> int:
    """How many early tricks a marks contract covers (VIS-06), plus `extra`."""
    contract = view["contract"]
    if contract is None or contract["stacks"] is None:
        return 0
    return max(0, len(view["tricks"]) + extra - contract["stacks"])


def recover(seen: dict[str, Any], view: dict[str, Any], covered: int) -> None:
    for entry in seen["captured"]:
        n = entry["number"]
        entry["tiles"] = None if n <= covered else trick_tiles(view, n)


class CoveredTricksShown(ObservationEdge):
    """VIS-06 broken: under a marks contract every completed trick is face up."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        recover(seen, view, 0)


class CoverMovesMidTrick(ObservationEdge):
    """VIS-07 broken: the cover moves when the next trick's first tile is played."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        if view["phase"] == "playing" and view["trick"]:
            recover(seen, view, covered_during_play(view, extra=1))


class CoveredAfterRound(ObservationEdge):
    """VIS-10 broken: covered tricks stay covered after the round has ended."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        if view["phase"] in ("round_over", "match_over"):
            recover(seen, view, covered_during_play(view))


class CapturedInPlayOrder(ObservationEdge):
    """VIS-08 broken: a face-up captured trick lists its tiles in play order, not sorted."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        for entry in seen["captured"]:
            if entry["tiles"] is not None:
                plays = view["tricks"][entry["number"] - 1]["plays"]
                entry["tiles"] = [p["tile"] for p in plays]


class CapturedNamesSeats(ObservationEdge):
    """VIS-08 broken: a captured trick names who played each tile (and so who won it)."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        for entry in seen["captured"]:
            plays = view["tricks"][entry["number"] - 1]["plays"]
            entry["seats"] = [p["seat"] for p in plays]


class HistoryDuringRound(ObservationEdge):
    """VIS-10 broken: the action history is shown while the round is in progress."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        seen["history"] = view["history"]


class PartnerHandLeaked(ObservationEdge):
    """VIS-01 broken: an observation carries the partner's hand in an `x_` field."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        partner = SEATS[(SEATS.index(seen["seat"]) + 2) % 4]
        seen["x_partner_hand"] = view["hands"][partner]


class OwnHandSorted(ObservationEdge):
    """VIS-01 broken: a seat sees its own hand sorted instead of in hand order."""

    def rewrite(self, seen: dict[str, Any], view: dict[str, Any]) -> None:
        seen["hand"] = sorted(seen["hand"], key=TILE_INDEX.__getitem__)


class HandsShownSorted(ShownEdge):
    """The referee view and every observation show some seats' hands sorted (TIL-02
    order) instead of in hand order; `sorted_seats()` says which."""

    def sorted_seats(self) -> set[str]:
        raise NotImplementedError

    def rewrite(self, shown: dict[str, Any], seat: str | None) -> None:
        if seat is None:
            for name in self.sorted_seats():
                shown["hands"][name].sort(key=TILE_INDEX.__getitem__)
        elif seat in self.sorted_seats():
            shown["hand"].sort(key=TILE_INDEX.__getitem__)


class HandSortedOnDeal(HandsShownSorted):
    """DEAL-03 broken: each hand is sorted when dealt instead of kept in the dealt order
    (as the views show it: a sorted hand stays sorted as tiles leave it)."""

    def sorted_seats(self) -> set[str]:
        return set(SEATS)


class RejectSortsHand(HandsShownSorted):
    """DIG-03 broken: a rejected play leaves the seat's hand sorted (the engine sorted it
    to look the tile up), until the next round is dealt."""

    def forget(self) -> None:
        self.sorted_hands: set[str] = set()

    def sorted_seats(self) -> set[str]:
        return self.sorted_hands

    def act(self, action: Any) -> None:
        try:
            super().act(action)
        except Rejected:
            if isinstance(action, dict) and action.get("type") == "play" \
                    and action.get("seat") in SEATS:
                self.sorted_hands.add(action["seat"])
            raise


class RejectAdvancesTurn(ShownEdge):
    """DIG-03 broken: the turn passes on before the seat to act's action is judged, so a
    rule's rejection (BID_TOO_LOW, MUST_FOLLOW, ...) shows the next seat to act, until
    the next accepted action."""

    FORM_CODES = frozenset({"MALFORMED_ACTION", "WRONG_PHASE", "NOT_YOUR_TURN"})

    def forget(self) -> None:
        self.shown_to_act: str | None = None

    def act(self, action: Any) -> None:
        to_act = self.match.to_act if self.match is not None else None
        try:
            super().act(action)
        except Rejected as refused:
            seat = action.get("seat") if isinstance(action, dict) else None
            if to_act is not None and seat == to_act and refused.code not in self.FORM_CODES:
                self.shown_to_act = SEATS[(SEATS.index(to_act) + 1) % 4]
            raise
        self.forget()

    def rewrite(self, shown: dict[str, Any], seat: str | None) -> None:
        if self.shown_to_act is not None:
            shown["to_act"] = self.shown_to_act


class SeatCheckedBeforePhase(PlantedAdapter):
    """DIG-02 / errors.yaml order broken: NOT_YOUR_TURN is checked before WRONG_PHASE."""

    def act(self, action: Any) -> None:
        if self.match is not None:
            try:
                seat = parse_action(action).seat  # MALFORMED_ACTION still comes first
            except IllegalAction:
                seat = None
            to_act = self.match.to_act
            if seat is not None and to_act is not None and SEATS[seat] != to_act:
                raise Rejected("NOT_YOUR_TURN", "planted: seat checked first")
        super().act(action)
