"""Judged per check, not per scenario (issue 39): an implementation that declares no
capability has every scenario run that can be driven; its `legal`, `perft` and
`self_deal` checks are not judged, counted apart by capability; every other check is
judged. Only a scenario with nothing else to judge is skipped."""

from __future__ import annotations

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus import select as suite
from conformance.report.text import compliance_table
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.specdata.files import scenarios_dir
from conformance.specdata.index import load_index


class NoCapabilities(ReferenceAdapter):
    """The reference engine behind a proxy that declares no capability."""

    name = "no-capabilities"
    capabilities = frozenset()


def test_an_engine_without_capabilities_has_every_drivable_scenario_judged():
    index = load_index()
    chosen = [item.scenario for item in suite.select(suite.load([scenarios_dir()]), None, (),
                                                     ()) if item.scenario]
    results = [run_scenario(sc, NoCapabilities(), index) for sc in chosen]
    skipped = {r.id: r.reason for r in results if r.outcome is Outcome.SKIPPED}
    # only the scenarios that are a self_deal check and nothing else
    assert sorted(skipped) == ["deal.own-first-dealer-uniform", "deal.own-shuffle-uniform"]
    assert all("and has nothing else to judge" in why for why in skipped.values())
    assert [(r.id, r.outcome.value) for r in results
            if r.outcome not in (Outcome.PASSED, Outcome.SKIPPED)] == []
    legal = [r for r in results if "legal" in r.unanswered]
    perft = [r for r in results if "perft" in r.unanswered]
    assert len(legal) > 100 and len(perft) > 20
    assert all(r.checks for r in legal + perft)  # their other checks were judged
    line = compliance_table(results, "strict").splitlines()[-1]
    assert line.startswith("not judged, a capability not declared (every other check of "
                           "those scenarios was judged): legal ")
    assert f"in {len(legal)} scenarios" in line and f"in {len(perft)} scenarios" in line


def test_an_adapter_without_the_capability_methods_runs_in_its_worker(t42):
    """No legal() or perft() at all, none declared (the README's template): loaded, run,
    and its perft scenario judged on everything else, not errored as "not an adapter"."""
    from ..conftest import GOOD, inproc

    code, out = t42("run", GOOD, "--adapter", inproc("NoCapabilityMethods"))
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out
    assert code == 0
