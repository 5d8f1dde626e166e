"""The reference engine's speed against another revision, in instructions, not seconds.

    python tools/bench_compare.py [BASE] [--rounds 400] [--positions 2000] [--perfts 20]

On a shared machine a timed benchmark (`t42 bench`) varies by tens of percent from run
to run, far more than the few percent a refactor costs. Valgrind's callgrind counts the
instructions a workload executes, which is repeatable to the instruction for the same
code, input and interpreter, whatever else the machine does. Each workload of
`reference_impl/bench.py` (policy (a) and (b) rounds, passes of `legal_actions()` over
2000 positions, depth-3 perfts) runs under callgrind in the working tree and in BASE (a
git revision, exported with `git archive`; default `ca967ee`, the engine before the
Rules seam of issue 12), once with the work and once without it, so that the
interpreter's start and imports cancel out. It prints instructions per unit of work for
each tree and their ratio.

Needs valgrind (`apt-get install valgrind`). PYTHONHASHSEED is fixed so that dict and
set layouts, and so the counts, repeat.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BASE = "ca967ee"

# Run inside each tree (argv: tree, workload, count); only bench.py's public functions.
WORKLOAD = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
from reference_impl.bench import (bid30_bidding, bid30_round, new_round, positions,
                                  uniform_round)
from reference_impl.perft import perft
work, count = sys.argv[2], int(sys.argv[3])
rng = random.Random(7)
if work == "legal":  # as `t42 bench`: repeated passes over the same positions
    sample = positions(int(sys.argv[4]), 7)  # built in both runs: only the calls differ
    for _ in range(count):
        for m in sample:
            m.legal_actions()
elif work == "perft":
    for _ in range(count):
        m = new_round(rng)
        bid30_bidding(m)
        m.apply(rng.choice(m.legal_actions()))
        perft(m, 3)
else:
    play = bid30_round if work == "rounds_a" else uniform_round
    for _ in range(count):
        play(new_round(rng), rng)
"""


def instructions(tree: Path, work: str, count: int, extra: list[str]) -> int:
    """Instructions callgrind counts for one run of the workload."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, "-c", WORKLOAD, str(tree), work, str(count), *extra]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tree)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"bench_compare: {work} in {tree} failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_unit(tree: Path, work: str, count: int, extra: list[str]) -> float:
    """Instructions per unit of work: the run with `count` units less the run with none."""
    return (instructions(tree, work, count, extra) - instructions(tree, work, 0, extra)) / count


def export(revision: str, into: Path) -> Path:
    """The engine of `revision`, as `git archive` writes it."""
    archive = into / "base.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision, "reference_impl"],
                       stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "base", filter="data")
    return into / "base"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?", default=DEFAULT_BASE,
                        help=f"git revision to compare with (default {DEFAULT_BASE})")
    parser.add_argument("--rounds", type=int, default=400, help="rounds per policy")
    parser.add_argument("--positions", type=int, default=2000,
                        help="positions of random rounds whose legal actions are listed")
    parser.add_argument("--passes", type=int, default=3,
                        help="passes of legal_actions() over those positions")
    parser.add_argument("--perfts", type=int, default=20, help="depth-3 perfts")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("bench_compare: valgrind not found (apt-get install valgrind)")
    workloads = [("rounds_a", "policy (a) round", args.rounds, []),
                 ("rounds_b", "policy (b) round", args.rounds, []),
                 ("legal", "legal_actions() pass", args.passes, [str(args.positions)]),
                 ("perft", "depth-3 perft", args.perfts, [])]
    with tempfile.TemporaryDirectory() as scratch:
        base = export(args.base, Path(scratch))
        print(f"instructions per unit (callgrind): working tree {ROOT} against {args.base}")
        print(f"{'workload':24} {'base':>12} {'this tree':>12} {'ratio':>7}")
        for work, unit, count, extra in workloads:
            before = per_unit(base, work, count, extra)
            after = per_unit(ROOT, work, count, extra)
            print(f"{unit:24} {before:12,.0f} {after:12,.0f} {after / before:7.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
