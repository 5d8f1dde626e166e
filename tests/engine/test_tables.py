"""The engine's caches never change an answer (reference_impl/tables.py)."""

from __future__ import annotations

import itertools

import pytest

from reference_impl.actions import declaring_actions
from reference_impl.rules import Contract
from reference_impl.tables import Tables
from reference_impl.tiles import TILE_INDEX
from reference_impl.variants import rules_for

# Options whose declarations depend on every field of the declaration table's key:
# the contract's kind and value (Nel-O's min_marks, Sevens on marks only), a plunge
# (PLUNGE-05), a forced contract (FORCE-06) and the winner's doubles (PTERMS-07).
VARIANTS = [
    {"nello": {"min_marks": 2}, "sevens": True, "plunge": True,
     "forced_bid": {"bid": "any", "nello_sevens": "forced_only"}},
    {"nello": True, "sevens": True,
     "plunge_terms": {"announce": "declaration", "marks": 2, "doubles": 4}},
    {"nello": True, "plunge_terms": {"announce": "declaration", "double_six": "required"}},
]


# the mask of four doubles (a Contract holds the doubles of its winner as a tile mask)
FOUR_DOUBLES = sum(1 << TILE_INDEX[f"{n}|{n}"] for n in range(3, 7))
FOUR_WITHOUT_SIX = sum(1 << TILE_INDEX[f"{n}|{n}"] for n in range(2, 6))


def contracts(seat: int) -> list[Contract]:
    bids = [("points", 30), ("points", 41), ("marks", 1), ("marks", 2), ("marks", 4)]
    return [Contract(seat, seat % 2, kind, value, partner_declares=plunge, compelled=forced,
                     doubles=doubles)
            for (kind, value), plunge, forced, doubles in itertools.product(
                bids, (False, True), (False, True), (0, FOUR_DOUBLES, FOUR_WITHOUT_SIX))]


@pytest.mark.parametrize("variants", VARIANTS,
                         ids=["plunge+forced", "declared-plunge", "double-six"])
def test_declaration_table_answers_as_if_uncached(variants):
    """Whatever was asked before, `Tables.declaring` gives what `declaring_actions` gives
    now: its key holds every field that can change the answer (a key too coarse serves
    one contract another's declarations). The corpus cannot see this: the mutation run
    empties the caches before each scenario."""
    rules = rules_for(variants)
    tables = Tables(rules)
    asked = contracts(1)
    want = {c: declaring_actions(rules, 1, c) for c in asked}
    assert len({repr(w) for w in want.values()}) >= 4  # the fields do change the answer
    for contract in asked + asked[::-1]:
        assert tables.declaring(1, contract) == want[contract], contract
