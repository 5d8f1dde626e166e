"""The judged run of issue 15: every hostile adapter (tests/harness/test_hostile_adapters.py)
against the hostile scenario zoo (tests/harness/hostile/scenario_zoo.py) and good
scenarios beside it, each `t42 run` under an address-space limit (`ulimit -v`, default
1.5 GB, for the harness and every process it starts). Each run must end with its summary
line and a non-zero status within its time limit.

    python tools/hostile_run.py                  # all of them
    python tools/hostile_run.py --only HardExit  # the adapters whose spec contains this

Prints one line per run (seconds, the harness's peak resident memory, the summary line)
and the totals; exit status 1 if a run broke a rule. Needs a checkout (POSIX).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The child: t42 run in this interpreter, then its own peak RSS (KB) on the last line of
# stderr. The harness is measured alone; the workers it starts have their own limits.
CHILD = """
import resource, sys
from conformance.cli.main import main
try:
    main(sys.argv[1:], prog_name="t42")
except SystemExit as done:
    code = done.code if isinstance(done.code, int) else 1
else:
    code = 0
sys.stdout.flush()
print(f"maxrss_kb {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
sys.exit(code)
"""
SUMMARY = r"\d+ passed, \d+ failed, \d+ errored, \d+ skipped, \d+ not judged at level \w+"


def corpus(folder: Path) -> Path:
    from tests.harness.conftest import GOOD
    from tests.harness.hostile.scenario_zoo import SCHEMA, materialize

    scenarios = folder / "scenarios"
    materialize(scenarios)
    for source in sorted(GOOD.glob("*.yaml")):
        lines = source.read_text().splitlines(keepends=True)
        lines[0] = f"# yaml-language-server: $schema={SCHEMA}\n"
        (scenarios / f"good-{source.name}").write_text("".join(lines))
    return scenarios


def limit(address_space: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    return apply


def run_one(spec: str, scenarios: Path, flags: Path, args) -> tuple[bool, str]:
    import re

    env = {**os.environ, "T42_HOSTILE_ONCE": str(flags), "T42_HOSTILE_STDERR_MB": "100",
           "T42_HOSTILE_VIEW_MB": "300"}
    flags.mkdir()
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, "run", "--adapter", spec, "--timeout",
             str(args.timeout), str(scenarios)],
            capture_output=True, text=True, env=env, timeout=args.run_limit,
            preexec_fn=limit(args.address_space), cwd=ROOT)
    except subprocess.TimeoutExpired:
        return False, f"no end within {args.run_limit} s"
    seconds = time.perf_counter() - start
    last = done.stdout.strip().splitlines()[-1:] or [""]
    rss = [line for line in done.stderr.splitlines() if line.startswith("maxrss_kb ")]
    peak = int(rss[-1].split()[1]) / 1024 if rss else float("nan")
    good = bool(re.fullmatch(SUMMARY, last[0])) and done.returncode not in (0, None)
    why = "" if good else f"  BROKE A RULE (status {done.returncode})"
    return good, f"{seconds:6.1f} s {peak:7.1f} MB  {last[0]}{why}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="adapters whose spec contains this")
    parser.add_argument("--address-space", type=float, default=1.5,
                        help="GB of address space for each run (ulimit -v)")
    parser.add_argument("--timeout", type=float, default=5.0, help="t42 run --timeout")
    parser.add_argument("--run-limit", type=float, default=600.0,
                        help="seconds one whole run may take")
    args = parser.parse_args(argv)
    args.address_space = int(args.address_space * (1 << 30))
    from tests.harness.test_hostile_adapters import BROKEN, CASES, PERFT_CASES

    specs = ["reference"] + [case[0] for case in CASES + PERFT_CASES + BROKEN]
    specs = [spec for spec in specs if args.only in spec]
    folder = Path(tempfile.mkdtemp(prefix="t42-hostile-"))
    try:
        scenarios = corpus(folder)
        count = sum(1 for _ in scenarios.iterdir())
        print(f"{len(specs)} adapters x {count} scenario files, each run under "
              f"{args.address_space / (1 << 30):g} GB of address space")
        start, bad = time.perf_counter(), 0
        for number, spec in enumerate(specs):
            good, line = run_one(spec, scenarios, folder / f"flags-{number}", args)
            bad += not good
            name = spec.split()[-1] if spec.startswith("cmd:") else spec.rsplit(":", 1)[-1]
            print(f"{name[-28:]:28} {line}", flush=True)
        print(f"{len(specs)} runs in {time.perf_counter() - start:.0f} s: "
              f"{len(specs) - bad} ended with their summary line and a failing status, "
              f"{bad} broke a rule")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
