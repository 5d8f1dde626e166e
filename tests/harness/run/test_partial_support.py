"""Partial support of an option (protocol.md, "Partial support of an option"): an implementation
that declares some values of some settings has the scenarios needing others skipped with
the setting named, never failed; --variants and t42 fuzz honour the same limits."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from conformance.adapters.inprocess import InProcess, WithVariants, parse_variants
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.support import current_spec, declared, lacking, needed
from conformance.corpus import select as suite
from conformance.fuzz.options import vary
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.run.standin import LEFT_OUT, rewrite
from conformance.specdata.files import scenarios_dir
from conformance.specdata.index import load_index
from tests.harness.fauxmplementations.partial import (
    NelloForcedByName,
    NelloForcedInPart,
    PlungeAnyTime,
)

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
    """An invalid value is refused by everyone; the scenario is run (its one accepted
    setup's own_suit, on which nothing it checks depends, with a supported value)."""
    by_id = {r.id: r for r in _outcomes(NelloForcedInPart())}
    bad_value = by_id["variants.nello.option-bad-doubles-value"]
    assert bad_value.outcome is Outcome.PASSED
    assert len(bad_value.stand_in) == 1 and bad_value.stand_in[0].endswith('for "own_suit"')
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


# --- a value standing in (protocol.md, "A value standing in") -----------------------------


@cache
def _using(option):
    """Every scenario of the corpus with a setup that must be accepted giving `option`."""
    loaded = suite.load([scenarios_dir()])
    chosen = [item.scenario for item in suite.select(loaded, None, (), ())]
    return tuple(sc for sc in chosen if sc and any(option in v for v in needed(sc)))


def _reference_passes_some_value(scenario, limits):
    """Does the reference engine pass every check of `scenario` with some combination of
    supported values in place of those it lacks? Asked here of run_scenario itself, with
    its diagnosis, not of the harness's shortcut."""
    import itertools

    needs = lacking(scenario, limits)
    for choice in itertools.product(*[values or (LEFT_OUT,) for *_, values in needs]):
        swaps = [(n, k, was, now) for (n, k, was, _), now in zip(needs, choice, strict=True)]
        if run_scenario(rewrite(scenario, swaps), ReferenceAdapter()).outcome is Outcome.PASSED:
            return True
    return False


def _judged_exactly(scenarios, engine):
    """Run `scenarios` against `engine`: no failure; each skipped for a setting value
    names it and the reference fails it under every supported value; each run with a
    value standing in passes, and the reference passes it so rewritten. Returns the
    results."""
    from conformance.adapters.inprocess import harnessed

    limits = harnessed(engine).settings
    results = {sc.id: run_scenario(sc, engine, load_index()) for sc in scenarios}
    assert [(i, r.outcome) for i, r in results.items()
            if r.outcome in (Outcome.FAILED, Outcome.ERRORED)] == []
    for sc in scenarios:
        r = results[sc.id]
        if r.outcome is Outcome.SKIPPED and "needs variant setting" in r.reason:
            assert not _reference_passes_some_value(sc, limits), sc.id
        if r.stand_in:
            assert r.outcome is Outcome.PASSED and _reference_passes_some_value(sc, limits)
    return list(results.values())


def test_a_value_the_scenario_does_not_depend_on_is_replaced_by_a_supported_one():
    """The issue's proxy: the reference declaring plunge `when: ["any_time"]` only. The
    scenarios whose checks hold under any_time run with it and pass (a raise over point
    bids alone bids 4 marks, as any_time's jump does); those that depend on before_bids
    or raise are skipped naming it; 0 failures."""
    results = _judged_exactly(_using("plunge"), PlungeAnyTime())
    ran = [r for r in results if r.stand_in]
    skipped = [r for r in results if r.outcome is Outcome.SKIPPED]
    assert ran and skipped
    assert {n for r in ran for n in r.stand_in} == {'plunge when: "any_time" for "before_bids"',
                                                     'plunge when: "any_time" for "raise"'}
    # most scenarios of `when: "raise"` (PLUNGE-09) depend on it: skipped, naming it
    for r in skipped:
        assert r.reason in (f'needs variant setting plunge when: "{value}", which '
                            'plunge-any-time does not support'
                            for value in ("before_bids", "raise")), r.reason
    assert any('"raise"' in (r.reason or "") for r in skipped)


def test_the_engine_in_part_runs_what_does_not_depend_on_its_missing_settings():
    """The partial-support engine (nello and forced_bid in part): the same, per value."""
    scenarios = [sc for sc in _scenarios() if lacking(sc, NelloForcedInPart.supported)]
    results = _judged_exactly(scenarios, NelloForcedInPart())
    assert any(r.stand_in for r in results)
    assert any(r.outcome is Outcome.SKIPPED for r in results)


def test_without_the_value_standing_in_those_scenarios_would_fail():
    """The engine refuses before_bids: a stood-in scenario passes only because its setup
    was rewritten; the same engine declaring plunge by name fails it."""
    by_name = PlungeAnyTime()
    by_name.variants = [v["name"] if isinstance(v, dict) else v for v in by_name.variants]
    engine = PlungeAnyTime()
    stood = [sc for sc in _using("plunge") if lacking(sc, engine.supported)
             and run_scenario(sc, engine).stand_in][:2]
    assert stood
    for sc in stood:
        assert run_scenario(sc, by_name).outcome in (Outcome.FAILED, Outcome.ERRORED), sc.id


def test_the_value_standing_in_is_said_in_verbose_and_json(t42, tmp_path):
    out_json = tmp_path / "run.json"
    code, out = t42("run", scenarios_dir() / "variants" / "plunge", "-v", "--report-json",
                    out_json, "--adapter", f"python:{FAUX}:PlungeAnyTime", "--in-process")
    assert code == 0 and re.search(r"\d+ passed, 0 failed, 0 errored, [1-9]\d* skipped", out)
    note = 'plunge when: "any_time" for "before_bids"'
    verbose = [line for line in out.splitlines() if line.startswith("passed ")
               and f"(run with {note})" in line]
    assert verbose
    summary = [line for line in out.splitlines() if line.startswith("ran ")]
    assert len(summary) == 1 and f"({note} {len(verbose)}," in summary[0], summary
    import json

    report = json.loads(out_json.read_text(encoding="utf-8"))
    stood = {s["id"] for s in report["scenarios"] if s["stand_in"] == [note]}
    assert stood == {line.split()[1] for line in verbose}


def test_under_pytest_the_value_standing_in_is_a_junit_property_and_a_summary_line(tmp_path):
    import subprocess
    import sys

    junit = tmp_path / "junit.xml"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-p", "no:xdist",
         str(scenarios_dir() / "variants" / "plunge"), f"--junitxml={junit}",
         "--t42-adapter", f"python:{FAUX}:PlungeAnyTime"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    note = 'plunge when: &quot;any_time&quot; for &quot;before_bids&quot;'
    text = junit.read_text(encoding="utf-8")
    assert text.count(f'name="t42_stand_in" value="{note}"') > 0
    stood = text.count('name="t42_stand_in"')
    assert re.search(rf"^ran {stood} with a supported setting value", done.stdout, re.MULTILINE)
