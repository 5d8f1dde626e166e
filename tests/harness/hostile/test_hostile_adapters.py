"""The hostile adapter zoo (hostile/protocol_zoo.py, hostile/adapter_zoo.py): each breaks
once, gets exactly its report, and the run goes on with a fresh process that passes."""
# ruff: noqa: E501 - each expected report reads best whole, on its line

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from conformance.adapters.limits import Limits
from conformance.adapters.loading import load_adapter
from conformance.corpus.scenario import load_scenario
from conformance.run.results import Outcome
from conformance.run.runner import run_all
from tests.harness.hostile.run import leftovers

from ..conftest import GOOD, HERE

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")
ZOO = HERE / "hostile"
TIMEOUT = 3.0


def protocol(mode: str) -> str:
    return f"cmd:{sys.executable} {ZOO / 'protocol_zoo.py'} {mode}"


def python(name: str) -> str:
    return f"python:{ZOO / 'adapter_zoo.py'}:{name}"


LIMIT = f"{1 << 20:,}"
# (adapter, outcome of the first scenario, its exact message). A report holds nothing that
# varies by Python version or run (the harness words json's and Python's errors itself,
# protocol.py); the one path in it, of the zoo's missing file, is this checkout's.
CASES = [
    (protocol("no-newline"), "errored", f"view: reply longer than {LIMIT} bytes (--max-reply-bytes)"),
    (protocol("endless-line"), "errored", f"view: reply longer than {LIMIT} bytes (--max-reply-bytes)"),
    (protocol("not-utf8"), "errored", "view: reply is not UTF-8 (byte 0xff at offset 29): b'{\"seq\":5,\"ok\":true,\"result\":\"\\xff\\xfe\"}\\n'"),
    (protocol("nan"), "errored", "view: reply is not JSON: '{\"seq\":5,\"ok\":true,\"result\":NaN}' (NaN is not JSON)"),
    (protocol("infinity"), "errored", "view: reply is not JSON: '{\"seq\":5,\"ok\":true,\"result\":{\"round\": -Infinity}}' (-Infinity is not JSON)"),
    (protocol("huge-int"), "errored", "view: reply is not JSON: '{\"seq\":5,\"ok\":true,\"result\":" + "1" * 172 + "' (an integer of more than 4300 digits)"),
    (protocol("deep"), "errored", "view: reply is nested too deep to read"),
    (protocol("deep-65"), "errored", "view: the result is a list, not an object (protocol.md)"),
    (protocol("list-view"), "errored", "view: the result is a list, not an object (protocol.md)"),
    (protocol("null-view"), "errored", "view: the result is null, not an object (protocol.md)"),
    (protocol("string-view"), "errored", "view: the result is a string, not an object (protocol.md)"),
    (protocol("extra-field"), "errored", "view: reply does not follow protocol/response.json: '{\"seq\":5,\"ok\":true,\"result\":{},\"note\":1}'"),
    (protocol("wrong-seq"), "errored", "view: reply seq 12, expected 5"),
    (protocol("no-seq"), "errored", "view: reply is not an object with an integer seq: '{\"ok\":true,\"result\":{}}'"),
    (protocol("refuses-view"), "errored", "view: the implementation replied with error WRONG_PHASE: no"),
    (protocol("spam"), "errored", "view: the result is null, not an object (protocol.md)"),
    (protocol("exit-7"), "errored", "view: the implementation exited (code 7) without replying"),
    (protocol("close-stdout"), "errored", "view: the implementation closed its stdout"),
    (protocol("sleep"), "errored", f"view: no reply within {TIMEOUT:g} s"),
    (protocol("grandchild"), "errored", "view: the implementation exited (code 0) without replying, and a process it started kept its stdout open"),
    (protocol("detached-grandchild"), "errored", "view: the implementation exited (code 0) without replying, and a process it started kept its stdout open"),
    (protocol("daemon"), "passed", ""),
    (protocol("daemon-no-env"), "passed", ""),  # its own session, no environment, orphaned
    (protocol("stderr-100mb-line"), "passed", ""),
    (protocol("stderr-many-lines"), "passed", ""),
    (python("HardExit"), "errored", "act: the implementation exited (code 0) without replying"),
    (python("SysExit"), "errored", "act raised SystemExit: 3"),
    (python("Recursion"), "errored", "act raised RecursionError: maximum recursion depth exceeded"),
    (python("Segfault"), "errored", "act: the implementation exited (code -11) without replying"),
    (python("Hangs"), "errored", f"act: no reply within {TIMEOUT:g} s"),
    # each beats --in-process's watchdog (documented as trusting); a worker is killed
    (python("CatchesEverything"), "errored", f"act: no reply within {TIMEOUT:g} s"),
    (python("IgnoresAlarm"), "errored", f"act: no reply within {TIMEOUT:g} s"),
    (python("DetachedGrandchild"), "errored", "act: the implementation exited (code 0) without replying, and a process it started kept its stdout open"),
    (python("MemoryHog"), "errored", "act raised MemoryError"),
    (python("PrintsToStdout"), "passed", ""),
    (python("DaemonWithoutTrace"), "passed", ""),
    (python("HugeView"), "errored", f"view: reply longer than {LIMIT} bytes (--max-reply-bytes)"),
    (python("DeepView"), "errored", "view returned a value that is not JSON: it is nested deeper than 64 levels"),
    (python("NanView"), "errored", "view returned a value that is not JSON: round is NaN"),
    (python("SetView"), "errored", "view returned a value that is not JSON: phase is a Python set"),
    (python("ListView"), "errored", "view: the result is a list, not an object (protocol.md)"),
    (python("RaisesOnView"), "errored", "view raised KeyError: 'hands'"),
]
PERFT_SHAPE = "perft: the result does not follow protocol/perft-result.json"
PERFT_CASES = [  # a perft reply of the wrong shape is a protocol error (errored), not failed
    (protocol("perft-string-total"), f"{PERFT_SHAPE} at total: '25' is not of type 'integer' (protocol.md)"),
    (protocol("perft-no-divide"), f"{PERFT_SHAPE}: 'divide' is a required property (protocol.md)"),
    (protocol("perft-negative"), f"{PERFT_SHAPE} at divide.pass: -1 is less than the minimum of 0 (protocol.md)"),
    (protocol("perft-list"), "perft: the result is a list, not an object (protocol.md)"),
    (python("PerftStringTotal"), f"{PERFT_SHAPE} at total: '25' is not of type 'integer' (protocol.md)"),
]
BROKEN = [  # unusable from the start: every scenario errored with the reason
    (python("NotAnAdapter"), "the implementation is unusable: NotAnAdapter is not an adapter (protocol.md, In process): it lacks start, deal, act, view, observe, name (a string), version (a string), variants (a list), capabilities (a list)"),
    (python("HalfAnAdapter"), "the implementation is unusable: HalfAnAdapter is not an adapter (protocol.md, In process): it lacks deal, act, view, observe"),
    (python("FailsToConstruct"), "the implementation is unusable: cannot load " + python("FailsToConstruct") + ": RuntimeError: no engine today"),
    (python("factory_returns_none"), "the implementation is unusable: NoneType is not an adapter (protocol.md, In process): it lacks start, deal, act, view, observe, name (a string), version (a string), variants (a list), capabilities (a list)"),
    (f"python:{ZOO / 'nowhere.py'}:X", f"the implementation is unusable: cannot load python:{ZOO}/nowhere.py:X: FileNotFoundError: [Errno 2] No such file or directory: '{ZOO}/nowhere.py'"),
    (f"cmd:{sys.executable} -c pass", "the implementation is unusable: hello: the implementation exited (code 0) without replying"),
    ("cmd:/nonexistent/engine", "the implementation is unusable: cannot start /nonexistent/engine: [Errno 2] No such file or directory: '/nonexistent/engine'"),
]
SCENARIOS = ["bidding", "first-trick"]


