"""A run's outcomes on the book: `t42 run --report-html` and `pytest --t42-report-html`."""

import json
import re
import subprocess
import sys
from html.parser import HTMLParser

from click.testing import CliRunner

from .conftest import ROOT, TRUMP_SIXES

EXAMPLES = ROOT / "scenarios" / "examples"
WRONG = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:LeaderWins"


class Compliance(HTMLParser):
    """The compliance table of a report's index: key -> level -> column -> count, the
    rule links and each rule's failing-scenario links."""

    def __init__(self, text: str):
        super().__init__()
        self.rows: dict[str, dict[str, dict[str, int]]] = {}
        self.failing: dict[str, list[str]] = {}
        self.links: list[str] = []
        self.level = ""
        self._row = self._cell = None
        self._in_failing = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "table" and attrs.get("id") == "compliance-table":
            self.level = attrs["data-level"]
        elif tag == "tr" and "data-key" in attrs:
            self._row = attrs["data-key"]
            self.rows[self._row] = {}
        elif tag == "td" and "n" in classes and self._row:
            column = next(c for c in classes if c in ("passed", "failed", "not_judged"))
            self._cell = (attrs["data-level"], column)
        elif tag == "td" and "failing" in classes:
            self._in_failing = True
            self.failing[self._row] = []
        elif tag == "a" and self._row:
            self.links.append(attrs["href"])
            if self._in_failing and "failing" in classes:
                self.failing[self._row].append(attrs["href"])
        elif tag == "span" and self._in_failing:
            self._in_failing = False  # the not-judged links that follow

    def handle_data(self, data):
        if self._cell and data.strip():
            level, column = self._cell
            self.rows[self._row].setdefault(level, {})[column] = int(data)
            self._cell = None

    def handle_endtag(self, tag):
        if tag == "td":
            self._in_failing = False
        elif tag == "tr":
            self._row = None


def check_compliance(out, report: dict) -> None:
    """The HTML table holds exactly --report-json's `compliance` counts (an empty level
    drawn as zeros), each rule's failing scenarios are those whose failures cite it, and
    every link of the table resolves."""
    table = Compliance((out / "index.html").read_text(encoding="utf-8"))
    assert table.level == report["level"]
    want = {**report["compliance"]["areas"], **report["compliance"]["rules"],
            "all": report["compliance"]["all"]["checks"]}
    zero = {"passed": 0, "failed": 0, "not_judged": 0}
    assert set(table.rows) == set(want)
    for key, by_level in table.rows.items():
        assert set(by_level) == {"rules", "codes", "strict"}, key
        for level, cells in by_level.items():
            assert cells == want[key].get(level, zero), (key, level)
    for rule in report["compliance"]["rules"]:
        cited = {s["id"] for s in report["scenarios"] for f in s["failures"] if rule in f["rules"]}
        assert {h.removeprefix("scenarios/").removesuffix(".html")
                for h in table.failing.get(rule, [])} == cited, rule
    rule_ids = set(re.findall(r'<article class="rule[^"]*" id="([^"]+)"',
                              (out / "rules.html").read_text(encoding="utf-8")))
    for href in table.links:
        page, _, anchor = href.partition("#")
        assert (out / page).is_file(), href
        if page == "rules.html":
            assert anchor in rule_ids, href
    assert any(table.failing.values())


def json_report(tmp_path, path, adapter, *extra) -> dict:
    from conformance.cli.main import main

    where = tmp_path / "report.json"
    CliRunner().invoke(main, ["run", str(path), "--adapter", adapter, "--report-json",
                              str(where), *extra])
    return json.loads(where.read_text(encoding="utf-8"))


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


def check_report(out, adapter_name: str, report: dict) -> None:
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
    check_compliance(out, report)


