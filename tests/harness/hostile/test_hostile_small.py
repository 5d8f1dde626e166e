"""Issue 27's smaller defects, each with its exact outcome."""

from __future__ import annotations

import resource
import subprocess
import sys

from conformance.corpus.scenario import load_corpus
from conformance.fuzz.save import save_stem

from ..hostile.scenario_zoo import body


def test_an_id_ending_in_a_line_break_is_a_problem_not_a_second_id(tmp_path):
    """`id: "x\\n"` passed the id pattern (Python's `$` matches before a final newline),
    escaped the duplicate check and named a report page `x\\n.html`."""
    (tmp_path / "a.yaml").write_text(body("x").replace("id: hostile.x", 'id: "hostile.x\\n"'))
    (tmp_path / "b.yaml").write_text(body("x"))
    first, second = load_corpus([tmp_path])
    assert first.scenario is None
    assert [str(p) for p in first.problems] == [
        f"{first.problems[0].path}:2: id: id 'hostile.x\\n' ends with a line break: ids are "
        "lowercase words joined by dots and dashes"]
    assert second.scenario is not None


def test_a_fuzz_save_name_stays_a_valid_file_name(tmp_path):
    """pytest --t42-fuzz-save failed with "File name too long" on a 1,000-letter code."""
    long_a, long_b = "code " + "A" * 1000, "code " + "A" * 999 + "B"
    assert save_stem("view BID-02") == "fuzz-view-bid-02"
    assert len(save_stem(long_a)) <= 5 + 48 + 9  # "fuzz-", 48 letters, "-" and a hash
    assert save_stem(long_a) != save_stem(long_b)
    (tmp_path / f"{save_stem(long_a)}.yaml").write_text("")  # the OS takes the name


def test_the_book_of_a_scenario_of_ten_thousand_steps_stays_small(tmp_path):
    """A valid 1 MiB scenario of 10,500 steps cost `t42 book` 474 MB and a 66 MB page; a
    page now draws at most MAX_FRAMES steps and says how many more there were. Run under
    an address-space limit, not timed."""
    from conformance.book.build import MAX_FRAMES

    step = "  - {act: {type: pass, seat: C}, reject: NOT_YOUR_TURN}\n"
    (tmp_path / "long.yaml").write_text(body("long", more=step * 10_500))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 << 20, 400 << 20))

    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", "book",
                           tmp_path / "out", tmp_path / "long.yaml"], capture_output=True,
                          text=True, preexec_fn=limit, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"(1 scenarios, {MAX_FRAMES} table diagrams)" in done.stdout
    page = (tmp_path / "out" / "scenarios" / "hostile.long.html").read_text()
    assert len(page) < 5 << 20
    assert f"The {10_502 - MAX_FRAMES:,} later drawn steps are not shown: a page draws at " \
           f"most {MAX_FRAMES} steps of a scenario." in page


def test_in_process_says_plainly_that_it_trusts_the_adapter():
    """Issue 27: an `act` that catches BaseException or ignores SIGALRM beats the
    in-process watchdog; the help and the README say so (a worker errors both:
    test_hostile_adapters.py, CatchesEverything and IgnoresAlarm)."""
    from pathlib import Path

    from click.testing import CliRunner

    from conformance.cli.main import main

    said = " ".join(CliRunner().invoke(main, ["run", "--help"]).output.split())
    assert "but it trusts the adapter: an exit in it ends the run, and a call that ignores " \
           "the watchdog (catches BaseException, ignores SIGALRM) hangs it." in said
    root = Path(__file__).resolve().parents[3]
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    assert "(`--in-process` for a debugger: it trusts the adapter)" in readme
