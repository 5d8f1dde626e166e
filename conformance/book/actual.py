"""The implementation's own table at the step where it failed, for a run report.

A failing scenario is run once more through the same adapter, exactly as the runner runs
it (conformance.run.runner.ScenarioRun), and at the failure the referee view is read from
the implementation: the report draws it beside the reference engine's table. The result is
plain JSON, so a pytest-xdist worker can hand it to the controller.
"""

from __future__ import annotations

from typing import Any

from conformance.adapters.protocol import Adapter
from conformance.corpus.scenario import Scenario
from conformance.run.runner import Diverged, ScenarioRun, _json


class _Capturing(ScenarioRun):
    """A ScenarioRun that reads the implementation's view when a step fails."""

    seen: dict[str, Any] | None = None
    at: int | None = None  # the failing step's index (`index` is the runner's SpecIndex)

    def judge(self, kind, differences, message, rules=(), code=None, failed=None,
              diverges=False):
        bad = bool(differences) if failed is None else failed
        if bad and self.seen is None:  # the first failed check is the one drawn
            self.at = self._index()
            try:
                self.seen = _json(self.adapter.view(), "view()")
            except Exception as error:  # noqa: BLE001 - an unusable view is drawn as none
                self.seen = {"_unreadable": f"{type(error).__name__}: {error}"}
        return super().judge(kind, differences, message, rules, code, failed, diverges)

    def _index(self) -> int | None:
        for i, step in enumerate(self.sc.steps):
            if step is self.step:
                return i
        return None


def capture(scenario: Scenario, adapter: Adapter) -> dict[str, Any]:
    """{"index": step index or None, "view": the implementation's view or None,
    "note": why there is none}."""
    from conformance.specdata.index import load_index

    run = _Capturing(scenario, adapter, load_index())
    try:
        run.run()
    except Diverged:
        pass
    except Exception as error:  # noqa: BLE001 - a crash: no view to draw, say so
        return {"index": run._index(), "view": None,
                "note": f"the implementation raised {type(error).__name__} when run again"}
    view = run.seen
    if view is None:
        return {"index": None, "view": None,
                "note": "the scenario passed when run again for drawing (flaky?)"}
    if "_unreadable" in view:
        return {"index": run.at, "view": None,
                "note": f"the implementation's view could not be read: {view['_unreadable']}"}
    return {"index": run.at, "view": view, "note": ""}
