"""Wrong engines for the run-report tests: each distorts the referee view in one way."""

from conformance.adapters.reference import ReferenceAdapter


class LeaderWins(ReferenceAdapter):
    """Credits every completed trick to the seat that led it (a RANK-01 bug)."""

    name = "leader-wins"

    def view(self):
        view = super().view()
        for trick in view["tricks"]:
            trick["winner"] = trick["leader"]
        return view


class HidesBids(ReferenceAdapter):
    """Shows no seat the bids made (a VIS-02 bug): every observation that expects bids
    fails, the referee view stays right, so the run goes on after each failure."""

    name = "hides-bids"

    def observe(self, seat):
        seen = super().observe(seat)
        seen["bids"] = []
        return seen


class OneCode(ReferenceAdapter):
    """Refuses every illegal action with MALFORMED_ACTION, whatever rule it breaks: right
    at level rules, a code difference (not judged there) at codes and strict."""

    name = "one-code"

    def act(self, action):
        from conformance.adapters.protocol import Rejected

        try:
            return super().act(action)
        except Rejected as refused:
            raise Rejected("MALFORMED_ACTION", refused.message) from None


class PartialNello(ReferenceAdapter):
    """The reference declaring Nel-O in part (protocol.md, "Partial support"): only its
    doubles as their own suit."""

    name = "partial-nello"

    def __init__(self):
        super().__init__()
        self.variants = [{"name": "nello", "settings": {"doubles": ["own_suit"]}}]
