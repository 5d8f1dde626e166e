"""What an HTML report draws of a failing step, kept while the scenario is judged.

The report (conformance.book) draws the implementation's own table beside the reference
engine's at each step with a failed check. Those answers are taken from the run itself,
never from running the scenario again: a second run costs the adapter's time twice, and
an engine that is not deterministic would be drawn doing something the run never judged.
Only a run asked for a report keeps them (ScenarioRun(pictures=True)); a plain run keeps
nothing and asks the adapter for nothing more.

Per step index (a string, so that the whole is plain JSON a pytest-xdist worker can send):

- `view`: the implementation's referee view at the step (None, and `note` why, when it
  could not be read or is too large to keep);
- `before`: its view before a step it had to refuse, the position refused;
- `answer`: what it answered to the step: `null` accepted, else the code it refused with;
- `observe`: {seat: its observation} for each seat whose observation failed;
- `legal`: its legal actions where they failed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

# A real view is a few KB: a larger picture is not kept (a report's memory and page size
# must not follow what the implementation sends).
VIEW_CHARS = 64 << 10

# The checks of a step that was sent and had to be refused (or accepted): their picture
# is the position the step was tried in.
REFUSAL_KINDS = frozenset({"accepted", "rejected", "known_code", "code", "check_order",
                           "unchanged"})
# The checks of one seat's observation: their picture is what that seat was shown.
OBSERVE_KINDS = frozenset({"observe", "observe_form", "hidden_tiles", "hidden_seats",
                           "hidden_points"})


def too_large(value: object) -> str:
    """Why `value` is not kept for drawing ("is 70,000 characters of JSON, ..."), or ""
    when it is."""
    try:
        size = len(json.dumps(value, separators=(",", ":")))
    except (TypeError, ValueError) as error:
        return f"is not JSON ({type(error).__name__})"
    if size > VIEW_CHARS:
        return f"is {size:,} characters of JSON, more than {VIEW_CHARS:,}"
    return ""


T = TypeVar("T")


def kept(value: T, what: str) -> tuple[T | None, str]:
    """`value` if it may be kept, else None and a note naming `what` and why not."""
    why = too_large(value)
    if why:
        return None, f"the implementation's {what} {why}: not kept for drawing"
    return value, ""


class Pictures:
    """The answers of one scenario's run that its report draws, by step index."""

    def __init__(self) -> None:
        self.steps: dict[str, dict[str, Any]] = {}
        self.read: dict[str, Any] = {}  # what the current step has read so far

    def next_step(self) -> None:
        self.read = {}

    def failed(self, at: int | None, kind: str, read_view: Callable[[], object]) -> None:
        """A check of kind `kind` failed at step `at`: keep what the page draws for it.
        `read_view` reads the implementation's view when the step has read none (the
        first failure of a step that read no view, as an `accepted` check)."""
        if at is None:
            return
        picture = self.steps.setdefault(str(at), {})
        if "view" not in picture:
            view = self.read.get("view")
            if view is None and "before" not in self.read:
                view = read_view()
            if isinstance(view, dict) and "_unreadable" in view:
                picture.update(view=None, note=f"the implementation's view could not be "
                                               f"read: {view['_unreadable']}")
            else:
                picture["view"], picture["note"] = kept(view, "view") if view is not None \
                    else (None, "")
        if kind in REFUSAL_KINDS and "answer" in self.read:
            picture["answer"] = self.read["answer"]
            if "before" in self.read:
                picture["before"], _ = kept(self.read["before"], "view")
        observed = self.read.get("observe")
        if kind in OBSERVE_KINDS and observed is not None:
            seat, seen = observed
            picture.setdefault("observe", {})[seat], _ = kept(seen, "observation")
        if kind == "legal" and "legal" in self.read:
            picture["legal"], _ = kept(self.read["legal"], "legal list")

    def errored(self, at: int | None) -> None:
        """The implementation broke at step `at`: the page says there is no table of its
        own to draw there."""
        if at is not None:
            self.steps.setdefault(str(at), {"view": None, "note": "the implementation "
                                             "errored at this step: no table of its own"})

    def to_json(self) -> dict[str, Any]:
        return {"steps": self.steps} if self.steps else {}
