"""The diagnosis measured on bugs it was never tuned on: the reference engine's own mutants.

    python tools/mutants_diagnosis.py [--sample 300] [--seed 1] [--jobs 2] [--json FILE]
                                      [--level rules] [--only reference_impl/rules.py ...]

Each mutant is one small change (a comparison turned, a number moved by one, `and` for
`or`, a yes for a no) in one rule function of the engine: a function whose code names
the rules it decides (its docstring, its comments, the refusals it raises). The corpus
runs against the mutated engine as a separate process (`t42 serve` with the mutant first
on PYTHONPATH, the harness and its reference untouched), every option on, and the
report's groups are read from `--report-json`. A killed mutant is scored right when the
rule of its largest group is one the mutated function names, and every-group-right when
every group's is. Mutants that only crash (every failure an error) are counted apart.
The figure goes to docs/measurements.md; it is `tools/mutation.py --diagnosis` too.
Before the figure, per function, the killed mutants whose report names a rule the
function does not (`by_function`): a function naming too few of the rules it decides, or
a misfiling; `--from-json FILE` prints both again from an earlier `--json`.
Not a CI step: a mutant costs 20 s to a minute.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = ("reference_impl/rules.py", "reference_impl/variant_rules.py",
         "reference_impl/match.py", "reference_impl/views.py", "reference_impl/actions.py",
         "reference_impl/setup.py", "reference_impl/dealing.py", "reference_impl/tiles.py")
CLI = "from conformance.cli import main; main()"  # `t42`, by the interpreter running this
RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{2}\b")
NO_MUTATE = re.compile(r"#\s*pragma:\s*no mutate")
SWAPS: dict[type, type] = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE,
                           ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
                           ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Add: ast.Sub,
                           ast.Sub: ast.Add, ast.And: ast.Or, ast.Or: ast.And,
                           ast.Is: ast.IsNot, ast.IsNot: ast.Is}


@dataclass(frozen=True)
class Mutant:
    file: str
    function: str
    line: int
    change: str
    rules: tuple[str, ...]  # the rule IDs the mutated function names
    index: int  # which mutation point of the file (in ast.walk order)


def rules_named(source: str, node: ast.FunctionDef) -> tuple[str, ...]:
    """The rule IDs a function names: its docstring, comments and strings."""
    text = "\n".join(source.splitlines()[node.lineno - 1:node.end_lineno])
    found = RULE_ID.findall(text)
    for first, last in re.findall(rf"({RULE_ID.pattern})\.\.({RULE_ID.pattern})", text):
        prefix = first.rsplit("-", 1)[0]
        if last.startswith(prefix + "-"):
            found += [f"{prefix}-{n:02d}" for n in range(int(first[-2:]), int(last[-2:]) + 1)]
    return tuple(dict.fromkeys(found))


def points(tree: ast.AST) -> list[ast.AST]:
    """Every node a mutation can change, in a fixed order."""
    return [n for n in ast.walk(tree)
            if isinstance(n, ast.Compare) and type(n.ops[0]) in SWAPS
            or isinstance(n, ast.BinOp | ast.BoolOp) and type(n.op) in SWAPS
            or isinstance(n, ast.Constant) and type(n.value) in (int, bool)]


def mutants(files: tuple[str, ...] = FILES) -> list[Mutant]:
    """Every mutant of a rule function (one naming a rule) on a line not marked `no
    mutate`."""
    found = []
    for file in files:
        source = (ROOT / file).read_text()
        lines = source.splitlines()
        tree = ast.parse(source)
        owner: dict[int, ast.FunctionDef] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for inner in ast.walk(node):
                    owner.setdefault(id(inner), node)  # the outermost function holding it
        for index, node in enumerate(points(tree)):
            function = owner.get(id(node))
            if function is None or node is function or NO_MUTATE.search(lines[node.lineno - 1]):
                continue
            named = rules_named(source, function)
            if named and ast.get_docstring(function) is not None and \
                    not _is_docstring(function, node):
                found.append(Mutant(file, function.name, node.lineno, _describe(node), named,
                                    index))
    return found


def _is_docstring(function: ast.FunctionDef, node: ast.AST) -> bool:
    first = function.body[0]
    return isinstance(first, ast.Expr) and node is first.value


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Constant):
        return f"{node.value!r} -> {_constant(node.value)!r}"
    op = node.ops[0] if isinstance(node, ast.Compare) else node.op  # type: ignore[attr-defined]
    return f"{type(op).__name__} -> {SWAPS.get(type(op), type(op)).__name__}"


def _constant(value: int | bool) -> int | bool:
    return (not value) if isinstance(value, bool) else value + 1


def mutate(source: str, index: int) -> str:
    """The source with its mutation point `index` changed."""
    tree = ast.parse(source)
    node = points(tree)[index]
    if isinstance(node, ast.Constant):
        node.value = _constant(node.value)
    elif isinstance(node, ast.Compare):
        node.ops[0] = SWAPS.get(type(node.ops[0]), type(node.ops[0]))()
    else:
        node.op = SWAPS.get(type(node.op), type(node.op))()  # type: ignore[attr-defined]
    return ast.unparse(tree)


def run_one(mutant: Mutant, level: str, scratch: Path) -> dict:
    """The corpus against one mutant; its groups, judged."""
    where = scratch / f"m{mutant.index}-{Path(mutant.file).stem}"
    shutil.copytree(ROOT / "reference_impl", where / "reference_impl")
    target = where / mutant.file
    target.write_text(mutate(target.read_text(), mutant.index))
    report = where / "report.json"
    # the adapter's process reads the mutant first; the harness, the checkout's engine
    serve = f"env PYTHONPATH={where} {sys.executable} -P -c '{CLI}' serve"  # -P: not the cwd
    command = [sys.executable, "-c", CLI, "run", "--adapter", f"cmd:{serve}",
               "--level", level, "--report-json", str(report)]
    try:
        subprocess.run(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                       capture_output=True, timeout=900, check=False)
        result = json.loads(report.read_text()) if report.exists() else None
    except subprocess.TimeoutExpired:
        result = None
    shutil.rmtree(where, ignore_errors=True)
    return judge(mutant, result)


def judge(mutant: Mutant, report: dict | None) -> dict:
    """A mutant's verdict: survived, crashed only, or its groups scored."""
    out = {**asdict(mutant), "groups": []}
    if report is None:
        return {**out, "verdict": "no report"}
    totals = report["totals"]
    groups = [g for g in report["groups"] if re.fullmatch(RULE_ID.pattern, g["rule"])]
    out["groups"] = [(g["rule"], g["count"]) for g in report["groups"]]
    if not totals.get("failed") and not totals.get("errored"):
        return {**out, "verdict": "survived"}
    if not groups:
        return {**out, "verdict": "crashed only"}
    largest = max(groups, key=lambda g: g["count"])
    return {**out, "verdict": "killed", "largest_right": largest["rule"] in mutant.rules,
            "every_right": all(g["rule"] in mutant.rules for g in groups),
            "largest_listed": _lists(largest, mutant.rules),
            "every_listed": all(_lists(g, mutant.rules) for g in groups),
            "group_count": len(groups)}


