"""variants.md's table of published house rules is strict (issue 41): every rule has one
status, its count line counts the tables' rows, and a status that needs a reason has
one. The book's page reads the same tables (conformance/book/house_rules.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.book.house_rules import SECTION, house_rules

# The checkout's spec (what is committed), not the copy an installed package carries.
VARIANTS = Path(__file__).resolve().parents[2] / "spec" / "variants.md"

# Each status of the count line and the title of its table, in the section's order.
STATUSES = {
    "expressed": "Expressed",
    "expressed in part": "Expressed in part",
    "open": "Open (not expressed yet)",
    "ruled out": "Ruled out",
    "doubtful": "Doubtful",
}
COUNT = re.compile(r"^Count: (?P<body>.+?); (?P<total>\d+) rules in the tables below\.$",
                   re.MULTILINE | re.DOTALL)


def section() -> str:
    text = VARIANTS.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end >= 0 else len(text)]


def count_line() -> tuple[dict[str, int], int]:
    """The count line's numbers by status, and its total (the line may wrap)."""
    paragraphs = [" ".join(p.split()) for p in section().split("\n\n")]
    found = [m for p in paragraphs if (m := COUNT.match(p))]
    assert len(found) == 1, "one line `Count: N expressed, ...; T rules in the tables below.`"
    counts = {}
    for part in found[0]["body"].split(", "):
        number, _, status = part.partition(" ")
        counts[status] = int(number)
    return counts, int(found[0]["total"])


def test_the_tables_are_the_statuses_in_order():
    titles = [part["title"] for part in house_rules(VARIANTS)["parts"]]
    assert titles == list(STATUSES.values())


def test_the_count_line_counts_every_table():
    counts, total = count_line()
    rows = {part["title"]: len(part["rows"]) for part in house_rules(VARIANTS)["parts"]}
    assert list(counts) == list(STATUSES), "the count line names each status once, in order"
    assert {STATUSES[s]: n for s, n in counts.items()} == rows
    assert total == sum(rows.values())


def test_no_table_claims_none_while_it_lists_rules():
    """"Open: None" only when it is true: a table with rows says nothing of being empty,
    and the count line says 0 only of an empty table (the line test above)."""
    for part in house_rules(VARIANTS)["parts"]:
        if part["rows"]:
            block = section().split(f"### {part['title']}\n", 1)[1].split("\n### ", 1)[0]
            assert not re.search(r"^None\b", block, re.MULTILINE), part["title"]


@pytest.mark.parametrize("title", [t for t in STATUSES.values() if t != "Expressed"])
def test_every_rule_not_expressed_in_full_says_why(title):
    """An in-part rule names what is missing; an open, ruled-out or doubtful one why."""
    part = next(p for p in house_rules(VARIANTS)["parts"] if p["title"] == title)
    for row in part["rows"]:
        assert len(row) == len(part["header"]) and all(cell.strip() for cell in row), row


def test_a_rule_has_one_status():
    seen: dict[str, str] = {}
    for part in house_rules(VARIANTS)["parts"]:
        for row in part["rows"]:
            assert row[0] not in seen, f"{row[0]!r}: {seen.get(row[0])} and {part['title']}"
            seen[row[0]] = part["title"]


def test_every_doubtful_rule_quotes_its_source_and_says_what_is_unclear():
    """A doubtful rule is listed as its page words it (issue 41): the sources cell quotes
    the page, and the reason names what contradicts it or what is unclear, so that a reader
    can find the sentence again and judge the doubt."""
    part = next(p for p in house_rules(VARIANTS)["parts"] if p["title"] == "Doubtful")
    assert part["rows"], "the doubtful rules are listed, not only counted"
    for rule, sources, why in part["rows"]:
        assert re.search(r'"[^"]{10,}"', sources), f"{rule!r}: quote the page"
        doubt = r"\b(every other|unclear|the same page|cannot be checked)\b"
        assert re.search(doubt, why), f"{rule!r}: say why"
