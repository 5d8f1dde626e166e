"""The variant options of spec/variants.md: their settings (VAR-01) and how each one
changes the `Rules` of a game.

An option is data: its settings with their allowed values and defaults, and a function
from its settings and the `Rules` so far to the fields it changes: a parameter, or a
function of the rule table that it wraps (its own rule for its own trump choice, the
wrapped function for every other). The options in force are applied one after another,
in the order of variants.md, so any combination is one `Rules` (VAR-03); a `variants`
object maps to one cached `Rules`, so equal setups share it and its tables.
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
from .rules import BASE_RULES, TRUMP_CHOICES, Rules, SpecialBid, suit_key
from .tiles import TILE_INDEX

Settings = Mapping[str, Any]


class Setting(NamedTuple):
    values: tuple | range  # the values it accepts (VAR-01), each of its own JSON type
    default: Any


def match_points(s: Settings, rules: Rules) -> dict:
    """MPTS-02 (scores in points, starting 0..target - 1), MPTS-03..MPTS-08, MPTS-09,
    MPTS-10 (ladder "doubling"), MPTS-11 (high_bids "all_or_nothing")."""
    target = s["target"]
    return {"marks_range": range(0, target), "marks_target": target,  # pragma: no mutate
            "stake": vr.points_stake, "score": vr.points_score,
            "end_when_decided": s["end"] == "early",
            "points_ladder": s["ladder"] == "doubling",
            "all_or_nothing": s["high_bids"] == "all_or_nothing"}


def deal_by_drawing(s: Settings, rules: Rules) -> dict:
    """DRAW-02 (hands drawn seven at a time), DRAW-04 (a setup may give `draws`)."""
    return {"deal_order": drawn_order, "draws": True}


FORCED_ONLY = ("nello", "sevens")  # FORCE-06


def forced_bid(s: Settings, rules: Rules) -> dict:
    """FORCE-02 (the dealer may not pass after three passes), FORCE-03 (only 30);
    FORCE-04: the contract it makes is played and scored as any other, except that
    FORCE-05 records it as forced, for FORCE-06 (nello_sevens) and FORCE-07, FORCE-08
    (sweep_marks). FORCE-09: with match_points (first in OPTIONS) sweep_marks is not read:
    only a match still scored by the marks game's stake (SCORE-01) reads it."""
    required = ("points", 30) if s["bid"] == "minimum" else None
    refused = ("points", 30) if s["bid"] == "at_least_31" else None  # FORCE-10
    changes = {"dealer_bid_problem": partial(vr.forced_bid_problem, required=required,
                                             refused=refused),
               "won_contract": partial(vr.forced_contract, inner=rules.won_contract)}
    if s["nello_sevens"] == "forced_only":
        changes["declaration_problem"] = partial(
            vr.forced_only, choices=FORCED_ONLY, inner=rules.declaration_problem)
        changes["forced_only_choices"] = FORCED_ONLY  # NELLO-14: a Nel-O bid too
    if s["sweep_marks"] != 1 and rules.stake is BASE_RULES.stake:
        changes["outcome"] = partial(vr.sweep_outcome, inner=rules.outcome)
        changes["score"] = partial(vr.sweep_score, marks=s["sweep_marks"], inner=rules.score)
    return changes


def bid_42(s: Settings, rules: Rules) -> dict:
    """FORTYTWO-02 (point bids 30..42), FORTYTWO-03 (42 ranks with 1 mark); FORTYTWO-04:
    a won 42 is a point contract, as `won_contract` makes every point bid, unless
    FORTYTWO-05 (`contract: "marks"`) makes it the 1-mark contract."""
    changes: dict = {"point_bids": range(30, 43), "one_mark_points": 42}
    if s["contract"] == "marks":
        changes["won_contract"] = partial(vr.one_mark_contract, inner=rules.won_contract)
    return changes


def choice_suits(rules: Rules, choice: str, called: Callable, follows: Callable,
                 rank: Callable, *, rule: str | None = None, others_rule: str | None = None
                 ) -> dict:
    """The suit functions of the table, with `choice`'s own for that trump (`rule`,
    `others_rule`: the rules the option names for them, vr.for_choice)."""
    named = {key: value for key, value in (("rule", rule), ("others_rule", others_rule))
             if value}

    def wrap(name: str, own: Callable) -> Callable:
        return partial(vr.for_choice, choice=choice, own=own, inner=getattr(rules, name),
                       **named)  # pragma: no mutate
    return {"called_suit": wrap("called_suit", called), "follows": wrap("follows", follows),
            "trick_rank": wrap("trick_rank", rank)}


