"""Which rule the reference applied: to refuse an action, to allow one, to decide a field.

Off the hot path: nothing here runs while a match is played. The harness asks it only
when it diagnoses a failure (conformance/run/diagnosis.py), on a copy of the match at
the failing position. Each answer is one rule ID of spec/rules.md or spec/variants.md:
the most specific rule that decides the case, so that an engine author reads the rule
their engine broke (a trump that "follows" a number it shows breaks SUIT-01, not the
duty to follow of PLAY-05).

An option changes the game through the `Rules` table; where a decision is made by an
option's function instead of the base one, the answer is the rule ID that function's
docstring names first (every rule function names the rule it implements).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ..errors import CODES, IllegalAction
from ..match import BIDDING, DECLARING, MATCH_OVER, PLAYING, ROUND_OVER, Match
from ..rules import BASE_RULES, TRUMP_SUIT, Rules, SpecialBid, is_trump, suit_key
from ..tiles import PIPS, SEAT_INDEX, TILE_INDEX

RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{2}\b")


def named_rule(fn: Any) -> str | None:
    """The first rule ID a rule function's docstring names (through functools.partial)."""
    while isinstance(fn, functools.partial):  # an option's own function before the one it wraps
        if fn.keywords.get("own") and fn.keywords.get("rule"):
            return str(fn.keywords["rule"])  # the rule the option names for it (for_choice)
        fn = fn.keywords.get("own") or fn.func
    found = RULE_ID.search(getattr(fn, "__doc__", "") or "")
    return found.group(0) if found else None


def choice_rule(fn: Any, trump: Any) -> str | None:
    """The rule of the option's suit function that decides under `trump` (the for_choice
    link of that choice: the rule it names, else its own function's); None when every
    link passes `trump` on to the base game's function."""
    while isinstance(fn, functools.partial) and "own" in fn.keywords:
        if fn.keywords["choice"] == trump:
            return named_rule(fn)
        fn = fn.keywords["inner"]
    return None if fn in (BASE_RULES.called_suit, BASE_RULES.follows, BASE_RULES.trick_rank) \
        else named_rule(fn)


def table_rule(rules: Rules, name: str, base: str) -> str:
    """`base` while the rule table's entry `name` is the base game's; else the rule the
    option's function names."""
    fn = getattr(rules, name)
    if fn is getattr(BASE_RULES, name):
        return base
    return named_rule(fn) or base


def declared(match: Match) -> int | str:
    """The trump of a contract in play (only asked once a tile is played)."""
    assert match.contract is not None and match.contract.trump is not None
    return suit_key(match.contract.trump, match.contract.treatment)  # NELLO-13


# ---- refusals ------------------------------------------------------------------------


def refusal(match: Match, action: Any) -> IllegalAction | None:
    """The reference's refusal of `action` here, or None if it accepts it."""
    try:
        match.clone().apply(action)
    except IllegalAction as error:
        return error
    return None


def refusal_rule(match: Match, action: Any) -> str | None:
    """The rule by which the reference refuses `action` here (None: it accepts it). A
    refusal to follow names the suit rule that makes the tile not follow, when one does."""
    error = refusal(match, action)
    if error is None:
        return None
    if error.code in ("MALFORMED_ACTION", "INVALID_TRUMP") and _an_option_form(action):
        return _form_in_force(match, action) or "VAR-04"
    if error.code == "MARKS_BID_STEP" and error.rule == "BID-06":
        return marks_step_rule(match)
    if error.code == "MUST_FOLLOW" and isinstance(action, dict):
        tile = TILE_INDEX.get(str(action.get("tile")))
        if tile is not None:
            return suit_rule(match, tile) or error.rule
    return error.rule


def refusal_alternatives(match: Match, action: Any) -> tuple[str, ...]:
    """Other rules an engine that accepts a refused `action` fits as well: FORCE-05 where
    the reference accepts it once the contract is recorded forced the other way; a
    choice's own rule for its stacks (UNDECL-02); a special bid refused by its jump
    (PLUNGE-07, SPLASH-07) fits its marks (PLUNGE-03, SPLASH-03: an engine that gives the
    bid other marks to jump from); FORCE-06 for a bid announcing a choice that FORCE-06
    keeps for the forced contract (`forced_only_choices`), refused by NELLO-14 only for
    that (an engine that ignores FORCE-06 everywhere breaks that rule). The run's other
    failures tell which (settle.py)."""
    from dataclasses import replace

    if not isinstance(action, dict):
        return ()
    flipped = forced_flipped(match)
    if flipped is not None and refusal(flipped, action) is None:
        return ("FORCE-05",)
    error = refusal(match, action)
    if error is None:
        return ()
    if error.rule in ("CON-02", "CON-03"):
        return _choice_stacks_rule(match, action, error.rule)
    if error.code == "MARKS_BID_STEP":
        return tuple(bid.step_rule for bid in match.rules.special_bids
                     if bid.name in action and error.rule == bid.jump_rule)
    if error.code != "NELLO_BID_NOT_ALLOWED" or not match.rules.forced_only_choices:
        return ()
    unlimited = match.clone()
    unlimited.rules = replace(match.rules, forced_only_choices=())
    return ("FORCE-06",) if refusal(unlimited, action) is None else ()


def _choice_stacks_rule(match: Match, action: dict, rule: str) -> tuple[str, ...]:
    """The rule of a choice an option adds (UNDECL-02 for "first_tile"), which restates
    the stacks rule `rule` (CON-02, CON-03) for its declaration: an engine that gets the
    stacks wrong for that choice only breaks it (settle.py)."""
    own = declaration_rule(match, action) if action.get("type") == "trump" else rule
    return (own,) if own not in (rule, "CON-01", "VAR-04") else ()


def acceptance_alternatives(match: Match, action: Any) -> tuple[str, ...]:
    """Other rules the refusal of a legal `action` fits as well: FORCE-05 when the
    reference refuses it too once the contract is recorded forced the other way."""
    flipped = forced_flipped(match) if isinstance(action, dict) else None
    return ("FORCE-05",) if flipped is not None and refusal(flipped, action) else ()


def forced_only_misread(match: Match, action: Any) -> str | None:
    """FORCE-06 when a legal `action` is refused once `nello_sevens` is `"forced_only"`
    where the setup leaves it `"any_contract"`: an engine that refuses it keeps Nel-O and
    Sevens for the forced contract, the setting's rule, against the setup."""
    from ..variants import rules_for

    settings = match.variants.get("forced_bid")
    if not settings or not isinstance(action, dict) or match.rules.forced_only_choices:
        return None
    limited = match.clone()
    limited.rules = rules_for({**match.variants, "forced_bid": {
        **(settings if isinstance(settings, dict) else {}), "nello_sevens": "forced_only"}})
    return "FORCE-06" if refusal(limited, action) is not None else None


def forced_flipped(match: Match) -> Match | None:
    """A copy of `match` whose contract is recorded forced where it is not, and the other
    way (FORCE-05 decides which contracts are), under forced_bid; None before a contract.
    An engine whose action fits this copy where it differs from the reference may break
    FORCE-05 rather than the rule the difference shows (FORCE-06 .. FORCE-08)."""
    if "forced_bid" not in match.variants or match.contract is None:
        return None
    flipped = match.clone()
    flipped.contract = match.contract._replace(compelled=not match.contract.compelled)
    return flipped


