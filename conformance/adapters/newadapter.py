"""`t42 new-adapter LANG DIR`: a starting adapter, copied from a kit (kits/)."""

from __future__ import annotations

import shutil
from pathlib import Path

# language -> (kit folder, the command that runs its example from DIR's parent)
KITS = {"typescript": "typescript", "javascript": "typescript", "go": "go", "rust": "rust"}
# build output and installed packages a checkout's kit may hold: never copied
IGNORED = shutil.ignore_patterns("node_modules", "example-adapter", "target", "*.lock")


def next_steps(lang: str, dest: Path) -> list[str]:
    """What to run after the copy, in the order a new author needs it."""
    if KITS[lang] == "go":
        binary = dest / "example-adapter"
        return [f"(cd {dest} && go build -o example-adapter ./example)",
                f"t42 doctor --adapter cmd:{binary}",
                f"t42 run --level rules --adapter cmd:{binary}"]
    if KITS[lang] == "rust":
        binary = dest / "target" / "debug" / "examples" / "adapter"
        return [f"(cd {dest} && cargo build --example adapter)",
                f"t42 doctor --adapter cmd:{binary}",
                f"t42 run --level rules --adapter cmd:{binary}"]
    run = f'"cmd:node {dest / "example" / "adapter.js"}"'
    return [f"t42 doctor --adapter {run}", f"t42 run --level rules --adapter {run}"]


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
    return sorted(p for p in dest.rglob("*") if p.is_file())
