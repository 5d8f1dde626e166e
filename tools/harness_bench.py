"""Harness speed: the whole corpus in process and over the protocol, and `t42 --help`.

    python tools/harness_bench.py [--repeat 3]

Targets (README): in process < 3 s; protocol <= 3x in process; --help < 0.3 s.
Each figure is the best of --repeat runs, and includes loading and checking the files.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time


def corpus_seconds(adapter_spec: str) -> tuple[float, int, str]:
    from conformance.adapters.loading import load_adapter
    from conformance.corpus.select import load
    from conformance.run.results import summary_line, totals
    from conformance.run.runner import run_all

    start = time.perf_counter()
    adapter = load_adapter(adapter_spec)
    try:
        results = run_all(load([]), adapter)
    finally:
        adapter.close()
    return time.perf_counter() - start, len(results), summary_line(totals(results))


def help_seconds() -> float:
    t42 = shutil.which("t42")
    command = [t42, "--help"] if t42 else [sys.executable, "-m", "conformance.cli.main", "--help"]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    t42 = shutil.which("t42")
    serve = f"cmd:{t42} serve" if t42 else f"cmd:{sys.executable} -m conformance.cli.main serve"

    runs = [corpus_seconds("reference") for _ in range(args.repeat)]
    inproc, count, summary = min(runs)
    wire, _, wire_summary = min(corpus_seconds(serve) for _ in range(args.repeat))
    start = min(help_seconds() for _ in range(max(args.repeat, 5)))
    print(f"scenarios                 {count}  ({summary})")
    print(f"in process                {inproc:.3f} s  (target < 3 s)")
    print(f"protocol (t42 serve)      {wire:.3f} s  ({wire_summary})")
    print(f"protocol / in process     {wire / inproc:.2f}x  (target <= 3x)")
    print(f"t42 --help                {start:.3f} s  (target < 0.3 s)")


if __name__ == "__main__":
    main()
