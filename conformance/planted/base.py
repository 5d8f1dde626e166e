"""What every planted engine is made of: the reference engine, one thing changed.

A planted bug changes the reference engine through its `Rules` configuration where the
rule is data or a swappable function (`PlantedMatch.PLANTED_RULES`), else through a small
override of one `Match` method, else at the adapter's edge (what goes in and what the
views show). Everything here that reaches past the engine's public API (`_seat`,
`masks`, `_follow`, ...) is named in this module or in `engines.py`, so a refactor inside
reference_impl/ breaks the plants in one place, and the selftest says so: a planted
engine that crashes is reported as broken, never counted as caught.
"""

from __future__ import annotations

from typing import Any

from conformance.adapters.reference import ReferenceAdapter
from reference_impl import Match, Rules
from reference_impl.tables import tables_for
from reference_impl.tiles import SEATS

# The engine at HEAD computes `to_act` from `_seat`; the one being optimised stores it.
_STORES_TO_ACT = "to_act" in Match.__slots__
_STORES_TABLES = "_tables" in Match.__slots__


class PlantedMatch(Match):
    """The reference Match with `PLANTED_RULES` in force (None: the base rules)."""

    __slots__ = ()  # Match's own layout, so that clone() can keep the planted class
    PLANTED_RULES: Rules | None = None

    @classmethod
    def start(cls, setup: dict) -> Match:
        match = super().start(setup)
        if cls.PLANTED_RULES is not None:
            # Hook wanted in the engine: Match.start(setup, rules=...). Until then the
            # setup is parsed with the base rules and the planted ones swapped in.
            match.rules = cls.PLANTED_RULES
            if _STORES_TABLES:
                match._tables = tables_for(cls.PLANTED_RULES)
        return match

    def clone(self) -> Match:
        """Match.clone() builds a plain Match; perft must keep exploring the planted one."""
        other = super().clone()
        other.__class__ = type(self)
        return other

    def set_turn(self, seat: int | None) -> None:
        """Make `seat` (an int, or None) the seat to act."""
        self._seat = seat
        if _STORES_TO_ACT:
            self.to_act = None if seat is None else SEATS[seat]


def with_rules(name: str, rules: Rules, base: type[PlantedMatch] = PlantedMatch
               ) -> type[PlantedMatch]:
    """A planted Match class whose only change is `rules`."""
    return type(name, (base,), {"__slots__": (), "PLANTED_RULES": rules})


class PlantedAdapter(ReferenceAdapter):
    """The reference adapter over a planted Match class (in process)."""

    match_class: type[Match] = PlantedMatch

    def __init__(self, name: str = "planted", match_class: type[Match] | None = None) -> None:
        super().__init__()
        self.name = name
        # Plants break base-game rules and swap the base Rules in: variant scenarios are
        # skipped, whatever the reference engine supports.
        self.variants = []
        if match_class is not None:
            self.match_class = match_class

    def start(self, setup: dict[str, Any]) -> None:
        self._match = None
        self._match = self._call(self.match_class.start, setup)
