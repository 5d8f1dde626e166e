"""Which rule tells the reference's winner of a trick from the engine's (winner_rule),
and the suits an engine played by instead of the declared ones: another value of the
doubles, or an option's suits under a trump that is not its choice (played_as_rule,
played_as_named, played_as_other_choice)."""

from __future__ import annotations

import functools
from typing import Any

from reference_impl.match import Match
from reference_impl.rules import BASE_RULES, is_trump, suit_key
from reference_impl.tiles import PIPS, TILE_INDEX

from .common import choice_rule, declared, named_rule


def winner_rule(after: Match, engine_view: dict[str, Any] | None = None, played_as: bool = True
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


def played_as_rule(after: Match, engine_view: dict[str, Any] | None) -> str | None:
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
        others, choice = rank.keywords.get("others_rule"), rank.keywords["choice"]
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
    option (the `others_rule` of its for_choice link: NOTRUMP-04) when `tile` is legal for the
    seat to act by that choice's suits and not by the trump declared, or the other way
    round: an engine that plays every contract by the option's suits."""
    if match.contract is None or not match.trick:
        return None
    trump, fn = declared(match), match.rules.follows
    while isinstance(fn, functools.partial) and "own" in fn.keywords:
        choice, others = fn.keywords["choice"], fn.keywords.get("others_rule")
        if others and choice != trump and \
                _legal_by(match, tile, choice) != _legal_by(match, tile, trump):
            return str(others)
        fn = fn.keywords["inner"]
    return None


def _legal_by(match: Match, tile: int, trump: Any) -> bool:
    """`tile` may follow the trick's lead by the suits of `trump` (or the seat is void)."""
    rules = match.rules
    called = rules.called_suit(match.trick[0], trump)
    hand = [t for t in range(len(PIPS)) if match.masks[match.seat] >> t & 1]
    following = [t for t in hand if rules.follows(t, called, trump)]
    return not following or tile in following


def _winner_by(after: Match, called_suit: Any, trick_rank: Any, trump: Any) -> int:
    """The tile that wins the last completed trick by these suit functions."""
    tiles = after.tricks[-1][1]
    called = called_suit(tiles[0], trump)
    ranks = [trick_rank(tile, called, trump) for tile in tiles]
    return tiles[ranks.index(max(ranks))]


def _signed_distance(after: Match, engine_view: dict[str, Any] | None) -> bool:
    """The engine's Sevens winner is farther from 7 than the reference's, and nearest by
    the pips' sum minus 7 with its sign: SEVENS-03's distance misread."""
    theirs = _engine_winner_tile(after, engine_view)
    if theirs is None or not after.tricks:
        return False
    tiles = after.tricks[-1][1]
    distance = [abs(sum(PIPS[t]) - 7) for t in tiles]
    return abs(sum(PIPS[theirs]) - 7) > min(distance) and \
        theirs == min(tiles, key=lambda t: sum(PIPS[t]) - 7)


def _engine_winner_tile(after: Match, engine_view: dict[str, Any] | None) -> int | None:
    """The tile that won the last completed trick in the engine's view, if it says."""
    try:
        trick = (engine_view or {})["tricks"][len(after.tricks) - 1]
        winner = trick["winner"]
        return next(TILE_INDEX[p["tile"]] for p in trick["plays"] if p["seat"] == winner)
    except (KeyError, IndexError, TypeError, StopIteration):
        return None
