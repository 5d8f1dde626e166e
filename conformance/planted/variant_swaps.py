"""Wrong variant rules, as redefinitions of one option (reference_impl/variants.py).

An option is data: its settings and a function from its settings and the Rules so far to
the fields it changes. Each plant here is that function with the one mistake its
docstring names, the way real implementations of spec/variants.md get it wrong; it only
ever runs when its option is on. Most are the reference definition with a setting
overridden, a field dropped or a field added.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from conformance.planted.base import OptionChanges
from reference_impl import variant_rules as vr
from reference_impl import variants as v
from reference_impl.dealing import deal_order
from reference_impl.rules import (
    MISSING,
    Contract,
    Problem,
    Rules,
    contract_outcome,
    contract_stake,
)
from reference_impl.tiles import PIPS

# every double, as the tile mask a Contract holds of its winner's doubles (PTERMS-07)
ALL_DOUBLES = sum(1 << tile for tile, (a, b) in enumerate(PIPS) if a == b)
SIX_SIX = v.SIX_SIX  # PTERMS-10

Settings = Mapping[str, Any]


# ---- helpers: the reference definition, changed ------------------------------------


def reference(option: str) -> OptionChanges:
    return v.OPTIONS[option].changes


def with_fields(option: str, **fields: Any) -> OptionChanges:
    """The option as the reference defines it, then these fields set."""
    return lambda s, rules: {**reference(option)(s, rules), **fields}


def with_settings(option: str, **settings: Any) -> OptionChanges:
    """The option as the reference defines it, read with these settings instead."""
    return lambda s, rules: reference(option)({**s, **settings}, rules)


def without(option: str, *names: str) -> OptionChanges:
    """The option as the reference defines it, without changing these fields."""
    def changes(s: Settings, rules: Rules) -> dict:
        return {k: x for k, x in reference(option)(s, rules).items() if k not in names}
    return changes


def wrapping(option: str, field: str, wrapper: Callable[..., Any]) -> OptionChanges:
    """The option as the reference defines it, then `field` wrapped: `wrapper` gets the
    arguments of the table entry and `inner=` the entry it wraps."""
    def changes(s: Settings, rules: Rules) -> dict:
        found = reference(option)(s, rules)
        inner = found.get(field, getattr(rules, field))
        return {**found, field: partial(wrapper, inner=inner)}
    return changes


def flipped(option: str, setting: str, values: tuple[str, str]) -> OptionChanges:
    """UNDECL-03 broken: the option reads the other value of `setting`."""
    def changes(s: Settings, rules: Rules) -> dict:
        other = values[1] if s[setting] == values[0] else values[0]
        return reference(option)({**s, setting: other}, rules)
    return changes


# ---- match_points (MPTS) -------------------------------------------------------------


def score_made_points_to_bidders_only(rules: Rules, contract: Contract, outcome: str,
                                      points: list[int]) -> tuple[int, list[int]]:
    """MPTS-04 broken: a made point contract adds the bidders' round points only; the
    defenders' round points are lost."""
    team, gains = vr.points_score(rules, contract, outcome, points)
    if outcome == "made" and contract.kind == "points":
        gains[1 - contract.team] = 0
    return team, gains


def score_set_without_round_points(rules: Rules, contract: Contract, outcome: str,
                                   points: list[int]) -> tuple[int, list[int]]:
    """MPTS-06 broken: a set contract adds the value of the bid to the defenders, without
    the round points they took."""
    team, gains = vr.points_score(rules, contract, outcome, points)
    if outcome == "set":
        gains[team] = rules.stake(rules, contract)
    return team, gains


def score_made_marks_with_round_points(rules: Rules, contract: Contract, outcome: str,
                                       points: list[int]) -> tuple[int, list[int]]:
    """MPTS-05 broken: on a made marks contract the defenders also add their round
    points, as on a point contract."""
    team, gains = vr.points_score(rules, contract, outcome, points)
    if outcome == "made" and contract.kind == "marks":
        gains[1 - contract.team] = points[1 - contract.team]
    return team, gains


def stake_is_bid_number(rules: Rules, contract: Contract) -> int:
    """MPTS-03 broken: a marks bid of n is worth n points (not 42 n)."""
    return contract.value


def winner_above_target(rules: Rules, marks: list[int]) -> int | None:
    """MPTS-08 broken: a team must pass the target (> instead of >=)."""
    for team, score in enumerate(marks):
        if score > rules.marks_target:
            return team
    return None


