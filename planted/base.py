"""What every planted engine is made of: the reference engine, one thing changed.

A planted bug changes the reference engine through its `Rules` configuration where the
rule is data or a swappable function, else through a small override of one `Match`
method, else at the adapter's edge (what goes in and what the views show). Everything
here that reaches past the engine's public API (`_seat`, `masks`, `_follow`, ...) is
named in this module, `engines.py` or `variant_engines.py`, so a refactor inside
reference_impl/ breaks the plants in a few known places, and the selftest says so: a
planted engine that crashes is reported as broken, never counted as caught.

A base plant breaks a rule of spec/rules.md and runs the base scenarios only (its Rules
replace the base ones, so a variant scenario would not be playing its options). A variant
plant breaks a rule of one option of spec/variants.md: it declares every option the
reference engine supports and plays exactly like the reference engine unless the setup
turns its option on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from conformance.adapters.reference import ReferenceAdapter
from reference_impl import Match, Rules
from reference_impl.tiles import SEATS
from reference_impl.variants import rules_for

RulesChange = Callable[[Rules], Rules]


class PlantedMatch(Match):
    """The reference Match, with `PLANTED_RULES` in force (base plants) or with
    `CHANGE` applied to the Rules of the setup's options when `OPTION` is one of them
    (variant plants). With neither it is the reference engine."""

    __slots__ = ()  # Match's own layout; Match.clone() keeps the class
    PLANTED_RULES: ClassVar[Rules | None] = None
    OPTION: ClassVar[str | None] = None
    CHANGE: ClassVar[RulesChange | None] = None
    # (class, id of the options' Rules) -> the planted Rules: built once, as the engine
    # builds its tables once per Rules object (tables_for keeps every Rules it sees).
    _planted: ClassVar[dict[tuple[type, int], tuple[Rules, Rules]]] = {}

    @classmethod
    def start(cls, setup: dict) -> Match:
        variants = setup.get("variants", {}) if type(setup) is dict else None
        if cls.PLANTED_RULES is not None and variants == {}:
            return super().start(setup, rules=cls.PLANTED_RULES)
        if cls.CHANGE is None or type(variants) is not dict or cls.OPTION not in variants:
            return super().start(setup)
        rules = cls.planted_rules(rules_for(variants))  # INVALID_SETUP as the engine says
        match = super().start({k: v for k, v in setup.items() if k != "variants"},
                              rules=rules)
        match.variants = dict(variants)
        return match

    @classmethod
    def planted_rules(cls, rules: Rules) -> Rules:
        key = (cls, id(rules))
        found = cls._planted.get(key)
        if found is None or found[0] is not rules:
            found = cls._planted[key] = (rules, cls.CHANGE(rules))
        return found[1]

    def set_turn(self, seat: int | None) -> None:
        """Make `seat` (an int, or None) the seat to act."""
        self._seat = seat
        self.to_act = None if seat is None else SEATS[seat]


def with_rules(name: str, rules: Rules, base: type[PlantedMatch] = PlantedMatch
               ) -> type[PlantedMatch]:
    """A base plant's Match class whose only change is `rules`."""
    return type(name, (base,), {"__slots__": (), "PLANTED_RULES": rules})


def with_change(name: str, option: str, change: RulesChange) -> type[PlantedMatch]:
    """A variant plant's Match class: `change` applied to the Rules of `option`'s games."""
    return type(name, (PlantedMatch,), {"__slots__": (), "OPTION": option,
                                        "CHANGE": staticmethod(change)})


class PlantedAdapter(ReferenceAdapter):
    """The reference adapter over a planted Match class (in process). A base plant
    declares no option; a variant plant (`variants=True`) every option the reference
    engine has."""

    match_class: type[Match] = PlantedMatch

    def __init__(self, name: str = "planted", match_class: type[Match] | None = None,
                 variants: bool = False) -> None:
        super().__init__()
        self.name = name
        if not variants:
            self.variants = []
        if match_class is not None:
            self.match_class = match_class

    def start(self, setup: dict[str, Any]) -> None:
        # protocol.md: a refused setup leaves the current match (if any) as it was.
        self._match = self._call(self.match_class.start, setup)
