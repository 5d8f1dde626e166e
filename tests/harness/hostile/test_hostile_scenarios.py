"""The hostile scenario zoo (hostile/scenario_zoo.py): each file gets exactly its report,
none stalls or ends `t42 run`, `t42 check` or pytest collection, and the good files
beside them still pass."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conformance.corpus.scenario import load_corpus

from ..hostile.scenario_zoo import BAD, CASES, GOOD, materialize

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and links: POSIX")


@pytest.fixture(scope="module")
def zoo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("zoo") / "scenarios"
    materialize(folder)
    return folder


@pytest.fixture(scope="module")
def loaded(zoo):
    return {item.path.name: item for item in load_corpus([zoo])}


def test_the_zoo_is_big_enough():
    assert len(BAD) >= 40 and len(GOOD) >= 5
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_each_file_gets_its_exact_report(zoo, loaded, case):
    item = loaded[case.name]
    found = [(p.line, p.field, p.message.replace(str(zoo), "{dir}")) for p in item.problems]
    assert found == case.problems
    assert (item.scenario is None) == bool(case.problems)


def test_t42_run_and_check_end_with_their_summary_lines(zoo, t42):
    code, out = t42("run", zoo)
    assert code == 1
    assert out.splitlines()[-1] == (f"{len(GOOD) + 1} passed, 0 failed, {len(BAD) - 1} "
                                    "errored, 0 skipped, 0 not judged at level strict")
    code, out = t42("check", zoo)
    assert code == 1
    assert out.splitlines()[-1].startswith(f"{len(CASES)} scenario files checked "
                                           f"({len(GOOD) + 1} valid)")


def test_pytest_collects_every_file_once_and_finishes(zoo):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           str(zoo)], capture_output=True, text=True, timeout=120,
                          cwd=zoo.parent)
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith(f"{len(BAD) - 1} failed, {len(GOOD) + 1} passed"), done.stdout[-2000:]
    assert "dup-id-second.yaml:2: id: id hostile.dup-id already used by" in done.stdout
    assert "self-link:1: a link to an enclosing directory" in done.stdout
