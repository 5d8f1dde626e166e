"""Planted engines that override one `Match` method: the rules `Rules` cannot swap.

Each class breaks the one rule its docstring names and keeps `legal_actions()` consistent
with `apply()` where the two would agree in a real engine built around the same mistake.
These overrides read the engine's state fields (`masks`, `trick`, `called`, `_follow`,
`_rank`, `leader`, `tricks`, ...); see base.py for why that is confined here.
"""

from __future__ import annotations

from typing import Any

from planted.base import PlantedMatch
from reference_impl import IllegalAction
from reference_impl.actions import bid_action, parse_action
from reference_impl.rules import MISSING, TRUMP_SUIT
from reference_impl.tiles import SEAT_INDEX, TILE_COUNT, TILE_INDEX, left_of, team_of

KIND_ORDER = {"pass": 0, "bid": 1, "trump": 2, "play": 3}


def canonical(actions: list[dict]) -> list[dict]:
    """Bidding actions in the canonical order of actions.md: pass, points, marks."""
    def key(action: dict) -> tuple:
        return (KIND_ORDER[action["type"]], "marks" in action,
                action.get("points", action.get("marks", 0)))
    return sorted(actions, key=key)


def right_of(seat: int) -> int:
    return (seat + 3) & 3


# ---- Bidding (BID) --------------------------------------------------------------------


class EqualPointBid(PlantedMatch):
    """BID-03 broken: a point bid equal to the highest so far is accepted (and wins)."""

    __slots__ = ()

    def _equal_allowed(self) -> bool:
        return bool(self.high_points) and not self.last_marks

    def _bid(self, seat: int, kind: str, value: Any) -> None:
        high = self.high_points
        if kind == "points" and value == high and self._equal_allowed():
            self.high_points = high - 1  # so that the engine's own "higher" check passes
            try:
                super()._bid(seat, kind, value)
            except IllegalAction:
                self.high_points = high
                raise
            return
        super()._bid(seat, kind, value)

    def legal_actions(self) -> list[dict]:
        actions = super().legal_actions()
        if self.phase == "bidding" and self._equal_allowed():
            actions = canonical([*actions, bid_action(self._seat, "points", self.high_points)])
        return actions


class MarksStepTwo(PlantedMatch):
    """BID-06 broken: a later marks bid may also be two more than the previous one."""

    __slots__ = ()

    def _bid(self, seat: int, kind: str, value: Any) -> None:
        last = self.last_marks
        if kind == "marks" and last and value == last + 2:
            self.last_marks = last + 1
            try:
                super()._bid(seat, kind, value)
            except IllegalAction:
                self.last_marks = last
                raise
            return
        super()._bid(seat, kind, value)

    def legal_actions(self) -> list[dict]:
        actions = super().legal_actions()
        if self.phase == "bidding" and self.last_marks:
            extra = bid_action(self._seat, "marks", self.last_marks + 2)
            actions = canonical([*actions, extra])
        return actions


class BiddingStartsAtDealer(PlantedMatch):
    """BID-01 broken: bidding starts with the dealer and ends with the seat right of it."""

    __slots__ = ()

    def _begin_round(self, hands: Any) -> None:
        super()._begin_round(hands)
        self.set_turn(self.dealer)

    def _after_bidding_turn(self, seat: int) -> None:
        if seat != right_of(self.dealer):
            self.set_turn(left_of(seat))
        else:  # the last seat has acted: the engine's own end of bidding
            super()._after_bidding_turn(self.dealer)


class DealerForcedToBid(PlantedMatch):
    """BID-09 broken: after three passes the dealer may not pass and is held to 30."""

    __slots__ = ()

    def _forced(self, seat: int) -> bool:
        return seat == self.dealer and self.high_bidder is None

    def _pass(self, seat: int) -> None:
        if self._forced(seat):
            self._bid(seat, "points", 30)
        else:
            super()._pass(seat)

    def legal_actions(self) -> list[dict]:
        actions = super().legal_actions()
        if self.phase == "bidding" and self._forced(self._seat):
            actions = [a for a in actions if a["type"] != "pass"]
        return actions


# ---- Contract (CON) ------------------------------------------------------------------


class StacksIgnoredOnPointContract(PlantedMatch):
    """CON-03 broken: a point contract's declaration with `stacks` is accepted (ignored)."""

    __slots__ = ()

    def _declare(self, seat: int, trump: Any, stacks: Any) -> None:
        if self.contract.kind == "points":
            stacks = MISSING
        super()._declare(seat, trump, stacks)


