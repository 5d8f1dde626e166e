"""Every development tool of tools/ answers `--help` (ARCHITECTURE: "each with --help"),
and the README and docs/commands.md name no tool that does not exist: a renamed or
broken tool fails here, not in the hands of whoever needs it next."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# the README and the page of claims it sends readers to (each claim's tool)
README = "\n".join((ROOT / page).read_text(encoding="utf-8")
                   for page in ("README.md", "docs/commands.md"))
NAMED = sorted(set(re.findall(r"python (tools/\w+\.py)", README)))
HELPERS = {"tools/__init__.py"}  # imported by the others, not run


def test_the_readme_names_tools_that_exist():
    assert NAMED, "the README names no tool"
    assert [tool for tool in NAMED if not (ROOT / tool).is_file()] == []


@pytest.mark.parametrize("tool", sorted({p.relative_to(ROOT).as_posix()
                                         for p in (ROOT / "tools").glob("*.py")} - HELPERS))
def test_each_tool_answers_help(tool):
    done = subprocess.run([sys.executable, tool, "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:"), done.stdout[:200]
