"""The other readings of the rules an engine may have played (readings.yaml): each a
function with the signature of the rule-table entry it replaces (reference_impl.Rules).
The diagnosis replays a step under each (counterfactual.readings); nothing here is
called while a match is played."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from conformance.specdata.yamlload import load_yaml
from reference_impl.rules import TRUMP_SUIT, Contract, Rules, follows, is_trump, suit_key
from reference_impl.tiles import PIPS


@dataclass(frozen=True)
class Reading:
    """A rule read otherwise: `entry` of the rule table played by `function` (a function
    or a parameter's value)."""

    entry: str
    function: Any
    rule: str
    as_if: str


@cache
def readings() -> tuple[Reading, ...]:
    """The table of readings (readings.yaml), each with its function."""
    rows, _, _ = load_yaml(Path(__file__).with_name("readings.yaml").read_text("utf-8"))
    return tuple(Reading(row["entry"], globals()[row["function"]] if "function" in row
                         else row["value"], row["rule"], row["as_if"]) for row in rows)


# ---- called_suit(lead, trump) -> the suit called ----------------------------------------

def lead_calls_smaller(lead: int, trump: Any) -> int:
    """A non-trump lead calls its smaller number."""
    return TRUMP_SUIT if is_trump(lead, trump) else PIPS[lead][0]


def trump_lead_calls_larger(lead: int, trump: Any) -> int:
    """Every lead calls its larger number, a trump lead too."""
    return PIPS[lead][1]


# ---- follows(tile, called, trump) -> whether it follows ---------------------------------

def trump_follows_other_number(tile: int, called: int, trump: Any) -> bool:
    """A trump also follows the suit of its other number (not under doubles or none)."""
    if called != TRUMP_SUIT and trump not in ("doubles", "none") and is_trump(tile, trump):
        return called in PIPS[tile]
    return follows(tile, called, trump)


def double_follows_number(tile: int, called: int, trump: Any) -> bool:
    """Under doubles trump, a double also follows its number."""
    if called != TRUMP_SUIT and trump == "doubles" and is_trump(tile, trump):
        return called in PIPS[tile]
    return follows(tile, called, trump)


# ---- duty(rules, contract, trick, playable) -> the playable mask --------------------------

def must_trump(rules: Rules, contract: Contract, trick: list[int], playable: int) -> int:
    """A seat that cannot follow must play a trump if it holds one."""
    trump = _trump(contract)
    if not trick or _follows_any(rules, trump, trick[0], playable):
        return playable
    return _mask(t for t in _tiles(playable) if is_trump(t, trump)) or playable


def must_overtrump(rules: Rules, contract: Contract, trick: list[int], playable: int) -> int:
    """A seat that trumps, or follows a trump lead, must beat the highest trump played if
    it can."""
    trump = _trump(contract)
    if not trick:
        return playable
    called = rules.called_suit(trick[0], trump)
    if called != TRUMP_SUIT and _follows_any(rules, trump, trick[0], playable):
        return playable
    played = [rules.trick_rank(t, called, trump) for t in trick if is_trump(t, trump)]
    if not played:
        return playable
    return _mask(t for t in _tiles(playable) if is_trump(t, trump)
                 and rules.trick_rank(t, called, trump) > max(played)) or playable


def _trump(contract: Contract) -> Any:
    """The suit key a contract in play is played under."""
    assert contract.trump is not None  # a duty is read in play, once trump is declared
    return suit_key(contract.trump, contract.treatment)


def _follows_any(rules: Rules, trump: Any, lead: int, playable: int) -> bool:
    called = rules.called_suit(lead, trump)
    return any(rules.follows(t, called, trump) for t in _tiles(playable))


def _tiles(mask: int) -> list[int]:
    return [t for t in range(len(PIPS)) if mask >> t & 1]


def _mask(tiles: Any) -> int:
    found = 0
    for tile in tiles:
        found |= 1 << tile
    return found
