"""The Go kit (kits/go): its example adapter builds with the standard library only, passes
its scenarios, and `t42 doctor` names what a broken copy of it breaks."""

from __future__ import annotations

import os
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
    unformatted = subprocess.run(["gofmt", "-l", "t42.go", "errors.go", "example"], cwd=KIT,
                                 capture_output=True, text=True).stdout
    assert unformatted == ""


def test_example_passes_its_scenarios_and_doctor(tmp_path):
    adapter = build(KIT, tmp_path / "adapter")
    paths = sorted(str(p) for p in (ROOT / "scenarios" / "deal").glob("order-dealer-*.yaml"))
    code, out = _t42("run", *paths, "--adapter", f"cmd:{adapter}")
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert code == 0, out


@pytest.mark.parametrize(("old", "new", "said"), [
    ("Bids:  []t42.Action{}, ", "", "view.bids: wrong type: None is not of type 'array'"),
    ("\ttoAct := t42.NextSeat(e.dealer)\n\treturn t42.ViewClass{",
     "\ttoAct := t42.NextSeat(e.dealer)\n\tos.Stdout.WriteString(\"debug\\n\")\n"
     "\treturn t42.ViewClass{", "view: reply is not JSON: 'debug'"),
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
