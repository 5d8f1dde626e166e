"""The match state and the rules that move it: legal_actions() and apply().

A `Match` keeps the match-level facts (rules, round number, dealer, marks) and the detail
of the current round only, so copying it or applying an action costs the same in round 1
and round 100. What a seat may see is not here: `views.py` builds it from the state.

The rules come from one object, `self.rules` (`rules.Rules`): its parameters and its
table of named rule functions, which this module calls at each step of the game and
never bypasses. That table is the engine's one extension point: the variant options and
the planted bugs change the game only through it. State fields without a leading
underscore are read by `views.py`; nothing outside this module writes them. Tiles and
seats are ints (`tiles.py`); the JSON forms appear only at the edges (parsing an action,
building a view).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import views
from .actions import (
    ORDINARY_BIDS,
    PASSES,
    PLAY_CHUNKS,
    PLAYS,
    SEAT_AND_TILE,
    action_from_key,
    action_key,
    bid_action,
    parse_action,
    trump_action,
)
from .dealing import draw_first_dealer
from .errors import IllegalAction
from .rules import (
    ALL_PASSED,
    MISSING,
    Bidding,
    Contract,
    RoundResult,
    Rules,
    Trick,
    bid_problem,
    carries_marks,
    suit_key,
    winner_after_round,
)
from .setup import Hands, invalid, parse_deal, parse_setup
from .tables import Tables, tables_for
from .tiles import (
    BITS,
    NAMES,
    NEXT_SEATS,
    NOBODY,
    PIPS,
    PLAY_ORDERS,
    SEAT_INDEX,
    SEATS,
    TEAMS,
    mask_of,
)
from .variants import rules_for

BIT_OF = BITS.__getitem__
DOUBLES = mask_of([t for t, (a, b) in enumerate(PIPS) if a == b])  # PLUNGE-02

BIDDING, DECLARING, PLAYING = "bidding", "declaring", "playing"
ROUND_OVER, MATCH_OVER = "round_over", "match_over"
# The phase that accepts each kind of action (BID-10, CON-04, DIG-02; PLAY-08: no pass in
# play). These four kinds are all there is (DIG-05: no claim, undo or reordering).
PHASE_OF_KIND = {"pass": BIDDING, "bid": BIDDING, "trump": DECLARING, "play": PLAYING}
JSON_FORMAT = "texas42-match/1"


class Match:
    """A Texas 42 match: `phase`, `to_act`, `legal_actions()`, `apply()`, views."""

    __slots__ = (
        # match level
        "rules", "variants", "round", "dealer", "start_marks", "marks", "winner",
        # the current round
        "dealt", "phase", "to_act", "_seat", "_bidders",  # to_act is SEATS[_seat], or None
        "masks", "history",  # hands: derived from dealt and masks (the property below)
        "high_points", "last_marks", "high_bidder", "special_bid", "announced", "contract",
        "sitting_out",
        "trick", "leader", "called", "tricks", "points", "tricks_won", "decided", "result",
        # tables of the declared trump (derived from rules + contract)
        "_tables", "_called_of", "_follow", "_rank", "_counters",
        # who plays a trick, in which order (rules.sitting_out); rules.duty, read per play
        "_orders", "_next", "_duty",
    )
    # The slots' types, as the phases that read them see them: `contract` is None until
    # bidding ends and `_seat` once the round is over, but nothing reads them then (views
    # test the contract for None); the ones of play (`leader`, `called`, the trump's
    # tables) are set by the declaration, before any read.
    rules: Rules
    variants: dict
    round: int
    dealer: int
    start_marks: tuple[int, ...]
    marks: list[int]
    winner: int | None
    dealt: Hands
    phase: str
    to_act: str | None
    _seat: int
    _bidders: tuple[int, ...]
    masks: list[int]
    history: list[dict]
    high_points: int
    last_marks: int
    high_bidder: int | None
    special_bid: bool
    announced: str | None  # the choice the highest bid announced (NELLO-14)
    contract: Contract
    sitting_out: int | None
    trick: list[int]
    leader: int
    called: int
    # plain tuples of a Trick's fields: building a named tuple per trick costs 1.5% of a
    # round (tools/bench_compare.py); `completed_tricks` names them
    tricks: list[tuple[int, tuple[int, ...], int, int]]
    points: list[int]
    tricks_won: list[int]
    decided: str | None
    result: RoundResult | None
    _tables: Tables
    _called_of: tuple[int, ...]
    _follow: tuple[int, ...]
    _rank: tuple[tuple[int, ...], ...]
    _counters: tuple[int, ...]
    _orders: tuple[tuple[int, ...], ...]
    _next: tuple[int, ...]
    _duty: Callable[[Rules, Contract, list[int], int], int] | None

    # ---- construction ------------------------------------------------------------

    @classmethod
    def start(cls, setup: dict, rules: Rules | None = None) -> Match:
        """A new match from a setup (spec/actions.md); INVALID_SETUP if it is not valid.

        `rules`, when given, replaces the Rules that the setup's `variants` make (planted
        engines, experiments); the `variants` are still checked and recorded."""
        if type(setup) is not dict:
            raise invalid("a setup must be an object")
        variants = setup.get("variants", {})
        own = rules_for(variants)  # INVALID_SETUP for options that are not valid (VAR-01)
        rules = own if rules is None else rules  # pragma: no mutate
        dealer, marks, hands = parse_setup(setup, rules)
        match = cls.__new__(cls)
        match.rules, match.variants, match._tables = rules, dict(variants), tables_for(rules)
        match.round, match.dealer, match.winner = 1, dealer, None
        match.start_marks, match.marks = marks, list(marks)
        match._begin_round(hands)
        return match

    @classmethod
    def from_seed(cls, seed: Any, dealer: str | None = None,
                  variants: dict | None = None) -> Match:
        """A match with a deal shuffled by `random.Random(seed)` (DEAL-06); the first dealer
        is drawn from the same generator when not given (DEAL-04; DRAW-03 under deal_by_drawing)."""
        rng = random.Random(seed)
        variants = {} if variants is None else variants
        if dealer is None:
            drawing = rules_for(variants).draws
            dealer = SEATS[draw_first_dealer(rng) if drawing else rng.randrange(4)]
        order = list(NAMES)
        rng.shuffle(order)
        setup: dict[str, Any] = {"dealer": dealer, "order": order}
        if variants:
            setup["variants"] = variants
        return cls.start(setup)

    def deal(self, deal: dict) -> None:
        """Start the next round, dealt by the seat left of the last dealer (DEAL-05).

        Check order per errors.yaml: INVALID_SETUP before WRONG_PHASE."""
        dealer = self.rules.next_dealer(  # DEAL-05
            self.rules,  # pragma: no mutate
            self.dealer,
            self.result,  # pragma: no mutate
        )
        hands = parse_deal(deal, dealer, self.rules)
        if self.phase != ROUND_OVER:
            rule = "MATCH-01" if self.phase == MATCH_OVER else "MATCH-03"
            raise IllegalAction("WRONG_PHASE", rule,
                                f"a deal is accepted only in round_over, not {self.phase}")
        self.dealer, self.round, self.start_marks = dealer, self.round + 1, tuple(self.marks)
        self._begin_round(hands)

    @property
    def hands(self) -> list[list[int]]:
        """Each seat's tiles in hand, in the order dealt (DEAL-03: a play keeps the order of
        the rest): the dealt hands less the tiles played."""
        masks = self.masks
        return [[t for t in hand if masks[s] >> t & 1] for s, hand in enumerate(self.dealt)]

    def _begin_round(self, hands: Hands) -> None:
        self.dealt = hands
        self.masks = [sum(map(BIT_OF, hand)) for hand in hands]  # mask_of, inlined
        self.phase = BIDDING
        self._bidders = self._tables.bidding_orders[  # BID-01
            self.rules.last_bidder(
                self.rules,  # pragma: no mutate
                self.dealer, hands)]
        self._seat = self._bidders[0]
        self.to_act = SEATS[self._seat]
        self.history = []
        self.high_points = self.last_marks = 0
        self.high_bidder = self.contract = self.result = self.decided = None  # type: ignore
        self.special_bid = False  # pragma: no mutate
        self.announced = None  # pragma: no mutate
        # unset until the declaration, which sets them before any read
        self.trick, self.leader, self.called = [], None, None  # type: ignore[assignment]
        self.tricks = []
        self.points, self.tricks_won = [0, 0], [0, 0]
        unset: Any = None  # pragma: no mutate
        self._called_of = self._follow = self._rank = self._counters = unset  # pragma: no mutate
        self.sitting_out = self._duty = None  # pragma: no mutate
        self._orders, self._next = PLAY_ORDERS[NOBODY], NEXT_SEATS[NOBODY]

    # ---- the tiny API ------------------------------------------------------------

    def legal_actions(self) -> list[dict]:
        """The actions the seat to act may take, unique, in canonical order (actions.md).

        The dicts are shared and reused: callers MUST NOT mutate them."""
        phase, seat = self.phase, self._seat
        if phase == PLAYING:
            mask = self.masks[seat]
            # PLAY-05, PLAY-06: follow if able, else any tile (PLAY-04: a lead is free)
            if self.trick:
                following = mask & self._follow[self.called]
                if following:
                    mask = following
            if self._duty is not None:  # a duty besides following (SEVENS-04)
                mask = self._duty(
                    self.rules,  # pragma: no mutate
                    self.contract,
                    self.trick,  # pragma: no mutate
                    mask,
                )
            c0, c1, c2, c3 = PLAY_CHUNKS[seat]  # the plays of `mask`, in tile order
            return [*c0[mask & 127], *c1[mask >> 7 & 127], *c2[mask >> 14 & 127],
                    *c3[mask >> 21]]
        if phase == BIDDING:
            tables = self._tables
            if tables.plain_bidding:  # no option in force reads more than the high bids
                return list(tables.plain_bidding_actions(seat, self.high_points,
                                                         self.last_marks))
            return list(tables.bidding(seat, self._bidding(seat)))
        if phase == DECLARING:
            return list(self._tables.declaring(seat, self.contract))
        return []

    def apply(self, action: dict) -> None:
        """Apply a legal action, or raise IllegalAction having changed nothing (DIG-03).

        Checks run in the order of errors.yaml: form, phase, seat, then the kind's own."""
        # pragma: no mutate start
        if type(action) is dict and len(action) == 3:
            # Fast paths for the commonest actions: one lookup parses a well-formed play; a
            # point or marks bid is its seat and one integer. Anything else: parse_action.
            try:
                kind = action["type"]
                if kind == "play":
                    seat, tile = SEAT_AND_TILE[action["seat"], action["tile"]]
                elif kind == "bid":
                    bid_kind = "points" if "points" in action else "marks"
                    seat, value = SEAT_INDEX[action["seat"]], action[bid_kind]
                    if type(value) is not int:
                        kind = None
            except (KeyError, TypeError):
                kind = None
            if kind == "play":
                if self.phase != PLAYING or seat != self._seat:
                    raise self._out_of_turn("play", seat)
                self._play(seat, tile)
                return
            if kind == "bid":
                if self.phase != BIDDING or seat != self._seat:
                    raise self._out_of_turn("bid", seat)
                self._bid(seat, bid_kind, value)
                return
        elif type(action) is dict and len(action) == 2 and action.get("type") == "pass":
            # A pass has only its seat.
            name = action.get("seat")
            if type(name) is str and name in SEAT_INDEX:
                seat = SEAT_INDEX[name]
                if self.phase != BIDDING or seat != self._seat:
                    raise self._out_of_turn("pass", seat)
                self._pass(seat)
                return
        # pragma: no mutate end
        kind, seat, what, value, named = parse_action(action, self.rules)
        if self.phase != PHASE_OF_KIND[kind] or seat != self._seat:
            raise self._out_of_turn(kind, seat)
        if kind == "play":  # pragma: no mutate
            self._play(seat, what)  # pragma: no mutate
        elif kind == "bid":
            self._bid(seat, what, value, named)
        elif kind == "pass":  # pragma: no mutate
            self._pass(seat)  # pragma: no mutate
        else:
            self._declare(seat, what, value, named)

    @property
    def seat(self) -> int:
        """The index of the seat to act (0..3 for A..D) while the round is played."""
        return self._seat

    @property
    def last_to_bid(self) -> int:
        """The index of the seat that bids last this round (BID-01: the dealer)."""
        return self._bidders[3]

    @property
    def completed_tricks(self) -> list[Trick]:
        """The round's completed tricks, in order (PLAY-03)."""
        return [Trick._make(trick) for trick in self.tricks]

    @property
    def bids(self) -> list[dict]:
        """The round's bids and passes so far: its first turns, one per seat in
        `rules.bidding_order` (BID-01)."""
        return self.history[:len(self._bidders)]

    def view(self) -> dict:
        """The referee view (spec/observation.md)."""
        return views.referee_view(self)

    def observe(self, seat: str) -> dict:
        """What `seat` may see (spec/observation.md, VIS-01..VIS-10)."""
        return views.seat_observation(self, seat)

    # ---- bidding (BID) -----------------------------------------------------------

    def _bidding(self, seat: int) -> Bidding:
        """What a bid's checks look at besides the bid; the bidder's doubles are counted
        only where a special bid exists (PLUNGE-02)."""
        bid_made = self.high_bidder is not None
        # pragma: no mutate start
        doubles = self.masks[seat] & DOUBLES if self.rules.special_bids else 0
        # pragma: no mutate end
        return Bidding(self.high_points, self.last_marks, bid_made,
                       seat == self._bidders[3] and not bid_made, doubles)

    def _bid(self, seat: int, kind: str, value: int, announced: str | None = None) -> None:
        bid_made = self.high_bidder is not None
        written = value  # SPLASH-06: the marks a splash carries, kept as made (SPLASH-08)
        if kind not in ORDINARY_BIDS:  # PLUNGE-07: a plunge's marks depend on the bids
            value = self.rules.bid_marks(self.rules, kind, self.last_marks, value)
        # pragma: no mutate start
        doubles = self.masks[seat] & DOUBLES if kind not in ORDINARY_BIDS else 0
        # pragma: no mutate end
        # FORCE-02, FORCE-05: the last bidder (the dealer, BID-01; FIRST-04: the seat right
        # of the holder of 0|1) after three passes
        after_passes = seat == self._bidders[3] and not bid_made
        problem = bid_problem(self.rules, kind, value, self.high_points, self.last_marks,
                              bid_made, after_passes, doubles, announced)
        if problem:
            raise IllegalAction(*problem)
        if kind == "points":
            self.high_points = value
        else:
            self.last_marks = value  # a special bid is a marks bid (PLUNGE-03)
        self.special_bid = kind not in ORDINARY_BIDS  # PLUNGE-04, SPLASH-04: the partner declares
        self.high_bidder = seat  # BID-08: every accepted bid outranks the ones before it
        self.announced = announced  # NELLO-14: what the highest bid announced
        carries = kind not in ORDINARY_BIDS and carries_marks(self.rules, kind)  # SPLASH-06
        self.history.append(bid_action(seat, kind, written, carries, announced))
        self._after_bidding_turn(seat, after_passes)

    def _pass(self, seat: int) -> None:
        problem = self.rules.dealer_bid_problem(
            self.rules,  # pragma: no mutate
            None, None,
            seat == self._bidders[3] and self.high_bidder is None)  # three passes (FORCE-02)
        if problem:
            raise IllegalAction(*problem)
        self.history.append(PASSES[seat])
        self._after_bidding_turn(seat)

    def _after_bidding_turn(self, seat: int, after_passes: bool = False) -> None:
        """BID-01: once around the table in `rules.bidding_order`; then BID-08 (the winning
        bid's contract, `rules.won_contract`) or BID-09 (four passes). `after_passes`: this
        was the dealer's bid after three passes (the dealer bids last, so it wins)."""
        order = self._bidders
        if seat != order[3]:
            self._seat = seat = order[order.index(seat) + 1]
            self.to_act = SEATS[seat]
        elif self.high_bidder is None:
            self._end_round(ALL_PASSED)  # BID-09
        else:
            rules = self.rules
            contract = rules.won_contract(
                rules,  # pragma: no mutate
                self.high_bidder, self.high_points, self.last_marks, self.special_bid,
                after_passes)
            declarer = contract.declarer
            # The fields won_contract decides (declarer .. compelled), then the doubles of the
            # winner of the bidding (PTERMS-07: a declared plunge needs them), no doubles
            # named yet (NELLO-13: the declaration names them) and the choice the winning bid
            # announced (NELLO-15). Built whole: `_replace` costs twice a construction, 2% of
            # a round (tools/bench_compare.py).
            self.contract = contract = Contract(
                *contract[:8], self.masks[declarer] & DOUBLES, None, self.announced)
            self.phase, self._seat, self.to_act = DECLARING, declarer, SEATS[declarer]  # CON-01

    # ---- declaration (CON) -------------------------------------------------------

    def _declare(self, seat: int, trump: Any, stacks: Any, named: Any = MISSING) -> None:
        rules = self.rules
        problem = rules.declaration_problem(rules, self.contract, trump, stacks)
        if problem is None and rules.treatment_problem is not None:  # NELLO-13, NOTRUMP-05
            problem = rules.treatment_problem(
                rules,
                self.contract,  # pragma: no mutate
                trump, named)
        if problem:
            raise IllegalAction(*problem)
        contract = rules.declared(rules, self.contract, trump, stacks)  # CON-04
        if named is not MISSING:  # the doubles the declaration named (NELLO-13)
            contract = contract._replace(treatment=named)
        self.contract = contract
        if contract.trump is None:  # PTERMS-08: a choice that hands the declaration on
            self.history.append(trump_action(seat, rules.canonical_trump(trump), None))
            self._seat = contract.declarer
            self.to_act = SEATS[self._seat]
            return
        self.history.append(trump_action(seat, contract.trump, contract.stacks,
                                         contract.treatment))
        self._use_trump(suit_key(contract.trump, contract.treatment))
        out = self.sitting_out = rules.sitting_out(  # NELLO-03
            rules,  # pragma: no mutate
            contract)
        self._orders = PLAY_ORDERS[NOBODY if out is None else out]  # NELLO-04, NELLO-09
        self._next = NEXT_SEATS[NOBODY if out is None else out]
        self._duty = rules.duty
        self.phase = PLAYING
        self.leader = self._seat = rules.first_leader(  # PLAY-01
            rules,  # pragma: no mutate
            contract,
            self.dealer,  # pragma: no mutate
        )
        self.to_act = SEATS[self._seat]

    def _use_trump(self, trump: Any) -> None:
        """Play by the tables of `trump` (its index in rules.suit_keys: a trump, or a
        trump with the doubles its declaration named, NELLO-13)."""
        tables, index = self._tables, self.rules.suit_keys.index(trump)
        follow = tables.follow[index]
        # PLAY-05 read once per trump, not per play: without the duty nothing follows
        self._called_of, self._follow = tables.called[index], (
            follow if self.rules.must_follow else (0,) * len(follow))
        self._rank, self._counters = tables.rank[index], tables.counters

    # ---- play (PLAY, RANK, PTS, END) ---------------------------------------------

    def _play(self, seat: int, tile: int) -> None:
        bit, hand = 1 << tile, self.masks[seat]
        if not hand & bit:
            raise IllegalAction("TILE_NOT_IN_HAND", "PLAY-07",
                                f"{SEATS[seat]} does not hold {NAMES[tile]}")
        trick = self.trick
        if trick:
            following = hand & self._follow[self.called]
            if following and not following & bit:
                raise IllegalAction("MUST_FOLLOW", "PLAY-05",
                                    f"{SEATS[seat]} holds a tile that follows and must "
                                    f"play one, not {NAMES[tile]}")
        if self._duty is not None:  # a duty besides following (SEVENS-04)
            playable = following if trick and following else hand  # pragma: no mutate
            if not self._duty(
                    self.rules,  # pragma: no mutate
                    self.contract,
                    trick,  # pragma: no mutate
                    playable) & bit:
                code, rule = self.rules.duty_problem
                raise IllegalAction(code, rule, f"{SEATS[seat]} may not play {NAMES[tile]} "
                                    "here: a duty besides following")
        if not trick:  # SUIT-04, SUIT-05: the lead calls a suit
            if not self.tricks:  # the first lead plays under the declared trump (UNDECL-03)
                self._first_lead(tile)
            self.called = self._called_of[tile]
        self.masks[seat] = hand ^ bit
        self.history.append(PLAYS[seat][tile])
        trick.append(tile)
        seat = self._next[seat]  # PLAY-02: clockwise (NELLO-04: passing over the partner)
        if seat != self.leader:
            self._seat = seat
            self.to_act = SEATS[seat]
        else:  # back at the leader: the trick is complete (four tiles, NELLO-04: three)
            self._complete_trick()

    def _first_lead(self, tile: int) -> None:
        """UNDECL-03: `rules.trump_after_lead` may set trump by the first tile (UNDECL-04:
        until then the contract's trump is the choice declared)."""
        contract = self.contract
        trump = self.rules.trump_after_lead(
            self.rules,  # pragma: no mutate
            contract, tile)
        if trump != contract.trump:
            self.contract = contract._replace(trump=trump)
            self._use_trump(trump)

    def _complete_trick(self) -> None:
        """The game computes the trick's winner, points and the outcome (DIG-04)."""
        rules, trick = self.rules, self.trick
        rank, counters = self._rank[self.called], self._counters
        points, ranks = rules.trick_point, []  # PTS-01: a trick is worth 1 round point
        for tile in trick:  # one loop: the hot path of every trick
            points += counters[tile]  # PTS-02: and its counters
            ranks.append(rank[tile])
        seats = self._orders[self.leader]
        # RANK-01..RANK-05: the highest rank wins (SEVENS-05: ties)
        winner = seats[rules.trick_winner(
            rules,  # pragma: no mutate
            self.contract, ranks, seats,
        )]
        team = rules.team_of(winner)  # TBL-02: the winner's team takes the trick
        self.points[team] += points
        self.tricks_won[team] += 1
        self.tricks.append((self.leader, tuple(trick), winner, points))  # a Trick's fields
        self.trick = []
        outcome = rules.outcome(rules, self.contract, self.points, self.tricks_won)
        if outcome:  # END-05: checked when a trick completes
            if rules.end_when_decided or len(self.tricks) == 7:
                self._end_round(self.decided or outcome)
                return
            # MPTS-09 "play_out": decided now, played out
            if self.decided is None:  # pragma: no mutate
                self.decided = outcome  # pragma: no mutate
        self.leader = self._seat = rules.next_leader(  # PLAY-03
            rules,  # pragma: no mutate
            self.contract,  # pragma: no mutate
            self.leader,  # pragma: no mutate
            winner,
        )
        self.to_act = SEATS[self._seat]

    def _end_round(self, outcome: str) -> None:
        """SCORE-01, SCORE-02 (MPTS-04..MPTS-07): score the round; MATCH-01 (MPTS-08): the
        match may be over."""
        bidders = None  # pragma: no mutate
        if outcome == ALL_PASSED:
            self.result = RoundResult(outcome, None, 0)  # BID-09, SCORE-02: nothing awarded
        else:
            bidders = self.contract.team
            team, gains = self.rules.score(self.rules, self.contract, outcome, self.points)
            self.marks[0] += gains[0]
            self.marks[1] += gains[1]
            self.result = RoundResult(outcome, team, gains[team])
        self.winner = winner_after_round(self.rules, self.marks, bidders)
        self.phase = ROUND_OVER if self.winner is None else MATCH_OVER
        self._seat = self.to_act = None  # type: ignore[assignment]

    def _out_of_turn(self, kind: str, seat: int) -> IllegalAction:
        """WRONG_PHASE if the phase does not take this kind of action (DIG-02, BID-10,
        CON-04, END-06), else NOT_YOUR_TURN (DIG-02)."""
        if self.phase == PHASE_OF_KIND[kind]:
            return IllegalAction("NOT_YOUR_TURN", "DIG-02",
                                 f"{SEATS[seat]} acted but {self.to_act} is to act")
        if self.phase in (ROUND_OVER, MATCH_OVER):
            rule = "END-06"
        else:
            rule = {"pass": "BID-10", "bid": "BID-10", "trump": "DIG-02", "play": "CON-04"}[kind]
        return IllegalAction("WRONG_PHASE", rule,
                             f"a {kind} action is not accepted in phase {self.phase}")

    # ---- copies, equality, JSON --------------------------------------------------

    def clone(self) -> Match:
        """An independent copy; costs the same whatever the match's length. Every slot is
        assigned by name (several times faster than a loop of setattr, and perft clones
        at every node); the lists the state mutates are copied, the rest is immutable or
        never mutated once set (rules, variants, dealt, contract, tables). A subclass
        (a planted engine) stays itself, so perft explores the same engine."""
        cls = type(self)
        other = cls.__new__(cls)
        other.rules, other.variants, other.round, other.dealer = \
            self.rules, self.variants, self.round, self.dealer
        other.start_marks, other.marks, other.winner = \
            self.start_marks, self.marks[:], self.winner
        other.dealt, other.phase, other.to_act, other._seat, other._bidders = \
            self.dealt, self.phase, self.to_act, self._seat, self._bidders
        other.masks, other.history = self.masks[:], self.history[:]
        other.high_points, other.last_marks, other.high_bidder, other.special_bid = \
            self.high_points, self.last_marks, self.high_bidder, self.special_bid
        other.announced = self.announced
        other.contract, other.sitting_out = self.contract, self.sitting_out
        other.trick, other.leader, other.called, other.tricks = \
            self.trick[:], self.leader, self.called, self.tricks[:]
        other.points, other.tricks_won, other.decided, other.result = \
            self.points[:], self.tricks_won[:], self.decided, self.result
        other._tables, other._called_of, other._follow, other._rank, other._counters = \
            self._tables, self._called_of, self._follow, self._rank, self._counters
        other._orders, other._next, other._duty = self._orders, self._next, self._duty
        return other

    def _snapshot(self) -> tuple:
        """Every state field, as comparable values."""
        def freeze(value: Any) -> Any:
            if isinstance(value, list):
                return tuple(map(freeze, value))
            if isinstance(value, dict):
                return tuple(sorted((k, freeze(v)) for k, v in value.items()))
            return value
        return tuple(freeze(getattr(self, name)) for name in Match.__slots__
                     if not name.startswith("_") or name == "_seat")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self._snapshot() == other._snapshot()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def to_json(self) -> dict:
        """The match as JSON: match-level facts, this round's deal and its actions.

        Everything else (hands, tricks, points, result, marks after the round) follows
        from replaying the actions, which `from_json` does, so it cannot load a state the
        rules could not reach."""
        return {
            "format": JSON_FORMAT,
            "variants": dict(self.variants),
            "round": self.round,
            "dealer": SEATS[self.dealer],
            "marks": dict(zip(TEAMS, self.start_marks, strict=True)),
            "hands": {SEATS[s]: [NAMES[t] for t in hand] for s, hand in enumerate(self.dealt)},
            "actions": [f"{a['seat']} {action_key(a)}" for a in self.history],
        }

    @classmethod
    def from_json(cls, data: dict) -> Match:
        """The match `to_json` wrote; ValueError or IllegalAction if it is not one."""
        if type(data) is not dict or data.get("format") != JSON_FORMAT:
            raise ValueError(f"not a {JSON_FORMAT} object")
        expected = {"format", "variants", "round", "dealer", "marks", "hands", "actions"}
        if data.keys() != expected:
            raise ValueError(f"a {JSON_FORMAT} object has exactly the fields {sorted(expected)}")
        round_no = data["round"]
        if type(round_no) is not int or round_no < 1:
            raise ValueError(f"`round` must be a positive integer, not {round_no!r}")
        match = cls.start({"dealer": data["dealer"], "marks": data["marks"],
                           "hands": data["hands"], "variants": data["variants"]})
        match.round = round_no
        for entry in data["actions"]:
            seat, _, key = str(entry).partition(" ")
            match.apply(action_from_key(seat, key))
        return match

    def __repr__(self) -> str:
        return (f"<Match round {self.round} dealer {SEATS[self.dealer]} {self.phase} "
                f"to_act={self.to_act} marks={self.marks}>")
