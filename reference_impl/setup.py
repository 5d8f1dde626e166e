"""Setups and deals (spec/actions.md): strict validation, and an order dealt into hands.

Everything wrong with a setup or a deal is INVALID_SETUP (DIG-06).
"""

from __future__ import annotations

from typing import Any

from .dealing import Hands, dealer_of_draws, draws_problem
from .errors import IllegalAction
from .rules import BASE_RULES, Rules
from .tiles import SEAT_INDEX, SEATS, TEAMS, TILE_COUNT, TILE_INDEX

__all__ = ["Hands", "invalid", "parse_deal", "parse_setup"]


def invalid(message: str, rule: str = "DIG-06") -> IllegalAction:
    return IllegalAction("INVALID_SETUP", rule, message)


def parse_tile(value: Any, where: str) -> int:
    tile = TILE_INDEX.get(value) if type(value) is str else None
    if tile is None:
        raise invalid(f"{where}: {value!r} is not a tile a|b with 0 <= a <= b <= 6", "TIL-02")
    return tile


def parse_tiles(value: Any, count: int, where: str) -> list[int]:
    if type(value) is not list or len(value) != count:
        raise invalid(f"{where} must be a list of {count} tiles", "DEAL-01")
    try:
        tiles = list(map(TILE_INDEX.get, value))  # one pass: setups are on the bench path
    except TypeError:  # an unhashable entry: not a tile
        tiles = [None]
    if None in tiles:
        for name in value:
            # raises for the first entry that is not a tile
            parse_tile(name, where)  # pragma: no mutate
    return tiles  # type: ignore[return-value]  # no None left: the loop above raised


DEAL_FIELDS = frozenset({"hands", "order"})
SETUP_FIELDS = DEAL_FIELDS | {"dealer", "marks", "variants"}
SETUP_FIELDS_DRAWN = SETUP_FIELDS | {"draws"}  # DRAW-04
SEAT_NAMES = frozenset(SEATS)
TEAM_NAMES = frozenset(TEAMS)


def parse_deal(deal: Any, dealer: int, rules: Rules,
               fields: frozenset[str] = DEAL_FIELDS) -> Hands:
    """The hands of a deal `{"hands": ...}` or `{"order": [...]}` dealt by `dealer`
    (DEAL-01, DEAL-02 or DRAW-02, DIG-06); `fields` are the keys it may have."""
    if type(deal) is not dict:
        raise invalid("a deal must be an object")
    if not deal.keys() <= fields:  # a setup's fields are checked here too  # pragma: no mutate
        if "variants" in deal:  # pragma: no mutate
            raise invalid("a deal carries no `variants`: they are fixed for the match",
                          "VAR-02")
        unknown = sorted(map(repr, deal.keys() - fields))
        raise invalid("unknown field(s): " + ", ".join(unknown))
    if ("hands" in deal) == ("order" in deal):
        raise invalid("give exactly one of `hands` and `order`")
    if "order" in deal:
        order = parse_tiles(deal["order"], TILE_COUNT, "`order`")
        hands = rules.deal_order(order, dealer)
    else:
        given = deal["hands"]
        if type(given) is not dict or given.keys() != SEAT_NAMES:
            raise invalid("`hands` must map each of A, B, C, D to its tiles", "DEAL-01")
        hands = tuple(tuple(parse_tiles(given[s], 7, f"hand {s}")) for s in SEATS)
    if len(set().union(*hands)) != TILE_COUNT:
        # DIG-06: each seat 7 distinct real tiles, all 28 in all
        raise invalid("a deal must hold each of the 28 tiles exactly once")
    return hands


def parse_dealer(value: Any) -> int:
    dealer = SEAT_INDEX.get(value) if type(value) is str else None
    if dealer is None:
        raise invalid(f"`dealer` must be one of A, B, C, D, not {value!r}", "DEAL-04")
    return dealer


def parse_draws(value: Any) -> int:
    """DRAW-04: the dealer that a list of draw rounds names."""
    if type(value) is not list:
        raise invalid("`draws` must be a list of rounds of drawing", "DRAW-04")
    draws = []
    for number, given in enumerate(value, 1):
        if type(given) is not dict or not given.keys() <= SEAT_NAMES:
            raise invalid(f"round {number} of draws must map seats to tiles", "DRAW-04")
        draws.append({SEAT_INDEX[seat]: parse_tile(tile, f"round {number} of draws")
                      for seat, tile in given.items()})
    problem = draws_problem(draws)
    if problem:
        raise invalid(problem, "DRAW-04")
    return dealer_of_draws(draws)


def parse_first_dealer(setup: dict, rules: Rules) -> int:
    """DEAL-04: the setup's `dealer`; DRAW-04: or the dealer its `draws` name (never both;
    DRAW-05: the draws are kept nowhere, only the dealer they name)."""
    if "draws" in setup:
        if "dealer" in setup:
            raise invalid("give exactly one of `dealer` and `draws`", "DRAW-04")
        return parse_draws(setup["draws"])
    if "dealer" not in setup:  # pragma: no mutate
        needed = "`dealer` or `draws`" if rules.draws else "`dealer`"
        raise invalid(f"a setup needs {needed}", "DEAL-04")
    return parse_dealer(setup["dealer"])  # pragma: no mutate


def marks_rule(rules: Rules) -> str:
    """The rule of the starting marks' range: SCORE-03 (0..6), MPTS-02 (points, under
    match_points, whose stake is in points), TARGET-02 (match_marks' target)."""
    if rules.marks_range == BASE_RULES.marks_range:
        return "SCORE-03"
    return "MPTS-02" if rules.stake is not BASE_RULES.stake else "TARGET-02"


def parse_marks(value: Any, rules: Rules) -> tuple[int, int]:
    """SCORE-03, DIG-06: starting marks, 0..6 for each team (MPTS-02: points,
    0..target - 1; TARGET-02: marks, 0..target - 1)."""
    if type(value) is not dict or value.keys() != TEAM_NAMES:
        raise invalid("`marks` must be {\"AC\": n, \"BD\": n}", "SCORE-03")
    marks = tuple(value[team] for team in TEAMS)
    low, high = rules.marks_range[0], rules.marks_range[-1]
    for team_marks in marks:
        if type(team_marks) is not int or team_marks not in rules.marks_range:
            raise invalid(f"starting marks must be integers {low}..{high}, not "
                          f"{team_marks!r}", marks_rule(rules))
    return marks[0], marks[1]


def parse_setup(setup: Any, rules: Rules) -> tuple[int, tuple[int, int], Hands]:
    """(dealer, starting marks, hands) of a setup; `variants` is read by the caller.
    SCORE-03, TARGET-02: 0 marks each unless the setup gives them; DRAW-04: `draws` only
    under deal_by_drawing."""
    if type(setup) is not dict:
        raise invalid("a setup must be an object")
    fields = SETUP_FIELDS_DRAWN if rules.draws else SETUP_FIELDS  # pragma: no mutate
    if "draws" in setup and not rules.draws:  # pragma: no mutate
        raise invalid("`draws` needs option deal_by_drawing", "DRAW-04")
    if "dealer" in setup and "draws" not in setup:  # pragma: no mutate
        dealer = parse_dealer(setup["dealer"])
    else:
        dealer = parse_first_dealer(setup, rules)
    marks = parse_marks(setup["marks"], rules) if "marks" in setup else (0, 0)
    hands = parse_deal(setup, dealer, rules, fields)
    return dealer, marks, hands
