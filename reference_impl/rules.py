"""The rules of the game as data and small functions, each citing its rule ID.

`Rules` is the one object the engine consults: the game's parameters and its table of
named rule functions (the engine's extension point, documented in reference_impl/README.md).
A variant (spec/variants.md) changes a parameter or wraps a function of the table; a
planted bug does the same; nothing else reaches into the engine. The functions here read
like spec/rules.md; the hot path uses tables built from them (`tables.py`), never a second
copy of a rule. `variant_rules.py` holds what the options add; `variants.py` resolves a
setup's `variants` into one `Rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from .dealing import Hands, deal_order
from .tiles import PIPS, TILE_INDEX, team_of

# CON-01: the nine trump choices, in the canonical order of actions.md.
TRUMP_CHOICES: tuple[int | str, ...] = (0, 1, 2, 3, 4, 5, 6, "doubles", "none")
# A called suit is a number 0..6, or TRUMP_SUIT when a trump was led (SUIT-04).
TRUMP_SUIT = 7
# PTS-02: counter tiles and their round points; every other tile is 0.
COUNTERS: Mapping[str, int] = {"0|5": 5, "1|4": 5, "2|3": 5, "4|6": 10, "5|5": 10}
# SCORE-02: a round of four passes awards nothing.
ALL_PASSED = "all_passed"


class Contract(NamedTuple):
    """The winning bid and its declaration (CON-04); `trump`/`stacks` None until declared.
    `partner_declares` marks a contract won by a special bid (PLUNGE-04: the declarer is
    the bidder's partner) or declared one (PTERMS-08); `compelled` one won by a bid the
    dealer had to make (FORCE-05: only an option can compel one); `doubles` is the mask of
    the doubles the winner of the bidding holds (PTERMS-07: a plunge declared needs enough
    of them, PTERMS-10 one of them; never shown in a view, VIS-01); `treatment` the doubles
    the declaration named, where an option lets the declarer name them (NELLO-13,
    NOTRUMP-05), else None; `announced` the choice the winning bid announced (NELLO-14),
    else None."""

    declarer: int
    team: int
    kind: str  # "points" or "marks"
    value: int
    trump: int | str | None = None
    stacks: int | None = None
    partner_declares: bool = False
    compelled: bool = False
    doubles: int = 0
    treatment: str | None = None
    announced: str | None = None


class Trick(NamedTuple):
    """A completed trick (PLAY-02, PLAY-03, PTS-01, PTS-02): who led it, its tiles in play
    order, who won it and its round points."""

    leader: int
    tiles: tuple[int, ...]
    winner: int
    points: int


class RoundResult(NamedTuple):
    """How a round ended (SCORE-02): "made", "set" or ALL_PASSED, the team it names (None
    after four passes) and what that team gained."""

    outcome: str
    team: int | None
    marks: int


class SpecialBid(NamedTuple):
    """A bid of its own that an option adds (PLUNGE-02, SPLASH-02), written
    `"<name>": true`: a marks bid of `marks`, made before any bid from a hand of `doubles`
    or more doubles; its bidder's partner declares (PLUNGE-04). Its checks cite the
    option's rule IDs: `step_rule` (exempt from BID-05 as the first marks bid, held to
    BID-06 after one) and `hand_rule` (before any bid, enough doubles)."""

    name: str
    doubles: int
    marks: int
    step_rule: str
    hand_rule: str
    # PLUNGE-07: also over earlier bids (`marks`, one more over `marks`); PLUNGE-09 too
    jumps: bool = False
    jump_rule: str = "PLUNGE-07"  # the rule of its jump (SPLASH-07 for a splash)
    # PLUNGE-09, SPLASH-08 (`when: "raise"`; `jumps` too): its marks are the last marks
    # bid plus its own, over any bid; `jump_rule` then names that rule
    raises: bool = False
    needs: int = 0  # PTERMS-10: a mask of doubles the hand must hold besides the count
    # SPLASH-06: the marks the bid may carry, written `"<name>": n`; () when it is `true`
    choices: tuple[int, ...] = ()
    # the rule by which a contract it wins is a plunge for the rules that read one
    # (PLUNGE-05, PTERMS-03, PTERMS-07, NELLO-12): SPLASH-04, PTERMS-04; "" for the plunge
    plunge_rule: str = ""
    beside_rule: str = ""  # SPLASH-05: its rule beside the other special bids at one table


def special_bid_marks(rules: Rules, kind: str, last_marks: int,
                      value: int = 0,  # pragma: no mutate
                      ) -> int:
    """PLUNGE-03, SPLASH-03: a special bid is a marks bid of its `marks`; PLUNGE-07: one
    that jumps bids one mark more over a marks bid of its own `marks` (5 over a 4);
    SPLASH-06: one that carries its marks bids `value`, the marks it carries. PLUNGE-09,
    SPLASH-08: one that raises bids the last marks bid (0 after none or a point bid) plus
    its marks (those it carries, with SPLASH-06)."""
    bid = next(bid for bid in rules.special_bids if bid.name == kind)
    if bid.raises:
        return last_marks + (value if bid.choices else bid.marks)  # PLUNGE-09, SPLASH-08
    if bid.choices:
        return value  # SPLASH-06
    if bid.jumps and last_marks == bid.marks:
        return last_marks + rules.marks_step  # PLUNGE-07
    return bid.marks  # PLUNGE-03, SPLASH-03


def carries_marks(rules: Rules, kind: str) -> bool:
    """SPLASH-06: a special bid written with its marks (`"splash": 2`), not `true`."""
    return any(bid.choices for bid in rules.special_bids if bid.name == kind)


def carried_marks(rules: Rules, kind: str, last_marks: int, marks: int) -> int:
    """SPLASH-06: the number a special bid of `marks` marks carries: its marks, or with
    SPLASH-08 (it raises) the marks it raises the last marks bid by."""
    raises = any(bid.raises for bid in rules.special_bids if bid.name == kind)
    return marks - last_marks if raises else marks


# ---- Suits (SUIT) and ranks (RANK) --------------------------------------------------


def is_trump(tile: int, trump: int | str) -> bool:
    """SUIT-01 (number trump: any tile showing it), SUIT-02 (doubles), SUIT-03 (none)."""
    a, b = PIPS[tile]
    if trump == "doubles":
        return a == b  # SUIT-02
    if trump == "none":  # pragma: no mutate
        return False  # SUIT-03
    return trump in (a, b)  # SUIT-01


def called_suit(lead: int, trump: int | str) -> int:
    """SUIT-04: a trump lead calls trumps; SUIT-05: otherwise the larger number is called
    (a non-trump double calls its own number)."""
    if is_trump(lead, trump):
        return TRUMP_SUIT  # SUIT-04
    return PIPS[lead][1]  # SUIT-05


def follows(tile: int, called: int, trump: int | str) -> bool:
    """SUIT-04: only trumps follow a trump lead; SUIT-06: a non-trump showing the called
    number follows it."""
    if called == TRUMP_SUIT:
        return is_trump(tile, trump)
    return not is_trump(tile, trump) and called in PIPS[tile]  # SUIT-06


def suit_rank(tile: int, suit: int) -> int:
    """RANK-03 (and RANK-05): in number suit `suit` the double is highest (7), the others
    rank by their other number."""
    a, b = PIPS[tile]
    if a == b:
        return 7
    return a if b == suit else b


def trump_rank(tile: int, trump: int | str) -> int:
    """RANK-04: trump doubles rank by their number; RANK-03: a number trump as a suit."""
    if trump == "doubles":
        return PIPS[tile][0]  # pragma: no mutate
    return suit_rank(tile, int(trump))


def trick_rank(tile: int, called: int, trump: int | str) -> int:
    """RANK-01: any trump beats every non-trump; RANK-02: otherwise a tile of the called
    suit ranks in it, and a tile that neither follows nor is a trump never wins (-1)."""
    if is_trump(tile, trump):
        return 8 + trump_rank(tile, trump)  # pragma: no mutate
    if follows(tile, called, trump):  # pragma: no mutate
        return suit_rank(tile, called)
    return -1  # pragma: no mutate


def counter_points(tile: int, counters: Mapping[str, int] = COUNTERS) -> int:
    """PTS-02: round points of a tile captured in a trick."""
    for name, points in counters.items():
        if TILE_INDEX[name] == tile:
            return points
    return 0


# ---- Bidding (BID) and declaration (CON) --------------------------------------------

Problem = tuple[str, str, str]  # (error code, rule ID, message)


class Bidding(NamedTuple):
    """What the checks of a bid look at besides the bid: the highest point bid and the
    last marks bid so far (0 when none), whether any seat has bid (passes do not count),
    whether this is the last bidder after three passes (the dealer, BID-01), and the
    bidder's doubles as a tile mask (PLUNGE-02 counts them; PTERMS-10 names one)."""

    high_points: int
    last_marks: int
    bid_made: bool
    dealer_after_passes: bool
    doubles: int


