"""Issue 27: reports that cannot be drawn or written never cost the summary. An output
that cannot be written is found before the run (status 2); one that fails after it is an
error (status 2) with the summary line still last; a view of the wrong shape is a note
in the HTML report, not a lost report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import GOOD, HERE
from ..hostile.scenario_zoo import body

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")
ZOO = HERE / "hostile" / "protocol_zoo.py"
ROOT = HERE.parents[1]
FAILED_ONE = "0 passed, 1 failed, 0 errored, 0 skipped, 0 not judged at level strict"
PASSED_ONE = "1 passed, 0 failed, 0 errored, 0 skipped, 0 not judged at level strict"


def t42(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli.main", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=300,
                          env={**os.environ, "T42_HOSTILE_ONCE": ""})


@pytest.mark.parametrize("option,why", [
    (["--report-json", "{tmp}/missing/report.json"], "No such file or directory"),
    (["--report-html", "{tmp}/file/out"], "Not a directory"),
    (["--expected-failures", "{tmp}/missing/xf.yaml", "--update-expected-failures"],
     "No such file or directory"),
])
def test_an_output_that_cannot_be_written_stops_the_run_before_it_starts(option, why,
                                                                         tmp_path):
    (tmp_path / "file").write_text("")
    args = [part.format(tmp=tmp_path) for part in option]
    done = t42("run", *args, GOOD / "bidding.yaml")
    assert done.returncode == 2
    name = args[0] if args[0] != "--expected-failures" else "--update-expected-failures"
    assert done.stderr.splitlines()[-1] == f"t42: {name}: cannot write {args[1]}: {why}"
    assert " scenarios against " not in done.stdout  # nothing ran


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_report_that_fails_after_the_run_is_an_error_and_the_summary_stays_last():
    """/dev/full opens, and every write to it fails: the run goes ahead, the report fails."""
    done = t42("run", "--report-json", "/dev/full", GOOD / "bidding.yaml")
    assert done.returncode == 2
    assert done.stdout.splitlines()[-1] == PASSED_ONE
    assert "t42: the JSON report could not be written to /dev/full: No space left on " \
           "device" in done.stderr


def test_a_view_of_the_wrong_shape_is_a_note_in_the_html_report(tmp_path):
    """It broke the whole report: no report written by t42 run, and a traceback with no
    summary line under pytest --t42-report-html."""
    adapter = f"cmd:{sys.executable} {ZOO} view-wrong-shape"
    note = "the implementation&#39;s view could not be drawn (AttributeError: &#39;int&#39; " \
           "object has no attribute &#39;get&#39;); see the failure above"
    done = t42("run", "--adapter", adapter, "--report-html", tmp_path / "run",
               GOOD / "bidding.yaml")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == FAILED_ONE
    assert note in (tmp_path / "run" / "scenarios" / "harness.bidding.html").read_text()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "wrong.yaml").write_text(body("wrong"))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--t42-adapter",
         adapter, "--t42-report-html", tmp_path / "pytest", "scenarios"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "T42_HOSTILE_ONCE": ""})
    assert done.returncode == 1, done.stdout[-3000:]
    lines = done.stdout.strip().splitlines()
    assert f"t42: wrote the HTML report {tmp_path / 'pytest' / 'index.html'}" in done.stdout
    assert lines[-1].startswith("1 failed")
    assert note in (tmp_path / "pytest" / "scenarios" / "hostile.wrong.html").read_text()


def test_a_view_too_large_is_not_kept_for_the_html_report(tmp_path):
    """A 1 MB wrong view was kept whole for the picture (624 MB for a run, and pages to
    match)."""
    done = t42("run", "--adapter", f"cmd:{sys.executable} {ZOO} view-1mb-wrong",
               "--report-html", tmp_path, GOOD / "bidding.yaml")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == FAILED_ONE
    page = (tmp_path / "scenarios" / "harness.bidding.html").read_text()
    assert "the implementation&#39;s view is 1,00" in page
    assert "characters of JSON, more than 65,536: not kept for drawing" in page
    assert len(page) < 500_000


def test_the_html_report_shows_the_scenario_as_it_ran_not_as_rewritten_after(tmp_path):
    """The report read the files again after the run: a file rewritten meanwhile showed
    content that never ran, marked passed."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(body("s"))
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli.main", "run", "--adapter",
         f"cmd:{sys.executable} {ZOO} rewrites-scenario", "--report-html", tmp_path / "html",
         scenario], capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "T42_HOSTILE_ONCE": "", "T42_HOSTILE_REWRITE": str(scenario)})
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1] == PASSED_ONE
    assert "title: REWRITTEN" in scenario.read_text()  # the adapter did rewrite it
    page = (tmp_path / "html" / "scenarios" / "hostile.s.html").read_text()
    assert "REWRITTEN" not in page