# ---- deal_by_drawing (DRAW) ----------------------------------------------------------


def drawn_clockwise(order: list[int], dealer: int) -> tuple:
    """DRAW-02 broken: the hands are drawn clockwise from the dealer's left (left-hand
    opponent, partner, right-hand opponent, dealer) instead of both opponents first."""
    hands: list[tuple[int, ...]] = [(), (), (), ()]
    for k in range(4):
        hands[(dealer + 1 + k) & 3] = tuple(order[7 * k:7 * k + 7])
    return tuple(hands)


DEALT_ONE_AT_A_TIME = with_fields("deal_by_drawing", deal_order=deal_order)  # the base DEAL-02


# ---- forced_bid: the forced contract and its house rules (FORCE-05..FORCE-09) --------


def every_contract_forced(rules: Rules, bidder: int, high_points: int, last_marks: int,
                          plunged: bool, after_passes: bool, *,
                          inner: Callable[..., Contract]) -> Contract:
    """FORCE-05 broken: every contract counts as the dealer's forced bid."""
    return inner(rules, bidder, high_points, last_marks, plunged, True)


def forced_dropped_on_declaration(rules: Rules, contract: Contract, trump: Any, stacks: Any,
                                  *, inner: Callable[..., Contract]) -> Contract:
    """FORCE-05 broken: the declared contract forgets that it was forced (rebuilt from
    its bid, trump and stacks only)."""
    return inner(rules, contract, trump, stacks)._replace(compelled=False)


def forced_only_for(choices: tuple[str, ...]) -> OptionChanges:
    """FORCE-06 broken: forced_only restricts only `choices` (Nel-O, Sevens forgotten)."""
    def changes(s: Settings, rules: Rules) -> dict:
        found = reference("forced_bid")(s, rules)
        if "declaration_problem" in found:
            found["declaration_problem"] = partial(
                vr.forced_only, choices=choices, inner=rules.declaration_problem)
        return found
    return changes


def forced_only_by_name(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                        inner: Callable[..., Problem | None]) -> Problem | None:
    """The declared name checked before CON-01 (forced_only_before_choice)."""
    if trump in ("nello", "sevens") and not contract.compelled:
        return ("TRUMP_NOT_ALLOWED", "FORCE-06", f"{trump} only on a forced bid")
    return inner(rules, contract, trump, stacks)


def forced_only_before_choice(s: Settings, rules: Rules) -> dict:
    """FORCE-06 broken: forced_only reads the declared name before CON-01, so "nello"
    without the option nello is TRUMP_NOT_ALLOWED, not INVALID_TRUMP."""
    found = reference("forced_bid")(s, rules)
    if "declaration_problem" in found:
        found["declaration_problem"] = partial(forced_only_by_name,
                                               inner=rules.declaration_problem)
    return found


def forced_points(rules: Rules, contract: Contract) -> bool:
    """FORCE-07 broken: every forced point contract, not only a forced 30."""
    return contract.compelled and contract.kind == "points"


def sweep_for_any_forced_points(s: Settings, rules: Rules) -> dict:
    """FORCE-07 broken: the sweep bonus (and FORCE-08's play on) for a forced point
    contract of any number, 31 .. 41 with bid "any" included."""
    found = reference("forced_bid")(s, rules)
    if "score" in found:
        found["outcome"] = partial(vr.sweep_outcome, inner=rules.outcome,
                                   eligible=forced_points)
        found["score"] = partial(vr.sweep_score, marks=s["sweep_marks"], inner=rules.score,
                                 eligible=forced_points)
    return found


def dealer_passes(rules: Rules, kind: str | None, value: int | None,
                  dealer_after_passes: bool, *, inner: Callable[..., Any]) -> Any:
    """FORCE-02 broken: the dealer may pass after three passes; a bid is still checked
    as FORCE-03 says."""
    return None if kind is None else inner(rules, kind, value, dealer_after_passes)


def sweep_bonus_when(outcome_with_bonus: str) -> Callable[..., tuple[int, list[int]]]:
    """FORCE-07 broken: a forced 30 `outcome_with_bonus` ("made": with or without all
    seven tricks; "set": to the defenders) scores the 2 marks of the bonus, where the
    bonus is in force (`sweep_marks: 2`, not under match_points, FORCE-09: the reference
    scores by sweep_score there and only there)."""
    def score(rules: Rules, contract: Contract, outcome: str, points: list[int],
              *, inner: Callable[..., tuple[int, list[int]]]) -> tuple[int, list[int]]:
        team, gains = inner(rules, contract, outcome, points)
        if getattr(inner, "func", None) is not vr.sweep_score:
            return team, gains
        if outcome == outcome_with_bonus and vr.is_forced_minimum(rules, contract):
            gains = [2 if t == team else g for t, g in enumerate(gains)]
        return team, gains
    return score


