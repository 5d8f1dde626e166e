"""The judged run of issues 15 and 27: every hostile adapter
(tests/harness/hostile/test_hostile_adapters.py, and the attacks on a whole run's memory,
processes and terminal of issue 27) against the hostile scenario zoo
(tests/harness/hostile/scenario_zoo.py), a diamond of folder links 22 levels high, a
folder 1,100 levels deep and good scenarios beside them, each `t42 run` under an
address-space limit (`ulimit -v`, default 1.5 GB, for the harness and every process it
starts). Each run must end with its summary line and a non-zero status within its time
limit, print no raw control character, and leave no process of its adapter behind.

    python -m tests.harness.hostile.run                  # all of them
    python -m tests.harness.hostile.run --only HardExit  # the adapters whose spec contains this
                                                 # (and the other commands whose name does)

Prints one line per run (seconds, the harness's peak resident memory, the processes left
behind, the summary line) and the totals; exit status 1 if a run broke a rule. Needs a
checkout (POSIX).
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

ROOT = Path(__file__).resolve().parents[3]  # the checkout

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


# Issue 27's attacks on a whole run (protocol_zoo.always), each over the checkout's corpus
# too.
WHOLE_RUN = ["refuse-1mb", "hello-name-1mb", "view-1mb-wrong", "view-wrong-shape",
             "refuse-escapes", "hello-escapes", "hello-many-variants"]
# Issue 40's adapters (hostile/adapter_zoo.py): tiles as lists in the HTML report, an
# engine that breaks only in the diagnosis's replay.
ISSUE_40 = ["ListTiles", "CrashesInReplay", "HangsInReplay"]
# Issue 40's other commands: each must end within its limit with a failing status, leave
# no process and print no raw control character. (name, argv after `t42`, status wanted)
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)) + \
    "description: *a8\nrules: [RANK-03]\n"


def commands(folder: Path) -> list[tuple[str, list[str]]]:
    from tests.harness.conftest import faux_cmd

    known = folder / "known"
    known.mkdir()
    (known / "bomb.yaml").write_text(BOMB)
    os.mkfifo(known / "fifo.yaml")
    (known / "zero.yaml").symlink_to("/dev/zero")
    two = "python:tests/harness/fauxmplementations/two_causes.py:TwoCauses"
    return [
        ("doctor many_fields", ["doctor", "--adapter", faux_cmd("many_fields")]),
        ("fuzz --known bomb", ["fuzz", "--adapter", two, "--games", "2", "--known",
                               str(known / "bomb.yaml")]),
        ("fuzz --known folder", ["fuzz", "--adapter", two, "--games", "2", "--known",
                                 str(known)]),
        ("fuzz --save under a file", ["fuzz", "--adapter", two, "--games", "2", "--save",
                                      str(known / "bomb.yaml" / "saved")]),
        ("new-adapter under a file", ["new-adapter", "go",
                                      str(known / "bomb.yaml" / "my42")]),
    ]
WITH_HTML = ("view-1mb-wrong", "view-wrong-shape", "ListTiles")  # also --report-html
DIAMOND, DEEP = 22, 1100


def corpus(folder: Path) -> Path:
    from tests.harness.conftest import GOOD
    from tests.harness.hostile.scenario_zoo import SCHEMA, body, materialize

    scenarios = folder / "scenarios"
    materialize(scenarios)
    for source in sorted(GOOD.glob("*.yaml")):
        lines = source.read_text().splitlines(keepends=True)
        lines[0] = f"# yaml-language-server: $schema={SCHEMA}\n"
        (scenarios / f"good-{source.name}").write_text("".join(lines))
    levels = [folder / "levels" / str(i) for i in range(DIAMOND + 1)]
    for level in levels:
        level.mkdir(parents=True)
    for here, below in zip(levels, levels[1:], strict=False):
        for name in "ab":
            os.symlink(below, here / name)
    (levels[-1] / "diamond.yaml").write_text(body("diamond"))
    os.symlink(levels[0], scenarios / "diamond")
    deep = scenarios / "deep"
    for _ in range(DEEP):  # os.makedirs recurses once a level
        deep.mkdir()
        deep = deep / "d"
    return scenarios


def remove(folder: Path) -> None:
    """shutil.rmtree recurses once a level: the deep folder is taken down a level at a time."""
    deep = folder / "scenarios" / "deep"
    chain = []
    while deep.is_dir():
        chain.append(deep)
        deep = deep / "d"
    for level in reversed(chain):
        level.rmdir()
    shutil.rmtree(folder, ignore_errors=True)


def leftovers(flags: Path) -> list[str]:
    """The command lines of the processes still running whose environment or command line
    names this run's flag folder: only the adapter's tree has it (a daemon that empties its
    environment names it on its command line, hostile/protocol_zoo.py)."""
    import psutil

    found = []
    for proc in psutil.process_iter():
        try:
            cmdline = proc.cmdline()
            if (proc.environ().get("T42_HOSTILE_ONCE") == str(flags)
                    or str(flags) in cmdline) and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(" ".join(cmdline))
        except psutil.Error:
            pass
    return found


def left_behind(flags: Path) -> int:
    return len(leftovers(flags))


def raw_controls(text: str) -> bool:
    from conformance.report.safe import safe

    return safe(text) != text


def limit(address_space: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    return apply


def run_one(spec: str, scenarios: Path, flags: Path, args) -> tuple[bool, str]:
    html = ["--report-html", str(flags / "html")] if spec.endswith(WITH_HTML) else []
    # issue 27's attacks on a whole run: over the whole corpus too, where memory grew
    whole = [str(ROOT / "scenarios")] if spec.endswith(tuple(WHOLE_RUN)) else []
    return run_command(["run", "--adapter", spec, "--timeout", str(args.timeout), *html,
                        str(scenarios), *whole], flags, args)


def run_command(argv: list[str], flags: Path, args, summary: bool = True
                ) -> tuple[bool, str]:
    """`t42 ARGV` under the limits; (kept the rules, its line)."""
    import re

    env = {**os.environ, "T42_HOSTILE_ONCE": str(flags), "T42_HOSTILE_STDERR_MB": "100",
           "T42_HOSTILE_VIEW_MB": "300"}
    flags.mkdir()
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, *argv],
            capture_output=True, text=True, env=env, timeout=args.run_limit,
            preexec_fn=limit(args.address_space), cwd=ROOT)
    except subprocess.TimeoutExpired:
        return False, f"no end within {args.run_limit} s"
    left = left_behind(flags)
    seconds = time.perf_counter() - start
    last = done.stdout.strip().splitlines()[-1:] or [""]
    rss = [line for line in done.stderr.splitlines() if line.startswith("maxrss_kb ")]
    peak = int(rss[-1].split()[1]) / 1024 if rss else float("nan")
    printed = done.stdout + "\n".join(line for line in done.stderr.splitlines()
                                        if not line.startswith("maxrss_kb "))
    good = (bool(re.fullmatch(SUMMARY, last[0])) or not summary) \
        and done.returncode not in (0, None) and not left and not raw_controls(printed) \
        and "Traceback" not in printed
    why = "" if good else (f"  BROKE A RULE (status {done.returncode}"
                           f"{', raw control characters' if raw_controls(printed) else ''})")
    return good, f"{seconds:6.1f} s {peak:7.1f} MB {left} left  {last[0]}{why}"


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
    from tests.harness.hostile.test_hostile_adapters import BROKEN, CASES, PERFT_CASES

    zoo = ROOT / "tests" / "harness" / "hostile" / "protocol_zoo.py"
    specs = ["reference"] + [case[0] for case in CASES + PERFT_CASES + BROKEN] + [
        f"cmd:{sys.executable} {zoo} {mode}" for mode in WHOLE_RUN] + [
        f"python:{zoo.parent / 'adapter_zoo.py'}:{name}" for name in ISSUE_40]
    specs = [spec for spec in specs if args.only in spec]
    folder = Path(tempfile.mkdtemp(prefix="t42-hostile-"))
    try:
        scenarios = corpus(folder)
        count = sum(1 for _ in scenarios.iterdir())
        print(f"{len(specs)} adapters x {count} scenario files and folders (a diamond of "
              f"links {DIAMOND} high, a folder {DEEP} deep), each run under "
              f"{args.address_space / (1 << 30):g} GB of address space")
        start, bad = time.perf_counter(), 0
        for number, spec in enumerate(specs):
            good, line = run_one(spec, scenarios, folder / f"flags-{number}", args)
            bad += not good
            name = spec.split()[-1] if spec.startswith("cmd:") else spec.rsplit(":", 1)[-1]
            print(f"{name[-28:]:28} {line}", flush=True)
        others = [(name, argv) for name, argv in commands(folder) if args.only in name]
        for number, (name, argv) in enumerate(others):
            good, line = run_command(argv, folder / f"flags-command-{number}", args,
                                     summary=False)
            bad += not good
            print(f"{name[-28:]:28} {line}", flush=True)
        runs = len(specs) + len(others)
        print(f"{runs} runs in {time.perf_counter() - start:.0f} s: "
              f"{runs - bad} ended with a failing status (each run with its summary line), "
              f"left no process and printed no raw control character or traceback, "
              f"{bad} broke a rule")
    finally:
        remove(folder)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
