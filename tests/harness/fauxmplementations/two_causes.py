"""A fauxmplementation with two independent bugs, for a campaign that must find both
causes (issue 26): every observation writes round points `{AC: 0, BD: 0}` where
observation.md writes null (a form, judged at `--level strict`, shown in nearly every
game), and a double is the lowest tile of its suit (RANK-03: shown only when a double
should have won a trick).

`--adapter python:tests/harness/fauxmplementations/two_causes.py:TwoCauses`.
`TwoCausesUnderNello` declares every option: the same form, and under Nel-O the
declarer leads every trick (NELLO-05).
"""

from __future__ import annotations

from conformance.planted import catalog
from conformance.planted.base import PlantedAdapter

DOUBLES_LOW = catalog.BY_NAME["doubles-low"].adapter().planted_rules


class PointsShownAtZero:
    """Every observation writes round points `{AC: 0, BD: 0}` where observation.md writes
    null, only where nothing is won yet, so that it leaks nothing (VIS-09): a form only."""

    def observe(self, seat):
        seen = super().observe(seat)  # type: ignore[misc]
        if seen.get("points") is None and self.view()["points"] == {"AC": 0, "BD": 0}:  # type: ignore[attr-defined]
            seen["points"] = {"AC": 0, "BD": 0}
        return seen


class TwoCauses(PointsShownAtZero, PlantedAdapter):
    name = "two-causes"

    def __init__(self) -> None:
        super().__init__("two-causes", rules=DOUBLES_LOW)


class TwoCausesUnderNello(PointsShownAtZero, PlantedAdapter):
    name = "two-causes-under-nello"

    def __init__(self) -> None:
        super().__init__("two-causes-under-nello",
                         options=catalog.BY_NAME["nello-declarer-always-leads"].adapter().options)