def forced_field_alternatives(before: Match | None, action: Any, field: str,
                              engine_view: dict | None) -> tuple[str, ...]:
    """FORCE-05 when the engine's `field` after `action` is the reference's once the
    contract is recorded forced the other way (forced_flipped)."""
    flipped = forced_flipped(before) if before is not None else None
    if flipped is None or not isinstance(action, dict):
        return ()
    try:
        flipped.apply(action)
    except IllegalAction:
        return ()
    ours: Any = flipped.view()
    theirs: Any = engine_view
    for part in field.split("."):
        ours = ours.get(part, MISSING_FIELD) if isinstance(ours, dict) else MISSING_FIELD
        theirs = theirs.get(part, MISSING_FIELD) if isinstance(theirs, dict) else MISSING_FIELD
    return ("FORCE-05",) if ours is not MISSING_FIELD and ours == theirs else ()


MISSING_FIELD = object()


def played_forced(before: Match | None, action: Any, field: str,
                  engine_view: dict | None) -> bool:
    """The engine's `field` is the reference's for a contract recorded forced, where the
    contract is not forced (FORCE-05): it plays by FORCE-07/FORCE-08, whose rules do not
    hold for this contract, because it records it forced against FORCE-05."""
    return before is not None and before.contract is not None and \
        not before.contract.compelled and \
        forced_field_alternatives(before, action, field, engine_view) == ("FORCE-05",)


def _an_option_form(action: Any) -> bool:
    """An action of a form only an option defines (a special bid, an option's trump
    choice), judged by the base rules when that option is not in force (VAR-04)."""
    from ..actions import special_bids
    from ..variants import OPTIONS, rules_for

    if not isinstance(action, dict):
        return False
    every = rules_for(dict.fromkeys(OPTIONS, True))
    if action.get("type") == "trump":
        return action.get("trump") not in BASE_RULES.trumps and \
            every.canonical_trump(action.get("trump", "")) is not None
    extra = set(action) - {"type", "seat", "points", "marks"}
    return action.get("type") == "bid" and bool(extra) and extra <= set(special_bids(every))


def _form_in_force(match: Match, action: dict) -> str | None:
    """The rule of an option in force that makes a special bid's form malformed: SPLASH-06
    for a bid whose marks are carried (`"splash": 2`) where `true` is due, or `true` where
    they are; PTERMS-06 for the plunge named at the declaration, not bid. None when no
    option in force defines the form (VAR-04)."""
    rules = match.rules
    name = next((k for k in action if k not in ("type", "seat", "points", "marks")), None)
    bid = next((b for b in rules.special_bids if b.name == name), None)
    if action.get("type") == "bid" and bid is not None and (
            bid.choices or type(action.get(name)) is int):
        return "SPLASH-06"
    if action.get("type") == "bid" and name in rules.trumps:
        return "PTERMS-06"
    return None


# ---- why an action is legal ---------------------------------------------------------


def legal_rule(match: Match, action: dict) -> str:
    """The rule that makes a legal `action` legal here."""
    kind = action.get("type")
    if kind == "play":
        return play_rule(match, TILE_INDEX[action["tile"]])
    if kind == "pass":
        dealer_last = (SEAT_INDEX[action["seat"]] == match._bidders[3]
                       and match.high_bidder is None)
        return "BID-09" if dealer_last else "BID-01"
    if kind == "bid":
        return bid_rule(match, action)
    rule = declaration_rule(match, action)
    return "CON-02" if rule == "CON-01" and "stacks" in action else rule


def bid_rule(match: Match, action: dict) -> str:
    """BID-02/BID-03 for a point bid, BID-05/BID-06 for a marks bid; a special bid's own
    rule (PLUNGE, SPLASH); the forced bid's rule for the dealer after three passes; a bid
    announcing a choice, the announcement's (NELLO-14; NELLO-11 for a point bid)."""
    rules = match.rules
    dealer_last = match._seat == match._bidders[3] and match.high_bidder is None
    if dealer_last:  # a bid is then the forced one (FORCE-03), or free as any (BID-09)
        return "FORCE-03" if _dealer_must_bid(rules) else "BID-09"
    announced = next((key for key in action if key in rules.bid_announces), None)
    if announced is not None:  # the announcement's rule (NELLO-14); on a point bid, the
        own = named_rule(rules.announce_problem) or "BID-01"  # choice's on a point contract
        return (_choice_rule(match, announced) or own) if "points" in action else own
    if "points" in action:
        if action["points"] == rules.point_bids[-1] or action["points"] == rules.point_bids[0]:
            return "BID-02" if rules.one_mark_points is None else "FORTYTWO-02"
        return "BID-03"
    if "marks" in action:
        return marks_step_rule(match, action["marks"])
    for name in action:
        if name not in ("type", "seat"):
            return _special_bid_rule(match, name)
    return "BID-01"


def marks_step_rule(match: Match, marks: Any = None) -> str:
    """BID-05 for a first marks bid, BID-06 for a later one; after a special bid, the rule
    of that bid's marks (PLUNGE-03, SPLASH-03), which the next step counts from, unless
    the bid of `marks` raises by more than the base game's step: the option's raise
    (`marks_raise_rule`, RAISE-02)."""
    name = last_special_bid(match)
    bid = next((b for b in match.rules.special_bids if b.name == name), None)
    if bid is not None and match.last_marks:
        wider = type(marks) is int and marks - match.last_marks not in BASE_RULES.marks_raises
        return match.rules.marks_raise_rule if wider else bid.step_rule
    return match.rules.marks_raise_rule if match.last_marks else "BID-05"


def _special_bid_rule(match: Match, name: str) -> str:
    """A special bid's rule of who may make it (PLUNGE-02, SPLASH-02, PTERMS-02), or of
    its jump over earlier bids (its `jump_rule`: PLUNGE-07, SPLASH-07); SPLASH-06 for one
    that carries its marks."""
    bid = next((b for b in match.rules.special_bids if b.name == name), None)
    if bid is None:
        return "VAR-04"
    if bid.jumps and match.high_bidder is not None:
        return bid.jump_rule
    return "SPLASH-06" if bid.choices else bid.hand_rule  # the marks it carries


def _dealer_must_bid(rules: Rules) -> bool:
    """An option makes the dealer bid after three passes (FORCE-02)."""
    return rules.dealer_bid_problem is not BASE_RULES.dealer_bid_problem


def declaration_rule(match: Match, action: dict) -> str:
    """CON-01 for a trump choice of the base game; a choice an option adds (or limits)
    names the option's rule: an alias FOLLOWME-02, another its declaration check's."""
    rules, trump = match.rules, action.get("trump")
    if any(alias == trump for alias, _ in rules.trump_aliases):
        return "FOLLOWME-02"
    if trump == "first_tile":
        return "UNDECL-02"
    choice = _choice(rules, trump)
    own = _choice_rule(match, choice if isinstance(choice, str) else None)
    if own:
        return own
    base = "CON-01" if trump in BASE_RULES.trumps else "VAR-04"
    return table_rule(rules, "declaration_problem", base)


def _choice(rules: Rules, trump: Any) -> Any:
    """A declaration's choice as the rules name it (an alias to its choice)."""
    return rules.canonical_trump(trump) if isinstance(trump, str) else trump