def allowed_on(rules: Rules, choice: str, min_marks: int, on_plunge: bool, *, rule: str
               ) -> dict:
    """The declaration check, with `choice`'s limits (NELLO-02, SEVENS-02, PLUNGE-05)."""
    return {"declaration_problem": partial(
        vr.choice_allowed, choice=choice, rule=rule, min_marks=min_marks,
        on_plunge=on_plunge, inner=rules.declaration_problem)}


def undeclared_trump(s: Settings, rules: Rules) -> dict:
    """UNDECL-02: the choice "first_tile" (with the base suits, consulted only once the
    first tile has set trump); UNDECL-03: the first tile sets trump."""
    return {"trumps": rules.trumps + ("first_tile",),
            "trump_after_lead": partial(vr.first_tile_trump, end=s["end"],
                                        double=s["double"], inner=rules.trump_after_lead)}


def follow_me(s: Settings, rules: Rules) -> dict:
    """FOLLOWME-02: "follow_me" is another name for "none"; FOLLOWME-03 (`min_marks: 1`):
    no-trump, by either name, only on a marks contract."""
    changes = {"trump_aliases": (("follow_me", "none"),)}
    if s["min_marks"]:
        changes.update(allowed_on(rules, "none", s["min_marks"], on_plunge=True,
                                  rule="FOLLOWME-03"))
    return changes


def named_doubles(rules: Rules, choice: str, suits: Mapping[str, tuple], *, rule: str,
                  value_rules: Mapping[str, str] | None = None,
                  others_rule: str | None = None) -> dict:
    """NELLO-13, NOTRUMP-05 (`doubles: "declared"`): the declaration of `choice` names its
    doubles, one of `suits`; the suit functions of each value under its suit key (the
    rule of each value, `value_rules`, and `others_rule`: choice_suits)."""
    changes: dict = {"treatments": (*rules.treatments, (choice, tuple(suits), rule)),
                     "treatment_problem": vr.treatment_problem}
    for value, functions in suits.items():
        changes.update(choice_suits(replace(rules, **changes), str(suit_key(choice, value)),
                                    *functions, rule=(value_rules or {}).get(value),
                                    others_rule=others_rule))
    return changes


NELLO_SUITS: dict[str, tuple[Callable, Callable, Callable]] = {  # NELLO-06, by `doubles`
    "high": (vr.nello_called, vr.nello_follows, vr.nello_rank_doubles_high),
    "low": (vr.nello_called, vr.nello_follows, vr.nello_rank_doubles_low),
    "own_suit": (vr.nello_called_own_suit, vr.nello_follows_own_suit, vr.nello_rank_own_suit),
    "own_suit_reversed": (vr.nello_called_own_suit, vr.nello_follows_own_suit,  # NELLO-10
                          vr.nello_rank_own_suit_reversed),
}


def nello(s: Settings, rules: Rules) -> dict:
    """NELLO-02 (marks contracts of min_marks or more, never a plunge), NELLO-03/04 (the
    partner sits out), NELLO-06 (suits), NELLO-07 (outcome). Unchanged: NELLO-05 (who
    leads), NELLO-08 (round points counted as usual). NELLO-11 (`min_marks: 0`): also on
    a point contract, scored as a marks contract of its value; NELLO-12 (`on_plunge:
    "allowed"`): on a plunge, the declaring partner sits out and the plunger leads."""
    on_plunge = s["on_plunge"] == "allowed"
    declared = s["doubles"] == "declared"  # NELLO-13: named at each declaration
    changes = {"trumps": rules.trumps + ("nello",),
               **choice_suits(rules, "nello", *NELLO_SUITS["high" if declared else s["doubles"]]),
               **allowed_on(rules, "nello", s["min_marks"], on_plunge=on_plunge,
                            rule="NELLO-02" if s["min_marks"] else "NELLO-11"),
               "sitting_out": partial(vr.partner_sits_out, inner=rules.sitting_out),
               "outcome": partial(vr.nello_outcome, inner=rules.outcome)}
    if not s["min_marks"]:
        changes["score"] = partial(vr.nello_point_score, inner=rules.score)
    if declared:
        with_nello = replace(rules, **changes)  # pragma: no mutate
        changes.update(named_doubles(with_nello, "nello", NELLO_SUITS, rule="NELLO-13"))
    if s["announce"] == "bid":  # NELLO-14, NELLO-15: Nel-O announced with the bid
        changes.update({
            "bid_announces": (*rules.bid_announces, "nello"),
            "announce_problem": partial(vr.nello_bid_problem, min_marks=s["min_marks"]),
            "declaration_problem": partial(vr.announced_choice_problem, choice="nello",
                                           inner=changes["declaration_problem"])})
    if on_plunge:
        changes["sitting_out"] = partial(vr.caller_sits_out, inner=changes["sitting_out"])
        changes["first_leader"] = partial(vr.plunger_leads_nello, inner=rules.first_leader)
    return changes


