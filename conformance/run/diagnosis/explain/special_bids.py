"""The special bids of the options (plunge, splash, plunge_terms' plunge): the last one
bid, the marks step one passes (special_step_rule), the rules by which an option makes the
contract a plunge (plunge_by), two special bids at one table (beside_rule), and the rules
a refused raise or jump fits as well."""

from __future__ import annotations

from typing import Any

from reference_impl.match import Match
from reference_impl.rules import BASE_RULES, SpecialBid

from .common import table_rule


def special_step_rule(match: Match, bid: Any, value: Any) -> str:
    """The rule by which a special bid passes the marks step after a marks bid: the base
    game's one-mark raise by its own marks (its `step_rule`: PLUNGE-03, SPLASH-03,
    PTERMS-05); a raise only an option allows (RAISE-02) by RAISE-03, which holds a special
    bid to that raise as a marks bid of its marks."""
    from reference_impl.rules import special_bid_marks

    marks = special_bid_marks(match.rules, bid.name, match.last_marks,
                              value if type(value) is int else 0)
    raise_ = marks - match.last_marks
    if match.last_marks and raise_ not in BASE_RULES.marks_raises and \
            raise_ in match.rules.marks_raises:
        return "RAISE-03"
    return str(bid.step_rule)


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
    from reference_impl.variants import PLUNGE

    own = SpecialBid._field_defaults["jump_rule"]  # the plunge's own jump (PLUNGE-07)
    if not isinstance(action, dict) or rule == own:
        return ()
    return tuple(own for bid in match.rules.special_bids
                 if bid.name == PLUNGE and PLUNGE in action and bid.jumps
                 and rule == bid.jump_rule)


def last_special_bid(match: Match) -> str | None:
    """The name of the last bid's special kind (`plunge`, `splash`), if it was one."""
    bids = [a for a in match.history if a.get("type") == "bid"]
    kinds = [k for k in (bids[-1] if bids else {}) if k not in ("type", "seat", "marks",
                                                                  "points")]
    return kinds[0] if kinds else None
