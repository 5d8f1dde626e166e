"""Planted bugs of the base game's points shown and dealing: the round points of a
marks contract shown during the round (VIS-09: under every marks contract, or under
Nel-O, Sevens or a plunge only), and an implementation's own first dealer and shuffles
that are not fair (DEAL-04, DEAL-06).
Built at the adapter's edge on the public API only (the reference adapter's `start`,
`deal`, `act`, `view`, `observe`, `rng` and `shuffled`), as edges.py and variant_edges.py.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from conformance.adapters.reference import TILES
from conformance.planted.base import PlantedAdapter
from conformance.planted.variant_edges import VariantEdge
from reference_impl.tiles import SEATS

# ---- VIS-09: the running total of a marks contract --------------------------------------


def running_points(view: dict[str, Any]) -> dict[str, int] | None:
    """The referee's round points while a marks contract is being played, else None."""
    contract = view["contract"]
    if view["phase"] in ("declaring", "playing") and contract and "marks" in contract["bid"]:
        return view["points"]
    return None


class MarksPointsShown(PlantedAdapter):
    """VIS-09 broken: under a marks contract every seat sees the running round points."""

    def observe(self, seat: str) -> dict[str, Any]:
        seen = copy.deepcopy(super().observe(seat))
        points = running_points(self.view())
        if points is not None:
            seen["points"] = dict(points)
        return seen


class MarksPointsInExtension(PlantedAdapter):
    """VIS-09 broken: `points` is null, but an `x_` field carries the running total."""

    def observe(self, seat: str) -> dict[str, Any]:
        seen = copy.deepcopy(super().observe(seat))
        points = running_points(self.view())
        if points is not None:
            seen["x_score"] = {"round": dict(points)}
        return seen


def contract_kind(view: dict[str, Any]) -> str | None:
    """"nello", "sevens" or "plunge" for a marks contract of that kind, from the public view
    alone: the declared trump, or a winning bid (the last bid, BID-08) that is a plunge."""
    contract = view["contract"]
    if not contract or "marks" not in contract["bid"]:
        return None
    if contract["trump"] in ("nello", "sevens"):
        return contract["trump"]
    bids = [b for b in view["bids"] if b.get("type") == "bid"]
    return "plunge" if bids and bids[-1].get("plunge") else None


class OptionPointsShown(VariantEdge):
    """VIS-09 broken under one option only: while a marks contract of `kind` is played,
    every seat sees the running round points; every other contract is the reference's."""

    kind = ""

    def observe(self, seat: str) -> dict[str, Any]:
        seen = copy.deepcopy(super().observe(seat))
        view = self.view()
        points = running_points(view)
        if points is not None and contract_kind(view) == self.kind:
            seen["points"] = dict(points)
        return seen


class NelloPointsShown(OptionPointsShown):
    kind = "nello"


class SevensPointsShown(OptionPointsShown):
    kind = "sevens"


class PlungePointsShown(OptionPointsShown):
    kind = "plunge"


# ---- DEAL-04, DEAL-06: the implementation's own dealer and shuffles ---------------------


class FirstDealerFixed(PlantedAdapter):
    """DEAL-04 broken: a match started by the implementation is always dealt by A."""

    def new_match(self) -> None:
        self.start({"dealer": "A", "order": self.shuffled()})


class FirstDealerRotates(PlantedAdapter):
    """DEAL-04 broken: each new match is dealt by the seat after the last match's first
    dealer: every seat a quarter of the time, but never independently."""

    def __init__(self, name: str = "planted") -> None:
        super().__init__(name)
        self.last = self.rng.randrange(4)

    def new_match(self) -> None:
        self.last = (self.last + 1) % 4
        self.start({"dealer": SEATS[self.last], "order": self.shuffled()})


class NaiveShuffle(PlantedAdapter):
    """DEAL-06 broken: the classic biased shuffle, each place swapped with any place (not
    only a later one): 28^28 equally likely runs for 28! orders, so some orders are more
    likely than others."""

    def shuffled(self) -> list[str]:
        order = list(TILES)
        for i in range(len(order)):
            j = self.rng.randrange(len(order))
            order[i], order[j] = order[j], order[i]
        return order


class RedealSameOrder(PlantedAdapter):
    """DEAL-06 broken: after four passes the next deal reuses the order of the last one."""

    def new_match(self) -> None:
        self.order = self.shuffled()
        self.start({"dealer": self.rng.choice(SEATS), "order": self.order})

    def next_deal(self) -> None:
        self.deal({"order": self.order})


class SeededEveryMatch(PlantedAdapter):
    """DEAL-04, DEAL-06 broken: the generator is seeded with the same number at every new
    match, so every match has the same first dealer and the same deals."""

    def new_match(self) -> None:
        self.rng = random.Random(42)
        super().new_match()


PLANTS = (  # name, rule, description, class
    ("marks-points-shown", "VIS-09",
     "under a marks contract every seat sees the running round points", MarksPointsShown),
    ("marks-points-in-x-field", "VIS-09",
     "under a marks contract `points` is null but `x_score` carries the running total",
     MarksPointsInExtension),
    ("own-first-dealer-fixed", "DEAL-04",
     "a match the implementation starts itself is always dealt by A", FirstDealerFixed),
    ("own-first-dealer-rotates", "DEAL-04",
     "each match the implementation starts is dealt by the seat after the last one's",
     FirstDealerRotates),
    ("own-shuffle-naive", "DEAL-06",
     "the implementation's shuffle swaps each place with any place (biased)", NaiveShuffle),
    ("own-redeal-same-order", "DEAL-06",
     "a redeal after four passes reuses the order of the deal before", RedealSameOrder),
    ("own-rng-seeded-every-match", "DEAL-06",
     "the generator is seeded with 42 at every new match", SeededEveryMatch),
)

# the rules the spec makes a plant break as well, and why (catalog.Bug.also)
ALSO = {"own-rng-seeded-every-match": (
    ("DEAL-04",), "DEAL-04 asks each match's first dealer to be independent of earlier "
    "matches; a generator seeded again every match repeats it")}

VARIANT_PLANTS = (  # the running total under one option only (VIS-09 with NELLO, SEVENS, PLUNGE)
    ("nello-points-shown", "VIS-09",
     "while a Nel-O contract is played every seat sees the running round points",
     NelloPointsShown),
    ("sevens-points-shown", "VIS-09",
     "while a Sevens contract is played every seat sees the running round points",
     SevensPointsShown),
    ("plunge-points-shown", "VIS-09",
     "while a plunge is declared and played every seat sees the running round points",
     PlungePointsShown),
)
