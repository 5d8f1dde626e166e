"""`t42 run --report-json` against spec/schemas/report.schema.json, on real runs.

Each run here makes a part of the report the others leave empty: a pass, failures grouped
by cause (a planted engine), skips and differences not judged, errors and a stale
expected failure. The schema must take every report and refuse a spoiled one.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from conformance.run.results import Outcome
from conformance.specdata.index import load_index
from conformance.specdata.schemas import validator

from ..conftest import BAD, GOOD

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"
PLANTED = "python:conformance.planted:{} --in-process"


def errors(report: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator("report.schema.json").iter_errors(report)]


def run_report(t42, tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "report.json"
    t42("run", *args, "--report-json", out)
    return json.loads(out.read_text(encoding="utf-8"))


def plant(name: str) -> list[str]:
    return ["--adapter", *PLANTED.format(name).split()]


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, dict]:
    """The reports of four runs, made once for the tests below."""
    from click.testing import CliRunner

    from conformance.cli.main import main

    def t42(*args):
        CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)

    def made(name: str, *args: str) -> dict:
        return run_report(t42, tmp_path_factory.mktemp(name), *args)

    expected = tmp_path_factory.mktemp("listed") / "expected.yaml"
    expected.write_text("- id: harness.bidding\n  reason: listed, and it passes (stale)\n")
    return {
        "passing": made("passing", SCENARIOS / "deal"),
        "failing": made("failing", SCENARIOS / "play", *plant("leader-rotates")),
        "skipped and not judged": made(
            "unjudged", SCENARIOS / "actions", SCENARIOS / "variants" / "nello",
            "--level", "rules", "--variants", "none", *plant("seat-checked-before-phase")),
        "errored and expected": made("errored", BAD, GOOD, "--expected-failures", expected),
    }


@pytest.mark.parametrize("name", ["passing", "failing", "skipped and not judged",
                                  "errored and expected"])
def test_a_real_report_follows_the_schema(reports, name):
    assert errors(reports[name]) == []


def test_the_runs_fill_every_part_of_the_report(reports):
    """Each outcome, a group, a difference, a stale listing: the schema is tried on all."""
    totals = {name: report["totals"] for name, report in reports.items()}
    assert totals["passing"]["passed"] > 0 and totals["passing"]["failed"] == 0
    failing = reports["failing"]
    assert totals["failing"]["failed"] > 0 and failing["groups"]
    assert any(d["differences"] or d["action"] for s in failing["scenarios"]
               for d in s["failures"])
    assert totals["skipped and not judged"]["skipped"] > 0
    assert totals["skipped and not judged"]["not judged"] > 0
    listed = reports["errored and expected"]
    assert listed["totals"]["errored"] > 0 and listed["stale_expected_failures"]
    outcomes = {s["outcome"] for r in reports.values() for s in r["scenarios"]}
    assert outcomes == {o.value for o in Outcome}


def test_the_schemas_lists_are_the_harness_own():
    defs = json.loads((ROOT / "spec" / "schemas" / "report.schema.json").read_text())["$defs"]
    assert defs["outcome"]["enum"] == [o.value for o in Outcome]
    assert defs["level"]["enum"] == list(load_index().levels.names)


@pytest.mark.parametrize("spoil", [
    lambda r: r.pop("groups"),
    lambda r: r.update(extra=1),
    lambda r: r["totals"].update(passed=-1),
    lambda r: r.update(level="lenient"),
    lambda r: r["scenarios"][0].update(outcome="broken"),
    lambda r: r["scenarios"][0]["failures"][0].update(line=0),
    lambda r: r["groups"][0].pop("scenarios"),
    lambda r: r["compliance"]["areas"].update(bid={}),
    lambda r: r["adapter"]["variants"].append("no_such_option"),
], ids=["no groups", "unknown field", "negative count", "unknown level", "unknown outcome",
        "line 0", "group without scenarios", "lower-case area", "unknown option"])
def test_the_schema_refuses_a_spoiled_report(reports, spoil):
    report = copy.deepcopy(reports["failing"])
    report["scenarios"].sort(key=lambda s: s["outcome"] != "failed")
    spoil(report)
    assert errors(report)
