"""The README's commands work as written: the in-process and JSON-lines examples from
their own folder (a stand-in `my42` engine over the reference), and every `t42 run` and
`pytest` line of the `sh` blocks of the README and the guides it sends readers to
(docs/running.md, docs/fuzzing.md) from the checkout. The README keeps to its stated size
and its relative links resolve."""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
README = (ROOT / "README.md").read_text(encoding="utf-8")
GUIDES = ("README.md", "docs/running.md", "docs/fuzzing.md",  # whose commands are run
          "docs/commands.md")
README_MAX_BYTES = 12 * 1024  # the README is a guide read top-down; figures go to docs/
BIN = Path(sys.executable).parent
SUMMARY = re.compile(r"^\d+ passed, \d+ failed, \d+ errored, \d+ skipped, \d+ not judged "
                     r"at level (rules|codes|strict)$")

# A stand-in for "your engine": the names the README's examples call.
MY42 = '''
import reference_impl

IllegalMove = reference_impl.IllegalAction


class Game:
    def __init__(self, match):
        self.match = match

    @classmethod
    def from_setup(cls, setup):
        return cls(reference_impl.Match.start(setup))

    def deal(self, deal):
        self.match.deal(deal)

    def apply(self, action):
        self.match.apply(action)

    def referee_view(self):
        return self.match.view()

    def observation(self, seat):
        return self.match.observe(seat)

    def legal_actions(self):
        return self.match.legal_actions()
'''


def blocks(language: str, pages: tuple[str, ...] = ("README.md",)) -> list[str]:
    text = "\n".join((ROOT / page).read_text(encoding="utf-8") for page in pages)
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def commands() -> list[str]:
    """Every command of the guides' sh blocks, once, in order."""
    lines = [line.split("  #")[0].strip() for block in blocks("sh", GUIDES) for line in
             block.splitlines()]
    return list(dict.fromkeys(line for line in lines if line))


