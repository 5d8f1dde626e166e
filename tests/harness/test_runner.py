"""The runner against in-process fauxmplementations: each wrong engine gets a clear report."""

import pytest

from conformance.adapter import load_adapter
from conformance.results import Outcome
from conformance.runner import run_scenario
from conformance.scenario import load_scenario

from .conftest import GOOD, inproc


def run(name: str, faux: str):
    scenario = load_scenario(GOOD / f"{name}.yaml").scenario
    return run_scenario(scenario, load_adapter(inproc(faux)))


@pytest.mark.parametrize("name", ["bidding", "first-trick", "perft", "setup-steps"])
def test_correct_engine_passes(name):
    result = run(name, "Correct")
    assert result.outcome is Outcome.PASSED, result.report()


def test_missing_capability_skips_with_reason():
    result = run("perft", "Bare")
    assert result.outcome is Outcome.SKIPPED
    assert result.reason == "needs capability perft, which bare does not declare"
    assert run("bidding", "Bare").outcome is Outcome.PASSED


def test_crash_is_errored_with_the_exception_and_step():
    result = run("first-trick", "Crashes")
    assert result.outcome is Outcome.ERRORED
    assert result.detail.message == "act raised RuntimeError: index out of range (pretend)"
    assert result.detail.step == "steps[0]" and result.detail.line == 18
    assert "RuntimeError" in result.detail.stderr  # the traceback is kept


def test_wrong_code_shows_expected_and_actual_code():
    result = run("bidding", "WrongCode")
    assert result.outcome is Outcome.FAILED
    text = result.report()
    assert 'error.code: expected "NOT_YOUR_TURN", actual "WRONG_PHASE"' in text
    assert "bidding.yaml:21, steps[2])" in text
    assert 'action: {"type": "bid", "seat": "A", "points": 31}' in text


def test_accepting_an_illegal_action_fails():
    result = run("bidding", "AcceptsOutOfTurn")
    assert result.outcome is Outcome.FAILED
    assert result.detail.message == "accepted; it must be rejected with NOT_YOUR_TURN"
    assert "DIG-02" in result.detail.rules


def test_rejection_that_changes_the_view_fails_dig03():
    result = run("bidding", "ChangesOnReject")
    assert result.outcome is Outcome.FAILED
    assert "DIG-03" in result.detail.message
    assert any(d.path.startswith("view.hands.A[") for d in result.detail.differences)


def test_leaking_observation_fails_vis01_even_in_x_fields():
    result = run("first-trick", "Leaky")
    assert result.outcome is Outcome.FAILED
    assert "shows tiles it may not see" in result.detail.message
    assert "VIS-01" in result.detail.rules


def test_view_missing_a_field_fails_the_schema():
    result = run("bidding", "MissingField")
    assert result.outcome is Outcome.FAILED
    assert "does not follow view.schema.json" in result.detail.message
    assert "history" in result.report()


def test_non_json_value_is_errored():
    result = run("bidding", "NotJson")
    assert result.outcome is Outcome.ERRORED
    assert "not JSON" in result.detail.message


def test_wrong_perft_total():
    result = run("perft", "WrongPerft")
    assert result.outcome is Outcome.FAILED
    assert "perft.depth2.total: expected 25, actual 26" in result.report()


def test_refusing_a_view_is_errored_not_a_harness_crash():
    result = run("bidding", "RefusesViews")
    assert result.outcome is Outcome.ERRORED
    assert result.detail.message.startswith("view() refused with WRONG_PHASE")


def test_in_process_hang_is_errored_and_the_next_scenario_runs():
    adapter = load_adapter(inproc("HangsOnPlay"))
    hung = run_scenario(load_scenario(GOOD / "first-trick.yaml").scenario, adapter, limit=0.3)
    assert hung.outcome is Outcome.ERRORED
    assert hung.detail.message == (
        "the implementation hung: no answer within 0.3 s (in-process watchdog)")
    assert hung.detail.step == "steps[0]"
    after = run_scenario(load_scenario(GOOD / "bidding.yaml").scenario, adapter, limit=0.3)
    assert after.outcome is Outcome.PASSED, after.report()
