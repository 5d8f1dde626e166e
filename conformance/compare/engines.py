"""The engines of `t42 compare`: each `--adapter` run by `t42 run` itself in a process tree
of its own, several at once, or each `--report-json` read; either way one `Column`.

An engine is never run here: `t42 run --report-json` runs it, with the same limits,
timeouts and reliability as when a person runs it, and this module only starts those
runs, bounds their wall time and reads their reports. A run that cannot start its
engine, dies or outlives `--engine-seconds` leaves a column of errors, never the end of
the comparison: a run stopped for its time is told to stop as Ctrl-C tells it (SIGTERM),
writes the report of what ran, and then its whole tree is ended (adapters/tree.py).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.adapters.limits import cut_tail

# `--adapter "label=old level=rules variants=none timeout=2 python:my:Engine"`: words
# `key=value` before the adapter (which starts with reference, python: or cmd:).
SETTINGS = ("label", "level", "variants", "timeout")
_SETTING = re.compile(r"^\s*(" + "|".join(SETTINGS) + r")=(\S*)\s*")
STOP_GRACE = 10.0  # seconds a run told to stop has to write its report


@dataclass(frozen=True)
class Engine:
    """One `--adapter` (or `--report-json`) of the command line, its settings applied."""

    source: str  # the adapter spec, or the report file
    label: str = ""  # the column's name; "" until known (the hello's name and version)
    level: str = "strict"
    variants: str | None = None  # `t42 run --variants`: narrows the declaration
    timeout: float = 5.0  # seconds per reply
    from_file: bool = False


def parse_engine(text: str, level: str, variants: str | None, timeout: float,
                 from_file: bool = False) -> Engine:
    """An `--adapter` or `--report-json` value: its leading `key=value` words, then the
    adapter or file. ValueError names a bad setting."""
    found: dict[str, str] = {}
    rest = text
    while match := _SETTING.match(rest):
        found[match[1]] = match[2]
        rest = rest[match.end():]
    if not rest.strip():
        raise ValueError(f"{text!r}: no adapter or file after its settings")
    if from_file and set(found) - {"label"}:
        raise ValueError(f"{text!r}: a report file takes only label= (its level and "
                         "options are the run's)")
    try:
        seconds = float(found.get("timeout", timeout))
    except ValueError:
        raise ValueError(f"{text!r}: timeout={found['timeout']} is not a number") from None
    return Engine(rest.strip(), found.get("label", ""), found.get("level", level),
                  found.get("variants", variants), seconds, from_file)


@dataclass
class Column:
    """What one engine gave: its `t42 run` report, or why there is none (`error`)."""

    engine: Engine
    label: str
    report: dict[str, Any] | None = None
    error: str = ""  # the run could not be made or read; with a report: it was cut short
    log: str = ""  # the tail of the run's own output (its terminal report)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def level(self) -> str:
        return str((self.report or {}).get("level", self.engine.level))


@dataclass(frozen=True)
class RunSettings:
    """What every `t42 run` of a comparison shares (the selection and the limits)."""

    paths: tuple[Path, ...] = ()
    keyword: str | None = None
    rules: tuple[str, ...] = ()
    variant_filter: tuple[str, ...] = ()
    max_reply_bytes: int = 1 << 20
    max_stderr_bytes: int = 64 << 10
    in_process: bool = False
    engine_seconds: float = 3600.0  # wall time of one engine's whole run


def run_command(engine: Engine, settings: RunSettings, report: Path) -> list[str]:
    """The `t42 run` that makes one engine's report."""
    command = [sys.executable, "-m", "conformance.cli.main", "run",
               *map(str, settings.paths), "--adapter", engine.source, "--level", engine.level,
               "--timeout", str(engine.timeout), "--report-json", str(report),
               "--max-reply-bytes", str(settings.max_reply_bytes),
               "--max-stderr-bytes", str(settings.max_stderr_bytes)]
    if engine.variants is not None:
        command += ["--variants", engine.variants]
    if settings.keyword:
        command += ["-k", settings.keyword]
    for rule in settings.rules:
        command += ["--rule", rule]
    for name in settings.variant_filter:
        command += ["--variant", name]
    if settings.in_process and engine.source.startswith("python:"):
        command.append("--in-process")
    return command


