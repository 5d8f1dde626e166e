"""The variant options of spec/variants.md: their settings (VAR-01) and the `Rules` each
one puts in force.

An option is data: its settings with their allowed values and defaults, and a function
from its settings to the `Rules` fields it changes. Options change disjoint fields, except
the trump choices, which each option adds to (CON-01), so any combination is one `Rules`
(VAR-03). A `variants` object maps to one cached `Rules`, so equal setups share it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache, partial
from typing import Any, NamedTuple

from . import variant_rules as vr
from .dealing import drawn_order
from .errors import IllegalAction
from .rules import BASE_RULES, TRUMP_CHOICES, Choice, Rules

Settings = Mapping[str, Any]


class Setting(NamedTuple):
    values: tuple | range  # the values it accepts (VAR-01); all of the default's type
    default: Any


def match_points(s: Settings) -> dict:
    """MPTS-02 (scores in points, starting 0..target - 1), MPTS-03..MPTS-08, MPTS-09."""
    target = s["target"]
    return {"marks_range": range(0, target), "marks_target": target,
            "stake": vr.points_stake, "score": vr.points_score,
            "end_when_decided": s["end"] == "early"}


def deal_by_drawing(s: Settings) -> dict:
    """DRAW-02 (hands drawn seven at a time), DRAW-04 (a setup may give `draws`)."""
    return {"deal_order": drawn_order, "draws": True}


def forced_bid(s: Settings) -> dict:
    """FORCE-02 (the dealer may not pass after three passes), FORCE-03 (only 30)."""
    return {"dealer_must_bid": True,
            "forced_bid": ("points", 30) if s["bid"] == "minimum" else None}


def bid_42(s: Settings) -> dict:
    """FORTYTWO-02 (point bids 30..42), FORTYTWO-03 (42 ranks with 1 mark)."""
    return {"point_bids": range(30, 43), "one_mark_points": 42}


def undeclared_trump(s: Settings) -> dict:
    """UNDECL-02, UNDECL-03: the choice "first_tile"; the first tile sets trump."""
    first_tile = Choice(
        called_suit=vr.first_tile_called, follows=vr.first_tile_follows,
        trick_rank=vr.first_tile_rank,
        sets_trump=partial(vr.first_tile_trump, end=s["end"], double=s["double"]))
    return {"choices": (("first_tile", first_tile),)}


def follow_me(s: Settings) -> dict:
    """FOLLOWME-02: "follow_me" is another name for "none"."""
    return {"trump_aliases": (("follow_me", "none"),)}


NELLO_SUITS: dict[str, tuple[Callable, Callable, Callable]] = {  # NELLO-06, by `doubles`
    "high": (vr.nello_called, vr.nello_follows, vr.nello_rank_doubles_high),
    "low": (vr.nello_called, vr.nello_follows, vr.nello_rank_doubles_low),
    "own_suit": (vr.nello_called_own_suit, vr.nello_follows_own_suit, vr.nello_rank_own_suit),
}


def nello(s: Settings) -> dict:
    """NELLO-02 (marks contracts of min_marks or more, never a plunge), NELLO-03/04 (the
    partner sits out), NELLO-06 (suits), NELLO-07 (outcome)."""
    choice = Choice(*NELLO_SUITS[s["doubles"]], min_marks=s["min_marks"], on_plunge=False,
                    partner_sits_out=True, outcome=vr.nello_outcome)
    return {"choices": (("nello", choice),)}


def sevens(s: Settings) -> dict:
    """SEVENS-02 (any marks contract), SEVENS-04 (duty), SEVENS-05 (ties)."""
    choice = Choice(vr.sevens_called, vr.sevens_follows, vr.sevens_rank, min_marks=1,
                    duty=vr.closest_tiles if s["duty"] == "closest" else None,
                    ties_to_bidders=s["ties"] == "bidders")
    return {"choices": (("sevens", choice),)}


def plunge(s: Settings) -> dict:
    """PLUNGE-02: a hand of four doubles may plunge (PLUNGE-03: a bid of 4 marks)."""
    return {"plunge_doubles": 4}


class Option(NamedTuple):
    settings: dict[str, Setting]
    changes: Callable[[Settings], dict]  # settings -> the Rules fields it changes


# variants.md, in its order; the settings tables of each option's section.
OPTIONS: dict[str, Option] = {
    "match_points": Option({"target": Setting(range(1, 10001), 250),
                            "end": Setting(("early", "play_out"), "early")}, match_points),
    "deal_by_drawing": Option({}, deal_by_drawing),
    "forced_bid": Option({"bid": Setting(("minimum", "any"), "minimum")}, forced_bid),
    "bid_42": Option({}, bid_42),
    "undeclared_trump": Option({"end": Setting(("high", "low"), "high"),
                                "double": Setting(("number", "doubles"), "number")},
                               undeclared_trump),
    "follow_me": Option({}, follow_me),
    "nello": Option({"doubles": Setting(("high", "low", "own_suit"), "high"),
                     "min_marks": Setting((1, 2), 2)}, nello),
    "sevens": Option({"duty": Setting(("closest", "free"), "closest"),
                      "ties": Setting(("first_played", "bidders"), "first_played")}, sevens),
    "plunge": Option({}, plunge),
}
# actions.md: the options' trump choices follow the base ones in this order.
CHOICE_ORDER = ("nello", "sevens", "first_tile")


def invalid(message: str) -> IllegalAction:
    return IllegalAction("INVALID_SETUP", "VAR-01", message)


def option_settings(name: Any, value: Any) -> dict[str, Any]:
    """VAR-01: an option's value, `true` or an object of its settings, with every setting
    filled in (a setting left out takes its default)."""
    option = OPTIONS.get(name) if type(name) is str else None
    if option is None:
        raise invalid(f"unknown variant option {name!r}")
    if value is True:
        value = {}
    if type(value) is not dict:
        raise invalid(f"option {name} must be true or an object of settings, not {value!r}")
    settings = {key: setting.default for key, setting in option.settings.items()}
    for key, given in value.items():
        setting = option.settings.get(key)
        if setting is None:
            raise invalid(f"option {name} has no setting {key!r}")
        if type(given) is not type(setting.default) or given not in setting.values:
            raise invalid(f"option {name}: {key} may not be {given!r}")
        settings[key] = given
    return settings


def rules_for(variants: Any) -> Rules:
    """The Rules of a setup's `variants` object (VAR-01); INVALID_SETUP if it is not one."""
    if type(variants) is not dict:
        raise invalid("`variants` must be an object of options")
    if not variants:
        return BASE_RULES
    settings = {name: option_settings(name, value) for name, value in variants.items()}
    return rules_of_settings(json.dumps(settings, sort_keys=True))


@cache
def rules_of_settings(key: str) -> Rules:
    """The Rules of the options `key` (JSON: option -> every setting), built once."""
    changes: dict[str, Any] = {}
    choices: dict[str, Choice] = {}
    for name, settings in json.loads(key).items():
        for field, value in OPTIONS[name].changes(settings).items():
            if field == "choices":
                choices.update(value)
            else:
                assert field not in changes, f"two options change Rules.{field}"
                changes[field] = value
    ordered = tuple((name, choices[name]) for name in CHOICE_ORDER if name in choices)
    trumps = TRUMP_CHOICES + tuple(name for name, _ in ordered)
    return replace(BASE_RULES, **changes, choices=ordered, trumps=trumps)
