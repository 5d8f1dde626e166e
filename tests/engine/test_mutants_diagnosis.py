"""tools/mutants_diagnosis.py scores a mutant's report and says, per function, which
rules its killed mutants were filed under that the function does not name."""

from tools.mutants_diagnosis import Mutant, by_function, judge, rules_named, summary


def _report(*groups: tuple[str, int]) -> dict:
    return {"totals": {"failed": sum(n for _, n in groups)},
            "groups": [{"rule": r, "count": n} for r, n in groups]}


def test_a_mutant_is_right_when_its_groups_name_the_rules_of_its_function():
    mutant = Mutant("reference_impl/rules.py", "trick_rank", 3, "Lt -> LtE", ("RANK-01",), 0)
    right = judge(mutant, _report(("RANK-01", 5)))
    assert (right["largest_right"], right["every_right"]) == (True, True)
    mixed = judge(mutant, _report(("RANK-01", 5), ("PTS-02", 1)))
    assert (mixed["largest_right"], mixed["every_right"]) == (True, False)
    assert judge(mutant, _report())["verdict"] == "survived"
    assert judge(mutant, None)["verdict"] == "no report"


def test_each_function_lists_the_rules_it_does_not_name_worst_first():
    rank = Mutant("r.py", "trick_rank", 3, "Lt -> LtE", ("RANK-01",), 0)
    team = Mutant("r.py", "team_of", 9, "1 -> 2", ("TBL-02",), 1)
    verdicts = [judge(rank, _report(("RANK-01", 5), ("PTS-02", 1))),
                judge(rank, _report(("PTS-02", 3), ("END-01", 1))),
                judge(team, _report(("TBL-02", 2), ("SCORE-02", 1))),
                judge(team, _report(("TBL-02", 2)))]
    lines = by_function(verdicts)
    assert lines[0].startswith("r.py:trick_rank: 2 of 2 killed name other rules: PTS-02 2, "
                               "END-01 1")
    assert lines[1].startswith("r.py:team_of: 1 of 2 killed name other rules: SCORE-02 1")
    assert "largest group names a rule the bug breaks for 3 (75%)" in summary(verdicts)


def test_a_range_of_rules_in_a_function_is_every_rule_in_it():
    import ast

    source = 'def f():\n    """PLAY-03..PLAY-05 and RANK-01."""\n'
    node = ast.parse(source).body[0]
    assert rules_named(source, node) == ("PLAY-03", "PLAY-05", "RANK-01", "PLAY-04")


def test_a_group_lists_the_rules_the_run_cannot_tell_from_its_own():
    """Counted apart: a group under END-04 that names END-05 beside it (`either`) lists
    the bug's rule, but its own rule is not the bug's."""
    mutant = Mutant("r.py", "contract_outcome", 1, "Lt -> LtE", ("END-05",), 0)
    report = {"totals": {"failed": 3},
              "groups": [{"rule": "END-04", "count": 3, "either": ["END-05"], "also": []}]}
    verdict = judge(mutant, report)
    assert (verdict["largest_right"], verdict["largest_listed"]) == (False, True)
    assert "counting the rules a group lists besides its own (`either`, `also`): largest 1 " \
        "(100%)" in summary([verdict])


def test_a_manifest_engine_runs_the_base_game_unless_asked_for_its_options(monkeypatch,
                                                                          tmp_path):
    import subprocess

    from tools import mutants_diagnosis

    commands = []
    monkeypatch.setattr(subprocess, "run", lambda command, **_: commands.append(command))
    bug = {"name": "b", "adapter": "python:x:Engine", "rules": ["PLAY-05"]}
    mutants_diagnosis.run_engine(bug, "rules", tmp_path, "")
    mutants_diagnosis.run_engine(bug, "rules", tmp_path, "", options=True)
    assert "--variant" in commands[0] and "--variant" not in commands[1]