def sevens(s: Settings, rules: Rules) -> dict:
    """SEVENS-02 (any marks contract; SEVENS-07: of `min_marks` or more), SEVENS-04
    (suits; duty), SEVENS-05 (ties). Unchanged: SEVENS-06 (who leads, made and set as any
    marks contract)."""
    rule = "SEVENS-02" if s["min_marks"] == 1 else "SEVENS-07"
    changes = {"trumps": rules.trumps + ("sevens",),
               **choice_suits(rules, "sevens", vr.sevens_called, vr.sevens_follows,
                              vr.sevens_rank),
               **allowed_on(rules, "sevens", s["min_marks"], on_plunge=True, rule=rule)}
    if s["duty"] == "closest":
        changes["duty"] = partial(vr.closest_duty, inner=rules.duty)  # pragma: no mutate
        changes["duty_problem"] = ("MUST_PLAY_CLOSEST", "SEVENS-04")
    if s["ties"] == "bidders":
        changes["trick_winner"] = partial(vr.tie_to_bidders, inner=rules.trick_winner)
    return changes


PLUNGE = "plunge"  # PLUNGE-02: the special bid's name, `"plunge": true`


def plunge_bid(doubles: int, marks: int,
               jumps: bool = False,  # pragma: no mutate
               needs: int = 0, step_rule: str = "PLUNGE-03", hand_rule: str = "PLUNGE-02",
               jump_rule: str = "PLUNGE-07", plunge_rule: str = "",
               raises: bool = False) -> SpecialBid:
    """The plunge's entry of the special bids: PLUNGE-02 (before any bid, `doubles` or
    more), PLUNGE-03 (a marks bid of `marks`); PLUNGE-07 (`jumps`: over earlier bids);
    PLUNGE-09 (`raises`: the last marks bid raised by `marks`, over any bid);
    PTERMS-10 (`needs`: the mask of doubles the hand must hold). `step_rule`, `hand_rule`,
    `jump_rule`: the rules its checks cite (its marks, its hand, its jump): plunge_terms'
    own, PTERMS-05, PTERMS-02 and PLUNGE-08, whose plunge is one for PLUNGE-05 and
    NELLO-12 by PTERMS-04 (`plunge_rule`)."""
    return SpecialBid(PLUNGE, doubles, marks, step_rule=step_rule, hand_rule=hand_rule,
                      jumps=jumps, jump_rule=jump_rule, needs=needs, plunge_rule=plunge_rule,
                      raises=raises)


def with_special_bid(rules: Rules, bid: SpecialBid | None, name: str | None = None) -> dict:
    """The special bids with the entry `name` (by default the bid's own) replaced by `bid`
    in its place (appended if there was none; dropped if `bid` is None), and their
    checks."""
    if name is None:
        assert bid is not None
        name = bid.name
    bids = [found for found in rules.special_bids if found.name != name]
    if bid is not None:
        # where it goes is seen only in the canonical order of the legal actions
        where = [i for i, b in enumerate(rules.special_bids) if b.name == name]  # pragma: no mutate
        at = where[0] if where else len(bids)  # pragma: no mutate
        bids.insert(at, bid)
    return {"special_bids": tuple(bids), "special_bid_problem": vr.special_bid_problem}


