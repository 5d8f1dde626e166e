"""Conformance levels, failures grouped by cause, every failure of a scenario, and the
first hour: each judged against engines with one convention or one rule changed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest

from conformance.corpus import select
from conformance.corpus.scenario import load_scenario
from conformance.report.text import compliance, groups
from conformance.run.results import Outcome
from conformance.run.runner import run_all, run_scenario
from conformance.specdata.index import load_index

from ..conftest import FAUX, GOOD, inproc

CONVENTIONS = FAUX / "conventions.py"
ROOT = GOOD.parents[3]


def convention(name: str) -> str:
    return f"python:{CONVENTIONS}:{name}"


@cache
def corpus():
    return select.load([])


@contextmanager
def opened(spec: str, in_process: bool = False) -> Iterator:
    """An adapter closed after use: a python: adapter's worker process ends with it."""
    from conformance.adapters.loading import load_adapter

    adapter = load_adapter(spec, in_process=in_process)
    try:
        yield adapter
    finally:
        adapter.close()


@cache  # results are only read: two tests asking for the same run share it
def run_corpus(name: str, level: str):
    # in process: these judge levels and groups over the whole corpus, and a worker's
    # messages tripled their time; the one-scenario tests below keep the worker's path
    with opened(convention(name), in_process=True) as adapter:
        return run_all(corpus(), adapter, level=level)


# Each fauxmplementation: the one cause it must show at strict, as (rule, check kind).
CAUSES = {
    "SeatBeforePhase": ("DIG-03", "check_order"),
    "StacksNeverValidated": ("CON-02", "rejected"),
    "OtherCodes": ("DIG-03", "code"),
    # issue 30: forms that change no game and leak nothing pass `rules`
    "StacksIgnoredOnPointContract": ("CON-03", "rejected"),
    "ZeroPointsBeforeFirstTrick": ("observation.md", "observe_form"),
    "EmptyHistory": ("observation.md", "observe_form"),
    "PublicHistory": ("observation.md", "observe_form"),
    "SortedOwnDeals": ("DEAL-03", "hand_order"),
}


@pytest.mark.parametrize("name", sorted(CAUSES))
def test_a_changed_convention_passes_rules_and_fails_strict_as_one_group(name):
    at_rules = run_corpus(name, "rules")
    outcomes = {r.outcome for r in at_rules}
    assert Outcome.FAILED not in outcomes and Outcome.ERRORED not in outcomes
    assert Outcome.NOT_JUDGED in outcomes  # counted apart, never as passed
    at_strict = run_corpus(name, "strict")
    found = groups(at_strict)
    # one cause; a code judged at two levels (codes, strict) is one group per level
    assert {(g.rule, g.kind) for g in found} == {CAUSES[name]}
    assert len({g.level for g in found}) == len(found)
    failed = {r.id for r in at_strict if r.outcome is Outcome.FAILED}
    assert failed == {i for g in found for i in g.ids}
    assert failed == {r.id for r in at_rules if r.outcome is Outcome.NOT_JUDGED}


def test_starting_marks_at_the_target_accepted_pass_rules_and_codes_and_fail_strict():
    """A setup with starting marks at or past the target is a test input (levels.yaml
    `inputs`): an engine that accepts it passes `rules` and `codes`, and at `strict` fails
    only those refusals, under the marks' rules."""
    inputs = load_index().levels.inputs
    assert inputs["marks_at_target"].level == "strict"
    for level in ("rules", "codes"):
        outcomes = {r.outcome for r in run_corpus("StartsPastTarget", level)}
        assert Outcome.FAILED not in outcomes and Outcome.ERRORED not in outcomes, level
        assert Outcome.NOT_JUDGED in outcomes
    found = groups(run_corpus("StartsPastTarget", "strict"))
    assert found and {g.kind for g in found} == {"rejected"}
    assert {g.rule for g in found} <= set(inputs["marks_at_target"].rules)
    failed = {i for g in found for i in g.ids}
    assert "match.setup-marks-seven" in failed
    assert failed == {r.id for r in run_corpus("StartsPastTarget", "rules")
                      if r.outcome is Outcome.NOT_JUDGED}


