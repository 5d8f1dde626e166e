"""Partial match (scenario-format.md) and a structural diff: path -> expected / actual."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from conformance.adapters.limits import TEXT_CHARS, cut


class _Missing:
    """A field one side lacks. Pickled by name, so that a difference sent from a worker
    process (`t42 fuzz -j`) is still `is MISSING` where it arrives."""

    def __reduce__(self) -> str:
        return "MISSING"


MISSING = _Missing()


@dataclass(frozen=True)
class Difference:
    path: str
    expected: object  # a JSON value, or MISSING
    actual: object
    note: str = ""

    def __post_init__(self) -> None:
        # What the implementation sent is kept as JSON text cut to TEXT_CHARS when it is
        # larger: a result's size does not follow the size of a wrong reply.
        if isinstance(self.actual, dict | list | str):
            try:
                text = json.dumps(self.actual, ensure_ascii=False, separators=(", ", ": "))
            except (TypeError, ValueError):
                text = ""
            if len(text) > TEXT_CHARS:
                object.__setattr__(self, "actual", cut(text))
        object.__setattr__(self, "path", cut(self.path))

    def render(self) -> str:
        if self.expected is MISSING and self.actual is MISSING:
            return f"{self.path}: {self.note}"
        exp = "<absent>" if self.expected is MISSING else show(self.expected)
        act = "<absent>" if self.actual is MISSING else show(self.actual)
        note = f"  ({self.note})" if self.note else ""
        return f"{self.path}: expected {exp}, actual {act}{note}"


def show(value: object, limit: int = 240) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def same_scalar(expected: object, actual: object) -> bool:
    """Equal, and an integer never equals a boolean."""
    return isinstance(expected, bool) == isinstance(actual, bool) and expected == actual


def diff(expected: object, actual: object, path: str, partial: bool = True) -> list[Difference]:
    """Every place where `actual` does not match `expected`.

    partial=True: an expected mapping names only the keys it checks (scenario expectations);
    partial=False: mappings must have the same keys (a view before and after a rejection).
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [Difference(path, expected, actual, "not an object")]
        out: list[Difference] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(Difference(f"{path}.{key}", value, MISSING))
            else:
                out += diff(value, actual[key], f"{path}.{key}", partial)
        if not partial:
            out += [Difference(f"{path}.{k}", MISSING, v)
                    for k, v in actual.items() if k not in expected]
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [Difference(path, expected, actual, "not a list")]
        if len(expected) != len(actual):
            note = f"{len(expected)} items expected, {len(actual)} found"
            return [Difference(path, expected, actual, note)]
        if ".hand" in path and expected != actual and all(
                isinstance(t, str) for t in [*expected, *actual]):
            return [Difference(path, expected, actual)]  # a hand: one line, not one a tile
        out = []
        for i, (exp, act) in enumerate(zip(expected, actual, strict=True)):
            out += diff(exp, act, f"{path}[{i}]", partial)
        return out
    return [] if same_scalar(expected, actual) else [Difference(path, expected, actual)]


def canonical(value: object) -> str:
    """A key for comparing JSON values as set members (legal actions)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def diff_sets(expected: Sequence[object], actual: Sequence[object], path: str
              ) -> list[Difference]:
    """Legal actions compared as sets; duplicates in `actual` are differences too."""
    want = {canonical(a): a for a in expected}
    have: dict[str, object] = {}
    out = []
    for action in actual:
        key = canonical(action)
        if key in have:
            out.append(Difference(path, MISSING, action, "listed twice"))
        have[key] = action
    out += [Difference(path, a, MISSING, "legal action missing")
            for k, a in want.items() if k not in have]
    out += [Difference(path, MISSING, a, "not legal here")
            for k, a in have.items() if k not in want]
    return out
