"""Variant plants broken at the edge: setups, deals, legal actions and views. They use only
the engine's public API, through the reference adapter, and change nothing unless the
setup turns their option on.
"""

from __future__ import annotations

from typing import Any

from conformance.adapters.protocol import Rejected
from conformance.planted.base import PlantedAdapter, ShownEdge
from reference_impl.tiles import PIPS, SEATS, TILE_INDEX
from reference_impl.variants import OPTIONS


class VariantEdge(PlantedAdapter):
    """A variant plant at the edge: declares every option; remembers the setup's."""

    def __init__(self, name: str = "planted") -> None:
        super().__init__(name, options=OPTIONS)
        self.options: dict[str, Any] = {}

    def start(self, setup: dict[str, Any]) -> None:
        super().start(setup)
        self.options = dict(setup.get("variants") or {})  # the setup was accepted


# ---- What goes in --------------------------------------------------------------------


class OptionFalseIsOff(VariantEdge):
    """VAR-01 broken: an option given as `false` is taken as off, not rejected."""

    def start(self, setup: dict[str, Any]) -> None:
        variants = setup.get("variants") if isinstance(setup, dict) else None
        if isinstance(variants, dict) and False in variants.values():
            kept = {k: v for k, v in variants.items() if v is not False}
            setup = {**setup, "variants": kept}
        super().start(setup)


class VariantsOnDealIgnored(VariantEdge):
    """VAR-02 broken: a deal that carries `variants` is accepted (the field ignored)."""

    def deal(self, deal: dict[str, Any]) -> None:
        if isinstance(deal, dict):
            deal = {k: v for k, v in deal.items() if k != "variants"}
        super().deal(deal)


class DoublesNamedOnAnyChoice(VariantEdge):
    """NELLO-13 broken: with a `doubles: "declared"` setting, a `doubles` field in the
    declaration of a choice that names none (a number trump) is dropped and the
    declaration accepted, instead of DOUBLES_INVALID."""

    def act(self, action: Any) -> None:
        if (isinstance(action, dict) and action.get("type") == "trump" and self.named()
                and type(action.get("trump")) is int and "doubles" in action):
            action = {k: v for k, v in action.items() if k != "doubles"}
        super().act(action)

    def named(self) -> bool:
        """A setting under which some declaration names its doubles (without one, a
        `doubles` field is a field no action has: DIG-01, not this plant's rule)."""
        return any(isinstance(setting, dict) and setting.get("doubles") == "declared"
                   for setting in self.options.values())


def pip_totals(draw: dict[str, str]) -> dict[str, int]:
    """DRAW-03: each seat's pip total in one round of drawing (seat -> tile name)."""
    return {seat: sum(PIPS[TILE_INDEX[tile]]) for seat, tile in draw.items()}


def lowest_drawer(draw: dict[str, str]) -> str:
    totals = pip_totals(draw)
    return min(SEATS, key=lambda seat: totals.get(seat, 99))


class LowestDrawDeals(VariantEdge):
    """DRAW-03 broken: the seat that draws the lowest pip total deals first (ties to the
    first seat); later rounds of drawing are ignored."""

    def start(self, setup: dict[str, Any]) -> None:
        super().start(setup)  # the reference judges the draws; a valid one is replaced
        if isinstance(setup, dict) and "draws" in setup:
            rest = {k: v for k, v in setup.items() if k != "draws"}
            super().start({**rest, "dealer": lowest_drawer(setup["draws"][0])})


# ---- What comes out ------------------------------------------------------------------


class ViewEdge(VariantEdge, ShownEdge):
    """A variant plant that rewrites the referee view and every observation the same
    way (`rewrite`)."""


class FirstTileTrumpShownNull(ViewEdge):
    """UNDECL-04 broken: before the first tile sets trump, `contract.trump` is null
    instead of "first_tile"."""

    def rewrite(self, shown: dict[str, Any], seat: str | None) -> None:
        contract = shown.get("contract")
        if contract and contract.get("trump") == "first_tile":
            contract["trump"] = None