def plunge(s: Settings, rules: Rules) -> dict:
    """PLUNGE-02: a hand of four doubles may plunge (PLUNGE-03: a bid of 4 marks);
    PLUNGE-06: made and set as any marks contract, the doubles checked by the game;
    PLUNGE-07 (`when: "any_time"`): it may jump over earlier bids; PLUNGE-09 (`when:
    "raise"`): it raises the last marks bid by 4, over any bid."""
    raises = s["when"] == "raise"
    # a plunge that raises also follows earlier bids (`jumps`); `raises` gives its marks
    return with_special_bid(rules, plunge_bid(4, 4, s["when"] != "before_bids", raises=raises,
                                              jump_rule="PLUNGE-09" if raises else "PLUNGE-07"))


NOTRUMP_NAMED = ("high", "low", "own_suit")  # NOTRUMP-05: the doubles a no-trump may name
# the rule of each value's suit functions under no_trump (they are NELLO-06's functions):
# "high" is the base game's no-trump, which NOTRUMP-05 lets the declarer name
NOTRUMP_RULES = {"high": "NOTRUMP-05", "low": "NOTRUMP-02", "own_suit": "NOTRUMP-03"}


def no_trump(s: Settings, rules: Rules) -> dict:
    """NOTRUMP-02 ("low": a double is the lowest of its number suit), NOTRUMP-03
    ("own_suit": the doubles are a suit of their own), for the choice "none" only (and so
    for its alias "follow_me", NOTRUMP-04); the suit functions of NELLO-06's settings.
    NOTRUMP-05 ("declared"): the declaration of "none" names its doubles."""
    if s["doubles"] == "declared":
        return named_doubles(rules, "none",
                             {value: NELLO_SUITS[value] for value in NOTRUMP_NAMED},
                             rule="NOTRUMP-05", value_rules=NOTRUMP_RULES,
                             others_rule="NOTRUMP-04")
    return choice_suits(rules, "none", *NELLO_SUITS[s["doubles"]],
                        rule=NOTRUMP_RULES[s["doubles"]], others_rule="NOTRUMP-04")


def match_marks(s: Settings, rules: Rules) -> dict:
    """TARGET-02 (the match is won at `target` marks; starting marks 0..target - 1);
    TARGET-03: with `match_points` the match is played for points and this option changes
    nothing (match_points comes first in OPTIONS, so its stake tells it is in force)."""
    if rules.stake is vr.points_stake:
        return {}
    target = s["target"]
    return {"marks_range": range(0, target), "marks_target": target}  # pragma: no mutate


def plunge_terms(s: Settings, rules: Rules) -> dict:
    """PTERMS-02 (a plunge needs `doubles` doubles, checked by the plunge's entry of the
    special bids, which cites PLUNGE-02; the option turns the plunge on, with or without
    `plunge`),
    PTERMS-03 (leader "plunger": the plunger leads the first trick);
    PTERMS-04: every other rule is the plunge's (PLUNGE-05 reads `contract.plunge`);
    PTERMS-05: the plunge bids `marks` marks. With announce "declaration": PTERMS-06 (no
    plunge bid: without its entry the bid form is malformed), PTERMS-07 (the choice
    "plunge"), PTERMS-08 (it hands the declaration to the partner); PTERMS-09: the
    interactions follow from the contract being a plunge of its marks. PTERMS-10
    (`double_six: "required"`): the hand must hold 6|6 too; PTERMS-11 (`raise`): a plunge
    declared raises the contract by that many marks."""
    # PLUNGE-08: plunge's `when` holds for the plunge of these terms too
    jumps = any(bid.jumps for bid in rules.special_bids if bid.name == PLUNGE)
    raises = any(bid.raises for bid in rules.special_bids if bid.name == PLUNGE)  # PLUNGE-10
    needs = SIX_SIX if s["double_six"] == "required" else 0
    changes = with_special_bid(rules, plunge_bid(s["doubles"], s["marks"], jumps, needs,
                                                 step_rule="PTERMS-05", hand_rule="PTERMS-02",
                                                 jump_rule="PLUNGE-10" if raises else "PLUNGE-08",
                                                 plunge_rule="PTERMS-04", raises=raises))
    if s["announce"] == "declaration":
        changes = {**with_special_bid(rules, None, PLUNGE),
                   "trumps": rules.trumps + (vr.PLUNGE_CHOICE,),
                   "declaration_problem": partial(
                       vr.plunge_declaration_problem, doubles=s["doubles"], marks=s["marks"],
                       needs=needs, inner=rules.declaration_problem,
                       beside_rule="PTERMS-09"),
                   "declared": partial(vr.plunge_declared, raised=s["raise"],
                                       inner=rules.declared)}
    if s["leader"] == "plunger":
        changes["first_leader"] = partial(vr.plunger_leads, inner=rules.first_leader)
    return changes


