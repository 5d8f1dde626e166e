"""Partial support of an option (protocol.md, "Partial support of an option"): an implementation
that declares some values of some settings has the scenarios needing others skipped with
the setting named, never failed; --variants and t42 fuzz honour the same limits."""

from __future__ import annotations

import random
import re

import pytest

from conformance.adapters.inprocess import InProcess, WithVariants, parse_variants
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.support import current_spec, declared
from conformance.corpus import select as suite
from conformance.fuzz.options import vary
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.specdata.files import scenarios_dir
from conformance.specdata.index import load_index
from tests.harness.fauxmplementations.partial import NelloForcedByName, NelloForcedInPart

FAUX = "tests/harness/fauxmplementations/partial.py"


def _scenarios():
    loaded = suite.load([scenarios_dir() / "variants"])
    chosen = [item.scenario for item in suite.select(loaded, None, (), ())]
    return [sc for sc in chosen if sc and {"nello", "forced_bid"} & set(sc.variants)]


def _outcomes(adapter):
    index = load_index()
    return [run_scenario(sc, adapter, index) for sc in _scenarios()]


def test_an_engine_in_part_fails_nothing_it_does_not_support():
    """The issue's test: 0 failures from the unsupported settings, each skip naming it."""
    results = _outcomes(NelloForcedInPart())
    bad = [(r.id, r.outcome) for r in results if r.outcome in (Outcome.FAILED,
                                                                Outcome.ERRORED)]
    assert bad == []
    skipped = [r for r in results if r.outcome is Outcome.SKIPPED]
    assert len(skipped) > 20
    for r in skipped:
        assert re.search(r'needs variant setting (nello doubles: "(own_suit(_reversed)?|declared)"'
                         r'|forced_bid bid: "(minimum|at_least_31)")', r.reason), r.reason
        assert "nello-forced-in-part does not support" in r.reason and r.missing == ()
    assert any("own_suit_reversed" in r.reason for r in skipped)
    assert sum(r.outcome is Outcome.PASSED for r in results) > 20  # the rest is run


def test_the_same_engine_declaring_by_name_fails_those_scenarios():
    """Without the limits the same scenarios fail: the skips above are what saves them."""
    results = _outcomes(NelloForcedByName())
    failed = {r.id for r in results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)}
    assert "variants.nello.doubles-own-suit-reversed-blank-high" in failed
    assert "variants.forced_bid.dealer-may-not-pass" in failed


def test_a_setup_that_must_be_refused_needs_nothing_supported():
    """An invalid value is refused by everyone; the scenario is run."""
    by_id = {r.id: r for r in _outcomes(NelloForcedInPart())}
    assert by_id["variants.nello.option-bad-doubles-value"].outcome is Outcome.SKIPPED  # own_suit
    assert by_id["variants.nello.option-unknown-setting"].outcome is Outcome.PASSED


