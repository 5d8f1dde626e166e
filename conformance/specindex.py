"""The spec read as data: rule IDs (rules.md, variants.md) and error codes (errors.yaml).

Nothing else in the harness keeps a list of rule IDs, error codes or variant names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from conformance.data import spec_dir

# A rule is a markdown list item that starts with its ID in bold (rules.md, preamble).
RULE_ITEM = re.compile(r"^\s*[-*] \*\*([A-Z][A-Z0-9]*-\d+)\*\*(.*)$")
# In variants.md a rule belongs to the nearest preceding "## `option`..." heading.
VARIANT_HEADING = re.compile(r"^## `([a-z0-9_]+)`")
OTHER_HEADING = re.compile(r"^#{1,2} ")


@dataclass(frozen=True)
class Rule:
    id: str
    file: str
    line: int
    variant: str | None  # None for a base rule
    withdrawn: bool


@dataclass(frozen=True)
class ErrorCode:
    code: str
    rules: tuple[str, ...]
    applies_to: tuple[str, ...]


@dataclass
class SpecIndex:
    rules: dict[str, Rule] = field(default_factory=dict)
    variants: dict[str, tuple[str, int]] = field(default_factory=dict)  # option -> (file, line)
    codes: dict[str, ErrorCode] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def parse_rules(path: Path, with_variants: bool, index: SpecIndex) -> None:
    """Add the rules of one markdown file to the index; duplicates are problems."""
    variant: str | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        heading = VARIANT_HEADING.match(line)
        if with_variants and heading:
            variant = heading.group(1)
            index.variants.setdefault(variant, (path.name, number))
            continue
        if with_variants and OTHER_HEADING.match(line):
            variant = None
            continue
        item = RULE_ITEM.match(line)
        if not item:
            continue
        rule_id = item.group(1)
        if rule_id in index.rules:
            first = index.rules[rule_id]
            index.problems.append(
                f"{path.name}:{number}: rule {rule_id} already defined at {first.file}:{first.line}"
            )
            continue
        withdrawn = "withdrawn" in item.group(2).lower()[:40]
        index.rules[rule_id] = Rule(rule_id, path.name, number, variant, withdrawn)


def parse_codes(path: Path, index: SpecIndex) -> None:
    import yaml

    doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for entry in doc.get("codes", []):
        code = entry["code"]
        if code in index.codes:
            index.problems.append(f"{path.name}: error code {code} listed twice")
        index.codes[code] = ErrorCode(
            code, tuple(entry.get("rules", ())), tuple(entry.get("applies_to", ()))
        )
    for error in index.codes.values():
        for rule_id in error.rules:
            if rule_id not in index.rules:
                index.problems.append(f"{path.name}: {error.code} cites unknown rule {rule_id}")


@cache
def load_index(root: Path | None = None) -> SpecIndex:
    """Parse the spec directory once per process."""
    root = root or spec_dir()
    index = SpecIndex()
    parse_rules(root / "rules.md", False, index)
    if (root / "variants.md").exists():
        parse_rules(root / "variants.md", True, index)
    parse_codes(root / "errors.yaml", index)
    return index
