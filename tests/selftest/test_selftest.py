"""The suite must catch every planted-bug engine (conformance/planted/, t42 selftest)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from conformance.planted import BUGS, BY_NAME, doc000
from conformance.planted.base import PlantedAdapter
from conformance.planted.catalog import BASE_BUGS, VARIANT_BUGS, Bug
from conformance.planted.selftest import run_bug, run_selftest, selftest_command, table
from conformance.run.results import Outcome
from conformance.specdata.index import load_index
from reference_impl.rules import BASE_RULES
from reference_impl.variants import rules_for

ROOT = Path(__file__).resolve().parents[2]
JOBS = min(2, os.cpu_count() or 1)


@cache
def corpus() -> list:
    """The whole corpus's scenarios, loaded once for the module (a few seconds each time)."""
    from conformance.corpus import select as suite

    return [i.scenario for i in suite.load([]) if i.scenario]


@pytest.fixture(scope="module")
def report(shared):
    """Each bug to its first catch at its level (what `t42 selftest` runs)."""
    return shared("selftest", lambda: run_selftest(jobs=JOBS))


@pytest.fixture(scope="module")
def full_report(request):
    """Every bug over every scenario (`t42 selftest --full`): about 2 minutes on 2 cores,
    so only with `pytest --full-selftest`."""
    if not request.config.getoption("--full-selftest"):
        pytest.skip("the full selftest runs with --full-selftest (t42 selftest --full)")
    return run_selftest(jobs=JOBS, full=True)


@pytest.mark.parametrize("name", [bug.name for bug in BUGS])
def test_bug_is_caught(report, name):
    result = next(r for r in report.bugs if r.name == name)
    assert not result.errored, f"planted engine crashed (a broken plant): {result.errored[:3]}"
    assert result.catching, f"no scenario catches {name} ({result.rule}): a hole in the corpus"


def test_selftest_uses_a_clean_corpus(report):
    assert report.scenarios > 0
    assert not report.invalid_files
    assert report.ok and not report.full


def test_each_bug_stops_at_its_first_catch_citing_its_rule_first(report):
    rules = {s.id: s.rules for s in corpus()}
    for result in report.bugs:
        cites = [result.rule in rules[s] for s in result.catching]
        assert cites == sorted(cites, reverse=True), result.name  # citing scenarios first
        assert sum(cites) == result.citing and result.caught_in_time, result.name
    # a catch above a bug's level does not stop its run; the first at its level does
    assert sum(len(r.catching) == 1 for r in report.bugs) >= len(report.bugs) * 9 // 10
    # a bug no citing scenario catches is a hole in what its rule's scenarios check
    assert sum(r.citing for r in report.bugs) >= len(report.bugs) - 5


def test_the_full_run_keeps_every_catch_and_every_crash():
    # run_bug's full run (the default): every scenario, not only up to the first catch
    from conformance.corpus import select as suite

    bug = BY_NAME["must-follow-not-enforced"]
    scenarios = [i.scenario for i in suite.load([ROOT / "scenarios" / "play"]) if i.scenario]
    index = load_index()
    full, first = run_bug(bug, scenarios, index), run_bug(bug, scenarios, index, full=False)
    assert len(full.catching) > 1 and first.catching == [
        next(s for s in full.catching if bug.rule in next(
            x for x in scenarios if x.id == s).rules)]


def test_every_bug_is_caught_by_the_full_run_and_none_crashes(full_report):
    assert full_report.full and len(full_report.bugs) == len(BUGS)
    crashed = {r.name: r.errored[:3] for r in full_report.bugs if r.errored}
    assert not crashed, f"planted engines crashed (broken plants): {crashed}"
    missed = [r.name for r in full_report.bugs if not r.caught_in_time]
    assert not missed and full_report.ok, f"not caught at their level: {missed}"


def test_catalog_is_well_formed():
    rules = load_index().rules
    assert len(BASE_BUGS) >= 25 and len(VARIANT_BUGS) >= 25
    assert len(BY_NAME) == len(BUGS), "bug names must be unique"
    for bug in BUGS:
        assert bug.rule in rules, f"{bug.name} cites unknown rule {bug.rule}"
        assert bug.description and bug.name == bug.name.lower()


def test_report_tells_variant_plants_apart(report):
    variant = {r.name for r in report.bugs if r.variant}
    assert variant == {bug.name for bug in VARIANT_BUGS}
    assert "variant plants: " in "\n".join(table(report))


def test_every_option_has_planted_bugs():
    index = load_index()
    planted = {index.rules[bug.rule].variant for bug in VARIANT_BUGS}
    assert planted >= set(index.variants), "an option with no planted bug proves nothing"
    # a variant plant breaks a rule of variants.md, or a base rule under one option only
    # (conformance/planted/doc000.py: VIS-09 under Nel-O, Sevens, a plunge)
    under_one_option = {name for name, *_ in doc000.VARIANT_PLANTS}
    for bug in VARIANT_BUGS:
        assert index.rules[bug.rule].file == "variants.md" or bug.name in under_one_option, \
            bug.name


