"""The match state and the rules that move it: legal_actions() and apply().

A `Match` keeps the match-level facts (rules, round number, dealer, marks) and the detail
of the current round only, so copying it or applying an action costs the same in round 1
and round 100. What a seat may see is not here: `views.py` builds it from the state.

State fields without a leading underscore are read by `views.py`; nothing outside this
module writes them. Tiles and seats are ints (`tiles.py`); the JSON forms appear only at
the edges (parsing an action, building a view).
"""

from __future__ import annotations

import random
from typing import Any

from . import views
from .actions import (
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
from .errors import IllegalAction
from .rules import (
    MISSING,
    Contract,
    declaration_problem,
    marks_bid_problem,
    point_bid_problem,
    rules_for,
)
from .setup import Hands, invalid, parse_deal, parse_setup
from .tables import tables_for
from .tiles import NAMES, SEATS, TEAMS, left_of, mask_of, team_of

BIDDING, DECLARING, PLAYING = "bidding", "declaring", "playing"
ROUND_OVER, MATCH_OVER = "round_over", "match_over"
# The phase that accepts each kind of action (BID-10, CON-04, DIG-02).
PHASE_OF_KIND = {"pass": BIDDING, "bid": BIDDING, "trump": DECLARING, "play": PLAYING}
JSON_FORMAT = "texas42-match/1"


class Match:
    """A Texas 42 match: `phase`, `to_act`, `legal_actions()`, `apply()`, views."""

    __slots__ = (
        # match level
        "rules", "variants", "round", "dealer", "start_marks", "marks", "winner",
        # the current round
        "dealt", "phase", "to_act", "_seat",  # to_act is SEATS[_seat], or None
        "hands", "masks", "history",
        "high_points", "last_marks", "high_bidder", "contract",
        "trick", "leader", "called", "tricks", "points", "tricks_won", "result",
        # tables of the declared trump (derived from rules + contract)
        "_tables", "_called_of", "_follow", "_rank", "_counters",
    )

    # ---- construction ------------------------------------------------------------

    @classmethod
    def start(cls, setup: dict) -> Match:
        """A new match from a setup (spec/actions.md); INVALID_SETUP if it is not valid."""
        if type(setup) is not dict:
            raise invalid("a setup must be an object")
        variants = setup.get("variants", {})
        rules = rules_for(variants)
        dealer, marks, hands = parse_setup(setup, rules)
        match = cls.__new__(cls)
        match.rules, match.variants, match._tables = rules, dict(variants), tables_for(rules)
        match.round, match.dealer, match.winner = 1, dealer, None
        match.start_marks, match.marks = marks, list(marks)
        match._begin_round(hands)
        return match

    @classmethod
    def from_seed(cls, seed: Any, dealer: str | None = None) -> Match:
        """A match with a deal shuffled by `random.Random(seed)`; the first dealer is drawn
        from the same generator when not given (DEAL-04)."""
        rng = random.Random(seed)
        first = SEATS[rng.randrange(4)] if dealer is None else dealer
        order = list(NAMES)
        rng.shuffle(order)
        return cls.start({"dealer": first, "order": order})

    def deal(self, deal: dict) -> None:
        """Start the next round, dealt by the seat left of the last dealer (DEAL-05).

        Check order per errors.yaml: INVALID_SETUP before WRONG_PHASE."""
        dealer = left_of(self.dealer)
        hands = parse_deal(deal, dealer)
        if self.phase != ROUND_OVER:
            rule = "MATCH-01" if self.phase == MATCH_OVER else "MATCH-03"
            raise IllegalAction("WRONG_PHASE", rule,
                                f"a deal is accepted only in round_over, not {self.phase}")
        self.dealer, self.round, self.start_marks = dealer, self.round + 1, tuple(self.marks)
        self._begin_round(hands)

    def _begin_round(self, hands: Hands) -> None:
        self.dealt = hands
        self.hands = [list(hand) for hand in hands]
        self.masks = list(map(mask_of, hands))
        self.phase = BIDDING
        self._seat = left_of(self.dealer)  # BID-01
        self.to_act = SEATS[self._seat]
        self.history = []
        self.high_points = self.last_marks = 0
        self.high_bidder = self.contract = self.result = None
        self.trick, self.leader, self.called = [], None, None
        self.tricks = []
        self.points, self.tricks_won = [0, 0], [0, 0]
        self._called_of = self._follow = self._rank = self._counters = None

    # ---- the tiny API ------------------------------------------------------------

    def legal_actions(self) -> list[dict]:
        """The actions the seat to act may take, unique, in canonical order (actions.md).

        The dicts are shared and reused: callers MUST NOT mutate them."""
        phase, seat = self.phase, self._seat
        if phase == PLAYING:
            mask = self.masks[seat]
            if self.trick:  # PLAY-05, PLAY-06: follow if able, else any tile
                following = mask & self._follow[self.called]
                if following:
                    mask = following
            c0, c1, c2, c3 = PLAY_CHUNKS[seat]  # the plays of `mask`, in tile order
            return [*c0[mask & 127], *c1[mask >> 7 & 127], *c2[mask >> 14 & 127],
                    *c3[mask >> 21]]
        if phase == BIDDING:
            return list(self._tables.bidding(seat, self.high_points, self.last_marks))
        if phase == DECLARING:
            return list(self._tables.declaring(seat, self.contract.kind))
        return []

    def apply(self, action: dict) -> None:
        """Apply a legal action, or raise IllegalAction having changed nothing (DIG-03).

        Checks run in the order of errors.yaml: form, phase, seat, then the kind's own."""
        if type(action) is dict and len(action) == 3:
            # Fast path for the commonest action: one lookup parses a well-formed play.
            try:
                play = action["type"] == "play" and SEAT_AND_TILE[action["seat"], action["tile"]]
            except (KeyError, TypeError):  # not a well-formed play: parse_action explains
                play = None
            if play:
                seat, tile = play
                if self.phase != PLAYING or seat != self._seat:
                    raise self._out_of_turn("play", seat)
                self._play(seat, tile)
                return
        kind, seat, x, y = parse_action(action)
        if self.phase != PHASE_OF_KIND[kind] or seat != self._seat:
            raise self._out_of_turn(kind, seat)
        if kind == "play":
            self._play(seat, x)
        elif kind == "bid":
            self._bid(seat, x, y)
        elif kind == "pass":
            self._pass(seat)
        else:
            self._declare(seat, x, y)

    def view(self) -> dict:
        """The referee view (spec/observation.md)."""
        return views.referee_view(self)

    def observe(self, seat: str) -> dict:
        """What `seat` may see (spec/observation.md, VIS-01..VIS-10)."""
        return views.seat_observation(self, seat)

    # ---- bidding (BID) -----------------------------------------------------------

    def _bid(self, seat: int, kind: str, value: int) -> None:
        if kind == "points":
            problem = point_bid_problem(self.rules, value, self.high_points, self.last_marks)
        else:
            problem = marks_bid_problem(self.rules, value, self.last_marks)
        if problem:
            raise IllegalAction(*problem)
        if kind == "points":
            self.high_points = value
        else:
            self.last_marks = value
        self.high_bidder = seat  # BID-08: every accepted bid outranks the ones before it
        self.history.append(bid_action(seat, kind, value))
        self._after_bidding_turn(seat)

    def _pass(self, seat: int) -> None:
        self.history.append(PASSES[seat])
        self._after_bidding_turn(seat)

    def _after_bidding_turn(self, seat: int) -> None:
        """BID-01: once around the table, ending with the dealer; then BID-08 or BID-09."""
        if seat != self.dealer:
            self._seat = seat = (seat + 1) & 3  # left_of(seat)
            self.to_act = SEATS[seat]
        elif self.high_bidder is None:
            self._end_round("all_passed")  # BID-09
        else:
            declarer = self.high_bidder
            kind = "marks" if self.last_marks else "points"
            value = self.last_marks or self.high_points
            self.contract = Contract(declarer, team_of(declarer), kind, value)
            self.phase, self._seat, self.to_act = DECLARING, declarer, SEATS[declarer]  # CON-01

    # ---- declaration (CON) -------------------------------------------------------

    def _declare(self, seat: int, trump: Any, stacks: Any) -> None:
        problem = declaration_problem(self.rules, self.contract, trump, stacks)
        if problem:
            raise IllegalAction(*problem)
        stacks = None if stacks is MISSING else stacks
        declarer, team, kind, value = self.contract[:4]
        self.contract = Contract(declarer, team, kind, value, trump, stacks)  # CON-04
        self.history.append(trump_action(seat, trump, stacks))
        self._use_trump(trump)
        self.phase, self.leader = PLAYING, seat  # PLAY-01: the declarer leads

    def _use_trump(self, trump: Any) -> None:
        tables, index = self._tables, self.rules.trumps.index(trump)
        self._called_of, self._follow = tables.called[index], tables.follow[index]
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
        else:
            self.called = self._called_of[tile]  # SUIT-04, SUIT-05: the lead calls a suit
        self.masks[seat] = hand ^ bit
        self.hands[seat].remove(tile)  # DEAL-03: the rest keep their order
        self.history.append(PLAYS[seat][tile])
        trick.append(tile)
        if len(trick) < 4:
            self._seat = seat = (seat + 1) & 3  # PLAY-02: clockwise (left_of)
            self.to_act = SEATS[seat]
        else:
            self._complete_trick()

    def _complete_trick(self) -> None:
        trick, rank = self.trick, self._rank[self.called]
        best = 0  # RANK-01..RANK-05: the highest rank wins; the lead always ranks >= 0
        for i in (1, 2, 3):
            if rank[trick[i]] > rank[trick[best]]:
                best = i
        winner = (self.leader + best) & 3
        counters = self._counters
        points = 1 + counters[trick[0]] + counters[trick[1]] + counters[trick[2]] \
            + counters[trick[3]]  # PTS-01, PTS-02
        team = winner & 1  # team_of(winner)
        self.points[team] += points
        self.tricks_won[team] += 1
        self.tricks.append((self.leader, tuple(trick), winner, points))
        self.trick = []
        outcome = self.rules.outcome(self.rules, self.contract, self.points, self.tricks_won)
        if outcome:  # END-05: checked when a trick completes
            self._end_round(outcome)
        else:
            self.leader = self._seat = winner  # PLAY-03
            self.to_act = SEATS[winner]

    def _end_round(self, outcome: str) -> None:
        """SCORE-01, SCORE-02: award the stake; MATCH-01: the match may be over."""
        if outcome == "all_passed":
            self.result = (outcome, None, 0)
        else:
            stake = self.rules.stake(self.rules, self.contract)
            team = self.contract.team if outcome == "made" else 1 - self.contract.team
            self.marks[team] += stake
            self.result = (outcome, team, stake)
        self.winner = self.rules.match_winner(self.rules, self.marks)
        self.phase = ROUND_OVER if self.winner is None else MATCH_OVER
        self._seat = self.to_act = None

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
        """An independent copy; costs the same whatever the match's length."""
        other = Match.__new__(Match)
        for name in Match.__slots__:
            setattr(other, name, getattr(self, name))
        other.marks, other.masks = self.marks[:], self.masks[:]
        other.hands = [hand[:] for hand in self.hands]
        other.history, other.trick, other.tricks = self.history[:], self.trick[:], self.tricks[:]
        other.points, other.tricks_won = self.points[:], self.tricks_won[:]
        other.variants = dict(self.variants)
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
