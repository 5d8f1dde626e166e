"""`t42 new-adapter LANG DIR` writes a starting adapter that works as written."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess

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
def test_a_new_javascript_adapter_passes_doctor_as_printed(tmp_path):
    dest = tmp_path / "my42"
    code, out = _t42("new-adapter", "javascript", dest)
    assert code == 0, out
    assert (dest / "t42.d.ts").is_file() and not (dest / "tsconfig.json").exists()
    assert "devDependencies" not in (dest / "package.json").read_text()
    assert "allowScripts" not in (dest / "package.json").read_text()  # esbuild's: not here
    steps = [line.strip() for line in out.splitlines()[1:] if line.startswith("  ")]
    assert steps[0].startswith("t42 doctor --adapter ")
    # the run the copy's README gives: the 4 scenarios the example passes, said so; the
    # whole base game is doctor's next step once the author's engine is in its place
    assert steps[1].startswith("t42 run -k deal.order-dealer --variant base --adapter ")
    assert steps[1] in (dest / "README.md").read_text().replace('"', "'")
    assert out.splitlines()[-1].startswith("the example passes these 4 scenarios")
    code, out = _t42(*shlex.split(steps[0])[1:])
    assert code == 0, out
    assert "next, t42 run --level rules --variant base --adapter " in out
    code, out = _t42(*shlex.split(steps[1])[1:])
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out


def test_a_new_adapter_names_its_own_folder(tmp_path):
    for lang in ("typescript", "go", "rust"):
        dest = tmp_path / lang
        assert _t42("new-adapter", lang, dest)[0] == 0
        texts = [p.read_text() for p in [dest / "README.md", *dest.glob("example*/*")]]
        assert not [t for t in texts if f"kits/{lang}" in t], lang
        assert f"{dest.as_posix()}/" in texts[0], lang
        # no link into site-packages or a checkout, odd to commit: where the spec is, said
        assert "](/" not in texts[0] and "](../../spec/" not in texts[0], lang
        assert "`spec/protocol.md` (in the suite's `spec/` folder: `t42 run` names it in " \
               "its first line)" in texts[0], lang
    assert sorted(p.name for p in (tmp_path / "typescript" / "example").iterdir()) == ["adapter.ts"]
    # each node copy's README names only the files it has
    assert "example/adapter.js" not in (tmp_path / "typescript" / "README.md").read_text()
    dest = tmp_path / "javascript"
    assert _t42("new-adapter", "javascript", dest)[0] == 0
    readme = (dest / "README.md").read_text()
    assert "adapter.ts" not in readme and "npm run build" not in readme
    assert f'--variant base --adapter "cmd:node {dest.as_posix()}/example/adapter.js"' in readme


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_a_new_go_adapter_builds_and_passes_doctor(tmp_path):
    dest = tmp_path / "my42"
    code, out = _t42("new-adapter", "go", dest)
    assert code == 0, out
    adapter = build(dest, tmp_path / "adapter")
    code, out = _t42("doctor", "--adapter", f"cmd:{adapter}")
    assert code == 0, out


@needs_rust
def test_a_new_rust_adapter_builds_and_passes_doctor(tmp_path, target):
    dest = tmp_path / "my42"
    code, out = _t42("new-adapter", "rust", dest)
    assert code == 0, out
    assert (dest / ".cargo" / "config.toml").is_file() and (dest / "src" / "wire.rs").is_file()
    step = out.splitlines()[1].strip()
    assert step == f"(cd {dest} && cargo build --example adapter)"
    # where the user's own build puts it; the test builds into the session's shared target
    assert f"cmd:{dest / 'target' / 'debug' / 'examples' / 'adapter'}" in out
    adapter = cargo_build(dest, target)
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
    from tests.harness.cli.test_readme_commands import commands

    shown = [c for c in commands() if c.startswith(("t42 new-adapter", "t42 doctor"))
             and "python:my_adapter" not in c]  # that one: test_readme_commands.py
    assert [c.split()[1] for c in shown] == ["new-adapter", "doctor"]
    monkeypatch.chdir(tmp_path)  # the README's relative folder, made here
    for line in shown:
        code, out = _t42(*shlex.split(line)[1:])
        assert code == 0, f"{line}\n{out}"
    assert "no protocol or form mistake" in out


@pytest.mark.parametrize("lang", [
    pytest.param("go", marks=pytest.mark.skipif(shutil.which("go") is None,
                                                reason="go is not installed")),
    pytest.param("javascript", marks=pytest.mark.skipif(shutil.which("node") is None,
                                                        reason="node is not installed"))])
def test_a_copied_readme_runs_as_written_outside_the_checkout(tmp_path, monkeypatch, lang):
    """The copy's README, from a folder outside any checkout (as for an installed t42):
    each command of its sh block runs, and each of its links names a file that exists."""
    dest = tmp_path / "my42"
    assert _t42("new-adapter", lang, dest)[0] == 0
    readme = (dest / "README.md").read_text()
    links = [link for link in re.findall(r"\]\(([^)#]+)", readme) if "://" not in link]
    assert all((dest / link).exists() and not link.startswith(("/", "..")) for link in links)
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0",
           "GOCACHE": str(tmp_path / "gocache")}
    lines = [line for block in re.findall(r"```sh\n(.*?)```", readme, re.S)
             for line in block.splitlines()]
    assert [line for line in lines if line.startswith("t42 run")], readme
    for line in lines:
        if line.startswith("t42 "):
            code, out = _t42(*shlex.split(line)[1:])
        else:
            done = subprocess.run(line, shell=True, env=env, capture_output=True, text=True,
                                  timeout=120)
            code, out = done.returncode, done.stderr
        assert code == 0, f"{line}\n{out}"
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out