def sweep_under_points(s: Settings, rules: Rules) -> dict:
    """FORCE-09 broken: sweep_marks is read under match_points too (the bonus, and the
    play past 30 while the bidders can sweep)."""
    return reference("forced_bid")(s, replace(rules, stake=contract_stake))


# ---- bid_42 (FORTYTWO) and plunge (PLUNGE) -------------------------------------------


def one_mark_after_forty_two(rules: Rules, marks: int, last_marks: int, high_points: int,
                             *, inner: Callable[..., Problem | None]) -> Problem | None:
    """FORTYTWO-03 broken: 1 mark is taken as higher than a bid of 42 (the bidding's
    comparison only; a won 42 is still the contract FORTYTWO-04 or -05 makes)."""
    if not last_marks and marks == 1:
        high_points = min(high_points, rules.point_bids[0])
    return inner(rules, marks, last_marks, high_points)


def forty_two_is_one_mark(rules: Rules, bidder: int, high_points: int, last_marks: int,
                          plunged: bool, after_passes: bool, *,
                          inner: Callable[..., Contract]) -> Contract:
    """FORTYTWO-04 broken: a winning bid of 42 makes a 1-mark contract (stacks, covered
    tricks, set by any defenders' trick) instead of a point contract."""
    contract = inner(rules, bidder, high_points, last_marks, plunged, after_passes)
    if contract.kind == "points" and contract.value == rules.one_mark_points:
        return contract._replace(kind="marks", value=1)
    return contract


def special_bid_after_bid(rules: Rules, kind: str, marks: int, last_marks: int,
                          bid_made: bool, doubles: int, *, only: str | None = None,
                          inner: Callable[..., Problem | None]) -> Problem | None:
    """PLUNGE-02, SPLASH-02 broken: a special bid (`only` that one, when given) is accepted
    after a point or marks bid (only the doubles are checked)."""
    return inner(rules, kind, marks, last_marks, bid_made and kind != (only or kind), doubles)


def won_by(rules: Rules, last_marks: int) -> set[str]:
    """The special bids whose marks a contract of `last_marks` marks may have been won by:
    how a planted `won_contract`, told only that a special bid won, tells which one (its
    marks, one more if it jumps, or the marks it may carry)."""
    return {bid.name for bid in rules.special_bids
            if last_marks in (bid.choices or (bid.marks, bid.marks + rules.marks_step * bid.jumps))}


def plunger_declares(rules: Rules, bidder: int, high_points: int, last_marks: int,
                     plunged: bool, after_passes: bool, *, kind: str,
                     inner: Callable[..., Contract]) -> Contract:
    """PLUNGE-04 (SPLASH-04 for `kind` splash) broken: the bidder of a special bid of
    `kind`, not the bidder's partner, declares and leads (a contract whose marks only that
    bid can bid; the other special bid's partner still declares)."""
    contract = inner(rules, bidder, high_points, last_marks, plunged, after_passes)
    return contract._replace(declarer=bidder) if plunged and won_by(
        rules, last_marks) == {kind} else contract


# ---- undeclared_trump (UNDECL) -------------------------------------------------------


def first_tile_stacks(rules: Rules, contract: Contract, trump: Any, stacks: Any) -> Any:
    """UNDECL-02 broken: "first_tile" on a marks contract is accepted without `stacks`
    (as 2 stacks)."""
    if trump == "first_tile" and contract.kind == "marks" and stacks is MISSING:
        return 2
    return stacks


def stacks_read_by(stacks_of: Callable[..., Any]) -> OptionChanges:
    """undeclared_trump as the reference defines it, with the declaration's stacks read
    by `stacks_of` in both the check and the recorded contract."""
    def changes(s: Settings, rules: Rules) -> dict:
        found = reference("undeclared_trump")(s, rules)
        check, record = rules.declaration_problem, rules.declared

        def problem(r: Rules, contract: Contract, trump: Any, stacks: Any) -> Any:
            return check(r, contract, trump, stacks_of(r, contract, trump, stacks))

        def as_declared(r: Rules, contract: Contract, trump: Any, stacks: Any) -> Contract:
            return record(r, contract, trump, stacks_of(r, contract, trump, stacks))
        return {**found, "declaration_problem": problem, "declared": as_declared}
    return changes