def point_bid_problem(rules: Rules, points: int, high_points: int, last_marks: int
                      ) -> Problem | None:
    """BID-02 range, then BID-07 (no point bid after a marks bid), then BID-03 (higher than
    every point bid so far); `high_points`/`last_marks` are 0 when there is none."""
    if points not in rules.point_bids:
        low, high = rules.point_bids[0], rules.point_bids[-1]
        rule = "BID-02" if rules.one_mark_points is None else "FORTYTWO-02"
        return ("POINT_BID_RANGE", rule, f"a point bid is {low}..{high}, not {points}")
    if last_marks and not rules.point_bid_after_marks:
        return ("BID_TOO_LOW", "BID-07", f"no point bid after a bid of {last_marks} marks")
    if points <= high_points:
        return ("BID_TOO_LOW", "BID-03", f"a point bid must be higher than {high_points}")
    return None


def marks_bid_problem(rules: Rules, marks: int, last_marks: int, high_points: int
                      ) -> Problem | None:
    """FORTYTWO-03: a point bid that ranks as 1 mark leaves 1 mark too low; BID-05: the
    first marks bid is 1 or 2; BID-06: each later one exactly one more."""
    if (not last_marks and marks == 1 and rules.one_mark_points is not None
            and high_points >= rules.one_mark_points):
        return ("BID_TOO_LOW", "FORTYTWO-03",
                f"a bid of {high_points} ranks with 1 mark: 1 mark is not higher")
    if not last_marks:
        if marks not in rules.first_marks_bids:
            allowed = " or ".join(map(str, rules.first_marks_bids))
            return ("MARKS_BID_STEP", "BID-05",
                    f"the first marks bid is {allowed} marks, not {marks}")
    elif marks - last_marks not in rules.marks_raises:
        allowed = " or ".join(str(last_marks + raised) for raised in rules.marks_raises)
        return ("MARKS_BID_STEP", rules.marks_raise_rule,
                f"after {last_marks} marks a marks bid is {allowed}, not {marks}")
    return None


