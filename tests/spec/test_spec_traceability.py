"""traceability.md maps every source fact to rules, and every rule back to a source."""

import re
from pathlib import Path

from conformance.specdata.index import cited_ids, load_index

# The checkout's spec (what is committed), not the copy an installed package carries.
SPEC = Path(__file__).resolve().parents[2] / "spec"
RULES = load_index(SPEC).items

TEXT = (SPEC / "traceability.md").read_text(encoding="utf-8")
RANGE = re.compile(r"\b([A-Z]+)-(\d{2}) \.\. \1-(\d{2})\b")


def _cited() -> set[str]:
    ids = cited_ids(TEXT)
    for prefix, low, high in RANGE.findall(TEXT):
        ids |= {f"{prefix}-{n:02d}" for n in range(int(low), int(high) + 1)}
    return ids


def test_every_numbered_fact_has_a_row_with_rules():
    rows = {}
    for line in TEXT.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and cells[0].isdigit():
            rows[int(cells[0])] = cells[-1]
    assert sorted(rows) == list(range(1, 28))
    assert all(cited_ids(rules) for rules in rows.values())


def test_every_cited_rule_exists():
    ids = {rule.id for rule in RULES}
    assert not _cited() - ids, sorted(_cited() - ids)


def test_every_rule_traces_to_a_source():
    untraced = [rule.id for rule in RULES if rule.id not in _cited()]
    assert not untraced, f"rules with no source in traceability.md: {untraced}"