def _choice_rule(match: Match, choice: str | None) -> str | None:
    """The rule of the option check that limits `choice` (its `rule`: NELLO-02,
    NELLO-11 on a point contract, SEVENS-07, FOLLOWME-03), found along the chain of
    declaration checks; NELLO-12 for a choice allowed on a plunge; for a choice a plunge
    forbids (PLUNGE-05), where a declared plunge may be declared instead, the rule the
    plunge's check names for that (PTERMS-09)."""
    fn: Any = match.rules.declaration_problem
    beside = None
    while isinstance(fn, functools.partial):
        kw = fn.keywords
        if kw.get("beside") and _plunge_declarable(match):
            beside = str(kw["beside"])
        if choice is not None and kw.get("choice") == choice and "rule" in kw:
            if match.contract is not None and match.contract.partner_declares and \
                    kw.get("on_plunge") and choice == "nello":
                return "NELLO-12"
            return beside if beside and not kw.get("on_plunge") else str(kw["rule"])
        fn = kw.get("inner")
    return None


def _plunge_declarable(match: Match) -> bool:
    """The seat to act may declare the plunge here (PTERMS-07), the winning bid's
    announcement aside: a Nel-O bid (NELLO-15) leaves the contract one that could carry
    the plunge, on which PTERMS-09 lets the declarer declare Nel-O instead."""
    from ..variant_rules import PLUNGE_CHOICE

    probe = match
    if match.contract is not None and match.contract.announced is not None:
        probe = match.clone()
        probe.contract = match.contract._replace(announced=None)
    return refusal(probe, {"type": "trump", "seat": match.to_act, "trump": PLUNGE_CHOICE}) \
        is None


def play_rule(match: Match, tile: int) -> str:
    """Why the reference lets the seat to act play `tile`: a lead is free (PLAY-04); a
    tile that follows, by the suit rule that makes it follow; a seat that cannot follow
    plays any tile (PLAY-06), though a trump it holds shows the called number (SUIT-01,
    SUIT-02) or a tile shows the lead's other number (SUIT-05): those rules say it is void."""
    rules = match.rules
    if rules.duty is not None:
        return named_rule(rules.duty) or "PLAY-05"
    if not match.trick:
        return "PLAY-04"
    called, trump = match.called, declared(match)
    if rules.follows(tile, called, trump):
        return suit_rule(match, tile) or "PLAY-05"
    held = [t for t in range(len(PIPS)) if match.masks[match._seat] >> t & 1]
    trumps = [suit_rule(match, t) for t in held if is_trump(t, trump)]
    if any(trumps):
        return next(r for r in trumps if r)
    if not any(is_trump(t, trump) for t in held):
        others = [suit_rule(match, t) for t in held if t != tile]
        if "SUIT-05" in others:
            return "SUIT-05"
    return "PLAY-06"


def suit_rule(match: Match, tile: int) -> str | None:
    """The suit rule that decides whether `tile` follows the trick's called suit: SUIT-04
    under a trump lead, SUIT-01/SUIT-02 for a trump that shows the called number, SUIT-05
    for a tile that shows only one of the lead's numbers (which one the lead calls decides
    it), SUIT-06 for a tile that follows a double's number; None for a tile that shows
    neither the called number nor the lead's other one (only the duty to follow, PLAY-05,
    is at stake)."""
    rules = match.rules
    if rules.follows is not BASE_RULES.follows or rules.called_suit is not BASE_RULES.called_suit:
        own = choice_rule(rules.follows, declared(match)) or \
            choice_rule(rules.called_suit, declared(match))
        if own:  # else the option passes this trump on to the base game's suits
            return own
    lead, trump, called = match.trick[0], declared(match), match.called
    pips, lead_pips = set(PIPS[tile]), set(PIPS[lead])
    if called == TRUMP_SUIT:
        return "SUIT-04" if is_trump(tile, trump) or pips & lead_pips else None
    if is_trump(tile, trump):
        if called in pips:
            return "SUIT-02" if trump == "doubles" else "SUIT-01"
        return None
    if pips & lead_pips:
        return "SUIT-05" if len(lead_pips) == 2 else "SUIT-06"
    return None


# The natural misreadings of the rules that decide which tiles a seat may play, each
# with the rule it breaks: an engine whose legal plays are exactly those of a misreading
# breaks that rule.
MISREADINGS = {"no_duty": "PLAY-05", "trump_lead_larger": "SUIT-04",
               "lead_smaller": "SUIT-05", "trump_other_number": "SUIT-01",
               "double_number": "SUIT-02", "must_trump": "PLAY-06",
               "must_overtrump": "PLAY-06"}


def plays_as_misread(match: Match, model: str) -> set[int]:
    """The tiles the seat to act could play under a misreading (MISREADINGS): `no_duty`,
    no duty to follow (PLAY-05); `trump_lead_larger`, every lead calling its larger
    number, a trump lead too (SUIT-04); `lead_smaller`, a lead calling its smaller number
    (SUIT-05); `trump_other_number`, a trump also following its other number (SUIT-01);
    `double_number`, a double also following its number under doubles (SUIT-02);
    `must_trump`, a seat that cannot follow having to trump, and `must_overtrump`, a seat
    that trumps or follows a trump lead having to beat the highest trump played (PLAY-06)."""
    hand = [t for t in range(len(PIPS)) if match.masks[match._seat] >> t & 1]
    trump, lead = declared(match), match.trick[0]
    if model == "no_duty":
        return set(hand)
    low, high = PIPS[lead]

    def follows(tile: int, called: Any) -> bool:
        if called == TRUMP_SUIT:
            return is_trump(tile, trump)
        shown = called in PIPS[tile]
        if model == "trump_other_number" and trump not in ("doubles", "none") \
                and is_trump(tile, trump):
            return shown
        if model == "double_number" and trump == "doubles" and is_trump(tile, trump):
            return shown
        return shown and not is_trump(tile, trump)

    called = match.called
    if model == "trump_lead_larger":
        called = high
    if model == "lead_smaller" and called != TRUMP_SUIT:
        called = low
    following = {t for t in hand if follows(t, called)}
    if model == "must_overtrump" and (called == TRUMP_SUIT or not following):
        return _overtrumps(match, hand) or following or set(hand)
    if following:
        return following
    if model == "must_trump":
        return {t for t in hand if is_trump(t, trump)} or set(hand)
    return set(hand)


def _overtrumps(match: Match, hand: list[int]) -> set[int]:
    """The trumps in `hand` that beat every trump in the trick (none if none is played)."""
    trump, called, rank = declared(match), match.called, match.rules.trick_rank
    played = [rank(t, called, trump) for t in match.trick if is_trump(t, trump)]
    if not played:
        return set()
    return {t for t in hand if is_trump(t, trump) and rank(t, called, trump) > max(played)}


def misread_models(match: Match, plays: set[int]) -> list[str]:
    """The misreadings that give exactly the engine's legal plays `plays` here, when the
    reference's differ (base suits only); several may fit one position."""
    rules = match.rules
    if (not match.trick or rules.duty is not None or rules.follows is not BASE_RULES.follows
            or rules.called_suit is not BASE_RULES.called_suit):
        return []
    return [model for model in MISREADINGS if plays_as_misread(match, model) == plays]


# ---- the rule an engine's code claims ------------------------------------------------