def test_t42_run_writes_the_report(tmp_path):
    from conformance.cli.main import main

    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["run", str(EXAMPLES), "--adapter", WRONG,
                                       "--report-html", str(out)])
    assert result.exit_code == 1
    assert result.output.rstrip().splitlines()[-1] == (
        "0 passed, 4 failed, 0 errored, 0 skipped, 0 not judged at level strict")
    check_report(out, "leader-wins", json_report(tmp_path, EXAMPLES, WRONG))


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
    check_report(out, WRONG, json_report(tmp_path, EXAMPLES, WRONG))


def _report(tmp_path, path, adapter, *extra):
    from conformance.cli.main import main

    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["run", str(path), "--adapter", adapter,
                                       "--report-html", str(out), *extra])
    return result, out


def test_only_the_steps_after_a_stop_are_grey(tmp_path):
    """A wrong referee view diverges the states: the run stops there (Result.stopped)."""
    path = ROOT / "scenarios" / "outcome" / "bid-41-one-point-trick-does-not-set.yaml"
    result, out = _report(tmp_path, path, WRONG)
    assert result.exit_code == 1
    text = (out / "scenarios" / "outcome.bid-41-one-point-trick-does-not-set.html").read_text()
    page = Frames(text)
    labels = [label for label, _ in page.frames]
    failed = [label for label, cls in page.frames if "failed" in cls.split()]
    unreached = [label for label, cls in page.frames if "unreached" in cls.split()]
    stopped = [label for label, cls in page.frames if "stopped" in cls.split()]
    assert failed == stopped == ["steps[3]"]
    assert unreached and unreached == labels[labels.index("steps[3]") + 1:]
    assert text.count("Not run: the run stopped at steps[3], where the states diverged") == len(
        unreached)
    assert "stopped at steps[3]: the states diverged after the failed `view` check" in text


HIDES_BIDS = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:HidesBids"
BIDS = ROOT / "scenarios" / "visibility" / "bids-and-contract-public.yaml"


def test_every_failing_step_is_marked_and_none_is_grey(tmp_path):
    """A wrong observation leaves the states comparable: the run goes on and records each
    failure; each failing step is drawn, expected beside the implementation's table."""
    result, out = _report(tmp_path, BIDS, HIDES_BIDS, "--report-json", str(tmp_path / "r.json"))
    assert result.exit_code == 1, result.output
    report = json.loads((tmp_path / "r.json").read_text())["scenarios"][0]
    assert report["stopped"] == "" and len(report["failures"]) > 1
    want = list(dict.fromkeys(f["step"] for f in report["failures"]))
    text = (out / "scenarios" / "visibility.bids-and-contract-public.html").read_text()
    page = Frames(text)
    failed = [label for label, cls in page.frames if "failed" in cls.split()]
    assert failed == want and len(want) >= 3
    assert not [label for label, cls in page.frames if "unreached" in cls.split()]
    assert page.figures == ["expected", "actual"] * len(want)
    assert text.count("Failed here:") == len(report["failures"])
    assert f"Failed at {len(want)} steps" in text
    assert "Not run" not in text


def test_the_actual_table_is_read_at_every_failing_step():
    from conformance.adapters.loading import load_adapter
    from conformance.book.actual import capture
    from conformance.corpus.scenario import load_scenario

    sc = load_scenario(BIDS).scenario
    shot = capture(sc, load_adapter(HIDES_BIDS, in_process=True))
    labels = [sc.steps[int(i)].label for i in shot["steps"]]
    assert len(labels) >= 3 and labels[0] == sc.steps[shot["index"]].label
    views = [s["view"] for s in shot["steps"].values()]
    assert all(v is not None and v["bids"] for v in views)  # the referee view is right
    assert len({json.dumps(v, sort_keys=True) for v in views}) == len(views)


