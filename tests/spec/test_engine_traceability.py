"""Every rule of spec/rules.md and spec/variants.md is named where the engine implements
it, and the engine names no rule the spec does not have (issue 12: traceability)."""

import re
from pathlib import Path

from conformance.specdata.index import load_index

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*-\d{2}\b")


def _named_in_engine() -> dict[str, list[str]]:
    """Rule ID -> the engine files that name it (comments, docstrings, rule arguments)."""
    named: dict[str, list[str]] = {}
    for path in sorted((ROOT / "reference_impl").rglob("*.py")):
        for rule_id in set(RULE_ID.findall(path.read_text(encoding="utf-8"))):
            named.setdefault(rule_id, []).append(path.name)
    return named


def test_every_rule_is_named_in_the_engine():
    named = _named_in_engine()
    rules = [r for r in load_index(ROOT / "spec").rules.values() if not r.withdrawn]
    missing = sorted(r.id for r in rules if r.id not in named)
    assert len(rules) >= 126
    assert not missing, f"rules the engine never names at their implementation: {missing}"


def test_the_engine_names_only_rules_of_the_spec():
    known = set(load_index(ROOT / "spec").rules)
    unknown = sorted(set(_named_in_engine()) - known)
    assert not unknown, f"the engine cites rule IDs the spec does not have: {unknown}"
