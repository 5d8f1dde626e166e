"""The versions of spec/versions.yaml read as data: which are released, what each added,
and the digest that holds a released number to the spec and corpus it was given to.

A released version's `digest` is a SHA-256 of every file of spec/ (but versions.yaml,
which holds it) and scenarios/, by path: under a released number nothing there may change
(tests/spec/test_versions.py). Changes are made under a development version (`0.3.0.dev0`,
PEP 440) whose history entry is `unreleased: true`.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from conformance.specdata.files import spec_dir
from conformance.specdata.yamlload import read_yaml


@cache
def versions() -> dict[str, object]:
    """spec/versions.yaml: spec, suite and protocol versions."""
    return read_yaml(spec_dir() / "versions.yaml")


def protocol_version() -> int:
    """The protocol version `hello` carries (spec/versions.yaml `protocol`)."""
    protocol = versions()["protocol"]
    if not isinstance(protocol, int | str):
        raise ValueError(f"spec/versions.yaml: protocol {protocol!r} is not an integer")
    return int(protocol)


# A setting's values as versions.yaml writes them: a list, or {from: N, to: M} for a range.
Values = list | dict


def is_development(version: object) -> bool:
    """A PEP 440 development release (`0.3.0.dev0`): the spec as it is being changed."""
    return ".dev" in str(version)


def history() -> list[dict[str, Any]]:
    """versions.yaml's `history`, newest first."""
    entries = versions().get("history") or []
    return list(entries) if isinstance(entries, list) else []


def released() -> list[str]:
    """The released spec versions, newest first."""
    return [str(entry["spec"]) for entry in history() if not entry.get("unreleased")]


def corpus_digest(root: Path) -> str:
    """SHA-256 of spec/ (versions.yaml left out: it records the digest) and scenarios/ of
    `root`: every file's path and bytes, in path order."""
    digest = hashlib.sha256()
    files = [p for folder in ("spec", "scenarios") for p in (root / folder).rglob("*")
             if p.is_file() and "__pycache__" not in p.parts]
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        name = path.relative_to(root).as_posix()
        if name == "spec/versions.yaml":
            continue
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def added(entry: dict[str, Any]) -> dict[str, dict[str, Values]]:
    """The options, settings and values one history entry added (`added:`)."""
    return {name: dict(settings or {}) for name, settings in (entry.get("added") or {}).items()}


def _values(values: Values) -> list:
    if isinstance(values, dict):
        return list(range(values["from"], values["to"] + 1))
    return list(values)


def settings_at(version: str) -> dict[str, dict[str, list]] | None:
    """Every option of a released spec version with each setting's values then (a range
    listed in full): the union of what that version and every earlier one added. None for
    a version versions.yaml does not list as released."""
    entries = [e for e in history() if not e.get("unreleased")]
    names = [str(e["spec"]) for e in entries]
    if str(version) not in names:
        return None
    table: dict[str, dict[str, list]] = {}
    for entry in reversed(entries[names.index(str(version)):]):  # oldest first
        for name, settings in added(entry).items():
            option = table.setdefault(name, {})
            for setting, values in settings.items():
                option.setdefault(setting, []).extend(_values(values))
    return table


def versions_problem(root: Path, data: dict[str, Any] | None = None) -> str:
    """'' when the versions of `data` (versions.yaml; by default the one read) tell the
    truth about `root`'s spec/ and scenarios/, else what is wrong, in one line."""
    v: dict[str, Any] = versions() if data is None else data
    entries = list(v.get("history") or [])
    newest = entries[0] if entries else {}
    if is_development(v["spec"]) or is_development(v["suite"]):
        if not newest.get("unreleased"):
            return (f"spec {v['spec']} is a development version, but versions.yaml's newest "
                    "history entry is not `unreleased: true`")
        return ""
    if newest.get("unreleased"):
        return (f"versions.yaml lists unreleased changes under the released number spec "
                f"{v['spec']}: set the next development version (e.g. 0.4.0.dev0)")
    if str(newest.get("spec")) != str(v["spec"]) or str(newest.get("suite")) != str(v["suite"]):
        return f"spec {v['spec']}, suite {v['suite']}: not the newest history entry"
    digest = corpus_digest(root)
    if newest.get("digest") != digest:
        return (f"spec/ or scenarios/ changed under the released number spec {v['spec']} "
                f"(digest {digest}, recorded {newest.get('digest')}): set the next "
                "development version and list the change as unreleased")
    return ""