def _lists(group: dict, rules: tuple[str, ...]) -> bool:
    """A group lists a rule of the bug: its own, one the run cannot tell from it
    (`either`), or one of the one decision that explains it (`also`)."""
    return bool({group["rule"], *group.get("either", ()), *group.get("also", ())} & set(rules))


def run_engine(bug: dict, level: str, scratch: Path, pythonpath: str,
               options: bool = False) -> dict:
    """The base corpus (with `options`, every scenario of the options the engine
    declares) against one engine of a manifest (`--manifest`): a held-out engine with one
    bug, the rules it breaks named by whoever wrote it."""
    report = scratch / f"{bug['name']}.json"
    command = [sys.executable, "-c", CLI, "run", "--adapter", bug["adapter"],
               *(() if options else ("--variant", "base")), "--level", level,
               "--report-json", str(report)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((pythonpath, str(ROOT)))}
    try:
        subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=900,
                       check=False)
        result = json.loads(report.read_text()) if report.exists() else None
    except subprocess.TimeoutExpired:
        result = None
    mutant = Mutant("", bug["name"], 0, bug["adapter"], tuple(bug["rules"]), 0)
    return judge(mutant, result)


def summary(verdicts: list[dict]) -> str:
    killed = [v for v in verdicts if v["verdict"] == "killed"]
    if not killed:
        return "no mutant killed with a rule group"
    largest = sum(v["largest_right"] for v in killed)
    every = sum(v["every_right"] for v in killed)
    groups = sum(v["group_count"] for v in killed) / len(killed)
    listed = sum(v.get("largest_listed", v["largest_right"]) for v in killed)
    every_listed = sum(v.get("every_listed", v["every_right"]) for v in killed)
    others = {k: sum(v["verdict"] == k for v in verdicts)
              for k in ("survived", "crashed only", "no report")}
    return (f"{len(verdicts)} bugs: {len(killed)} killed with rule groups "
            f"({', '.join(f'{n} {k}' for k, n in others.items())}); largest group names a "
            f"rule the bug breaks for {largest} ({largest / len(killed):.0%}), "
            f"every group for {every} ({every / len(killed):.0%}); "
            f"{groups:.1f} groups a bug; counting the rules a group lists besides its own "
            f"(`either`, `also`): largest {listed} ({listed / len(killed):.0%}), every "
            f"{every_listed} ({every_listed / len(killed):.0%})")


