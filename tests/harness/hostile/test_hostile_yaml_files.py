"""Issue 40: one loader for every YAML file the harness reads, and no output written
through a link planted at a name the harness chose. `--expected-failures` was read with
`yaml.safe_load` (an alias bomb grew without bound, a FIFO hung); a page of the HTML
report was written through a symbolic link at its name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import GOOD, HERE

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")
ROOT = HERE.parents[1]
BOMB = "- &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"- &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
    f"*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]\n" for i in range(1, 9))


def t42(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli.main", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_no_other_yaml_loader_in_the_package():
    """Every YAML file goes through conformance/specdata/yamlload.py (its caps, its lines)."""
    package = ROOT / "conformance"
    loose = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(package.rglob("*.py"))
             if path.name != "yamlload.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\b(safe_load|yaml\.load|full_load|unsafe_load)\b", line)]
    assert loose == []


@pytest.mark.parametrize("kind,problem", [
    ("alias-bomb", ":5: more than 100,000 values once aliases are expanded"),
    ("fifo", ":1: refused: a FIFO"),
    ("invalid", ":3: invalid YAML"),
    ("entry", ":2: entry 1 must be {id: ..., reason: ...}"),
])
def test_an_expected_failures_file_is_read_as_a_scenario_file_is(kind, problem, tmp_path):
    listed = tmp_path / "xf.yaml"
    if kind == "alias-bomb":
        listed.write_text(BOMB)
    elif kind == "fifo":
        os.mkfifo(listed)
    elif kind == "invalid":
        listed.write_text("- id: a\n  reason: [unclosed\n")
    else:
        listed.write_text("- {id: a, reason: r}\n- 7\n")
    done = t42("run", "--expected-failures", listed, GOOD / "bidding.yaml")
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert f"xf.yaml{problem}" in done.stderr, done.stderr


def test_the_html_report_replaces_a_link_planted_at_a_page_name(tmp_path):
    out, target = tmp_path / "html", tmp_path / "precious.txt"
    (out / "scenarios").mkdir(parents=True)
    target.write_text("precious")
    for name in ("index.html", "scenarios/harness.bidding.html"):
        (out / name).symlink_to(target)
    done = t42("run", "--report-html", out, GOOD / "bidding.yaml")
    assert done.returncode == 0, done.stderr[-2000:]
    assert target.read_text() == "precious"
    for name in ("index.html", "scenarios/harness.bidding.html"):
        assert not (out / name).is_symlink() and "<html" in (out / name).read_text()
