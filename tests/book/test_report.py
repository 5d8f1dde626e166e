"""A run's outcomes on the book: `t42 run --report-html` and `pytest --t42-report-html`."""

import json
import os
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


def _pictures(path, adapter):
    """The Result of one scenario run as for a report (pictures kept), in process."""
    from conformance.adapters.loading import load_adapter
    from conformance.corpus.scenario import load_scenario
    from conformance.run.runner import run_scenario

    sc = load_scenario(path).scenario
    return sc, run_scenario(sc, load_adapter(adapter, in_process=True), pictures=True)


def test_the_actual_table_is_kept_at_every_failing_step():
    sc, result = _pictures(BIDS, HIDES_BIDS)
    steps = result.pictures["steps"]
    labels = [sc.steps[int(i)].label for i in steps]
    assert labels == list(dict.fromkeys(f.step for f in result.failures)) and len(labels) >= 3
    views = [s["view"] for s in steps.values()]
    assert all(v is not None and v["bids"] for v in views)  # the referee view is right
    assert len({json.dumps(v, sort_keys=True) for v in views}) == len(views)
    # the seat whose observation failed, as the engine showed it: no bids
    assert all(seen["bids"] == [] for s in steps.values() for seen in s["observe"].values())


def test_a_plain_run_keeps_no_pictures():
    from conformance.adapters.loading import load_adapter
    from conformance.corpus.scenario import load_scenario
    from conformance.run.runner import run_scenario

    result = run_scenario(load_scenario(BIDS).scenario,
                          load_adapter(HIDES_BIDS, in_process=True))
    assert result.outcome.value == "failed" and result.pictures == {}


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


def test_the_actual_table_is_kept_where_the_step_fails():
    sc, result = _pictures(EXAMPLES / "doc000-trump-sixes-30-set-after-one-trick.yaml", WRONG)
    (at, shot), = result.pictures["steps"].items()
    assert sc.steps[int(at)].label == "steps[8]"
    assert shot["view"]["tricks"][0]["winner"] == "A"
    _, passing = _pictures(EXAMPLES / "doc000-trump-sixes-30-set-after-one-trick.yaml",
                           "reference")
    assert passing.outcome.value == "passed" and passing.pictures == {}


class Counting:
    """LeaderWins with every request counted: the report must add none."""

    def __init__(self):
        from .engines import LeaderWins

        self.engine, self.calls = LeaderWins(), 0
        self.name, self.version = "counting", "1"
        self.variants, self.capabilities = [], ["legal"]

    def __getattr__(self, name):
        method = getattr(self.engine, name)
        if not callable(method):
            return method

        def counted(*args):
            self.calls += 1
            return method(*args)
        return counted


def test_the_report_draws_from_the_results_never_running_a_scenario_again(tmp_path):
    """Issue 38: the pictures are kept while each scenario is judged; building the report
    afterwards asks the engine nothing, and keeping them costs a run at most one view
    read per failing step that read none."""
    from conformance.book.report import write_report
    from conformance.corpus.scenario import load_corpus
    from conformance.run.results import totals
    from conformance.run.runner import run_all

    loaded = load_corpus([EXAMPLES])
    plain = Counting()
    run_all(loaded, plain)
    engine = Counting()
    results = run_all(loaded, engine, pictures=True)
    failing_steps = sum(len(r.pictures["steps"]) for r in results)
    assert failing_steps >= 4 and all(r.outcome.value == "failed" for r in results)
    assert plain.calls <= engine.calls <= plain.calls + failing_steps
    during = engine.calls
    write_report(tmp_path, [], results, {r.id: r.pictures for r in results}, engine,
                 totals(results), loaded=loaded)
    assert engine.calls == during
    assert "trick 1 complete: A wins" in (tmp_path / "scenarios" / f"{TRUMP_SIXES}.html"
                                          ).read_text(encoding="utf-8")


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
    build(tmp_path, [], [{"id": sc.id, "outcome": "passed"}], None, run,
          [Loaded(sc.path, short, [])])
    page = (tmp_path / "scenarios" / f"{sc.id}.html").read_text(encoding="utf-8")
    assert f"The {kept['steps_not_kept']:,} later steps of this scenario are not shown: " \
           "their JSON is more than the 1,048,576 characters the report keeps of a " \
           "scenario's steps." in page


