"""spec/bounds.md read as data, and the bounded fields of the JSON Schemas it audits.

A bounded field is a schema node with a numeric type or an `enum`, reached through the
structure of a schema (not through `if`, `not` or a `$ref`: a field that refers to a
shared definition is audited at that definition's row). `bound(node)` words a node's
bound the way the table's `schema` column does, so the column is read back from the
schemas and cannot go stale.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.specdata.files import schemas_dir, spec_dir

SKIPPED = ("if", "not", "const", "enum", "required", "description", "$comment")
GENERATED = "generated from the spec"  # the $comment of tools/gen_schema_enums.py's enums
LISTED = 8  # an enum of more values is summed up by its count


@dataclass(frozen=True)
class Row:
    line: int  # in spec/bounds.md
    locations: tuple[str, ...]  # schema pointers, braces expanded
    spec: str
    schema: tuple[str, ...]  # one bound for every location, or one per location
    engine: str
    beyond: str
    check: str


def bounded_fields() -> dict[str, dict[str, Any]]:
    """Every bounded field of spec/schemas/, by its location `file#/json/pointer`."""
    root = schemas_dir()
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(root.rglob("*.json")):
        _walk(json.loads(path.read_text()), f"{path.relative_to(root).as_posix()}#", found)
    return found


def _bounded(node: dict[str, Any]) -> bool:
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    return "enum" in node or "integer" in types or "number" in types


def _walk(node: Any, pointer: str, found: dict[str, dict[str, Any]],
          generated: bool = False) -> None:
    if isinstance(node, dict):
        generated = generated or str(node.get("$comment", "")).startswith(GENERATED)
        if _bounded(node):
            found[pointer] = {**node, "$comment": GENERATED} if generated else node
        for key, child in node.items():
            if key not in SKIPPED:
                _walk(child, f"{pointer}/{key}", found, generated)
    elif isinstance(node, list):
        for i, child in enumerate(node):
            _walk(child, f"{pointer}/{i}", found, generated)


def bound(node: dict[str, Any]) -> str:
    """`integer 0..9999`, `integer >= 1`, `integer`, `integer or string`, `enum "A", "B"`,
    `enum of 28 values`, `enum generated from the spec`."""
    if "enum" in node:
        values = node["enum"]
        if str(node.get("$comment", "")).startswith(GENERATED):
            return f"enum {GENERATED}"
        if len(values) > LISTED:
            return f"enum of {len(values)} values"
        return "enum " + ", ".join(json.dumps(value) for value in values)
    types = node["type"] if isinstance(node["type"], list) else [node["type"]]
    low, high = node.get("minimum"), node.get("maximum")
    words = " or ".join(types)
    if low is not None and high is not None:
        return f"{words} {low}..{high}"
    if low is not None:
        return f"{words} >= {low}"
    if high is not None:
        return f"{words} <= {high}"
    return words


def _cells(line: str) -> list[str]:
    r"""The cells of a table line; `\|` is a `|` inside a cell (a tile)."""
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [part.strip().replace("\\|", "|") for part in parts]


def _expand(location: str) -> list[str]:
    """`a/{B,C}` -> `a/B`, `a/C` (one brace group at most)."""
    match = re.search(r"\{([^}]*)\}", location)
    if not match:
        return [location]
    return [location[: match.start()] + part + location[match.end():]
            for part in match[1].split(",")]


def _code(cell: str) -> str:
    return cell[1:-1] if cell.startswith("`") and cell.endswith("`") else cell


def schema_of(row: Row, location: str) -> str:
    """The row's `schema` cell for one of its locations."""
    if len(row.schema) == 1:
        return row.schema[0]
    return row.schema[row.locations.index(location)] if len(row.schema) == len(
        row.locations) else "?"


def read_table(path: Path | None = None) -> list[Row]:
    """The rows of every table of spec/bounds.md whose first column is `location`."""
    path = path or spec_dir() / "bounds.md"
    rows: list[Row] = []
    in_table = False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.startswith("|"):
            in_table = False
            continue
        cells = _cells(line)
        if cells[0] == "location":
            in_table = True
            continue
        if not in_table or set(cells[0]) <= {"-", " "}:
            continue
        locations = tuple(loc for cell in re.findall(r"`([^`]+)`", cells[0])
                          for loc in _expand(cell))
        schema = tuple(re.findall(r"`([^`]+)`", cells[2]))
        rows.append(Row(number, locations, cells[1], schema, cells[3], cells[4], cells[5]))
    return rows


def parse_values(cell: str) -> list[Any]:
    """The engine column as values: `30..41`, `0..6, "doubles", "none"`, `1, 2`."""
    values: list[Any] = []
    for item in _code(cell).split(", "):
        if re.fullmatch(r"-?\d+\.\.-?\d+", item):
            low, high = map(int, item.split(".."))
            values += range(low, high + 1)
        else:
            values.append(json.loads(item))
    return values