# codes whose refusal of a legal action is read as a claim about the action itself
ABOUT_THE_ACTION = {"MUST_FOLLOW", "MUST_PLAY_CLOSEST", "TILE_NOT_IN_HAND", "POINT_BID_RANGE",
                    "BID_TOO_LOW", "MARKS_BID_STEP", "PLUNGE_NOT_ALLOWED", "FORCED_BID",
                    "INVALID_TRUMP", "TRUMP_NOT_ALLOWED", "STACKS_NOT_ALLOWED",
                    "STACKS_REQUIRED", "STACKS_INVALID", "MALFORMED_ACTION"}


def claimed_rule(match: Match, action: Any, code: str | None) -> str | None:
    """The rule an engine breaks when it refuses a legal `action` with `code`: whose turn
    it is for NOT_YOUR_TURN, the phase's rule for WRONG_PHASE, else the rule that makes
    the action legal here. None when the action is not one the reference knows."""
    if not isinstance(action, dict) or refusal(match, action) is not None:
        return None
    if code == "NOT_YOUR_TURN":
        return turn_rule(match)
    if code == "WRONG_PHASE":
        return phase_rule(match, action.get("type"))
    if code == "MALFORMED_ACTION":
        return _setting_form_rule(match, action) or "DIG-01"
    if code == "POINT_BID_RANGE" and "points" in action:  # the range, whoever bids
        return "BID-02" if match.rules.one_mark_points is None else "FORTYTWO-02"
    if code == "NELLO_BID_NOT_ALLOWED" and action.get("type") == "bid":
        return "NELLO-11" if "points" in action else "NELLO-14"  # the announcement's rule
    if code == "TRUMP_NOT_ALLOWED" and "forced_bid" in match.variants and \
            action.get("trump") in ("nello", "sevens") and match.contract is not None \
            and match.contract.kind == "marks":  # (on a point contract: NELLO-11)
        return "FORCE-06"  # the choice is allowed here: on which contracts, FORCE-06 says
    if code == "FORCED_BID" and SEAT_INDEX.get(str(action.get("seat"))) == match.dealer and \
            match._bidders[3] != match.dealer:
        return "FIRST-04"  # the last bidder, not the dealer, is the one forced
    if code == "FORCED_BID" and not _dealer_must_bid(match.rules):
        return "BID-09"  # no forced bid here: the dealer after three passes bids or passes
    return legal_rule(match, action)


def wrong_code_rule(match: Match, action: Any, code: str) -> str | None:
    """The rule an engine breaks when it refuses `action` with `code` where the reference
    refuses it with another code: a code of a check that comes earlier in the check order
    (errors.yaml, DIG-03) fails a check the action passes here: the rule by which it
    passes (passed_rule); a later one passes the reference's check: the rule of the
    reference's refusal. None when the reference accepts it or the code is unknown."""
    error = refusal(match, action)
    if error is None or code not in CODES or code == error.code:
        return None
    if CODES.index(code) < CODES.index(error.code):
        return passed_rule(match, action, code)
    if breaks_too(match, action, code):
        return None  # both checks fail: the engine ordered them wrongly (DIG-03)
    return refusal_rule(match, action)


def breaks_too(match: Match, action: Any, code: str) -> bool:
    """The action fails the check of `code` too, where that check reads the position only:
    another seat than the one to act (NOT_YOUR_TURN), a tile not in the seat's hand
    (TILE_NOT_IN_HAND). False for any other code (it cannot be told apart here)."""
    if not isinstance(action, dict):
        return False
    view = match.view()
    seat = action.get("seat")
    if code == "NOT_YOUR_TURN":
        return seat != view["to_act"]
    if code == "TILE_NOT_IN_HAND":
        return action.get("tile") not in view["hands"].get(seat, ())
    return False


def passed_rule(match: Match, action: Any, code: str) -> str | None:
    """The rule by which `action`, which the reference refuses later, passes the check of
    `code` here: a special bid's marks step (special_step_rule); None for any other check
    (the refusal is then read as DIG-03's)."""
    if not isinstance(action, dict):
        return None
    name = next((k for k in action if k not in ("type", "seat", "points", "marks")), None)
    bid = next((b for b in match.rules.special_bids if b.name == name), None)
    if code == "MARKS_BID_STEP" and action.get("type") == "bid" and bid is not None:
        return special_step_rule(match, bid, action[name])
    return None


def special_step_rule(match: Match, bid: Any, value: Any) -> str:
    """The rule by which a special bid passes the marks step after a marks bid: the base
    game's one-mark raise by its own marks (its `step_rule`: PLUNGE-03, SPLASH-03,
    PTERMS-05); a raise only an option allows (RAISE-02) by RAISE-03, which holds a special
    bid to that raise as a marks bid of its marks."""
    from ..rules import special_bid_marks

    marks = special_bid_marks(match.rules, bid.name, match.last_marks,
                              value if type(value) is int else 0)
    raise_ = marks - match.last_marks
    if match.last_marks and raise_ not in BASE_RULES.marks_raises and \
            raise_ in match.rules.marks_raises:
        return "RAISE-03"
    return bid.step_rule


def _setting_form_rule(match: Match, action: dict) -> str | None:
    """The rule of a setting in force that defines a field of `action` an engine refused
    as malformed: a declaration's `doubles` (NELLO-13, NOTRUMP-05), a bid announcing
    Nel-O (NELLO-14), a splash that carries its marks (SPLASH-06), another special bid
    (its `hand_rule`, which gives its form: PLUNGE-02, SPLASH-02, PTERMS-02)."""
    rules = match.rules
    if action.get("type") == "trump" and "doubles" in action:
        choice = _choice(rules, action.get("trump"))
        return next((rule for named, _, rule in rules.treatments if named == choice), None)
    if action.get("type") == "bid" and action.get("nello") is True:
        return "NELLO-14"
    if action.get("type") == "bid" and type(action.get("splash")) is int:
        return "SPLASH-06"
    bid = next((b for b in rules.special_bids if b.name in action), None)
    if action.get("type") == "bid" and bid is not None:
        return bid.hand_rule  # the rule that gives the special bid its form
    return None


def setup_rule(setup: Any, match: Match | None) -> str:
    """The rule that makes a refused setup or deal valid, by what is unusual in it: its
    starting marks (the range's rule under its options; a points target set by
    `match_points` is MPTS-01's setting, the marks target it leaves unread TARGET-03),
    its options together (VAR-03) or alone
    (VAR-01), else its deal (DIG-06)."""
    from ..setup import marks_rule
    from ..variants import rules_for

    if not isinstance(setup, dict):
        return "DIG-06"
    variants = setup.get("variants") or {}
    marks = setup.get("marks")
    if isinstance(marks, dict) and any(v for v in marks.values()):
        target = target_rule(setup)
        if target:
            return target
        try:
            return marks_rule(rules_for(variants))  # this setup's options, not the last one's
        except IllegalAction:
            return "VAR-01"
    if isinstance(variants, dict) and len(variants) > 1:
        return "VAR-03"
    if isinstance(variants, dict) and variants:
        return "VAR-01"
    return "DIG-06"


