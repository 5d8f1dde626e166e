"""The Rust kit (kits/rust): its example adapter builds offline with Debian's packaged
crates (serde, serde_json), passes its scenarios, and `t42 doctor` names what a broken
copy of it breaks."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli.main import main as t42

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "kits" / "rust"
CARGO = shutil.which("cargo")
REGISTRY = Path("/usr/share/cargo/registry")
pytestmark = pytest.mark.skipif(
    CARGO is None or not any(REGISTRY.glob("serde_json-*")),
    reason="cargo or Debian's crates are not installed (apt-get install rustc cargo "
           "librust-serde-dev librust-serde-derive-dev librust-serde-json-dev)")


def build(kit: Path, target: Path, example: str = "adapter") -> Path:
    """An example of the kit at `kit`, built offline (.cargo/config.toml: the Debian
    registry) into the shared `target` and copied beside the kit: each copy of the kit
    builds the same binary name, so one build and its copy at a time (a lock)."""
    target.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    with open(target.parent / f"{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        done = subprocess.run([CARGO, "build", "--offline", "--quiet", "--example", example],
                              cwd=kit, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return Path(shutil.copy2(target / "debug" / "examples" / example,
                                 kit / f"{example}.bin"))


def copy(dest: Path) -> Path:
    shutil.copytree(KIT, dest, ignore=shutil.ignore_patterns("target", "Cargo.lock"))
    return dest


def _t42(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(t42, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_example_passes_its_scenarios_and_doctor(tmp_path, target):
    adapter = build(copy(tmp_path / "kit"), target)
    paths = sorted(str(p) for p in (ROOT / "scenarios" / "deal").glob("order-dealer-*.yaml"))
    code, out = _t42("run", *paths, "--adapter", f"cmd:{adapter}")
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert code == 0, out


def _replies(adapter: Path, *requests: dict) -> list[dict]:
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([str(adapter)], input=lines, capture_output=True, text=True,
                          timeout=10)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_strict_refuses_what_serde_would_let_through(tmp_path, target):
    """An unknown field and a null where a value is due: serde alone reads both."""
    adapter = build(copy(tmp_path / "kit"), target)
    hands = {"A": ["0|0", "0|1", "0|2", "0|3", "0|4", "0|5", "0|6"],
             "B": ["1|1", "1|2", "1|3", "1|4", "1|5", "1|6", "2|2"],
             "C": ["2|3", "2|4", "2|5", "2|6", "3|3", "3|4", "3|5"],
             "D": ["3|6", "4|4", "4|5", "4|6", "5|5", "5|6", "6|6"]}
    setups = [{"dealer": "D", "hands": hands}, {"dealer": "D", "hands": hands, "x": 1},
              {"dealer": "D", "hands": hands, "marks": None}, {"dealer": "E", "hands": hands},
              {"dealer": "D", "hands": hands, "marks": {"AC": 3}},  # SCORE-03: both teams
              {"dealer": "D", "hands": hands, "variants": None}]  # VAR-01
    replies = _replies(adapter, *({"seq": i, "cmd": "setup", "setup": s}
                                  for i, s in enumerate(setups, 1)))
    assert [r["seq"] for r in replies] == [1, 2, 3, 4, 5, 6]
    assert replies[0] == {"seq": 1, "ok": True, "result": None}
    assert [r["error"]["code"] for r in replies[1:]] == ["INVALID_SETUP"] * 5
    assert ".x" in replies[1]["error"]["message"]


FORMS = ROOT / "tests" / "kits" / "rust_forms" / "forms.rs"


def test_check_action_agrees_with_the_reference_on_every_form(tmp_path, target):
    """tests/kits/rust_forms/forms.rs, an example in a copy of the kit: check_action's
    verdict on each action of spec/actions.md, each broken every way, under the options
    that change the forms (read by forms_of from a setup's variants), is the reference
    engine's."""
    from tests.kits.action_forms import assert_agrees, cases, lines

    kit = copy(tmp_path / "kit")
    shutil.copy(FORMS, kit / "examples" / "forms.rs")
    forms = build(kit, target, "forms")
    given = cases()
    done = subprocess.run([str(forms)], capture_output=True,
                          input=lines(given),
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert_agrees(done.stdout.split(), given)


def test_an_engine_crate_in_another_folder_builds_into_the_adapter(tmp_path, target):
    """The README's path dependency: the kit's example built around an engine crate of
    another folder, one program that runs without it."""
    engine = tmp_path / "far" / "my42"
    (engine / "src").mkdir(parents=True)
    (engine / "Cargo.toml").write_text('[package]\nname = "my42"\nversion = "0.1.0"\n'
                                       'edition = "2021"\n')
    (engine / "src" / "lib.rs").write_text('/// The engine\'s name.\n'
                                           'pub const NAME: &str = "far-engine-rust";\n')
    readme = (KIT / "README.md").read_text()
    assert '`my42 = { path = "../my42" }`' in readme
    kit = copy(tmp_path / "kit")
    with (kit / "Cargo.toml").open("a") as manifest:
        manifest.write(f'my42 = {{ path = "{engine}" }}\n')  # [dependencies] is last
    example = kit / "examples" / "adapter.rs"
    source = example.read_text()
    old = 'name: "tiny-dealer-rust".into(),'
    assert old in source
    example.write_text(source.replace(old, "name: my42::NAME.into(),"))
    adapter = build(kit, target)
    shutil.rmtree(engine.parent)
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert out.startswith("t42 doctor: far-engine-rust 0.1.0"), out
    assert code == 0, out


# One mistake each, in a copy of the kit: the field name in the generated types, a log
# line on stdout in the example, a wrong seq in the loop.
@pytest.mark.parametrize(("file", "old", "new", "said"), [
    ("src/wire.rs", "    pub to_act: Option<Seat>,\n\n    pub trick: Vec<TrickElement>,\n\n"
                    "    pub tricks: Vec<Trick>,",
     "    #[serde(rename = \"toAct\")]\n    pub to_act: Option<Seat>,\n\n"
     "    pub trick: Vec<TrickElement>,\n\n    pub tricks: Vec<Trick>,",
     "view.toAct: unknown field; the view's field is to_act"),
    ("examples/adapter.rs", "let (dealer, hands) = self.dealt()?;\n        Ok(View {",
     "let (dealer, hands) = self.dealt()?;\n        println!(\"debug\");\n        Ok(View {",
     "view: reply is not JSON: 'debug'"),
    ("src/lib.rs", "seq: request.seq,\n                ok: true,",
     "seq: request.seq + 1,\n                ok: true,",
     "hello: reply seq 2, expected 1; echo the request's seq in its reply"),
])
def test_doctor_names_what_a_broken_copy_breaks(tmp_path, target, file, old, new, said):
    kit = copy(tmp_path / "kit")
    source = (kit / file).read_text()
    assert source.count(old) == 1
    (kit / file).write_text(source.replace(old, new))
    code, out = _t42("doctor", "--adapter", f"cmd:{build(kit, target)}")
    lines = [line for line in out.splitlines() if line.startswith("  ") and "note:" not in line]
    assert code == 1
    assert said in lines[0], out
