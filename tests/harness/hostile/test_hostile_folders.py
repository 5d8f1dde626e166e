"""Issue 27: folders are walked once. A diamond of links (no loop) of 22 levels has 2^22
paths to one file: `t42 run`, `t42 check` and pytest hung on it. A folder 1,100 levels
deep ended `t42 run` and `t42 check` with a RecursionError and no summary, and pytest's
collection grew with the cube of the depth. Each real folder is now walked once, and a
folder past MAX_DEPTH is one problem naming it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.corpus.scenario import MAX_DEPTH

from ..hostile.scenario_zoo import body

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="links: POSIX")
LEVELS = 22
DEEP = 1100
STRICT = "0 skipped, 0 not judged at level strict"


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def diamond(tmp_path_factory) -> Path:
    """scenarios/ -> level 0; level i holds links a and b to level i + 1."""
    top = tmp_path_factory.mktemp("diamond")
    levels = [top / "levels" / str(i) for i in range(LEVELS + 1)]
    for level in levels:
        level.mkdir(parents=True)
    for here, below in zip(levels, levels[1:], strict=False):
        for name in "ab":
            os.symlink(below, here / name)
    (levels[-1] / "bottom.yaml").write_text(body("bottom"))
    (top / "scenarios").symlink_to(levels[0])
    return top


@pytest.fixture(scope="module")
def deep(tmp_path_factory) -> Iterator[Path]:
    top = tmp_path_factory.mktemp("deep")
    folder = top / "scenarios"
    folder.mkdir()
    (folder / "top.yaml").write_text(body("top"))
    made = []
    for _ in range(DEEP):  # os.makedirs recurses once a level
        folder = folder / "d"
        folder.mkdir()
        made.append(folder)
    yield top
    for folder in reversed(made):  # shutil.rmtree, and so pytest's clean-up, recurses too
        folder.rmdir()


def test_a_diamond_of_links_is_walked_once(diamond):
    done = run("conformance.cli.main", "check", "scenarios", cwd=diamond)
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1].startswith("1 scenario file checked (1 valid)")
    done = run("conformance.cli.main", "run", "scenarios", cwd=diamond)
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1] == f"1 passed, 0 failed, 0 errored, {STRICT}"
    done = run("pytest", "-p", "no:cacheprovider", "-q", "scenarios", cwd=diamond)
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.strip().splitlines()[-1].startswith("1 passed")


def test_a_folder_too_deep_is_one_problem_naming_it(deep):
    refused = "/".join(["scenarios"] + ["d"] * (MAX_DEPTH + 1))
    problem = f"{refused}:1: a folder more than {MAX_DEPTH} levels deep: not walked " \
              "(the limit of a corpus)"
    done = run("conformance.cli.main", "check", "scenarios", cwd=deep)
    assert done.returncode == 1, done.stdout[-2000:]
    assert done.stdout.splitlines()[-2:] == [
        problem, done.stdout.splitlines()[-1]]
    assert done.stdout.splitlines()[-1].startswith("2 scenario files checked (1 valid)")
    done = run("conformance.cli.main", "run", "scenarios", cwd=deep)
    assert done.returncode == 1, done.stdout[-2000:]
    assert problem in done.stdout
    assert done.stdout.splitlines()[-1] == f"1 passed, 0 failed, 1 errored, {STRICT}"
    done = run("pytest", "-p", "no:cacheprovider", "-q", "scenarios", cwd=deep)
    assert done.returncode == 1, done.stdout[-2000:]
    assert problem in done.stdout
    assert done.stdout.strip().splitlines()[-1].startswith("1 failed, 1 passed")


def test_t42_check_of_a_folder_without_scenarios_is_a_problem(tmp_path):
    """A folder named x.yaml was "0 scenario files checked", status 0."""
    (tmp_path / "x.yaml").mkdir()
    done = run("conformance.cli.main", "check", "x.yaml", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-2] == "x.yaml: no scenario files (*.yaml) found"
    assert done.stdout.splitlines()[-1].startswith("0 scenario files checked (0 valid)")
