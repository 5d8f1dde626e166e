"""Fauxmplementations that play the reference game with one convention of the spec
changed: each must pass `--level rules` and fail `--level strict` with one group.

`--adapter python:<this file>:<Class>`.
"""

from __future__ import annotations

from conformance import Rejected
from conformance.adapters.reference import ReferenceAdapter
from reference_impl.tiles import NAMES as TILES


class SeatBeforePhase(ReferenceAdapter):
    """Checks the seat before the phase: an action by a seat that is not the seat to
    act is NOT_YOUR_TURN even when the phase does not take it (errors.yaml: WRONG_PHASE
    first)."""

    name = "seat-before-phase"

    def act(self, action):
        try:
            super().act(action)
        except Rejected as refused:
            seat = action.get("seat") if isinstance(action, dict) else None
            if refused.code == "WRONG_PHASE" and seat != self.view()["to_act"]:
                raise Rejected("NOT_YOUR_TURN", f"{seat} is not to act") from None
            raise


class StacksNeverValidated(ReferenceAdapter):
    """Never validates the value of `stacks`: a marks declaration with stacks 0, 3 or 9
    is taken as stacks 2 (CON-02 allows only 1 or 2)."""

    name = "stacks-never-validated"

    def act(self, action):
        try:
            super().act(action)
        except Rejected as refused:
            if refused.code != "STACKS_INVALID":
                raise
            super().act({**action, "stacks": 2})


class OtherCodes(ReferenceAdapter):
    """Plays exactly the reference game, and gives every rejection another valid code of
    errors.yaml: INVALID_SETUP for an action, MALFORMED_ACTION for a setup or a deal."""

    name = "other-codes"

    def start(self, setup):
        self._recode(super().start, setup, "MALFORMED_ACTION")

    def deal(self, deal):
        self._recode(super().deal, deal, "MALFORMED_ACTION")

    def act(self, action):
        self._recode(super().act, action, "INVALID_SETUP")

    @staticmethod
    def _recode(call, payload, code):
        try:
            call(payload)
        except Rejected as refused:
            raise Rejected(code, f"(was {refused.code}) {refused.message}") from None


class StacksIgnoredOnPointContract(ReferenceAdapter):
    """Takes a point contract's declaration with `stacks` and ignores the stacks (CON-03,
    a Decision: the spec refuses it with STACKS_NOT_ALLOWED; the game is the same)."""

    name = "stacks-ignored-on-point-contract"

    def act(self, action):
        try:
            super().act(action)
        except Rejected as refused:
            contract = self.view()["contract"]
            if refused.code != "STACKS_NOT_ALLOWED" or "points" not in contract["bid"]:
                raise
            super().act({k: v for k, v in action.items() if k != "stacks"})


class ZeroPointsBeforeFirstTrick(ReferenceAdapter):
    """Shows round points `{AC: 0, BD: 0}` where observation.md writes null: under a marks
    contract before any trick is complete (nothing is won, so nothing leaks)."""

    name = "zero-points-before-first-trick"

    def observe(self, seat):
        seen = super().observe(seat)
        if seen["points"] is None and not self.view()["tricks"]:
            seen = {**seen, "points": {"AC": 0, "BD": 0}}
        return seen


class EmptyHistory(ReferenceAdapter):
    """Shows `history: []` where observation.md writes null (during the round: nothing
    private is in an empty list)."""

    name = "empty-history"

    def observe(self, seat):
        seen = super().observe(seat)
        return {**seen, "history": []} if seen["history"] is None else seen


class PublicHistory(ReferenceAdapter):
    """Shows in `history`, where observation.md writes null during the round, the round's
    bids, passes and declaration so far: every seat saw them made, nothing private leaks
    (the plays stay out: who played a completed trick is VIS-08's, judged apart)."""

    name = "public-history"

    def observe(self, seat):
        seen = super().observe(seat)
        if seen["history"] is not None:
            return seen
        return {**seen, "history": [dict(a) for a in self.match.history
                                    if a.get("type") != "play"]}


class StartsPastTarget(ReferenceAdapter):
    """Accepts a setup whose starting marks (scores under match_points) are at or past
    the target, as a test input: the match starts from it (here the marks are kept at 0;
    the scenarios stop at the acceptance). Every other refused setup is still refused."""

    name = "starts-past-target"

    def start(self, setup):
        try:
            super().start(setup)
        except Rejected as refused:
            marks = setup.get("marks") if isinstance(setup, dict) else None
            if refused.code != "INVALID_SETUP" or not isinstance(marks, dict) or not all(
                    type(m) is int and m >= 0 for m in marks.values()):
                raise
            try:  # the same setup from 0-0: refused for something else, it stays refused
                super().start({**setup, "marks": dict.fromkeys(marks, 0)})
            except Rejected:
                raise refused from None


class SortedOwnDeals(ReferenceAdapter):
    """Deals its own matches with a fair shuffle but sorts each hand (DEAL-03 asks for the
    order received): which seat gets which tile is uniform (DEAL-06 holds)."""

    name = "sorted-own-deals"

    @staticmethod
    def _sorted(order, dealer):
        """DEAL-02's hands of `order` (tile i to the seat i places after the dealer's
        left), each sorted."""
        first = ("ABCD".index(dealer) + 1) % 4
        return {"ABCD"[(first + i) % 4]: sorted(order[i::4], key=TILES.index)
                for i in range(4)}

    def new_match(self):
        dealer = self.rng.choice("ABCD")
        self.start({"dealer": dealer, "hands": self._sorted(self.shuffled(), dealer)})

    def next_deal(self):
        dealer = "ABCD"[("ABCD".index(self.view()["dealer"]) + 1) % 4]
        self.deal({"hands": self._sorted(self.shuffled(), dealer)})