def test_checks_above_the_level_are_shown_as_not_judged(tmp_path):
    one_code = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:OneCode"
    path = ROOT / "scenarios" / "suits" / "trump-six-five-six-is-not-a-five.yaml"
    result, out = _report(tmp_path, path, one_code, "--level", "rules")
    assert result.output.rstrip().splitlines()[-1].endswith("1 not judged at level rules")
    text = (out / "scenarios" / "suits.trump-six-five-six-is-not-a-five.html").read_text()
    page = Frames(text)
    assert [cls for _, cls in page.frames if "unjudged" in cls.split()]
    assert not [cls for _, cls in page.frames if "failed" in cls.split()]
    assert "Not judged at this level:" in text and "Not judged at this run" in text
    check_compliance_not_judged(out, json_report(tmp_path, path, one_code, "--level", "rules"))


def check_compliance_not_judged(out, report: dict) -> None:
    """At level rules the code checks are not judged: counted so, in their own column."""
    table = Compliance((out / "index.html").read_text(encoding="utf-8"))
    assert table.level == "rules" and table.rows["all"]["codes"]["not_judged"] > 0
    assert table.rows["all"] == {level: report["compliance"]["all"]["checks"].get(
        level, {"passed": 0, "failed": 0, "not_judged": 0}) for level in table.rows["all"]}
    assert 'data-outcome="not judged"' in (out / "index.html").read_text()


def test_the_actual_table_is_read_where_the_step_fails():
    from conformance.adapters.loading import load_adapter
    from conformance.book.actual import capture
    from conformance.corpus.scenario import load_scenario

    sc = load_scenario(EXAMPLES / "doc000-trump-sixes-30-set-after-one-trick.yaml").scenario
    shot = capture(sc, load_adapter(WRONG, in_process=True))
    assert sc.steps[shot["index"]].label == "steps[8]"
    assert shot["view"]["tricks"][0]["winner"] == "A"
    passing = capture(sc, load_adapter("reference"))
    assert passing["view"] is None and "passed when run again" in passing["note"]


def test_the_index_leads_with_the_causes(tmp_path):
    """The run report's index lists the failures by cause (the rule broken, once) before
    the compliance table."""
    out = tmp_path / "report"
    done = subprocess.run(
        ["t42", "run", str(ROOT / "scenarios" / "play"), "--level", "rules", "--in-process",
         "--adapter", "python:conformance.planted:leader-rotates", "--report-html", str(out)],
        capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.index('id="causes"') < index.index('id="compliance"')
    assert index.count('class="cause"') == 1 and 'data-rule="PLAY-03"' in index


def test_the_plugin_keeps_each_scenario_as_it_ran_and_its_steps_within_a_budget(tmp_path):
    """The plugin sends each scenario with its result (the controller reads no file);
    steps past the budget (YAML aliases can repeat a step 100,000 times) are not kept, and
    the page says how many."""
    from conformance.book.build import build
    from conformance.book.report import kept_scenario, scenario_from_kept
    from conformance.corpus.scenario import Loaded, load_corpus

    loaded = load_corpus([EXAMPLES])
    for item in loaded:
        kept = json.loads(json.dumps(kept_scenario(item.scenario)))
        assert kept["steps_not_kept"] == 0
        assert scenario_from_kept(kept) == item.scenario
    sc = loaded[0].scenario
    kept = kept_scenario(sc, budget=300)
    short = scenario_from_kept(kept)
    assert 0 < len(short.steps) < len(sc.steps)
    assert short.steps == sc.steps[:len(short.steps)]
    assert kept["steps_not_kept"] == len(sc.steps) - len(short.steps)
    run = {"adapter": "x", "variants": "", "summary": "", "level": "strict", "results": [],
           "steps_not_kept": {sc.id: kept["steps_not_kept"]}}
    build(tmp_path, [], [], None, run, [Loaded(sc.path, short, [])])
    page = (tmp_path / "scenarios" / f"{sc.id}.html").read_text(encoding="utf-8")
    assert f"The {kept['steps_not_kept']:,} later steps of this scenario are not shown: " \
           "their JSON is more than the 1,048,576 characters the report keeps of a " \
           "scenario's steps." in page
