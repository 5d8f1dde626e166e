"""The node kit in TypeScript: `t42 new-adapter typescript` writes an adapter that compiles
with tsc under `strict` (typescript from the kit's devDependencies, by `npm ci`), passes
its scenarios and doctor, and whose types catch a view of the wrong form."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conformance.cli.main import main as t42

ROOT = Path(__file__).resolve().parents[2]
NODE, NPM = shutil.which("node"), shutil.which("npm")
pytestmark = pytest.mark.skipif(NODE is None or NPM is None, reason="node or npm is not "
                                "installed (apt-get install nodejs npm): no TypeScript build")
OFFLINE = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ENETUNREACH", "offline")


def _t42(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(t42, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def _npm(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([NPM, *args], cwd=folder, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A new TypeScript adapter, its devDependencies installed and compiled: its folder."""
    dest = tmp_path_factory.mktemp("ts") / "my42"
    code, out = _t42("new-adapter", "typescript", dest)
    assert code == 0, out
    installed = _npm(dest, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
    if installed.returncode and any(word in installed.stderr for word in OFFLINE):
        pytest.skip(f"npm ci cannot reach the registry: {installed.stderr.strip()[-200:]}")
    assert installed.returncode == 0, installed.stderr
    compiled = _npm(dest, "run", "build")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return dest


def test_the_example_compiles_strict_and_passes_its_scenarios(built):
    assert json.loads((built / "tsconfig.json").read_text())["compilerOptions"]["strict"] is True
    adapter = f"cmd:{NODE} {built / 'dist' / 'adapter.js'}"
    paths = sorted(str(p) for p in (ROOT / "scenarios" / "deal").glob("order-dealer-*.yaml"))
    code, out = _t42("run", *paths, "--adapter", adapter)
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored"), out
    code, out = _t42("doctor", "--adapter", adapter)
    assert code == 0, out


def test_the_types_catch_a_view_of_the_wrong_form(built):
    example = built / "example" / "adapter.ts"
    source = example.read_text()
    try:
        example.write_text(source.replace("round: 1,", 'round: "1",', 1))
        compiled = _npm(built, "run", "build")
    finally:
        example.write_text(source)
    assert compiled.returncode != 0
    line = source[:source.index("round: 1,")].count("\n") + 1
    assert f"adapter.ts({line}," in compiled.stdout and "error TS2322" in compiled.stdout, \
        compiled.stdout


def _compiles(built: Path, old: str, new: str) -> subprocess.CompletedProcess:
    """`npm run build` of the example with `old` replaced by `new`, the example restored."""
    example = built / "example" / "adapter.ts"
    source = example.read_text()
    assert old in source
    try:
        example.write_text(source.replace(old, new, 1))
        return _npm(built, "run", "build")
    finally:
        example.write_text(source)


def test_a_partial_declaration_is_typed(built):
    """`variants` takes an option supported in part without a cast, and the types refuse
    a settings object of the wrong form (a value where the list of values goes)."""
    old = 'variants: [],'
    partial = ('variants: ["nello", { name: "forced_bid", settings: { bid: ["any"] } }], '
               'spec: "0.3.0",')
    assert _compiles(built, old, partial).returncode == 0
    wrong = _compiles(built, old, 'variants: [{ name: "forced_bid", settings: { bid: "any" } }],')
    assert wrong.returncode != 0 and "error TS2322" in wrong.stdout, wrong.stdout


# An engine in a folder of its own, as an author's is: TypeScript with an extensionless
# import, and a CommonJS module that requires a node module (what tsc's build could not
# compile, nor node run as an ES module without a require).
ENGINE = {
    "src/game.ts": 'import { NAME } from "./name";\nimport info from "../lib/version.cjs";\n'
                   'export const ENGINE = { name: NAME, version: info.version };\n',
    "src/name.ts": 'export const NAME: string = "far-engine";\n',
    "lib/version.cjs": 'const os = require("node:os");\n'
                       'module.exports = { version: os.EOL === "\\n" ? "9.9.9" : "9.9.8" };\n',
    "lib/version.d.cts": "declare const info: { version: string };\nexport = info;\n",
}


def test_an_engine_in_another_folder_is_bundled_into_one_file(built, tmp_path):
    engine = tmp_path / "far" / "my-engine"
    for name, text in ENGINE.items():
        (engine / name).parent.mkdir(parents=True, exist_ok=True)
        (engine / name).write_text(text)
    relative = os.path.relpath(engine / "src" / "game", built / "example")
    example = built / "example" / "adapter.ts"
    source = example.read_text()
    head = f'import {{ ENGINE }} from "{relative}";\n'
    try:
        example.write_text(head + source.replace('name: "tiny-dealer", version: "0.1.0",',
                                                 "name: ENGINE.name, version: ENGINE.version,"))
        done = _npm(built, "run", "build")
        assert done.returncode == 0, done.stdout + done.stderr
    finally:
        example.write_text(source)
    bundle = built / "dist" / "adapter.js"
    moved = tmp_path / "elsewhere" / "adapter.js"  # one file: it runs from anywhere
    moved.parent.mkdir()
    moved.write_bytes(bundle.read_bytes())
    shutil.rmtree(engine.parent)
    code, out = _t42("doctor", "--adapter", f"cmd:{NODE} {moved}")
    assert out.startswith("t42 doctor: far-engine 9.9.9"), out
    assert code == 0, out
    _npm(built, "run", "build")  # the example's own bundle again, for the other tests


def test_another_entry_is_type_checked_too(built):
    """`npm run build -- src/adapter.ts`, the README's other entry: tsconfig.json's
    `include` covers example/ only, and a bare `node build.mjs src/adapter.ts` bundled a
    type error unseen. The entry and what it imports are checked; no bundle is written."""
    source = (built / "example" / "adapter.ts").read_text()
    entry = built / "src" / "adapter.ts"
    entry.parent.mkdir(exist_ok=True)
    bundle = built / "dist" / "adapter.js"
    before = bundle.read_bytes()
    try:
        entry.write_text(source.replace("round: 1,", 'round: "1",', 1))
        for command in ([NPM, "run", "build", "--", "src/adapter.ts"],
                        [NODE, "build.mjs", "src/adapter.ts"]):
            done = subprocess.run(command, cwd=built, capture_output=True, text=True,
                                  timeout=300)
            assert done.returncode != 0, command
            assert "src/adapter.ts(" in done.stdout and "error TS2322" in done.stdout, \
                done.stdout + done.stderr
            assert bundle.read_bytes() == before  # no bundle of the broken entry
        entry.write_text(source)
        assert _npm(built, "run", "build", "--", "src/adapter.ts").returncode == 0
    finally:
        shutil.rmtree(entry.parent)
        _npm(built, "run", "build")  # the example's own bundle again, for the other tests


def test_a_crash_names_the_ts_file_and_line(built):
    """The bundle carries its source map and the kit's commands run node with
    --enable-source-maps: a crash's stack names example/adapter.ts, not dist/adapter.js."""
    from conformance.adapters.newadapter import next_steps

    example = built / "example" / "adapter.ts"
    source = example.read_text()
    anchor = "  view(): View {\n"
    try:
        example.write_text(source.replace(anchor, anchor + '    throw new Error("no view");\n'))
        assert _npm(built, "run", "build").returncode == 0
        adapter = next(s for s in next_steps("typescript", built) if "doctor" in s)
        command = shlex.split(adapter.split("--adapter ", 1)[1])[0].removeprefix("cmd:")
        done = subprocess.run(shlex.split(command), cwd=built, capture_output=True,
                              text=True, timeout=60, input='{"seq": 1, "cmd": "view"}\n')
    finally:
        example.write_text(source)
        _npm(built, "run", "build")
    line = source[:source.index(anchor)].count("\n") + 2
    assert f"example/adapter.ts:{line}:" in done.stderr, done.stderr
    assert "dist/adapter.js" not in done.stderr.split("no view", 1)[1].splitlines()[1]


def test_npm_ci_is_told_that_esbuild_needs_no_install_script():
    """npm 11 warns of esbuild's postinstall, not covered by allowScripts: the kit denies
    it (esbuild's platform package carries the binary) and its README says it is safe."""
    meta = json.loads((ROOT / "kits" / "typescript" / "package.json").read_text())
    assert meta["allowScripts"] == {"esbuild": False}
    readme = " ".join((ROOT / "kits" / "typescript" / "README.md").read_text().split())
    assert "leaves out esbuild's `postinstall` (`allowScripts` in `package.json`), safely" \
        in readme
