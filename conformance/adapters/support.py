"""Partial support of an option (protocol.md, "Partial support").

An implementation's `variants` lists options by name, or as `{"name": option, "settings":
{setting: [values]}}`: then it supports only those values of each setting named (a
setting not named: every value). A scenario that needs another value is skipped, naming
the setting, never failed. The settings and their defaults are variants.md's, read from
the reference engine's option table (the one place they are known).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# option -> setting -> the values supported; an option or setting absent: all of them
Limits = dict[str, dict[str, tuple[Any, ...]]]


def _same(a: Any, b: Any) -> bool:
    """Equal and of one JSON type: the setting 1 is not `true` (FORCE-01)."""
    return type(a) is type(b) and a == b


def declared(items: Iterable[Any]) -> tuple[list[str], Limits]:
    """The option names of a `variants` list, and the settings limited by its objects.
    ValueError for an entry that is neither a name nor such an object, or an object that
    names an unknown option or setting or a value the setting does not have (variants.md)."""
    from reference_impl.variants import OPTIONS

    names: list[str] = []
    limits: Limits = {}
    for item in items:
        if isinstance(item, str):
            names.append(item)
            continue
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise ValueError(f"a variants entry is an option name or "
                             f"{{\"name\": ..., \"settings\": ...}}, not {item!r}")
        name = item["name"]
        option = OPTIONS.get(name)
        if option is None:
            raise ValueError(f"unknown variant option {name!r}")
        names.append(name)
        settings = item.get("settings") or {}
        if not isinstance(settings, Mapping):
            raise ValueError(f"{name}: settings must be an object of value lists")
        for key, values in settings.items():
            setting = option.settings.get(key)
            if setting is None:
                raise ValueError(f"option {name} has no setting {key!r}")
            if not isinstance(values, list | tuple) or not values:
                raise ValueError(f"{name}.{key}: a non-empty list of the values supported")
            for value in values:
                if type(value) is not type(setting.default) or value not in setting.values:
                    raise ValueError(f"{name}.{key} has no value {value!r}")
            limits.setdefault(name, {})[key] = tuple(values)
    return names, limits


def needed(scenario: Any) -> list[dict[str, Any]]:
    """The `variants` objects of a scenario's setups that must be accepted (its first
    setup carries the scenario's own; a setup that must be refused needs nothing)."""
    found: list[dict[str, Any]] = []
    for step in scenario.steps:
        if step.kind == "setup" and step.reject is None and isinstance(step.payload, dict):
            value = step.payload.get("variants")
            if isinstance(value, dict) and value and value not in found:
                found.append(value)
    return found


def unsupported(scenario: Any, limits: Mapping[str, Mapping[str, tuple[Any, ...]]]
                ) -> list[str]:
    """`option setting: value` for each value the scenario needs outside `limits` (a
    setting left out counts as its default, VAR-01); [] when all are supported."""
    from reference_impl.variants import OPTIONS

    out: list[str] = []
    for variants in needed(scenario):
        for name, value in variants.items():
            allowed = limits.get(name)
            option = OPTIONS.get(name)
            if not allowed or option is None:
                continue
            given = value if isinstance(value, dict) else {}
            for key, values in allowed.items():
                setting = option.settings.get(key)
                if setting is None:
                    continue
                chosen = given.get(key, setting.default)
                if type(chosen) is not type(setting.default) or chosen not in setting.values:
                    continue  # not a value of the setting: refused, needs no support
                if not any(_same(chosen, v) for v in values):
                    text = f"{name} {key}: {_json(chosen)}"
                    if text not in out:
                        out.append(text)
    return out


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