def _run(spec: str, tmp_path, scenarios: list[str] = SCENARIOS):
    loaded = [load_scenario(GOOD / f"{name}.yaml") for name in scenarios]
    adapter = load_adapter(spec, timeout=TIMEOUT, limits=Limits(stderr_bytes=32 << 10))
    try:
        return run_all(loaded, adapter), adapter
    finally:
        adapter.close()


@pytest.fixture(autouse=True)
def once(tmp_path, monkeypatch):
    monkeypatch.setenv("T42_HOSTILE_ONCE", str(tmp_path))


def test_the_zoo_is_big_enough():
    assert len(CASES) + len(PERFT_CASES) + len(BROKEN) >= 20


def _id(spec: str) -> str:
    return spec.split()[-1] if spec.startswith("cmd:") else spec.rsplit(":", 1)[-1]


@pytest.mark.parametrize("spec,outcome,message", CASES, ids=[_id(c[0]) for c in CASES])
def test_each_breaks_once_gets_its_report_and_the_run_goes_on(spec, outcome, message,
                                                               tmp_path):
    (first, second), adapter = _run(spec, tmp_path)
    assert leftovers(tmp_path) == []  # no process of the adapter's tree outlives it
    assert first.outcome.value == outcome, first.report()
    if outcome == "errored":
        assert first.detail.message == message
    assert second.outcome is Outcome.PASSED, second.report()  # a fresh process
    assert len(adapter.stderr_since(0)) <= 33 << 10  # what is kept stays bounded


@pytest.mark.parametrize("spec,message", PERFT_CASES, ids=[_id(c[0]) for c in PERFT_CASES])
def test_a_perft_reply_of_the_wrong_shape_is_errored_and_the_process_restarted(spec, message,
                                                                               tmp_path):
    (first, second), _ = _run(spec, tmp_path, ["perft", "perft"])
    assert first.outcome is Outcome.ERRORED, first.report()
    assert first.detail.message == message
    assert second.outcome is Outcome.PASSED, second.report()  # a fresh process


