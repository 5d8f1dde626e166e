"""The pytest plugin: one item per scenario under a scenarios/ directory."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import BAD, GOOD, inproc

SCHEMA = Path(__file__).resolve().parents[3] / "spec/schemas/scenario.schema.json"


@pytest.fixture
def corpus(tmp_path):
    """Copies of the test scenarios in a scenarios/ directory (absolute modelines)."""
    root = tmp_path / "scenarios"
    root.mkdir()
    for source in [*GOOD.glob("*.yaml"), BAD / "corrupt.yaml"]:
        lines = source.read_text().splitlines(keepends=True)
        lines[0] = f"# yaml-language-server: $schema={SCHEMA}\n"
        (root / source.name).write_text("".join(lines))
    return root


def pytest_run(*args, cwd=None, ci=False) -> subprocess.CompletedProcess:
    """An inner pytest; `CI` set or not as asked, whatever the outer run has (pytest
    prints failures differently on CI)."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *map(str, args)]
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")}
    if ci:
        env["CI"] = "true"
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd,
                          env=env)


def test_scenarios_are_items_with_junit(corpus, tmp_path):
    junit = tmp_path / "junit.xml"
    done = pytest_run(corpus, "-q", f"--junitxml={junit}", "-k", "not corrupt")
    assert done.returncode == 0, done.stdout
    assert "4 passed" in done.stdout
    assert 'tests="4"' in junit.read_text()


def test_failure_shows_the_t42_report_and_invalid_file_fails(corpus):
    done = pytest_run(corpus, "-q", "--t42-adapter", inproc("WrongCode"))
    assert done.returncode == 1
    assert 'error.code: expected "NOT_YOUR_TURN", actual "WRONG_PHASE"' in done.stdout
    assert "invalid scenario file" in done.stdout and "unknown rule NOPE-99" in done.stdout
    assert "2 failed, 3 passed" in done.stdout


@pytest.mark.parametrize("workers", [["-p", "no:xdist"], ["-n", "2"]])
def test_on_ci_a_failure_is_one_line_in_the_summary_and_junit(corpus, tmp_path, workers):
    """pytest does not trim a failure's message on CI (GitHub Actions sets CI): a
    message of the whole report would print every report twice."""
    junit = tmp_path / "junit.xml"
    done = pytest_run(corpus, "-q", "--t42-adapter", inproc("WrongCode"), *workers,
                      f"--junitxml={junit}", ci=True)
    summary = done.stdout.split("short test summary info")[1].splitlines()[1:-1]
    assert len(summary) == 2 and all(line.startswith("FAILED") for line in summary)
    corrupt, wrong = sorted(summary, key=lambda line: "corrupt" not in line)
    assert "corrupt.yaml - invalid scenario file: " in corrupt
    assert re.search(r" - [A-Z]+-\d+ steps\[\d+\]: rejected with the wrong code ", wrong), wrong
    assert done.stdout.count('error.code: expected "NOT_YOUR_TURN"') == 1
    messages = re.findall(r'<failure message="([^"]*)"', junit.read_text())
    assert len(messages) == 2 and all("\n" not in m and "&#10;" not in m for m in messages)
    # the class of a scenario is its file, without `.yaml` (junitxml strips only `.py`)
    classes = set(re.findall(r'<testcase classname="([^"]*)"', junit.read_text()))
    assert classes and not any(c.endswith(".yaml") for c in classes), classes
    assert any(c.split(".")[-1] == "corrupt" for c in classes), classes