def bid_problem(rules: Rules, kind: str, value: int, high_points: int, last_marks: int,
                bid_made: bool, dealer_after_passes: bool, doubles: int,
                announced: str | None = None) -> Problem | None:
    """A bid's checks in errors.yaml order; `kind` is "points", "marks" or a special bid
    of `rules.special_bids`; the rest are the fields of a Bidding. The dealer's bid after
    three passes is checked next (`rules.dealer_bid_problem`); a bid that announces a
    choice (`announced`, NELLO-14) last (`rules.announce_problem`)."""
    if kind == "points":
        problem = rules.point_bid_problem(rules, value, high_points, last_marks)
    elif kind == "marks":
        problem = rules.marks_bid_problem(rules, value, last_marks, high_points)
    else:  # a special bid an option adds: parse_action admits no other kind
        check = rules.special_bid_problem
        assert check is not None  # a special bid comes with its checks
        problem = check(rules, kind, value, last_marks, bid_made, doubles)
    if problem is None:
        problem = rules.dealer_bid_problem(
            rules,  # pragma: no mutate
            kind, value, dealer_after_passes)
    if problem is None and announced is not None:
        announce = rules.announce_problem
        assert announce is not None  # an announcement comes with its checks
        problem = announce(rules, kind, value, announced, dealer_after_passes)
    return problem


def dealer_may_pass(rules: Rules, kind: str | None, value: int | None,
                    dealer_after_passes: bool) -> Problem | None:
    """BID-09: the dealer after three passes may pass (four passes end the round) or bid,
    as each seat passes or bids (BID-01; FORCE-02, FORCE-03 are an option's). `kind`
    None: a pass. Asked of every pass and bid, so that whose bid is the dealer's after
    three passes is a decision on record too (the diagnosis can make it otherwise)."""
    return None