# ---- nello and sevens: when the contract is decided ---------------------------------


def decided_after_seventh_trick(choice: str, outcome: Callable[..., str | None]):
    """NELLO-07, SEVENS-06 broken: in a contract of `choice`, `outcome` is consulted only
    once all seven tricks are played, so the round goes on after the trick that already
    set the contract."""
    def late(rules: Rules, contract: Contract, points: list[int], tricks_won: list[int], *,
             inner: Callable[..., str | None]) -> str | None:
        if contract.trump != choice:
            return inner(rules, contract, points, tricks_won)
        return outcome(rules, contract, points, tricks_won) if sum(tricks_won) == 7 else None
    return late


NELLO_DECIDED_LATE = decided_after_seventh_trick(
    "nello", partial(vr.nello_outcome, inner=contract_outcome))  # NELLO-07 broken
SEVENS_DECIDED_LATE = decided_after_seventh_trick("sevens", contract_outcome)  # SEVENS-06


# ---- nello (NELLO) -------------------------------------------------------------------


def chain_replaced(fn: Any, func: Callable[..., Any], change: Callable[[Any], Any],
                   **keywords: Any) -> Any:
    """A chain of wrapping rule functions (each a partial with `inner`) with the link
    of `func` (and these `keywords`) replaced by `change(link)`; every other link kept as
    it is."""
    if not isinstance(fn, partial):
        return fn
    if fn.func is func and all(fn.keywords.get(k) == x for k, x in keywords.items()):
        return change(fn)
    inner = chain_replaced(fn.keywords.get("inner"), func, change, **keywords)
    return partial(fn.func, *fn.args, **{**fn.keywords, "inner": inner})


def nello_on_plunge(s: Settings, rules: Rules) -> dict:
    """PLUNGE-05 broken: the plunger's partner may declare Nel-O (the declaration's other
    checks, NELLO-15's announcement among them, as the reference has them)."""
    changes = reference("nello")(s, rules)
    changes["declaration_problem"] = chain_replaced(
        changes["declaration_problem"], vr.choice_allowed,
        lambda link: partial(link.func, **{**link.keywords, "on_plunge": True}))
    return changes


def nello_partner_plays(s: Settings, rules: Rules) -> dict:
    """NELLO-03 broken: the declarer's partner plays in a Nel-O (with on_plunge "allowed"
    the declaring partner of a plunge still sits out, NELLO-12, as the reference has it)."""
    changes = reference("nello")(s, rules)
    changes["sitting_out"] = chain_replaced(changes["sitting_out"], vr.partner_sits_out,
                                            lambda link: link.keywords["inner"])
    return changes


def nello_plunger_sits_out(s: Settings, rules: Rules) -> dict:
    """NELLO-12 broken: with on_plunge "allowed" the partner may declare Nel-O, but the
    plunger sits out (NELLO-03's partner of the declarer) and the declarer leads."""
    changes = reference("nello")(s, rules)
    changes.pop("first_leader", None)
    changes["sitting_out"] = partial(vr.partner_sits_out, inner=rules.sitting_out)
    return changes


def named_doubles_played_as(choice: str, option: str, fixed: str, rule: str) -> OptionChanges:
    """NELLO-13, NOTRUMP-05 broken: with doubles "declared" the declaration still names
    the doubles, but `choice` is played by the `fixed` doubles whatever it names."""
    def changes(s: Settings, rules: Rules) -> dict:
        if s["doubles"] != "declared":
            return reference(option)(s, rules)
        found = reference(option)({**s, "doubles": "high" if option == "nello" else "low"},
                                  rules)
        values = v.NELLO_SUITS if option == "nello" else v.NOTRUMP_NAMED
        return {**found, **v.named_doubles(replace(rules, **found), choice,
                                           {value: v.NELLO_SUITS[fixed] for value in values},
                                           rule=rule)}
    return changes


def fixed_doubles_read_as(option: str, fixed: str, *read: str) -> OptionChanges:
    """NELLO-06, NOTRUMP-03 broken: a fixed `doubles` setting (those of `read`, else every
    one) is played as `fixed`; `doubles: "declared"` (NELLO-13, NOTRUMP-05), a setting of
    another rule, as the reference has it."""
    def changes(s: Settings, rules: Rules) -> dict:
        if s["doubles"] == "declared" or (read and s["doubles"] not in read):
            return reference(option)(s, rules)
        return reference(option)({**s, "doubles": fixed}, rules)
    return changes


