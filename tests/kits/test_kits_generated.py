"""The TypeScript/JavaScript kit (kits/typescript): its generated files are fresh, and its
example adapter runs under `t42 run` and `t42 doctor`."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli.main import main as t42

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "kits" / "typescript"
EXAMPLE = KIT / "example" / "adapter.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install "
                                                     "nodejs): the kit's example cannot run")


def _generate():
    spec = importlib.util.spec_from_file_location("kits_generate", ROOT / "kits" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# With the generators installed (`npm install` in kits/) the check regenerates the wire
# types of every kit; without them, it compares the schemas' digest each file records.
GENERATOR = pytest.mark.parametrize("installed", [
    pytest.param(True, marks=[pytest.mark.generators, pytest.mark.skipif(
        not (KIT.parent / "node_modules" / ".bin" / "quicktype").exists(),
        reason="the generators are not installed (npm ci in kits/)")]),
    False])


def _generator(installed: bool, monkeypatch):
    gen = _generate()
    if not installed:
        monkeypatch.setattr(gen, "JSON2TS", KIT / "no-such-generator")
        monkeypatch.setattr(gen, "QUICKTYPE", KIT / "no-such-generator")
    return gen


@GENERATOR
def test_generated_files_are_fresh(installed, monkeypatch, capsys):
    assert _generator(installed, monkeypatch).main(["--check"]) == 0, capsys.readouterr().out


@GENERATOR
def test_a_schema_change_makes_the_types_stale(installed, tmp_path, monkeypatch, capsys):
    gen = _generator(installed, monkeypatch)
    copy = tmp_path / "schemas"
    shutil.copytree(gen.SCHEMAS, copy)
    view = copy / "view.schema.json"
    schema = json.loads(view.read_text())
    schema["properties"]["x_new"] = {"type": "integer"}
    view.write_text(json.dumps(schema))
    monkeypatch.setattr(gen, "SCHEMAS", copy)
    assert gen.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "kits/typescript/wire.d.ts is stale" in out and "kits/go/wire.go is stale" in out
    assert "kits/rust/src/wire.rs is stale" in out


def test_error_constants_follow_the_check_order():
    from conformance.specdata.index import load_index

    text = (KIT / "errors.js").read_text()
    order = [line.split()[2] for line in text.splitlines() if line.startswith("export const")
             and "CHECK_ORDER" not in line]
    assert order == list(load_index(ROOT / "spec").order)


def test_rust_error_constants_follow_the_check_order():
    from conformance.specdata.index import load_index

    text = (KIT.parent / "rust" / "src" / "errors.rs").read_text()
    order = [line.split()[2].rstrip(":") for line in text.splitlines()
             if line.startswith("pub const") and "CHECK_ORDER" not in line]
    assert order == list(load_index(ROOT / "spec").order)


def _struct(text: str, name: str) -> str:
    return text.split(f"pub struct {name} {{", 1)[1].split("\n}", 1)[0]


def test_rust_option_fields_skip_none_only_where_the_schema_lets_them_be_absent():
    """quicktype writes `Option<T>` for both; generate.py adds the skip to the optional
    ones, so a pass is {"type", "seat"} and a view's to_act is null, never absent."""
    text = (KIT.parent / "rust" / "src" / "wire.rs").read_text()
    skip = '#[serde(skip_serializing_if = "Option::is_none")]\n    pub '
    action, view = _struct(text, "Action"), _struct(text, "View")
    assert skip + "points: Option<i64>" in action and skip + "tile: Option<Tile>" in action
    assert "pub to_act: Option<Seat>" in view and "skip_serializing" not in view
    assert "skip_serializing" not in _struct(text, "Observation")


def test_rust_post_processing_refuses_a_struct_it_does_not_know():
    gen = _generate()
    source = 'pub struct Odd {\n    pub x: Option<i64>,\n}\n'
    with pytest.raises(ValueError, match="struct Odd"):
        gen.optional_fields_skipped(source, {})
    out = gen.optional_fields_skipped(source, {"Odd": (set(), {"x"})})
    assert gen.SKIP_NONE + "\n    pub x" in out
    assert gen.optional_fields_skipped(source, {"Odd": ({"x"}, {"x"})}) == source


def test_go_names_say_what_each_type_and_constant_is():
    """No name of quicktype's making in wire.go: no Class, Union or Enum suffix, no
    underscore, no colour or "The" prefix it tells alike names apart by, no `Bd`; every
    enum constant starts with its type's name (but the seats and teams)."""
    text = (KIT.parent / "go" / "wire.go").read_text()
    types = re.findall(r"^type (\w+) ", text, re.M)
    assert "Setup" in types and "View" in types and "Declared" in types
    assert [t for t in types if re.search(r"Class$|Union$|Enum$|_", t)] == []
    names = re.findall(r"^\t(\w+)\s+(\w+) = \"", text, re.M)
    assert names, "no enum constant found"
    odd = [(name, enum) for name, enum in names
           if enum not in ("Seat", "Team") and not name.startswith(enum)]
    assert odd == []
    words = set(re.findall(r"\b[A-Z]\w*", re.sub(r'"[^"]*"|`[^`]*`|//.*', "", text)))
    assert not words & {"Bd", "Purple", "Fluffy", "Tentacled", "The00", "WireNello"}
    assert {"AC", "BD", "Tile05", "ActionTypePass", "CmdSetup"} <= words