def test_pytest_draws_the_html_report_from_what_the_run_kept(tmp_path):
    """pytest --t42-report-html read every file again after the run: a file rewritten
    meanwhile showed content that never ran, and one removed lost its page. Each scenario
    now travels with its result (from xdist workers too); a file that did not load is
    listed from its item."""
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    for name in ("a", "b"):
        (scenarios / f"{name}.yaml").write_text(body(name))
    (scenarios / "bad.yaml").write_text(body("bad").replace("title: T\n", ""))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--t42-adapter",
         f"cmd:{sys.executable} {ZOO} rewrites-scenario", "--t42-report-html",
         tmp_path / "html", "scenarios"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "T42_HOSTILE_ONCE": "", "T42_HOSTILE_REWRITE":
             str(scenarios / "a.yaml"), "T42_HOSTILE_REMOVE": str(scenarios / "b.yaml")})
    assert done.returncode == 1, done.stdout[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines[-1].startswith("1 failed, 2 passed")
    assert "2 passed, 0 failed, 0 errored, 0 skipped, 0 not judged at level strict" in lines
    assert f"t42: wrote the HTML report {tmp_path / 'html' / 'index.html'}" in lines
    assert "title: REWRITTEN" in (scenarios / "a.yaml").read_text()  # the adapter did both
    assert not (scenarios / "b.yaml").exists()
    pages = tmp_path / "html" / "scenarios"
    assert sorted(page.name for page in pages.iterdir()) == ["hostile.a.html",
                                                             "hostile.b.html"]
    assert "REWRITTEN" not in (pages / "hostile.a.html").read_text()
    index = (tmp_path / "html" / "index.html").read_text()
    assert "<code>scenarios/bad.yaml:2: &#39;title&#39; is a required property</code>" in index


def test_pytest_finds_an_unwritable_html_report_before_the_run(tmp_path):
    """pytest --t42-report-html into a path under a file: a usage error before any item
    runs, not a report lost after the run."""
    (tmp_path / "file").write_text("")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "s.yaml").write_text(body("s"))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
         "--t42-report-html", tmp_path / "file" / "out", "scenarios"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 4
    assert done.stderr.strip().splitlines()[-1] == \
        f"ERROR: --t42-report-html: cannot write {tmp_path / 'file' / 'out'}: Not a directory"
    assert done.stdout == ""  # nothing collected, nothing ran


def test_a_view_whose_tiles_are_lists_is_a_note_and_the_report_is_written(tmp_path):
    """The table was built, then failed as the page was drawn (TypeError: unhashable
    type: 'list'): no HTML report, status 2. Now the page says why, the rest is drawn."""
    adapter = f"python:{HERE / 'hostile' / 'adapter_zoo.py'}:ListTiles"
    done = t42("run", "--adapter", adapter, "--report-html", tmp_path / "run",
               GOOD / "bidding.yaml")
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == FAILED_ONE
    page = (tmp_path / "run" / "scenarios" / "harness.bidding.html").read_text()
    assert "the implementation&#39;s view could not be drawn (TypeError: unhashable type: " \
           "&#39;list&#39;); see the failure above" in page
