"""Setups the spec refuses that are test inputs, not games (levels.yaml `inputs`): which
one a refused setup is, asked of the reference engine, which knows the target."""

from __future__ import annotations

from typing import Any

from conformance.corpus.scenario import Step


def input_of(step: Step) -> str | None:
    """The name in levels.yaml `inputs` of the test input `step` sets up and must refuse,
    or None for a refusal of anything else."""
    if step.kind != "setup" or step.reject != "INVALID_SETUP" or not isinstance(
            step.payload, dict):
        return None
    return "marks_at_target" if marks_at_target(step.payload) else None


def marks_at_target(setup: dict[str, Any]) -> bool:
    """SCORE-03, TARGET-02, MPTS-02: a team's starting marks (scores under match_points)
    at or past the match's target, and the same setup with them just below it accepted by
    the reference: the marks are all that is refused."""
    from reference_impl import IllegalAction, Match
    from reference_impl.variants import rules_for

    marks = setup.get("marks")
    if not isinstance(marks, dict):
        return False
    try:
        top = rules_for(setup.get("variants", {})).marks_range[-1]  # the target less one
    except IllegalAction:
        return False
    past = [team for team, value in marks.items() if type(value) is int and value > top]
    if not past:
        return False
    try:
        Match.start({**setup, "marks": {**marks, **dict.fromkeys(past, top)}})
    except IllegalAction:
        return False  # something else is refused too: the refusal changes the game
    return True
