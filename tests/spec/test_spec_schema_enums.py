"""spec/schemas/spec-enums.schema.json is generated from the spec, never stale, and makes
an editor (plain JSON Schema, no t42) flag the mistakes `t42 check` catches."""

import json
import subprocess
import sys
from pathlib import Path

import gen_schema_enums
import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SPEC = Path(__file__).resolve().parents[2] / "spec"
ROOT = SPEC.parent
EXAMPLE = ROOT / "scenarios" / "examples" / "doc000-trump-sixes-30-set-after-one-trick.yaml"


def test_the_enums_are_fresh():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_schema_enums.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_check_mode_fails_on_a_stale_file(tmp_path: Path):
    out = tmp_path / "enums.json"
    assert gen_schema_enums.main(["--check", "--out", str(out)]) == 1
    out.write_text("{}\n", encoding="utf-8")
    assert gen_schema_enums.main(["--check", "--out", str(out)]) == 1
    assert gen_schema_enums.main(["--out", str(out)]) == 0
    assert gen_schema_enums.main(["--check", "--out", str(out)]) == 0


def editor_validator() -> Draft202012Validator:
    """What an editor does with the modeline: the schema files, resolved by relative URI."""
    resources = [(p.name, Resource.from_contents(json.loads(p.read_text())))
                 for p in (SPEC / "schemas").glob("*.json")]
    schema = json.loads((SPEC / "schemas" / "scenario.schema.json").read_text())
    return Draft202012Validator(schema, registry=Registry().with_resources(resources))


def _example() -> dict:
    return yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))


def test_a_correct_scenario_is_valid_for_an_editor():
    assert list(editor_validator().iter_errors(_example())) == []


@pytest.mark.parametrize("spoil, where", [
    (lambda d: d["rules"].append("PLAY-99"), ["rules", 13]),
    (lambda d: d["steps"][1].update(reject="NOT_YOUR_TRUN"), ["steps", 1, "reject"]),
    (lambda d: d["steps"][8]["expect"]["view"].update(trick_won={}),
     ["steps", 8, "expect", "view"]),
    (lambda d: d["steps"][6]["expect"]["observe"].update(A={"hand_size": {}}),
     ["steps", 6, "expect", "observe", "A"]),
])
def test_an_editor_flags_spec_mistakes(spoil, where):
    doc = _example()
    spoil(doc)
    errors = list(editor_validator().iter_errors(doc))
    assert [list(e.absolute_path) for e in errors] == [where]


def test_the_lists_are_the_spec_index():
    from conformance.specdata.index import load_index

    index = load_index(SPEC)
    defs = gen_schema_enums.build(SPEC)["$defs"]
    live = {r.id for r in index.rules.values() if not r.withdrawn}
    assert set(defs["ruleId"]["enum"]) == live
    assert set(defs["errorCode"]["enum"]) == set(index.codes)
    view = json.loads((SPEC / "schemas" / "view.schema.json").read_text())
    assert defs["viewField"]["enum"] == list(view["properties"])
