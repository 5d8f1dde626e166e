"""Issue 40: fuzz's saved cases read and written with the corpus's defences. `--known`
(and pytest's `--t42-fuzz-known`) reads through the corpus loader: regular files of a
bounded size, the safe YAML loader with its alias and depth caps, each problem as
`FILE:LINE: what`, status 2 and a summary line, never a traceback or a hang. `--save`
is tried before the campaign and never writes through a link planted at a case's name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.fuzz import save

from ..conftest import HERE

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")
ROOT = HERE.parents[1]
TWO = "python:tests/harness/fauxmplementations/two_causes.py:TwoCauses"
NO_GAME = "0 agreed, 0 diverged, 0 errored (no game played: "
# an alias bomb in a description: nine levels of ten, a billion strings once expanded
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
    f"*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]\n" for i in range(1, 9)) + \
    "description: *a8\nrules: [RANK-03]\n"


def fuzz(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli.main", "fuzz", "--adapter",
                           TWO, *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


def known_file(tmp_path: Path, kind: str) -> tuple[Path, str]:
    """A --known file of `kind`, and the problem reported for it."""
    path = tmp_path / "known" / "case.yaml"
    path.parent.mkdir()
    if kind == "invalid-yaml":
        path.write_text("rules: [RANK-03\ndescription: x\n")
        return path, "case.yaml:2: invalid YAML"
    if kind == "alias-bomb":
        path.write_text(BOMB)
        return path, "case.yaml:5: more than 100,000 values once aliases are expanded"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "case.yaml:1: refused: a FIFO, not a scenario file"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
        return path, "case.yaml:1: refused: a character device, not a scenario file"
    if kind == "not-a-case":
        path.write_text("- RANK-03\n")
        return path, "case.yaml:1: not a saved case"
    if kind == "too-large":
        path.write_text("description: x\n" + "#" * (2 << 20))
        return path, "case.yaml:1: refused: more than 1,048,576 bytes"
    raise AssertionError(kind)


KINDS = ["invalid-yaml", "alias-bomb", "fifo", "dev-zero", "not-a-case", "too-large"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("named", ["file", "folder"])
def test_a_known_file_the_corpus_would_refuse_is_a_problem_with_its_line(kind, named,
                                                                         tmp_path):
    """Invalid YAML was a traceback; an alias bomb grew past 267 MB; a FIFO hung and a
    link to /dev/zero read without end. Each is now one line, before any game."""
    path, problem = known_file(tmp_path, kind)
    done = fuzz("--games", "1", "--known", path if named == "file" else path.parent,
                timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert problem in done.stderr, done.stderr
    assert done.stdout.splitlines()[-1].startswith(NO_GAME), done.stdout


def test_known_causes_reads_good_cases_and_text_lists(tmp_path):
    (tmp_path / "a.yaml").write_text("description: |\n  Cause: RANK-03: view.tricks.winner "
                                     "differs after a play\nrules: [RANK-03]\n")
    (tmp_path / "b.yaml").write_text("description: a case\nrules: [PLAY-05, SUIT-01]\n")
    (tmp_path / "list.txt").write_text("SUIT-02  # a comment\nBID-01: what\n")
    assert save.known_causes(tmp_path) == {("RANK-03", "view.tricks.winner differs after a "
                                            "play"), ("PLAY-05", "")}
    assert save.known_causes(tmp_path / "list.txt") == {("SUIT-02", ""), ("BID-01", "what")}


def test_pytest_fuzz_known_stops_the_session_with_the_problem(tmp_path):
    path, problem = known_file(tmp_path, "alias-bomb")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--t42-fuzz", "2",
         "--t42-adapter", TWO, "--t42-fuzz-known", str(path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 4, done.stdout[-2000:] + done.stderr[-2000:]
    assert problem in done.stderr, done.stderr[-2000:]


def test_save_is_tried_before_the_campaign(tmp_path):
    (tmp_path / "file").write_text("")
    done = fuzz("--games", "1", "--save", tmp_path / "file" / "out", timeout=60)
    assert done.returncode == 2
    assert "--save: cannot write" in done.stderr and "Not a directory" in done.stderr
    assert done.stdout.splitlines()[-1].startswith(NO_GAME), done.stdout


def test_pytest_fuzz_save_is_tried_before_the_campaign(tmp_path):
    (tmp_path / "file").write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--t42-fuzz", "2",
         "--t42-adapter", TWO, "--t42-fuzz-save", str(tmp_path / "file" / "out")],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 4, done.stdout[-2000:] + done.stderr[-2000:]
    assert "--t42-fuzz-save: cannot write" in done.stderr


def test_save_replaces_a_link_planted_at_a_cases_name_and_leaves_its_target(tmp_path):
    """The saved case was written through a symbolic link at its file name: whatever
    the link pointed to was overwritten."""
    saved, target = tmp_path / "found", tmp_path / "precious.txt"
    saved.mkdir()
    target.write_text("precious")
    causes = [("RANK-03", "view.tricks.winner differs after a play"),
              ("observation.md", "observe.points: must be null under a marks contract "
                                 "during the round")]
    links = [saved / f"{save.save_stem(f'{rule} {what}')}.yaml" for rule, what in causes]
    for link in links:
        link.symlink_to(target)
    done = fuzz("--games", "10", "--save", saved, timeout=300)  # both causes by game 8
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert target.read_text() == "precious"
    written = [link for link in links if not link.is_symlink()]
    assert written, done.stdout
    assert all(link.read_text().startswith("# yaml-language-server") for link in written)
