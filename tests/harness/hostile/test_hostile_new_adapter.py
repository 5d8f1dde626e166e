"""Issue 40: `t42 new-adapter` at a place it cannot write says so in one line (status 2),
not a traceback, and echoes the destination with its control characters escaped."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli.main import main as t42

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")


def run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(t42, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("place", ["under-a-file", "dangling-link"])
def test_a_place_that_cannot_be_written_is_one_line_and_status_2(place, tmp_path):
    (tmp_path / "file").write_text("")
    dest = tmp_path / "file" / "my42"
    if place == "dangling-link":
        dest = tmp_path / "link"
        dest.symlink_to(tmp_path / "nowhere")
    code, out = run("new-adapter", "go", dest)
    assert code == 2, out
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"t42 new-adapter: cannot write {dest}: ")
    assert "Traceback" not in out


def test_the_destination_is_echoed_with_its_escapes_escaped(tmp_path):
    dest = tmp_path / "my42\x1b]0;pwned\x07"
    code, out = run("new-adapter", "go", dest)
    assert code == 0, out
    assert "\x1b" not in out and "\x07" not in out
    assert "wrote " in out
    (tmp_path / "used\x1b[2J").mkdir()
    (tmp_path / "used\x1b[2J" / "x").write_text("")
    code, out = run("new-adapter", "go", tmp_path / "used\x1b[2J")
    assert code == 1 and "\x1b" not in out and "not an empty folder" in out
