"""t42 run and variant options: --variants, skip reasons, the per-option report."""

import json
import re

from conformance.adapters.inprocess import WithVariants, parse_variants
from conformance.adapters.reference import ReferenceAdapter
from conformance.specdata.files import scenarios_dir
from conformance.specdata.index import load_index

BID_42 = scenarios_dir() / "variants" / "bid_42"
NELLO = scenarios_dir() / "variants" / "nello"


def last_line(output: str) -> str:
    return output.rstrip("\n").splitlines()[-1]


def test_the_reference_adapter_declares_every_option():
    assert sorted(ReferenceAdapter().variants) == sorted(load_index().variants)


def test_parse_variants():
    known = list(load_index().variants)
    assert parse_variants("all", known) == known
    assert parse_variants("none", known) == parse_variants("", known) == []
    assert parse_variants("nello, plunge", known) == ["nello", "plunge"]
    try:
        parse_variants("nello,nelo", known)
    except ValueError as error:
        assert "nelo" in str(error)
    else:
        raise AssertionError("an unknown option was accepted")


def test_with_variants_replaces_only_the_declared_options():
    inner = ReferenceAdapter()
    wrapped = WithVariants(inner, ["nello"])
    assert wrapped.variants == ["nello"] and wrapped.name == inner.name
    assert wrapped.capabilities == inner.capabilities


def test_variants_none_skips_every_variant_scenario_with_the_reason(t42):
    code, out = t42("run", BID_42, "--variants", "none")
    assert code == 0 and re.fullmatch(
        r"0 passed, 0 failed, 0 errored, \d+ skipped, 0 not judged at level strict",
        last_line(out))
    assert re.search(r"skipped \d+: they need variant options, not in --variants \(bid_42 \d+",
                     out)  # every option's skips in one line
    assert "(variant options: none)" in out


def test_variants_subset_runs_what_it_names(t42):
    code, out = t42("run", BID_42, NELLO, "--variants", "nello")
    counts = re.fullmatch(
        r"(\d+) passed, 0 failed, 0 errored, (\d+) skipped, 0 not judged at level strict",
        last_line(out))
    assert code == 0 and counts and int(counts[1]) > 10 and int(counts[2]) > 10
    table = out[out.index("by option"):]
    assert re.search(r"^nello\s+\d+\s+0\s+0\s+\d+\s+0$", table, re.MULTILINE)
    assert re.search(r"^bid_42\s+0\s+0\s+0\s+\d+\s+0$", table, re.MULTILINE)


def test_unknown_variants_option_is_a_usage_error(t42):
    code, out = t42("run", BID_42, "--variants", "nello,no_such")
    assert code == 2 and "no_such" in out


def test_report_json_counts_by_option(t42, tmp_path):
    report = tmp_path / "report.json"
    code, _ = t42("run", BID_42, "--report-json", report)
    data = json.loads(report.read_text())
    assert code == 0 and data["by_variant"]["bid_42"]["passed"] == len(data["scenarios"])
    assert all("variants" in s for s in data["scenarios"])
    assert data["adapter"]["variants"] == sorted(load_index().variants)