def target_rule(setup: Any) -> str | None:
    """MPTS-01 when a setup's starting score lies between its own points target and the
    default one, so that only the target setting tells whether it is valid: an engine
    that accepts or refuses it wrongly reads the default target instead (MPTS-01).
    TARGET-03 when `match_marks`' target, which `match_points` leaves unread, would
    refuse it: an engine that refuses it reads that target."""
    from ..variants import OPTIONS, rules_for

    variants = setup.get("variants") if isinstance(setup, dict) else None
    points = variants.get("match_points") if isinstance(variants, dict) else None
    marks = setup.get("marks") if isinstance(setup, dict) else None
    if not isinstance(marks, dict) or not points:
        return None
    if variants.get("match_marks"):
        try:
            unread = rules_for({"match_marks": variants["match_marks"]}).marks_range
        except IllegalAction:
            unread = None
        if unread and any(type(v) is int and v not in unread for v in marks.values()):
            return "TARGET-03"
    if not isinstance(points, dict) or type(points.get("target")) is not int:
        return None
    default = OPTIONS["match_points"].settings["target"].default
    low, high = sorted((points["target"], default))
    between = [v for v in marks.values() if type(v) is int and low <= v < high]
    return "MPTS-01" if between else None


def turn_rule(match: Match) -> str:
    """Who acts now, by which rule: BID-01 in bidding, CON-01 (or the plunge's partner)
    in declaring, PLAY-01 for the first lead, PLAY-03 for a later one, PLAY-02 in a trick."""
    rules = match.rules
    if match.phase == BIDDING:
        return table_rule(rules, "bidding_order", "BID-01")
    if match.phase == DECLARING:
        return "PLUNGE-04" if match.contract.partner_declares else "CON-01"
    if match.phase == PLAYING:
        if match.trick:
            return table_rule(rules, "sitting_out", "PLAY-02")
        if not match.tricks:
            return table_rule(rules, "first_leader", "PLAY-01")
        return table_rule(rules, "next_leader", "PLAY-03")
    return "END-06"


def phase_rule(match: Match, kind: Any) -> str:
    """The rule by which the current phase accepts an action of this kind."""
    return {BIDDING: "BID-10", DECLARING: "CON-01", PLAYING: "CON-04"}.get(match.phase, "END-06")


# ---- what an applied action decided -------------------------------------------------

# The fields of a referee view in the order an action decides them: a difference in an
# earlier one explains the later ones (a wrong trick winner moves points, marks, the lead).
DECISION_ORDER = ("dealer", "hands", "round", "bids", "history", "contract.declarer",
                  "contract.team", "contract.bid", "contract.stake", "contract",
                  "contract.trump", "contract.stacks", "trick", "tricks.winner",
                  "tricks.team", "tricks", "tricks.points", "points", "tricks_won",
                  "result.outcome", "result", "phase", "result.awarded_to", "result.marks",
                  "marks", "winner", "to_act")


def field_rule(before: Match | None, action: Any, after: Match, field: str,
               engine_view: dict | None = None) -> str:
    """The rule the reference applied to set view field `field` (its first part: `tricks`,
    `to_act`, ...) when `action` took `before` to `after`; `before` is None for a setup.
    `engine_view` is the engine's view after the same action, to tell which of a field's
    rules the engine's value breaks."""
    rules = after.rules
    step = _step_kind(action)
    if field == "hands":
        if step == "play":
            return "PLAY-07" if _same_sets(after, engine_view) else "DEAL-03"
        return "DEAL-03" if _same_sets(after, engine_view) else (
            table_rule(rules, "deal_order", "DEAL-02") if _dealt_order(action) else "DEAL-01")
    if field == "dealer":
        return "DEAL-05" if step == "deal" else (
            "DRAW-03" if rules.draws else "DEAL-04")
    if field == "round":
        return "MATCH-03"
    if field in ("bids", "history"):
        return legal_rule(before, action) if before is not None and step in (
            "bid", "pass", "trump", "play") else "DIG-06"
    if field == "contract.stake":
        if rules.points_ladder and after.contract is not None and \
                after.contract.kind == "marks":
            return ladder_rule(engine_view)
        return plunge_value_rule(after) or table_rule(rules, "stake", "SCORE-01")
    if field == "contract.bid" and step == "trump" and before is not None and \
            before.contract is not None and after.contract is not None and \
            after.contract.value != before.contract.value and \
            _engine_bid(engine_view) == before.contract.value:
        return "PTERMS-11"  # the declaration raises the contract's marks; the engine's not
    if field in ("contract.trump", "contract.stacks") and step == "play":
        return table_rule(rules, "trump_after_lead", "CON-04")
    if field == "contract.trump":
        if step == "trump" and action.get("trump") == "first_tile":
            return "UNDECL-04"  # the choice is shown until the first tile sets trump
        return declaration_rule(before, action) if before is not None and step == "trump" \
            else "CON-01"
    if field == "contract.stacks":
        return "CON-03" if after.contract and after.contract.kind == "points" else "CON-02"
    special = _special_bid(after)
    if special and field in ("contract.bid", "contract.declarer", "contract.team"):
        return _special_rule(rules, special, field)
    if field == "contract.bid" and rules.one_mark_points is not None and \
            after.contract and after.contract.value == rules.one_mark_points:
        return "FORTYTWO-04"
    if field.startswith("contract"):
        if step == "trump":
            return "CON-02" if "stacks" in action else table_rule(rules, "declared", "CON-04")
        return ("PLUNGE-04" if after.contract and after.contract.partner_declares else
                table_rule(rules, "won_contract", "BID-08"))
    if field == "trick":
        return table_rule(rules, "sitting_out", "PLAY-02")
    if field in ("tricks", "tricks.winner", "tricks.team", "tricks_won"):
        return winner_rule(after, engine_view)
    if field in ("points", "tricks.points"):
        return points_rule(after, engine_view)
    if field == "result.awarded_to":
        return score_rule(after) or "SCORE-02"
    if field == "result.marks":
        return score_rule(after) or table_rule(rules, "stake", "SCORE-01")
    if field in ("result", "result.outcome", "phase"):
        return end_rule(before, after, engine_view)
    if field == "marks":
        return marks_rule(after, engine_view, step)
    if field == "winner":
        return match_end_rule(after, engine_view)
    if field == "to_act":
        return to_act_rule(before, after)
    return "DIG-04"


def plunge_value_rule(after: Match) -> str | None:
    """PTERMS-04 for the value in points of a plunge_terms plunge (bid or declared) under
    match_points: 42 times its own marks, which PTERMS-04 restates from MPTS-03 for it
    (an engine that values every mark wrongly breaks MPTS-03: field_alternatives)."""
    contract = after.contract
    if contract is None or not contract.partner_declares or \
            "plunge_terms" not in after.variants or after.rules.stake is BASE_RULES.stake:
        return None
    return "PTERMS-04" if _special_bid(after) in ("plunge", None) else None


def ladder_rule(engine_view: dict | None) -> str:
    """MPTS-10 for the value of a marks contract on the doubling ladder; MPTS-03 when the
    engine's value is no whole number of 42-point marks: the mark's worth, which MPTS-03
    gives and the ladder only doubles (42 for 1 mark under either), is what it misreads."""
    from ..variant_rules import MARK_IN_POINTS

    try:
        theirs = (engine_view or {})["contract"]["stake"]
    except (KeyError, TypeError):
        return "MPTS-10"
    return "MPTS-03" if type(theirs) is int and theirs % MARK_IN_POINTS else "MPTS-10"


