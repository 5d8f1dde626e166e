"""Actions, well formed and not, under the options that change the forms, each with the
reference engine's verdict on its form (reference_impl.actions.parse_action, DIG-01):
what each kit's action-form checker must say. Shared by the kits' tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from reference_impl.actions import parse_action
from reference_impl.errors import IllegalAction
from reference_impl.variants import rules_for

ROOT = Path(__file__).resolve().parents[2]
# the options whose settings change an action's form (actions.md, "Actions and setup fields
# added by variants"), and settings that do not
VARIANTS: list[dict[str, Any]] = [
    {}, {"plunge": True}, {"plunge_terms": {}}, {"plunge_terms": {"announce": "declaration"}},
    {"plunge": True, "plunge_terms": {"announce": "declaration"}}, {"splash": True},
    {"splash": {"marks": "bid"}}, {"nello": True}, {"nello": {"announce": "bid"}},
    {"nello": {"doubles": "declared"}}, {"no_trump": {"doubles": "declared"}},
    {"follow_me": True, "sevens": True}]
# a value of each JSON type, and strings that are nearly a seat or a tile
VALUES: list[Any] = [None, True, False, 0, 2, 30, -1, 1.5, "1", "A", "E", "a", "5|3", "0|5",
                     "none", [], {}]


def actions_of_the_spec() -> list[dict[str, Any]]:
    """Every action form spec/actions.md shows (its variants' too), and the trumps it names
    without an example."""
    text = (ROOT / "spec" / "actions.md").read_text(encoding="utf-8")
    shown = [json.loads(found.replace("\\|", "|")) for found in
             sorted(set(re.findall(r'\{"type": "[a-z]+"[^}]*\}', text)))]
    return shown + [{"type": "trump", "seat": "A", "trump": "doubles", "stacks": 1},
                    {"type": "trump", "seat": "A", "trump": "none"}]


def mutations(action: dict[str, Any]) -> list[Any]:
    """The action, each field dropped, an unknown field added, each field's value replaced
    by each of VALUES; and values that are not objects at all."""
    out: list[Any] = [action, {**action, "x": 1}, None, [action], "pass"]
    for name in action:
        out.append({k: v for k, v in action.items() if k != name})
        out.extend({**action, name: value} for value in VALUES)
    return out


def verdict(action: Any, variants: dict[str, Any]) -> str:
    """"ok" or the code the reference refuses the action's form with."""
    try:
        parse_action(action, rules_for(variants))
    except IllegalAction as refused:
        return refused.code
    return "ok"


def cases() -> list[tuple[Any, dict[str, Any], str]]:
    """(action, variants, verdict), each distinct pair once."""
    seen: set[str] = set()
    out = []
    for variants in VARIANTS:
        for base in actions_of_the_spec():
            for action in mutations(base):
                key = json.dumps([action, variants], sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    out.append((action, variants, verdict(action, variants)))
    return out


def assert_agrees(said: list[str], given: list[tuple[Any, dict[str, Any], str]]) -> None:
    """A kit's checker printed one verdict per case (`ok` or a code): each must be the
    reference's."""
    assert len(said) == len(given)
    wrong = [(a, v, want, got) for (a, v, want), got in zip(given, said, strict=True)
             if got != want]
    assert wrong == [], wrong[:10]


def lines(given: list[tuple[Any, dict[str, Any], str]]) -> str:
    """The cases as a checker reads them: `[action, variants]`, one JSON line each."""
    return "".join(json.dumps([a, v]) + "\n" for a, v, _ in given)