def _figures(page: str) -> list[tuple[str, str, str]]:
    """Each failing frame's (label, expected figure, actual figure) HTML."""
    out = []
    for frame in re.findall(r'<section class="frame failed[^"]*" id="[^"]+" data-label="([^"]+)"'
                            r'>(.*?)</section>', page, re.S):
        label, body = frame
        expected = re.search(r'<figure class="expected">(.*?)</figure>', body, re.S)
        actual = re.search(r'<figure class="actual">(.*?)</figure>', body, re.S)
        assert expected and actual, label
        out.append((label, expected.group(1), actual.group(1)))
    return out


def _without_titles(svg: str) -> str:
    """A picture less its accessible title and caption, which name the engine."""
    svg = re.sub(r"<title id=[^>]*>.*?</title>", "", svg, flags=re.S)
    return re.sub(r"<figcaption>.*?</figcaption>", "", svg, flags=re.S)


def test_each_failure_draws_what_failed_and_the_pictures_differ_where_the_engine_did(tmp_path):
    """Issue 44: an observation failure draws the seat's observation, a legal-set failure
    the legal actions marked on the table, a refusal the position refused; each picture
    is drawn from its own engine's answers, so actual differs from expected."""
    planted = "python:conformance.planted:"
    cases = [  # scenario, engine, what the pictures must say, a mark only the actual has
        (ROOT / "scenarios" / "visibility" / "marks-one-stack-cover.yaml",
         planted + "covered-tricks-shown", "is shown", None),
        (BIDS, HIDES_BIDS, "is shown", "bids: none"),
        (ROOT / "scenarios" / "play" / "no-duty-to-play-higher.yaml",
         planted + "must-follow-not-enforced", "legal actions, marked", "mark-extra"),
        (ROOT / "scenarios" / "play" / "check-order-tile-before-must-follow.yaml",
         planted + "must-follow-not-enforced", "the position the step was tried in",
         ": accepted"),
    ]
    for n, (path, adapter, what, only_actual) in enumerate(cases):
        result, out = _report(tmp_path / str(n), path, adapter, "--in-process")
        assert result.exit_code == 1, result.output
        sid = f"{path.parent.name}.{path.stem}"
        page = (out / "scenarios" / f"{sid}.html").read_text(encoding="utf-8")
        figures = _figures(page)
        assert figures, sid
        for label, expected, actual in figures:
            assert what in expected and what in actual, (sid, label)
            assert _without_titles(expected) != _without_titles(actual), (sid, label)
            if only_actual:
                assert only_actual in actual and only_actual not in expected, (sid, label)
    # VIS-06: the reference covers trick 1 for every seat; the engine shows its faces
    _, expected, actual = _figures((tmp_path / "0" / "report" / "scenarios" /
                                    "visibility.marks-one-stack-cover.html").read_text())[0]
    assert "· covered" in expected and "· covered" not in actual


CRASHES = f"cmd:{sys.executable} {ROOT / 'tests' / 'harness' / 'fauxmplementations' / 'crashes.py'}"


def test_errored_scenarios_are_counted_per_area_and_show_the_engines_stderr(tmp_path):
    """Issue 44: an engine whose play crashes made every check it reached, and passed
    them: the table read `PLAY 40/0/0`. Each area now counts its errored scenarios, in the
    text, JSON and HTML reports; an errored page quotes the engine's stderr."""
    path = ROOT / "scenarios" / "play"
    result, out = _report(tmp_path, path, CRASHES, "--report-json", str(tmp_path / "r.json"))
    assert result.exit_code == 1, result.output
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    errored = [s for s in report["scenarios"] if s["outcome"] == "errored"]
    assert errored and report["compliance"]["errored"]["all"] == len(errored)
    play = sum("PLAY" in {r.split("-")[0] for r in s["rules"]} for s in errored)
    assert report["compliance"]["errored"]["areas"]["PLAY"] == play > 0
    row = next(line for line in result.output.splitlines() if line.startswith("PLAY "))
    assert row.split()[-1] == str(play), row
    assert "errored: scenarios that broke" in result.output
    index = (out / "index.html").read_text(encoding="utf-8")
    assert re.search(rf'data-key="PLAY">.*?data-errored="{play}"', index, re.S)
    page = (out / "scenarios" / f"{errored[0]['id']}.html").read_text(encoding="utf-8")
    assert '<pre class="stderr">' in page and "segmentation fault (pretend)" in page


