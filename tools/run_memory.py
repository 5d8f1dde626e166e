"""Peak memory of `t42 run` over the corpus copied 1, 10, 100 times: what a run keeps.

    python tools/run_memory.py [--times 1 10 100] [--adapter reference]

Each size is a folder of that many copies of scenarios/ (each copy's ids prefixed, so
that they stay unique), run by `t42 run FOLDER` in a process of its own; its peak
resident memory is read from the kernel (ru_maxrss of that process alone). Prints, per
size, the scenarios, the wall time, the peak and its ratio to the first size's.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ID = re.compile(r"^id: (\S+)$", re.MULTILINE)
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$", re.MULTILINE)
# run in a process of its own, whose children's peak is that one run's
MEASURE = ("import resource, subprocess, sys; "
           "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)")


def corpus(folder: Path, times: int) -> int:
    """`times` copies of scenarios/ under `folder`, ids prefixed `cK.`, the modeline's
    schema path made from where the copy is; how many files."""
    schema = ROOT / "spec" / "schemas" / "scenario.schema.json"
    sources = sorted((ROOT / "scenarios").rglob("*.yaml"))
    texts = [(path.relative_to(ROOT / "scenarios"), path.read_text(encoding="utf-8"))
             for path in sources]
    for k in range(times):
        for relative, text in texts:
            target = folder / f"c{k}" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            text = ID.sub(lambda m, k=k: f"id: c{k}.{m.group(1)}", text, count=1)
            line = f"# yaml-language-server: $schema={os.path.relpath(schema, target.parent)}"
            target.write_text(MODELINE.sub(lambda _, line=line: line, text, count=1),
                              encoding="utf-8")
    return len(texts) * times


def peak(folder: Path, adapter: str) -> tuple[float, float, int]:
    """Peak resident MB, wall seconds and exit status of `t42 run FOLDER`."""
    command = [sys.executable, "-c", MEASURE, sys.executable, "-m", "conformance.cli.main",
               "run", str(folder), "--adapter", adapter]
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    kilobytes, status = out.stdout.split()
    return int(kilobytes) / 1024, time.perf_counter() - start, int(status)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, nargs="+", default=[1, 10],
                        help="corpus sizes, in copies of scenarios/ (default: 1 10)")
    parser.add_argument("--adapter", default="reference")
    args = parser.parse_args(argv)
    first = None
    for times in args.times:
        with tempfile.TemporaryDirectory(prefix="t42-corpus-") as tmp:
            count = corpus(Path(tmp), times)
            megabytes, seconds, status = peak(Path(tmp), args.adapter)
        first = first or megabytes
        print(f"{times:>4}x the corpus: {count:,} scenarios, {seconds:.1f} s, peak "
              f"{megabytes:.1f} MB ({megabytes / first:.2f}x the first), exit {status}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
