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
