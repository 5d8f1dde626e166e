"""`t42 compare` (docs/compare.md): the matrix, causes, disagreements, a baseline's changes,
the summary against its schema and the badges, from reports of three scenarios; and
engines run in parallel by `t42 run`, where one that cannot start, crashes or hangs is a
column of errors and the others are compared all the same."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from conformance.cli.main import main
from conformance.compare.engines import parse_engine
from conformance.specdata.schemas import validator

ROOT = Path(__file__).resolve().parents[3]
PLAY = ROOT / "scenarios" / "play"
# leader-rotates (PLAY-03) fails the last two, doubles-low (RANK-03) the first and last
SUBSET = [str(PLAY / f"{name}.yaml") for name in
          ("clockwise-order", "no-duty-to-overtrump", "winner-leads-next-trick")]
FAUX = ROOT / "tests" / "harness" / "fauxmplementations"


def t42(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """`t42 run --report-json` of the reference and two planted engines on SUBSET."""
    folder = tmp_path_factory.mktemp("reports")
    made = {}
    for name, adapter in (("reference", "reference"),
                          ("rotates", "python:conformance.planted:leader-rotates"),
                          ("low", "python:conformance.planted:doubles-low")):
        made[name] = folder / f"{name}.json"
        t42("run", *SUBSET, "--level", "rules", "--in-process", "--adapter", adapter,
            "--report-json", made[name])
    return made


def schema_errors(data, ref: str = "compare.schema.json") -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator(ref).iter_errors(data)]


def test_the_matrix_names_each_engines_broken_rule_and_the_disagreements(reports, tmp_path):
    out = tmp_path / "summary.json"
    code, text = t42("compare", *[f"--report-json={p}" for p in reports.values()],
                     "--json", out, "--badges", tmp_path / "badges")
    assert code == 0, text
    summary = json.loads(out.read_text())
    assert schema_errors(summary) == []
    labels = [e["label"] for e in summary["engines"]]
    assert labels == ["reference_impl", "planted:leader-rotates", "planted:doubles-low"]
    play = next(r for r in summary["rules"] if r["rule"] == "PLAY-03")["cells"]
    assert [c["failed"] > 0 for c in play] == [False, True, False]
    assert play[1]["scenarios"] == ["play.no-duty-to-overtrump", "play.winner-leads-next-trick"]
    rank = next(r for r in summary["areas"] if r["area"] == "RANK")["cells"]
    assert [c["failed"] > 0 for c in rank] == [False, False, True]
    lines = text.splitlines()
    assert "  planted:leader-rotates: PLAY-03 in 2 (view.to_act differs after a play)" in lines
    assert "  planted:doubles-low: RANK-03 in 2 (view.tricks.winner differs after a play)" in lines
    assert "  reference_impl: no failure" in lines
    head = next(line for line in lines if line.startswith("checks "))
    assert head.split() == ["checks", *labels]
    rank_row = next(line for line in lines if line.startswith("RANK "))
    assert rank_row.split()[3].split("/")[1] != "0"  # doubles-low's column
    # the disagreements: most engines failing first, every one a pass and a fail
    ids = [d["scenario"] for d in summary["disagreements"]]
    assert ids == ["play.winner-leads-next-trick", "play.clockwise-order",
                   "play.no-duty-to-overtrump"]
    assert "3 scenarios where engines disagree" in text
    for engine in summary["engines"]:
        name = engine["label"].replace(":", "-")
        badge = json.loads((tmp_path / "badges" / f"{name}.json").read_text())
        assert schema_errors(badge, "compare.schema.json#/$defs/badge") == []
        assert badge["message"] == f"{engine['share']:g}%"
    assert engine["share"] < 100 and summary["engines"][0]["share"] == 100


def test_two_versions_say_what_newly_passes_and_what_newly_fails(reports, tmp_path):
    before, after = f"label=1.0 {reports['rotates']}", f"label=1.1 {reports['reference']}"
    code, text = t42("compare", "--report-json", before, "--report-json", after,
                     "--baseline", "1.0", "--json", tmp_path / "s.json")
    assert code == 0, text
    change = json.loads((tmp_path / "s.json").read_text())["changes"]["against"][0]
    assert [i["scenario"] for i in change["newly_passing"]] == [
        "play.no-duty-to-overtrump", "play.winner-leads-next-trick"]
    assert change["newly_failing"] == [] and change["rules_mended"] == ["PLAY-03"]
    assert "1.1 against 1.0: 0 newly failing, 2 newly passing, 0 still failing" in text
    code, text = t42("compare", "--report-json", after, "--report-json", before,
                     "--baseline", "1.1")
    assert code == 1, text  # a regression fails an engine's CI
    assert "1.0 against 1.1: 2 newly failing, 0 newly passing" in text
    code, text = t42("compare", "--report-json", after, "--baseline", "2.0")
    assert code == 2 and "no engine has that label" in text


def test_a_file_that_is_not_a_report_is_a_column_of_errors(reports, tmp_path):
    spoiled = tmp_path / "spoiled.json"
    spoiled.write_text('{"adapter": {}}')
    code, text = t42("compare", "--report-json", reports["reference"], "--report-json",
                     spoiled, "--report-json", tmp_path / "missing.json")
    assert code == 0, text
    assert f"{spoiled}: ERROR {spoiled}: not a t42 run report" in text
    assert "no such file" in text
    assert "3 engines compared, 2 without a report" in text.splitlines()[-1]


def test_engine_settings_are_read_before_the_adapter():
    engine = parse_engine("label=old level=rules variants=none timeout=2 cmd:./my42 --fast",
                          "strict", None, 5.0)
    assert (engine.label, engine.level, engine.variants, engine.timeout, engine.source) == (
        "old", "rules", "none", 2.0, "cmd:./my42 --fast")
    assert parse_engine("cmd:./x label=y", "codes", "all", 1.0).source == "cmd:./x label=y"
    with pytest.raises(ValueError, match="only label="):
        parse_engine("level=rules report.json", "strict", None, 5.0, from_file=True)
    code, text = t42("compare", "--adapter", "level=loud reference")
    assert code == 2 and "level=loud" in text


def test_engines_run_at_once_and_a_broken_one_is_a_column_of_errors(tmp_path):
    """The reference, an engine that hangs on every view (each stopped by its own reply
    timeout, then by --engine-seconds) and a program that does not exist, one scenario
    each: the reference's column is whole, the others are errors, nothing is left running."""
    hangs = f"label=hangs timeout=0.3 cmd:{sys.executable} {FAUX / 'hangs.py'}"
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    code, text = t42("compare", SUBSET[0], "--adapter", "reference", "--adapter", hangs,
                     "--adapter", "label=missing cmd:/no/such/engine", "-j", "3",
                     "--engine-seconds", "20", "--reports", tmp_path, "--json",
                     tmp_path / "s.json")
    assert code == 0, text
    engines = json.loads((tmp_path / "s.json").read_text())["engines"]
    assert [e["label"] for e in engines] == ["reference_impl", "hangs", "missing"]
    assert engines[0]["totals"]["passed"] == 1 and engines[0]["error"] is None
    assert engines[1]["totals"]["errored"] == 1
    assert engines[1]["errored"][0]["cause"] == "view: no reply within 0.3 s"
    assert engines[2]["totals"] is None and "cannot start" in engines[2]["error"]
    assert sorted(p.name for p in tmp_path.glob("*.log")) == [
        "1-reference.log", "2-hangs.log", "3-missing.log"]
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before


