"""The loading cache: each scenario file as loaded and checked (`scenario.load_scenario`),
kept between runs outside the repository, so that a file that has not changed is not
parsed and replayed on the reference engine again (issue 43).

It can never answer for a file that changed, nor for a loader that changed: an entry is
served only when its key is the key of the file now, and the key is a SHA-256 of

- the file's bytes (as the loader reads them) and where it lies: its path as given and
  absolute, its display path, the corpus it belongs to and what its modeline resolves
  to, which the problems found name and depend on;
- `code_digest()`: every file under spec/ that the loader reads (rules, errors, levels,
  the schemas), the source of reference_impl/, conformance/corpus/ and
  conformance/specdata/, the suite's version, and the Python and library versions.

Any change to a scenario, the spec or that code re-checks. The cache lives in
`$T42_CACHE_DIR`, else `$XDG_CACHE_HOME/t42`, else `~/.cache/t42`: one pickle per
`code_digest()`, written atomically (temporary file, then os.replace). A file that cannot
be read, is corrupt or is not the user's own is ignored (and rebuilt); a folder that
cannot be written means no cache. `T42_NO_CACHE=1` or a command's `--no-cache` turn it
off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.corpus.scenario import Loaded
    from conformance.specdata.index import SpecIndex

FORMAT = 1  # of the cache file; a file of another format is ignored
KEEP = 8  # cache files kept (one per digest: checkouts, branches, versions of the suite)
_PACKAGES = ("reference_impl", "conformance/corpus", "conformance/specdata")
_LIBRARIES = ("pyyaml", "jsonschema", "jsonschema-rs", "referencing", "texas42-conformance")
_ROOT = Path(__file__).resolve().parent.parent.parent  # holds reference_impl/ and conformance/
_disabled = False  # --no-cache


def disable() -> None:
    """`--no-cache`: this process loads without the cache."""
    global _disabled
    _disabled = True


def enable() -> None:
    """The cache on again, unless T42_NO_CACHE (each `t42` command starts so)."""
    global _disabled
    _disabled = False


def enabled() -> bool:
    return not _disabled and os.environ.get("T42_NO_CACHE", "") in ("", "0")


def cache_dir() -> Path:
    forced = os.environ.get("T42_CACHE_DIR")
    if forced:
        return Path(forced)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "t42"


@cache
def _library_versions() -> str:
    from importlib import metadata

    found = []
    for name in _LIBRARIES:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=none")
    import yaml

    found.append(f"libyaml={getattr(yaml, '__with_libyaml__', False)}")
    return " ".join(found)


def _tree(digest: hashlib._Hash, label: str, root: Path, suffixes: tuple[str, ...] = ()) -> None:
    """Every file under `root` (of these suffixes, if given), by path and bytes."""
    files = sorted((p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                    and (not suffixes or p.suffix in suffixes)),
                   key=lambda p: p.relative_to(root).as_posix())
    for path in files:
        digest.update(f"{label}/{path.relative_to(root).as_posix()}".encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")


def code_digest() -> str:
    """A SHA-256 of everything that decides what loading a given file answers, but the
    file: the spec it is checked against, the code that checks it, the versions. Read
    afresh for each load of a corpus (a few ms), never kept by the process: a spec
    changed between two loads of one process (a test's copy) is seen."""
    from conformance.specdata.files import spec_dir

    digest = hashlib.sha256()
    digest.update(f"format {FORMAT}\0python {sys.version}\0{_library_versions()}\0".encode())
    # mutmut 3 selects the mutant of the engine at run time, not in the source
    digest.update(f"mutant {os.environ.get('MUTANT_UNDER_TEST', '')}\0".encode())
    spec = spec_dir()
    digest.update(f"spec {spec}\0".encode())
    _tree(digest, "spec", spec)
    for package in _PACKAGES:
        _tree(digest, package, _ROOT / package, (".py",))
    return digest.hexdigest()


def file_key(path: Path, data: bytes, digest: str, asked: dict[tuple[Path, str], str] | None = None
             ) -> str:
    """The key of one file's bytes, where it lies, under `digest` (`code_digest()`).
    `asked`: what the file system answered already in this load (one answer a folder)."""
    from conformance.specdata.files import display_path

    asked = {} if asked is None else asked
    resolved = path.resolve()
    where = [str(path), os.path.abspath(path), str(resolved), display_path(path),
             _corpus_of(resolved.parent, asked), _modeline_target(path.parent, data, asked)]
    key = hashlib.sha256(digest.encode() + b"\0")
    key.update("\0".join(where).encode("utf-8", errors="surrogateescape") + b"\0")
    key.update(data)
    return key.hexdigest()


def _corpus_of(folder: Path, asked: dict[tuple[Path, str], str]) -> str:
    """`corpus_root_of` a file in `folder` (a path already resolved)."""
    from conformance.specdata.files import corpus_root_of

    if (folder, "") not in asked:
        asked[folder, ""] = str(corpus_root_of(folder / "_"))
    return asked[folder, ""]


def _modeline_target(folder: Path, data: bytes, asked: dict[tuple[Path, str], str]) -> str:
    """What the modeline names, resolved, and whether it exists (`_modeline` asks)."""
    from conformance.corpus.scenario import MODELINE

    first = data.split(b"\n", 1)[0].decode("utf-8", errors="replace")
    if not first.startswith(MODELINE):
        return ""
    target = first[len(MODELINE):].strip()
    if (folder, target) not in asked:
        resolved = (folder / target).resolve()
        asked[folder, target] = f"{resolved} {resolved.exists()}"
    return asked[folder, target]


class LoadCache:
    """The entries of one `code_digest()`: path -> (key, the pickled `Loaded`). Read once,
    written once (`save`) when a file was checked afresh."""

    def __init__(self, folder: Path) -> None:
        self.digest = code_digest()
        self.file = folder / f"corpus-{self.digest[:32]}.pickle"
        self.entries: dict[str, tuple[str, bytes]] = self._read()
        self.changed = False
        self.hits = self.misses = 0
        self.asked: dict[tuple[Path, str], str] = {}  # file_key's, for this load

    def _read(self) -> dict[str, tuple[str, bytes]]:
        try:
            with open(self.file, "rb") as stream:
                if hasattr(os, "getuid") and os.fstat(stream.fileno()).st_uid != os.getuid():
                    return {}  # a pickle someone else wrote is not read
                stored = pickle.load(stream)
        except Exception:  # noqa: BLE001 - missing, unreadable or corrupt: rebuilt
            return {}
        if (not isinstance(stored, dict) or stored.get("format") != FORMAT
                or stored.get("digest") != self.digest
                or not isinstance(stored.get("entries"), dict)):
            return {}
        return stored["entries"]

    def load(self, path: Path, index: SpecIndex) -> Loaded:
        """`load_scenario(path, index)`, from the cache when the file's key is there."""
        from conformance.corpus.scenario import _load, load_scenario
        from conformance.specdata.yamlload import read_bytes

        data, _, _ = read_bytes(path)
        if data is None or path.suffix != ".yaml":
            return load_scenario(path, index)  # refused before any parsing: nothing to save
        try:
            key = file_key(path, data, self.digest, self.asked)
        except Exception:  # noqa: BLE001 - the cache never stops a load
            return load_scenario(path, index)
        name = str(path)
        entry = self.entries.get(name)
        if entry is not None and entry[0] == key:
            try:
                loaded: Loaded = pickle.loads(entry[1])
                self.hits += 1
                return loaded
            except Exception:  # noqa: BLE001 - a corrupt entry: checked afresh
                pass
        self.misses += 1
        try:
            loaded = _load(path, index, data)
        except Exception:  # noqa: BLE001 - load_scenario's answer, which is not kept
            return load_scenario(path, index)
        self.entries[name] = (key, pickle.dumps(loaded, protocol=pickle.HIGHEST_PROTOCOL))
        self.changed = True
        return loaded

    def save(self) -> None:
        """Write the entries if any changed; a folder that cannot be written is no cache."""
        if not self.changed:
            return
        stored = {"format": FORMAT, "digest": self.digest, "entries": self.entries}
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            handle, temporary = tempfile.mkstemp(prefix=".corpus-", suffix=".tmp",
                                                 dir=self.file.parent)
            try:
                with os.fdopen(handle, "wb") as stream:
                    pickle.dump(stored, stream, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(temporary, self.file)
            except BaseException:
                os.unlink(temporary)
                raise
            self.changed = False
            _prune(self.file.parent, self.file)
        except OSError:
            return


def _prune(folder: Path, keep: Path) -> None:
    """Only the KEEP newest cache files stay (each digest is a file)."""
    try:
        files = sorted(folder.glob("corpus-*.pickle"), key=lambda p: p.stat().st_mtime,
                       reverse=True)
        for old in [f for f in files if f != keep][KEEP - 1:]:
            old.unlink()
    except OSError:
        return


def open_cache(index: SpecIndex | None = None) -> LoadCache | None:
    """The cache for loading against `index`; None when it is off, or when the index is
    not the spec's own (`load_index()`), which the digest does not describe."""
    from conformance.specdata.index import load_index

    if not enabled() or (index is not None and index is not load_index()):
        return None
    try:
        return LoadCache(cache_dir())
    except Exception:  # noqa: BLE001 - no cache, never an error
        return None