class Runs:
    """The `t42 run` processes alive, so that a stopped comparison ends them all."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.alive: dict[int, tuple[subprocess.Popen[bytes], str]] = {}
        self.stopping = False

    def stop_all(self) -> None:
        """Tell every run to stop (each writes what ran), then end each tree."""
        from conformance.adapters import tree

        with self.lock:
            self.stopping = True
            alive = list(self.alive.items())
        for _pid, (proc, _) in alive:
            _signal(proc, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE
        for pid, (proc, mark) in alive:
            try:
                proc.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                pass
            with self.lock:
                tree.end_tree(pid, mark)


def _signal(proc: subprocess.Popen[bytes], signum: int) -> None:
    try:
        proc.send_signal(signum)
    except OSError:
        pass


def run_engine(engine: Engine, settings: RunSettings, folder: Path, name: str,
               runs: Runs) -> Column:
    """One engine through `t42 run` in a session and process tree of its own; its report
    is `folder/NAME.json`, its terminal output `folder/NAME.log`."""
    from conformance.adapters import tree

    report, log = folder / f"{name}.json", folder / f"{name}.log"
    column = Column(engine, engine.label)
    start = time.monotonic()
    mark = tree.new_mark()
    with runs.lock:
        if runs.stopping:
            column.error = "not run: the comparison was stopped first"
            return column
        with open(log, "wb") as out:
            proc = subprocess.Popen(run_command(engine, settings, report), stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True,
                                    env={**os.environ, tree.MARK: mark, "PYTHONUNBUFFERED": "1"})
        tree.launched(proc.pid, mark)
        runs.alive[proc.pid] = (proc, mark)
    try:
        try:
            status = proc.wait(settings.engine_seconds)
        except subprocess.TimeoutExpired:
            column.error = (f"stopped after {settings.engine_seconds:g} s "
                            "(--engine-seconds): the scenarios it had not reached are missing")
            _signal(proc, signal.SIGTERM)  # it reports what ran, as after Ctrl-C
            try:
                status = proc.wait(STOP_GRACE)
            except subprocess.TimeoutExpired:
                status = -signal.SIGKILL
    finally:
        with runs.lock:  # tree.py's record of live trees is shared by the threads
            tree.end_tree(proc.pid, mark)  # whatever it left behind, its engine included
            runs.alive.pop(proc.pid, None)
    column.seconds = time.monotonic() - start
    column.log = cut_tail(log.read_text(encoding="utf-8", errors="replace"), 4000)
    read_into(column, report)
    if column.report is None and not column.error:
        column.error = _why(status, column.log)
    return column


def _why(status: int, log: str) -> str:
    """Why a run wrote no report: the `t42:` line it printed, else its status."""
    said = [line for line in log.splitlines() if line.startswith("t42: ")
            and not line.startswith(("t42: spec", "t42: read", "t42: the checkout"))]
    if said:
        return said[-1].removeprefix("t42: ")
    if status < 0:
        return f"t42 run was killed by {signal.Signals(-status).name}"
    return f"t42 run exited with status {status} and wrote no report"


def read_into(column: Column, path: Path) -> None:
    """The report at `path` into `column`, or why it cannot be read."""
    from conformance.specdata.schemas import validator

    if not path.exists():
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        column.error = column.error or f"{path}: not a JSON report ({error})"
        return
    problems = list(validator("report.schema.json").iter_errors(data))
    if problems:
        where = "/".join(map(str, problems[0].absolute_path)) or "the top"
        column.error = column.error or (f"{path}: not a t42 run report ({where}: "
                                        f"{problems[0].message[:200]})")
        return
    column.report = data


def read_report(engine: Engine) -> Column:
    column = Column(engine, engine.label)
    path = Path(engine.source)
    if not path.exists():
        column.error = f"{path}: no such file"
    else:
        read_into(column, path)
    return column


def gather(engines: Sequence[Engine], settings: RunSettings, folder: Path, jobs: int,
           said: Callable[[Column], None] = lambda c: None) -> list[Column]:
    """Every engine's column, in the order given: the report files read, the adapters
    run `jobs` at a time; `said` is called as each is done."""
    from conformance.adapters import tree

    folder.mkdir(parents=True, exist_ok=True)
    tree.become_subreaper()  # an engine orphaned by a killed run is still ours to end
    runs = Runs()
    names = _file_names(engines)

    def one(i: int) -> Column:
        engine = engines[i]
        column = (read_report(engine) if engine.from_file
                  else run_engine(engine, settings, folder, names[i], runs))
        said(column)
        return column

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            columns = list(pool.map(one, range(len(engines))))
    except KeyboardInterrupt:
        runs.stop_all()
        raise
    return _labelled(columns)


def _file_names(engines: Sequence[Engine]) -> list[str]:
    """A file name per engine: its label made safe, else its place."""
    names = []
    for i, engine in enumerate(engines, 1):
        words = [w for w in re.split(r"[:/\s]+", engine.source) if w]
        slug = slugify(engine.label or (words[-1] if words else ""))
        names.append(f"{i}-{slug}" if slug else f"{i}-engine")
    return names


def slugify(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:80]


def _labelled(columns: list[Column]) -> list[Column]:
    """Each column a label of its own: the one given (label=), else the engine's name
    (with its version where two share a name; `(2)` after a second of the same), else
    its adapter or file when it never said its name."""
    def named(column: Column, versioned: bool) -> str:
        adapter = (column.report or {}).get("adapter")
        if column.engine.label or not adapter:
            return column.engine.label or column.engine.source
        return f"{adapter['name']} {adapter['version']}" if versioned else adapter["name"]

    plain = [named(c, False) for c in columns]
    seen: dict[str, int] = {}
    for column, base in zip(columns, plain, strict=True):
        if plain.count(base) > 1:
            base = named(column, True)
        seen[base] = seen.get(base, 0) + 1
        column.label = base if seen[base] == 1 else f"{base} ({seen[base]})"
    return columns