def _special_rule(rules: Rules, name: str, field: str) -> str:
    """A special bid's rule of its marks (its entry's step rule: PLUNGE-03, SPLASH-03,
    PTERMS-05) or of who declares (PLUNGE-04, SPLASH-04)."""
    bid = next((b for b in rules.special_bids if b.name == name), None)
    if field == "contract.bid" and bid is not None:
        return bid.step_rule
    return f"{name.upper()}-{'03' if field == 'contract.bid' else '04'}"


def plunge_by(match: Match) -> tuple[str, ...]:
    """The rules by which an option other than `plunge` makes the contract in play a plunge
    for the rules that read one (PLUNGE-05, PTERMS-03, PTERMS-07, NELLO-12): the winning
    special bid's `plunge_rule` (SPLASH-04 for a splash, PTERMS-04 for the plunge of
    plunge_terms); for a plunge named at the declaration the rule of the engine's
    `declared` (PTERMS-08), and PTERMS-04, whose interactions hold for every plunge of
    plunge_terms. None (()) for the plunge bid of `plunge`, or a contract that is no plunge."""
    if match.contract is None or not match.contract.partner_declares:
        return ()
    name = last_special_bid(match)
    if name is None:  # no special bid won: the declaration made it a plunge
        return (table_rule(match.rules, "declared", "PTERMS-08"), "PTERMS-04")
    bid = next((b for b in match.rules.special_bids if b.name == name), None)
    return (bid.plunge_rule,) if bid is not None and bid.plunge_rule else ()


def beside_rule(match: Match, action: Any, rule: str) -> str | None:
    """SPLASH-05 (an entry's `beside_rule`): the rule of two special bids at one table, for
    a failure about one of them under one of their own rules (who may bid it, its jump, its
    marks: PLUNGE-02, SPLASH-02, PTERMS-02, ...); None elsewhere."""
    bids = match.rules.special_bids
    if len(bids) < 2 or not isinstance(action, dict) or action.get("type") != "bid" or \
            not any(b.name in action for b in bids):
        return None
    if rule not in {r for b in bids for r in (b.hand_rule, b.jump_rule, b.step_rule)}:
        return None
    return next((b.beside_rule for b in bids if b.beside_rule), None)


def after_other_special_bid(match: Match, action: Any) -> bool:
    """The last bid before `action` is a special bid of another kind than `action`'s."""
    last = last_special_bid(match)
    return isinstance(action, dict) and last is not None and last not in action


def raise_alternatives(match: Match, action: Any, rule: str) -> tuple[str, ...]:
    """A marks bid after a special bid refused by an option's raise (RAISE-02): the special
    bid's marks it counts from fit as well (its `step_rule`: PLUNGE-03, SPLASH-03, PTERMS-05:
    an engine that took the special bid for other marks)."""
    rules = match.rules
    if rule == "BID-06" or rule != rules.marks_raise_rule or not isinstance(action, dict) \
            or "marks" not in action or not match.last_marks:
        return ()
    bid = next((b for b in rules.special_bids if b.name == last_special_bid(match)), None)
    return (bid.step_rule,) if bid is not None else ()


def jump_alternatives(match: Match, action: Any, rule: str) -> tuple[str, ...]:
    """A special bid's jump decided by an interaction rule (PLUNGE-08: plunge_terms' plunge
    jumps too) fits the jump's own rule as well (PLUNGE-07: an engine that ignores `when`
    breaks it wherever the plunge jumps)."""
    from ..variants import PLUNGE

    own = SpecialBid._field_defaults["jump_rule"]  # the plunge's own jump (PLUNGE-07)
    if not isinstance(action, dict) or rule == own:
        return ()
    return tuple(own for bid in match.rules.special_bids
                 if bid.name == PLUNGE and PLUNGE in action and bid.jumps
                 and rule == bid.jump_rule)


def _engine_bid(engine_view: dict | None) -> Any:
    """The value of the contract's bid in the engine's view, if it shows one."""
    try:
        return next(iter((engine_view or {})["contract"]["bid"].values()))
    except (KeyError, TypeError, AttributeError, StopIteration):
        return None


def _special_bid(match: Match) -> str | None:
    """The special bid (plunge, splash) that won the bidding, if one did."""
    if match.contract is None or not match.contract.partner_declares:
        return None
    return last_special_bid(match)


def _special_bids_made(match: Match) -> list[str]:
    """The special bids of this round's bidding, in order, each kind once."""
    from ..actions import special_bids

    kinds = set(special_bids(match.rules))
    made = [k for a in match.history if a.get("type") == "bid" for k in a if k in kinds]
    return list(dict.fromkeys(made))


def last_special_bid(match: Match) -> str | None:
    """The name of the last bid's special kind (`plunge`, `splash`), if it was one."""
    bids = [a for a in match.history if a.get("type") == "bid"]
    kinds = [k for k in (bids[-1] if bids else {}) if k not in ("type", "seat", "marks",
                                                                  "points")]
    return kinds[0] if kinds else None


def _step_kind(action: Any) -> str:
    if isinstance(action, dict) and action.get("type") in ("bid", "pass", "trump", "play"):
        return action["type"]
    if isinstance(action, dict) and "dealer" not in action and "draws" not in action:
        return "deal"
    return "setup"


def _dealt_order(setup: Any) -> bool:
    return isinstance(setup, dict) and "order" in setup


def _same_sets(match: Match, engine_view: dict | None) -> bool:
    """The engine's hands hold the same tiles as the reference's, in another order."""
    if not engine_view or not isinstance(engine_view.get("hands"), dict):
        return False
    mine = match.view()["hands"]
    theirs = engine_view["hands"]
    return all(isinstance(theirs.get(s), list) and sorted(map(str, theirs[s])) == sorted(h)
               for s, h in mine.items())


def winner_rule(after: Match, engine_view: dict | None = None, played_as: bool = True
                ) -> str:
    """The rule that tells the reference's winner of the last completed trick from the
    engine's: RANK-01 when one of them is a trump and the other not; RANK-03 (RANK-04
    under doubles) between two trumps or two tiles of the called suit; RANK-02 when the
    engine's winner neither follows nor is a trump; an option's rank or winner rule when
    it decides; with `played_as`, the rule of the suits the engine played by instead
    (played_as_rule)."""
    rules = after.rules
    if after.contract is not None and after.contract.trump == "sevens" and \
            _signed_distance(after, engine_view):
        return "SEVENS-03"
    if played_as and (found := played_as_rule(after, engine_view)):
        return found
    if rules.trick_rank is not BASE_RULES.trick_rank:
        own = choice_rule(rules.trick_rank, declared(after)) if after.tricks else None
        if own or not after.tricks:  # else the option passes this trump on to the base's
            return own or named_rule(rules.trick_rank) or "RANK-02"
    if rules.trick_winner is not BASE_RULES.trick_winner:
        return named_rule(rules.trick_winner) or "RANK-02"
    if not after.tricks:
        return "RANK-02"
    tiles = after.tricks[-1][1]
    trump, lead = declared(after), tiles[0]
    called = rules.called_suit(lead, trump)
    theirs = _engine_winner_tile(after, engine_view)
    trumps = [t for t in tiles if is_trump(t, trump)]
    if theirs is None:
        return "RANK-01" if trumps else "RANK-03"
    if is_trump(theirs, trump):
        if len(trumps) > 1:
            return "RANK-04" if trump == "doubles" else "RANK-03"
        return "RANK-01"
    if trumps:
        return "RANK-01"
    if theirs == lead or rules.follows(theirs, called, trump):
        return "RANK-03"
    return "RANK-02"  # a tile that neither follows nor is a trump never wins


