"""The rule functions that the variant options add (spec/variants.md), each citing its ID.

They have the signatures of the functions of the rule table they stand in for
(`rules.Rules`). An option that adds a trump choice wraps the table's function: its own
rule for its choice, the function it wraps (`inner`) for every other; `variants.py` says
which option wraps which.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .dealing import Hands
from .rules import (
    MISSING,
    TRUMP_SUIT,
    Contract,
    Problem,
    Rules,
    SpecialBid,
    called_suit,
    first_highest,
    follows,
    suit_rank,
    trick_rank,
)
from .tiles import PIPS, TILE_COUNT, TILE_INDEX

# ---- choices that an option adds (VAR-04, CON-01) ------------------------------------


def for_choice(*args: Any, choice: str, own: Callable, inner: Callable,
               rule: str | None = None, others_rule: str | None = None) -> Any:
    """A suit function (SUIT, RANK) of an option's `choice`: `own` when the trump (the
    last argument) is that choice, else `inner`, the function it wraps. `rule` names the
    rule `own` follows under this option when `own` names another (NOTRUMP-02, NOTRUMP-03
    for NELLO-06's functions), `others_rule` the rule by which every other trump plays as
    without the option (NOTRUMP-04); neither changes what it returns."""
    return (own if args[-1] == choice else inner)(*args)


def choice_allowed(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                   choice: str, rule: str, min_marks: int, on_plunge: bool,
                   inner: Callable[..., Problem | None]) -> Problem | None:
    """NELLO-02, SEVENS-02, PLUNGE-05: `choice` needs a marks contract of `min_marks` or
    more (0: any contract) and, unless `on_plunge` (NELLO-12: allowed to a special bid's
    partner), no plunge; checked after CON-01 and before the stacks (errors.yaml):
    `inner` does the rest."""
    if rules.canonical_trump(trump) == choice:
        if contract.kind == "points" and min_marks:
            return ("TRUMP_NOT_ALLOWED", rule, f"{choice} needs a marks contract")
        if contract.value < min_marks:
            return ("TRUMP_NOT_ALLOWED", rule,
                    f"{choice} needs a contract of {min_marks} marks or more")
        if contract.partner_declares and not on_plunge:
            return ("TRUMP_NOT_ALLOWED", "PLUNGE-05", f"{choice} may not be declared on a plunge")
    return inner(rules, contract, trump, stacks)

# ---- forced_bid: the dealer's bid (FORCE-02, FORCE-03) and the forced contract
# (FORCE-05..FORCE-08) -------------------------------------------------------------------


def forced_bid_problem(rules: Rules, kind: str | None, value: int | None,
                       dealer_after_passes: bool, *, required: tuple[str, int] | None,
                       refused: tuple[str, int] | None = None) -> Problem | None:
    """FORCE-02: the dealer after three passes may not pass (kind None); FORCE-03: with a
    `required` bid, no other bid; FORCE-10: with a `refused` bid, any bid but that one.
    Checked after every other bidding check (errors.yaml)."""
    if not dealer_after_passes:
        return None  # FORCE-02: only the dealer after three passes is forced
    if kind is None:
        return ("FORCED_BID", "FORCE-02", "after three passes the dealer must bid")
    if required is not None and (kind, value) != required:
        return ("FORCED_BID", "FORCE-03",
                f"after three passes the dealer must bid exactly {required[1]} {required[0]}")
    if refused is not None and (kind, value) == refused:
        return ("FORCED_BID", "FORCE-10",
                f"after three passes the dealer must bid more than {refused[1]}")
    return None


def forced_contract(rules: Rules, bidder: int, high_points: int, last_marks: int,
                    special: bool, after_passes: bool, *, inner: Callable[..., Contract]
                    ) -> Contract:
    """FORCE-05: the contract won by the dealer's bid after three passes is forced."""
    contract = inner(
        rules,  # pragma: no mutate
        bidder, high_points, last_marks, special,
        after_passes,  # pragma: no mutate
    )
    return contract._replace(compelled=True) if after_passes else contract


def one_mark_contract(rules: Rules, bidder: int, high_points: int, last_marks: int,
                      special: bool, after_passes: bool, *, inner: Callable[..., Contract]
                      ) -> Contract:
    """FORTYTWO-05: with `contract: "marks"` a won bid of 42 is the 1-mark bid, a marks
    contract of 1 mark (FORTYTWO-06: so for every other option)."""
    contract = inner(
        rules,  # pragma: no mutate
        bidder, high_points, last_marks, special, after_passes)
    if contract.kind == "points" and contract.value == rules.one_mark_points:
        return contract._replace(kind="marks", value=1)
    return contract


def forced_only(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                choices: tuple[str, ...], inner: Callable[..., Problem | None]
                ) -> Problem | None:
    """FORCE-06, nello_sevens "forced_only": Nel-O and Sevens only on a forced contract;
    checked after CON-01 and the choice's own limits, before the stacks (errors.yaml)."""
    choice = rules.canonical_trump(trump)
    if choice in choices and not contract.compelled:
        return ("TRUMP_NOT_ALLOWED", "FORCE-06",
                f"{choice} may be declared only on the dealer's forced bid")
    return inner(rules, contract, trump, stacks)


def is_forced_minimum(rules: Rules, contract: Contract) -> bool:
    """FORCE-07: a forced contract of the point bid 30 (the lowest point bid)."""
    return (contract.compelled and contract.kind == "points"
            and contract.value == rules.point_bids[0])


Eligible = Callable[[Rules, Contract], bool]


def sweep_outcome(rules: Rules, contract: Contract, points: list[int],
                  tricks_won: list[int], *, inner: Callable[..., str | None],
                  eligible: Eligible = is_forced_minimum) -> str | None:
    """FORCE-08: a forced 30 is not decided while its bidders have won every trick and
    fewer than seven; then END-01..END-05 as for any point contract."""
    if (eligible(rules, contract) and not tricks_won[1 - contract.team]
            and tricks_won[contract.team] < 7):
        return None
    return inner(rules, contract, points, tricks_won)


def sweep_score(rules: Rules, contract: Contract, outcome: str, points: list[int], *,
                marks: int, inner: Callable[..., tuple[int, list[int]]],
                eligible: Eligible = is_forced_minimum) -> tuple[int, list[int]]:
    """FORCE-07: a forced 30 made with all seven tricks scores `marks` marks. The
    defenders took no trick exactly when they hold no round point (PTS-01: a trick is
    worth 1). Every score function returns a new list of gains, so it is set in place."""
    team, gains = inner(
        rules, contract, outcome,
        points,  # pragma: no mutate
    )
    if outcome == "made" and eligible(rules, contract) and not points[1 - team]:
        gains[team] = marks
    return team, gains


# ---- first_bidder: the holder of 0|1 bids first (FIRST-02) ---------------------------

ZERO_ONE = TILE_INDEX["0|1"]  # FIRST-02


def holder_bids_first(rules: Rules, dealer: int, hands: Hands) -> int:
    """FIRST-02: the seat holding 0|1 bids first, so the seat on its right bids last;
    FIRST-03: that seat ends the bidding in the dealer's place."""
    holder = next(seat for seat, hand in enumerate(hands) if ZERO_ONE in hand)
    return (holder + 3) & 3  # FIRST-02, FIRST-03


# ---- nello: Nel-O (NELLO-06) --------------------------------------------------------
# No trump suit: the suits of `none` (SUIT-03, SUIT-05, SUIT-06), with the doubles placed
# by the `doubles` setting. The `trump` argument ("nello") is not consulted.


def nello_called(lead: int, trump: object) -> int:
    """NELLO-06, doubles high or low: a lead calls its larger number, as under none."""
    return called_suit(lead, "none")  # pragma: no mutate


def nello_follows(tile: int, called: int, trump: object) -> bool:
    """NELLO-06, doubles high or low: a tile follows a number it shows, as under none."""
    return follows(tile, called, "none")  # pragma: no mutate


def nello_rank_doubles_high(tile: int, called: int, trump: object) -> int:
    """NELLO-06 "high": the double is the highest of its number suit (RANK-05)."""
    return trick_rank(tile, called, "none")  # pragma: no mutate


def nello_rank_doubles_low(tile: int, called: int, trump: object) -> int:
    """NELLO-06 "low": the double is the lowest of its number suit (fives led: 5|6 > 4|5 >
    ... > 0|5 > 5|5); a tile that does not follow never wins (-1)."""
    if not follows(tile, called, "none"):  # pragma: no mutate
        return -1  # pragma: no mutate
    a, b = PIPS[tile]
    return 0 if a == b else 1 + suit_rank(tile, called)  # pragma: no mutate


DOUBLES_SUIT = TRUMP_SUIT  # NELLO-06 "own_suit": the called-suit index of the doubles


def nello_called_own_suit(lead: int, trump: object) -> int:
    """NELLO-06 "own_suit": a double led calls the doubles; a non-double its larger
    number."""
    a, b = PIPS[lead]
    return DOUBLES_SUIT if a == b else b


def nello_follows_own_suit(tile: int, called: int, trump: object) -> bool:
    """NELLO-06 "own_suit": only doubles follow the doubles, and no double follows a
    number."""
    a, b = PIPS[tile]
    if called == DOUBLES_SUIT:
        return a == b
    return a != b and called in (a, b)


def nello_rank_own_suit(tile: int, called: int, trump: object) -> int:
    """NELLO-06 "own_suit": doubles rank by their number (6|6 highest); in a number suit
    the tiles rank by their other number; a tile that does not follow never wins."""
    if not nello_follows_own_suit(tile, called, trump):  # pragma: no mutate
        return -1  # pragma: no mutate
    return PIPS[tile][0] if called == DOUBLES_SUIT else suit_rank(tile, called)  # pragma: no mutate


def nello_rank_own_suit_reversed(tile: int, called: int, trump: object) -> int:
    """NELLO-10 "own_suit_reversed": as "own_suit", but the doubles rank in reverse (0|0
    highest, 6|6 lowest); number suits rank as usual."""
    rank = nello_rank_own_suit(tile, called, trump)  # pragma: no mutate
    return 6 - rank if called == DOUBLES_SUIT and rank >= 0 else rank  # pragma: no mutate


def nello_outcome(rules: Rules, contract: Contract, points: list[int],
                  tricks_won: list[int], *, inner: Callable[..., str | None]) -> str | None:
    """NELLO-07: set by the first trick the declarer wins (the partner plays none, so the
    bidding team's tricks are the declarer's), made when seven tricks pass without one."""
    if contract.trump != "nello":
        return inner(rules, contract, points, tricks_won)  # pragma: no mutate
    if tricks_won[contract.team]:
        return "set"
    if tricks_won[1 - contract.team] == 7:
        return "made"
    return None


def partner_sits_out(rules: Rules, contract: Contract, *, inner: Callable[..., int | None]
                     ) -> int | None:
    """NELLO-03: in a Nel-O the declarer's partner sits out."""
    if contract.trump == "nello":
        return (contract.declarer + 2) & 3  # pragma: no mutate
    return inner(rules, contract)  # pragma: no mutate


def nello_point_score(rules: Rules, contract: Contract, outcome: str, points: list[int], *,
                      inner: Callable[..., tuple[int, list[int]]]) -> tuple[int, list[int]]:
    """NELLO-11 (`min_marks: 0`): a Nel-O made on a point contract scores the stake of
    its bid for the bidders alone, as a made marks contract (MPTS-05; without
    match_points this is SCORE-02's 1 mark); every other round: `inner`."""
    if outcome == "made" and contract.trump == "nello" and contract.kind == "points":
        gains = [0, 0]
        gains[contract.team] = rules.stake(
            rules,  # pragma: no mutate
            contract)
        return contract.team, gains
    return inner(rules, contract, outcome, points)


def caller_sits_out(rules: Rules, contract: Contract, *, inner: Callable[..., int | None]
                    ) -> int | None:
    """NELLO-12 (`on_plunge: "allowed"`): a Nel-O declared by the partner of a plunge or
    a splash is played by the plunger; the declaring partner sits out."""
    if contract.trump == "nello" and contract.partner_declares:
        return contract.declarer
    return inner(rules, contract)  # pragma: no mutate


def plunger_leads_nello(rules: Rules, contract: Contract, dealer: int, *,
                        inner: Callable[..., int]) -> int:
    """NELLO-12: the plunger leads the Nel-O its partner declared (the partner sits out)."""
    if contract.trump == "nello" and contract.partner_declares:
        return (contract.declarer + 2) & 3  # pragma: no mutate
    return inner(rules, contract, dealer)  # pragma: no mutate


def nello_bid_problem(rules: Rules, kind: str, value: int, announced: str,
                      dealer_after_passes: bool, *, min_marks: int) -> Problem | None:
    """NELLO-14 (`announce: "bid"`): a bid announcing Nel-O is a marks bid of `min_marks`
    or more (a point bid only with `min_marks` 0), and where Nel-O is only for a forced
    contract (FORCE-06) only the dealer's bid after three passes may announce it: NELLO-14
    says both refusals. Checked after every other check of the bid (errors.yaml)."""
    if (kind == "points" and min_marks) or (kind == "marks" and value < min_marks):
        return ("NELLO_BID_NOT_ALLOWED", "NELLO-14",
                f"a Nel-O bid is a marks bid of {min_marks} or more"
                if min_marks else "a Nel-O bid is a point or marks bid")
    if announced in rules.forced_only_choices and not dealer_after_passes:
        return ("NELLO_BID_NOT_ALLOWED", "NELLO-14",
                f"{announced} is announced only on the dealer's forced bid (FORCE-06)")
    return None


def announced_choice_problem(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                             choice: str, inner: Callable[..., Problem | None]
                             ) -> Problem | None:
    """NELLO-15: a contract won by a bid announcing `choice` is declared `choice` only,
    and `choice` is declared only on such a contract (or by a special bid's partner,
    NELLO-12); checked after CON-01 and before the stacks (errors.yaml)."""
    named = rules.canonical_trump(trump)
    if named is not None:
        if contract.announced == choice and named != choice:
            return ("TRUMP_NOT_ALLOWED", "NELLO-15",
                    f"the winning bid announced {choice}: it is declared {choice}")
        if named == choice and contract.announced != choice and not contract.partner_declares:
            return ("TRUMP_NOT_ALLOWED", "NELLO-15",
                    f"{choice} is declared only when the winning bid announced it")
    return inner(rules, contract, trump, stacks)


def treatment_problem(rules: Rules, contract: Contract, trump: Any, named: Any
                      ) -> Problem | None:
    """NELLO-13, NOTRUMP-05 (`doubles: "declared"`): the declaration of a choice of
    `rules.treatments` names its doubles, one of its values (DOUBLES_REQUIRED without,
    DOUBLES_INVALID with another); no other declaration names any (DOUBLES_INVALID).
    Checked after every other check of the declaration (errors.yaml)."""
    choice = rules.canonical_trump(trump)
    entry = next((entry for entry in rules.treatments if entry[0] == choice), None)
    if entry is None:
        if named is MISSING:
            return None
        rule = rules.treatments[0][2]
        return ("DOUBLES_INVALID", rule, f"the declaration of {choice} names no doubles")
    _, values, rule = entry
    if named is MISSING:
        return ("DOUBLES_REQUIRED", rule,
                f"the declaration of {choice} names its doubles: {', '.join(values)}")
    if named not in values:
        return ("DOUBLES_INVALID", rule,
                f"the doubles of {choice} are {', '.join(values)}, not {named!r}")
    return None


# ---- no_trump: the doubles of a no-trump contract (NOTRUMP-02, NOTRUMP-03) -----------
# A no-trump contract ("none") with the doubles low or as a suit of their own uses the
# suit functions of Nel-O's `doubles` settings (NELLO-06): both are "no trump suit, the
# doubles placed by a setting", and those functions do not read their `trump` argument.


# ---- plunge_terms: who leads a plunge (PTERMS-03) ------------------------------


def plunger_leads(rules: Rules, contract: Contract, dealer: int, *,
                  inner: Callable[..., int]) -> int:
    """PTERMS-03, leader "plunger": the partner declares, the plunger leads."""
    if contract.partner_declares:
        return (contract.declarer + 2) & 3  # pragma: no mutate
    return inner(rules, contract, dealer)  # pragma: no mutate


# ---- plunge_terms, announce "declaration": the plunge declared (PTERMS-07, PTERMS-08) ---

PLUNGE_CHOICE = "plunge"  # PTERMS-07: the declaration that hands trump to the partner


def plunge_declaration_problem(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                               doubles: int, marks: int, needs: int,
                               inner: Callable[..., Problem | None],
                               beside_rule: str | None = None) -> Problem | None:
    """PTERMS-07: the plunge may be declared on a marks contract of `marks` or more, by a
    winner of the bidding holding `doubles` doubles or more (PTERMS-10: and the doubles
    of the mask `needs`), never on a plunge, and without stacks; checked after CON-01 and
    before the stacks (errors.yaml). Every other choice: `inner`; `beside_rule` names the rule
    by which an option's choice may be declared instead where the plunge may (PTERMS-09),
    and changes nothing this returns."""
    if rules.canonical_trump(trump) != PLUNGE_CHOICE:
        return inner(rules, contract, trump, stacks)
    if contract.kind == "points":
        return ("TRUMP_NOT_ALLOWED", "PTERMS-07", "a plunge is declared on a marks contract")
    if contract.value < marks:
        return ("TRUMP_NOT_ALLOWED", "PTERMS-07",
                f"a plunge needs a contract of {marks} marks or more")
    if contract.partner_declares:
        return ("TRUMP_NOT_ALLOWED", "PTERMS-07", "the contract is already a plunge")
    if contract.announced is not None:
        return ("TRUMP_NOT_ALLOWED", "NELLO-15",
                f"the winning bid announced {contract.announced}")
    held = contract.doubles.bit_count()
    if held < doubles:
        return ("TRUMP_NOT_ALLOWED", "PTERMS-07",
                f"a plunge needs {doubles} doubles; this hand holds {held}")
    if needs & ~contract.doubles:
        return ("TRUMP_NOT_ALLOWED", "PTERMS-10", "a plunge needs 6|6 in the plunger's hand")
    if stacks is not MISSING:
        return ("STACKS_NOT_ALLOWED", "PTERMS-07",
                "the plunge is declared without stacks: the partner chooses them")
    return None


def plunge_declared(rules: Rules, contract: Contract, trump: Any, stacks: Any, *,
                    raised: int, inner: Callable[..., Contract]) -> Contract:
    """PTERMS-08: the plunge declared makes the contract a plunge, declared by the
    plunger's partner (PLUNGE-04); its trump stays undeclared, so the engine hands the
    declaration to the partner. PTERMS-11: naming it raises the contract by `raised`
    marks."""
    if rules.canonical_trump(trump) == PLUNGE_CHOICE:
        return contract._replace(declarer=(contract.declarer + 2) & 3,  # pragma: no mutate
                                 partner_declares=True, value=contract.value + raised)
    return inner(rules, contract, trump, stacks)


# ---- plunge, plunge_terms, splash: the special bids (PLUNGE-02, PLUNGE-03, SPLASH-02,
# SPLASH-03)


def special_bid_problem(rules: Rules, kind: str, marks: int, last_marks: int,
                        bid_made: bool, doubles: int) -> Problem | None:
    """PLUNGE-03, SPLASH-03 (`step_rule`): a special bid is a marks bid of its marks
    (exempt from BID-05 as the first marks bid, held to BID-06 after one); PLUNGE-02,
    SPLASH-02 (`hand_rule`): only before any bid, from a hand of its doubles or more
    (`doubles`: the mask of the doubles held). `kind` names the entry of
    `rules.special_bids`, `marks` the marks it bids; SPLASH-06: one that carries its
    marks carries one of its `choices`. One that jumps (PLUNGE-07, SPLASH-07):
    jump_problem; one that raises (PLUNGE-09, SPLASH-08) may follow any bid."""
    bid = next(bid for bid in rules.special_bids if bid.name == kind)
    carried = marks - last_marks if bid.raises else marks  # SPLASH-08: it carries its raise
    if bid.choices and carried not in bid.choices:
        return ("MARKS_BID_STEP", "SPLASH-06",
                f"a {kind} carries {' or '.join(map(str, bid.choices))} marks, not {carried}")
    if bid.raises:  # PLUNGE-09, SPLASH-08: over any bid, from a hand of its doubles
        return hand_problem(bid, doubles)
    if bid.jumps:
        return jump_problem(rules, bid, marks, last_marks, doubles)
    if last_marks and marks - last_marks not in rules.marks_raises:
        allowed = " or ".join(str(last_marks + raised) for raised in rules.marks_raises)
        return ("MARKS_BID_STEP", bid.step_rule,
                f"a {kind} bids {marks} marks; after {last_marks} marks a marks bid is "
                f"{allowed}")
    if bid_made:
        return ("PLUNGE_NOT_ALLOWED", bid.hand_rule,
                f"a {kind} comes before any bid this round")
    return hand_problem(bid, doubles)


def hand_problem(bid: SpecialBid, doubles: int) -> Problem | None:
    """PLUNGE-02, SPLASH-02, PTERMS-02: a hand of the bid's count of doubles or more
    (`doubles`: the mask of those held); PTERMS-10: and the doubles it `needs`."""
    held = doubles.bit_count()
    if held < bid.doubles:
        return ("PLUNGE_NOT_ALLOWED", bid.hand_rule,
                f"a {bid.name} needs {bid.doubles} doubles; this hand holds {held}")
    if bid.needs & ~doubles:
        return ("PLUNGE_NOT_ALLOWED", "PTERMS-10", f"a {bid.name} needs 6|6 in the hand")
    return None


def jump_problem(rules: Rules, bid: SpecialBid, marks: int, last_marks: int, doubles: int
                 ) -> Problem | None:
    """PLUNGE-07, SPLASH-07 (`jump_rule`): a special bid that jumps may follow any bid:
    its marks over a point bid or a lower marks bid, one more over a bid of its marks,
    never over a higher one (one that carries its marks, SPLASH-06: only over a lower
    one); from a hand of its doubles or more (PLUNGE-02, PTERMS-02)."""
    if bid.choices and last_marks >= marks:
        return ("MARKS_BID_STEP", bid.jump_rule,
                f"a {bid.name} of {marks} marks may not follow a bid of {last_marks} marks")
    if last_marks > bid.marks:
        return ("MARKS_BID_STEP", bid.jump_rule,
                f"a {bid.name} bids {bid.marks} marks, or {bid.marks + rules.marks_step} "
                f"over {bid.marks}; not over a bid of {last_marks} marks")
    return hand_problem(bid, doubles)


# ---- sevens: Sevens (SEVENS-03..SEVENS-05) -------------------------------------------


def distance(tile: int) -> int:
    """SEVENS-03: |a + b - 7|: 0 for 1|6, 2|5, 3|4; 3 for 5|5 and 0|4; 7 for 0|0."""
    a, b = PIPS[tile]
    return abs(a + b - 7)


def sevens_called(lead: int, trump: object) -> int:
    """SEVENS-04: a lead calls nothing (one called 'suit' that no tile follows)."""
    return 0  # pragma: no mutate


def sevens_follows(tile: int, called: int, trump: object) -> bool:
    """SEVENS-04: no suits, so no duty to follow."""
    return False  # pragma: no mutate


def sevens_rank(tile: int, called: int, trump: object) -> int:
    """SEVENS-05: the least distance wins (rank 7 - distance, 0..7); equal ranks go to the
    tile played first (ties "first_played")."""
    return 7 - distance(tile)  # pragma: no mutate  # SEVENS-05, by SEVENS-03's distance


# DISTANCE_MASKS[d]: the tiles at distance d from 7.
DISTANCE_MASKS: tuple[int, ...] = tuple(
    sum(1 << t for t in range(TILE_COUNT) if distance(t) == d) for d in range(8))


def closest_tiles(hand: int) -> int:
    """SEVENS-04, duty "closest": the tiles of least distance in a hand mask."""
    for tiles in DISTANCE_MASKS:
        if hand & tiles:
            return hand & tiles  # SEVENS-04, by SEVENS-03's distance
    return hand


def closest_duty(rules: Rules, contract: Contract, trick: list[int], playable: int, *,
                 inner: Callable[..., int] | None) -> int:
    """SEVENS-04, duty "closest": in a Sevens every seat, the leader included, plays one
    of its tiles nearest 7."""
    if contract.trump == "sevens":
        return closest_tiles(playable)
    # pragma: no mutate start
    return playable if inner is None else inner(rules, contract, trick, playable)
    # pragma: no mutate end


def tie_to_bidders(rules: Rules, contract: Contract, ranks: list[int],
                   seats: tuple[int, ...], *, inner: Callable[..., int]) -> int:
    """SEVENS-05, ties "bidders": in a Sevens, among the plays of the best rank, the
    first of the bidding team wins if there is one; otherwise the first played."""
    if contract.trump != "sevens":
        return inner(rules, contract, ranks, seats)  # pragma: no mutate
    best = first_highest(rules, contract, ranks, seats)  # pragma: no mutate
    for i, rank in enumerate(ranks):
        if rank == ranks[best] and rules.team_of(seats[i]) == contract.team:
            return i
    return best


# ---- undeclared_trump: the first tile sets trump (UNDECL-03) -------------------------


def first_tile_trump(rules: Rules, contract: Contract, tile: int, *, end: str, double: str,
                     inner: Callable[..., int | str | None]) -> int | str | None:
    """UNDECL-03: under "first_tile" the first tile sets trump: a non-double its larger
    ("high") or smaller ("low") number; a double its number ("number") or the doubles
    ("doubles")."""
    if contract.trump != "first_tile":
        return inner(rules, contract, tile)  # pragma: no mutate
    a, b = PIPS[tile]
    if a == b:
        return "doubles" if double == "doubles" else a
    return b if end == "high" else a


# ---- match_points: a match to a number of points (MPTS-03..MPTS-06) ------------------

MARK_IN_POINTS = 42  # MPTS-03: a mark is worth 42 points


def points_stake(rules: Rules, contract: Contract) -> int:
    """MPTS-03: the value of the bid: B for a point bid of B, 42 n for n marks; MPTS-10
    (`points_ladder`): 42 * 2^(n - 1) for n marks."""
    if contract.kind == "points":
        return contract.value
    if rules.points_ladder:
        return MARK_IN_POINTS << (contract.value - 1)
    return MARK_IN_POINTS * contract.value


def points_score(rules: Rules, contract: Contract, outcome: str, points: list[int]
                 ) -> tuple[int, list[int]]:
    """MPTS-04 (a point contract made: each team adds its round points), MPTS-05 (a marks
    contract made: the bidders add its value), MPTS-06 (set: the defenders add its value
    and their round points). Returns the team the result names (MPTS-07) and the gains."""
    bidders, defenders = contract.team, 1 - contract.team
    gains = [0, 0]
    if outcome == "made":
        if contract.kind == "points":
            gains = list(points)
        else:
            gains[bidders] = rules.stake(rules, contract)
        return bidders, gains
    value = rules.stake(rules, contract)
    # MPTS-11: all or nothing, a contract of 42 or more gives the defenders its value only
    kept = 0 if rules.all_or_nothing and value >= MARK_IN_POINTS else points[defenders]
    gains[defenders] = value + kept
    return defenders, gains
