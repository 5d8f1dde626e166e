"""The t42 command: summary line, exit codes, reports, filters, expected failures."""

import json
import re

import yaml

from ..conftest import BAD, DATA, GOOD, inproc

SUMMARY = re.compile(r"^\d+ passed, \d+ failed, \d+ errored, \d+ skipped, \d+ not judged "
                     r"at level (rules|codes|strict)$")


def summary(passed: int, failed: int, errored: int, skipped: int, not_judged: int = 0,
            level: str = "strict") -> str:
    return (f"{passed} passed, {failed} failed, {errored} errored, {skipped} skipped, "
            f"{not_judged} not judged at level {level}")


def last_line(output: str) -> str:
    return output.rstrip("\n").splitlines()[-1]


def test_run_ends_with_the_summary_line_and_exit_zero(t42):
    code, out = t42("run", GOOD)
    assert code == 0 and last_line(out) == summary(4, 0, 0, 0)


def test_failure_exits_non_zero_and_shows_the_report(t42):
    code, out = t42("run", GOOD, "--adapter", inproc("WrongCode"))
    assert code == 1 and SUMMARY.match(last_line(out))
    assert "FAILED harness.bidding (tests/harness/data/good/bidding.yaml:21, steps[2])" in out


def test_corrupt_file_is_errored_and_the_run_goes_on(t42):
    code, out = t42("run", DATA)
    assert code == 1
    assert last_line(out) == summary(4, 0, 3, 0)
    assert "bad/corrupt.yaml:5: rules[1]: unknown rule NOPE-99" in out


def test_filters(t42):
    assert last_line(t42("run", GOOD, "-k", "perft")[1]).startswith("1 passed")
    assert last_line(t42("run", GOOD, "--rule", "DIG-06")[1]).startswith("1 passed")
    assert last_line(t42("run", GOOD, "--variant", "base")[1]).startswith("4 passed")
    code, out = t42("run", GOOD, "--rule", "NOPE-1")
    assert code == 2 and "unknown rule NOPE-1" in out


def test_checks_of_a_capability_not_declared_are_counted_apart(t42):
    code, out = t42("run", GOOD, "--adapter", inproc("Bare"))
    assert code == 0 and last_line(out) == summary(4, 0, 0, 0)
    assert "not judged, a capability not declared (every other check of those scenarios " \
           "was judged): legal 1 checks in 1 scenarios, perft 1 checks in 1 scenarios" in out


def test_report_json(t42, tmp_path):
    report = tmp_path / "report.json"
    t42("run", GOOD, "--adapter", inproc("WrongCode"), "--report-json", report)
    data = json.loads(report.read_text())
    assert data["totals"]["failed"] == 1 and data["totals"]["passed"] == 3
    assert set(data["versions"]) == {"suite", "spec", "protocol"}
    assert data["adapter"]["capabilities"] == ["legal", "perft", "self_deal"]
    failed = next(s for s in data["scenarios"] if s["outcome"] == "failed")
    assert failed["detail"]["differences"][0] == {
        "path": "error.code", "expected": "NOT_YOUR_TURN", "actual": "WRONG_PHASE", "note": ""}
    assert failed["detail"]["line"] == 21 and failed["seconds"] >= 0


def test_expected_failures_listed_do_not_fail_the_run(t42, tmp_path):
    listed = tmp_path / "xfail.yaml"
    listed.write_text("- id: harness.bidding\n  reason: codes mixed up\n")
    code, out = t42("run", GOOD, "--adapter", inproc("WrongCode"), "--expected-failures", listed)
    assert code == 0 and "1 expected failures listed" in out
    assert last_line(out) == summary(3, 1, 0, 0)


def test_stale_expected_failure_fails_the_run(t42, tmp_path):
    listed = tmp_path / "xfail.yaml"
    listed.write_text("- id: harness.perft\n  reason: fixed long ago\n")
    code, out = t42("run", GOOD, "--expected-failures", listed)
    assert code == 1 and "STALE harness.perft passes" in out
    listed.write_text("- id: harness.gone\n  reason: renamed\n")
    code, out = t42("run", GOOD, "--expected-failures", listed)
    assert code == 0 and "lists harness.gone, which is not in the corpus" in out


def test_update_expected_failures_rewrites_the_list(t42, tmp_path):
    listed = tmp_path / "xfail.yaml"
    listed.write_text("- id: harness.perft\n  reason: stale\n- id: other.not-run\n  reason: keep\n")
    code, _ = t42("run", GOOD, "--adapter", inproc("WrongCode"), "--expected-failures", listed,
                  "--update-expected-failures")
    assert code == 0
    entries = yaml.safe_load(listed.read_text())
    assert [e["id"] for e in entries] == ["harness.bidding", "other.not-run"]
    assert entries[0]["reason"].startswith("rejected with the wrong code")
    assert entries[1] == {"id": "other.not-run", "reason": "keep"}


