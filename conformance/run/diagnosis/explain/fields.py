"""The rule the reference applied to set a field of the referee view when an action
changed it (field_rule; the fields in DECISION_ORDER), the other rules a field's
difference fits as well (field_alternatives), and the rules of the contract's stake and
bid, the hands, a seat's hand size and the seat to act."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from conformance.specdata.fields import field_rules
from reference_impl.match import BIDDING, DECLARING, MATCH_OVER, PLAYING, ROUND_OVER, Match
from reference_impl.rules import BASE_RULES, Rules
from reference_impl.tiles import SEAT_INDEX

from .codes import turn_rule
from .common import table_rule
from .legality import declaration_rule, legal_rule
from .scores import end_rule, marks_rule, match_end_rule, points_rule, score_rule, sweep_bonus_shown
from .special_bids import last_special_bid
from .tricks import played_as_rule, winner_rule

# The fields of a referee view in the order an action decides them: a difference in an
# earlier one explains the later ones (a wrong trick winner moves points, marks, the lead).
DECISION_ORDER = ("dealer", "hands", "round", "bids", "history", "contract.declarer",
                  "contract.team", "contract.bid", "contract.stake", "contract",
                  "contract.trump", "contract.stacks", "trick", "tricks.winner",
                  "tricks.team", "tricks", "tricks.points", "points", "tricks_won",
                  "result.outcome", "result", "phase", "result.awarded_to", "result.marks",
                  "marks", "winner", "to_act")


class Change(NamedTuple):
    """An action that took `before` (None for a setup) to `after`, and the engine's view
    after it: what a field's rule is read from."""

    before: Match | None
    action: Any
    after: Match
    field: str
    engine_view: dict[str, Any] | None
    step: str  # the action's kind: bid, pass, trump, play; deal; setup

    @property
    def rules(self) -> Rules:
        return self.after.rules


def field_rule(before: Match | None, action: Any, after: Match, field: str,
               engine_view: dict[str, Any] | None = None) -> str:
    """The rule the reference applied to set view field `field` (its first part: `tricks`,
    `to_act`, ...) when `action` took `before` to `after`; `before` is None for a setup.
    `engine_view` is the engine's view after the same action, to tell which of a field's
    rules the engine's value breaks."""
    change = Change(before, action, after, field, engine_view, _step_kind(action))
    decide = FIELD_RULES.get(field) or (_contract_rule if field.startswith("contract") else None)
    return decide(change) if decide else "DIG-04"


def _hands_rule(c: Change) -> str:
    """DEAL-03: a play keeps the order of the rest; else the deal's rules."""
    if _same_sets(c.after, c.engine_view):
        return "DEAL-03"
    if c.step == "play":
        return "PLAY-07"
    return table_rule(c.rules, "deal_order") if _dealt_order(c.action) else "DEAL-01"


def _dealer_rule(c: Change) -> str:
    return "DEAL-05" if c.step == "deal" else ("DRAW-03" if c.rules.draws else "DEAL-04")


def _bids_rule(c: Change) -> str:
    """The record of an accepted action: the rule of what the field shows when the
    engine recorded otherwise an action the reference records as it was sent (no rule
    decided its form); else the rule that made the action legal."""
    if c.before is None or c.step not in ("bid", "pass", "trump", "play"):
        return "DIG-06"
    if _recorded_otherwise(c):
        return (field_rules().get(c.field) or (legal_rule(c.before, c.action),))[0]
    return legal_rule(c.before, c.action)


def _recorded_otherwise(c: Change) -> bool:
    """The step appended the action to the field's list as it was sent, and the engine's
    list shows something else in its place."""
    assert c.before is not None  # an action's step: there is a state before it
    ours, was = c.after.view().get(c.field), c.before.view().get(c.field)
    theirs = (c.engine_view or {}).get(c.field)
    if not (isinstance(ours, list) and isinstance(was, list) and isinstance(theirs, list)) \
            or len(ours) != len(was) + 1 or ours[-1] != c.action:
        return False
    return len(theirs) != len(ours) or theirs[-1] != ours[-1]


