"""`t42 new-adapter LANG DIR`: a starting adapter, copied from a kit (kits/)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

# language -> kit folder: javascript and typescript share the node kit
KITS = {"typescript": "typescript", "javascript": "typescript", "go": "go", "rust": "rust"}
# build output and installed packages a checkout's kit may hold: never copied
IGNORED = shutil.ignore_patterns("node_modules", "dist", "example-adapter", "target", "*.lock")
# what a JavaScript adapter leaves out of the node kit: the TypeScript example and its build
TYPESCRIPT_ONLY = ("tsconfig.json", "example/adapter.ts", "package-lock.json", "build.mjs")
# the README lines about what a language's copy leaves out, dropped from that copy
NOT_FOR = {"javascript": ("example/adapter.ts", "npm run build", "dist/adapter.js"),
           "typescript": ("example/adapter.js",)}
# a README paragraph about the TypeScript build only, between these lines: a JavaScript
# copy drops it whole, every copy drops the marks
BUILD_ONLY = re.compile(r"<!-- typescript build -->\n(.*?)<!-- end -->\n", re.S)
# the files that name the kit's folder in their commands, rewritten to name the copy
TEXTS = ("README.md", "example/*", "examples/*")
# the first run: the base game only, so an engine that declares no option is not half skips
FIRST_RUN = "t42 run --level rules --variant base --adapter"


# the scenarios the kits' example passes: it deals, and refuses every action
EXAMPLE_RUN = "t42 run -k deal.order-dealer --variant base --adapter"
# what next_steps' commands leave to say: the example's run is not the first run of yours
AFTER_THE_EXAMPLE = ("the example passes these 4 scenarios (it deals, then refuses every "
                     "action); with your engine in its place, `t42 doctor` ends by naming "
                     "the first run of the whole base game")


def next_steps(lang: str, dest: Path) -> list[str]:
    """What to run after the copy, in the order a new author needs it: the commands of
    the copy's README (build, doctor, the example's own run)."""
    if KITS[lang] == "go":
        adapter = f"cmd:{dest / 'example-adapter'}"
        build = f"(cd {shlex.quote(str(dest))} && go build -o example-adapter ./example)"
    elif KITS[lang] == "rust":
        adapter = f"cmd:{dest / 'target' / 'debug' / 'examples' / 'adapter'}"
        build = f"(cd {shlex.quote(str(dest))} && cargo build --example adapter)"
    elif lang == "typescript":  # the bundle's source map: a crash's stack names the .ts
        adapter = f"cmd:node --enable-source-maps {dest / 'dist' / 'adapter.js'}"
        build = f"(cd {shlex.quote(str(dest))} && npm ci && npm run build)"
    else:
        adapter, build = f"cmd:node {dest / 'example' / 'adapter.js'}", ""
    run = shlex.quote(adapter)
    return [step for step in (build, f"t42 doctor --adapter {run}", f"{EXAMPLE_RUN} {run}")
            if step]


def new_adapter(lang: str, dest: Path) -> list[Path]:
    """Copy the kit for `lang` into `dest` (absent or empty); the files written.
    ValueError for an unknown language or a folder that is not empty."""
    from conformance.specdata.files import kits_dir

    if lang not in KITS:
        raise ValueError(f"no kit for {lang!r}: one of {', '.join(sorted(KITS))}")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise ValueError(f"{dest} exists and is not an empty folder: nothing written")
    source = kits_dir() / KITS[lang]
    if not source.is_dir():
        raise ValueError(f"the {lang} kit is not installed here ({source})")
    shutil.copytree(source, dest, ignore=IGNORED, dirs_exist_ok=True)
    if lang == "javascript":
        _javascript_only(dest)
    elif lang == "typescript":
        (dest / "example" / "adapter.js").unlink()  # example/adapter.ts is the example
    if lang in NOT_FOR:
        readme = dest / "README.md"
        lines = readme.read_text(encoding="utf-8").splitlines(keepends=True)
        text = "".join(line for line in lines if not any(word in line for word in NOT_FOR[lang]))
        text = BUILD_ONLY.sub("" if lang == "javascript" else r"\1", text)
        readme.write_text(text, encoding="utf-8")
    _name_the_copy(dest, KITS[lang])
    return sorted(p for p in dest.rglob("*") if p.is_file())


def _javascript_only(dest: Path) -> None:
    """The node kit without its TypeScript build: nothing to install, nothing to compile."""
    for name in TYPESCRIPT_ONLY:
        (dest / name).unlink(missing_ok=True)
    package = dest / "package.json"
    meta = json.loads(package.read_text(encoding="utf-8"))
    meta.pop("devDependencies", None)
    meta.pop("allowScripts", None)  # esbuild's, a devDependency
    meta.get("scripts", {}).pop("build", None)
    if not meta.get("scripts", True):
        del meta["scripts"]
    package.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


# a README's link to a spec page (`[`spec/protocol.md`](../../spec/protocol.md)`), which
# in a copy would point into site-packages or a checkout: a note any install resolves
SPEC_LINK = re.compile(r"\[`spec/([^`\]]+)`\]\(\.\./\.\./spec/[^)\s]+\)")
SPEC_NOTE = r"`spec/\1` (in the suite's `spec/` folder: `t42 run` names it in its first line)"


def _name_the_copy(dest: Path, kit: str) -> None:
    """The commands of the README and example, which run the kit from a checkout's root
    (kits/KIT/...), rewritten to run the copy from where it was made (DEST/...); the
    README's links to the spec (../../spec/...), which lead nowhere from the copy, a note
    of where the spec is instead (an absolute path into site-packages is no link to
    commit)."""
    kit_path = re.compile(rf"kits/{kit}\b")
    for pattern in TEXTS:
        for path in dest.glob(pattern):
            if path.is_file():
                text = SPEC_LINK.sub(SPEC_NOTE, path.read_text(encoding="utf-8"))
                path.write_text(kit_path.sub(lambda _: dest.as_posix(), text), encoding="utf-8")