class StacksDefaultTwo(PlantedMatch):
    """CON-02 broken: a marks declaration without `stacks` is accepted with 2 stacks."""

    __slots__ = ()

    def _declare(self, seat: int, trump: Any, stacks: Any) -> None:
        if self.contract.kind == "marks" and stacks is MISSING:
            stacks = 2
        super()._declare(seat, trump, stacks)


# ---- Play (PLAY) ---------------------------------------------------------------------


class PlayDuty(PlantedMatch):
    """A duty to play certain tiles on top of following suit (subclasses say which)."""

    __slots__ = ()

    def duty(self, seat: int) -> int:
        """The mask of tiles the seat must choose from, or 0 for the engine's own rule."""
        raise NotImplementedError

    def _play(self, seat: int, tile: int) -> None:
        if self.trick and self.masks[seat] >> tile & 1:
            allowed = self.duty(seat)
            if allowed and not allowed >> tile & 1:
                raise IllegalAction("MUST_FOLLOW", "PLAY-06", "planted: a duty not in the rules")
        super()._play(seat, tile)

    def legal_actions(self) -> list[dict]:
        actions = super().legal_actions()
        if self.phase == "playing" and self.trick:
            allowed = self.duty(self._seat)
            if allowed:
                actions = [a for a in actions if allowed >> TILE_INDEX[a["tile"]] & 1]
        return actions


class MustTrumpWhenVoid(PlayDuty):
    """PLAY-06 broken: a seat void in the called suit must play a trump if it holds one."""

    __slots__ = ()

    def duty(self, seat: int) -> int:
        hand = self.masks[seat]
        if hand & self._follow[self.called]:
            return 0
        return hand & self._follow[TRUMP_SUIT]


class MustOvertrump(PlayDuty):
    """PLAY-06 broken: once a trump is in the trick, a seat that trumps or follows a trump
    lead must beat the highest trump if it can."""

    __slots__ = ()

    def duty(self, seat: int) -> int:
        trumps, rank = self._follow[TRUMP_SUIT], self._rank[self.called]
        played = [t for t in self.trick if trumps >> t & 1]
        hand = self.masks[seat]
        if not played or (self.called != TRUMP_SUIT and hand & self._follow[self.called]):
            return 0
        top = max(rank[t] for t in played)
        held = hand & trumps
        return sum(1 << t for t in range(TILE_COUNT) if held >> t & 1 and rank[t] > top)


class FirstLeadLeftOfDealer(PlantedMatch):
    """PLAY-01 broken: the seat left of the dealer leads the first trick."""

    __slots__ = ()

    def _declare(self, seat: int, trump: Any, stacks: Any) -> None:
        super()._declare(seat, trump, stacks)
        self.leader = left_of(self.dealer)
        self.set_turn(self.leader)


class LeaderRotates(PlantedMatch):
    """PLAY-03 broken: the lead passes clockwise instead of to the trick's winner."""

    __slots__ = ()

    def _complete_trick(self) -> None:
        leader = self.leader
        super()._complete_trick()
        if self.phase == "playing":
            self.leader = left_of(leader)
            self.set_turn(self.leader)


# ---- Points (PTS) and outcome (END) ----------------------------------------------------


def trick_winner(m: PlantedMatch, tiles: list[int]) -> int:
    """The seat winning `tiles` so far, by the engine's rank table (RANK-01..RANK-05)."""
    rank = m._rank[m.called]
    best = max(range(len(tiles)), key=lambda i: (rank[tiles[i]], -i))
    return (m.leader + best) & 3


class TrickPointForgotten(PlantedMatch):
    """PTS-01 broken: a trick is worth only its counters, not 1 point more."""

    __slots__ = ()

    def _complete_trick(self) -> None:
        team = team_of(trick_winner(self, self.trick))
        self.points[team] -= 1  # the engine adds 1 + counters next
        count = len(self.tricks)
        super()._complete_trick()
        leader, tiles, winner, points = self.tricks[count]
        self.tricks[count] = (leader, tiles, winner, points - 1)