def _stake_rule(c: Change) -> str:
    if c.rules.points_ladder and c.after.contract is not None and \
            c.after.contract.kind == "marks":
        return ladder_rule(c.engine_view)
    return plunge_value_rule(c.after) or table_rule(c.rules, "stake")


def _bid_rule(c: Change) -> str:
    before, after = c.before, c.after
    if c.step == "trump" and before is not None and before.contract is not None and \
            after.contract is not None and after.contract.value != before.contract.value \
            and _engine_bid(c.engine_view) == before.contract.value:
        return "PTERMS-11"  # the declaration raises the contract's marks; the engine's not
    if not _special_bid(after) and c.rules.one_mark_points is not None and \
            after.contract and after.contract.value == c.rules.one_mark_points:
        return "FORTYTWO-04"
    return _who_rule(c)


def _who_rule(c: Change) -> str:
    """The contract's bid, declarer or team: a special bid's own rule, else the contract's."""
    special = _special_bid(c.after)
    return _special_rule(c.rules, special, c.field) if special else _contract_rule(c)


def _contract_rule(c: Change) -> str:
    if c.after.contract is None:  # no contract here: what ended the bidding without one
        return end_rule(c.before, c.after, c.engine_view)
    if c.step == "trump":
        return "CON-02" if "stacks" in c.action else table_rule(c.rules, "declared")
    return ("PLUNGE-04" if c.after.contract and c.after.contract.partner_declares else
            table_rule(c.rules, "won_contract"))


def _trump_rule(c: Change) -> str:
    if c.step == "play":
        return table_rule(c.rules, "trump_after_lead")
    if c.step == "trump" and c.action.get("trump") == "first_tile":
        return "UNDECL-04"  # the choice is shown until the first tile sets trump
    return declaration_rule(c.before, c.action) if c.before is not None and \
        c.step == "trump" else "CON-01"


def _stacks_rule(c: Change) -> str:
    if c.step == "play":
        return table_rule(c.rules, "trump_after_lead")
    return "CON-03" if c.after.contract and c.after.contract.kind == "points" else "CON-02"


def _winner_rule(c: Change) -> str:
    return winner_rule(c.after, c.engine_view)


# The rule of each field of the referee view, read from the change (field_rule); a field
# of the contract not named here is the contract's (_contract_rule).
FIELD_RULES: dict[str, Callable[[Change], str]] = {
    "hands": _hands_rule,
    "dealer": _dealer_rule,
    "round": lambda c: "MATCH-03",
    "bids": _bids_rule,
    "history": _bids_rule,
    "contract.stake": _stake_rule,
    "contract.bid": _bid_rule,
    "contract.declarer": _who_rule,
    "contract.team": _who_rule,
    "contract.trump": _trump_rule,
    "contract.stacks": _stacks_rule,
    "trick": lambda c: table_rule(c.rules, "sitting_out"),
    "tricks": _winner_rule,
    "tricks.winner": _winner_rule,
    "tricks.team": _winner_rule,
    "tricks_won": _winner_rule,
    "points": lambda c: points_rule(c.after, c.engine_view),
    "tricks.points": lambda c: points_rule(c.after, c.engine_view),
    "result.awarded_to": lambda c: score_rule(c.after) or "SCORE-02",
    "result.marks": lambda c: score_rule(c.after) or table_rule(c.rules, "stake"),
    "result": lambda c: end_rule(c.before, c.after, c.engine_view),
    "result.outcome": lambda c: end_rule(c.before, c.after, c.engine_view),
    "phase": lambda c: end_rule(c.before, c.after, c.engine_view),
    "marks": lambda c: marks_rule(c.after, c.engine_view, c.step),
    "winner": lambda c: match_end_rule(c.after, c.engine_view),
    "to_act": lambda c: to_act_rule(c.before, c.after),
}


def plunge_value_rule(after: Match) -> str | None:
    """PTERMS-04 for the value in points of a plunge_terms plunge (bid or declared) under
    match_points: 42 times its own marks, which PTERMS-04 restates from MPTS-03 for it
    (an engine that values every mark wrongly breaks MPTS-03: field_alternatives)."""
    contract = after.contract
    if contract is None or not contract.partner_declares or \
            "plunge_terms" not in after.variants or after.rules.stake is BASE_RULES.stake:
        return None
    return "PTERMS-04" if _special_bid(after) in ("plunge", None) else None


