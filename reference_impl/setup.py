"""Setups and deals (spec/actions.md): strict validation, and an order dealt into hands.

Everything wrong with a setup or a deal is INVALID_SETUP (DIG-06).
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalAction
from .rules import Rules
from .tiles import SEAT_INDEX, SEATS, TEAMS, TILE_COUNT, TILE_INDEX

Hands = tuple[tuple[int, ...], ...]  # per seat, the tiles in hand order (DEAL-03)


def invalid(message: str, rule: str = "DIG-06") -> IllegalAction:
    return IllegalAction("INVALID_SETUP", rule, message)


def parse_tiles(value: Any, count: int, where: str) -> list[int]:
    if type(value) is not list or len(value) != count:
        raise invalid(f"{where} must be a list of {count} tiles", "DEAL-01")
    try:
        tiles = list(map(TILE_INDEX.get, value))
    except TypeError:  # an unhashable entry: not a tile
        tiles = [None]
    if None in tiles:
        bad = next(name for name in value if type(name) is not str or name not in TILE_INDEX)
        raise invalid(f"{where}: {bad!r} is not a tile a|b with 0 <= a <= b <= 6", "TIL-02")
    return tiles


def deal_order(order: list[int], dealer: int) -> Hands:
    """DEAL-02: tile i of the shuffled order goes to seat (dealer + 1 + i) mod 4, so the
    seat k places after the dealer's left receives tiles k, k + 4, k + 8, ..."""
    hands: list[tuple[int, ...]] = [(), (), (), ()]
    for k in range(4):
        hands[(dealer + 1 + k) & 3] = tuple(order[k::4])
    return tuple(hands)


DEAL_FIELDS = frozenset({"hands", "order"})
SETUP_FIELDS = DEAL_FIELDS | {"dealer", "marks", "variants"}
SEAT_NAMES = frozenset(SEATS)
TEAM_NAMES = frozenset(TEAMS)


def parse_deal(deal: Any, dealer: int, fields: frozenset[str] = DEAL_FIELDS) -> Hands:
    """The hands of a deal `{"hands": ...}` or `{"order": [...]}` dealt by `dealer`
    (DEAL-01, DEAL-02, DIG-06); `fields` are the keys it may have."""
    if type(deal) is not dict:
        raise invalid("a deal must be an object")
    if not deal.keys() <= fields:
        unknown = sorted(map(repr, deal.keys() - fields))
        raise invalid("unknown field(s): " + ", ".join(unknown))
    if ("hands" in deal) == ("order" in deal):
        raise invalid("give exactly one of `hands` and `order`")
    if "order" in deal:
        order = parse_tiles(deal["order"], TILE_COUNT, "`order`")
        hands = deal_order(order, dealer)
    else:
        given = deal["hands"]
        if type(given) is not dict or given.keys() != SEAT_NAMES:
            raise invalid("`hands` must map each of A, B, C, D to its tiles", "DEAL-01")
        hands = tuple(tuple(parse_tiles(given[s], 7, f"hand {s}")) for s in SEATS)
    if len(set().union(*hands)) != TILE_COUNT:
        raise invalid("a deal must hold each of the 28 tiles exactly once", "DEAL-01")
    return hands


def parse_dealer(value: Any) -> int:
    dealer = SEAT_INDEX.get(value) if type(value) is str else None
    if dealer is None:
        raise invalid(f"`dealer` must be one of A, B, C, D, not {value!r}", "DEAL-04")
    return dealer


def parse_marks(value: Any, rules: Rules) -> tuple[int, int]:
    """SCORE-03: starting marks, 0..6 for each team."""
    if type(value) is not dict or value.keys() != TEAM_NAMES:
        raise invalid("`marks` must be {\"AC\": n, \"BD\": n}", "SCORE-03")
    marks = tuple(value[team] for team in TEAMS)
    for team_marks in marks:
        if type(team_marks) is not int or team_marks not in rules.marks_range:
            raise invalid(f"starting marks must be integers 0..6, not {team_marks!r}",
                          "SCORE-03")
    return marks[0], marks[1]


def parse_setup(setup: Any, rules: Rules) -> tuple[int, tuple[int, int], Hands]:
    """(dealer, starting marks, hands) of a setup; `variants` is read by the caller."""
    if type(setup) is not dict:
        raise invalid("a setup must be an object")
    if "dealer" not in setup:
        raise invalid("a setup needs `dealer`", "DEAL-04")
    dealer = parse_dealer(setup["dealer"])
    marks = parse_marks(setup["marks"], rules) if "marks" in setup else (0, 0)
    hands = parse_deal(setup, dealer, SETUP_FIELDS)
    return dealer, marks, hands