def played_as_rule(after: Match, engine_view: dict | None) -> str | None:
    """The rule an engine breaks whose winner of the last trick is the one other suits
    give: those of another value of the doubles than the one declared (the treatment's
    rule: NELLO-13, NOTRUMP-05), or an option's suits under a trump that is not its choice
    (the rule its for_choice link names for the others: NOTRUMP-04)."""
    theirs = _engine_winner_tile(after, engine_view)
    if theirs is None or not after.tricks or after.contract is None:
        return None
    rules, contract, trump = after.rules, after.contract, declared(after)
    if theirs == _engine_winner_tile(after, after.view()):  # the reference's winner
        return None
    for choice, values, rule in rules.treatments:
        if choice == contract.trump and contract.treatment is not None and theirs in [
                _winner_by(after, rules.called_suit, rules.trick_rank, suit_key(choice, v))
                for v in values if v != contract.treatment]:
            return rule
    rank = rules.trick_rank
    while isinstance(rank, functools.partial) and "own" in rank.keywords:
        others, choice = rank.keywords.get("others"), rank.keywords["choice"]
        if others and choice != trump and theirs == _winner_by(
                after, _own(rules.called_suit, choice), rank.keywords["own"], trump):
            return str(others)
        rank = rank.keywords["inner"]
    return None


def _own(fn: Any, choice: str) -> Any:
    """The function of `choice`'s for_choice link in a chain of suit functions."""
    while isinstance(fn, functools.partial) and fn.keywords.get("choice") != choice:
        fn = fn.keywords.get("inner")
    return fn.keywords["own"] if isinstance(fn, functools.partial) else fn


def played_as_named(match: Match, tile: int) -> str | None:
    """NELLO-13, NOTRUMP-05 (doubles declared): the treatment's rule when `tile` is legal
    for the seat to act by another value of the doubles than the one declared and not by
    it, or the other way round: an engine that plays the other value."""
    contract, rules = match.contract, match.rules
    if contract is None or contract.treatment is None or not match.trick:
        return None
    legal = _legal_by(match, tile, declared(match))
    for choice, values, rule in rules.treatments:
        if choice == contract.trump and any(
                _legal_by(match, tile, suit_key(choice, v)) != legal
                for v in values if v != contract.treatment):
            return rule
    return None


def played_as_other_choice(match: Match, tile: int) -> str | None:
    """The rule by which a trump that is not an option's choice plays as without the
    option (the `others` of its for_choice link: NOTRUMP-04) when `tile` is legal for the
    seat to act by that choice's suits and not by the trump declared, or the other way
    round: an engine that plays every contract by the option's suits."""
    if match.contract is None or not match.trick:
        return None
    trump, fn = declared(match), match.rules.follows
    while isinstance(fn, functools.partial) and "own" in fn.keywords:
        choice, others = fn.keywords["choice"], fn.keywords.get("others")
        if others and choice != trump and \
                _legal_by(match, tile, choice) != _legal_by(match, tile, trump):
            return str(others)
        fn = fn.keywords["inner"]
    return None


def _legal_by(match: Match, tile: int, trump: Any) -> bool:
    """`tile` may follow the trick's lead by the suits of `trump` (or the seat is void)."""
    rules = match.rules
    called = rules.called_suit(match.trick[0], trump)
    hand = [t for t in range(len(PIPS)) if match.masks[match._seat] >> t & 1]
    following = [t for t in hand if rules.follows(t, called, trump)]
    return not following or tile in following


def _winner_by(after: Match, called_suit: Any, trick_rank: Any, trump: Any) -> int:
    """The tile that wins the last completed trick by these suit functions."""
    tiles = after.tricks[-1][1]
    called = called_suit(tiles[0], trump)
    ranks = [trick_rank(tile, called, trump) for tile in tiles]
    return tiles[ranks.index(max(ranks))]


def _signed_distance(after: Match, engine_view: dict | None) -> bool:
    """The engine's Sevens winner is farther from 7 than the reference's, and nearest by
    the pips' sum minus 7 with its sign: SEVENS-03's distance misread."""
    theirs = _engine_winner_tile(after, engine_view)
    if theirs is None or not after.tricks:
        return False
    tiles = after.tricks[-1][1]
    distance = [abs(sum(PIPS[t]) - 7) for t in tiles]
    return abs(sum(PIPS[theirs]) - 7) > min(distance) and \
        theirs == min(tiles, key=lambda t: sum(PIPS[t]) - 7)


def _engine_winner_tile(after: Match, engine_view: dict | None) -> int | None:
    """The tile that won the last completed trick in the engine's view, if it says."""
    try:
        trick = (engine_view or {})["tricks"][len(after.tricks) - 1]
        winner = trick["winner"]
        return next(TILE_INDEX[p["tile"]] for p in trick["plays"] if p["seat"] == winner)
    except (KeyError, IndexError, TypeError, StopIteration):
        return None


def points_rule(after: Match, engine_view: dict | None) -> str:
    """PTS-01 when the engine's round points differ by whole tricks, PTS-02 otherwise
    (counters)."""
    rules = after.rules
    if rules.trick_point != BASE_RULES.trick_point or rules.counters != BASE_RULES.counters:
        return "PTS-02"
    try:
        theirs = (engine_view or {})["points"]
        gap = sum(abs(theirs[t] - p) for t, p in zip(("AC", "BD"), after.points, strict=True))
    except (KeyError, TypeError):
        return "PTS-02"
    return "PTS-01" if gap and gap % 5 else "PTS-02"


def end_rule(before: Match | None, after: Match, engine_view: dict | None) -> str:
    """The END rule that ended the round (or that the engine's early end breaks)."""
    rules = after.rules
    if after.phase in (ROUND_OVER, MATCH_OVER) and after.result and after.result[0] == "all_passed":
        return "BID-09"
    if after.contract is None:
        return "BID-08"
    if before is not None and before.phase == ROUND_OVER and after.phase == BIDDING:
        return "MATCH-03"
    theirs = (engine_view or {}).get("phase")
    if {after.phase, theirs} == {ROUND_OVER, MATCH_OVER}:
        # the match is over at the target whatever the margin or overshoot (MATCH-02); a
        # match ended below it breaks MATCH-01
        return table_rule(rules, "match_winner", "MATCH-02" if after.winner is not None
                          else "MATCH-01")
    if not rules.end_when_decided:
        return "MPTS-09"
    outcome = after.result[0] if after.result else _claimed_outcome(engine_view)
    if rules.outcome is not BASE_RULES.outcome:
        return named_rule(rules.outcome) or "END-05"
    marks = after.contract.kind == "marks"
    if outcome == "made":
        return "END-03" if marks else "END-01"
    if outcome == "set":
        return "END-04" if marks else "END-02"
    return "END-05"


