"""`t42 compare`: several engines over the same scenarios, side by side (cli/main.py
reads the command line, this does the work)."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from conformance.compare.engines import Column, Engine, RunSettings, gather, slugify
from conformance.report.ended import Ended
from conformance.report.safe import echo


@dataclass(frozen=True)
class CompareOptions:
    """What `t42 compare` was asked for."""

    engines: tuple[Engine, ...]
    settings: RunSettings
    jobs: int = 0  # 0: one per core, at most one per engine
    html: Path | None = None
    json_out: Path | None = None
    badges: Path | None = None
    reports: Path | None = None  # keep each engine's report and log here
    baseline: str | None = None


def _unwritable(o: CompareOptions) -> str | None:
    from conformance.report.outputs import unwritable_file, unwritable_folder

    for option, path, unwritable in (("--html", o.html, unwritable_folder),
                                     ("--json", o.json_out, unwritable_file),
                                     ("--badges", o.badges, unwritable_folder),
                                     ("--reports", o.reports, unwritable_folder)):
        why = path is not None and unwritable(path)
        if why:
            return f"{option}: cannot write {path}: {why}"
    return None


def compare_command(o: CompareOptions) -> int:
    """0 when the comparison is written; 1 when an engine newly fails a scenario its
    baseline passes; 2 when it cannot be made (no engine, an output not writable, a
    baseline no engine is labelled): resolve, run the engines, report; every early end an
    Ended, told in one place."""
    try:
        _resolve(o)
        return write_outputs(_run(o), o)
    except Ended as ended:
        return ended.tell()


def _resolve(o: CompareOptions) -> None:
    """Ended at the first thing asked that the comparison cannot be made with."""
    if len(o.engines) < 1:
        raise Ended("give engines to compare: --adapter (repeated) or --report-json FILE")
    problem = _unwritable(o)
    if problem:
        raise Ended(problem)


def _run(o: CompareOptions) -> list[Column]:
    """Each engine's column: run by `t42 run` in a process tree of its own, or read from
    its --report-json."""
    from conformance.specdata.files import data_root

    echo(f"t42: {data_root().describe()}")  # which spec/ and scenarios/, as every command
    jobs = o.jobs or min(len(o.engines), os.cpu_count() or 1)
    running = sum(not e.from_file for e in o.engines)
    if running:
        echo(f"t42: running {running} engines, {jobs} at a time, each by `t42 run` in a "
             "process tree of its own")

    def said(column: Column) -> None:
        how = f"ERROR {column.error}" if column.error else "done"
        echo(f"  {column.engine.source}: {how} ({column.seconds:.1f} s)")

    if o.reports is None:
        with tempfile.TemporaryDirectory(prefix="t42-compare-") as folder:
            return gather(o.engines, o.settings, Path(folder), jobs, said)
    return gather(o.engines, o.settings, o.reports, jobs, said)


def write_outputs(columns: list[Column], o: CompareOptions) -> int:
    from conformance.compare import text
    from conformance.compare.summary import badge, summarize
    from conformance.report.outputs import replace

    labels = [c.label for c in columns]
    if o.baseline is not None and o.baseline not in labels:
        raise Ended(f"--baseline {o.baseline}: no engine has that label (the labels: "
                    f"{', '.join(labels)})")
    summary = summarize(columns, o.baseline)
    echo("\n" + text.render(summary))
    unwritten = False
    try:
        if o.json_out:
            o.json_out.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
            echo(f"wrote the summary {o.json_out}")
        if o.badges:
            for engine in summary["engines"]:
                name = slugify(engine["label"]) or "engine"
                replace(o.badges / f"{name}.json", json.dumps(badge(engine)) + "\n")
            echo(f"wrote {len(columns)} badge files into {o.badges}")
        if o.html:
            from conformance.book.comparison import write_page

            echo(f"wrote the HTML page {write_page(o.html, summary)}")
    except OSError as error:
        echo(f"t42: an output could not be written: {error.strerror or error}", err=True)
        unwritten = True
    if unwritten:
        return 2
    changes = summary["changes"]
    return 1 if changes and any(c["newly_failing"] for c in changes["against"]) else 0
