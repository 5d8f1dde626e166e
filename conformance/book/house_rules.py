"""The published house rules of spec/variants.md (its section "Published house rules and
how the spec expresses them"), read as data for the book's page: each subsection's table,
row by row, never a copy kept here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SECTION = "## Published house rules"
CELL = re.compile(r"(?:\\\||[^|])+")  # a cell of a Markdown table row; `\|` is a pipe


def cells(line: str) -> list[str]:
    """The cells of a table row `| a | b \\| c |`, `\\|` read as a pipe."""
    return [cell.strip().replace("\\|", "|") for cell in CELL.findall(line.strip().strip("|"))]


def house_rules(variants_md: Path) -> dict[str, Any]:
    """{"intro": the paragraphs before the first table, "parts": [{"title", "header",
    "rows"}]}: the section's subsections in their order, each table as rows of cells."""
    text = variants_md.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    lines = text[start:end if end >= 0 else len(text)].splitlines()[1:]
    intro: list[str] = []
    parts: list[dict[str, Any]] = []
    for line in lines:
        if line.startswith("### "):
            parts.append({"title": line[4:].strip(), "header": [], "rows": []})
        elif line.startswith("|") and parts:
            row = cells(line)
            if all(set(cell) <= set("-: ") for cell in row):
                continue  # the separator line
            part = parts[-1]
            if part["header"]:
                part["rows"].append(row)
            else:
                part["header"] = row
        elif not parts and line.strip():
            intro.append(line.strip())
    return {"intro": " ".join(intro), "parts": parts}
