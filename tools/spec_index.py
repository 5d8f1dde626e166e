"""Read the rule index and the error codes out of spec/, the one place they are written.

A rule is a Markdown list item that starts with its ID in bold (`- **BID-03** ...`) in
spec/rules.md or spec/variants.md. In variants.md a rule belongs to the option named by
the nearest `## ` heading that starts with a backticked option name; rules before the
first such heading belong to no option. Used by tools/gen_errors_md.py and tests/spec/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
RULE_FILES = ("rules.md", "variants.md")

RULE_ITEM = re.compile(r"^- \*\*([^*]+)\*\*")
RULE_ID = re.compile(r"^[A-Z]+-\d{2}$")
# An ID cited anywhere in prose or data: letters, a dash, exactly two digits.
CITED_ID = re.compile(r"\b([A-Z]{2,}-\d{2})\b")
OPTION_HEADING = re.compile(r"^## `([^`]+)`")
OPTION_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Rule:
    """One rule item: its ID, where it is written, and the option it belongs to."""

    id: str
    file: str
    line: int
    option: str | None


def read_rules(spec_dir: Path = SPEC) -> list[Rule]:
    """Every rule item of rules.md and variants.md, in file order (duplicates kept)."""
    rules: list[Rule] = []
    for name in RULE_FILES:
        option: str | None = None
        text = (spec_dir / name).read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            if line.startswith("## "):
                heading = OPTION_HEADING.match(line)
                option = heading.group(1) if heading else option
            item = RULE_ITEM.match(line)
            if item:
                rules.append(Rule(item.group(1), name, number, option))
    return rules


def option_names(spec_dir: Path = SPEC) -> list[str]:
    """The option names of variants.md, in heading order."""
    text = (spec_dir / "variants.md").read_text(encoding="utf-8")
    return [m.group(1) for line in text.splitlines() if (m := OPTION_HEADING.match(line))]


def cited_ids(text: str) -> set[str]:
    """Every rule-ID-shaped token in a text."""
    return set(CITED_ID.findall(text))


def read_codes(path: Path = SPEC / "errors.yaml") -> list[dict[str, Any]]:
    """The `codes` list of errors.yaml, as written."""
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)["codes"]


def check_order(codes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The single check order (DIG-03; variants.md): base codes in list order, and every code
    with `check_after` placed immediately after the code it names."""
    names = [c["code"] for c in codes]
    if len(set(names)) != len(names):
        raise ValueError("a code is listed twice in errors.yaml")
    anchors = [c["check_after"] for c in codes if "check_after" in c]
    if len(set(anchors)) != len(anchors):
        raise ValueError("two codes name the same check_after code")
    order = [c for c in codes if "check_after" not in c]
    pending = [c for c in codes if "check_after" in c]
    while pending:
        placed = [c["code"] for c in order]
        ready = [c for c in pending if c["check_after"] in placed]
        if not ready:
            missing = sorted(c["check_after"] for c in pending)
            raise ValueError(f"check_after names no placeable code: {missing}")
        for code in ready:
            at = [c["code"] for c in order].index(code["check_after"])
            order.insert(at + 1, code)
            pending.remove(code)
    return order
