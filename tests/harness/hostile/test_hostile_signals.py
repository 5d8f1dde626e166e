"""Issue 40: SIGTERM and SIGHUP end `t42 run`, `doctor` and `fuzz` as Ctrl-C does. Their
default action ended the harness without its `finally`: the adapter, in a session of
its own, was re-parented to init and kept running. Now the adapter's tree is ended, `run`
prints its summary, and the status is 128 + the signal's number."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.harness.hostile.run import left_behind

from ..conftest import GOOD, HERE

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
ROOT = HERE.parents[1]
# answers hello, then sleeps 60 s at the first view: the harness waits on it
SLOW = f"cmd:{sys.executable} {HERE / 'hostile' / 'protocol_zoo.py'} sleep"
COMMANDS = {
    "run": ["run", "--adapter", SLOW, "--timeout", "60", str(GOOD / "bidding.yaml")],
    "doctor": ["doctor", "--adapter", SLOW, "--timeout", "60"],
    "fuzz": ["fuzz", "--adapter", SLOW, "--timeout", "60", "--games", "2"],
}


def _default_signals() -> None:
    for each in (signal.SIGTERM, signal.SIGHUP):  # as a shell starts a command
        signal.signal(each, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_signal_ends_the_adapter_with_the_harness(command, sig, tmp_path):
    flags = tmp_path / "flags"
    flags.mkdir()
    harness = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli.main", *COMMANDS[command]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        preexec_fn=_default_signals, env={**os.environ, "T42_HOSTILE_ONCE": str(flags)})
    try:
        deadline = time.monotonic() + 60
        while not (flags / "sleep").exists():  # the adapter sleeps over its first view
            assert time.monotonic() < deadline and harness.poll() is None, \
                harness.communicate()
            time.sleep(0.1)
        assert left_behind(flags)
        harness.send_signal(sig)
        out, err = harness.communicate(timeout=60)
    finally:
        harness.kill()
    assert harness.returncode == 128 + sig, (out[-2000:], err[-2000:])
    assert left_behind(flags) == 0, (out[-2000:], err[-2000:])
    if command == "run":
        lines = out.splitlines()
        assert lines[-2].startswith(f"interrupted ({signal.Signals(sig).name}) after 0 of 1")
        assert lines[-1] == ("0 passed, 0 failed, 0 errored, 0 skipped, 0 not judged at "
                             "level strict")
    elif command == "fuzz":
        assert out.splitlines()[-1].startswith(f"interrupted ({signal.Signals(sig).name}) "
                                               "after 0 of 2 games: 0 agreed, 0 diverged")
    else:
        assert f"t42: stopped by {signal.Signals(sig).name}" in err


@pytest.mark.parametrize("to", ["controller", "group"])
def test_sigterm_to_pytest_under_xdist_leaves_no_adapter(to, tmp_path):
    """Each worker runs its own adapter in a session of its own. A SIGTERM to the
    controller (kill) or to its process group (timeout, a CI cancel) killed the workers
    without their cleanup: their adapters outlived the run."""
    flags, root = tmp_path / "flags", tmp_path / "scenarios"
    flags.mkdir()
    root.mkdir()
    schema = ROOT / "spec" / "schemas" / "scenario.schema.json"
    for source in GOOD.glob("*.yaml"):
        lines = source.read_text().splitlines(keepends=True)
        lines[0] = f"# yaml-language-server: $schema={schema}\n"
        (root / source.name).write_text("".join(lines))
    harness = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "-q",
         "--t42-adapter", SLOW, "--t42-timeout", "60", str(root)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
        start_new_session=True, preexec_fn=_default_signals,
        env={**os.environ, "T42_HOSTILE_ONCE": str(flags), "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 120
        while not (flags / "sleep").exists():  # an adapter sleeps over its first view
            assert time.monotonic() < deadline and harness.poll() is None, \
                harness.communicate()
            time.sleep(0.1)
        time.sleep(0.5)
        if to == "group":
            os.killpg(harness.pid, signal.SIGTERM)
        else:
            harness.send_signal(signal.SIGTERM)
        out, _ = harness.communicate(timeout=120)
    finally:
        try:
            os.killpg(harness.pid, signal.SIGKILL)
        except OSError:
            pass
    assert harness.returncode not in (0, -signal.SIGTERM), out[-2000:]
    assert left_behind(flags) == 0, out[-2000:]


def test_a_signal_while_the_adapter_is_told_to_stop_still_ends_it(tmp_path):
    """SIGTERM as the run closes its adapter (waiting on the answer to `stop`) skipped
    the kill that follows: the adapter outlived the harness."""
    flags = tmp_path / "flags"
    flags.mkdir()
    adapter = f"cmd:{sys.executable} {HERE / 'hostile' / 'protocol_zoo.py'} slow-stop"
    harness = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli.main", "run", "--adapter", adapter,
         "--timeout", "60", str(GOOD / "bidding.yaml")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        preexec_fn=_default_signals, env={**os.environ, "T42_HOSTILE_ONCE": str(flags)})
    try:
        deadline = time.monotonic() + 60
        while not (flags / "slow-stop").exists():  # the adapter sleeps over `stop`
            assert time.monotonic() < deadline and harness.poll() is None, \
                harness.communicate()
            time.sleep(0.1)
        harness.send_signal(signal.SIGTERM)
        out, err = harness.communicate(timeout=60)
    finally:
        harness.kill()
    assert harness.returncode == 128 + signal.SIGTERM, (out[-2000:], err[-2000:])
    assert left_behind(flags) == 0, (out[-2000:], err[-2000:])
    lines = out.splitlines()
    assert lines[-2] == "interrupted (SIGTERM) after 1 of 1 scenarios"
    assert lines[-1].startswith("1 passed, 0 failed, 0 errored")
