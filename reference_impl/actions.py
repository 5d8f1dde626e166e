"""Actions in their JSON form (spec/actions.md): strict parsing, canonical dicts, keys.

The engine hands out and records *canonical* action dicts, one shared object per distinct
action. They are immutable by convention: callers MUST NOT mutate a dict returned by
`legal_actions()` (copy it first), since the same object is reused.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from .errors import IllegalAction
from .rules import (
    BASE_RULES,
    MISSING,
    Bidding,
    Contract,
    Rules,
    carried_marks,
    carries_marks,
    legal_bids,
)
from .tiles import NAMES, SEAT_INDEX, SEATS, TILE_INDEX

# ---- Canonical dicts ---------------------------------------------------------------

PASSES: tuple[dict, ...] = tuple({"type": "pass", "seat": s} for s in SEATS)
PLAYS: tuple[tuple[dict, ...], ...] = tuple(
    tuple({"type": "play", "seat": s, "tile": name} for name in NAMES) for s in SEATS)


@cache
def bid_action(seat: int, kind: str, value: int, carries: bool = False,
               announced: str | None = None) -> dict:
    """`kind` is "points" or "marks" (with its number), or a special bid of
    `rules.special_bids` (PLUNGE-02, SPLASH-02), written `"<kind>": true`, or with its
    marks when it `carries` them (SPLASH-06); `announced` a choice the bid announces,
    written `"<choice>": true` beside it (NELLO-14)."""
    action: dict = {"type": "bid", "seat": SEATS[seat],
                    kind: value if kind in ORDINARY_BIDS or carries else True}
    if announced is not None:
        action[announced] = True
    return action


@cache
def trump_action(seat: int, trump: int | str, stacks: int | None,
                 doubles: str | None = None) -> dict:
    """A declaration; `doubles` the doubles it names (NELLO-13, NOTRUMP-05), if any."""
    action: dict = {"type": "trump", "seat": SEATS[seat], "trump": trump}
    if stacks is not None:
        action["stacks"] = stacks
    if doubles is not None:
        action["doubles"] = doubles
    return action


# Legal plays are read from a hand mask in four 7-bit chunks: PLAY_CHUNKS[seat][k][bits]
# is the tuple of canonical plays of the tiles 7k..7k+6 set in `bits`, sorted.
PLAY_CHUNKS: tuple[tuple[tuple[tuple[dict, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(PLAYS[seat][7 * k + i] for i in range(7) if bits >> i & 1)
                for bits in range(128))
          for k in range(4))
    for seat in range(4))


def bidding_actions(rules: Rules, seat: int, state: Bidding) -> tuple[dict, ...]:
    """Canonical order: the pass (unless `rules.dealer_bid_problem` refuses it, FORCE-02),
    point bids by number, marks bids by number, the special bids; exactly the bids
    `rules.bid_problem` accepts."""
    may_pass = rules.dealer_bid_problem(
        rules,  # pragma: no mutate
        None, None, state.dealer_after_passes) is None
    return ((PASSES[seat],) if may_pass else ()) + tuple(
        bid_action(seat, kind, carried_marks(rules, kind, state.last_marks, value)
                   if kind not in ORDINARY_BIDS else value,
                   kind not in ORDINARY_BIDS and carries_marks(rules, kind), announced)
        for kind, value, announced in legal_bids(rules, state))


def declaring_actions(rules: Rules, seat: int, contract: Contract) -> tuple[dict, ...]:
    """Canonical order: trumps as listed in rules.trumps (the options' after the base
    ones; an alias never), each with stacks 1 then 2 when the contract is a marks bid
    (CON-01..CON-03), or without stacks where a choice of a marks contract takes none
    (PTERMS-07); exactly the declarations `rules.declaration_problem` accepts (CON-03
    refuses stacks on a point contract); a choice whose declaration names the doubles
    once per value, in the order of `rules.treatments` (NELLO-13, NOTRUMP-05).
    Tables.declaring caches them."""
    named = {choice: values for choice, values, _ in rules.treatments}
    return tuple(trump_action(seat, trump, None if stacks is MISSING else stacks, doubles)
                 for trump in rules.trumps for stacks in (MISSING, *rules.stacks)
                 if rules.declaration_problem(rules, contract, trump, stacks) is None
                 for doubles in named.get(trump, (None,)))


# ---- Strict parsing (DIG-01) -------------------------------------------------------


def malformed(message: str) -> IllegalAction:
    return IllegalAction("MALFORMED_ACTION", "DIG-01", message)


# (seat name, tile name) -> (seat, tile): one lookup parses a well-formed play.
SEAT_AND_TILE: dict[tuple[str, str], tuple[int, int]] = {
    (seat_name, tile_name): (seat, tile)
    for seat, seat_name in enumerate(SEATS) for tile, tile_name in enumerate(NAMES)}


def parse_seat(action: dict) -> int:
    seat = action.get("seat")
    index = SEAT_INDEX.get(seat) if type(seat) is str else None
    if index is None:
        raise malformed(f"`seat` must be one of A, B, C, D, not {seat!r}")
    return index


# The exact field sets of each form (actions.md); no field may be missing or extra.
PASS_FIELDS = frozenset({"type", "seat"})
POINT_BID_FIELDS = frozenset({"type", "seat", "points"})
MARKS_BID_FIELDS = frozenset({"type", "seat", "marks"})
ORDINARY_BIDS = ("points", "marks")  # every other bid is a special bid, `"<kind>": true`
TRUMP_FIELDS = frozenset({"type", "seat", "trump"})
TRUMP_STACKS_FIELDS = frozenset({"type", "seat", "trump", "stacks"})
TRUMP_FORMS = (TRUMP_FIELDS, TRUMP_STACKS_FIELDS)
# NELLO-13, NOTRUMP-05: a declaration may also name the doubles (only where an option lets it)
TRUMP_FORMS_NAMING = (*TRUMP_FORMS, TRUMP_FIELDS | {"doubles"}, TRUMP_STACKS_FIELDS | {"doubles"})
PLAY_FIELDS = frozenset({"type", "seat", "tile"})


def fields_problem(action: dict, *forms: frozenset[str]) -> IllegalAction:
    """MALFORMED_ACTION naming what is missing or extra against the nearest form."""
    if action["type"] == "bid":
        names = [name for form in forms for name in sorted(form - PASS_FIELDS)]
        # a special bid's form (`"<kind>": true`) of a game without it (VAR-04)
        unknown = [name for name in action if name not in PASS_FIELDS
                   and name not in names and action[name] is True]
        if unknown:
            return malformed(f"a bid with `{unknown[0]}` needs the option that adds it "
                             "(VAR-04)")
        if sum(name in action for name in names) != 1:
            return malformed("a bid has exactly one of " + ", ".join(f"`{n}`" for n in names))
    form = min(forms, key=lambda f: len(f ^ action.keys()))
    missing, extra = sorted(form - action.keys()), sorted(map(repr, action.keys() - form))
    return malformed(f"a {action['type']} action "
                     + (f"needs {', '.join(missing)}" if missing else
                        f"has unknown field(s) {', '.join(extra)}"))


def special_bids(rules: Rules) -> dict[str, int]:
    """The game's special bids and their marks, `rules.special_bids` (PLUNGE-02,
    PLUNGE-03, SPLASH-02, SPLASH-05)."""
    return {bid.name: bid.marks for bid in rules.special_bids}


class ParsedAction(NamedTuple):
    """A well-formed action: its kind ("play", "bid", "pass", "trump"), its seat, and
    per kind: play (`what` the tile, `value` None); bid (`what` "points", "marks" or a
    special bid, `value` its number or marks); pass (None, None); trump (`what` the trump
    as given, `value` the stacks as given or MISSING, `named` the doubles as given or
    MISSING, NELLO-13); a bid's `named` is the choice it announces (NELLO-14) or
    None."""

    kind: str
    seat: int
    what: Any
    value: Any
    named: Any = None


def parse_action(action: Any, rules: Rules = BASE_RULES) -> ParsedAction:
    """The ParsedAction of a well-formed action, else MALFORMED_ACTION (DIG-01).

    A special bid is accepted only with the option that adds it (VAR-04: a malformed bid
    without it). Values are checked for JSON type only: their meaning is judged later, in
    check order (errors.yaml).
    """
    if type(action) is not dict:
        raise malformed("an action must be a JSON object")
    kind, keys = action.get("type"), frozenset(action)
    if kind == "play":  # pragma: no mutate
        if keys != PLAY_FIELDS:
            raise fields_problem(action, PLAY_FIELDS)
        seat, tile = parse_seat(action), action["tile"]
        if type(tile) is not str or tile not in TILE_INDEX:  # pragma: no mutate
            raise malformed(f"`tile` must be a string a|b with 0 <= a <= b <= 6, not {tile!r}")
        return ParsedAction(kind, seat, TILE_INDEX[tile], None)  # pragma: no mutate
    if kind == "bid":
        announced: str | None = None  # pragma: no mutate
        for choice in rules.bid_announces:  # NELLO-14: `"<choice>": true` beside the bid
            if choice in keys and (keys - {choice}) in (POINT_BID_FIELDS, MARKS_BID_FIELDS):
                if action[choice] is not True:
                    raise malformed(f"`{choice}` is always true, not {action[choice]!r}")
                announced, keys = choice, keys - {choice}
        if keys == POINT_BID_FIELDS:
            which = "points"
        elif keys == MARKS_BID_FIELDS:
            which = "marks"
        else:
            special = special_bids(rules)
            name = next((name for name in special if keys == PASS_FIELDS | {name}), None)
            if name is None:
                raise fields_problem(action, POINT_BID_FIELDS, MARKS_BID_FIELDS,
                                     *(PASS_FIELDS | {name} for name in special))
            if carries_marks(rules, name):  # SPLASH-06: the marks, judged in check order
                if type(action[name]) is not int:
                    raise malformed(f"`{name}` must be its marks, an integer, "
                                    f"not {action[name]!r}")
                return ParsedAction(kind, parse_seat(action), name, action[name])
            if action[name] is not True:
                raise malformed(f"`{name}` is always true, not {action[name]!r}")
            return ParsedAction(kind, parse_seat(action), name, special[name])  # pragma: no mutate
        value = action[which]  # pragma: no mutate
        if type(value) is not int:  # a JSON integer, never a boolean  # pragma: no mutate
            raise malformed(f"`{which}` must be an integer, not {value!r}")
        return ParsedAction(kind, parse_seat(action), which, value, announced)
    if kind == "pass":  # pragma: no mutate
        if keys != PASS_FIELDS:
            raise fields_problem(action, PASS_FIELDS)
        return ParsedAction(kind, parse_seat(action), None, None)  # pragma: no mutate
    if kind == "trump":
        forms = TRUMP_FORMS_NAMING if rules.treatments else TRUMP_FORMS  # VAR-04
        if keys not in forms:
            raise fields_problem(action, *forms)
        stacks = action.get("stacks", MISSING)
        if stacks is not MISSING and type(stacks) is not int:
            raise malformed(f"`stacks` must be an integer, not {stacks!r}")
        named = action.get("doubles", MISSING)
        if named is not MISSING and type(named) is not str:
            raise malformed(f"`doubles` must be a string, not {named!r}")
        trump = action["trump"]
        if type(trump) is not int and type(trump) is not str:
            raise malformed(f"`trump` must be an integer or a string, not {trump!r}")
        return ParsedAction(kind, parse_seat(action), trump, stacks, named)
    raise malformed(f"unknown action type {kind!r}")


# ---- Compact keys (spec/scenario-format.md, Perft) -----------------------------------


def action_key(action: dict) -> str:
    """`pass`, `bid:30`, `bid:2m`, `bid:<special bid>` (`bid:splash/2` for one that
    carries its marks, SPLASH-06), `trump:6`, `trump:none/2`, `trump:first_tile`,
    `trump:nello/1@low` (the doubles named, NELLO-13), `bid:2m@nello` (a bid announcing
    Nel-O, NELLO-14), `play:5|5` (no seat)."""
    kind = action["type"]
    if kind == "play":
        return "play:" + action["tile"]
    if kind == "pass":  # pragma: no mutate
        return "pass"
    if kind == "bid":
        announced = next((k for k in action if k not in (*PASS_FIELDS, "points", "marks")),
                         None)
        suffix = "" if announced is None else f"@{announced}"  # NELLO-14
        if "points" in action:
            return f"bid:{action['points']}{suffix}"
        if "marks" in action:
            return f"bid:{action['marks']}m{suffix}"
        name = next(k for k in action if k not in PASS_FIELDS)  # a special bid
        return f"bid:{name}" + ("" if action[name] is True else f"/{action[name]}")
    if kind == "trump":
        stacks, doubles = action.get("stacks"), action.get("doubles")
        return (f"trump:{action['trump']}" + ("" if stacks is None else f"/{stacks}")
                + ("" if doubles is None else f"@{doubles}"))
    raise ValueError(f"not an action: {action!r}")


def action_from_key(seat: str, key: str) -> dict:
    """The action of `seat` whose compact key is `key` (inverse of action_key)."""
    kind, _, arg = key.partition(":")
    if kind == "pass" and not arg:
        return {"type": "pass", "seat": seat}
    if kind == "play":  # pragma: no mutate
        return {"type": "play", "seat": seat, "tile": arg}
    if kind == "bid" and arg:
        if not arg[0].isdigit():  # a special bid: bid:<name>, bid:<name>/<marks>
            name, _, marks = arg.partition("/")
            return {"type": "bid", "seat": seat, name: int(marks) if marks else True}
        arg, _, announced = arg.partition("@")  # NELLO-14: bid:2m@nello
        bid: dict = ({"type": "bid", "seat": seat, "marks": int(arg[:-1])} if arg.endswith("m")
                     else {"type": "bid", "seat": seat, "points": int(arg)})
        if announced:
            bid[announced] = True
        return bid
    if kind == "trump" and arg:
        arg, _, doubles = arg.partition("@")
        choice, _, stacks = arg.partition("/")
        action: dict = {"type": "trump", "seat": seat,
                        "trump": int(choice) if choice.isdigit() else choice}
        if stacks:
            action["stacks"] = int(stacks)
        if doubles:
            action["doubles"] = doubles
        return action
    raise ValueError(f"not an action key: {key!r}")