def test_check_reports_problems_and_exit_code(t42):
    code, out = t42("check", BAD)
    assert code == 1
    assert "bad/duplicate-key.yaml:4: title: duplicate key (first at line 3)" in out
    code, out = t42("check", GOOD)
    assert code == 0 and "4 scenario files checked (4 valid)" in out


def test_coverage_fails_when_a_rule_has_no_scenario(t42):
    code, out = t42("coverage", GOOD, "--json")
    data = json.loads(out)
    assert code == 1 and "harness.perft" in data["rules"]["PLAY-04"]
    assert "harness.bidding" in data["codes"]["NOT_YOUR_TURN"]
    assert "TIL-01" in data["uncovered"]


def test_list(t42):
    code, out = t42("list", GOOD, "-k", "perft")
    assert code == 0 and out.startswith("harness.perft  ") and "[PLAY-04, PLAY-05, PLAY-06]" in out


def test_perft_from_a_scenario(t42):
    code, out = t42("perft", GOOD / "perft.yaml", "--depth", "2")
    assert code == 0 and last_line(out) == "total 25" and "play:1|3" in out


def test_the_harness_options_are_bounded(t42):
    """--timeout 0 would error every reply of a working program (issue 15): every numeric
    option of the harness is refused outside its range, naming the range, before anything
    runs (conformance/adapters/limits.py)."""
    refused = [("run", "--timeout", "0"), ("run", "--timeout", "1e9"),
               ("run", "--max-reply-bytes", "0"), ("run", "--max-stderr-bytes", "-1"),
               ("perft", "--seed", "1", "--depth", "34"),
               ("perft", "--seed", "1", "--timeout", "0"),
               ("fuzz", "--adapter", "reference", "--illegal-rate", "1.5"),
               ("fuzz", "--adapter", "reference", "--rounds", "0"),
               ("fuzz", "--adapter", "reference", "--timeout", "0")]
    for args in refused:
        code, out = t42(*args)
        assert code == 2, (args, out)
        assert f"Invalid value for '{args[-2]}'" in out and "range" in out, (args, out)


def test_a_scenario_of_the_installed_copy_is_shown_from_scenarios(t42, tmp_path, monkeypatch):
    """Outside a checkout, a failure's place is `scenarios/...:LINE`, not a path deep in
    site-packages, and a note says once where those files are (here the checkout stands
    in for the installed copy)."""
    from conformance.specdata import files

    root = files.data_root().path
    monkeypatch.setattr(files, "_PACKAGED", root)
    monkeypatch.chdir(tmp_path)
    paths = sorted((root / "scenarios" / "deal").glob("order-dealer-*.yaml"))[:2]
    code, out = t42("run", *paths, "--adapter", "python:conformance.planted:deal-starts-at-dealer",
                    "--in-process")
    assert code == 1
    assert re.search(r"\(scenarios/deal/order-dealer-\w\.yaml:\d+", out), out
    assert str(root / "scenarios") not in out.replace(f"(in {root})", "")
    assert out.count("note: scenarios/... are the installed suite's own files") == 1, out


def test_scenario_paths_do_not_depend_on_the_folder_a_run_starts_in(t42, tmp_path, monkeypatch):
    """Issue 44: a path was relative to the working folder, so the same failure read
    differently from two folders. A checkout's file is shown from the checkout
    (`scenarios/...`), any other by its absolute path."""
    from conformance.specdata import files

    root = files.data_root().path
    path = root / "scenarios" / "play" / "winner-leads-next-trick.yaml"
    outside = tmp_path / "mine" / "winner.yaml"
    outside.parent.mkdir()
    text = path.read_text(encoding="utf-8").replace("id: play.winner-leads-next-trick",
                                                    "id: mine.winner")
    modeline = f"# yaml-language-server: $schema={root}/spec/schemas/scenario.schema.json"
    outside.write_text(modeline + "\n" + text.split("\n", 1)[1], encoding="utf-8")
    shown = []
    for folder in (root, root / "scenarios", tmp_path):
        monkeypatch.chdir(folder)
        code, out = t42("run", path, outside, "--adapter",
                        "python:conformance.planted:leader-rotates", "--in-process", "-v")
        assert code == 1, out
        shown.append(sorted(set(re.findall(r"\((\S+\.yaml):\d+", out))))
    assert shown[0] == shown[1] == shown[2], shown
    assert shown[0] == sorted(["scenarios/play/winner-leads-next-trick.yaml",
                               outside.as_posix()]), shown