def test_plants_declare_the_options_they_play():
    # base plants swap the base Rules in, so a variant scenario must be skipped, not
    # run without its options; variant plants claim every option the reference has
    from conformance.adapters.reference import ReferenceAdapter

    assert all(bug.adapter().variants == [] for bug in BASE_BUGS)
    options = ReferenceAdapter().variants
    assert options and all(bug.adapter().variants == options for bug in VARIANT_BUGS)


def test_variant_plants_are_the_reference_in_the_base_game(full_report):
    # a variant plant changes its option's rules only: a base scenario catching it would
    # mean a bug outside its option (and a catch the selftest should not count)
    options = {s.id: s.variants for s in corpus()}
    names = {bug.name for bug in VARIANT_BUGS}
    for result in full_report.bugs:
        if result.name in names:
            base = [s for s in result.catching if not options[s]]
            assert not base, f"{result.name} is caught by base scenarios {base}"


def _base_scenarios() -> list:
    return [s for s in corpus() if not s.variants]


def test_option_plants_play_the_reference_rules_in_the_base_game():
    # the default run's form of the test above, for the plants that only redefine an
    # option: with no option of theirs in the setup they play by the engine's own Rules
    # (rules_of None), which is the reference engine itself
    plain = [b for b in VARIANT_BUGS if type(b.adapter()) is PlantedAdapter]
    assert len(plain) > len(VARIANT_BUGS) // 2
    setups = [step.payload for s in _base_scenarios() for step in s.steps
              if step.kind == "setup" and isinstance(step.payload, dict)]
    assert setups
    for bug in plain:
        adapter = bug.adapter()
        assert adapter.redefined and adapter.planted_rules is None, bug.name
        for setup in setups + [{"dealer": "N"}]:
            assert adapter.rules_of(setup) is None, (bug.name, setup)


@pytest.mark.parametrize("name", [b.name for b in VARIANT_BUGS
                                  if type(b.adapter()) is not PlantedAdapter])
def test_edge_variant_plants_pass_every_base_scenario(name):
    # the default run's form for the plants at the adapter's edge: every base scenario
    # (the two statistical ones only if the plant deals its own matches differently)
    from conformance.adapters.reference import ReferenceAdapter

    bug = BY_NAME[name]
    cls = type(bug.adapter())
    own_dealing = (cls.new_match is not ReferenceAdapter.new_match
                   or cls.next_deal is not ReferenceAdapter.next_deal)
    scenarios = [s for s in _base_scenarios()
                 if own_dealing or "self_deal" not in s.needs]
    result = run_bug(bug, scenarios, load_index())
    assert not result.catching and not result.errored, (result.catching, result.errored)


def test_planted_rules_survive_clone_so_perft_explores_the_plant():
    adapter = BY_NAME["leader-rotates"].adapter()
    adapter.start({"dealer": "D", "order": [f"{a}|{b}" for a in range(7) for b in range(a, 7)]})
    match = adapter.match
    assert match.rules is adapter.planted_rules is match.clone().rules
    assert match.rules.next_leader is not BASE_RULES.next_leader


def test_a_variant_plant_plays_the_reference_rules_without_its_option():
    adapter = BY_NAME["nello-partner-plays"].adapter()
    order = [f"{a}|{b}" for a in range(7) for b in range(a, 7)]
    adapter.start({"dealer": "D", "order": order, "variants": {"sevens": True}})
    assert adapter.match.rules is rules_for({"sevens": True})
    adapter.start({"dealer": "D", "order": order, "variants": {"nello": True}})
    assert adapter.match.rules is not rules_for({"nello": True})
    assert adapter.match.rules.sitting_out is BASE_RULES.sitting_out


def test_selftest_fails_when_a_bug_is_not_caught(capsys):
    # a perft count at the declaration cannot see a visibility bug
    path = ROOT / "scenarios" / "regressions" / "perft-declaring-points-contract.yaml"
    assert selftest_command([path], "covered-tricks-shown") == 1
    assert "NOT CAUGHT" in capsys.readouterr().out


def test_a_crashing_plant_is_broken_not_caught():
    class Crashes(PlantedAdapter):
        def act(self, action):
            raise RuntimeError("planted crash")

    bug = Bug("crashes", "DIG-03", "crashes on every action", lambda name: Crashes(name))
    from conformance.corpus import select as suite

    scenarios = [i.scenario for i in suite.load([ROOT / "scenarios" / "play"]) if i.scenario]
    result = run_bug(bug, scenarios, load_index())
    assert result.errored and not result.catching


def test_reference_engine_is_not_a_catch(report):
    # the control: scenarios the reference fails are left out, so a catch means a real
    # difference between the planted engine and the reference
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.run.runner import run_scenario

    index = load_index()
    loaded = corpus()
    passing = {s.id for s in loaded
               if run_scenario(s, ReferenceAdapter(), index).outcome is Outcome.PASSED}
    for result in report.bugs:
        assert set(result.catching) <= passing
