"""The engine is reached only through its public API and its Rules (issue 12): no file
outside reference_impl/ uses a private name of the engine, and no file names a mutant by
mutmut's mangled names."""

import ast
import re
from pathlib import Path

import reference_impl
from reference_impl import match, rules, tables, variants

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ("conformance", "tools", "tests")


def _private_names() -> set[str]:
    """Every name of the engine that starts with one underscore: Match's slots and
    methods, Rules' and Tables' members, module globals."""
    found = {n for n in match.Match.__slots__ if n.startswith("_")}
    for owner in (match.Match, rules.Rules, tables.Tables, reference_impl, match, rules,
                  tables, variants):
        found |= {n for n in vars(owner) if n.startswith("_") and not n.startswith("__")}
    return found


def _python_files():
    for folder in OUTSIDE:
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_no_file_outside_the_engine_uses_its_private_names():
    private = _private_names()
    assert {"_seat", "_bid", "_follow", "_complete_trick"} <= private
    uses = []
    for path in _python_files():
        if path.name == "test_engine_seams.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            name = node.attr if isinstance(node, ast.Attribute) else (
                node.value if isinstance(node, ast.Constant) else None)
            if isinstance(name, str) and name in private and not _own(node, tree):
                uses.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert not uses, "private names of the engine used outside it:\n" + "\n".join(uses)


def _own(node: ast.AST, tree: ast.AST) -> bool:
    """`self._x` in a class that defines `_x` itself is the class's own attribute."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")):
        return False
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for inner in ast.walk(cls):
            if inner is node:
                return _defines(cls, node.attr)
    return False


def _defines(cls: ast.ClassDef, name: str) -> bool:
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return True
        if (isinstance(node, ast.Attribute) and node.attr == name
                and isinstance(node.ctx, ast.Store)):
            return True
    return False


MANGLED = re.compile(r"\bx\u01c1\w+\u01c1\w+|\bx_[a-z]\w*__mutmut|['\"][a-z_]+\.x_[a-z]\w*['\"]")


def test_no_file_names_a_mangled_mutant():
    named = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path in _python_files()
             if path.name != "test_engine_seams.py"
             for m in MANGLED.finditer(path.read_text(encoding="utf-8"))]
    assert not named, "mutmut's mangled names in the tree:\n" + "\n".join(named)
