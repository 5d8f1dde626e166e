"""Why the reference allows an action: a pass or a bid (bid_rule, marks_step_rule), a
declaration (declaration_rule), a play (play_rule, suit_rule). The misreadings of the
suit rules are the diagnosis's other readings (conformance/run/diagnosis/readings.yaml)."""

from __future__ import annotations

import functools
from typing import Any

from reference_impl.match import Match
from reference_impl.rules import BASE_RULES, TRUMP_SUIT, is_trump
from reference_impl.tiles import PIPS, SEAT_INDEX, TILE_INDEX

from .common import (
    _choice,
    _dealer_must_bid,
    choice_rule,
    declared,
    named_rule,
    refusal,
    table_rule,
)
from .special_bids import last_special_bid


def legal_rule(match: Match, action: dict[str, Any]) -> str:
    """The rule that makes a legal `action` legal here."""
    kind = action.get("type")
    if kind == "play":
        return play_rule(match, TILE_INDEX[action["tile"]])
    if kind == "pass":
        dealer_last = (SEAT_INDEX[action["seat"]] == match.last_to_bid
                       and match.high_bidder is None)
        return "BID-09" if dealer_last else "BID-01"
    if kind == "bid":
        return bid_rule(match, action)
    rule = declaration_rule(match, action)
    return "CON-02" if rule == "CON-01" and "stacks" in action else rule


def bid_rule(match: Match, action: dict[str, Any]) -> str:
    """BID-02/BID-03 for a point bid, BID-05/BID-06 for a marks bid; a special bid's own
    rule (PLUNGE, SPLASH); the forced bid's rule for the dealer after three passes; a bid
    announcing a choice, the announcement's (NELLO-14; NELLO-11 for a point bid)."""
    rules = match.rules
    dealer_last = match.seat == match.last_to_bid and match.high_bidder is None
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


def declaration_rule(match: Match, action: dict[str, Any]) -> str:
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
        if kw.get("beside_rule") and _plunge_declarable(match):
            beside = str(kw["beside_rule"])
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
    from reference_impl.variant_rules import PLUNGE_CHOICE

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
    held = [t for t in range(len(PIPS)) if match.masks[match.seat] >> t & 1]
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
