"""Mutation testing of the reference engine's rule code, with the scenario corpus as the
only test. Not a CI step: it takes minutes.

    python tools/mutation.py [--jobs 2] [--timeout 7200] [--workdir DIR] [--json FILE]
                               [--only reference_impl/variants.py ...]

mutmut 3 ([tool.mutmut] in pyproject.toml) runs in a scratch copy of the checkout, so
the working tree (where other people work) gets no `mutants/` folder and a run sees one
consistent snapshot. The corpus is run by the pytest plugin (`pytest scenarios`).
`--only` mutates the files it names instead of `only_mutate` (it rewrites that list in
the scratch copy's pyproject.toml only), and stale entries are then reported only for
those files.

This file is also the pytest plugin mutmut loads (`-p tools.mutation`): the engine
caches what it derives from its rules (tables per `Rules`, canonical action dicts), and
a cache filled by one test would hide a mutant from every later test in the same
process, so every cache is emptied before each scenario.

The figure is killed / (all mutants - diagnostic-only - out of scope). Mutants that
cannot change any observable behaviour are never made: the engine marks their lines
`# pragma: no mutate`, bare, and tools/equivalent_mutants.yaml says why, one entry per
mark (file, function, the line's code, reason), so the engine reads as rules. A run
first checks that every mark has its entry and every entry its mark, then lists every
mutant of a line marked `no mutate` (a pragma mutmut does not see), and fails on either,
whatever the score. OUT_OF_SCOPE names, by their qualified names
(`match.Match.to_json`), the functions no scenario can reach through the adapter
protocol; an entry that names no function of the run is reported as stale. Nothing here
depends on how mutmut names its mutants but `qualified()`.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REASONS = ROOT / "tools" / "equivalent_mutants.yaml"
COPIED = ("reference_impl", "conformance", "spec", "scenarios", "pyproject.toml",
          "tools/mutation.py")
TARGET = 0.95

# Functions of the mutated files that the conformance protocol never calls: JSON
# round-trips, seeded deals and debugging aids (the engine's own tests cover them).
OUT_OF_SCOPE: dict[str, str] = {
    "match.Match.from_seed": "random deals: scenarios give every deal",
    "match.Match.to_json": "serialisation: not part of the adapter protocol",
    "match.Match.from_json": "serialisation: not part of the adapter protocol",
    "match.Match.__eq__": "engine equality: not part of the adapter protocol",
    "match.Match._snapshot": "engine equality: not part of the adapter protocol",
    "actions.action_from_key": "inverse of action keys, used by from_json only",
    "variants.rules_by_table": "option tables of planted bugs: scenarios run the reference's",
    "dealing.draw_first_dealer": "random first dealer, used by from_seed only: a setup "
                                   "gives `dealer` or `draws`",
    "views.covered_in_view": "the harness's judge of VIS-06 leaks (run/runner.py), kept "
                             "beside covered_tricks so the rule is written once: it reads "
                             "a view, the engine never calls it; the selftest plants "
                             "covered-tricks-shown and cover-moves-mid-trick test it",
}

# Functions whose every outcome is one fixed code: a mutant can only change the message.
DIAGNOSTIC_FUNCTIONS: dict[str, str] = {
    "actions.fields_problem": "returns MALFORMED_ACTION on every path; only the message "
                                "(which field is missing or extra) varies",
    "setup.marks_rule": "returns the rule ID that INVALID_SETUP cites for starting marks "
                        "out of range; a rule ID never crosses the protocol",
}

# Functions that return None or a message: the caller rejects with one fixed code
# whatever the message says, so a mutant that only rewords a message changes nothing.
MESSAGE_FUNCTIONS: dict[str, str] = {
    "dealing.draws_problem": "parse_draws raises INVALID_SETUP with any message it gets",
}

# ---- the pytest plugin half ------------------------------------------------------------


def pytest_configure(config: object) -> None:
    """A function the engine calls while it is imported (to build a table) only shows its
    mutant if the engine is imported again with that mutant active."""
    load_each_scenario_once()
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if mutant and qualified(mutant) in _import_time_functions():
        for name in [n for n in sys.modules if n.split(".")[0] == "reference_impl"]:
            del sys.modules[name]
        try:  # an engine that no longer imports is a kill, not a collection error (which
            # pytest reports as exit status 2, "interrupted", and mutmut as not checked)
            importlib.import_module("reference_impl")
        except Exception as error:  # noqa: BLE001 - whatever the mutant raises
            import pytest

            pytest.exit(f"the engine does not import with {mutant}: {error!r}", returncode=1)
        # mutmut saw these calls in the first test only (the import happens there): run
        # the whole corpus instead
        config.args = ["scenarios"]  # type: ignore[attr-defined]


_LOADED: dict[str, object] = {}


def load_each_scenario_once() -> None:
    """Load each scenario file once per mutmut process, not once per mutant: mutmut forks
    every mutant's run from its main process, which has collected the corpus by then, so
    each run inherits the files loaded (YAML, schema, the contract shortcut: most of a
    run's time). They were loaded by the engine as it is, before any mutant, which
    makes the corpus the same for every mutant: a mutant that breaks the bidding of a
    contract shortcut is then caught by the run, not by the loader."""
    from conformance.corpus import scenario

    plain = scenario.load_scenario
    if getattr(plain, "once", False):
        return

    def load(path: Path, index: object = None) -> object:
        if index is not None:
            return plain(path, index)
        key = os.path.abspath(path)
        if key not in _LOADED:
            _LOADED[key] = plain(path)
        return _LOADED[key]

    load.once = True  # type: ignore[attr-defined]
    scenario.load_scenario = load  # type: ignore[assignment]


_IMPORT_TIME: set[str] = set()


def _import_time_functions() -> set[str]:
    """import_time_functions of the engine, found once per mutmut process."""
    if not _IMPORT_TIME:
        _IMPORT_TIME.update(import_time_functions(Path("reference_impl")) or {""})
    return _IMPORT_TIME


def pytest_runtest_setup(item: object) -> None:
    clear_engine_caches()


def import_time_functions(package: Path) -> set[str]:
    """`module.name` of every engine function called at import time (module-level code
    and class bodies), and of the functions those call, by name."""
    bodies: dict[str, list[ast.AST]] = {}  # function name -> bodies defining it
    where: dict[str, set[str]] = {}  # function name -> modules defining it
    roots: set[str] = set()
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and "__mutmut_" not in node.name:
                bodies.setdefault(node.name, []).append(node)
                where.setdefault(node.name, set()).add(path.stem)
        roots |= _called_names(tree, skip_functions=True)
    found, todo = set(), [n for n in roots if n in bodies]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += [n for b in bodies[name] for n in _called_names(b) if n in bodies]
    return {f"{module}.{name}" for name in found for module in where[name]}


def _is_main_guard(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)


def _called_names(tree: ast.AST, skip_functions: bool = False) -> set[str]:
    names, todo = set(), [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if skip_functions and (isinstance(child, ast.FunctionDef | ast.Lambda)
                                   or _is_main_guard(child)):
                continue
            if isinstance(child, ast.Call):
                func = child.func
                names.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
            todo.append(child)
    return names


def clear_engine_caches() -> None:
    reference_impl = sys.modules.get("reference_impl")
    if reference_impl is not None:
        reference_impl.clear_caches()


# ---- running mutmut ----------------------------------------------------------------------


def prepare(workdir: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "_data")
    for name in COPIED:
        source, target = ROOT / name, workdir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=ignore)
        else:
            shutil.copy2(source, target)


ONLY_MUTATE = re.compile(r"^only_mutate\s*=\s*\[.*?\]", re.MULTILINE | re.DOTALL)


def check_only(files: list[str]) -> None:
    for name in files:
        if not (name.startswith("reference_impl/") and name.endswith(".py")
                and (ROOT / name).is_file()):
            raise SystemExit(f"--only: {name} is not a file of reference_impl/")


def restrict(workdir: Path, files: list[str]) -> None:
    """Mutate only `files` in the scratch copy: its [tool.mutmut] only_mutate becomes them."""
    pyproject = workdir / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    listed = "only_mutate = [" + ", ".join(json.dumps(n) for n in files) + "]"
    new, count = ONLY_MUTATE.subn(lambda _: listed, text, count=1)
    if count != 1:
        raise SystemExit("pyproject.toml has no [tool.mutmut] only_mutate list to override")
    pyproject.write_text(new, encoding="utf-8")


def run_mutmut(workdir: Path, jobs: int, timeout: float) -> bool:
    """True if mutmut finished within `timeout` seconds (else what it did is kept)."""
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)]
    env = dict(os.environ)
    with (workdir / "mutmut.log").open("w") as log:
        process = subprocess.Popen(command, cwd=workdir, stdout=log, stderr=subprocess.STDOUT,
                                   env=env, start_new_session=True)
        try:
            process.wait(timeout=timeout)
            return process.returncode == 0
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
            return False


def statuses(workdir: Path) -> dict[str, str]:
    """mutant name -> status, from the .meta files mutmut writes."""
    from mutmut.stats import status_by_exit_code

    found = {}
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        for name, code in codes.items():
            found[name] = status_by_exit_code[code]
    return found


# ---- reading the mutants -------------------------------------------------------------


def qualified(name: str) -> str:
    """A mutant's function by its qualified name (`rules.follows`, `match.Match.apply`),
    decoded from the name mutmut gives the mutant: the only place that knows how mutmut
    names them."""
    module, _, rest = re.sub(r"__mutmut_\d+$", "", name.removeprefix("reference_impl.")
                             ).partition(".")
    if rest.startswith("x\u01c1"):  # x<sep>Class<sep>method
        return f"{module}." + ".".join(rest[2:].split("\u01c1"))
    return f"{module}.{rest.removeprefix('x_')}"


class Sources:
    """The mutated files: each mutant is a function `<name>__mutmut_<n>` beside the
    original `<name>__mutmut_orig`."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.files: dict[str, tuple[str, dict[str, ast.FunctionDef]]] = {}

    def functions(self, module: str) -> tuple[str, dict[str, ast.FunctionDef]]:
        if module not in self.files:
            path = self.workdir / "mutants" / "reference_impl" / f"{module}.py"
            text = path.read_text(encoding="utf-8")
            defs = {node.name: node for node in ast.walk(ast.parse(text))
                    if isinstance(node, ast.FunctionDef)}
            self.files[module] = (text, defs)
        return self.files[module]

    def pair(self, name: str) -> tuple[str, ast.FunctionDef, ast.FunctionDef] | None:
        """(source text, original def, mutant def) of a mutant."""
        module, _, mutant = name.removeprefix("reference_impl.").partition(".")
        text, defs = self.functions(module)
        original = defs.get(re.sub(r"__mutmut_\d+$", "__mutmut_orig", mutant))
        changed = defs.get(mutant)
        return (text, original, changed) if original and changed else None

    def diff(self, name: str) -> str:
        found = self.pair(name)
        if not found:
            return "(source not found)"
        text, original, changed = found
        before = (ast.get_source_segment(text, original) or "").splitlines()
        after = (ast.get_source_segment(text, changed) or "").splitlines()
        after[:1] = [after[0].replace(changed.name, original.name)] if after else []
        return "\n".join(difflib.unified_diff(before, after, lineterm="", n=1,
                                               fromfile="original", tofile=name))


# ---- what the protocol cannot see: messages and rule IDs ------------------------------

# A rejection reaches the harness as its code only (and a message nobody may expect,
# CONTRIBUTING.md); the rule ID stays inside the engine. Calls that build one keep their
# first N arguments here (the code), the rest only label the message.
KEPT_ARGS = {"IllegalAction": 1, "invalid": 0, "malformed": 0, "ValueError": 0,
             "fields_problem": 0,  # MALFORMED_ACTION whatever its arguments
             "parse_tiles": 2,  # parse_tiles(value, count, label-for-the-message)
             "parse_tile": 1}  # parse_tile(value, label-for-the-message)


def error_codes() -> frozenset[str]:
    from reference_impl.errors import CODES

    return frozenset(CODES)


SAFE_CALLS = frozenset({"map", "sorted", "str", "repr", "len", "join", "get",
                        "marks_rule"})  # reads two fields of its Rules: a rule ID


def names_rule(name: str | None) -> bool:
    """A keyword argument or a field that holds a rule ID for a message (`rule=`,
    `step_rule=`, `"marks_raise_rule": ...`) or rule IDs by value (`value_rules=`), never
    a code."""
    return name is not None and (name == "rule" or name.endswith(("_rule", "_rules")))
PLACEHOLDER = ast.Constant("<diagnostic>")


def safe(node: ast.AST) -> bool:
    """True if evaluating `node` cannot raise: literals, names, f-strings and joins of
    them. A message whose mutant could raise (a crash the harness sees) is not dropped."""
    if isinstance(node, ast.Constant | ast.Name):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        return name in SAFE_CALLS and all(map(safe, [*node.args, func]))
    if isinstance(node, ast.GeneratorExp | ast.ListComp):
        return safe(node.elt) and all(safe(g.iter) for g in node.generators)
    if isinstance(node, ast.Lambda):
        return False
    children = list(ast.iter_child_nodes(node))
    return isinstance(node, ast.expr) and all(
        safe(c) for c in children if isinstance(c, ast.expr))


def neutral(node: ast.expr) -> ast.expr:
    return PLACEHOLDER if safe(node) else node


class _Diagnostics(ast.NodeTransformer):
    """Replaces message and rule-ID arguments, and the rule and message of problem
    tuples (code, rule, message), by a placeholder when they cannot raise."""

    def __init__(self, codes: frozenset[str], messages: bool = False) -> None:
        self.codes = codes
        self.messages = messages  # returned strings are messages (MESSAGE_FUNCTIONS)

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        if self.messages and _is_message(node.value):
            node.value = neutral(node.value)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in KEPT_ARGS:
            kept = KEPT_ARGS[name]
            rest = [neutral(a) for a in node.args[kept:]]
            node.args = node.args[:kept] + [a for a in rest if a is not PLACEHOLDER]
            node.keywords = []
        # a keyword `rule=` (`step_rule=`, ...) names a rule ID for a message, never a code
        node.keywords = [k for k in node.keywords if not names_rule(k.arg) or not safe(k.value)]
        return node

    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        """A Rules field that holds a rule ID (`"marks_raise_rule": "RAISE-02"`)."""
        self.generic_visit(node)
        pairs = [(k, v) for k, v in zip(node.keys, node.values, strict=True)
                 if not (isinstance(k, ast.Constant) and isinstance(k.value, str)
                         and names_rule(k.value) and safe(v))]
        node.keys, node.values = [k for k, _ in pairs], [v for _, v in pairs]
        return node

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        self.generic_visit(node)
        first = node.elts[0] if node.elts else None
        if isinstance(first, ast.Constant) and first.value in self.codes:
            rest = [neutral(e) for e in node.elts[1:]]
            node.elts = [first] + [e for e in rest if e is not PLACEHOLDER]
        return node


def _is_message(node: ast.expr | None) -> bool:
    """A string that cannot be empty: a non-empty literal or an f-string with some text."""
    def text(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value != ""
    return text(node) or (isinstance(node, ast.JoinedStr) and any(map(text, node.values)))


def _drop_dead_stores(function: ast.FunctionDef) -> None:
    """Values stored in names nothing reads any more (a message's parts, a rule ID)."""
    for _ in range(3):
        loaded = {n.id for n in ast.walk(function)
                  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                stored = [n.id for t in targets for n in ast.walk(t)
                          if isinstance(n, ast.Name)]
                if stored and not set(stored) & loaded:
                    node.value = neutral(node.value)
        for node in ast.walk(function):
            # `for n, x in enumerate(xs, start)` where nothing reads n: start is dead
            if (isinstance(node, ast.For) and isinstance(node.target, ast.Tuple)
                    and isinstance(node.target.elts[0], ast.Name)
                    and node.target.elts[0].id not in loaded
                    and isinstance(node.iter, ast.Call)
                    and getattr(node.iter.func, "id", None) == "enumerate"):
                call = node.iter
                call.args[1:] = [a for a in call.args[1:] if neutral(a) is not PLACEHOLDER]
                call.keywords = [k for k in call.keywords if not safe(k.value)]
        for node in ast.walk(function):
            if isinstance(node, ast.If) and all(_is_neutral_store(b)
                                                for b in node.body + node.orelse):
                node.test = neutral(node.test)  # it only chooses between dead stores
        args = function.args
        first_default = len(args.args) - len(args.defaults)
        for i, arg in enumerate(args.args[first_default:]):
            if arg.arg not in loaded:
                args.defaults[i] = neutral(args.defaults[i])


def _is_neutral_store(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign | ast.AugAssign) and node.value is PLACEHOLDER


def _normalised(function: ast.FunctionDef, codes: frozenset[str], messages: bool) -> str:
    import copy

    tree = _Diagnostics(codes, messages).visit(copy.deepcopy(function))
    tree.name = "f"
    _drop_dead_stores(tree)
    return ast.dump(tree, annotate_fields=False)


def diagnostic_only(sources: Sources, name: str, codes: frozenset[str]) -> bool:
    """True if the mutant changes only what a rejection says, not which code it has."""
    found = sources.pair(name)
    if not found:
        return False
    _, original, changed = found
    messages = qualified(name) in MESSAGE_FUNCTIONS
    return _normalised(original, codes, messages) == _normalised(changed, codes, messages)


# ---- judging the survivors ----------------------------------------------------------


def module_of(function: str) -> str:
    """`rules.follows` -> `rules`."""
    return function.partition(".")[0]


def judge(names: list[str], status: dict[str, str], sources: Sources) -> dict:
    """Split the mutants into killed, survived, diagnostic, out of scope. An entry of
    OUT_OF_SCOPE is stale if its file was mutated in this run and no mutant is of its
    function (a run of some files says nothing of the others)."""
    codes = error_codes()
    mutated = {module_of(qualified(name)) for name in names}
    seen_scope = set()
    verdict: dict[str, list] = {k: [] for k in (
        "killed", "survived", "diagnostic", "out_of_scope", "not_checked")}
    for name in names:
        function, state = qualified(name), status[name]
        if function in OUT_OF_SCOPE:
            seen_scope.add(function)
            verdict["out_of_scope"].append(name)
        elif state in ("killed", "timeout", "segfault", "caught by type check"):
            verdict["killed"].append(name)
        elif state == "not checked":
            verdict["not_checked"].append(name)
        elif function in DIAGNOSTIC_FUNCTIONS or diagnostic_only(sources, name, codes):
            verdict["diagnostic"].append(name)
        else:
            verdict["survived"].append(name)
    verdict["stale"] = [f"OUT_OF_SCOPE {f}" for f in OUT_OF_SCOPE
                        if f not in seen_scope and module_of(f) in mutated]
    return verdict


def report(verdict: dict, status: dict[str, str], sources: Sources) -> float:
    killed = len(verdict["killed"])
    scored = killed + len(verdict["survived"]) + len(verdict["not_checked"])
    rate = killed / scored if scored else 0.0
    for name in verdict["survived"]:
        print(f"\n--- SURVIVED ({status[name]}) {name}")
        print(sources.diff(name))
    for line in verdict["stale"]:
        print(f"stale entry (matches no mutant of this run): {line}")
    total = sum(len(v) for k, v in verdict.items() if k != "stale")
    print(f"\nmutants {total}: killed {killed}, survived {len(verdict['survived'])}, "
          f"not checked {len(verdict['not_checked'])}; not scored: "
          f"diagnostic-only {len(verdict['diagnostic'])}, "
          f"out of scope {len(verdict['out_of_scope'])} (equivalent: never made, "
          "see the engine's `# pragma: no mutate` lines)")
    print(f"kill rate: {killed}/{scored} = {rate:.1%} (target {TARGET:.0%}); "
          f"all mutants: {killed}/{total} = {killed / total if total else 0:.1%}")
    return rate


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--diagnosis"]:  # the diagnosis measured on mutants: its own options
        sys.path.insert(0, str(ROOT / "tools"))
        import mutants_diagnosis

        return mutants_diagnosis.main(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="--diagnosis [OPTIONS]: the diagnosis measured on "
                                     "the engine's mutants (tools/mutants_diagnosis.py --help)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=7200.0, help="seconds for mutmut run")
    parser.add_argument("--workdir", type=Path, help="scratch copy (default: a temp dir); "
                        "an existing one is reused as is (mutmut resumes)")
    parser.add_argument("--judge-only", action="store_true",
                        help="only judge the results already in --workdir")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--json", type=Path, help="write the verdict here")
    parser.add_argument("--only", nargs="+", metavar="FILE",
                        help="mutate these files (reference_impl/...py) instead of "
                        "[tool.mutmut] only_mutate; applies to a new scratch copy")
    args = parser.parse_args(argv)
    if args.only:
        check_only(args.only)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="t42-mutation-"))
    if not (workdir / "pyproject.toml").exists():
        prepare(workdir)
        if args.only:
            restrict(workdir, args.only)
    unexplained = reason_problems()
    for problem in unexplained:
        print(problem)
    ignored = ignored_pragmas(workdir) + unexplained
    for where in ignored:
        print(f"a `no mutate` pragma that mutmut does not see: {where}")
    if not args.judge_only:
        print(f"mutmut in {workdir} ({args.jobs} jobs, at most {args.timeout:.0f} s)")
        start = time.perf_counter()
        finished = run_mutmut(workdir, args.jobs, args.timeout)
        print(f"mutmut {'finished' if finished else 'stopped'} after "
              f"{time.perf_counter() - start:.0f} s (log: {workdir / 'mutmut.log'})")
    status = statuses(workdir)
    sources = Sources(workdir)
    verdict = judge(sorted(status), status, sources)
    rate = report(verdict, status, sources)
    if args.json:
        survivors = {n: sources.diff(n) for n in verdict["survived"]}
        args.json.write_text(json.dumps({"rate": rate, "verdict": verdict,
                                         "survivors": survivors}, indent=2))
    if not args.keep and args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if rate >= TARGET and not ignored else 1


PRAGMA = re.compile(r"#\s*pragma:\s*no mutate(?!\s*(start|end|block))")
BLOCK_START = re.compile(r"#\s*pragma:\s*no mutate\s*start")
ANY_MARK = re.compile(r"\s*#\s*pragma:\s*no mutate.*$")


def marks(path: Path, root: Path = ROOT) -> list[tuple[str, str, str, bool]]:
    """(file, function, line, block) of each `no mutate` mark of an engine file, in file
    order: the marked line's code without its pragma, stripped (a block: the first code
    line after `no mutate start`), and the qualified name of the function around it."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    spans: list[tuple[int, int, str]] = []  # (first line, last line, qualified name)

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                spans.append((child.lineno, child.end_lineno or child.lineno,
                              prefix + child.name))
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)
    visit(ast.parse(source), "")

    def function_at(number: int) -> str:
        around = [(start, name) for start, end, name in spans if start <= number <= end]
        return max(around)[1] if around else "<module>"

    found = []
    for n, line in enumerate(lines):
        block = bool(BLOCK_START.search(line))
        if not block and not (PRAGMA.search(line) and not line.strip().startswith("#")):
            continue
        at = n
        if block:  # the block's first line of code
            at = next(k for k in range(n + 1, len(lines))
                      if not lines[k].strip().startswith("#"))
        code = ANY_MARK.sub("", lines[at]).strip()
        found.append((str(path.relative_to(root)), function_at(at + 1), code, block))
    return found


def reason_problems(root: Path = ROOT, reasons: Path = REASONS) -> list[str]:
    """Each mark of the engine without its entry in `reasons` (or an entry without a
    reason) and each entry without its mark: a reason must be kept with every mark."""
    import yaml

    entries = yaml.safe_load(reasons.read_text(encoding="utf-8")) or []
    wanted: dict[tuple[str, str, str, bool], int] = {}
    problems = []
    for entry in entries:
        key = (entry["file"], entry["function"], entry["line"], bool(entry.get("block")))
        wanted[key] = wanted.get(key, 0) + 1
        if not str(entry.get("reason") or "").strip():
            problems.append(f"{reasons.name}: no reason for {key[0]} {key[1]}: {key[2]}")
    for path in sorted((root / "reference_impl").glob("*.py")):
        for key in marks(path, root):
            if wanted.get(key):
                wanted[key] -= 1
            else:
                problems.append(f"a `no mutate` mark without its reason in {reasons.name}: "
                                f"{key[0]} {key[1]}: {key[2]}")
    problems += [f"{reasons.name}: an entry without its mark: {key[0]} {key[1]}: {key[2]}"
                 for key, left in wanted.items() for _ in range(left)]
    return problems


def ignored_pragmas(workdir: Path) -> list[str]:
    """Each mutant that changes a line marked `# pragma: no mutate`, as `file: line`:
    mutmut 3.8 does not see a pragma after the closing bracket of a multi-line statement,
    and such a line's equivalent mutants would be judged survivors."""
    from mutmut.mutation.file_mutation import mutate_file_contents

    found, here = [], os.getcwd()
    os.chdir(workdir)  # mutmut reads its configuration from the current directory
    try:
        for path in sorted(Path("reference_impl").glob("*.py")):
            source = path.read_text(encoding="utf-8")
            marked = {line.strip() for line in source.splitlines() if PRAGMA.search(line)}
            code = mutate_file_contents(str(path), source).code
            found += sorted({f"{path}: {line.strip()}" for line in code.splitlines()
                             if PRAGMA.search(line) and line.strip() not in marked})
    finally:
        os.chdir(here)
    return found


if __name__ == "__main__":
    sys.exit(main())
