"""Issue 27: text from an adapter or a scenario file reaches the terminal with its control
characters escaped, in every command and in pytest's output. An adapter's name, version,
error codes, messages and stderr, and a scenario's title, could clear the screen, set the
window title and hide the summary line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.report.safe import safe

from ..conftest import GOOD, HERE
from ..hostile.scenario_zoo import body

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")
ZOO = HERE / "hostile" / "protocol_zoo.py"
ROOT = HERE.parents[1]
SHOWN = "\\x1b[2J\\x1b]0;pwned\\x07\\x1b[8m"  # protocol_zoo.ESCAPES, escaped


def run(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=300,
                          env={**os.environ, "T42_HOSTILE_ONCE": ""})


def raw_controls(text: str) -> list[str]:
    return sorted({c for c in text if c != safe(c)})


def test_safe_escapes_controls_and_keeps_lines():
    assert safe("a\x1b[2Jb\x07\r\x00\x9b\u202e\tc\nd") == \
        "a\\x1b[2Jb\\x07\\x0d\\x00\\x9b\\u202e\tc\nd"


def test_an_adapters_name_version_codes_messages_and_stderr_are_escaped(tmp_path):
    done = run("conformance.cli.main", "run", "--adapter",
               f"cmd:{sys.executable} {ZOO} refuse-escapes", GOOD / "bidding.yaml")
    assert done.returncode == 1
    assert raw_controls(done.stdout + done.stderr) == []
    assert f"rejected with X{SHOWN} (no{SHOWN})" in done.stdout
    assert f"  | log{SHOWN}" in done.stdout  # its stderr
    assert done.stdout.splitlines()[-1] == \
        "0 passed, 1 failed, 0 errored, 0 skipped, 0 not judged at level strict"
    done = run("conformance.cli.main", "run", "--adapter",
               f"cmd:{sys.executable} {ZOO} hello-escapes", GOOD / "bidding.yaml")
    assert raw_controls(done.stdout + done.stderr) == []
    assert f"scenarios against evil{SHOWN} {SHOWN} at level strict" in done.stdout


def test_a_scenario_title_is_escaped_in_t42_and_pytest(tmp_path):
    (tmp_path / "scenarios").mkdir()
    text = body("title", title='"T\\e[2J\\e]0;pwned\\a"')
    (tmp_path / "scenarios" / "title.yaml").write_text(text)
    adapter = f"cmd:{sys.executable} {ZOO} refuse-escapes"
    done = run("conformance.cli.main", "run", "--adapter", adapter, "scenarios", cwd=tmp_path)
    assert done.returncode == 1
    assert raw_controls(done.stdout + done.stderr) == []
    assert "T\\x1b[2J\\x1b]0;pwned\\x07" in done.stdout
    done = run("conformance.cli.main", "list", "scenarios", cwd=tmp_path)
    assert raw_controls(done.stdout + done.stderr) == []
    done = run("pytest", "-p", "no:cacheprovider", "-q", "--t42-adapter", adapter,
               "scenarios", cwd=tmp_path)
    assert done.returncode == 1
    assert raw_controls(done.stdout + done.stderr) == []
    assert "T\\x1b[2J\\x1b]0;pwned\\x07" in done.stdout
    assert f"(no{SHOWN})" in done.stdout
