"""A run holds each scenario packed until its turn (conformance/run/held.py) and its
results share their checks: the same scenarios, the same results, less kept. The memory
itself is measured by tools/run_memory.py (docs/measurements.md), never here."""

from __future__ import annotations

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus import select as suite
from conformance.run import held
from conformance.run.runner import run_all
from conformance.specdata.files import scenarios_dir


def test_held_scenarios_are_the_loaded_ones():
    folder = scenarios_dir() / "play"
    loaded = suite.load([folder])
    every, chosen = held.load([folder])
    assert [h.path for h in every] == [item.path for item in loaded]
    assert [h.scenario for h in every] == [item.scenario for item in loaded]
    assert chosen == every  # nothing filters
    first = every[0]
    assert first.scenario is not first.scenario  # unpacked afresh: nothing kept


def test_a_selection_chooses_as_select_does():
    folder = scenarios_dir()
    loaded = suite.select(suite.load([folder / "play"]), "must-follow")
    _, chosen = held.load([folder / "play"], "must-follow")
    assert [h.path for h in chosen] == [item.path for item in loaded]
    assert chosen


def test_results_over_held_scenarios_are_those_over_loaded_ones_with_shared_checks():
    folder = scenarios_dir() / "suits"
    plain = run_all(suite.load([folder]), ReferenceAdapter())
    _, chosen = held.load([folder])
    packed = run_all(chosen, ReferenceAdapter())
    assert [(r.id, r.outcome, r.checks) for r in packed] == [
        (r.id, r.outcome, r.checks) for r in plain]
    checks = [c for r in packed for c in r.checks]
    assert len({id(c) for c in checks}) == len(set(checks)) < len(checks)


def test_what_each_result_keeps_is_shared_where_it_is_alike():
    # the id the loading kept, the empty dicts of a passed scenario: one object each
    _, chosen = held.load([scenarios_dir() / "suits"])
    results = run_all(chosen, ReferenceAdapter())
    assert [r.id for r in results] == [h.id for h in chosen]
    assert all(r.id is h.id for r, h in zip(results, chosen, strict=True))
    empty = [r for r in results if not r.unanswered and not r.pictures]
    assert len(empty) > 1 and all(r.unanswered is empty[0].pictures for r in empty)
    assert empty[0].unanswered == {}  # never written to
    assert all(h.problems == () and h.path.name.endswith(".yaml") for h in chosen)
