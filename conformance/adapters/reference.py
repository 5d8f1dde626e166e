"""The reference engine (reference_impl.Match) as an in-process adapter: the default."""

from __future__ import annotations

from typing import Any

from conformance.adapters.protocol import Rejected


class ReferenceAdapter:
    """Wraps reference_impl.Match; IllegalAction becomes Rejected."""

    name = "reference_impl"
    capabilities = frozenset({"legal", "perft"})

    def __init__(self) -> None:
        import reference_impl

        self._engine = reference_impl
        self.version = str(getattr(reference_impl, "__version__", "0"))
        self.variants = list(getattr(reference_impl, "VARIANTS", ()))
        self.match: Any = None

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

    def perft(self, depth: int) -> dict[str, Any]:
        from reference_impl.perft import divide, perft

        # The total is perft() itself, not the sum of divide(): at a finished round there
        # is no first action (divide is {}) but one leaf (scenario-format.md, Perft).
        counts = divide(self.match, depth) if depth > 0 else {}
        return {"total": perft(self.match, depth), "divide": counts}
