"""Why the reference refuses an action (refusal_rule), and the other rules an engine
that decides it the other way fits as well (refusal_alternatives,
acceptance_alternatives): forced_bid's record of a forced contract (FORCE-05, FORCE-06:
forced_flipped, played_forced), a choice's own stacks rule, an option's form of an action
(VAR-04, SPLASH-06, PTERMS-06)."""

from __future__ import annotations

from typing import Any

from reference_impl.errors import IllegalAction
from reference_impl.match import Match
from reference_impl.rules import BASE_RULES
from reference_impl.tiles import TILE_INDEX

from .common import refusal
from .legality import declaration_rule, marks_step_rule, suit_rule


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


def _choice_stacks_rule(match: Match, action: dict[str, Any], rule: str) -> tuple[str, ...]:
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
    from reference_impl.variants import rules_for

    settings = match.variants.get("forced_bid")
    if settings is None or not isinstance(action, dict) or match.rules.forced_only_choices:
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
                              engine_view: dict[str, Any] | None) -> tuple[str, ...]:
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
                  engine_view: dict[str, Any] | None) -> bool:
    """The engine's `field` is the reference's for a contract recorded forced, where the
    contract is not forced (FORCE-05): it plays by FORCE-07/FORCE-08, whose rules do not
    hold for this contract, because it records it forced against FORCE-05."""
    return before is not None and before.contract is not None and \
        not before.contract.compelled and \
        forced_field_alternatives(before, action, field, engine_view) == ("FORCE-05",)


def _an_option_form(action: Any) -> bool:
    """An action of a form only an option defines (a special bid, an option's trump
    choice), judged by the base rules when that option is not in force (VAR-04)."""
    from reference_impl.actions import special_bids
    from reference_impl.variants import OPTIONS, rules_for

    if not isinstance(action, dict):
        return False
    every = rules_for(dict.fromkeys(OPTIONS, True))
    if action.get("type") == "trump":
        return action.get("trump") not in BASE_RULES.trumps and \
            every.canonical_trump(action.get("trump", "")) is not None
    extra = set(action) - {"type", "seat", "points", "marks"}
    return action.get("type") == "bid" and bool(extra) and extra <= set(special_bids(every))


def _form_in_force(match: Match, action: dict[str, Any]) -> str | None:
    """The rule of an option in force that makes a special bid's form malformed: SPLASH-06
    for a bid whose marks are carried (`"splash": 2`) where `true` is due, or `true` where
    they are; PTERMS-06 for the plunge named at the declaration, not bid. None when no
    option in force defines the form (VAR-04)."""
    rules = match.rules
    name = next((k for k in action if k not in ("type", "seat", "points", "marks")), None)
    bid = next((b for b in rules.special_bids if b.name == name), None)
    if action.get("type") == "bid" and bid is not None and (
            bid.choices or type(action.get(name or "")) is int):
        return "SPLASH-06"
    if action.get("type") == "bid" and name in rules.trumps:
        return "PTERMS-06"
    return None
