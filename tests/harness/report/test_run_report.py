"""What `t42 run` prints after the scenarios: crashes grouped, the causes recalled above
the summary line."""

from __future__ import annotations

from ..conftest import faux_cmd


def test_a_run_shows_scenarios_errored_the_same_way_as_one_block(t42):
    """An engine that panics in its unwritten play errors every scenario that plays: one
    block (the shortest scenario's, the panic kept above its backtrace) and the ids, not
    a block each; the line above the summary counts them."""
    from pathlib import Path

    play = Path(__file__).resolve().parents[3] / "scenarios" / "play"
    code, out = t42("run", "--adapter", faux_cmd("panics_with_backtrace"), str(play))
    errored = int(out.splitlines()[-1].split(" errored")[0].rsplit(" ", 1)[-1])
    assert code == 1 and errored > 1, out
    assert out.count("\nERRORED the same way in ") == 1, out
    # the cause in the head line: what broke, and the panic its stderr shows
    assert (f"ERRORED the same way in {errored} scenarios: act: the implementation exited "
            "(code 101) without replying; its stderr says: thread 'main' panicked at "
            "src/game.rs:61:27: not yet implemented: play is not written yet\n") in out, out
    assert out.count("not yet implemented: play is not written yet") >= 1
    assert out.count("stderr of the implementation:") == 1, out
    assert f"errored: {errored} scenarios, 1 way (the ERRORED block above)" in out


def test_the_recap_says_which_way_a_rule_broken_two_ways_was_broken():
    """DIG-03 twice in `failed: 2 causes: DIG-03 in 1, DIG-03 in 1` said nothing: a rule
    with two groups names each group's way."""
    from conformance.report.text import recap
    from conformance.run.results import Detail, Outcome, Result

    def failed(id_: str, what: str, level: str) -> Result:
        detail = Detail("x", kind="known_code", level=level, rule="DIG-03", cause=what)
        return Result(id_, f"{id_}.yaml", Outcome.FAILED, detail=detail, failures=[detail])

    line = recap([failed("a", "a refusal with another code", "codes"),
                  failed("b", "a later code of the check order", "strict")])
    assert line.startswith("failed: 2 causes: DIG-03 ("), line
    assert "DIG-03 (a refusal with another code) in 1" in line
    assert "DIG-03 (a later code of the check order) in 1" in line


def test_perft_divide_differences_print_in_one_line():
    """Issue 44: a perft block printed a line per first action (28 at the bidding)."""
    from conformance.run.matching import MISSING, Difference
    from conformance.run.results import difference_lines

    divide = [Difference(f"perft.divide.bid:{n}", n, n + 1) for n in range(30, 42)]
    divide.append(Difference("perft.divide.pass", MISSING, 3))
    total = Difference("perft.depth2.total", 100, 113)
    lines = difference_lines([total, *divide])
    assert lines == ["perft.depth2.total: expected 100, actual 113",
                     "perft.divide: 13 first actions differ (expected/actual): bid:30 30/31, "
                     "bid:31 31/32, bid:32 32/33 (+10 more)"]
    few = difference_lines([total, *divide[:2]])
    assert len(few) == 3 and few[1] == "perft.divide.bid:30: expected 30, actual 31"


def _failed(id_: str, title: str, kind: str, size: int, rule: str = "BID-02",
            what: str = "a bid refused with POINT_BID_RANGE, though legal here",
            level: str = "rules"):
    from conformance.run.results import Detail, Outcome, Result

    detail = Detail("x", kind=kind, level=level, rule=rule, cause=what)
    return Result(id_, f"{id_}.yaml", Outcome.FAILED, detail=detail, failures=[detail],
                  title=title, rules=(rule,), size=size)


def test_a_legal_step_refused_is_shown_in_a_scenario_that_claims_no_refusal():
    """The shortest scenario failed at its bid of 41, on the way to its claim that 42 is
    refused: its title read as the opposite of the failing step. A scenario whose title
    names no error code is the example; the shortest still wins among equals."""
    from conformance.report.text import groups

    members = [_failed("short", "Without option bid_42, a point bid of 42 is POINT_BID_RANGE",
                       "accepted", 2),
               _failed("longer", "The legal bids at each point of the bidding", "accepted", 4),
               _failed("longest", "A 41 bid is made after six tricks", "accepted", 25)]
    assert groups(members)[0].example()[0].id == "longer"
    refused = [_failed("short", "A bid of 42 is POINT_BID_RANGE", "rejected", 2,
                       what="a bid of 42 accepted"),
               _failed("longer", "The legal bids at each point", "rejected", 4,
                       what="a bid of 42 accepted")]
    assert groups(refused)[0].example()[0].id == "short"  # its claim is the failing step

def test_the_recap_cuts_a_cause_at_a_word_or_not_at_all():
    """`BID-02 (a bid refused with POINT_BID_RANGE, thou)`: cut mid-word at 40 characters,
    and the two BID-02 groups read alike. A cause is whole up to 80 characters, else cut
    after a word, with `...`."""
    from conformance.report.text import clipped, recap

    line = recap([_failed("a", "t", "accepted", 2),
                  _failed("b", "t", "code", 2, what="a bid refused with POINT_BID_RANGE, "
                          "where the rule's code is BID_TOO_LOW", level="codes")])
    assert "BID-02 (a bid refused with POINT_BID_RANGE, though legal here) in 1" in line
    assert "BID-02 (a bid refused with POINT_BID_RANGE, where the rule's code is " \
           "BID_TOO_LOW) in 1" in line
    assert clipped("a bid refused with POINT_BID_RANGE, though legal here", 40) == \
        "a bid refused with POINT_BID_RANGE..."

def test_the_steps_since_the_last_check_name_the_setup_once(t42, tmp_path):
    """`since the last checked step: setup setup; ...`: a setup step's label is its kind."""
    from ..conftest import GOOD, inproc

    schema = GOOD.parents[3] / "spec" / "schemas" / "scenario.schema.json"
    text = (GOOD / "bidding.yaml").read_text().split("\n", 1)[1]
    text = f"# yaml-language-server: $schema={schema}\n{text}"
    cut = text.index("    expect:\n      view: {phase: bidding")
    scenario = tmp_path / "bidding.yaml"
    scenario.write_text(text[:cut] + text[text.index("  - act: {type: bid, seat: A, points: 31}"):])
    code, out = t42("run", scenario, "--adapter", inproc("WrongCode"), "--in-process")
    assert ("since the last checked step: setup; steps[0] A bids 30; steps[1] B passes\n"
            in out), out

def test_the_run_footer_says_what_its_time_counts():
    """`time: 0.01 s` after a run of 3.7 s: the scenarios' time alone. The footer says so
    and gives the time since the process started (start-up and handshake included)."""
    import time

    from conformance.cli.commands import process_age, time_line

    age = process_age()
    time.sleep(0.05)
    assert process_age() >= age + 0.04
    line = time_line(0.01)
    assert line.startswith("time: 0.01 s running the scenarios, "), line
    whole = float(line.split(", ")[1].split(" s in all")[0])
    assert whole >= age and line.endswith(" s in all (start-up and the adapter's handshake "
                                          "included)")