class EndCheckedMidTrick(PlantedMatch):
    """END-05 broken: after every tile the outcome is checked as if the trick in progress
    were already won by the tile now winning it, and the round may end mid-trick."""

    __slots__ = ()

    def _play(self, seat: int, tile: int) -> None:
        super()._play(seat, tile)
        if self.phase != "playing" or not self.trick:
            return
        team = team_of(trick_winner(self, self.trick))
        points, won = self.points[:], self.tricks_won[:]
        points[team] += 1 + sum(self._counters[t] for t in self.trick)
        won[team] += 1
        outcome = self.rules.outcome(self.rules, self.contract, points, won)
        if outcome:
            self.points, self.tricks_won = points, won
            self._end_round(outcome)


# ---- Stakes (SCORE) and the dealer (DEAL) ----------------------------------------------


class SetAwardsBidders(PlantedMatch):
    """SCORE-02 broken: a set contract's stake goes to the bidding team."""

    __slots__ = ()

    def _end_round(self, outcome: str) -> None:
        super()._end_round(outcome)
        if outcome != "set":
            return
        bidders = self.contract.team
        _, defenders, stake = self.result
        self.marks[defenders] -= stake
        self.marks[bidders] += stake
        self.result = (outcome, bidders, stake)
        self.winner = self.rules.match_winner(self.rules, self.marks)
        self.phase = "round_over" if self.winner is None else "match_over"


class KeepsDealer(PlantedMatch):
    """The dealer stays when `keeps()` says so (subclasses say when)."""

    __slots__ = ()

    def keeps(self) -> bool:
        raise NotImplementedError

    def deal(self, deal: Any) -> None:
        if self.phase != "round_over" or not self.keeps():
            super().deal(deal)
            return
        dealer = self.dealer
        self.dealer = right_of(dealer)  # the engine passes the deal left, back to `dealer`
        try:
            super().deal(deal)
        except IllegalAction:
            self.dealer = dealer
            raise


class DealerKeptAfterPasses(KeepsDealer):
    """DEAL-05 broken: after four passes the same dealer deals again."""

    __slots__ = ()

    def keeps(self) -> bool:
        return self.result is not None and self.result[0] == "all_passed"


class DealerNeverRotates(KeepsDealer):
    """DEAL-05 broken: the first dealer deals every round."""

    __slots__ = ()

    def keeps(self) -> bool:
        return True


class HandSortedOnDeal(PlantedMatch):
    """DEAL-03 broken: each hand is sorted when dealt instead of kept in the dealt order."""

    __slots__ = ()

    def _begin_round(self, hands: Any) -> None:
        super()._begin_round(tuple(tuple(sorted(hand)) for hand in hands))


# ---- Rejections (DIG) ---------------------------------------------------------------


def acting_seat(action: Any) -> int | None:
    seat = action.get("seat") if isinstance(action, dict) else None
    return SEAT_INDEX.get(seat) if isinstance(seat, str) else None


class RejectSortsHand(PlantedMatch):
    """DIG-03 broken: a rejected play leaves the seat's hand sorted (the engine sorted it
    to look the tile up)."""

    __slots__ = ()

    def apply(self, action: Any) -> None:
        try:
            super().apply(action)
        except IllegalAction:
            seat = acting_seat(action)
            if seat is not None and action.get("type") == "play":
                self.hands[seat].sort()
            raise


class RejectAdvancesTurn(PlantedMatch):
    """DIG-03 broken: the turn passes on before the seat to act's action is judged, so a
    rule's rejection (BID_TOO_LOW, MUST_FOLLOW, ...) leaves the next seat to act."""

    __slots__ = ()

    def apply(self, action: Any) -> None:
        seat = self._seat
        try:
            super().apply(action)
        except IllegalAction as error:
            if seat is not None and acting_seat(action) == seat and error.code not in (
                    "MALFORMED_ACTION", "WRONG_PHASE", "NOT_YOUR_TURN"):
                self.set_turn(left_of(seat))
            raise


class SeatCheckedBeforePhase(PlantedMatch):
    """DIG-02 / errors.yaml order broken: NOT_YOUR_TURN is checked before WRONG_PHASE."""

    __slots__ = ()

    def apply(self, action: Any) -> None:
        _, seat, _, _ = parse_action(action)  # MALFORMED_ACTION still comes first
        if self._seat is not None and seat != self._seat:
            raise IllegalAction("NOT_YOUR_TURN", "DIG-02", "planted: seat checked first")
        super().apply(action)