def test_other_refused_setups_stay_at_rules():
    """Starting marks below zero are no test input: accepted, they fail at `rules`."""
    from conformance.run.inputs import input_of

    scenario = load_scenario(ROOT / "scenarios/match/setup-marks-negative.yaml").scenario
    refused = [s for s in scenario.steps if s.kind == "setup" and s.reject]
    assert refused and all(input_of(s) is None for s in refused)
    seven = load_scenario(ROOT / "scenarios/match/setup-marks-seven.yaml").scenario
    assert [input_of(s) for s in seven.steps if s.reject] == ["marks_at_target"]
    levels = load_index().levels
    assert levels.of("rejected", "INVALID_SETUP") == "rules"
    assert levels.of("rejected", "INVALID_SETUP", "marks_at_target") == "strict"
    assert levels.of("code", "INVALID_SETUP", "marks_at_target") == "strict"


def test_check_order_is_strict_not_codes():
    at_codes = run_corpus("SeatBeforePhase", "codes")
    assert not any(r.outcome is Outcome.FAILED for r in at_codes)


def test_another_code_fails_at_codes():
    assert groups(run_corpus("OtherCodes", "codes"))[0].kind == "code"


def test_not_judged_checks_are_counted_apart_in_the_compliance_table():
    table = compliance(run_corpus("OtherCodes", "rules"))
    dig = table["rules"]["DIG-03"]
    assert dig["codes"]["not_judged"] > 0 and dig["codes"]["passed"] == 0
    assert dig["rules"]["failed"] == 0 and dig["rules"]["passed"] > 0


def test_the_run_goes_on_after_a_wrong_code_and_reports_every_failure():
    name = "check-order-invalid-trump-before-stacks-not-allowed.yaml"
    scenario = load_scenario(ROOT / "scenarios/contract" / name).scenario
    with opened(convention("OtherCodes")) as adapter:
        result = run_scenario(scenario, adapter)
    assert result.outcome is Outcome.FAILED and not result.stopped
    assert [d.step for d in result.failures] == ["steps[4]", "steps[5]"]


def test_the_run_stops_when_the_states_diverge_and_says_so():
    scenario = load_scenario(ROOT / "scenarios/contract/stacks-invalid-zero.yaml").scenario
    with opened(convention("StacksNeverValidated")) as adapter:
        result = run_scenario(scenario, adapter)
    assert result.outcome is Outcome.FAILED
    assert "the states diverged" in result.stopped and "not run" in result.stopped
    with opened(convention("StacksNeverValidated")) as adapter:
        at_rules = run_scenario(scenario, adapter, level="rules")
    assert at_rules.outcome is Outcome.NOT_JUDGED
    assert "a check above this level" in at_rules.stopped


def test_a_failure_block_explains_itself(t42):
    code, out = t42("run", "-k", "check-order-seat-before-must-follow", "--adapter",
                    convention("OtherCodes"))
    assert code == 1
    block = out[out.index("FAILED DIG-03: a refusal with another code"):]
    assert "A play out of turn that would not follow suit is NOT_YOUR_TURN" in block  # title
    assert 'action: {"type": "play"' in block
    assert "rule DIG-03: An illegal action MUST be rejected" in block
    assert 'error.code: expected "NOT_YOUR_TURN", actual "INVALID_SETUP"' in block
    assert "trick in play order:" in block and "hand of " in block


def test_groups_print_once_with_count_and_ids_and_verbose_prints_every_block(t42):
    contract = ROOT / "scenarios" / "contract"
    code, out = t42("run", contract, "--adapter", convention("OtherCodes"))
    heads = [line for line in out.splitlines() if line.startswith("FAILED DIG-03: a refusal")]
    assert heads and len(heads) == len(set(heads)) and "all " in out  # once per level
    _, verbose = t42("run", contract, "-v", "--adapter", convention("OtherCodes"))
    assert verbose.count("check: code (level") > 5


def test_summary_names_the_level(t42):
    code, out = t42("run", GOOD, "--level", "rules")
    assert code == 0
    assert out.rstrip().splitlines()[-1].endswith("0 not judged at level rules")
    code, out = t42("run", GOOD, "--level", "nope")
    assert code == 2


def test_levels_yaml_classes_every_check_kind():
    levels = load_index().levels
    assert levels.names == ("rules", "codes", "strict")
    assert levels.of("code", "BID_TOO_LOW") == "codes"
    assert levels.of("code", "STACKS_INVALID") == "strict"
    assert levels.of("rejected", "NOT_YOUR_TURN") == "rules"


