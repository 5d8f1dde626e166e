"""In-process fauxmplementations: `--adapter python:<this file>:<Class>`."""

from __future__ import annotations

import copy

from conformance import Rejected
from conformance.adapters.reference import ReferenceAdapter


class Correct(ReferenceAdapter):
    name = "correct"


class Bare(ReferenceAdapter):
    """Declares no capability and no variant: legal/perft scenarios are skipped."""

    name = "bare"
    capabilities = frozenset()


class Crashes(ReferenceAdapter):
    """Raises an exception that is not Rejected on every play."""

    def act(self, action):
        if action.get("type") == "play":
            raise RuntimeError("index out of range (pretend)")
        super().act(action)


class WrongCode(ReferenceAdapter):
    """Reports NOT_YOUR_TURN as WRONG_PHASE."""

    def act(self, action):
        try:
            super().act(action)
        except Rejected as refused:
            code = "WRONG_PHASE" if refused.code == "NOT_YOUR_TURN" else refused.code
            raise Rejected(code, refused.message) from None


class AcceptsOutOfTurn(ReferenceAdapter):
    """Swallows NOT_YOUR_TURN: the action is accepted (and ignored)."""

    def act(self, action):
        try:
            super().act(action)
        except Rejected as refused:
            if refused.code != "NOT_YOUR_TURN":
                raise


class ChangesOnReject(ReferenceAdapter):
    """A rejection reorders the hand of the seat that tried (breaks DIG-03)."""

    touched: str | None = None

    def act(self, action):
        try:
            super().act(action)
        except Rejected:
            self.touched = action.get("seat")
            raise

    def view(self):
        view = copy.deepcopy(super().view())
        if self.touched in view["hands"]:
            view["hands"][self.touched].reverse()
        return view


class Leaky(ReferenceAdapter):
    """An observation carries every hand in an x_ field (breaks VIS-01)."""

    def observe(self, seat):
        seen = dict(super().observe(seat))
        seen["x_debug"] = self.view()["hands"]
        return seen


class LeaksPlayOrder(ReferenceAdapter):
    """An observation keeps the last completed trick's plays, seats and order, deep in an
    x_ field (breaks VIS-08 while the round is in progress)."""

    def observe(self, seat):
        seen = dict(super().observe(seat))
        tricks = self.view()["tricks"]
        seen["x_debug"] = {"last_trick": {"plays": tricks[-1]["plays"] if tricks else []}}
        return seen


class LeaksWinner(ReferenceAdapter):
    """An observation names the winning seat of each completed trick (breaks VIS-08)."""

    def observe(self, seat):
        seen = dict(super().observe(seat))
        seen["x_tricks"] = [{"number": t["number"], "winner": t["winner"]}
                            for t in self.view()["tricks"]]
        return seen


class LeaksPlayedBySeat(ReferenceAdapter):
    """An observation maps each seat to the tiles it played to completed tricks (VIS-08)."""

    def observe(self, seat):
        seen = dict(super().observe(seat))
        played = {s: [] for s in "ABCD"}
        for trick in self.view()["tricks"]:
            for play in trick["plays"]:
                played[play["seat"]].append(play["tile"])
        seen["x_played"] = played
        return seen


class HarmlessExtras(ReferenceAdapter):
    """x_ fields full of seats and tiles, none of which tells who played or won a completed
    trick: a correct observation that the VIS-08 check must let pass."""

    def observe(self, seat):
        seen = dict(super().observe(seat))
        face_up = sorted(t for c in seen["captured"] for t in c["tiles"] or [])
        hand = seen["hand"]
        seen["x_extras"] = {
            "dealer": seen["dealer"], "highest_seen": face_up[-1] if face_up else None,
            "suggest": {"seat": seat, "tile": hand[0]} if hand else None,
            "visible_to": {s: face_up for s in "ABCD"},
            "my_hand": {seat: hand},
            "tricks": [{"number": c["number"], "team": c["team"], "winner": c["team"]}
                       for c in seen["captured"]],
            "current": seen["trick"],
            "last_bid": seen["bids"][-1] if seen["bids"] else None,
        }
        return seen


class MissingField(ReferenceAdapter):
    """The referee view has no `history` (breaks view.schema.json)."""

    def view(self):
        return {k: v for k, v in super().view().items() if k != "history"}


class NotJson(ReferenceAdapter):
    """Returns a Python set inside the view."""

    def view(self):
        return {**super().view(), "x_set": {1, 2}}


class WrongPerft(ReferenceAdapter):
    def perft(self, depth):
        result = super().perft(depth)
        return {"total": result["total"] + 1, "divide": result["divide"]}


class RefusesViews(ReferenceAdapter):
    """Raises Rejected where no refusal is allowed."""

    def view(self):
        raise Rejected("WRONG_PHASE", "no view for you")


class HangsOnPlay(ReferenceAdapter):
    """Loops forever on the first play: an in-process hang the watchdog must end."""

    name = "hangs-on-play"

    def act(self, action):
        if action.get("type") == "play":
            while True:
                pass
        super().act(action)


class NoCapabilityMethods:
    """The README's template as a new author writes it: the five operations only, no
    legal, perft, new_match or next_deal, and none declared (`capabilities` from the
    class attribute, which `Declares` narrows or widens)."""

    name = "core-only"
    version = "1"
    variants: list = []
    capabilities: frozenset = frozenset()

    def __init__(self):
        self._engine = ReferenceAdapter()

    def start(self, setup):
        self._engine.start(setup)

    def deal(self, deal):
        self._engine.deal(deal)

    def act(self, action):
        self._engine.act(action)

    def view(self):
        return self._engine.view()

    def observe(self, seat):
        return self._engine.observe(seat)


class DeclaresPerftWithoutIt(NoCapabilityMethods):
    """Declares `perft` and `self_deal` but writes neither."""

    capabilities = frozenset({"perft", "self_deal"})
