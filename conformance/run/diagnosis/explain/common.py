"""What every explanation reads: the rule a rule function's docstring names (named_rule,
choice_rule, table_rule), the trump in play (declared), the reference's refusal of an
action (refusal), and two readings of the rule table that the bids and the codes share."""

from __future__ import annotations

import functools
import re
from typing import Any

from reference_impl.errors import IllegalAction
from reference_impl.match import Match
from reference_impl.rules import BASE_RULES, Rules, suit_key

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


def table_rule(rules: Rules, name: str, base: str | None = None) -> str:
    """The rule the rule table's entry `name` names: the option's function's, else the
    base game's (`base` where the caller reads the base game's entry otherwise)."""
    fn, own = getattr(rules, name), getattr(BASE_RULES, name)
    base = base or named_rule(own) or "DIG-04"
    return base if fn is own else named_rule(fn) or base


def declared(match: Match) -> int | str:
    """The trump of a contract in play (only asked once a tile is played)."""
    assert match.contract is not None and match.contract.trump is not None
    return suit_key(match.contract.trump, match.contract.treatment)  # NELLO-13


def refusal(match: Match, action: Any) -> IllegalAction | None:
    """The reference's refusal of `action` here, or None if it accepts it."""
    try:
        match.clone().apply(action)
    except IllegalAction as error:
        return error
    return None


def _dealer_must_bid(rules: Rules) -> bool:
    """An option makes the dealer bid after three passes (FORCE-02)."""
    return rules.dealer_bid_problem is not BASE_RULES.dealer_bid_problem


def _choice(rules: Rules, trump: Any) -> Any:
    """A declaration's choice as the rules name it (an alias to its choice)."""
    return rules.canonical_trump(trump) if isinstance(trump, str) else trump
