"""`t42 compare --html` in Chromium, as a maintainer would try it: the reference engine, two
planted engines and the node kit's example adapter in one command; the disagreements
first, each planted engine's rule broken in its cell, the cell's link to its failing
scenarios and causes, the options, at 1400 px and in a narrow window; then two versions
of a planted engine, the second with its bug fixed: exactly the scenarios that newly pass."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli.main import main

from .conftest import ROOT

# leader-rotates (PLAY-03) fails the second, doubles-low (RANK-03) the first
SUBSET = [str(ROOT / "scenarios" / "play" / f"{name}.yaml")
          for name in ("clockwise-order", "no-duty-to-overtrump")]
NODE = shutil.which("node")
KIT = f"cmd:{NODE} {ROOT / 'kits' / 'typescript' / 'example' / 'adapter.js'}"


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("compared")
    engines = ["reference", "python:conformance.planted:leader-rotates",
               "python:conformance.planted:doubles-low"] + ([KIT] if NODE else [])
    args = ["compare", *SUBSET, "--level", "rules", "--in-process", "--html", str(out / "page"),
            "--json", str(out / "summary.json"), "--reports", str(out / "reports")]
    for engine in engines:
        args += ["--adapter", engine]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def _overflows(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")


def test_the_page_shows_each_engines_broken_rule_and_the_disagreements_first(compared, tab):
    page = tab.open(compared / "page" / "index.html")
    page.set_viewport_size({"width": 1400, "height": 900})  # a maintainer's wide window
    labels = page.eval_on_selector_all("#area-matrix thead th.engine a", "as => as.map(a => "
                                       "a.textContent)")
    assert labels[:3] == ["reference_impl", "planted:leader-rotates", "planted:doubles-low"]
    if NODE:
        assert labels[3] == "tiny-dealer"
    sections = page.eval_on_selector_all("main > section", "ss => ss.map(s => s.id)")
    assert sections[0] == "disagreements" and sections.index("matrix") > 0
    rows = page.eval_on_selector_all("#disagreements-table tr.disagreement",
                                     "rs => rs.map(r => r.dataset.id)")
    assert set(rows) == {"play.clockwise-order", "play.no-duty-to-overtrump"}
    for rule, broken in (("PLAY-03", 1), ("RANK-03", 2)):
        cells = page.locator(f'#rule-matrix tr[data-key="{rule}"] td.n')
        bad = [i for i in range(cells.count()) if "bad" in cells.nth(i).get_attribute("class")]
        assert bad == [broken], rule
    cell = page.locator('#rule-matrix tr[data-key="PLAY-03"] td.n.bad a.cell-link')
    assert cell.get_attribute("href") == "#e1-PLAY-03"
    cell.click()
    target = page.locator(":target")
    assert target.get_attribute("id") == "e1-PLAY-03" and target.is_visible()
    assert target.locator("li.failing-scenario").evaluate_all(
        "ls => ls.map(l => l.dataset.id)") == ["play.no-duty-to-overtrump"]
    assert "PLAY-03: view.to_act differs after a play" in target.inner_text()
    assert page.locator("#e2 li.cause").inner_text().startswith("RANK-03: view.tricks.winner")
    from conformance.specdata.index import load_index

    options = page.locator("#options-table tbody tr")
    assert options.count() == len(load_index().variants)
    assert page.locator('#options-table tr[data-option="nello"] td').first.inner_text(
        ).startswith("all settings")
    assert not _overflows(page)
    assert tab.errors == []


def test_the_page_reads_in_a_narrow_window(compared, tab):
    page = tab.page
    page.set_viewport_size({"width": 420, "height": 800})
    tab.open(compared / "page" / "index.html")
    assert not _overflows(page), "the page is wider than the window"
    matrix = page.locator("#area-matrix")
    box, holder = matrix.bounding_box(), page.locator("#matrix .scroll").first.bounding_box()
    assert holder["width"] <= 420 and box["width"] >= holder["width"]  # it scrolls inside
    first = page.locator("#area-matrix tbody th").first
    assert first.is_visible() and first.bounding_box()["x"] >= 0
    assert tab.errors == []


def test_two_versions_say_exactly_which_scenarios_newly_pass(compared, tmp_path, tab):
    reports = compared / "reports"
    before, after = reports / "2-leader-rotates.json", reports / "1-reference.json"
    failing = [s["id"] for s in json.loads(before.read_text())["scenarios"]
               if s["outcome"] == "failed"]
    assert failing == ["play.no-duty-to-overtrump"]
    result = CliRunner().invoke(main, [
        "compare", "--report-json", f"label=my42-1.0 {before}", "--report-json",
        f"label=my42-1.1 {after}", "--baseline", "my42-1.0", "--html", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = tab.open(tmp_path / "index.html")
    change = page.locator('#changes article.change[data-label="my42-1.1"]')
    assert change.locator("h3").inner_text() == (
        "my42-1.1: 0 newly failing, 1 newly passing, 0 still failing")
    assert change.locator("ul.newly-passing li").evaluate_all(
        "ls => ls.map(l => l.dataset.id)") == failing
    assert change.locator("ul.newly-failing").count() == 0
    assert "no longer broken: PLAY-03" in change.inner_text()
    assert tab.errors == []
