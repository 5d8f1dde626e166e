"""How long the README's commands take: the test suite, the selftest, the suite's run.

Runs each command as written in the README (or `--pytest-args`), and prints its wall
time, the CPU time of it and its child processes, and the load average before and after,
with the date, commit and machine, as a row for docs/measurements.md. Wall time means
something only on a quiet machine: a load average above the core count says it was not.

    python tools/time_commands.py                   # pytest -n auto, t42 selftest -j 2, t42 run
    python tools/time_commands.py --only selftest
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shlex
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
COMMANDS = {  # name -> the command as the README gives it
    "pytest": "pytest -n auto -q -p no:cacheprovider",
    "selftest": "t42 selftest -j 2",
    "run": "t42 run",
}


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                           cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return (done.stdout.strip() or "?") + ("+changes" if dirty else "")


def timed(command: str) -> dict[str, object]:
    """Run `command` from the checkout; wall and CPU seconds, its last line, loads."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    before_load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(shlex.split(command), cwd=ROOT, env=env, capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines() or [""]
    return {"command": command, "status": done.returncode, "wall": wall, "cpu": cpu,
            "load": (before_load, os.getloadavg()[0]), "last": lines[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(COMMANDS), action="append",
                        help="time only this command (repeatable)")
    parser.add_argument("--pytest-args", help="the test command's arguments instead of "
                        f"{COMMANDS['pytest'][7:]!r}")
    args = parser.parse_args(argv)
    commands = dict(COMMANDS)
    if args.pytest_args is not None:
        commands["pytest"] = f"pytest {args.pytest_args}"
    names = args.only or list(commands)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{stamp}, commit {commit()}, {machine()}")
    print("| command | wall | CPU | load before / after | status | last line |")
    print("| --- | --- | --- | --- | --- | --- |")
    status = 0
    for name in names:
        row = timed(commands[name])
        status |= row["status"] != 0
        load = "{:.1f} / {:.1f}".format(*row["load"])
        print(f"| `{row['command']}` | {row['wall']:.0f} s | {row['cpu']:.0f} s | {load} | "
              f"{row['status']} | {row['last'][:80]} |", flush=True)
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
