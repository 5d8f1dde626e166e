"""`t42 new-adapter LANG DIR` writes a starting adapter that works as written."""

from __future__ import annotations

import shlex
import shutil

import pytest
from click.testing import CliRunner

from conformance.cli.main import main as t42

from .test_go_kit import build
from .test_rust_kit import build as cargo_build
from .test_rust_kit import pytestmark as needs_rust


def _t42(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(t42, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_new_typescript_adapter_passes_doctor(tmp_path):
    dest = tmp_path / "my42"
    code, out = _t42("new-adapter", "typescript", dest)
    assert code == 0, out
    assert (dest / "package.json").is_file() and (dest / "wire.d.ts").is_file()
    doctor = out.splitlines()[1].strip()  # the first next step, as printed
    assert doctor.startswith("t42 doctor --adapter ")
    code, out = _t42("doctor", "--adapter", f"cmd:node {dest / 'example' / 'adapter.js'}")
    assert code == 0, out


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_a_new_go_adapter_builds_and_passes_doctor(tmp_path):
    dest = tmp_path / "my42"
    code, out = _t42("new-adapter", "go", dest)
    assert code == 0, out
    adapter = build(dest, tmp_path / "adapter")
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert code == 0, out


@needs_rust
def test_a_new_rust_adapter_builds_and_passes_doctor(tmp_path):
    dest = tmp_path / "my42"
    code, out = _t42("new-adapter", "rust", dest)
    assert code == 0, out
    assert (dest / ".cargo" / "config.toml").is_file() and (dest / "src" / "wire.rs").is_file()
    step = out.splitlines()[1].strip()
    assert step == f"(cd {dest} && cargo build --example adapter)"
    adapter = cargo_build(dest, dest / "target")
    assert f"cmd:{adapter}" in out
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert code == 0, out


def test_new_adapter_writes_nothing_into_a_folder_in_use(tmp_path):
    (tmp_path / "mine.txt").write_text("keep")
    code, out = _t42("new-adapter", "go", tmp_path)
    assert code == 1
    assert "not an empty folder: nothing written" in out
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_readme_kit_commands_run_as_written(tmp_path, monkeypatch):
    from tests.harness.test_readme_commands import commands

    shown = [c for c in commands() if c.startswith(("t42 new-adapter", "t42 doctor"))]
    assert [c.split()[1] for c in shown] == ["new-adapter", "doctor"]
    monkeypatch.chdir(tmp_path)  # the README's relative folder, made here
    for line in shown:
        code, out = _t42(*shlex.split(line)[1:])
        assert code == 0, f"{line}\n{out}"
    assert "no protocol or form mistake" in out