def test_no_page_for_a_scenario_that_did_not_run(tmp_path):
    """Issue 44: a report draws the scenarios that ran; one not chosen gets no page and
    is not listed; one skipped is listed with why, without a page."""
    chosen = "examples.doc000-trump-sixes-30-set-after-one-trick"
    result, out = _report(tmp_path, EXAMPLES, "reference", "-k", chosen)
    assert result.exit_code == 0, result.output
    pages = sorted(p.stem for p in (out / "scenarios").glob("*.html"))
    assert pages == [chosen]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "3 scenarios of the files read did not run" in index
    assert index.count('class="scenario"') == 1
    nello = ROOT / "scenarios" / "variants" / "nello"
    result, out = _report(tmp_path / "skipped", nello, "reference", "--variants", "none")
    assert "skipped" in result.output.splitlines()[-1]
    assert not list((out / "scenarios").glob("*.html"))
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "(skipped: needs variant nello" in index and 'href="scenarios/' not in index


def test_the_reports_keep_the_declaration_and_say_what_each_option_judged(tmp_path):
    """Issue 44: a partial declaration was written as its bare name. The text, JSON and
    HTML reports keep the hello's entry, and say per option how many scenarios judged it
    and how many were skipped for a setting, and which fuzz campaign covers the rest."""
    partial = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:PartialNello"
    nello = ROOT / "scenarios" / "variants" / "nello"
    result, out = _report(tmp_path, nello, partial, "--report-json", str(tmp_path / "r.json"))
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    entry = {"name": "nello", "settings": {"doubles": ["own_suit"]}}
    assert report["adapter"]["declaration"] == [entry]
    row, = [r for r in report["option_coverage"] if r["name"] == "nello"]
    scenarios = [s for s in report["scenarios"] if "nello" in s["variants"]]
    judged = sum(s["outcome"] != "skipped" for s in scenarios)
    for_setting = sum(s["outcome"] == "skipped" and "setting nello" in s["reason"]
                      for s in scenarios)
    assert row["declared"] == entry and row["settings"] == {"doubles": ["own_suit"]}
    assert (row["judged"], row["skipped_for_a_setting"]) == (judged, for_setting)
    assert 0 < judged and 0 < for_setting
    assert "--variants '{\"nello\": {\"doubles\": \"own_suit\"}}'" in row["fuzz"]
    assert (f"nello declared in part (doubles \"own_suit\"): {judged} scenarios judged it, "
            f"{for_setting} skipped for a setting") in result.output
    index = (out / "index.html").read_text(encoding="utf-8")
    shown = re.search(r'<tr data-option="nello">(.*?)</tr>', index, re.S).group(1)
    assert "&#34;settings&#34;: {&#34;doubles&#34;: [&#34;own_suit&#34;]}" in shown
    assert f'"judged">{judged}<' in shown and f'"skipped">{for_setting}<' in shown


def test_the_plugins_report_keeps_the_declaration_under_xdist(tmp_path):
    """The controller's adapter is closed before the workers start: it keeps the
    declaration, so the plugin's HTML report says what each option judged too."""
    partial = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:PartialNello"
    out = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2",
         str(ROOT / "scenarios" / "variants" / "nello"), "--t42-adapter", partial,
         "--t42-report-html", str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    index = (out / "index.html").read_text(encoding="utf-8")
    shown = re.search(r'<tr data-option="nello">(.*?)</tr>', index, re.S).group(1)
    assert "&#34;settings&#34;: {&#34;doubles&#34;: [&#34;own_suit&#34;]}" in shown
    judged = int(re.search(r'"judged">(\d+)<', shown).group(1))
    skipped = int(re.search(r'"skipped">(\d+)<', shown).group(1))
    passed = int(re.search(r"(\d+) passed", done.stdout).group(1))
    assert judged == passed > 0 and skipped > 0


def test_the_index_lists_the_other_rules_of_one_check(tmp_path):
    """A cause that one check of the reference explains under two rules (every marks bid
    accepted: BID-05 and BID-06) is one cause in the index, its other rule linked."""
    out = tmp_path / "report"
    done = subprocess.run(
        ["t42", "run", str(ROOT / "scenarios" / "bidding"), "--level", "rules", "--in-process",
         "--adapter", "python:tests.harness.run.test_counterfactual:any_marks_bid",
         "--report-html", str(out)],
        capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 1, done.stdout[-2000:]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.count('class="cause"') == 1 and 'data-rule="BID-06"' in index
    assert 'also <a href="rules.html#BID-05">BID-05</a>: one check decides them all' in index
