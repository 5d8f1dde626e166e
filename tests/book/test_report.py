"""A run's outcomes on the book: `t42 run --report-html` and `pytest --t42-report-html`."""

import subprocess
import sys
from html.parser import HTMLParser

from click.testing import CliRunner

from .conftest import ROOT, TRUMP_SIXES

EXAMPLES = ROOT / "scenarios" / "examples"
WRONG = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:LeaderWins"


class Frames(HTMLParser):
    """The step frames of a scenario page: (label, classes), and the tables' figures."""

    def __init__(self, text: str):
        super().__init__()
        self.frames: list[tuple[str, str]] = []
        self.figures: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "frame" in (attrs.get("class") or "").split():
            self.frames.append((attrs["data-label"], attrs["class"]))
        if tag == "figure" and attrs.get("class") in ("expected", "actual"):
            self.figures.append(attrs["class"])


def check_report(out, adapter_name: str) -> None:
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "0 passed, 4 failed, 0 errored, 0 skipped, 0 not judged at level strict" in index
    assert adapter_name in index
    assert f'data-id="{TRUMP_SIXES}"' in index and 'data-outcome="failed"' in index
    assert 'href="rules.html#RANK-01"' in index  # the per-rule table
    page = Frames((out / "scenarios" / f"{TRUMP_SIXES}.html").read_text(encoding="utf-8"))
    failed = [label for label, cls in page.frames if "failed" in cls.split()]
    assert failed == ["steps[8]"]
    assert page.figures == ["expected", "actual"]
    unreached = [label for label, cls in page.frames if "unreached" in cls.split()]
    assert unreached == []  # steps[8] is the last step
    text = (out / "scenarios" / f"{TRUMP_SIXES}.html").read_text(encoding="utf-8")
    assert "trick 1 complete: A wins" in text and "view.tricks[0].winner" in text


def test_t42_run_writes_the_report(tmp_path):
    from conformance.cli.main import main

    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["run", str(EXAMPLES), "--adapter", WRONG,
                                       "--report-html", str(out)])
    assert result.exit_code == 1
    assert result.output.rstrip().splitlines()[-1] == (
        "0 passed, 4 failed, 0 errored, 0 skipped, 0 not judged at level strict")
    check_report(out, "leader-wins")


def test_a_passing_run_marks_every_scenario_passed(tmp_path):
    from conformance.cli.main import main

    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["run", str(EXAMPLES), "--report-html", str(out)])
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.count('data-outcome="passed"') == 4 and "frame failed" not in index


def test_the_pytest_plugin_writes_the_report_under_xdist(tmp_path):
    out = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2",
         str(EXAMPLES), "--t42-adapter", WRONG, "--t42-report-html", str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "4 failed" in done.stdout and "t42: wrote the HTML report" in done.stdout
    check_report(out, WRONG)


def test_steps_after_the_failure_are_marked_not_run(tmp_path):
    from conformance.cli.main import main

    out = tmp_path / "report"
    path = ROOT / "scenarios" / "outcome" / "bid-41-one-point-trick-does-not-set.yaml"
    result = CliRunner().invoke(main, ["run", str(path), "--adapter", WRONG,
                                       "--report-html", str(out)])
    assert result.exit_code == 1
    text = (out / "scenarios" / "outcome.bid-41-one-point-trick-does-not-set.html").read_text()
    page = Frames(text)
    labels = [label for label, _ in page.frames]
    failed = [label for label, cls in page.frames if "failed" in cls.split()]
    unreached = [label for label, cls in page.frames if "unreached" in cls.split()]
    assert failed == ["steps[3]"]
    assert unreached and unreached == labels[labels.index("steps[3]") + 1:]
    assert text.count("Not run: the scenario stopped") == len(unreached)


def test_the_actual_table_is_read_where_the_step_fails():
    from conformance.adapters.loading import load_adapter
    from conformance.book.actual import capture
    from conformance.corpus.scenario import load_scenario

    sc = load_scenario(EXAMPLES / "doc000-trump-sixes-30-set-after-one-trick.yaml").scenario
    shot = capture(sc, load_adapter(WRONG))
    assert sc.steps[shot["index"]].label == "steps[8]"
    assert shot["view"]["tricks"][0]["winner"] == "A"
    passing = capture(sc, load_adapter("reference"))
    assert passing["view"] is None and "passed when run again" in passing["note"]
