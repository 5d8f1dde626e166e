"""The implementation's own table at each step where it failed, for a run report.

A failing scenario is run once more through the same adapter, exactly as the runner runs
it (conformance.run.runner.ScenarioRun, at the run's level): the run goes on after a
failed check and stops only where the states diverge, so the referee view is read from
the implementation at every step with a failed check, once per step, and the report
draws each beside the reference engine's table. The result is plain JSON (the step
indices are strings), so a pytest-xdist worker can hand it to the controller.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.adapters.protocol import Adapter
from conformance.corpus.scenario import Scenario
from conformance.run.runner import Diverged, ScenarioRun, as_run
from conformance.run.visibility import as_json as _json


class _Capturing(ScenarioRun):
    """A ScenarioRun that reads the implementation's view at each step with a failure."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.seen: dict[int | None, dict[str, Any]] = {}  # step index -> view (or why none)

    def judge(self, kind, differences, message, rules=(), code=None, failed=None,
              diverges=False, causes=None):
        bad = bool(differences) if failed is None else failed
        at = self._index()
        if bad and at not in self.seen:  # the first failed check of a step reads the view
            try:
                self.seen[at] = _json(self.adapter.view(), "view()")
            except Exception as error:  # noqa: BLE001 - an unusable view is drawn as none
                self.seen[at] = {"_unreadable": f"{type(error).__name__}: {error}"}
        return super().judge(kind, differences, message, rules, code, failed, diverges, causes)

    def _index(self) -> int | None:
        for i, step in enumerate(self.sc.steps):
            if step is self.step:
                return i
        return None


# A real view is a few KB: a larger picture is not kept (a report's memory and page size
# must not follow what the implementation sends).
VIEW_CHARS = 64 << 10


def _shot(view: dict[str, Any]) -> dict[str, Any]:
    if "_unreadable" in view:
        return {"view": None,
                "note": f"the implementation's view could not be read: {view['_unreadable']}"}
    size = len(json.dumps(view, separators=(",", ":")))
    if size > VIEW_CHARS:
        return {"view": None, "note": f"the implementation's view is {size:,} characters of "
                                      f"JSON, more than {VIEW_CHARS:,}: not kept for drawing"}
    return {"view": view, "note": ""}


def capture(scenario: Scenario, adapter: Adapter, level: str = "strict") -> dict[str, Any]:
    """{"steps": {"3": {"view": the implementation's view or None, "note": why none}, ...}
    for every step with a failed check, in order; "index", "view", "note": the first one's
    (None and a note when the scenario did not fail again)}."""
    from conformance.specdata.index import load_index

    index = load_index()
    run = _Capturing(as_run(scenario, adapter, index), adapter, index, level)
    crashed = ""
    try:
        run.run()
    except Diverged:
        pass
    except Exception as error:  # noqa: BLE001 - a crash: no view at this step, say so
        crashed = f"the implementation raised {type(error).__name__} when run again"
    steps = {str(at): _shot(view) for at, view in run.seen.items() if at is not None}
    if crashed:
        at = run._index()
        steps.setdefault(str(at), {"view": None, "note": crashed})
    if not steps:
        note = crashed or "the scenario passed when run again for drawing (flaky?)"
        return {"index": run._index() if crashed else None, "view": None, "note": note,
                "steps": {}}
    first = next(iter(steps))
    return {"index": int(first), **steps[first], "steps": steps}
