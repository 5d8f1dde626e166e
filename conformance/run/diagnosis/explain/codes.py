"""The rule an engine breaks by the code it refuses with: a legal action refused
(claimed_rule: whose turn it is, turn_rule; the phase, phase_rule; else the action's own
rule), an action refused with another code than the reference's (wrong_code_rule), a
refused setup (setup_rule, target_rule)."""

from __future__ import annotations

from typing import Any

from reference_impl.errors import CODES, IllegalAction
from reference_impl.match import BIDDING, DECLARING, PLAYING, Match
from reference_impl.tiles import SEAT_INDEX

from .common import _choice, _dealer_must_bid, refusal, table_rule
from .legality import legal_rule
from .refusals import refusal_rule
from .special_bids import special_step_rule

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
            match.last_to_bid != match.dealer:
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
        return bool(seat != view["to_act"])
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


def _setting_form_rule(match: Match, action: dict[str, Any]) -> str | None:
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
    from reference_impl.setup import marks_rule
    from reference_impl.variants import rules_for

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
    from reference_impl.variants import OPTIONS, rules_for

    variants = setup.get("variants") if isinstance(setup, dict) else None
    marks = setup.get("marks") if isinstance(setup, dict) else None
    if not isinstance(variants, dict) or not isinstance(marks, dict) or \
            "match_points" not in variants:  # an option given as {} is on
        return None
    points = variants["match_points"]
    if "match_marks" in variants:
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
        return table_rule(rules, "bidding_order")
    if match.phase == DECLARING:
        return "PLUNGE-04" if match.contract.partner_declares else "CON-01"
    if match.phase == PLAYING:
        if match.trick:
            return table_rule(rules, "sitting_out")
        if not match.tricks:
            return table_rule(rules, "first_leader")
        return table_rule(rules, "next_leader")
    return "END-06"


def phase_rule(match: Match, kind: Any) -> str:
    """The rule by which the current phase accepts an action of this kind."""
    return {BIDDING: "BID-10", DECLARING: "CON-01", PLAYING: "CON-04"}.get(match.phase, "END-06")