def bid_candidates(rules: Rules, state: Bidding) -> list[tuple[str, int]]:
    """Every bid that might be legal, in canonical order (actions.md): point bids by
    number, marks bids by number, the special bids in the order the options add them.
    `bid_problem` decides which are."""
    raises = rules.marks_raises
    marks = rules.first_marks_bids if not state.last_marks else tuple(
        state.last_marks + raised for raised in raises)  # BID-06 (RAISE-02: 1 or 2 more)
    return [*(("points", p) for p in rules.point_bids), *(("marks", m) for m in marks),
            *((bid.name, rules.bid_marks(rules, bid.name, state.last_marks, value))
              for bid in rules.special_bids for value in bid.choices or (0,))]


def legal_bids(rules: Rules, state: Bidding) -> list[tuple[str, int, str | None]]:
    """The bids `bid_problem` accepts, in canonical order: (kind, value, the choice the
    bid announces or None); an ordinary bid is followed by the bids announcing a choice
    of `rules.bid_announces` with it (NELLO-14)."""
    if not rules.bid_announces:  # the base game's bids announce nothing (the hot path)
        return [(kind, value, None) for kind, value in bid_candidates(rules, state)
                if bid_problem(rules, kind, value, *state) is None]
    return [(kind, value, announced) for kind, value in bid_candidates(rules, state)
            for announced in (None, *(rules.bid_announces if kind in ("points", "marks")
                                      else ()))
            if bid_problem(rules, kind, value, *state, announced) is None]


MISSING: Any = object()  # a `stacks` field that was not given


def declaration_problem(rules: Rules, contract: Contract, trump: Any, stacks: Any
                        ) -> Problem | None:
    """CON-01 trump choice (VAR-04: only the options in force add choices, UNDECL-02's
    "first_tile" and FOLLOWME-02's other name for none among them), then CON-03
    (no stacks on a point contract), CON-02 (a marks contract needs stacks 1 or 2), in the
    check order of errors.yaml. An option that limits its choice (TRUMP_NOT_ALLOWED) wraps
    this function and checks between the two."""
    if rules.canonical_trump(trump) is None:
        choices = ", ".join(map(str, rules.trumps))
        # CON-01, and VAR-04 for a choice only an option adds (not in force here)
        return ("INVALID_TRUMP", "CON-01", f"trump must be one of {choices}, not {trump!r}")
    if contract.kind == "points":
        if stacks is not MISSING:
            return ("STACKS_NOT_ALLOWED", "CON-03", "a point contract has no stacks choice")
        return None
    if stacks is MISSING:
        return ("STACKS_REQUIRED", "CON-02", "a marks contract must choose stacks 1 or 2")
    if stacks not in rules.stacks:
        return ("STACKS_INVALID", "CON-02", f"stacks must be 1 or 2, not {stacks}")
    return None


def bidding_order(dealer: int) -> tuple[int, ...]:
    """BID-01: each seat bids once, clockwise from the dealer's left, ending with the
    dealer."""
    return tuple((dealer + k) & 3 for k in (1, 2, 3, 4))


def dealer_bids_last(rules: Rules, dealer: int, hands: Hands) -> int:
    """BID-01: the dealer bids last (so the seat on the dealer's left bids first)."""
    return dealer


def won_contract(rules: Rules, bidder: int, high_points: int, last_marks: int,
                 special: bool, after_passes: bool) -> Contract:
    """BID-08: the highest bid wins (BID-04: a marks bid outranks every point bid); the
    bidder declares (CON-01), except after a special bid (PLUNGE-04: the partner).
    `after_passes`: the winning bid was the dealer's after three passes (in the base game
    a bid like any other; FORCE-05 makes it a compelled contract)."""
    declarer = (bidder + 2) & 3 if special else bidder  # pragma: no mutate
    kind = "marks" if last_marks else "points"
    return Contract(declarer, rules.team_of(declarer), kind, last_marks or high_points, None, None,
                    special)