def doubles_optional(rules: Rules, contract: Contract, trump: Any, named: Any
                     ) -> Problem | None:
    """NELLO-13 broken: a Nel-O declaration may leave out its doubles (and is then played
    high); the other checks of the named doubles hold."""
    if named is MISSING:
        return None
    return vr.treatment_problem(rules, contract, trump, named)


def nello_announcement_lapses(s: Settings, rules: Rules) -> dict:
    """NELLO-15 broken: with announce "bid" the winner of a Nel-O bid may declare any
    choice, and Nel-O may be declared on an ordinary bid as without the setting."""
    changes = reference("nello")(s, rules)
    check = changes["declaration_problem"]
    if s["announce"] == "bid":
        changes["declaration_problem"] = check.keywords["inner"]
    return changes


def declarer_always_leads(rules: Rules, contract: Contract, leader: int, winner: int, *,
                          inner: Callable[..., int]) -> int:
    """NELLO-05 broken: in a Nel-O the declarer leads every trick, not the winner of the
    last one."""
    if contract.trump == "nello":
        return contract.declarer
    return inner(rules, contract, leader, winner)


# ---- follow_me (FOLLOWME) ------------------------------------------------------------


def alias_only_problem(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                       inner: Callable[..., Problem | None]) -> Problem | None:
    """FOLLOWME-03 broken: only the name "follow_me" needs a marks contract; "none" is
    declared on a point contract as without the setting."""
    if trump == "follow_me" and contract.kind == "points":
        return ("TRUMP_NOT_ALLOWED", "FOLLOWME-03", "follow-me needs a marks contract")
    return inner(rules, contract, trump, stacks)


def follow_me_alias_only(s: Settings, rules: Rules) -> dict:
    changes = reference("follow_me")({**s, "min_marks": 0}, rules)
    if s["min_marks"]:
        changes["declaration_problem"] = partial(alias_only_problem,
                                                 inner=rules.declaration_problem)
    return changes


# ---- sevens (SEVENS) -----------------------------------------------------------------


def sevens_rank_signed_distance(tile: int, called: int, trump: object) -> int:
    """SEVENS-03 broken: the distance is a + b - 7 without the absolute value, so the
    tiles under seven pips count as closest (0|0 wins every trick)."""
    a, b = PIPS[tile]
    return 7 - (a + b - 7)


def sevens_signed_distance(s: Settings, rules: Rules) -> dict:
    return {**reference("sevens")(s, rules),
            **v.choice_suits(rules, "sevens", vr.sevens_called, vr.sevens_follows,
                             sevens_rank_signed_distance)}


def sevens_on_point_contract(s: Settings, rules: Rules) -> dict:
    """SEVENS-02 broken: Sevens may be declared on a point contract (a marks contract
    still needs `min_marks`, SEVENS-07, as the reference has it)."""
    changes = reference("sevens")(s, rules)
    changes["declaration_problem"] = partial(points_taken_as_marks, choice="sevens",
                                             inner=changes["declaration_problem"])
    return changes


def points_taken_as_marks(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                          choice: str, inner: partial[Problem | None]) -> Problem | None:
    """`choice` on a point contract skips its own check (`inner`, a choice_allowed) and
    meets only the checks that one wraps."""
    if contract.kind == "points" and rules.canonical_trump(trump) == choice:
        return inner.keywords["inner"](rules, contract, trump, stacks)
    return inner(rules, contract, trump, stacks)


def leader_free(rules: Rules, contract: Contract, trick: list[int], playable: int, *,
                inner: Callable[..., int] | None) -> int:
    """SEVENS-04 broken: with duty "closest" the leader may lead any tile; only the seats
    that follow must play their closest."""
    if not trick or inner is None:
        return playable
    return inner(rules, contract, trick, playable)


# ---- nello: own_suit_reversed (NELLO-10) ---------------------------------------------


def nello_reversed_read_as_own_suit(s: Settings, rules: Rules) -> dict:
    """NELLO-10 broken: "own_suit_reversed" plays as "own_suit" (6|6 highest)."""
    doubles = "own_suit" if s["doubles"] == "own_suit_reversed" else s["doubles"]
    return reference("nello")({**s, "doubles": doubles}, rules)


