"""The reference engine (reference_impl.Match) as an in-process adapter: the default."""

from __future__ import annotations

import random
from typing import Any

from conformance.adapters.protocol import Rejected
from conformance.adapters.support import current_spec
from reference_impl.tiles import NAMES as TILES
from reference_impl.tiles import SEATS

TEXTS = ("view", "observe", "legal")  # the reads written by texts.py


class ReferenceAdapter:
    """Wraps reference_impl.Match; IllegalAction becomes Rejected."""

    name = "reference_impl"
    capabilities = frozenset({"legal", "perft", "self_deal"})

    def __init__(self, rng: random.Random | None = None) -> None:
        import reference_impl

        self._engine = reference_impl
        self.version = str(getattr(reference_impl, "__version__", "0"))
        self.variants = list(getattr(reference_impl, "VARIANTS", ()))
        self.spec = current_spec()  # it plays every setting of the spec it ships with
        self.match: Any = None
        self.rng = rng or random.Random()  # seeded from the OS: every run deals afresh

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except self._engine.IllegalAction as error:
            raise Rejected(error.code, getattr(error, "message", str(error))) from None

    def start(self, setup: dict[str, Any]) -> None:
        # protocol.md: a refused setup leaves the current match (if any) as it was.
        self.match = self._call(self._engine.Match.start, setup)

    def _running(self) -> Any:
        if self.match is None:
            raise Rejected("WRONG_PHASE", "no match is running: send a setup first")
        return self.match

    def deal(self, deal: dict[str, Any]) -> None:
        self._call(self._running().deal, deal)

    def act(self, action: Any) -> None:
        self._call(self._running().apply, action)

    def view(self) -> dict[str, Any]:
        return self.match.view()

    def observe(self, seat: str) -> dict[str, Any]:
        return self.match.observe(seat)

    def legal(self) -> list[dict[str, Any]]:
        return self.match.legal_actions()

    def read_text(self, cmd: str, request: dict[str, Any]) -> str | None:
        """`t42 serve`: the JSON text of a view, observation or legal list, written as
        server.py would write the result (texts.py); None for any other request, or when
        this is not the reference itself (a planted engine may change its reads)."""
        if type(self) is not ReferenceAdapter or self.match is None or cmd not in TEXTS:
            return None
        from conformance.adapters.texts import text

        return text(self.match, (cmd, request["seat"]) if cmd == "observe" else (cmd,))

    def perft(self, depth: int) -> dict[str, Any]:
        from reference_impl.perft import divide, perft

        # The total is perft() itself, not the sum of divide(): at a finished round there
        # is no first action (divide is {}) but one leaf (scenario-format.md, Perft).
        counts = divide(self.match, depth) if depth > 0 else {}
        return {"total": perft(self.match, depth), "divide": counts}

    # --- capability self_deal: the dealer and the shuffles of a real game -------------

    def shuffled(self) -> list[str]:
        """DEAL-06: a uniform order of the 28 tiles (Fisher-Yates, random.shuffle)."""
        order = list(TILES)
        self.rng.shuffle(order)
        return order

    def new_match(self) -> None:
        """DEAL-04: a first dealer drawn uniformly; DEAL-06: a fresh shuffle."""
        self.start({"dealer": self.rng.choice(SEATS), "order": self.shuffled()})

    def next_deal(self) -> None:
        """DEAL-05, DEAL-06: the next dealer (the engine's), a fresh shuffle."""
        self.deal({"order": self.shuffled()})