def declared(rules: Rules, contract: Contract, trump: Any, stacks: Any) -> Contract:
    """CON-04: the contract with its trump (FOLLOWME-02: an alias is recorded as the
    choice it names) and its stacks (CON-02; none on a point contract, CON-03)."""
    declarer, team, kind, value, _, _, partner_declares, compelled, doubles, *named = contract
    return Contract(declarer, team, kind, value, rules.canonical_trump(trump),
                    None if stacks is MISSING else stacks, partner_declares, compelled,
                    doubles,  # pragma: no mutate
                    *named,  # pragma: no mutate
                    )


def nobody_sits_out(rules: Rules, contract: Contract) -> int | None:
    """PLAY-02: all four seats play every trick (NELLO-03 is the exception)."""
    return None


def declarer_leads(rules: Rules, contract: Contract, dealer: int) -> int:
    """PLAY-01: the declarer leads the first trick."""
    return contract.declarer


def trump_as_declared(rules: Rules, contract: Contract, lead: int) -> int | str | None:
    """CON-04: the first lead plays under the declared trump (UNDECL-03 is the
    exception: there the first tile sets it)."""
    return contract.trump


def first_highest(rules: Rules, contract: Contract, ranks: list[int], seats: tuple[int, ...]
                  ) -> int:
    """RANK-01..RANK-05: the play of the highest rank wins the trick (ranks never tie
    but in an option's suits, where the first played wins); its index in play order."""
    return ranks.index(max(ranks))


def winner_leads(rules: Rules, contract: Contract, leader: int, winner: int) -> int:
    """PLAY-03: the winner of a trick leads the next."""
    return winner


def dealer_on_left(rules: Rules, dealer: int, result: RoundResult | None) -> int:
    """DEAL-05: the deal passes to the left after every round, four passes included."""
    return (dealer + 1) & 3


# ---- Outcome (END), stakes (SCORE) and the match (MATCH) -----------------------------


def contract_outcome(rules: Rules, contract: Contract, points: list[int],
                     tricks_won: list[int]) -> str | None:
    """END-01..END-04, checked after each completed trick (END-05): "made", "set" or
    None while undecided. `points`/`tricks_won` are indexed by team."""
    bidders, defenders = contract.team, 1 - contract.team
    if contract.kind == "marks":
        if tricks_won[defenders]:
            return "set"  # END-04: the first trick the defenders win
        if tricks_won[bidders] == 7:
            return "made"  # END-03
        return None
    if points[bidders] >= contract.value:
        return "made"  # END-01
    if points[defenders] > rules.round_points - contract.value:
        return "set"  # END-02
    return None


def contract_stake(rules: Rules, contract: Contract) -> int:
    """SCORE-01: 1 mark for a point contract, n marks for a marks bid of n."""
    return contract.value if contract.kind == "marks" else 1


def marks_score(rules: Rules, contract: Contract, outcome: str, points: list[int]
                ) -> tuple[int, list[int]]:
    """SCORE-02: the stake goes to the bidding team if made, to the defenders if set.
    Returns the team the result names and what each team adds to its match score."""
    team = contract.team if outcome == "made" else 1 - contract.team
    gains = [0, 0]
    gains[team] = rules.stake(rules, contract)  # pragma: no mutate
    return team, gains


def match_winner(rules: Rules, marks: list[int]) -> int | None:
    """MATCH-01, MATCH-02: the team with `marks_target` or more marks wins (only one team
    scores in a round, so at most one can reach it first)."""
    for team, team_marks in enumerate(marks):
        if team_marks >= rules.marks_target:
            return team
    return None


def winner_after_round(rules: Rules, marks: list[int], bidders: int | None) -> int | None:
    """MATCH-01 (`rules.match_winner`); MPTS-08: when both teams reach the target in one
    round, which only MPTS-04 allows, the bidding team wins."""
    target = rules.marks_target
    if marks[0] >= target and marks[1] >= target and bidders is not None:
        return bidders
    return rules.match_winner(rules, marks)


def suit_key(trump: int | str, treatment: str | None) -> int | str:
    """The key of the suit functions and tables a contract plays by: its trump, or, when
    its declaration named the doubles (NELLO-13, NOTRUMP-05), "<trump>/<doubles>"."""
    return trump if treatment is None else f"{trump}/{treatment}"