# ---- no_trump (NOTRUMP) --------------------------------------------------------------


def no_trump_low_ranked_high(s: Settings, rules: Rules) -> dict:
    """NOTRUMP-02 broken: a no-trump double of doubles "low" (fixed or declared) still
    ranks highest of its number suit; the other values rank as the reference has them."""
    changes = reference("no_trump")(s, rules)
    low = {"low": "none", "declared": "none/low"}.get(s["doubles"])
    if low is not None:
        changes["trick_rank"] = chain_replaced(changes["trick_rank"], vr.for_choice,
                                               lambda link: link.keywords["inner"],
                                               choice=low)
    return changes


def no_trump_every_contract(s: Settings, rules: Rules) -> dict:
    """NOTRUMP-04 broken: the doubles of the setting are placed so in every contract, not
    only in a no-trump one (a number trump loses its trump suit)."""
    called, follows, rank = v.NELLO_SUITS[s["doubles"]]
    return {"called_suit": called, "follows": follows, "trick_rank": rank}


# ---- match_marks (TARGET) ------------------------------------------------------------


def match_marks_target_ignored(s: Settings, rules: Rules) -> dict:
    """TARGET-02 broken: the match is won at 7 marks whatever the target (under
    match_points the option is not read, TARGET-03, so nothing changes there)."""
    found = reference("match_marks")(s, rules)
    return found if rules.stake is vr.points_stake else {**found, "marks_target": 7}


def match_marks_over_points(s: Settings, rules: Rules) -> dict:
    """TARGET-03 broken: the marks target applies even when match_points is in force."""
    return {"marks_range": range(0, s["target"]), "marks_target": s["target"]}


# ---- plunge_terms (PTERMS) -----------------------------------------------------------


def declared_as_if_no_plunge(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                             inner: Callable[..., Problem | None]) -> Problem | None:
    """PTERMS-04 broken: the partner's Nel-O is checked as if the contract were no
    plunge, so Nel-O is allowed on a plunge (PLUNGE-05); every other choice as before."""
    if trump == "nello":
        contract = contract._replace(partner_declares=False)
    return inner(rules, contract, trump, stacks)


def plunge_worth_168(rules: Rules, contract: Contract, *, inner: Callable[..., int]) -> int:
    """PTERMS-04 broken: under match_points a plunge is worth 168, 42 x 4, whatever its
    `marks`. Only where a stake is 42 points a mark (MPTS-03): a doubling ladder's stake
    (MPTS-10, the same 84 for 2 marks) is left as it is, so that the plant breaks PTERMS-04
    alone."""
    stake = inner(rules, contract)
    linear = not rules.points_ladder and stake == 42 * contract.value
    return 168 if contract.partner_declares and linear else stake


# ---- plunge_terms, announce "declaration" (PTERMS-06 .. PTERMS-09) -------------------


def declared_plunge_keeps_bid(s: Settings, rules: Rules) -> dict:
    """PTERMS-06 broken: with announce "declaration" the plunge bid of option plunge is
    still accepted (the bid form kept beside the declaration)."""
    found = reference("plunge_terms")(s, rules)
    if s["announce"] == "declaration":
        # the plunge's entry as option plunge left it (its marks then 4), with `doubles`
        found.update(v.with_special_bid(rules, v.plunge_bid(s["doubles"], 4), v.PLUNGE))
    return found


def declared_with(check: Callable[..., Problem | None] | None = None,
                  record: Callable[..., Contract] | None = None) -> OptionChanges:
    """plunge_terms as the reference defines it, then, with announce "declaration", the
    declaration's check or record replaced by one that gets the reference's as `inner`
    and the settings as `s`."""
    def changes(s: Settings, rules: Rules) -> dict:
        found = reference("plunge_terms")(s, rules)
        if s["announce"] == "declaration":
            if check is not None:
                found["declaration_problem"] = partial(
                    check, s=s, inner=found["declaration_problem"])
            if record is not None:
                found["declared"] = partial(record, s=s, inner=found["declared"])
        return found
    return changes


def plunge_on_any_contract(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                           s: Settings, inner: Callable[..., Problem | None]
                           ) -> Problem | None:
    """PTERMS-07 broken: the plunge may be declared on any contract, a point contract
    included (only the doubles are checked)."""
    if trump == vr.PLUNGE_CHOICE:
        contract = contract._replace(kind="marks", value=max(contract.value, s["marks"]))
    return inner(rules, contract, trump, stacks)