def test_go_names_refuse_a_stale_table():
    gen = _generate()
    source = "package t42\n\ntype Odd struct {\n}\n"
    with pytest.raises(ValueError, match="update GO_TYPES"):
        gen.go_names(source)


def _t42(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(t42, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@needs_node
def test_example_passes_its_scenarios():
    paths = sorted(str(p) for p in (ROOT / "scenarios" / "deal").glob("order-dealer-*.yaml"))
    code, out = _t42("run", *paths, "--adapter", f"cmd:{NODE} {EXAMPLE}")
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out
    assert code == 0


@needs_node
def test_doctor_finds_no_mistake_in_the_example():
    code, out = _t42("doctor", "--adapter", f"cmd:{NODE} {EXAMPLE}")
    assert code == 0, out


@needs_node
@pytest.mark.parametrize(("old", "new", "said"), [
    ("to_act: nextSeat", "toAct: nextSeat",
     "view.toAct: unknown field; the view's field is to_act"),
    ("view() {\n", "view() {\n    process.stdout.write('debug\\n');\n",
     "view: reply is not JSON: 'debug'"),
    ("round: 1,", "round: '1',", "view.round: wrong type"),
])
def test_doctor_names_what_a_broken_example_breaks(tmp_path, old, new, said):
    source = EXAMPLE.read_text()
    assert old in source
    broken = tmp_path / "adapter.mjs"
    broken.write_text(source.replace(old, new, 1).replace('"../t42.js"',
                                                          json.dumps((KIT / "t42.js").as_uri())))
    code, out = _t42("doctor", "--adapter", f"cmd:{NODE} {broken}")
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("  ") and "note:" not in line]
    assert said in lines[0], out  # an observation built from the view may follow




@needs_node
def test_check_setup_refuses_one_team_of_marks_and_nulls():
    """SCORE-03 gives both teams' marks; VAR-01 refuses a `variants` of null (absent is
    the base game)."""
    hands = {"A": ["0|0", "0|1", "0|2", "0|3", "0|4", "0|5", "0|6"],
             "B": ["1|1", "1|2", "1|3", "1|4", "1|5", "1|6", "2|2"],
             "C": ["2|3", "2|4", "2|5", "2|6", "3|3", "3|4", "3|5"],
             "D": ["3|6", "4|4", "4|5", "4|6", "5|5", "5|6", "6|6"]}
    setups = [{}, {"marks": {"AC": 3, "BD": 1}}, {"marks": {"AC": 3}}, {"marks": None},
              {"variants": None}]
    script = ("import { checkSetup } from " + json.dumps((KIT / "t42.js").as_uri()) + ";\n"
              "for (const s of JSON.parse(process.argv[1])) {\n"
              "  try { checkSetup(s); console.log('ok'); } catch (e) { console.log(e.code); }\n"
              "}\n")
    setups = [{"dealer": "D", "hands": hands, **extra} for extra in setups]
    done = subprocess.run([NODE, "--input-type=module", "-e", script, json.dumps(setups)],
                          capture_output=True, text=True, check=True, timeout=30)
    assert done.stdout.split() == ["ok", "ok"] + ["INVALID_SETUP"] * 3


@needs_node
def test_check_action_agrees_with_the_reference_on_every_form():
    """checkAction's verdict on each action of spec/actions.md, each broken every way
    (a field dropped, added, of each JSON type), under the options that change the forms,
    is the reference engine's (MALFORMED_ACTION or well formed)."""
    from tests.kits.action_forms import assert_agrees, cases

    given = cases()
    script = ("import { checkAction } from " + json.dumps((KIT / "t42.js").as_uri()) + ";\n"
              "import { readFileSync } from 'node:fs';\n"
              "for (const [action, variants] of JSON.parse(readFileSync(0, 'utf8'))) {\n"
              "  try { checkAction(action, variants); console.log('ok'); }\n"
              "  catch (e) { console.log(e.code); }\n"
              "}\n")
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True,
                          input=json.dumps([[a, v] for a, v, _ in given]), text=True,
                          check=True, timeout=60)
    assert_agrees(done.stdout.split(), given)


@needs_node
def test_doctor_names_a_wrong_seq_in_a_broken_loop(tmp_path):
    kit = tmp_path / "kit"
    shutil.copytree(KIT, kit)
    loop = kit / "t42.js"
    old = "reply = { seq: req.seq, ok: true"
    assert old in loop.read_text()
    loop.write_text(loop.read_text().replace(old, old.replace("req.seq", "req.seq + 1")))
    code, out = _t42("doctor", "--adapter", f"cmd:{NODE} {kit / 'example' / 'adapter.js'}")
    lines = [line for line in out.splitlines() if line.startswith("  ") and "note:" not in line]
    assert code == 1
    assert "hello: reply seq 2, expected 1; echo the request's seq" in lines[0], out
