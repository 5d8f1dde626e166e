"""The runner against in-process fauxmplementations: each wrong engine gets a clear report."""

from pathlib import Path

import pytest

from conformance.adapters.loading import load_adapter
from conformance.corpus.scenario import load_scenario
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.run.visibility import seat_leaks

from ..conftest import GOOD, inproc


def run(name: str, faux: str):
    scenario = load_scenario(GOOD / f"{name}.yaml").scenario
    return run_scenario(scenario, load_adapter(inproc(faux), in_process=True))


@pytest.mark.parametrize("name", ["bidding", "first-trick", "perft", "setup-steps"])
def test_correct_engine_passes(name):
    result = run(name, "Correct")
    assert result.outcome is Outcome.PASSED, result.report()


def test_a_missing_capability_leaves_its_check_not_judged_and_the_rest_judged():
    result = run("perft", "Bare")
    assert result.outcome is Outcome.PASSED, result.report()
    assert result.unanswered == {"perft": 1} and result.checks  # the other checks judged
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
    assert any(d.path == "view.hands.A" for d in result.detail.differences)  # a line a hand


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
    adapter = load_adapter(inproc("HangsOnPlay"), in_process=True)  # the watchdog's case
    # 2 s and 30 s, not less: on a loaded machine the steps before the hang, and the next
    # scenario, must not run into the limit themselves (0.3 s failed under load).
    hung = run_scenario(load_scenario(GOOD / "first-trick.yaml").scenario, adapter, limit=2.0)
    assert hung.outcome is Outcome.ERRORED
    assert hung.detail.message == (
        "the implementation hung: no answer within 2 s (in-process watchdog)")
    assert hung.detail.step == "steps[0]"
    after = run_scenario(load_scenario(GOOD / "bidding.yaml").scenario, adapter, limit=30.0)
    assert after.outcome is Outcome.PASSED, after.report()


# VIS-08: while the round is in progress, who played or won a completed trick stays hidden,
# in x_ fields too. Trick 1 below: A 0|0, B 0|2, C 0|4, D 2|3; A wins, the round goes on.

SCHEMA = Path(__file__).resolve().parents[3] / "spec/schemas/scenario.schema.json"
HEADER = f"# yaml-language-server: $schema={SCHEMA}\n" + """\
id: harness.vis08
title: VIS-08 in x_ fields
description: Harness test data.
rules: [VIS-08]
setup:
  dealer: D
  hands:
    A: ["5|5", "1|2", "0|0", "2|2", "1|3", "0|1", "1|1"]
    B: ["3|5", "1|6", "0|3", "4|5", "2|4", "3|3", "0|2"]
    C: ["0|5", "2|6", "4|4", "1|5", "3|4", "0|4", "2|5"]
    D: ["6|6", "2|3", "4|6", "0|6", "5|6", "1|4", "3|6"]
  contract: {declarer: A, bid: {points: 30}, trump: 6}
steps:
"""
IN_PLAY = HEADER + """\
  - act: {type: play, seat: A, tile: "0|0"}
  - act: {type: play, seat: B, tile: "0|2"}
  - act: {type: play, seat: C, tile: "0|4"}
  - act: {type: play, seat: D, tile: "2|3"}
  - act: {type: play, seat: A, tile: "1|1"}
    expect:
      observe:
        C: {phase: playing, captured: [{number: 1, team: AC}]}
"""
# The worked example: BD's 16 points set the contract after trick 1 (VIS-10 then applies).
ROUND_OVER = HEADER + """\
  - act: {type: play, seat: A, tile: "5|5"}
  - act: {type: play, seat: B, tile: "3|5"}
  - act: {type: play, seat: C, tile: "0|5"}
  - act: {type: play, seat: D, tile: "6|6"}
    expect:
      observe:
        C: {phase: round_over}
"""


def run_text(tmp_path, text: str, faux: str):
    path = tmp_path / "vis08.yaml"
    path.write_text(text, encoding="utf-8")
    loaded = load_scenario(path)
    assert loaded.problems == [], loaded.problems
    return run_scenario(loaded.scenario, load_adapter(inproc(faux), in_process=True))


@pytest.mark.parametrize("faux, path", [
    ("LeaksPlayOrder", "observe.C.x_debug.last_trick.plays[0]"),
    ("LeaksWinner", "observe.C.x_tricks[0]"),
    ("LeaksPlayedBySeat", "observe.C.x_played"),
])
def test_seat_of_a_completed_trick_in_an_x_field_fails_vis08(tmp_path, faux, path):
    result = run_text(tmp_path, IN_PLAY, faux)
    assert result.outcome is Outcome.FAILED, result.report()
    assert "which seat played or won a completed trick" in result.detail.message
    assert "VIS-08" in result.detail.rules
    assert path in [d.path for d in result.detail.differences]


@pytest.mark.parametrize("faux", ["Correct", "HarmlessExtras"])
def test_harmless_x_fields_pass_the_vis08_check(tmp_path, faux):
    result = run_text(tmp_path, IN_PLAY, faux)
    assert result.outcome is Outcome.PASSED, result.report()


@pytest.mark.parametrize("faux", ["LeaksPlayOrder", "LeaksWinner", "LeaksPlayedBySeat"])
def test_after_the_round_the_plays_may_be_shown(tmp_path, faux):
    """VIS-10: once the round has ended the whole history, seats included, is public."""
    result = run_text(tmp_path, ROUND_OVER, faux)
    assert result.outcome is Outcome.PASSED, result.report()


