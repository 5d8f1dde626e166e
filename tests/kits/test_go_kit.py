"""The Go kit (kits/go): its example adapter builds with the standard library only, passes
its scenarios, and `t42 doctor` names what a broken copy of it breaks."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli.main import main as t42

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "kits" / "go"
GO = shutil.which("go")
pytestmark = pytest.mark.skipif(GO is None, reason="go is not installed (apt-get install "
                                                   "golang-go): the Go kit cannot be built")


def build(kit: Path, out: Path) -> Path:
    """The example adapter, built offline (GOPROXY=off: the kit has no dependencies)."""
    env = {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0",
           "GOCACHE": str(out.parent / "gocache")}
    subprocess.run([GO, "build", "-o", str(out), "./example"], cwd=kit, env=env, check=True,
                   capture_output=True, text=True)
    return out


def _t42(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(t42, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_go_kit_passes_vet_and_gofmt():
    vet = subprocess.run([GO, "vet", "./..."], cwd=KIT, capture_output=True, text=True,
                         env={**os.environ, "GOPROXY": "off"})
    assert vet.returncode == 0, vet.stderr
    unformatted = subprocess.run(["gofmt", "-l", ".", str(WIRE_CHECK), str(FORMS_CHECK)],
                                 cwd=KIT, capture_output=True, text=True, check=True).stdout
    assert unformatted == ""


# every action form spec/actions.md shows, and the trumps it names but shows no example of
ACTIONS = [json.loads(text.replace("\\|", "|")) for text in sorted(set(re.findall(
    r'\{"type": "[a-z]+"[^}]*\}', (ROOT / "spec" / "actions.md").read_text())))] + [
    {"type": "trump", "seat": "A", "trump": "doubles", "stacks": 1},
    {"type": "trump", "seat": "A", "trump": "none"}]
HANDS = {"A": ["0|0", "0|1", "0|2", "0|3", "0|4", "0|5", "0|6"],
         "B": ["1|1", "1|2", "1|3", "1|4", "1|5", "1|6", "2|2"],
         "C": ["2|3", "2|4", "2|5", "2|6", "3|3", "3|4", "3|5"],
         "D": ["3|6", "4|4", "4|5", "4|6", "5|5", "5|6", "6|6"]}
SETUPS = [{"dealer": "D", "hands": HANDS, "marks": {"AC": 3, "BD": 0}, "variants": {"nello": True}}]
# what encoding/json alone lets through (it keeps the zero value), and Strict refuses
REFUSED = [("action", {"type": "pass"}, ".seat"),
           ("action", {"type": "pass", "seat": None}, ".seat"),
           ("action", {"type": "trump", "seat": "A", "trump": None}, ".trump"),
           ("action", {"type": "pass", "seat": "A", "x": 1}, 'unknown field "x"'),
           ("setup", {"dealer": "D", "hands": HANDS, "marks": {"AC": 3}}, ".marks.BD"),
           ("setup", {"dealer": "D", "hands": HANDS, "variants": None}, ".variants"),
           ("setup", {"dealer": "D", "hands": {**HANDS, "A": None}}, ".hands.A")]
WIRE_CHECK = ROOT / "tests" / "kits" / "go_wire"
FORMS_CHECK = ROOT / "tests" / "kits" / "go_forms"


def test_wire_types_read_and_write_every_form(tmp_path):
    """tests/kits/go_wire, a module using the kit by a replace: each action form and a
    setup read by Strict and written back as sent; what breaks the form refused; a view and
    an observation of a declared contract valid by the schemas."""
    from conformance.specdata.schemas import validator

    given = [("action", a) for a in ACTIONS] + [("setup", s) for s in SETUPS]
    lines = "".join(json.dumps({"as": kind, "json": value}) + "\n"
                    for kind, value in given + [(kind, value) for kind, value, _ in REFUSED])
    env = {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0",
           "GOCACHE": str(tmp_path / "gocache")}
    done = subprocess.run([GO, "run", "."], cwd=WIRE_CHECK, input=lines, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert out[:len(given)] == [value for _, value in given]
    refused = out[len(given):-2]
    for (kind, value, why), reply in zip(REFUSED, refused, strict=True):
        code = "MALFORMED_ACTION" if kind == "action" else "INVALID_SETUP"
        assert reply["refused"].startswith(f"{code}: ") and why in reply["refused"], value
    view, observation = out[-2:]
    assert view["contract"]["trump"] == 6 and view["bids"][0] == {"type": "bid", "seat": "B",
                                                                   "points": 30}
    assert list(validator("view.schema.json").iter_errors(view)) == []
    assert list(validator("observation.schema.json").iter_errors(observation)) == []


def test_check_action_agrees_with_the_reference_on_every_form(tmp_path):
    """tests/kits/go_forms: t42.CheckAction's verdict on each action of spec/actions.md,
    each broken every way, under the options that change the forms (read by t42.FormsOf
    from a setup's variants), is the reference engine's."""
    from tests.kits.action_forms import assert_agrees, cases, lines

    given = cases()
    env = {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0",
           "GOCACHE": str(tmp_path / "gocache")}
    done = subprocess.run([GO, "run", "."], cwd=FORMS_CHECK, env=env, capture_output=True,
                          input=lines(given),
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert_agrees(done.stdout.split(), given)


def test_example_passes_its_scenarios_and_doctor(tmp_path):
    adapter = build(KIT, tmp_path / "adapter")
    paths = sorted(str(p) for p in (ROOT / "scenarios" / "deal").glob("order-dealer-*.yaml"))
    code, out = _t42("run", *paths, "--adapter", f"cmd:{adapter}")
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert code == 0, out


@pytest.mark.parametrize(("old", "new", "said"), [
    ("Bids:  []t42.Action{}, ", "", "view.bids: wrong type: None is not of type 'array'"),
    ("\ttoAct := t42.NextSeat(e.dealer)\n\treturn t42.View{",
     "\ttoAct := t42.NextSeat(e.dealer)\n\tos.Stdout.WriteString(\"debug\\n\")\n"
     "\treturn t42.View{", "view: reply is not JSON: 'debug'"),
])
def test_doctor_names_what_a_broken_example_breaks(tmp_path, old, new, said):
    kit = tmp_path / "kit"
    shutil.copytree(KIT, kit)
    main = kit / "example" / "main.go"
    source = main.read_text()
    assert old in source
    source = source.replace(old, new, 1)
    if "os.Stdout" in new:
        source = source.replace('import (\n', 'import (\n\t"os"\n', 1)
    main.write_text(source)
    code, out = _t42("doctor", "--adapter", f"cmd:{build(kit, tmp_path / 'adapter')}")
    lines = [line for line in out.splitlines() if line.startswith("  ") and "note:" not in line]
    assert code == 1
    assert said in lines[0], out


def test_doctor_names_a_wrong_seq_in_a_broken_loop(tmp_path):
    kit = tmp_path / "kit"
    shutil.copytree(KIT, kit)
    loop = kit / "t42.go"
    old = 'reply := map[string]any{"seq": req.Seq, "ok": true'
    assert old in loop.read_text()
    loop.write_text(loop.read_text().replace(old, old.replace("req.Seq", "req.Seq + 1")))
    code, out = _t42("doctor", "--adapter", f"cmd:{build(kit, tmp_path / 'adapter')}")
    lines = [line for line in out.splitlines() if line.startswith("  ") and "note:" not in line]
    assert code == 1
    assert "hello: reply seq 2, expected 1; echo the request's seq" in lines[0], out


def test_an_engine_module_in_another_folder_builds_into_the_adapter(tmp_path):
    """The README's require and replace: the kit's example built around an engine module
    of another folder, one program that runs without it."""
    engine = tmp_path / "far" / "my42"
    engine.mkdir(parents=True)
    (engine / "go.mod").write_text("module my42\n\ngo 1.19\n")
    (engine / "my42.go").write_text('package my42\n\n// Name is the engine\'s.\n'
                                    'const Name = "far-engine-go"\n')
    kit = tmp_path / "kit"
    shutil.copytree(KIT, kit)
    readme = (KIT / "README.md").read_text()
    assert "`require my42 v0.0.0`" in readme and "`replace my42 => ../my42`" in readme
    with (kit / "go.mod").open("a") as mod:
        mod.write(f"\nrequire my42 v0.0.0\n\nreplace my42 => {engine}\n")
    main = kit / "example" / "main.go"
    source = main.read_text()
    old = 't42.Info{Name: "tiny-dealer-go",'
    assert old in source
    main.write_text(source.replace(old, "t42.Info{Name: my42.Name,").replace(
        't42 "t42kit"', 't42 "t42kit"\n\t"my42"', 1))
    adapter = build(kit, tmp_path / "adapter")
    shutil.rmtree(engine.parent)
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert out.startswith("t42 doctor: far-engine-go 0.1.0"), out
    assert code == 0, out


def test_a_partial_declaration_is_typed_and_sent_as_the_protocol_says(tmp_path):
    """Info.Variants of Option and OptionIn: the hello's variants, a name and an object."""
    kit = tmp_path / "kit"
    shutil.copytree(KIT, kit)
    main = kit / "example" / "main.go"
    source = main.read_text()
    old = 'Version: "0.1.0"}'
    assert old in source
    main.write_text(source.replace(old, 'Version: "0.1.0", Variants: []t42.Declared{\n'
                                        '\t\tt42.Option("nello"),\n\t\tt42.OptionIn("forced_bid", '
                                        'map[string][]any{"bid": {"any"}}),\n\t}}'))
    adapter = build(kit, tmp_path / "adapter")
    done = subprocess.run([str(adapter)], input='{"seq": 1, "cmd": "hello", "protocol": 1}\n',
                          capture_output=True, text=True, timeout=10)
    hello = json.loads(done.stdout.splitlines()[0])["result"]
    assert hello["variants"] == ["nello", {"name": "forced_bid", "settings": {"bid": ["any"]}}]
    assert "spec" not in hello  # Info.Spec left empty: no version named