def test_a_perft_reply_of_the_wrong_shape_in_process_is_errored():
    import importlib.util

    from conformance.adapters.inprocess import InProcess

    spec = importlib.util.spec_from_file_location("adapter_zoo", ZOO / "adapter_zoo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = run_all([load_scenario(GOOD / "perft.yaml")] * 2,
                      InProcess(module.PerftStringTotal()))
    assert [r.outcome for r in results] == [Outcome.ERRORED, Outcome.PASSED]
    assert results[0].detail.message == PERFT_CASES[-1][1]


@pytest.mark.parametrize("spec,message", BROKEN, ids=[_id(c[0]) for c in BROKEN])
def test_an_unusable_adapter_errors_every_scenario_with_the_reason(spec, message, tmp_path):
    results, _ = _run(spec, tmp_path)
    for result in results:
        assert result.outcome is Outcome.ERRORED
        assert result.detail.message == message


def _default_sigint() -> None:
    # A process started with SIGINT ignored (as a test worker may be) passes that on, and
    # Python then installs no KeyboardInterrupt handler: give the child the default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _t42(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "conformance.cli.main", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint, **kwargs)


@pytest.mark.parametrize("name", ["HardExit", "SysExit", "Segfault", "HugeView"])
def test_t42_run_ends_with_its_summary_and_a_failing_status(name, tmp_path):
    """The probe's worst case: os._exit(0) in an adapter ended the run with status 0 and
    no summary line, which CI reads as a pass."""
    run = _t42("run", "--adapter", python(name), str(GOOD / "bidding.yaml"),
               str(GOOD / "first-trick.yaml"), env={**os.environ, "T42_HOSTILE_ONCE": ""})
    out, _ = run.communicate(timeout=120)
    assert run.returncode == 1
    assert out.splitlines()[-1] == "0 passed, 0 failed, 2 errored, 0 skipped, 0 not judged at level strict", out[-2000:]


def test_ctrl_c_stops_the_run_and_prints_a_summary(tmp_path):
    run = _t42("run", "--adapter", python("Hangs"), "--timeout", "60", str(GOOD),
               env={**os.environ, "T42_HOSTILE_ONCE": ""})
    header = ""
    while " scenarios against " not in header:  # printed once the worker answered hello
        header = run.stdout.readline()
        assert header, "t42 run ended before its header"
    time.sleep(1)  # in its first act, which hangs
    run.send_signal(signal.SIGINT)
    out, _ = run.communicate(timeout=120)
    assert run.returncode == 130
    lines = out.splitlines()
    assert lines[-2].startswith("interrupted (Ctrl-C) after 0 of ")
    assert lines[-1] == "0 passed, 0 failed, 0 errored, 0 skipped, 0 not judged at level strict"


@pytest.mark.parametrize("target,why", [
    ("{tmp}/raises_on_import.py:Adapter", "ImportError: no engine here"),
    ("{tmp}/nowhere.py:Adapter", "FileNotFoundError: [Errno 2] No such file or directory: "
                                 "'{tmp}/nowhere.py'"),
    ("{zoo}/adapter_zoo.py:FailsToConstruct", "RuntimeError: no engine today"),
])
def test_in_process_a_failed_import_ends_with_the_summary_and_a_failing_status(target, why,
                                                                              tmp_path):
    """--in-process loads the object in the harness: when that raises, the run still ends
    with its summary line (every scenario errored) and a non-zero status."""
    (tmp_path / "raises_on_import.py").write_text('raise ImportError("no engine here")\n')
    spec = "python:" + target.format(tmp=tmp_path, zoo=ZOO)
    run = _t42("run", "--in-process", "--adapter", spec, str(GOOD / "bidding.yaml"),
               str(GOOD / "first-trick.yaml"), env={**os.environ, "T42_HOSTILE_ONCE": ""})
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2
    assert out.splitlines()[-1] == "0 passed, 0 failed, 2 errored, 0 skipped, 0 not judged at level strict", out
    assert f"cannot start adapter {spec!r}: {why.format(tmp=tmp_path)}" in out + err


@pytest.mark.parametrize("name,how", [
    ("CrashesInReplay", "setup: the implementation exited (code 3) without replying"),
    ("HangsInReplay", f"setup: no reply within {TIMEOUT:g} s"),
])
def test_a_failure_found_stays_one_when_the_engine_breaks_in_the_replay(name, how):
    """The diagnosis replays the engine from its setup to find the cause; an engine that
    broke only then turned the judged FAILED into ERRORED, the rule failure dropped."""
    adapter = load_adapter(python(name), TIMEOUT)
    try:
        loaded = load_scenario(HERE.parents[1] / "scenarios" / "ranking" /
                               "number-trump-double-highest.yaml")
        result = run_all([loaded], adapter, level="rules")[0]
    finally:
        adapter.close()
    assert result.outcome is Outcome.FAILED, result.report()
    assert result.detail.differences  # the failure as found: view.tricks[0].winner
    assert any("failed during the diagnosis's replay" in line and how in line
               for line in result.detail.context), result.detail.context
    assert result.stopped.endswith("the engine failed during the diagnosis's replay")