SPLASH_DOUBLES = 3  # SPLASH-02
SPLASH_CHOICES = (2, 3)  # SPLASH-06: the marks a splash may carry with `marks: "bid"`
SIX_SIX = 1 << TILE_INDEX["6|6"]  # PTERMS-10


def splash(s: Settings, rules: Rules) -> dict:
    """SPLASH-02 (three doubles, before any bid) and SPLASH-03 (a bid of `marks` marks), in
    special_bid_problem; SPLASH-04: the partner declares, as won_contract does for every
    special bid, and the contract is a plunge for PLUNGE-05 and PTERMS-03; SPLASH-05: a bid
    form of its own beside the plunge; SPLASH-06 (`marks: "bid"`): the bid carries 2 or
    3; SPLASH-07 (`when: "any_time"`): it may jump over earlier bids; SPLASH-08 (`when:
    "raise"`): it raises the last marks bid by its marks, over any bid."""
    chosen = s["marks"] == "bid"
    bid = SpecialBid("splash", SPLASH_DOUBLES,
                     max(SPLASH_CHOICES) if chosen else s["marks"],  # pragma: no mutate
                     step_rule="SPLASH-03", hand_rule="SPLASH-02",
                     jumps=s["when"] != "before_bids", raises=s["when"] == "raise",
                     jump_rule="SPLASH-08" if s["when"] == "raise" else "SPLASH-07",
                     choices=SPLASH_CHOICES if chosen else (), plunge_rule="SPLASH-04",
                     beside_rule="SPLASH-05")
    return with_special_bid(rules, bid)


def first_bidder(s: Settings, rules: Rules) -> dict:
    """FIRST-02: the holder of 0|1 bids first; FIRST-03: the last bidder takes the
    dealer's place at the end of the bidding (match.py reads the bidding order)."""
    return {"last_bidder": vr.holder_bids_first}


def marks_raise(s: Settings, rules: Rules) -> dict:
    """RAISE-02: a later marks bid is one or two marks more than the one before (a special
    bid is held to it as a marks bid of its marks, RAISE-03)."""
    return {"marks_raises": (1, 2), "marks_raise_rule": "RAISE-02"}


class Option(NamedTuple):
    settings: dict[str, Setting]
    changes: Callable[[Settings, Rules], dict]  # settings, Rules so far -> fields changed


# variants.md, in its order; the settings tables of each option's section, which say what
# an option's value may be (MPTS-01, DRAW-01, FORCE-01, FORTYTWO-01, UNDECL-01,
# FOLLOWME-01, NELLO-01, SEVENS-01, PLUNGE-01, NOTRUMP-01, TARGET-01, PTERMS-01, SPLASH-01,
# FIRST-01, RAISE-01;
# checked by option_settings, VAR-01).
OPTIONS: dict[str, Option] = {
    "match_points": Option({"target": Setting(range(1, 10001), 250),
                            "end": Setting(("early", "play_out"), "early"),
                            "ladder": Setting(("linear", "doubling"), "linear"),
                            "high_bids": Setting(("with_points", "all_or_nothing"),
                                                 "with_points")}, match_points),
    "deal_by_drawing": Option({}, deal_by_drawing),
    "forced_bid": Option({"bid": Setting(("minimum", "any", "at_least_31"), "minimum"),
                          "nello_sevens": Setting(("any_contract", "forced_only"),
                                                  "any_contract"),
                          "sweep_marks": Setting((1, 2), 1)}, forced_bid),
    "bid_42": Option({"contract": Setting(("points", "marks"), "points")}, bid_42),
    "undeclared_trump": Option({"end": Setting(("high", "low"), "high"),
                                "double": Setting(("number", "doubles"), "number")},
                               undeclared_trump),
    "follow_me": Option({"min_marks": Setting((0, 1), 0)}, follow_me),
    "nello": Option({"doubles": Setting(("high", "low", "own_suit", "own_suit_reversed",
                                         "declared"), "high"),
                     "min_marks": Setting((0, 1, 2), 2),
                     "on_plunge": Setting(("refused", "allowed"), "refused"),
                     "announce": Setting(("declaration", "bid"), "declaration")}, nello),
    "sevens": Option({"duty": Setting(("closest", "free"), "closest"),
                      "ties": Setting(("first_played", "bidders"), "first_played"),
                      "min_marks": Setting((1, 2), 1)}, sevens),
    "plunge": Option({"when": Setting(("before_bids", "any_time", "raise"), "before_bids")},
                     plunge),
    "no_trump": Option({"doubles": Setting(("low", "own_suit", "declared"), "low")},
                       no_trump),
    "match_marks": Option({"target": Setting(range(1, 101), 10)}, match_marks),
    "plunge_terms": Option({"doubles": Setting((3, 4, 5, 6, 7), 4),
                            "marks": Setting((2, 3, 4), 4),
                            "leader": Setting(("partner", "plunger"), "partner"),
                            "announce": Setting(("bid", "declaration"), "bid"),
                            "double_six": Setting(("optional", "required"), "optional"),
                            "raise": Setting((0, 1), 0)},
                           plunge_terms),
    "splash": Option({"marks": Setting((2, 3, "bid"), 3),
                      "when": Setting(("before_bids", "any_time", "raise"), "before_bids")},
                     splash),
    "first_bidder": Option({}, first_bidder),
    "marks_raise": Option({}, marks_raise),
}
# actions.md: the options' trump choices follow the base ones in this order.
CHOICE_ORDER = ("nello", "sevens", "first_tile", vr.PLUNGE_CHOICE)