PLAYS = [{"seat": "A", "tile": "0|0"}, {"seat": "B", "tile": "0|2"},
         {"seat": "C", "tile": "0|4"}, {"seat": "D", "tile": "2|3"}]
REFEREE = {"phase": "playing", "tricks": [{"number": 1, "plays": PLAYS, "winner": "A"}]}


@pytest.mark.parametrize("extra", [
    {"type": "play", "seat": "C", "tile": "0|4"},  # the observer's own play: still VIS-08
    {"0|0": "A"},
    {"D": "2|3", "C": []},
    [{"number": 1, "winner": "A", "team": "AC"}],
])
def test_each_judged_form_is_a_leak(extra):
    assert seat_leaks({"x_": [extra]}, REFEREE, "observe.C")


@pytest.mark.parametrize("extra", [
    {"seat": "A", "tile": "0|2"},  # a wrong pairing tells nothing
    {"seat": "A", "tile": ["0|0"]},
    {"A": ["0|0", "0|2"]},  # a list that is not A's plays alone
    {"dealer": "A", "best": "0|0"},  # siblings are not paired
    {"number": True, "winner": "A"},
    {"number": 2, "winner": "A"},  # no trick 2 yet
    {"leader": "A", "tiles": ["0|0", "0|2", "0|4", "2|3"]},  # play order without seats
])
def test_forms_that_say_nothing_of_seats_pass(extra):
    assert seat_leaks({"x_": [extra]}, REFEREE, "observe.C") == []


def test_no_leak_is_judged_after_the_round():
    full = {"history": [{"type": "play", **p} for p in PLAYS]}
    assert seat_leaks(full, REFEREE, "observe.C")
    assert seat_leaks(full, {**REFEREE, "phase": "round_over"}, "observe.C") == []


def test_the_table_picture_of_a_failure_is_plain_words_and_shows_the_next_seat_for_legal():
    """No Python `None` for a trump not yet named, "1 mark", and a legal-actions failure
    shows the hand of the seat those actions are for (the seat to act), not the actor's."""
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.run.results import Detail
    from conformance.run.runner import context_lines
    from conformance.specdata.index import load_index

    adapter = ReferenceAdapter()
    adapter.start({"dealer": "D", "order": sorted_tiles()})
    for action in ({"type": "bid", "seat": "A", "marks": 1}, {"type": "pass", "seat": "B"},
                   {"type": "pass", "seat": "C"}, {"type": "pass", "seat": "D"}):
        adapter.act(action)
    last = {"type": "pass", "seat": "D"}
    legal = context_lines(Detail("x", action=last, kind="legal", rule="CON-01"),
                          load_index(), adapter)
    assert legal[1] == "table: trump not declared yet (A bid 1 mark); trick in play order: empty"
    assert legal[2].startswith("hand of A: ")
    played = context_lines(Detail("x", action=last, kind="view", rule="VIS-09"),
                           load_index(), adapter)
    assert played[0].startswith("rule VIS-09: Each team") and "**" not in played[0]


def sorted_tiles() -> list[str]:
    from reference_impl.tiles import NAMES

    return list(NAMES)


def test_the_table_picture_after_a_trick_shows_that_trick_and_who_took_it():
    """The trick in play is empty once a trick ends: a failure there (who leads next, the
    trick's points) needs the trick that just ended. A leads the 0 double under trump 6
    and B, C, D follow 0: the double is the highest of its suit (RANK-01), A takes it."""
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.run.results import Detail
    from conformance.run.runner import context_lines
    from conformance.specdata.index import load_index

    adapter = ReferenceAdapter()
    adapter.start({"dealer": "D", "order": sorted_tiles()})
    for action in ({"type": "bid", "seat": "A", "points": 30}, {"type": "pass", "seat": "B"},
                   {"type": "pass", "seat": "C"}, {"type": "pass", "seat": "D"},
                   {"type": "trump", "seat": "A", "trump": 6}):
        adapter.act(action)
    for seat, tile in zip("ABCD", ("0|0", "0|1", "0|2", "0|3"), strict=True):
        adapter.act({"type": "play", "seat": seat, "tile": tile})
    lines = context_lines(Detail("x", action={"type": "play", "seat": "D", "tile": "0|3"},
                                 kind="view", rule="PLAY-03"), load_index(), adapter)
    assert "table: trump 6 (A bid 30 points); trick in play order: empty" in lines
    assert "last trick (1): A 0|0, B 0|1, C 0|2, D 0|3; won by A" in lines


def test_a_failure_pictures_the_table_at_its_step_not_at_the_end_of_the_run():
    """B's legal set is checked after A leads 5|6; the run goes on (B plays 3|6), and the
    picture must still be the one B's check saw."""
    corpus = Path(__file__).resolve().parents[3] / "scenarios"
    scenario = load_scenario(corpus / "play/no-pass-in-play.yaml").scenario
    plant = "python:conformance.planted:must-follow-not-enforced"
    result = run_scenario(scenario, load_adapter(plant, in_process=True))
    legal = next(d for d in result.failures if d.kind == "legal")
    assert legal.step == "steps[1]", result.reports()
    assert "table: trump 6 (A bid 30 points); trick in play order: A 5|6" in legal.context
    assert "hand of B: 0|1 0|5 1|3 2|2 3|4 3|6 4|5" in legal.context
