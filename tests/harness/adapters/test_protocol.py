"""The JSON-lines protocol: the reference server, and broken servers reported clearly."""

import json
import subprocess
import sys

import pytest

from conformance.adapters.loading import load_adapter
from conformance.corpus.scenario import load_corpus
from conformance.run.results import Outcome
from conformance.run.runner import run_all

from ..conftest import GOOD, faux_cmd

SERVE = f"cmd:{sys.executable} -m conformance.cli.main serve"


def run_good(adapter_spec: str, timeout: float = 5.0):
    adapter = load_adapter(adapter_spec, timeout)
    try:
        results = run_all(load_corpus([GOOD]), adapter)
    finally:
        adapter.close()
    return {r.id.removeprefix("harness."): r for r in results}


def test_reference_server_passes_everything():
    results = run_good(SERVE)
    assert {r.outcome for r in results.values()} == {Outcome.PASSED}


def test_handshake_reports_name_capabilities_and_protocol():
    adapter = load_adapter(SERVE)
    try:
        assert adapter.name == "reference_impl"
        assert adapter.capabilities == {"legal", "perft", "self_deal"}
    finally:
        adapter.close()


def test_serve_answers_one_line_per_request():
    requests = [{"seq": 1, "cmd": "hello", "protocol": 1},
                {"seq": 2, "cmd": "act", "action": {"type": "pass"}},
                {"seq": 3, "cmd": "stop"}]
    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", "serve"], text=True,
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, timeout=30)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["seq"] for r in replies] == [1, 2, 3] and done.returncode == 0
    assert replies[0]["result"]["protocol"] == 1
    assert replies[2] == {"seq": 3, "ok": True, "result": None}


def test_serve_of_an_adapter_that_cannot_load_says_why_in_one_line_and_in_its_replies():
    requests = [{"seq": 1, "cmd": "hello", "protocol": 1}, {"seq": 2, "cmd": "stop"}]
    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", "serve",
                           "--adapter", "python:conformance.planted:no-such-plant"], text=True,
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, timeout=30)
    why = ("cannot load python:conformance.planted:no-such-plant: AttributeError: "
           "no planted bug named")
    assert "Traceback" not in done.stderr and f"t42 serve: {why}" in done.stderr
    hello = json.loads(done.stdout.splitlines()[0])
    assert hello["error"]["code"] == "t42.unusable" and why in hello["error"]["message"]
    assert done.returncode == 2


@pytest.mark.parametrize("command", [("run",), ("fuzz", "--games", "2")])
def test_an_engine_that_crashes_at_start_is_reported_with_its_stderr(command, t42, tmp_path):
    engine = tmp_path / "engine.py"
    engine.write_text("import sys\nprint('ImportError: no module named engine_core', "
                      "file=sys.stderr)\nsys.exit(1)\n")
    code, out = t42(*command, "--adapter", f"cmd:{sys.executable} {engine}")
    assert code != 0
    assert ("exited (code 1) without replying" in out
            and "\n  its stderr (last lines):\n    ImportError: no module named engine_core"
            in out), out


def test_crash_is_errored_with_stderr_and_the_run_goes_on():
    results = run_good(faux_cmd("crashes"))
    crashed = results["first-trick"]
    assert crashed.outcome is Outcome.ERRORED
    assert "exited (code 3) without replying" in crashed.detail.message
    assert "segmentation fault (pretend)" in crashed.detail.stderr
    assert results["perft"].outcome is Outcome.PASSED  # restarted after the crash


def test_each_crash_report_quotes_its_own_process_stderr_not_the_earlier_ones():
    """A program that crashes in every scenario is restarted each time; each report
    quotes its crash once, not the tail of all the processes before it."""
    first_trick = [c for c in load_corpus([GOOD]) if c.path.name == "first-trick.yaml"]
    adapter = load_adapter(faux_cmd("crashes"))
    try:
        results = run_all(first_trick * 3, adapter)
    finally:
        adapter.close()
    assert [r.outcome for r in results] == [Outcome.ERRORED] * 3
    assert [r.detail.stderr.count("segmentation fault (pretend)") for r in results] == [1] * 3


def test_hang_is_errored_after_the_timeout_and_the_run_goes_on():
    # 2 s, not less: after the restart every reply of the next scenarios must come within
    # it, and on a loaded machine a fresh Python process can take a second to answer.
    results = run_good(faux_cmd("hangs"), timeout=2.0)
    assert results["bidding"].outcome is Outcome.ERRORED
    assert results["bidding"].detail.message == "view: no reply within 2 s"
    assert results["perft"].outcome is Outcome.PASSED


def test_garbage_output_is_errored_not_a_harness_crash():
    results = run_good(faux_cmd("garbage"))
    assert results["bidding"].outcome is Outcome.ERRORED
    assert "reply is not JSON: '<html>surprise</html>'" in results["bidding"].detail.message
    assert results["perft"].outcome is Outcome.PASSED


def test_wrong_protocol_version_errors_every_scenario():
    results = run_good(faux_cmd("wrong_protocol"))
    assert {r.outcome for r in results.values()} == {Outcome.ERRORED}
    assert "speaks protocol 99, the harness speaks protocol 1" in results["perft"].detail.message


def test_rejecting_everything_fails_every_scenario():
    results = run_good(faux_cmd("rejects_everything"))
    assert {r.outcome for r in results.values()} == {Outcome.FAILED}
    assert "rejected with INVALID_SETUP (I refuse)" in results["bidding"].detail.message


def test_a_command_that_does_not_exist_is_errored():
    results = run_good("cmd:/nonexistent/engine --flag")
    assert {r.outcome for r in results.values()} == {Outcome.ERRORED}
    assert "cannot start /nonexistent/engine" in results["bidding"].detail.message


@pytest.mark.parametrize("line,message", [
    ('{"seq": 99, "ok": true, "result": null}', "reply seq 99, expected 1"),
    ('{"seq": 1, "ok": true}', "does not follow protocol/response.json"),
    ('[1, 2]', "not an object with an integer seq"),
])
def test_envelope_violations(line, message):
    from conformance.adapters.process import ProcessAdapter, StderrTail
    from conformance.adapters.protocol import AdapterError

    adapter = ProcessAdapter.__new__(ProcessAdapter)
    adapter._seq, adapter._proc, adapter._stderr = 1, None, StderrTail(1000)
    with pytest.raises(AdapterError, match=message):
        adapter._reply("view", line.encode())


def test_a_result_nested_deeper_than_64_levels_is_a_protocol_error():
    from conformance.adapters.protocol import MAX_DEPTH, form_problem

    def nested(levels: int) -> dict:
        value: dict = {"tiles": ["0|0", 1]}  # 2 levels: an object holding a list
        for n in range(levels - 2):
            value = {"a": value, "b": 1} if n % 2 else {"c": [None], "d": value}
        return value

    assert MAX_DEPTH == 64
    assert form_problem("view", nested(64)) == ""
    assert form_problem("view", nested(65)) == "view: the result is nested deeper than 64 levels"
    assert form_problem("view", nested(10_000)).endswith("deeper than 64 levels")