def plunge_doubles_unchecked(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                             s: Settings, inner: Callable[..., Problem | None]
                             ) -> Problem | None:
    """PTERMS-07 broken: the declared plunge never counts the declarer's doubles (as if
    the declarer held every double; whether 6|6 is among them, PTERMS-10, is still read)."""
    held = ALL_DOUBLES & ~SIX_SIX | contract.doubles & SIX_SIX
    return inner(rules, contract._replace(doubles=held), trump, stacks)


def plunge_exact_marks(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                       s: Settings, inner: Callable[..., Problem | None]) -> Problem | None:
    """PTERMS-07 broken: the plunge may be declared only on a contract of exactly
    `marks` marks, not on a higher one."""
    if trump == vr.PLUNGE_CHOICE and contract.kind == "marks" and contract.value != s["marks"]:
        return ("TRUMP_NOT_ALLOWED", "PTERMS-07", "planted: only on exactly `marks` marks")
    return inner(rules, contract, trump, stacks)


def plunge_takes_stacks(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                        s: Settings, inner: Callable[..., Problem | None]) -> Problem | None:
    """PTERMS-07 broken: the plunge declaration accepts a `stacks` field (and drops it)."""
    return inner(rules, contract, trump, MISSING if trump == vr.PLUNGE_CHOICE else stacks)


def plunge_kept_by_plunger(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                           s: Settings, inner: Callable[..., Contract]) -> Contract:
    """PTERMS-08 broken: after the plunge declaration the plunger keeps the declaration
    (the contract is a plunge, but its declarer is still the plunger)."""
    found = inner(rules, contract, trump, stacks)
    return found._replace(declarer=contract.declarer) if trump == vr.PLUNGE_CHOICE else found


def plunge_declared_not_a_plunge(rules: Rules, contract: Contract, trump: Any, stacks: Any,
                                 *, s: Settings, inner: Callable[..., Contract]) -> Contract:
    """PTERMS-08 broken: the declaration passes to the partner, but the contract is not
    marked a plunge (so Nel-O is allowed, and the partner leads, PLUNGE-05, PTERMS-03)."""
    found = inner(rules, contract, trump, stacks)
    return found._replace(partner_declares=False) if trump == vr.PLUNGE_CHOICE else found


def plunge_played_for_marks(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                            s: Settings, inner: Callable[..., Contract]) -> Contract:
    """PTERMS-08 broken: a declared plunge is played for the setting's `marks`, not for
    the marks bid."""
    found = inner(rules, contract, trump, stacks)
    return found._replace(value=s["marks"]) if trump == vr.PLUNGE_CHOICE else found


def no_nello_where_plunge_may_be(rules: Rules, contract: Contract, trump: Any, stacks: Any,
                                 *, s: Settings, inner: Callable[..., Problem | None]
                                 ) -> Problem | None:
    """PTERMS-09 broken: a contract that may carry a declared plunge is treated as a
    plunge already, so its declarer may not declare Nel-O (PLUNGE-05 applied too early)."""
    if (trump == "nello" and contract.kind == "marks" and contract.value >= s["marks"]
            and contract.doubles.bit_count() >= s["doubles"]):
        return ("TRUMP_NOT_ALLOWED", "PLUNGE-05", "planted: no Nel-O where a plunge may be")
    return inner(rules, contract, trump, stacks)


# ---- splash (SPLASH-02 .. SPLASH-05) -------------------------------------------------


def special_entry(option: str, name: str, **changes: Any) -> OptionChanges:
    """`option` as the reference defines it, with the entry `name` of `special_bids`
    changed (`doubles` or `marks`) where the option leaves one."""
    def option_changes(s: Settings, rules: Rules) -> dict:
        found = reference(option)(s, rules)
        bids = tuple(bid._replace(**changes) if bid.name == name else bid
                     for bid in found.get("special_bids", ()))
        return {**found, "special_bids": bids} if "special_bids" in found else found
    return option_changes


def read_as(option: str, setting: str, given: Any, read: Any) -> OptionChanges:
    """The option reads `setting`'s value `given` as `read` (every other value as it is):
    forced_bid's bid "at_least_31" read as "any" breaks FORCE-10, "minimum" as "any" or
    "any" as "minimum" FORCE-03."""
    def changes(s: Settings, rules: Rules) -> dict:
        return reference(option)({**s, setting: read} if s[setting] == given else s, rules)
    return changes


