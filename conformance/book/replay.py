"""A scenario's states: its steps replayed on the reference engine, the frames worth drawing.

The book draws the referee view (reference_impl.Match.view) after the steps that matter:
the setup and each deal, the end of the contract shortcut, the declaration of trump, each
completed trick, every step with an expectation or an expected rejection, the last step
and, in a run report, the step where the implementation failed. The steps in between are
told in words in the next frame ("since the last diagram").
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from conformance.corpus.scenario import SEATS, Scenario, Step


@dataclass
class Frame:
    """One drawn step: what was sent, what was expected, and the table after it."""

    index: int  # position in Scenario.steps (setup and contract steps included)
    label: str  # "setup", "setup.contract", "steps[3]"
    line: int
    steps: list[Step]  # the steps told in this frame, the drawn one last
    view: dict[str, Any] | None  # referee view after the step; None before any match
    covered: list[int] = field(default_factory=list)  # trick numbers no seat may look at
    completed: bool = False  # the step completed a trick (drawn in the centre, numbered)
    refused: str | None = None  # the code the reference engine refused the step with
    problem: str = ""  # the reference engine disagreed with the scenario here
    observation: dict[str, Any] | None = None  # seat A's: the public table of the figures
    # at a step a run failed (`also`), what the report draws on the expected side: the
    # view before the step (the position a step was tried in), every seat's observation
    # and the legal actions after it
    before: dict[str, Any] | None = None
    seen: dict[str, dict[str, Any]] = field(default_factory=dict)
    legal: list[Any] = field(default_factory=list)

    @property
    def step(self) -> Step:
        return self.steps[-1]

    @property
    def anchor(self) -> str:
        return f"step-{self.index}"


def covered_tricks(view: dict[str, Any], observation: dict[str, Any] | None) -> list[int]:
    """VIS-06: the captured tricks shown face down, as every seat's observation shows them."""
    if observation is None:
        return []
    return [c["number"] for c in observation.get("captured") or [] if c.get("tiles") is None]


def _matters(step: Step, before: dict[str, Any] | None, after: dict[str, Any] | None,
             next_step: Step | None) -> bool:
    if step.kind in ("setup", "deal") or step.expect or step.reject or next_step is None:
        return True
    if step.label == "setup.contract":
        return next_step.label != "setup.contract"
    if isinstance(step.payload, dict) and step.payload.get("type") == "trump":
        return True
    return _completed(before, after)


def _completed(before: dict[str, Any] | None, after: dict[str, Any] | None) -> bool:
    if not before or not after:
        return False
    return len(after.get("tricks") or []) > len(before.get("tricks") or [])


def replay(scenario: Scenario, also: AbstractSet[int] = frozenset()) -> list[Frame]:
    """The frames of a scenario on the reference engine; `also`: step indices to draw
    whatever they are (a run's failing step)."""
    from reference_impl import IllegalAction, Match

    match = None
    frames: list[Frame] = []
    pending: list[Step] = []
    steps = scenario.steps
    for i, step in enumerate(steps):
        before = match.view() if match is not None else None
        refused = problem = None
        try:
            if step.kind == "setup":
                match = Match.start(step.payload)
            elif step.kind == "deal" and match is not None:
                match.deal(step.payload)
            elif step.kind == "act" and match is not None:
                match.apply(step.payload)
        except IllegalAction as error:
            refused = error.code
        except Exception as error:  # noqa: BLE001 - a payload the engine chokes on: draw on
            problem = f"the reference engine raised {type(error).__name__}: {error}"
        if step.kind and not problem and refused != step.reject:
            did = f"refused it with {refused}" if refused else "accepted it"
            said = f"reject it with {step.reject}" if step.reject else "accept it"
            problem = f"the reference engine {did}; the scenario says {said}"
        after = match.view() if match is not None else None
        pending.append(step)
        next_step = steps[i + 1] if i + 1 < len(steps) else None
        if i in also or problem or _matters(step, before, after, next_step):
            observation = match.observe(SEATS[0]) if match is not None else None
            frame = Frame(i, step.label, step.line, pending, after,
                          covered_tricks(after, observation) if after else [],
                          _completed(before, after), refused, problem or "", observation)
            if i in also and match is not None:
                frame.before = before
                frame.seen = {seat: match.observe(seat) for seat in SEATS}
                frame.legal = _legal(match)
            frames.append(frame)
            pending = []
    return frames


def _legal(match: Any) -> list[Any]:
    """The reference's legal actions as JSON, none where it has no seat to act."""
    try:
        return [dict(a) for a in match.legal_actions()]
    except Exception:  # noqa: BLE001 - a finished match: no action is legal
        return []
