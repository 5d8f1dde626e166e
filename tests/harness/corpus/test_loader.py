"""Loading scenario files: every problem reported as path:line: field: message."""

from pathlib import Path

import pytest
import yaml

from conformance.corpus.scenario import expand_contract, load_corpus, load_scenario
from conformance.specdata.index import load_index

from ..conftest import BAD, GOOD

MODELINE = "# yaml-language-server: $schema=" + str(
    Path(__file__).resolve().parents[3] / "spec/schemas/scenario.schema.json")
DEAL = """setup:
  dealer: D
  hands:
    A: ["5|5", "1|2", "0|0", "2|2", "1|3", "0|1", "1|1"]
    B: ["3|5", "1|6", "0|3", "4|5", "2|4", "3|3", "0|2"]
    C: ["0|5", "2|6", "4|4", "1|5", "3|4", "0|4", "2|5"]
    D: ["6|6", "2|3", "4|6", "0|6", "5|6", "1|4", "3|6"]
"""


def write(tmp_path: Path, body: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(MODELINE + "\n" + body)
    return path


def scenario_text(sid: str = "t.x", rules: str = "[BID-01]", steps: str = "steps: []\n") -> str:
    return f"id: {sid}\ntitle: T\ndescription: D\nrules: {rules}\n" + DEAL + steps


def problem_lines(loaded):
    return [(p.line, p.field, p.message) for p in loaded.problems]


@pytest.mark.parametrize("path", sorted(GOOD.glob("*.yaml")), ids=lambda p: p.stem)
def test_good_files_load(path):
    loaded = load_scenario(path)
    assert loaded.problems == [] and loaded.scenario is not None


def test_corrupt_file_reports_every_problem_with_line_and_field():
    found = problem_lines(load_scenario(BAD / "corrupt.yaml"))
    assert (5, "rules[1]", "unknown rule NOPE-99 (not in spec/rules.md nor variants.md)") in found
    assert (13, "setup.hands.D", "tile 5|5 also dealt to A") in found
    assert (9, "setup.hands", "tiles never dealt: 3|6") in found
    assert (16, "steps[0].reject", "unknown error code NO_SUCH_CODE (spec/errors.yaml)") in found
    assert any(line == 17 and fld == "steps[1].act.tile" and "7|7" in msg
               for line, fld, msg in found)
    assert (19, "steps[2].expect.view.tricks_wonn", "unknown field") in found
    assert [line for line, _, _ in found] == sorted(line for line, _, _ in found)


def test_problem_renders_as_path_line_field_message():
    problem = load_scenario(BAD / "corrupt.yaml").problems[0]
    assert str(problem).endswith("corrupt.yaml:5: rules[1]: unknown rule NOPE-99 "
                                 "(not in spec/rules.md nor variants.md)")


def test_duplicate_key_is_refused_with_both_lines():
    found = problem_lines(load_scenario(BAD / "duplicate-key.yaml"))
    assert found == [(4, "title", "duplicate key (first at line 3)")]


def test_invalid_yaml_and_missing_modeline():
    found = problem_lines(load_scenario(BAD / "not-yaml.yaml"))
    assert found[0][0] == 1 and "modeline" in found[0][2]
    assert found[1][0] == 2 and found[1][2].startswith("invalid YAML")


def test_modeline_must_resolve(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("# yaml-language-server: $schema=nowhere.json\n" + scenario_text())
    assert "does not resolve" in load_scenario(path).problems[0].message


def test_duplicate_ids_across_files(tmp_path):
    write(tmp_path, scenario_text("t.same"), "a.yaml")
    write(tmp_path, scenario_text("t.same"), "b.yaml")
    loaded = load_corpus([tmp_path])
    assert loaded[0].scenario is not None and loaded[1].scenario is None
    assert "already used by" in loaded[1].problems[0].message


def test_error_code_must_apply_to_the_kind_of_step(tmp_path):
    steps = "steps:\n  - act: {type: bid, seat: A, points: 30}\n    reject: MUST_FOLLOW\n"
    found = problem_lines(load_scenario(write(tmp_path, scenario_text(steps=steps))))
    assert found[0][1] == "steps[0].reject" and "never applies to a bid" in found[0][2]


def test_malformed_action_may_be_anything_only_when_expected(tmp_path):
    free = "steps:\n  - act: {type: play, seat: E, tile: 55}\n    reject: MALFORMED_ACTION\n"
    assert load_scenario(write(tmp_path, scenario_text(steps=free))).problems == []
    typo = "steps:\n  - act: {type: play, seat: E, tile: 55}\n    reject: NOT_YOUR_TURN\n"
    fields = [p.field for p in load_scenario(write(tmp_path, scenario_text(steps=typo))).problems]
    assert "steps[0].act.seat" in fields and "steps[0].act.tile" in fields


def test_steps_before_any_setup_are_refused(tmp_path):
    body = ("id: t.x\ntitle: T\ndescription: D\nrules: [BID-01]\n"
            "steps:\n  - act: {type: pass, seat: A}\n")
    found = problem_lines(load_scenario(write(tmp_path, body)))
    assert found[0][1] == "steps[0]" and "has not started" in found[0][2]


def test_variant_rule_needs_its_variant(tmp_path):
    rule = next((r for r in load_index().rules.values() if r.variant), None)
    if rule is None:
        pytest.skip("spec/variants.md has no rules yet")
    found = problem_lines(load_scenario(write(tmp_path, scenario_text(rules=f"[{rule.id}]"))))
    assert f"belongs to variant `{rule.variant}`" in found[0][2]


def test_contract_shortcut_expands_in_bidding_order():
    setup = yaml.safe_load(DEAL)["setup"]
    steps = expand_contract(setup, {"declarer": "B", "bid": {"marks": 2}, "trump": "none",
                                    "stacks": 1}, 9)
    assert [s.payload for s in steps] == [
        {"type": "pass", "seat": "A"},
        {"type": "bid", "seat": "B", "marks": 2},
        {"type": "pass", "seat": "C"},
        {"type": "pass", "seat": "D"},
        {"type": "trump", "seat": "B", "trump": "none", "stacks": 1},
    ]
    assert {s.label for s in steps} == {"setup.contract"} and {s.line for s in steps} == {9}


def test_scenario_variants_are_sent_with_the_setup(tmp_path):
    option = next(iter(load_index().variants), None)
    if option is None:
        pytest.skip("spec/variants.md has no options yet")
    body = scenario_text().replace("rules: [BID-01]\n",
                                   f"rules: [BID-01]\nvariants: {{{option}: true}}\n")
    loaded = load_scenario(write(tmp_path, body))
    assert loaded.problems == []
    assert loaded.scenario.steps[0].payload["variants"] == {option: True}


SETUP_STEP = """steps:
  - setup:
      dealer: D
{variants}      hands:
        A: ["5|5", "1|2", "0|0", "2|2", "1|3", "0|1", "1|1"]
        B: ["3|5", "1|6", "0|3", "4|5", "2|4", "3|3", "0|2"]
        C: ["0|5", "2|6", "4|4", "1|5", "3|4", "0|4", "2|5"]
        D: ["6|6", "2|3", "4|6", "0|6", "5|6", "1|4", "3|6"]
{reject}"""


def setup_step_scenario(scenario_variants: str, step_variants: str | None,
                        reject: bool = False) -> str:
    """A scenario without top-level setup whose one step is a setup."""
    given = f"      variants: {step_variants}\n" if step_variants is not None else ""
    steps = SETUP_STEP.format(variants=given,
                              reject="    reject: INVALID_SETUP\n" if reject else "")
    return (f"id: t.x\ntitle: T\ndescription: D\nrules: [VAR-01]\n"
            f"variants: {scenario_variants}\n" + steps)


def test_setup_step_variants_are_its_own_but_named_by_the_scenario(tmp_path):
    """SF-1 (scenario-format.md): a setup step may give other settings than the scenario,
    is sent as written, and every option it names must be in the scenario's `variants`."""
    own = load_scenario(write(tmp_path, setup_step_scenario(
        "{match_marks: {target: 10}}", "{match_marks: {target: 3}}")))
    assert own.problems == []
    assert own.scenario.steps[0].payload["variants"] == {"match_marks": {"target": 3}}
    for reject in (False, True):
        found = problem_lines(load_scenario(write(tmp_path, setup_step_scenario(
            "{match_marks: true}", "{match_marks: true, nello: true}", reject))))
        assert [(f, "'nello' is not in the scenario's `variants`" in m) for _, f, m in found] \
            == [("steps[0].setup.variants.nello", True)]
    unknown = load_scenario(write(tmp_path, setup_step_scenario("{}", "{nel_o: {}}", True)))
    assert unknown.problems == []  # an unknown option is the point of such a rejection


def test_accepted_setup_step_without_variants_in_a_variant_scenario(tmp_path):
    """Nothing is inherited: a step without `variants` would play the base game."""
    found = problem_lines(load_scenario(write(tmp_path, setup_step_scenario(
        "{nello: true}", None))))
    assert [f for _, f, _ in found] == ["steps[0].setup"]
    assert "base-game match" in found[0][2]
    base = load_scenario(write(tmp_path, setup_step_scenario("{nello: true}", "{}")))
    assert base.problems == [] and base.scenario.steps[0].payload["variants"] == {}
    rejected = load_scenario(write(tmp_path, setup_step_scenario("{nello: true}", None, True)))
    assert rejected.problems == []


def test_an_option_may_cite_the_rules_it_puts_in_force(tmp_path):
    """SF-3: plunge_terms puts PLUNGE-02 .. PLUNGE-06 in force (variants.md, PTERMS-02), so
    its scenarios cite them; PLUNGE-01 (plunge's own value) stays plunge's."""
    index = load_index()
    assert index.in_force["plunge_terms"] == tuple(f"PLUNGE-0{n}" for n in range(2, 7))

    def cited(rule: str, variants: str):
        body = scenario_text(rules=f"[{rule}]").replace(
            "setup:\n", f"variants: {variants}\nsetup:\n", 1)
        return problem_lines(load_scenario(write(tmp_path, body)))

    assert cited("PLUNGE-05", "{plunge_terms: true}") == []
    assert cited("PLUNGE-05", "{plunge: true}") == []
    assert "belongs to variant `plunge`" in cited("PLUNGE-01", "{plunge_terms: true}")[0][2]
    assert "belongs to variant `plunge`" in cited("PLUNGE-05", "{nello: true}")[0][2]