def run(line: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(shlex.split(line), cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.fixture
def engine_folder(tmp_path: Path) -> Path:
    """The README's two example files beside the stand-in engine."""
    (tmp_path / "my42.py").write_text(MY42)
    adapter = next(b for b in blocks("python") if b.startswith("# my_adapter.py"))
    (tmp_path / "my_adapter.py").write_text(adapter)
    server = next(b for b in blocks("python") if b.startswith("#!/usr/bin/env python3"))
    path = tmp_path / "my42-server"
    path.write_text(server)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return tmp_path


def last_line(done: subprocess.CompletedProcess) -> str:
    return done.stdout.rstrip().splitlines()[-1]


@pytest.mark.parametrize("line", [c for c in commands() if "python:my_adapter:My42Adapter" in c
                                  and c.startswith("t42 run")])
def test_the_in_process_example_runs_from_its_own_folder(engine_folder, line):
    done = run(line, engine_folder)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert SUMMARY.match(last_line(done)) and "against my42 0.3.0" in done.stdout


def test_the_quick_starts_doctor_passes_the_in_process_example(engine_folder):
    """The quick start's first command for an engine: doctor on the README's adapter,
    which declares no option and the capability legal only."""
    line = next(c for c in commands() if c.startswith("t42 doctor")
                and "python:my_adapter:My42Adapter" in c)
    done = run(line, engine_folder)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.startswith("t42 doctor: my42 0.3.0")
    assert last_line(done).startswith("no protocol or form mistake: next, t42 run --level "
                                      "rules --variant base"), done.stdout


def test_the_quick_start_puts_the_engine_authors_steps_before_the_projects_tests_detail():
    """An engine author reads doctor, the first run and the CI line in the quick start,
    and is told the project's own tests are not for them."""
    quick = README[README.index("## Quick start"):README.index("## Testing your engine")]
    lines = [c for block in re.findall(r"```sh\n(.*?)```", quick, re.S)
             for c in (line.split("  #")[0].strip() for line in block.splitlines())]
    assert lines[1] == "pip install '.[test]' && pytest -n auto"
    assert [c.split()[:2] for c in lines[2:]] == [["t42", "doctor"], ["t42", "run"],
                                                  ["pytest", "--t42-adapter"]]
    assert "only for working on this project" in " ".join(quick.split())
    assert "--junitxml=" in lines[-1] and "--level rules --variant base" in lines[3]


def test_the_ci_line_needs_only_the_light_pytest_extra():
    """`-n auto` needs pytest-xdist, which `pip install .` lacks: the quick start installs
    the `[pytest]` extra (pytest and pytest-xdist, none of this project's tools), and the
    README says how an engine's CI installs it, and at which level the line judges."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    names = [re.split(r"[<>=\[ ]", req)[0] for req in extras["pytest"]]
    assert names == ["pytest", "pytest-xdist"]
    quick = README[README.index("## Quick start"):README.index("## Testing your engine")]
    first = re.findall(r"```sh\n(.*?)```", quick, re.S)[0].splitlines()[0]
    assert first.startswith("pip install '.[pytest]' && t42 run"), first
    ci = " ".join(README[README.index("In CI, "):].split())
    assert "pip install './texas42[pytest]'" in ci and "[pytest] @ git+https://" in ci
    assert "`--t42-level rules`" in ci[:600]
    beside = next(line for line in quick.splitlines() if line.startswith("pytest --t42-adapter"))
    assert "strict" in beside.split("  #", 1)[1]  # the level it judges at, said by the line


def engines_ci_command() -> str:
    """The README's pytest line for an engine's own CI, as a subprocess command."""
    line = next(c for c in commands() if c.startswith("pytest --t42-adapter python:my_adapter"))
    assert "--junitxml=" in line and "scenarios" not in line
    return line.replace("pytest", f"{sys.executable} -m pytest -p no:cacheprovider", 1)


def test_the_engines_ci_command_runs_the_installed_corpus_outside_the_checkout(engine_folder):
    """No scenario path: the suite's own corpus is collected beside the project's tests,
    one JUnit test per scenario (`-k bidding` keeps it to a tenth of the time)."""
    (engine_folder / "tests").mkdir()
    (engine_folder / "tests" / "test_own.py").write_text("def test_own():\n    pass\n")
    done = run(engines_ci_command() + " -k bidding", engine_folder)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    junit = next(engine_folder.glob("*.xml")).read_text(encoding="utf-8")
    assert junit.count("<testcase") >= 40 and 'name="bidding.' in junit, junit[:2000]
    assert SUMMARY.match(done.stdout.rstrip().splitlines()[-2]), done.stdout[-500:]


def test_the_engines_ci_command_fails_when_it_runs_no_scenario(engine_folder):
    """Every scenario deselected: the project's own test passes, the session does not."""
    (engine_folder / "tests").mkdir()
    (engine_folder / "tests" / "test_own.py").write_text("def test_own():\n    pass\n")
    done = run(engines_ci_command() + " -k test_own", engine_folder)
    assert done.returncode == 5, done.stdout[-2000:]
    said = [line for line in done.stdout.splitlines() if "ran no scenario" in line]
    assert said == ["t42: --t42-adapter python:my_adapter:My42Adapter ran no scenario: none "
                    "was collected or all were deselected, so nothing was checked"]


def test_the_json_lines_example_runs_from_its_own_folder(engine_folder):
    line = next(c for c in commands() if "cmd:./my42-server" in c and c.startswith("t42"))
    done = run(line, engine_folder)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert SUMMARY.match(last_line(done))


def test_the_planted_example_shows_one_cause_as_one_group():
    line = next(c for c in commands() if "planted:leader-rotates" in c)
    done = run(line, ROOT)
    head = "FAILED PLAY-03: view.to_act differs after a play (57 times in 57 scenarios"
    assert done.returncode == 1 and done.stdout.count("\nFAILED ") == 1 and head in done.stdout
    shown = README[README.index(head):]
    for expected in shown.splitlines()[:10]:
        assert expected.split("...")[0] in done.stdout  # the README shows real output
    assert last_line(done) == "205 passed, 57 failed, 0 errored, 0 skipped, 0 not judged at " \
        "level rules"
    # the cause again above the summary, once the tables have scrolled its block away
    assert done.stdout.splitlines()[-3] == \
        "failed: 1 cause: PLAY-03 in 57 scenarios (its FAILED block above)"


def test_the_engine_authors_first_command_is_in_the_quick_path():
    first = [c for c in commands() if "--level rules" in c and "--variant base" in c]
    assert first and "python:my_adapter:My42Adapter" in first[0]
    assert README.index(first[0]) < README.index("### In process")


def test_the_readme_states_the_current_versions():
    from conformance.specdata.versions import versions

    v = versions()
    assert f"spec {v['spec']}, suite {v['suite']}, protocol {v['protocol']}" in README


def test_the_readme_keeps_to_its_size():
    size = len(README.encode("utf-8"))
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes, over {README_MAX_BYTES}: " \
        "move reference material to docs/ and figures to docs/measurements.md"


@pytest.mark.parametrize("page", GUIDES + ("docs/measurements.md",))
def test_every_relative_link_resolves(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    assert targets or page == "docs/measurements.md", page  # the check sees links
    broken = []
    for target in targets:
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # an absolute URL or an anchor of the page itself
        path = (ROOT / page).parent / target.split("#")[0]
        if not path.exists():
            broken.append(target)
    assert not broken, f"{page}: broken links {broken}"


@pytest.mark.parametrize("line", [c for c in commands() if c.startswith("pytest scenarios/")
                                  and "my42-server" not in c and "report-html" not in c])
def test_the_pytest_commands_run(line):
    if "-k" not in line:
        line += " -k bidding"  # the same plugin path, a tenth of the time
    done = run(line.replace("pytest", f"{sys.executable} -m pytest -p no:cacheprovider", 1),
               ROOT)
    assert done.returncode == 0, done.stdout[-2000:]


# The stand-in engine with one rule broken (PTS-01: a trick is worth 1 round point more
# than its counters; this one forgets that point in the views it shows), so that the
# README's fuzzing commands have something to find, shrink, save and check.
BROKEN_VIEWS = '''

def _forget_trick_point(view):
    if isinstance(view.get("points"), dict) and view.get("tricks"):
        for trick in view["tricks"]:
            if trick.get("points") is not None:
                trick["points"] -= 1
        counts = {"AC": 0, "BD": 0}
        for trick in view["tricks"]:
            if trick.get("points") is not None:
                counts[trick["team"]] += trick["points"]
        view["points"] = counts
    return view


Game.referee_view = lambda self: _forget_trick_point(self.match.view())
'''


def scaled(line: str) -> str:
    """A README campaign at test size: the same command with fewer games."""
    return re.sub(r"--games \d+", "--games 3", re.sub(r"--t42-fuzz \d+", "--t42-fuzz 4", line))


def test_the_fuzzing_commands_find_save_and_check_a_divergence(engine_folder):
    """`t42 fuzz ... --save found/`, then the three commands the README runs on found/,
    against an engine that breaks PTS-01 in its referee view."""
    (engine_folder / "my42.py").write_text(MY42 + BROKEN_VIEWS)
    fuzz, check, run_yours, run_reference = [
        c for c in commands() if c.startswith(("t42 check found", "t42 run found"))
        or (c.startswith("t42 fuzz") and "--save found/" in c)]
    found = run(scaled(fuzz), engine_folder)
    assert found.returncode == 1, found.stdout[-2000:] + found.stderr[-2000:]
    saved = sorted((engine_folder / "found").glob("*.yaml"))
    assert saved, found.stdout[-2000:]
    assert run(check, engine_folder).returncode == 0
    yours = run(run_yours, engine_folder)
    assert yours.returncode == 1 and SUMMARY.match(last_line(yours)), yours.stdout[-2000:]
    reference = run(run_reference, engine_folder)
    assert reference.returncode == 0, reference.stdout[-2000:]
    assert last_line(reference).startswith(f"{len(saved)} passed, 0 failed")


def test_the_first_campaign_judges_at_the_first_runs_level():
    """`t42 fuzz` judges at strict by default while the README's first run is at rules:
    fuzzing.md says so, and its first campaign takes `--level rules`."""
    fuzz = next(c for c in commands() if c.startswith("t42 fuzz") and "--save found/" in c)
    assert "--level rules" in fuzz
    text = " ".join((ROOT / "docs" / "fuzzing.md").read_text(encoding="utf-8").split())
    assert "It judges at `strict` by default" in text and "fix it first" in text


def test_the_pytest_fuzz_campaign_writes_junit(engine_folder):
    (engine_folder / "my42.py").write_text(MY42 + BROKEN_VIEWS)
    line = next(c for c in commands() if "--t42-fuzz" in c)
    done = run(scaled(line).replace("pytest", f"{sys.executable} -m pytest", 1),
               engine_folder)
    assert done.returncode == 1, done.stdout[-2000:]  # the broken engine diverges
    junit = (engine_folder / "fuzz.xml").read_text(encoding="utf-8")
    assert 'tests="4"' in junit and "<failure" in junit


def test_the_pytest_command_with_a_json_lines_engine(engine_folder):
    (engine_folder / "scenarios").symlink_to(ROOT / "scenarios")
    line = next(c for c in commands() if c.startswith("pytest scenarios/")
                and "my42-server" in c)
    done = run(line.replace("pytest", f"{sys.executable} -m pytest -p no:cacheprovider", 1)
               + " -k bidding", engine_folder)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "<testsuite" in (engine_folder / "junit.xml").read_text(encoding="utf-8")


def test_the_book_and_html_report_commands_write_their_sites(tmp_path):
    book = next(c for c in commands() if c.startswith("t42 book"))
    done = run(book, tmp_path)
    assert done.returncode == 0 and (tmp_path / "book" / "index.html").exists(), done.stdout
    line = next(c for c in commands() if "--t42-report-html" in c)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    done = run(line.replace("pytest", f"{sys.executable} -m pytest -p no:cacheprovider", 1)
               + " -k first-trick", tmp_path)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "report" / "index.html").exists()


def test_the_fuzzing_commands_of_planted_engines_find_their_bugs(tmp_path):
    """`t42 fuzz --adapter python:conformance.planted:...` and the same behind
    `t42 serve --adapter`."""
    planted = [c for c in commands() if c.startswith("t42 fuzz") and "planted:" in c]
    assert len(planted) == 2 and any("cmd:t42 serve --adapter" in c for c in planted)
    for line in planted:
        done = run(line.replace("--games 50", "--games 10"), tmp_path)
        assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
        assert re.search(r"\b[1-9]\d* diverged, 0 errored", done.stdout), done.stdout[-2000:]


def test_every_command_of_the_readme_is_run_by_a_test():
    """A new command in the README needs a test here (or in the named test file)."""
    covered = ("pip install", "t42 book", "t42 run", "t42 check found", "t42 fuzz",
               "pytest scenarios/", "pytest -p no:cacheprovider --t42-fuzz",
               "pytest --t42-adapter python:my_adapter",
               "t42 doctor --adapter python:my_adapter",
               # these two: tests/kits/test_new_adapter.py
               "t42 new-adapter", 't42 doctor --adapter "cmd:node')
    assert [c for c in commands() if not c.startswith(covered)] == []