def invalid(message: str) -> IllegalAction:
    return IllegalAction("INVALID_SETUP", "VAR-01", message)


def accepts(setting: Setting, given: Any) -> bool:
    """VAR-01: `given` is one of the setting's values, of that value's own JSON type (a
    boolean is never a number, `1` never `true`)."""
    if isinstance(setting.values, range):
        return type(given) is int and given in setting.values
    return any(type(given) is type(value) and given == value for value in setting.values)


def option_settings(name: Any, value: Any) -> dict[str, Any]:
    """VAR-01: an option's value, `true` or an object of its settings, with every setting
    filled in (a setting left out takes its default)."""
    option = OPTIONS.get(name) if type(name) is str else None  # pragma: no mutate
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
        if not accepts(setting, given):
            raise invalid(f"option {name}: {key} may not be {given!r}")
        settings[key] = given
    return settings


def rules_for(variants: Any, options: Mapping[str, Option] = OPTIONS) -> Rules:
    """The Rules of a setup's `variants` object (VAR-01); INVALID_SETUP if it is not one.
    `options` is the option table to resolve them by (planted bugs redefine one)."""
    if type(variants) is not dict:
        raise invalid("`variants` must be an object of options")
    if not variants:
        return BASE_RULES
    settings = {name: option_settings(name, value) for name, value in variants.items()}
    key = json.dumps(settings, sort_keys=True)  # pragma: no mutate
    if options is OPTIONS:  # pragma: no mutate
        return rules_of_settings(key)
    return rules_by_table(key, options)  # pragma: no mutate


def rules_by_table(key: str, options: Mapping[str, Option]) -> Rules:
    """rules_of_settings for another option table (planted bugs), built once per table."""
    found = _OTHER_TABLES.get((id(options), key))
    if found is None or found[0] is not options:
        found = _OTHER_TABLES[id(options), key] = (options, resolve(json.loads(key), options))
    return found[1]


# (id of an option table, settings key) -> (the table, its Rules); keeps the table alive.
_OTHER_TABLES: dict[tuple[int, str], tuple[Mapping[str, Option], Rules]] = {}


@cache
def rules_of_settings(key: str) -> Rules:
    """The Rules of the options `key` (JSON: option -> every setting), built once."""
    return resolve(json.loads(key), OPTIONS)


def resolve(chosen: Mapping[str, Settings], options: Mapping[str, Option]) -> Rules:
    """Each option in force changes the Rules left by the ones before it, in the order of
    variants.md; the options' trump choices follow the base ones in CHOICE_ORDER."""
    rules = BASE_RULES
    for name, option in options.items():
        if name in chosen:
            rules = replace(rules, **option.changes(chosen[name], rules))
    added = [choice for choice in CHOICE_ORDER if choice in rules.trumps]
    return replace(rules, trumps=TRUMP_CHOICES + tuple(added))  # pragma: no mutate


def clear_resolved() -> None:
    """Forget every Rules resolved so far (reference_impl.clear_caches)."""
    rules_of_settings.cache_clear()
    _OTHER_TABLES.clear()
