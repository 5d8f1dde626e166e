"""The corpus as `t42 run` holds it: each file loaded and checked as `corpus.select.load`
loads it, then kept packed (pickled, compressed) in a temporary file until its turn; the
runner unpacks one scenario at a time and lets it go once judged.
So a run's memory follows what it reports, not the size of the corpus."""

from __future__ import annotations

import pickle
import sys
import tempfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from conformance.corpus.problems import Problem
from conformance.corpus.scenario import Loaded, Scenario


class Spool:
    """Packed scenarios in a temporary file (the page cache keeps it in memory while it
    can; the process keeps only where each one is)."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile(prefix="t42-corpus-")
        self.end = 0

    def put(self, data: bytes) -> tuple[int, int]:
        self.file.seek(self.end)
        self.file.write(data)
        where, self.end = (self.end, len(data)), self.end + len(data)
        return where

    def get(self, offset: int, size: int) -> bytes:
        self.file.seek(offset)
        return self.file.read(size)


@dataclass(slots=True)
class Held:
    """A loaded file: as `Loaded`, its scenario packed in a Spool; `scenario` unpacks a
    fresh copy on each read (None for a file with problems). What every file keeps
    while the run lasts is small: its path as text (a Path is some 400 bytes of parts),
    its problems as a tuple (the empty one shared)."""

    where: str  # the path, as text
    spool: Spool | None
    offset: int = 0
    size: int = 0
    problems: tuple[Problem, ...] = ()
    id_line: int = 1
    id: str | None = None

    @classmethod
    def of(cls, item: Loaded, spool: Spool) -> Held:
        sc = item.scenario
        where, problems = str(item.path), tuple(item.problems)
        if sc is None:
            return cls(where, None, problems=problems, id_line=item.id_line)
        offset, size = spool.put(zlib.compress(pickle.dumps(sc, protocol=5), 1))
        # the id interned: its Result's id is then the same string (runner.run_scenario)
        return cls(where, spool, offset, size, problems, item.id_line, sys.intern(sc.id))

    @property
    def path(self) -> Path:
        return Path(self.where)

    @property
    def scenario(self) -> Scenario | None:
        if self.spool is None:
            return None
        scenario: Scenario = pickle.loads(zlib.decompress(self.spool.get(self.offset,
                                                                         self.size)))
        return scenario


def load(paths: Sequence[Path], keyword: str | None = None, rules: Sequence[str] = (),
         variants: Sequence[str] = ()) -> tuple[list[Held], list[Held]]:
    """(every file, the chosen ones): `corpus.select.load` then `select`, one file at a
    time, each packed as soon as it is checked (a duplicate id is a problem of the later
    file, as there; an unchanged file answered by the loading cache, as there)."""
    from conformance.corpus.cache import open_cache
    from conformance.corpus.scenario import Refused, _refused, discover, duplicate_id, load_scenario
    from conformance.corpus.select import select
    from conformance.specdata.files import scenarios_dir
    from conformance.specdata.index import load_index

    index = load_index()
    stored = open_cache(index)  # the loading cache: unchanged files are not checked again
    load_one = stored.load if stored is not None else load_scenario
    spool = Spool()
    first: dict[str, Path] = {}
    every: list[Held] = []
    chosen: list[Held] = []
    for path in discover(list(paths) or [scenarios_dir()]):
        item = (_refused(path.path, 1, path.message) if isinstance(path, Refused)
                else load_one(path, index))
        duplicate_id(first, item)
        held = Held.of(item, spool)
        every.append(held)
        if select([item], keyword, rules, variants):
            chosen.append(held)
    if stored is not None:
        stored.save()
    return every, chosen