def field_alternatives(after: Match, field: str, engine_view: dict | None) -> tuple[str, ...]:
    """Other rules a field's difference fits as well: an engine that plays on in a round
    the reference ended with tricks left breaks the rule that decided it (END-01 ..
    END-04), or plays every round out (END-05); the run's other failures tell which."""
    theirs = (engine_view or {}).get("phase")
    if field in ("result", "result.outcome", "phase") and theirs == PLAYING and \
            after.phase in (ROUND_OVER, MATCH_OVER) and len(after.tricks) < 7 \
            and after.rules.end_when_decided:
        return ("END-05",)
    if field == "contract.bid" and _bid_of_the_terms(after, engine_view):
        return ("PTERMS-08",)  # a declared plunge played for the terms' marks, not its bid
    if field == "result.marks" and sweep_bonus_shown(after, engine_view):
        return ("FORCE-07",)  # the bonus where the contract did not sweep
    if field == "contract.stake" and plunge_value_rule(after):
        return (table_rule(after.rules, "stake", "SCORE-01"),)  # the mark's worth, MPTS-03
    if field in ("contract.bid", "contract.declarer", "contract.team"):
        return tuple(_special_rule(after.rules, name, field) for name in
                     _special_bids_made(after) if name != _special_bid(after))
    if field in ("tricks", "tricks.winner", "tricks.team", "tricks_won") and \
            played_as_rule(after, engine_view):  # or the rule of the suits declared
        return (winner_rule(after, engine_view, played_as=False),)
    if field == "winner" and _own_target(after):
        return (_own_target(after) or "",)  # reached exactly, or a target of its own
    return ()


def _bid_of_the_terms(match: Match, engine_view: dict | None) -> bool:
    """The engine shows a declared plunge's contract as plunge_terms' `marks` (PTERMS-08:
    it is played for the marks bid); the unraised bid may be the same number (PTERMS-11)."""
    from ..variants import option_settings

    terms = match.variants.get("plunge_terms")
    contract = match.contract
    if terms is None or contract is None or not contract.partner_declares:
        return False
    settings = option_settings("plunge_terms", terms)
    return settings["announce"] == "declaration" and \
        _engine_bid(engine_view) == settings["marks"] != contract.value


def sweep_bonus_shown(after: Match, engine_view: dict | None) -> bool:
    """The engine's `result.marks` is the sweep bonus (FORCE-07's `sweep_marks`, read from
    the score function that names FORCE-07) where the reference scores no bonus."""
    from ..variant_rules import sweep_score

    fn: Any = after.rules.score
    while isinstance(fn, functools.partial) and fn.func is not sweep_score:
        fn = fn.keywords.get("inner")
    result = (engine_view or {}).get("result")
    if not isinstance(fn, functools.partial) or not isinstance(result, dict) or \
            not after.result:
        return False
    return result.get("marks") == fn.keywords["marks"] != after.result[2]


def _own_target(match: Match) -> str | None:
    """The rule of a match target set to other than its option's default (MPTS-01,
    TARGET-02): an engine may read the default one instead."""
    from ..variants import OPTIONS

    for option, rule in (("match_points", "MPTS-01"), ("match_marks", "TARGET-02")):
        if option in match.variants:
            default = OPTIONS[option].settings["target"].default
            return rule if match.rules.marks_target != default else None
    return None


def match_end_rule(after: Match, engine_view: dict | None) -> str:
    """The rule the engine breaks when its match ends elsewhere than the reference's: a
    team at exactly the target has won (MATCH-02: or more, no margin); a target set by an
    option (MPTS-01, TARGET-02); else the first team to the target wins (MATCH-01)."""
    rules, options = after.rules, after.variants
    if rules.match_winner is not BASE_RULES.match_winner:
        return named_rule(rules.match_winner) or "MATCH-01"
    points = "match_points" in options
    if points and "match_marks" in options:
        return "TARGET-03"  # which of the two targets counts
    own_target = "MPTS-01" if points else "TARGET-02"
    if after.winner is not None and (engine_view or {}).get("winner") is None:
        if max(after.marks) == rules.marks_target:
            return "MPTS-08" if points else "TARGET-02" if "match_marks" in options \
                else "MATCH-02"
        if rules.marks_target != BASE_RULES.marks_target:
            return own_target
        return "MATCH-02"
    return own_target if rules.marks_target != BASE_RULES.marks_target else "MATCH-01"


def _claimed_outcome(engine_view: dict | None) -> str | None:
    result = (engine_view or {}).get("result")
    return result.get("outcome") if isinstance(result, dict) else None


def score_rule(after: Match) -> str | None:
    """An option's scoring rule for the round just ended: under match points MPTS-04 (a
    point contract made), MPTS-05 (a marks contract made), MPTS-06 (any set), MPTS-11 (a
    set contract scored all or nothing); another option's score function names its own;
    None for the base game's."""
    rules = after.rules
    if rules.score is BASE_RULES.score:
        return None
    rule = named_rule(rules.score)
    if rule and rule.startswith("MPTS") and after.result and after.contract:
        if after.result[0] == "set":
            return "MPTS-11" if all_or_nothing(after) else "MPTS-06"
        return "MPTS-05" if after.contract.kind == "marks" else "MPTS-04"
    return rule


def all_or_nothing(after: Match) -> bool:
    """MPTS-11 decides the round's score: `high_bids: "all_or_nothing"` and a contract
    worth 42 or more (MPTS-03, MPTS-10)."""
    from ..variant_rules import MARK_IN_POINTS

    rules, contract = after.rules, after.contract
    return rules.all_or_nothing and contract is not None and \
        rules.stake(rules, contract) >= MARK_IN_POINTS


def marks_rule(after: Match, engine_view: dict | None, step: str) -> str:
    """SCORE-02 when the marks went to the wrong team, SCORE-01 when the amount is wrong;
    for the marks a setup starts with, the rule of their range under the setup's options
    (SCORE-03, MPTS-02, TARGET-02: setup.marks_rule)."""
    from ..setup import marks_rule as starting_marks_rule

    rules = after.rules
    if step == "setup":
        return starting_marks_rule(rules)
    if rules.score is not BASE_RULES.score:
        return score_rule(after) or "SCORE-02"
    if rules.stake is not BASE_RULES.stake:
        return named_rule(rules.stake) or "SCORE-01"
    try:
        theirs = (engine_view or {})["marks"]
        gained = [theirs["AC"] - after.start_marks[0], theirs["BD"] - after.start_marks[1]]
    except (KeyError, TypeError, IndexError):
        return "SCORE-02"
    mine = [after.marks[0] - after.start_marks[0], after.marks[1] - after.start_marks[1]]
    same_team = [g > 0 for g in gained] == [m > 0 for m in mine]
    return "SCORE-01" if same_team else "SCORE-02"


def hand_size_rule(match: Match, seat: Any) -> str | None:
    """NELLO-09: the seat that sits out (NELLO-03, NELLO-12) plays no tile, and its hand
    size stays seven in every view; None for a seat that plays (its hand size is the
    observation's rule)."""
    out = match.sitting_out
    return "NELLO-09" if out is not None and SEAT_INDEX.get(seat) == out else None


def to_act_rule(before: Match | None, after: Match) -> str:
    """Who acts after the action, by which rule (turn_rule); nobody once the round is over
    (the END rule that ended it)."""
    if after.phase in (BIDDING, DECLARING, PLAYING):
        return turn_rule(after)
    return end_rule(before, after, None)
