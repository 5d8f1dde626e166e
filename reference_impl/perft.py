"""Perft: counts of legal action sequences, a language-neutral oracle for move generation.

A sequence that ends the round before `depth` is one leaf (spec/scenario-format.md).
"""

from __future__ import annotations

from .actions import action_key
from .match import Match

__all__ = ["action_key", "divide", "perft"]


def perft(m: Match, depth: int) -> int:
    """The number of leaves of the game tree of `depth` actions from `m` (unchanged)."""
    actions = m.legal_actions()
    if depth <= 0 or not actions:
        return 1
    if depth == 1:
        return len(actions)  # each action is one leaf, whether or not it ends the round
    total = 0
    for action in actions:
        child = m.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def divide(m: Match, depth: int) -> dict[str, int]:
    """perft(child, depth - 1) after each first action, keyed by its action key."""
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    counts = {}
    for action in m.legal_actions():
        child = m.clone()
        child.apply(action)
        counts[action_key(action)] = perft(child, depth - 1)
    return counts