def test_a_run_past_its_wall_time_is_stopped_with_what_ran(tmp_path):
    """An engine that hangs with a reply timeout of a minute: its run is stopped at its wall
    time, says so in its column, and leaves no process behind."""
    hangs = f"cmd:{sys.executable} {FAUX / 'hangs.py'}"
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    code, text = t42("compare", SUBSET[0], "--adapter", hangs, "--timeout", "60",
                     "--engine-seconds", "1.5", "--json", tmp_path / "s.json")
    assert code == 0, text
    engine = json.loads((tmp_path / "s.json").read_text())["engines"][0]
    assert engine["error"].startswith("stopped after 1.5 s (--engine-seconds)")
    assert engine["seconds"] < 15
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before


def test_the_docs_examples_are_the_tools_commands():
    """docs/compare.md shows the commands tools/compare_example.py runs, with what they
    print (--full-docs runs them again: test_the_docs_examples_are_fresh)."""
    import shlex

    from tools import compare_example

    doc = compare_example.DOC.read_text(encoding="utf-8")
    for command in (compare_example.MANY, compare_example.VERSIONS):
        assert f"```text\n$ {shlex.join(command)}\n" in doc
    assert "  planted:leader-rotates: PLAY-03 in 7 (view.to_act differs after a play)" in doc
    assert "  planted:doubles-low: RANK-03 in 7 (view.tricks.winner differs after a play)" in doc
    assert "my42-1.1 against my42-1.0: 0 newly failing, 7 newly passing" in doc
    assert compare_example.PICTURE.stat().st_size > 10_000


def test_the_docs_examples_are_fresh(request):
    if not request.config.getoption("--full-docs"):
        pytest.skip("runs the docs' commands again: pytest --full-docs")
    done = subprocess.run([sys.executable, "tools/compare_example.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
