"""Where the spec and the scenario corpus live.

In a checkout, every command reads that checkout's `spec/` and `scenarios/`, so a scenario
a contributor adds is run and checked even after a non-editable `pip install .`. The copy
an installed package carries (pyproject force-include) serves only outside a checkout.
Order: $T42_ROOT, then the checkout holding the working directory, then the source tree
this code runs from (an editable install), then the installed copy.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # conformance/
_SOURCE_TREE = _PACKAGE.parent
_PACKAGED = _PACKAGE / "_data"


@dataclass(frozen=True)
class DataRoot:
    """The directory holding spec/ and scenarios/, and why it was chosen."""

    path: Path
    kind: str  # "checkout", "source tree", "T42_ROOT" or "installed copy"

    def describe(self) -> str:
        return f"spec and scenarios of the {self.kind} {self.path}"


def is_checkout(root: Path) -> bool:
    """A directory holding the suite's spec/ and scenarios/ side by side."""
    return ((root / "spec" / "rules.md").is_file() and (root / "spec" / "versions.yaml").is_file()
            and (root / "scenarios").is_dir())


def checkout_of(start: Path) -> Path | None:
    """The nearest directory at or above `start` that is a checkout."""
    start = start.resolve()
    for root in (start, *start.parents):
        if is_checkout(root):
            return root
    return None


@cache
def data_root() -> DataRoot:
    forced = os.environ.get("T42_ROOT")
    if forced:
        if not is_checkout(Path(forced)):
            raise FileNotFoundError(f"T42_ROOT={forced} holds no spec/rules.md and scenarios/")
        return DataRoot(Path(forced).resolve(), "T42_ROOT")
    here = checkout_of(Path.cwd())
    if here is not None:
        return DataRoot(here, "checkout")
    if is_checkout(_SOURCE_TREE):
        return DataRoot(_SOURCE_TREE, "source tree")
    if is_checkout(_PACKAGED):
        return DataRoot(_PACKAGED, "installed copy")
    raise FileNotFoundError(f"cannot find spec/ and scenarios/ here, beside {_PACKAGE} "
                            f"nor in {_PACKAGED}")


def installed_copy() -> Path:
    """Where an installed package keeps its copy of spec/ and scenarios/ (site-packages)."""
    return _PACKAGED


@cache
def spec_dir() -> Path:
    return data_root().path / "spec"


@cache
def schemas_dir() -> Path:
    return spec_dir() / "schemas"


@cache
def scenarios_dir() -> Path:
    return data_root().path / "scenarios"


def corpus_root_of(path: Path) -> Path | None:
    """The `scenarios/` directory of the checkout a scenario file lies in, if any: the
    id-must-match-path rule applies to any file of any checkout's corpus."""
    path = path.resolve()
    for parent in path.parents:
        if parent.name == "scenarios" and is_checkout(parent.parent):
            return parent
    return None


@cache
def kits_dir() -> Path:
    """The adapter kits (kits/ of the checkout, or the installed copy's)."""
    return data_root().path / "kits"


def display_path(path: Path) -> str:
    """A scenario's path as every output shows it, whatever folder the run started in:
    relative to the checkout that holds it (`scenarios/play/x.yaml`, the corpus's own
    layout), else to the folder holding the nearest `scenarios/` above it (a corpus of
    your own); a file of the installed package's own copy as `scenarios/...`
    (`installed_note` says where it is); any other file by its absolute path."""
    absolute = Path(os.path.abspath(path))  # not resolve: a link is shown as itself
    root = _checkout_holding(absolute.parent)
    for base in (root, installed_copy()):
        if base is None:
            continue
        try:
            return absolute.relative_to(base).as_posix()
        except (ValueError, OSError):
            continue
    return absolute.as_posix()


@lru_cache(maxsize=1024)
def _checkout_holding(folder: Path) -> Path | None:
    """The nearest checkout at or above `folder`, else the folder holding the nearest
    `scenarios/` (a run asks once per folder)."""
    corpus = None
    for parent in (folder, *folder.parents):
        try:
            if is_checkout(parent):
                return parent
        except OSError:
            break
        if corpus is None and parent.name == "scenarios":
            corpus = parent.parent
    return corpus


def installed_note(shown: list[str]) -> str:
    """The note, once, for display paths of the installed copy (no such file here), or ''."""
    if not any(not Path(p).exists() and (installed_copy() / p).is_file() for p in shown):
        return ""
    return (f"note: scenarios/... are the installed suite's own files (in {installed_copy()}):"
            " `t42 book DIR` draws each as a page, and a checkout of the suite has them")