def test_cli_levels_are_the_spec_levels():
    from conformance.cli.main import LEVELS

    assert LEVELS == load_index().levels.names


def test_the_default_level_is_the_highest_and_a_name_is_checked_against_the_spec():
    from conformance.specdata.levels import STRICT

    levels = load_index().levels
    assert STRICT == levels.names[-1]
    assert levels.level("codes") == "codes"
    with pytest.raises(ValueError, match=r"unknown level lenient \(one of rules, codes, strict\)"):
        levels.level("lenient")


# ---- the first hour ----------------------------------------------------------------


def test_a_selection_that_matches_nothing_exits_non_zero(t42):
    code, out = t42("run", GOOD, "-k", "no-such-scenario")
    assert code == 2 and "no scenario matches -k no-such-scenario" in out


def test_a_missing_expected_failures_file_is_an_error(t42, tmp_path):
    code, out = t42("run", GOOD, "--expected-failures", tmp_path / "typo.yaml")
    assert code == 2 and "does not exist" in out


def test_expected_failures_messages_count_what_is_listed(t42, tmp_path):
    listed = tmp_path / "xfail.yaml"
    listed.write_text("- id: harness.bidding\n  reason: x\n- id: harness.perft\n  reason: y\n")
    code, out = t42("run", GOOD, "--expected-failures", listed)
    assert "2 expected failures listed" in out and "0 failed as expected, 2 now pass" in out


def test_an_adapter_that_cannot_start_stops_the_run_with_one_message(t42):
    code, out = t42("run", GOOD, "--adapter", "cmd:/nonexistent/engine")
    lines = out.splitlines()
    assert code == 2 and out.count("cannot start") == 1 and len(lines) <= 3
    # ... and still ends with the summary line (issue 15): nothing ran, all errored
    total = len(list(Path(GOOD).glob("*.yaml")))
    assert lines[-1] == (f"0 passed, 0 failed, {total} errored, 0 skipped, "
                         "0 not judged at level strict")
    for extra in ([], ["--in-process"]):
        code, out = t42("run", GOOD, "--adapter", "python:no_such_module_anywhere:Adapter",
                        *extra)
        assert code == 2 and "ModuleNotFoundError" in out, (extra, out)
        assert out.splitlines()[-1].startswith(f"0 passed, 0 failed, {total} errored"), extra


def test_under_pytest_an_adapter_that_cannot_start_stops_the_session(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           str(ROOT / "scenarios" / "bidding"),
                           "--t42-adapter", "cmd:/nonexistent/engine"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert len((done.stdout + done.stderr).splitlines()) < 10


def test_the_current_folder_is_importable_for_a_python_adapter(tmp_path):
    (tmp_path / "my_adapter.py").write_text(
        "from conformance.adapters.reference import ReferenceAdapter\n"
        "class My42Adapter(ReferenceAdapter):\n    name = 'mine'\n")
    t42 = Path(sys.executable).parent / "t42"  # the console script, as the README runs it
    done = subprocess.run([str(t42), "run", "-k",
                           "bidding", "--adapter", "python:my_adapter:My42Adapter"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "against mine" in done.stdout


def test_the_wrong_code_fauxmplementation_of_the_good_data_still_fails():
    """The old single-block report still holds for one failing scenario."""
    scenario = load_scenario(GOOD / "bidding.yaml").scenario
    with opened(inproc("WrongCode")) as adapter:
        result = run_scenario(scenario, adapter, level="rules")
    assert result.outcome is Outcome.NOT_JUDGED


def test_also_broken_must_come_later_in_the_check_order(tmp_path):
    source = ROOT / "scenarios/actions/check-order-seat-before-must-follow.yaml"
    text = source.read_text().replace("also_broken: [MUST_FOLLOW]", "also_broken: [WRONG_PHASE]")
    assert "also_broken: [WRONG_PHASE]" in text
    copy = tmp_path / "scenarios" / "actions" / source.name
    copy.parent.mkdir(parents=True)
    schema = ROOT / "spec/schemas/scenario.schema.json"
    copy.write_text(text.replace("../../spec/schemas/scenario.schema.json", str(schema)))
    problems = [str(p) for p in load_scenario(copy).problems]
    assert any("WRONG_PHASE comes before NOT_YOUR_TURN in the check order" in p
               for p in problems), problems