def test_a_narrow_terminal_keeps_the_rule_in_the_short_summary(corpus):
    """pytest cuts a summary line at the terminal's width: the rule comes first."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rf",
         "--t42-adapter", inproc("WrongCode"), "scenarios"], capture_output=True, text=True,
        timeout=120, cwd=corpus.parent,
        env={**{k: v for k, v in os.environ.items() if k != "CI"}, "COLUMNS": "90"})
    summary = [line for line in done.stdout.splitlines() if line.startswith("FAILED ")
               and "::" in line and "corrupt" not in line]
    assert len(summary) == 1 and len(summary[0]) <= 90, summary
    assert re.search(r" - [A-Z]+-\d+ ", summary[0]), summary


@pytest.mark.parametrize("workers", [["-p", "no:xdist"], ["-n", "2"]])
def test_the_rule_survives_a_path_and_id_as_wide_as_the_terminal(corpus, workers):
    """With no terminal pytest cuts at 80 columns, and a scenario's path and id (about 75
    characters in the corpus) left no room for the message: the rule is in the word."""
    long = "a-bid-out-of-turn-refused-with-the-code-of-another-check"
    text = (corpus / "bidding.yaml").read_text().replace("id: harness.bidding",
                                                         f"id: harness.{long}")
    (corpus / "bidding.yaml").unlink()
    (corpus / f"{long}.yaml").write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rf", *workers,
         "--t42-adapter", inproc("WrongCode"), "scenarios"], capture_output=True, text=True,
        timeout=120, cwd=corpus.parent,
        env={**{k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")},
             "COLUMNS": "80"})
    summary = [line for line in done.stdout.splitlines() if line.startswith("FAILED ")
               and f"{long}.yaml::" in line]
    assert len(summary) == 1, done.stdout
    assert re.match(rf"FAILED [A-Z]+-\d+ scenarios/{long}\.yaml::", summary[0]), summary


def test_runs_under_xdist(corpus):
    done = pytest_run(corpus, "-q", "-n", "2", "-k", "not corrupt")
    assert done.returncode == 0 and "4 passed" in done.stdout


def test_select_by_id_with_k(corpus):
    done = pytest_run(corpus, "-q", "-k", "perft")
    assert done.returncode == 0 and "1 passed" in done.stdout


@pytest.mark.parametrize("workers", [["-p", "no:xdist"], ["-n", "2"]])
def test_fuzz_games_are_items_spread_by_xdist_with_junit(tmp_path, workers):
    junit = tmp_path / "fuzz.xml"
    done = pytest_run("--t42-fuzz", "6", *workers, f"--junitxml={junit}", "-q",
                      "--rootdir", tmp_path, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed" in done.stdout
    xml = junit.read_text()
    assert 'tests="6"' in xml and xml.count("<testcase ") == 6 and "fuzz[seed=5]" in xml
    assert 'classname="t42-fuzz" name="fuzz[seed=5]"' in xml  # no ".t42-fuzz"
    # each game's rounds, as a property; together the campaign's count
    rounds = [int(n) for n in re.findall(r'<property name="rounds" value="(\d+)"', xml)]
    total = re.search(r"^t42 fuzz: 6/6 games, ([\d,]+) rounds", done.stdout, re.M).group(1)
    assert len(rounds) == 6 and sum(rounds) == int(total.replace(",", "")) > 0, xml


def test_fuzz_items_save_each_cause_once_checked_and_sum_up_the_causes(tmp_path):
    saved = tmp_path / "found"
    done = pytest_run("--t42-fuzz", "12", "--t42-adapter",
                      "python:conformance.planted:must-follow-not-enforced",
                      "--t42-fuzz-save", saved,
                      "-n", "2", "-q", "--rootdir", tmp_path, tmp_path, ci=True)
    assert done.returncode == 1, done.stdout
    failed = int(re.search(r"(\d+) failed", done.stdout).group(1))
    assert "shrunk from" in done.stdout and failed >= 3
    # on CI pytest shows a failure's whole message in the summary: one line, its cause's rule
    assert len(re.findall(r"^FAILED .*fuzz\[seed=\d+\] - game seed \d+: .*\(PLAY-05\)"
                          r"( \(\+\d+ more causes\))?$", done.stdout, re.M)) == failed, \
        done.stdout
    files = sorted(saved.glob("*.yaml"))
    lines = re.findall(r"saved (\S+) \(reference passed, planted:must-follow-not-enforced "
                       r"failed\)", done.stdout)
    # one file per cause, whichever worker found it first; the other games name it
    assert sorted(set(lines)) == sorted(map(str, files)) and 1 <= len(files) < failed, \
        done.stdout
    assert all(f.read_text().startswith("# yaml-language-server") for f in files)
    assert "the same cause as" in done.stdout
    # the session ends with the causes, summed over the workers
    summed = re.findall(r"^t42 fuzz: new cause (\S+): .* \((\d+) games?\)$", done.stdout,
                        re.M)
    assert len(summed) == len(files) and summed[0][0] == "PLAY-05", done.stdout


def test_known_causes_in_pytest_pass_their_games(tmp_path):
    known = tmp_path / "known.txt"
    known.write_text("PLAY-05  # every cause of the plant's rule\nSUIT-01\nSUIT-02\n")
    done = pytest_run("--t42-fuzz", "6", "--t42-adapter",
                      "python:conformance.planted:must-follow-not-enforced",
                      "--t42-fuzz-known", known,
                      "-p", "no:xdist", "-q", "--rootdir", tmp_path, tmp_path)
    assert done.returncode == 0, done.stdout
    assert re.search(r"^t42 fuzz: known cause PLAY-05: .*\(\d+ games?\)$", done.stdout,
                     re.M), done.stdout
    assert re.search(r"6/6 games, .* diverged \(0 new causes, \d+ known\)$", done.stdout,
                     re.M), done.stdout


LOGGING_CONFTEST = """
ROLE = ["alone"]
def pytest_configure(config):
    if hasattr(config, "workerinput"):
        ROLE[0] = "worker"
    elif config.getoption("numprocesses", None):
        ROLE[0] = "controller"