class FollowMeRecordedAsDeclared(ViewEdge):
    """FOLLOWME-02 broken: a declaration of "follow_me" is recorded under that name in
    `contract.trump` and `history` instead of as "none"."""

    def forget(self) -> None:
        self.declared_follow_me = False

    def act(self, action: Any) -> None:
        super().act(action)  # raises if rejected
        if isinstance(action, dict) and action.get("trump") == "follow_me":
            self.declared_follow_me = True

    def rewrite(self, shown: dict[str, Any], seat: str | None) -> None:
        if not self.declared_follow_me:
            return
        if shown.get("contract") and shown["contract"]["trump"] == "none":
            shown["contract"]["trump"] = "follow_me"
        for action in shown.get("history") or ():
            if action.get("type") == "trump" and action.get("trump") == "none":
                action["trump"] = "follow_me"


class FollowMeListedTwice(VariantEdge):
    """FOLLOWME-02 broken: the legal actions list "follow_me" besides "none"."""

    def legal(self) -> list[dict[str, Any]]:
        actions = super().legal()
        if "follow_me" not in self.options:
            return actions
        listed: list[dict[str, Any]] = []
        for action in actions:
            listed.append(action)
            if action.get("type") == "trump" and action.get("trump") == "none":
                listed.append({**action, "trump": "follow_me"})
        return listed


class OptionsRefusedTogether(VariantEdge):
    """VAR-03 broken: nello and plunge together are refused at setup (as if a plunger's
    partner could not sit out)."""

    def start(self, setup: dict[str, Any]) -> None:
        variants = setup.get("variants") if isinstance(setup, dict) else None
        if isinstance(variants, dict) and {"nello", "plunge"} <= variants.keys():
            raise Rejected("INVALID_SETUP", "planted: nello and plunge do not combine")
        super().start(setup)


class TiedLastDrawAccepted(VariantEdge):
    """DRAW-04 broken: when the last round of draws is still tied, the first tied seat
    (in seat order) deals instead of the setup being rejected."""

    def start(self, setup: dict[str, Any]) -> None:
        try:
            super().start(setup)
        except Rejected:
            dealer = self._first_tied(setup)
            if dealer is None:
                raise
            rest = {k: v for k, v in setup.items() if k != "draws"}
            super().start({**rest, "dealer": dealer})

    @staticmethod
    def _first_tied(setup: Any) -> str | None:
        try:
            totals = pip_totals(setup["draws"][-1])
        except (KeyError, TypeError, IndexError, AttributeError):
            return None
        best = max(totals.values(), default=None)
        tied = [seat for seat in SEATS if totals.get(seat) == best]
        return tied[0] if len(tied) > 1 else None


class PartnerHandShownEmpty(ViewEdge):
    """NELLO-09 broken: once a Nel-O is declared the sitting-out partner's `hand_sizes`
    shows 0, as if the hand were laid down."""

    def rewrite(self, shown: dict[str, Any], seat: str | None) -> None:
        contract = shown.get("contract")
        if contract and contract.get("trump") == "nello" and "hand_sizes" in shown:
            partner = SEATS[(SEATS.index(contract["declarer"]) + 2) % 4]
            shown["hand_sizes"][partner] = 0


class DealerForcedNotLastBidder(VariantEdge):
    """FIRST-04 broken: with first_bidder and forced_bid the dealer, not the last bidder,
    may not pass when no seat has bid yet (an engine that kept "the dealer is forced")."""

    def act(self, action: Any) -> None:
        if ({"first_bidder", "forced_bid"} <= self.options.keys() and isinstance(action, dict)
                and action.get("type") == "pass"):
            view = self.view()
            if (view["phase"] == "bidding" and action.get("seat") == view["dealer"]
                    and not any(b["type"] == "bid" for b in view["bids"])):
                raise Rejected("FORCED_BID", "planted: the dealer must bid")
        super().act(action)
