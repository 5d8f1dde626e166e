"""What every planted engine is made of: the reference engine, one thing changed.

A planted bug changes the reference engine only through its documented extension point,
the `Rules` of a game (reference_impl/README.md, "Extension point"): a base plant plays
by other `Rules`; a variant plant redefines one option, so that the Rules it resolves to
(`reference_impl.variants.rules_for`) carry the mistake. What the rule table cannot
express is planted at the adapter's edge (what goes in and what the views show), through
the engine's public API. Nothing here touches a private name of the engine.

A base plant breaks a rule of spec/rules.md and runs the base scenarios only (its Rules
replace the base ones, so a variant scenario would not be playing its options). A variant
plant breaks a rule of one option of spec/variants.md: it declares every option the
reference engine supports and plays exactly like the reference engine unless the setup
turns its option on.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from conformance.adapters.reference import ReferenceAdapter
from reference_impl import Match, Rules
from reference_impl.variants import OPTIONS, Option, rules_for

# An option redefined: (settings, the Rules so far) -> the fields it changes.
OptionChanges = Callable[[Mapping[str, Any], Rules], dict]


def with_option(option: str, changes: OptionChanges) -> dict[str, Option]:
    """The option table with `option` redefined by `changes`."""
    return {**OPTIONS, option: OPTIONS[option]._replace(changes=changes)}


class PlantedAdapter(ReferenceAdapter):
    """The reference adapter playing by planted Rules (in process). A base plant gives
    `rules` and declares no option; a variant plant gives `options` (the option table
    with one option redefined) and declares every option the reference engine has."""

    def __init__(self, name: str = "planted", rules: Rules | None = None,
                 options: Mapping[str, Option] | None = None) -> None:
        super().__init__()
        self.name = name
        self.planted_rules, self.options = rules, options
        # the options this plant redefines: a game without them is the reference's
        self.redefined = {n for n, o in (options or {}).items() if o is not OPTIONS.get(n)}
        if options is None:
            self.variants = []

    def rules_of(self, setup: Any) -> Rules | None:
        """The Rules to play `setup` by; None for the engine's own (and its own check of
        the setup: INVALID_SETUP as the reference says)."""
        variants = setup.get("variants", {}) if type(setup) is dict else None
        if type(variants) is not dict:
            return None
        if self.planted_rules is not None and not variants:
            return self.planted_rules
        if self.options is not None and self.redefined & variants.keys():
            try:
                return rules_for(variants, self.options)
            except Exception:  # noqa: BLE001 - let Match.start refuse it as the engine does
                return None
        return None

    def start(self, setup: dict[str, Any]) -> None:
        # protocol.md: a refused setup leaves the current match (if any) as it was.
        self.match = self._call(Match.start, setup, self.rules_of(setup))


class ShownEdge(PlantedAdapter):
    """A plant at the edge of what is shown: `rewrite` changes the referee view (seat
    None) and every observation; `forget` clears what the plant remembers of a round,
    after each accepted setup and deal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.forget()

    def forget(self) -> None:
        pass

    def start(self, setup: dict[str, Any]) -> None:
        super().start(setup)
        self.forget()

    def deal(self, deal: dict[str, Any]) -> None:
        super().deal(deal)
        self.forget()

    def view(self) -> dict[str, Any]:
        return self.rewritten(super().view(), None)

    def observe(self, seat: str) -> dict[str, Any]:
        return self.rewritten(super().observe(seat), seat)

    def rewritten(self, shown: dict[str, Any], seat: str | None) -> dict[str, Any]:
        shown = copy.deepcopy(shown)
        self.rewrite(shown, seat)
        return shown

    def rewrite(self, shown: dict[str, Any], seat: str | None) -> None:
        raise NotImplementedError
