"""Settings whose values are of several JSON types (splash `marks`: 2, 3 or "bid"):
declared, skipped and drawn by the fuzzer by each value's own type, never the default's
(protocol.md, "Partial support of an option")."""

from __future__ import annotations

import random
import re

import pytest

from conformance import Rejected
from conformance.adapters.inprocess import InProcess
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.support import current_spec, declared
from conformance.corpus import select as suite
from conformance.fuzz.options import invalid_value, vary
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.specdata.files import scenarios_dir
from conformance.specdata.index import load_index


class SplashMarksInPart(ReferenceAdapter):
    """The reference game with only some splash `marks`: another is refused at setup."""

    def __init__(self, marks: list) -> None:
        super().__init__()
        self.name, self.marks = "splash-marks-in-part", marks
        self.variants = [{"name": "splash", "settings": {"marks": marks}} if v == "splash"
                         else v for v in self.variants]

    def start(self, setup):
        variants = setup.get("variants") if isinstance(setup, dict) else None
        splash = variants.get("splash") if isinstance(variants, dict) else None
        if splash is not None:
            given = splash.get("marks", 3) if isinstance(splash, dict) else 3
            if not any(type(given) is type(m) and given == m for m in self.marks):
                raise Rejected("INVALID_SETUP", f"splash marks {given!r} is not supported")
        super().start(setup)


@pytest.mark.parametrize("marks, unsupported", [
    ([2, 3], ['"bid"']),        # integers only: the marks of the bid are not
    (["bid"], ["2", "3"]),      # a string only: the default 3 is not
    ([3, "bid"], ["2"]),        # one of each type
])
def test_each_kind_of_value_is_declared_and_skipped_by_its_own_type(marks, unsupported):
    adapter = SplashMarksInPart(marks)
    assert InProcess(adapter).broken is None
    index = load_index()
    loaded = suite.load([scenarios_dir()])
    chosen = [item.scenario for item in suite.select(loaded, None, (), ("splash",))]
    results = [run_scenario(sc, adapter, index) for sc in chosen if sc]
    assert [(r.id, r.outcome.value) for r in results
            if r.outcome in (Outcome.FAILED, Outcome.ERRORED)] == []
    named = {m[1] for r in results if r.outcome is Outcome.SKIPPED
             for m in [re.search(r"needs variant setting splash marks: (\S+),", r.reason)] if m}
    assert named == set(unsupported)
    assert any(r.outcome is Outcome.PASSED for r in results)


@pytest.mark.parametrize("value", ["2", True, 2.0, "BID", None])
def test_a_value_of_another_type_is_not_a_value_of_the_setting(value):
    with pytest.raises(ValueError, match="splash.marks has no value"):
        declared([{"name": "splash", "settings": {"marks": [value]}}], current_spec())


@pytest.mark.parametrize("marks", [(2, 3), ("bid",), (3, "bid")])
def test_the_fuzzer_draws_only_the_supported_values_of_each_type(marks):
    rng = random.Random(3)
    seen = set()
    for _ in range(200):
        value = vary(rng, {"splash": True}, {"splash": {"marks": marks}})["splash"]
        drawn = value.get("marks", 3) if isinstance(value, dict) else 3
        assert any(type(drawn) is type(m) and drawn == m for m in marks), drawn
        seen.add(drawn)
    assert seen == set(marks)


def test_an_invalid_value_drawn_is_never_one_of_the_settings_values():
    from reference_impl.variants import OPTIONS, accepts

    rng = random.Random(5)
    marks = OPTIONS["splash"].settings["marks"]
    for _ in range(300):
        value = invalid_value(rng, "splash", {})
        if isinstance(value, dict) and "marks" in value:
            assert not accepts(marks, value["marks"]), value