def by_function(verdicts: list[dict]) -> list[str]:
    """Per mutated function, the killed mutants whose report names a rule the function
    does not: where the function decides more than it names (add the rule to its
    docstring) or the diagnosis misfiles (fix the mechanism). Worst first."""
    per: dict[tuple[str, str], list[dict]] = {}
    for v in verdicts:
        if v["verdict"] == "killed":
            per.setdefault((v["file"], v["function"]), []).append(v)
    lines = []
    for (file, function), killed in sorted(
            per.items(), key=lambda kv: (-sum(not v["every_right"] for v in kv[1]), kv[0])):
        wrong = [v for v in killed if not v["every_right"]]
        if not wrong:
            continue
        others: dict[str, int] = {}
        for v in wrong:
            for rule, _ in v["groups"]:
                if RULE_ID.fullmatch(rule) and rule not in v["rules"]:
                    others[rule] = others.get(rule, 0) + 1
        named = ", ".join(f"{r} {n}" for r, n in sorted(others.items(), key=lambda x: -x[1]))
        lines.append(f"{file}:{function}: {len(wrong)} of {len(killed)} killed name other "
                     f"rules: {named} (it names {', '.join(killed[0]['rules'][:8])})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=300, help="mutants drawn (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--level", default="rules", choices=("rules", "strict"))
    parser.add_argument("--json", type=Path, help="write every verdict here")
    parser.add_argument("--only", nargs="+", metavar="FILE", help="mutate these files")
    parser.add_argument("--manifest", type=Path,
                        help="instead of mutants, the engines a manifest names (YAML: bugs: "
                        "name, adapter, rules), e.g. a held-out set kept outside the project")
    parser.add_argument("--pythonpath", default="", help="where the manifest's engines live")
    parser.add_argument("--options", action="store_true",
                        help="run a manifest's engines with the options they declare, not "
                        "the base game alone")
    parser.add_argument("--from-json", type=Path, metavar="FILE",
                        help="run nothing: summarise the verdicts an earlier --json wrote")
    args = parser.parse_args(argv)
    if args.from_json:
        verdicts = json.loads(args.from_json.read_text())
        print("\n".join(by_function(verdicts)))
        print(summary(verdicts))
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="t42-diagnosis-"))
    if args.manifest:
        import yaml

        chosen: list = yaml.safe_load(args.manifest.read_text())["bugs"]
        print(f"{len(chosen)} engines of {args.manifest}, level {args.level}"
              f"{', the options they declare' if args.options else ', the base game'}",
              flush=True)

        def one(bug: dict) -> dict:
            return run_engine(bug, args.level, scratch, args.pythonpath, args.options)
    else:
        every = mutants(tuple(args.only) if args.only else FILES)
        chosen = every if not args.sample or args.sample >= len(every) else \
            random.Random(args.seed).sample(every, args.sample)
        print(f"{len(chosen)} of {len(every)} mutants of rule functions, seed {args.seed}, "
              f"{args.jobs} jobs, level {args.level}", flush=True)

        def one(mutant: Mutant) -> dict:  # type: ignore[misc]
            return run_one(mutant, args.level, scratch)
    verdicts = []
    with ThreadPoolExecutor(args.jobs) as pool:
        for n, verdict in enumerate(pool.map(one, chosen), 1):
            verdicts.append(verdict)
            right = {True: "right", False: "WRONG"}.get(verdict.get("largest_right"), "")
            print(f"[{n}/{len(chosen)}] {verdict['file']}:{verdict['line']} "
                  f"{verdict['function']} {verdict['change']}: {verdict['verdict']} {right} "
                  f"{verdict['groups'][:4]} (names {', '.join(verdict['rules'][:6])})",
                  flush=True)
            if args.json:
                args.json.write_text(json.dumps(verdicts, indent=1))
    shutil.rmtree(scratch, ignore_errors=True)
    if not args.manifest:
        print("\n".join(by_function(verdicts)))
    print(summary(verdicts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
