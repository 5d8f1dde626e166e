"""A scenario needs the settings it depends on, not every default (protocol.md, "Partial
support of an option", "A value standing in").

A scenario whose setup gives an option declared in part a value the implementation does
not support is run with a value it does support in its place, when the reference engine,
run on the scenario so rewritten, passes every check of it: its expectations hold
unchanged, so nothing it judges depends on the value. Otherwise it is skipped with the
setting named. Exact, not a guess: the answer is the reference's own run of the rewritten
scenario, at level strict.

Computed at run time, cached per scenario and value: the reference runs a scenario in
milliseconds, and only the scenarios an implementation's declaration leaves out are
asked (docs/running.md, "Partial declarations", has the figure); a record in the corpus
would have to be kept in step with every change of a scenario or the engine.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from conformance.adapters.support import lacking, setting_text
from conformance.specdata.levels import STRICT

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from conformance.corpus.scenario import Scenario
    from conformance.run.diagnosis import Cause
    from conformance.specdata.index import SpecIndex

# One setting value replaced: (option, setting, the scenario's value, the one run instead).
Swap = tuple[str, str, object, object]

# A setting newer than the declaration (support.NEWER) is supported only left out.
LEFT_OUT = object()
# The most value combinations tried for one scenario: each is a run of the reference.
MOST_TRIED = 8

_verdicts: dict[tuple[str, str, str], bool] = {}  # (id, path, values + steps) -> it passes


@dataclass(frozen=True)
class StandIn:
    """The scenario to run in place of the one written, and a line per value replaced."""

    scenario: Scenario
    notes: tuple[str, ...]


def stand_in(scenario: Scenario, limits: Mapping[str, Mapping[str, tuple[Any, ...]]],
             index: SpecIndex) -> StandIn | None:
    """The scenario with each unsupported setting value replaced by a supported one under
    which the reference passes every check of it (the first such combination, in the
    declaration's order); None when there is nothing to replace or no combination holds."""
    needs = lacking(scenario, limits)
    if not needs:
        return None
    options = [values or (LEFT_OUT,) for _, _, _, values in needs]
    for choice in itertools.islice(itertools.product(*options), MOST_TRIED):
        swaps = [(name, key, was, now) for (name, key, was, _), now in zip(needs, choice,
                                                                              strict=True)]
        rewritten = rewrite(scenario, swaps)
        if lacking(rewritten, limits):
            continue  # another setup of the scenario still needs a value not supported
        if _holds(rewritten, swaps, index):
            return StandIn(rewritten, tuple(_note(*swap) for swap in swaps))
    return None


def _note(name: str, key: str, was: object, now: object) -> str:
    """`plunge when: "any_time" for "before_bids"` (a newer setting: `left out`)."""
    if now is LEFT_OUT:
        return f"{name} {key} left out for {json.dumps(was)}"
    return f"{setting_text(name, key, now)} for {json.dumps(was)}"


def rewrite(scenario: Scenario, swaps: list[Swap]) -> Scenario:
    """The scenario with, in its own variants and each setup that must be accepted, each
    setting of `swaps` that has the value replaced given the new one (VAR-01: a setting
    left out has its default, so it is written out)."""
    steps = tuple(replace(step, payload={**step.payload, "variants": _swapped(
        step.payload["variants"], swaps)})
        if step.kind == "setup" and step.reject is None and isinstance(step.payload, dict)
        and isinstance(step.payload.get("variants"), dict) else step
        for step in scenario.steps)
    return replace(scenario, steps=steps, variants=_swapped(scenario.variants, swaps))


def _swapped(variants: dict[str, Any], swaps: list[Swap]) -> dict[str, Any]:
    from reference_impl.variants import OPTIONS

    out = dict(variants)
    for name, key, was, now in swaps:
        value = out.get(name)
        if value is None or value is False:
            continue  # the option is not in force in this setup
        given = dict(value) if isinstance(value, dict) else {}
        current = given.get(key, OPTIONS[name].settings[key].default)
        if type(current) is not type(was) or current != was:
            continue
        if now is LEFT_OUT:
            given.pop(key, None)
        else:
            given[key] = now
        out[name] = given or True
    return out


class _Differs(Exception):  # noqa: N818 - an answer, not an error
    """The reference failed a check of the rewritten scenario: the value matters."""


def _holds(rewritten: Scenario, swaps: list[Swap], index: SpecIndex) -> bool:
    """The reference engine passes every check of `rewritten` at level strict (cached)."""
    # the steps themselves in the key: a file changed within one process is asked again
    key = (rewritten.id, str(rewritten.path), json.dumps(
        [(n, k, repr(was), "left out" if now is LEFT_OUT else repr(now))
         for n, k, was, now in swaps]) + repr(rewritten.steps))
    if key not in _verdicts:
        _verdicts[key] = _reference_passes(rewritten, index)
    return _verdicts[key]


def _reference_passes(scenario: Scenario, index: SpecIndex) -> bool:
    from conformance.adapters.inprocess import harnessed
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.run.runner import Causes, Diverged, ScenarioRun

    class FirstFailure(ScenarioRun):
        """Stops at the first failed check: it is the answer, its cause is not wanted."""

        def _causes(self, kind: str, rules: Iterable[str], causes: Causes | None
                    ) -> list[Cause]:
            raise _Differs(kind)

    run = FirstFailure(scenario, harnessed(ReferenceAdapter()), index, STRICT)
    try:
        run.run()
    except (_Differs, Diverged):
        return False
    except Exception:  # noqa: BLE001 - not shown to hold: the scenario is skipped, not run
        return False
    return not run.failures and not run.not_judged