# ---- The configuration -------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The parameters and the table of rule functions of one game (the base game by
    default). A variant option (spec/variants.md) is a `Rules` with some of these changed;
    `variants.py` resolves a setup's options into one. Each function takes `rules` first,
    except the suit functions (called per tile when the tables are built) and team_of."""

    # ---- parameters
    point_bids: range = range(30, 42)  # BID-02: 30..41 (FORTYTWO-02: 30..42)
    first_marks_bids: tuple[int, ...] = (1, 2)  # BID-05
    marks_step: int = 1  # BID-06 (PLUNGE-07: a jump over its own marks is one more)
    marks_raises: tuple[int, ...] = (1,)  # BID-06: a later marks bid's raise (RAISE-02: 1, 2)
    marks_raise_rule: str = "BID-06"  # the rule of that raise
    point_bid_after_marks: bool = False  # BID-07
    one_mark_points: int | None = None  # FORTYTWO-03: the point bid that ranks as 1 mark
    # the bids of their own that options add, in canonical order (PLUNGE-02, SPLASH-05)
    special_bids: tuple[SpecialBid, ...] = ()
    trumps: tuple[int | str, ...] = TRUMP_CHOICES  # CON-01 (+ the options' choices)
    trump_aliases: tuple[tuple[str, int | str], ...] = ()  # FOLLOWME-02
    bid_announces: tuple[str, ...] = ()  # NELLO-14: the choices a bid may announce
    forced_only_choices: tuple[str, ...] = ()  # FORCE-06: only on a forced contract
    # the choices whose declaration names the doubles: (choice, the values it may name in
    # canonical order, the rule ID), NELLO-13, NOTRUMP-05; played under suit_key
    treatments: tuple[tuple[int | str, tuple[str, ...], str], ...] = ()
    stacks: tuple[int, ...] = (1, 2)  # CON-02
    must_follow: bool = True  # PLAY-05: a seat that can follow must (PLAY-06: else any tile)
    trick_point: int = 1  # PTS-01: a trick is worth 1 round point besides its counters
    counters: tuple[tuple[str, int], ...] = tuple(COUNTERS.items())  # PTS-02
    marks_range: range = range(0, 7)  # SCORE-03: starting marks a setup may give
    marks_target: int = 7  # MATCH-01
    end_when_decided: bool = True  # END-05 (MPTS-09 "play_out": play every trick)
    points_ladder: bool = False  # MPTS-10: marks bids worth 42 * 2^(n - 1), not 42 n
    all_or_nothing: bool = False  # MPTS-11: a set contract of 42 or more: its value only
    draws: bool = False  # DRAW-04: a setup may give `draws` instead of `dealer`
    # ---- the rule table: the team of a seat (TBL-02), read when a trick or a contract
    # is credited to a team
    team_of: Callable[[int], int] = field(default=team_of)
    # ---- the rule table: suits and ranks, per tile (SUIT, RANK)
    called_suit: Callable[[int, Any], int] = field(default=called_suit)
    follows: Callable[[int, int, Any], bool] = field(default=follows)
    trick_rank: Callable[[int, int, Any], int] = field(default=trick_rank)
    # ---- bidding (BID; FORCE, PLUNGE, SPLASH through the options)
    bidding_order: Callable[[int], tuple[int, ...]] = field(default=bidding_order)
    # (rules, dealer, the dealt hands) -> the seat that bids last: bidding_order's argument
    # (BID-01: the dealer; FIRST-02: the seat right of the holder of 0|1)
    last_bidder: Callable[[Rules, int, Hands], int] = field(default=dealer_bids_last)
    # (rules, points, high_points, last_marks)
    point_bid_problem: Callable[[Rules, int, int, int], Problem | None] = field(
        default=point_bid_problem)
    # (rules, marks, last_marks, high_points)
    marks_bid_problem: Callable[[Rules, int, int, int], Problem | None] = field(
        default=marks_bid_problem)
    # the marks a special bid carries: (rules, kind, last_marks, the marks written)
    bid_marks: Callable[[Rules, str, int, int], int] = field(default=special_bid_marks)
    # the checks of a special bid: (rules, kind, marks, last_marks, bid_made, doubles mask);
    # no default, since the base game has none
    special_bid_problem: Callable[[Rules, str, int, int, bool, int], Problem | None] | None = (
        None)
    # a bid that announces a choice (NELLO-14): (rules, kind, value, the choice,
    # dealer_after_passes); no default, since the base game's bids announce nothing
    announce_problem: Callable[[Rules, str, int, str, bool], Problem | None] | None = None
    # a pass (kind None) or bid, and whether its seat is the dealer after three passes:
    # (rules, kind, value, dealer_after_passes)
    dealer_bid_problem: Callable[[Rules, str | None, int | None, bool], Problem | None] = field(
        default=dealer_may_pass)
    # (rules, bidder, high_points, last_marks, special, after_passes)
    won_contract: Callable[[Rules, int, int, int, bool, bool], Contract] = field(
        default=won_contract)
    # ---- declaring (CON): (rules, contract, trump, stacks), both as the action gave them
    declaration_problem: Callable[[Rules, Contract, Any, Any], Problem | None] = field(
        default=declaration_problem)
    declared: Callable[[Rules, Contract, Any, Any], Contract] = field(default=declared)
    # the doubles a declaration names: (rules, contract, trump, doubles as given or
    # MISSING); no default, since the base game's declaration names none (a `doubles`
    # field is malformed without a `treatments` entry)
    treatment_problem: Callable[[Rules, Contract, Any, Any], Problem | None] | None = None
    # ---- play (PLAY, RANK, PTS); `duty`: a duty besides following (SEVENS-04), or none
    sitting_out: Callable[[Rules, Contract], int | None] = field(default=nobody_sits_out)
    first_leader: Callable[[Rules, Contract, int], int] = field(default=declarer_leads)
    # (rules, contract, first tile led) -> the trump it is played under
    trump_after_lead: Callable[[Rules, Contract, int], int | str | None] = field(
        default=trump_as_declared)
    # (rules, contract, trick, playable mask) -> the playable mask
    duty: Callable[[Rules, Contract, list[int], int], int] | None = None
    duty_problem: tuple[str, str] = ("MUST_FOLLOW", "PLAY-05")  # the code of a duty broken
    # (rules, contract, ranks, seats in play order) -> index of the winning play
    trick_winner: Callable[[Rules, Contract, list[int], tuple[int, ...]], int] = field(
        default=first_highest)
    # (rules, contract, leader, winner) -> next leader
    next_leader: Callable[[Rules, Contract, int, int], int] = field(default=winner_leads)
    # ---- the round's end, stakes, the match, the deal (END, SCORE, MATCH, DEAL)
    # (rules, contract, points by team, tricks won by team) -> "made", "set" or None
    outcome: Callable[[Rules, Contract, list[int], list[int]], str | None] = field(
        default=contract_outcome)
    stake: Callable[[Rules, Contract], int] = field(default=contract_stake)
    # (rules, contract, outcome, points by team) -> (team named, gains by team)
    score: Callable[[Rules, Contract, str, list[int]], tuple[int, list[int]]] = field(
        default=marks_score)
    match_winner: Callable[[Rules, list[int]], int | None] = field(default=match_winner)
    # (rules, dealer, the last round's result) -> the next dealer
    next_dealer: Callable[[Rules, int, RoundResult | None], int] = field(
        default=dealer_on_left)
    deal_order: Callable[[list[int], int], Hands] = field(default=deal_order)  # DEAL-02

    @cached_property
    def round_points(self) -> int:
        """PTS-03: 7 trick points plus the counters (42)."""
        return 7 * self.trick_point + sum(points for _, points in self.counters)

    @cached_property
    def suit_keys(self) -> tuple[int | str, ...]:
        """The keys the suit tables are built for: every trump choice, and for a choice
        whose declaration names the doubles, one key per value (suit_key)."""
        return self.trumps + tuple(suit_key(choice, value) for choice, values, _ in
                                   self.treatments for value in values)

    @cached_property
    def _trump_names(self) -> dict[Any, int | str]:
        return {**{trump: trump for trump in self.trumps}, **dict(self.trump_aliases)}

    def canonical_trump(self, trump: int | str) -> int | str | None:
        """The choice `trump` names (FOLLOWME-02: an alias names another), or None when it
        is not a choice of this game (CON-01, VAR-04)."""
        return self._trump_names.get(trump)


BASE_RULES = Rules()
