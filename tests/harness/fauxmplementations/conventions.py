"""Fauxmplementations that play the reference game with one convention of the spec
changed: each must pass `--level rules` and fail `--level strict` with one group.

`--adapter python:<this file>:<Class>`.
"""

from __future__ import annotations

from conformance import Rejected
from conformance.adapters.reference import ReferenceAdapter


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