def any_marks_raise(s: Settings, rules: Rules) -> dict:
    """RAISE-02 broken: a later marks bid may raise the last by 1 to 7 marks."""
    return {**reference("marks_raise")(s, rules), "marks_raises": tuple(range(1, 8))}


def special_bid_one_step(rules: Rules, kind: str, marks: int, last_marks: int,
                         bid_made: bool, doubles: int, *,
                         inner: Callable[..., Problem | None]) -> Problem | None:
    """RAISE-03 broken: a special bid after a marks bid is held to BID-06's one step."""
    return inner(replace(rules, marks_raises=(1,)), kind, marks, last_marks, bid_made, doubles)


def holder_bids_last(s: Settings, rules: Rules) -> dict:
    """FIRST-02 broken: the holder of 0|1 is the last bidder, the seat on its left the
    first."""
    return {"last_bidder": lambda r, dealer, hands: (vr.holder_bids_first(r, dealer, hands)
                                                     + 1) & 3}


def splash_marks_fixed(s: Settings, rules: Rules) -> dict:
    """SPLASH-06 broken: with marks "bid" the splash is a fixed bid of 3 marks (`true`);
    `marks` 2 or 3 as they are."""
    return reference("splash")({**s, "marks": 3} if s["marks"] == "bid" else s, rules)


def splash_carries_any_marks(s: Settings, rules: Rules) -> dict:
    """SPLASH-06 broken: a splash that carries its marks may carry any number from 1 to
    7 (the checks of SPLASH-02 and SPLASH-03 still apply to the number carried)."""
    found = reference("splash")(s, rules)
    bids = tuple(bid._replace(choices=tuple(range(1, 8))) if bid.choices else bid
                 for bid in found["special_bids"])
    return {**found, "special_bids": bids}


def splash_not_a_plunge(rules: Rules, bidder: int, high_points: int, last_marks: int,
                        plunged: bool, after_passes: bool, *,
                        inner: Callable[..., Contract]) -> Contract:
    """SPLASH-04 broken: the partner declares a splash, but the contract is not a plunge
    for the rules that read one (Nel-O allowed, PLUNGE-05; the partner leads, PTERMS-03).
    A contract won by a plunge (marks only a plunge bids, `won_by`) is one as before."""
    contract = inner(rules, bidder, high_points, last_marks, plunged, after_passes)
    if plunged and won_by(rules, last_marks) == {"splash"}:
        return contract._replace(partner_declares=False)
    return contract


def splash_replaces_plunge(s: Settings, rules: Rules) -> dict:
    """SPLASH-05 broken: with splash in force the plunge bid is gone (one special bid
    form only)."""
    return {**reference("splash")(s, rules),
            "special_bids": tuple(bid for bid in reference("splash")(s, rules)["special_bids"]
                                  if bid.name != v.PLUNGE)}


def plunge_over_splash(s: Settings, rules: Rules) -> dict:
    """SPLASH-05 broken: the plunge ranks above the splash as a bid of its own: after a
    bid of the splash's marks a plunge is accepted (as if no bid had been made)."""
    found = reference("splash")(s, rules)
    inner = found["special_bid_problem"]

    def problem(r: Rules, kind: str, marks: int, last_marks: int, bid_made: bool,
                doubles: int) -> Problem | None:
        if kind == v.PLUNGE:
            bid_made = bid_made and last_marks != s["marks"]
        return inner(r, kind, marks, last_marks, bid_made, doubles)
    return {**found, "special_bid_problem": problem}


def min_marks_one_for_marks(s: Settings, rules: Rules) -> dict:
    """NELLO-02 broken: Nel-O declared on 1 mark whatever min_marks says (min_marks 0, a
    point contract allowed too, NELLO-11, is read as it is); a bid announcing Nel-O is
    still checked against min_marks (NELLO-14)."""
    changes = reference("nello")({**s, "min_marks": 1 if s["min_marks"] else 0}, rules)
    if "announce_problem" in changes:
        changes["announce_problem"] = partial(vr.nello_bid_problem, min_marks=s["min_marks"])
    return changes


def point_nello_refused(s: Settings, rules: Rules) -> dict:
    """NELLO-11 broken: with min_marks 0 Nel-O is still refused on a point contract
    (read as min_marks 1); other values as they are."""
    return reference("nello")({**s, "min_marks": s["min_marks"] or 1}, rules)