def ladder_rule(engine_view: dict[str, Any] | None) -> str:
    """MPTS-10 for the value of a marks contract on the doubling ladder; MPTS-03 when the
    engine's value is no whole number of 42-point marks: the mark's worth, which MPTS-03
    gives and the ladder only doubles (42 for 1 mark under either), is what it misreads."""
    from reference_impl.variant_rules import MARK_IN_POINTS

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


def _engine_bid(engine_view: dict[str, Any] | None) -> Any:
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
    from reference_impl.actions import special_bids

    kinds = set(special_bids(match.rules))
    made = [k for a in match.history if a.get("type") == "bid" for k in a if k in kinds]
    return list(dict.fromkeys(made))


def _step_kind(action: Any) -> str:
    if isinstance(action, dict) and action.get("type") in ("bid", "pass", "trump", "play"):
        return str(action["type"])
    if isinstance(action, dict) and "dealer" not in action and "draws" not in action:
        return "deal"
    return "setup"


def _dealt_order(setup: Any) -> bool:
    return isinstance(setup, dict) and "order" in setup


def _same_sets(match: Match, engine_view: dict[str, Any] | None) -> bool:
    """The engine's hands hold the same tiles as the reference's, in another order."""
    if not engine_view or not isinstance(engine_view.get("hands"), dict):
        return False
    mine = match.view()["hands"]
    theirs = engine_view["hands"]
    return all(isinstance(theirs.get(s), list) and sorted(map(str, theirs[s])) == sorted(h)
               for s, h in mine.items())


def kept_rules(before: Match | None, after: Match, field: str,
               engine_view: dict[str, Any] | None) -> tuple[str, ...]:
    """The rules of what a field shows (its row in spec/observation.md) when the engine
    kept it as the last round left it: a deal begins a round, whose state the reference
    set anew and the engine carried over. () for any other difference."""
    top = field.split(".")[0]
    if before is None or before.phase != ROUND_OVER or not isinstance(engine_view, dict):
        return ()
    was, now = before.view().get(top), after.view().get(top)
    return field_rules().get(top, ()) if was != now and engine_view.get(top) == was else ()


def field_alternatives(after: Match, field: str, engine_view: dict[str, Any] | None
                       ) -> tuple[str, ...]:
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
        return (table_rule(after.rules, "stake"),)  # the mark's worth, MPTS-03
    if field in ("contract.bid", "contract.declarer", "contract.team"):
        return tuple(_special_rule(after.rules, name, field) for name in
                     _special_bids_made(after) if name != _special_bid(after))
    if field in ("tricks", "tricks.winner", "tricks.team", "tricks_won") and \
            played_as_rule(after, engine_view):  # or the rule of the suits declared
        return (winner_rule(after, engine_view, played_as=False),)
    if field == "winner" and _own_target(after):
        return (_own_target(after) or "",)  # reached exactly, or a target of its own
    return ()


def _bid_of_the_terms(match: Match, engine_view: dict[str, Any] | None) -> bool:
    """The engine shows a declared plunge's contract as plunge_terms' `marks` (PTERMS-08:
    it is played for the marks bid); the unraised bid may be the same number (PTERMS-11)."""
    from reference_impl.variants import option_settings

    terms = match.variants.get("plunge_terms")
    contract = match.contract
    if terms is None or contract is None or not contract.partner_declares:
        return False
    settings = option_settings("plunge_terms", terms)
    return bool(settings["announce"] == "declaration"
                and _engine_bid(engine_view) == settings["marks"] != contract.value)


def _own_target(match: Match) -> str | None:
    """The rule of a match target set to other than its option's default (MPTS-01,
    TARGET-02): an engine may read the default one instead."""
    from reference_impl.variants import OPTIONS

    for option, rule in (("match_points", "MPTS-01"), ("match_marks", "TARGET-02")):
        if option in match.variants:
            default = OPTIONS[option].settings["target"].default
            return rule if match.rules.marks_target != default else None
    return None


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
