"""`t42 run` prints its verdict first when most scenarios fail for one protocol or form
mistake: the mistake, its fix, and `t42 doctor`, before the groups."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.report.text import verdict
from conformance.run.results import Detail, Outcome, Result

from ..conftest import faux_cmd

ROOT = Path(__file__).resolve().parents[3]
SOME = sorted(str(p) for p in (ROOT / "scenarios" / "bidding").glob("marks-*.yaml"))


@pytest.mark.parametrize(("faux", "mistake", "fix"), [
    ("camel_case", "view.toAct: unknown field; the field is to_act",
     "fix: name and type every field of a view and an observation as spec/schemas/ does"),
    ("garbage", "view: reply is not JSON: '<html>surprise</html>'",
     "fix: only replies go to stdout: write logs to stderr"),
])
def test_the_verdict_comes_first_and_names_the_fix(t42, faux, mistake, fix):
    code, out = t42("run", *SOME, "--adapter", faux_cmd(faux))
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(("VERDICT", "FAILED",
                                                                       "ERRORED")))
    assert lines[first].startswith(f"VERDICT: {len(SOME)} of {len(SOME)} scenarios fail for "
                                   "one protocol or form mistake"), out
    assert mistake in lines[first + 1] and lines[first + 2].strip().startswith(fix)
    assert f"then `t42 doctor --adapter '{faux_cmd(faux)}'`" in lines[first + 3]
    assert code == 1


def test_no_verdict_for_a_correct_engine_or_a_few_crashes(t42):
    for adapter in ("reference", faux_cmd("crashes")):
        code, out = t42("run", *SOME, "--adapter", adapter)
        assert "VERDICT" not in out, out


def _crashed(last: str) -> Result:
    detail = Detail("act: the implementation exited (code 1) without replying",
                    stderr=f"dealt by D\n{last}\n")
    return Result("s", "s.yaml", Outcome.ERRORED, detail=detail)


def test_a_crash_with_the_same_last_stderr_line_is_one_mistake():
    results = [_crashed("panicked at 'no trick', src/game.rs:12:5") for _ in range(3)]
    results.append(Result("p", "p.yaml", Outcome.PASSED))
    said = verdict(results, "cmd:./my42").splitlines()
    assert said[0].startswith("VERDICT: 3 of 4 scenarios")
    assert said[1].endswith("its stderr says: panicked at 'no trick', src/game.rs:12:5")
    assert said[2].startswith("  fix: a crash: fix what its stderr says")
    assert "`t42 doctor --adapter cmd:./my42`" in said[3]
    # each crash its own last line: no one mistake explains most scenarios
    assert verdict([_crashed(f"panicked at '{why}'") for why in ("a", "b", "c")]) == ""
    # half is not most
    assert verdict(results[1:] + [Result("q", "q.yaml", Outcome.PASSED)]) == ""
