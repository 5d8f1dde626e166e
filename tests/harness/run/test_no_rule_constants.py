"""The harness reads the rules' constants from the engine (reference_impl), never a copy:
a literal match target, counter tile, tuple of phase names, table of seats or list of
tiles in conformance/ would have to be changed by hand when a rule changes."""

import ast
from pathlib import Path

from reference_impl.match import BIDDING, DECLARING, MATCH_OVER, PLAYING, ROUND_OVER
from reference_impl.rules import COUNTERS
from reference_impl.variants import OPTIONS

PACKAGE = Path(__file__).resolve().parents[3] / "conformance"
# conformance/planted/: engines that break a rule on purpose, with its constants
PLANTS = "planted"
PHASES = {BIDDING, DECLARING, PLAYING, ROUND_OVER, MATCH_OVER}
SEAT_TABLES = {"ABCD", ("A", "B", "C", "D")}
# file -> the stripped source lines allowed to hold such a literal, and why
ALLOWED = {
    # `t42 --help` starts without importing the engine (50 ms): the seats as a choice
    "cli/main.py": {'@click.option("--dealer", type=click.Choice(list("ABCD")), '
                    'help="Dealer for --seed.")'},
}


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def constants(node: ast.AST) -> list:
    return [n.value for n in ast.iter_child_nodes(node) if isinstance(n, ast.Constant)]


def literals(path: Path) -> list[str]:
    """What `path` holds of the rules as literals, each `file:line: what`."""
    source = path.read_text(encoding="utf-8")
    lines, name = source.splitlines(), str(path.relative_to(PACKAGE))
    tree = ast.parse(source)
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        number = getattr(node, "lineno", 0)
        if number and lines[number - 1].strip() in ALLOWED.get(name, ()):
            continue
        where = f"{name}:{number}"
        if isinstance(node, ast.Constant) and id(node) not in skip:
            value = node.value
            if value in COUNTERS or value in SEAT_TABLES:
                found.append(f"{where}: {value!r}")
        if isinstance(node, ast.Dict):  # {"target": 250}: a target's default
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value == "target"
                        and isinstance(value, ast.Constant) and type(value.value) is int):
                    found.append(f"{where}: the target {value.value}")
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            values = constants(node)
            if len(PHASES.intersection(v for v in values if type(v) is str)) >= 2:
                found.append(f"{where}: a tuple of phase names {values}")
            if tuple(values) in SEAT_TABLES:
                found.append(f"{where}: the seats {values}")
            if len(values) == 2 and values[0] in OPTIONS and type(values[1]) is int:
                found.append(f"{where}: option {values[0]} with the number {values[1]}")
        if isinstance(node, ast.JoinedStr) and constants(node) == ["|"]:  # f"{a}|{b}"
            found.append(f"{where}: tile names built by hand (reference_impl.tiles.NAMES)")
    return found


def test_no_rule_constant_is_copied_into_the_harness():
    found = [hit for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).parts[0] != PLANTS for hit in literals(path)]
    assert found == []