@pytest.mark.parametrize("entry, problem", [
    ({"name": "nello", "settings": {"colour": ["red"]}}, "no setting 'colour'"),
    ({"name": "nello", "settings": {"doubles": ["middle"]}}, "no value 'middle'"),
    ({"name": "forced_bid", "settings": {"sweep_marks": [True]}}, "no value True"),
    ({"name": "nello", "settings": {"doubles": []}}, "non-empty list"),
    ({"name": "nelo", "settings": {}}, "unknown variant option 'nelo'"),
    (3, "an option name or"),
])
def test_a_bad_declaration_is_refused(entry, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        declared(["plunge", entry], current_spec())
    adapter = InProcess(type("Bad", (NelloForcedInPart,), {})())
    adapter.inner.variants = ["plunge", entry]
    assert InProcess(adapter.inner).broken and problem in InProcess(adapter.inner).broken


def test_a_list_of_names_is_todays_form():
    assert declared(["nello", "plunge"], current_spec()) == (["nello", "plunge"], {})
    names, limits = declared(["plunge", {"name": "nello", "settings": {"doubles": ["low"]}}],
                             current_spec())
    assert names == ["plunge", "nello"] and limits == {"nello": {"doubles": ("low",)}}


def test_variants_json_form_limits_and_a_name_keeps_the_engines_limits():
    known = list(load_index().variants)
    items = parse_variants('["plunge", {"name": "nello", "settings": {"min_marks": [1]}}]',
                           known)
    wrapped = WithVariants(ReferenceAdapter(), items)
    assert wrapped.variants == ["plunge", "nello"]
    assert wrapped.settings == {"nello": {"min_marks": (1,)}}
    kept = WithVariants(NelloForcedInPart(), ["nello", "sevens"])
    assert kept.settings == {"nello": {"doubles": ("high", "low")}}
    with pytest.raises(ValueError, match="no value 3"):
        parse_variants('[{"name": "nello", "settings": {"min_marks": [3]}}]', known)


def test_fuzz_draws_only_supported_values():
    """Every drawn value supported, the unsupported default never left in force."""
    limits = {"nello": {"doubles": ("high", "low")}, "forced_bid": {"bid": ("any",)}}
    rng = random.Random(7)
    seen = set()
    for _ in range(300):
        value = vary(rng, {"nello": True, "forced_bid": True}, limits)
        forced, nello = value["forced_bid"], value["nello"]
        assert isinstance(forced, dict) and forced["bid"] == "any"
        doubles = nello.get("doubles", "high") if isinstance(nello, dict) else "high"
        assert doubles in ("high", "low")
        seen.add(doubles)
        seen.update(forced.keys())
    assert {"high", "low", "nello_sevens"} <= seen  # the other settings still vary


def test_a_fuzz_campaign_against_an_engine_in_part_agrees():
    """The campaign draws only supported values: the engine in part agrees; the same
    engine declaring by name is sent values it refuses, and diverges."""
    from conformance.fuzz.differential import fuzz

    variants = {"nello": True, "forced_bid": True}
    played, found, errors = fuzz(NelloForcedInPart(), 8, 0, variants=variants)
    assert played == 8 and found == [] and errors == []
    _, found, _ = fuzz(NelloForcedByName(), 8, 0, variants=variants)
    assert found


def test_cli_run_skips_with_the_setting_named(t42):
    code, out = t42("run", scenarios_dir() / "variants" / "forced_bid",
                    "--adapter", f"python:{FAUX}:NelloForcedInPart")
    counts = re.search(r"(\d+) passed, 0 failed, 0 errored, (\d+) skipped", out)
    assert code == 0 and counts and int(counts[1]) > 5 and int(counts[2]) > 5, out
    assert "forced_bid (some settings)" in out
    said = [line for line in out.splitlines() if "they need forced_bid settings" in line]
    assert len(said) == 1 and re.fullmatch(  # one line, with the count per value
        r'skipped \d+: they need forced_bid settings which nello-forced-in-part does not '
        r'support \(bid: "at_least_31" \d+, bid: "minimum" \d+\)', said[0]), said
    assert re.search(r"^forced_bid\s+\d+\s+0\s+0\s+\d+\s+0$", out, re.MULTILINE)


def test_variants_narrows_and_never_widens():
    """An object keeps only the values the engine supports too; an option the engine
    does not declare is not run, named in `beyond`."""
    engine = NelloForcedInPart()
    wider = WithVariants(engine, [{"name": "forced_bid", "settings": {"bid": ["any",
                                                                              "minimum"]}}])
    assert wider.variants == ["forced_bid"] and wider.settings == {"forced_bid":
                                                                  {"bid": ("any",)}}
    none_left = WithVariants(engine, [{"name": "forced_bid", "settings": {"bid": ["minimum"]}}])
    assert none_left.variants == [] and none_left.beyond == ["forced_bid"]
    engine.variants = ["nello"]
    base = WithVariants(NelloForcedInPart(), ["nello"])
    assert base.settings == {"nello": {"doubles": ("high", "low")}}  # its own limits kept
    bare = ReferenceAdapter()
    bare.variants = []
    assert WithVariants(bare, ["nello", "plunge"]).beyond == ["nello", "plunge"]
    assert WithVariants(bare, ["nello"]).variants == []