def log(what):
    with open("phases.txt", "a") as out:
        out.write(ROLE[0] + " " + what + "\\n")
def pytest_runtest_logstart(nodeid):
    log("start " + nodeid)
def pytest_runtest_logreport(report):
    log(report.when + " " + report.nodeid)
def pytest_runtest_logfinish(nodeid):
    log("finish " + nodeid)
"""


@pytest.mark.parametrize("workers", [["-p", "no:xdist"], ["-n", "2"]])
def test_a_fuzz_game_is_an_ordinary_item_of_pytests_protocol(tmp_path, workers):
    """No copy of pytest-xdist's protocol: each game is started, set up, called, torn down
    and finished by pytest itself, in a worker, and the controller sees the same."""
    (tmp_path / "conftest.py").write_text(LOGGING_CONFTEST)
    done = pytest_run("--t42-fuzz", "4", *workers, "-q", "--rootdir", tmp_path, tmp_path,
                      cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    lines = (tmp_path / "phases.txt").read_text().splitlines()
    phases = ["start", "setup", "call", "teardown", "finish"]
    for role in ("worker", "controller") if workers[0] == "-n" else ("alone",):
        shown = [line.split(" ", 1)[1] for line in lines if line.startswith(role)]
        games = list(dict.fromkeys(line.split()[-1] for line in shown))
        assert len(games) == 4 and len(shown) == 20, (role, shown)
        for game in games:
            assert [line.split()[0] for line in shown if line.endswith(f" {game}")] == phases


def test_ctrl_c_still_stops_a_fuzz_campaign(tmp_path):
    (tmp_path / "conftest.py").write_text(
        "import conformance.fuzz.items as items\n"
        "def interrupted(*args, **kwargs):\n"
        "    raise KeyboardInterrupt\n"
        "items.play = interrupted\n")
    done = pytest_run("--t42-fuzz", "3", "-p", "no:xdist", "-q", "--rootdir", tmp_path,
                      tmp_path, cwd=tmp_path)
    assert done.returncode == 2 and "KeyboardInterrupt" in done.stdout, done.stdout
    assert "failed" not in done.stdout.splitlines()[-1]  # interrupted, not a failed game


def test_a_fuzz_campaign_ends_with_its_rounds_per_second_and_divergences(tmp_path):
    for extra in (["-p", "no:xdist"], ["-n", "2"]):
        done = pytest_run("--t42-fuzz", "8", "--t42-adapter",
                          "python:conformance.planted:must-follow-not-enforced", *extra, "-q",
                          "--rootdir", tmp_path, tmp_path)
        failed = int(re.search(r"(\d+) failed", done.stdout).group(1))
        line = re.search(r"^t42 fuzz: 8/8 games, ([\d,]+) rounds, [\d,]+ rounds/s, "
                         r"(\d+) diverged \(\d+ new causes?, 0 known\)$", done.stdout,
                         re.MULTILINE)
        assert line and int(line.group(2)) == failed and int(line.group(1)) >= 8, done.stdout


@pytest.mark.parametrize("option", ["--t42-timeout=0", "--t42-max-reply-bytes=0",
                                    "--t42-max-stderr-bytes=-1", "--t42-timeout=soon"])
def test_the_plugin_options_are_bounded_like_t42_runs(corpus, option):
    done = pytest_run(corpus, "-q", option)
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error
    name = option.split("=")[0]
    assert f"argument {name}:" in done.stderr
    assert ("not in the range" in done.stderr) != ("not a number" in done.stderr)
