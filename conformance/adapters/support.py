"""Partial support of an option (protocol.md, "Partial support").

An implementation's `variants` lists options by name, or as `{"name": option, "settings":
{setting: [values]}}`: then it supports only those values of each setting named. A
scenario that needs another value is skipped, naming the setting, never failed. The
settings and their defaults are variants.md's, read from the reference engine's option
table (the one place they are known).

A declaration is read against the spec version its hello names (`spec`, protocol.md,
"Declarations and spec versions"): a name claims the settings and values the option had
in that version (spec/versions.yaml `added`), and a setting added since only when left
out (at its default, the behaviour from before it existed). A hello naming no version
was written before hellos named one: a name is read at the first version that had the
option, an object's settings it does not name at the current spec (the object form is
new in it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

# option -> setting -> the values supported; an option or setting absent: all of them
Limits = dict[str, dict[str, tuple[Any, ...]]]
# The values of a setting newer than the declaration: none; a scenario may only leave it out.
NEWER: tuple[Any, ...] = ()


def _same(a: Any, b: Any) -> bool:
    """Equal and of one JSON type: the setting 1 is not `true` (FORCE-01)."""
    return type(a) is type(b) and a == b


def current_spec() -> str:
    """The spec version this suite judges against (spec/versions.yaml `spec`)."""
    from conformance.specdata.versions import versions

    return str(versions()["spec"])


def _as_of(name: str, spec: str | None) -> dict[str, list] | None:
    """The settings option `name` had in the version a name-only declaration is read at
    (None: the current spec's, every value): `spec`'s, or with no version (or an option
    `spec` did not have) the first released version that had the option."""
    from conformance.specdata.versions import released, settings_at

    if spec is not None and spec != current_spec():
        table = settings_at(spec)
        if table is None:
            raise ValueError(f"spec {spec!r} is not a version of spec/versions.yaml (released: "
                             f"{', '.join(released())}; current: {current_spec()})")
        if name in table:
            return table[name]
    elif spec is not None:
        return None
    for version in reversed(released()):  # oldest first
        table = settings_at(version) or {}
        if name in table:
            return table[name]
    return None


def _typed(values: Iterable[Any]) -> frozenset[tuple[str, Any]]:
    """Values with their JSON types, to compare as sets: 1 is not `true`, 2 not "2"."""
    return frozenset((type(v).__name__, v) for v in values)


def claimed(name: str, spec: str | None) -> dict[str, tuple[Any, ...]]:
    """The limits a name-only declaration of option `name` carries, read at `spec`: each
    setting whose values then differ from today's; NEWER for a setting added since."""
    return dict(_claimed(name, spec))


@cache
def _claimed(name: str, spec: str | None) -> dict[str, tuple[Any, ...]]:
    from reference_impl.variants import OPTIONS

    option = OPTIONS.get(name)
    then = _as_of(name, spec) if option is not None else None
    if option is None or then is None:
        return {}
    out: dict[str, tuple[Any, ...]] = {}
    for key, setting in option.settings.items():
        if key not in then:
            out[key] = NEWER
        elif _typed(setting.values) - _typed(then[key]):
            out[key] = tuple(then[key])
    return out


def declared(items: Iterable[Any], spec: str | None) -> tuple[list[str], Limits]:
    """The option names of a `variants` list, and the settings limited, read against the
    spec version `spec` the declaration was written for (None: none named). ValueError for
    an entry that is neither a name nor such an object, an object that names an unknown
    option or setting or a value the setting does not have (variants.md), or a version
    spec/versions.yaml does not list."""
    from reference_impl.variants import OPTIONS, accepts

    names: list[str] = []
    limits: Limits = {}
    for item in items:
        if isinstance(item, str):
            names.append(item)
            by_name = claimed(item, spec)
            if by_name:
                limits[item] = by_name
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
        own = claimed(name, spec) if spec is not None else {}  # a copy, changed below
        for key, values in settings.items():
            setting = option.settings.get(key)
            if setting is None:
                raise ValueError(f"option {name} has no setting {key!r}")
            if not isinstance(values, list | tuple) or not values:
                raise ValueError(f"{name}.{key}: a non-empty list of the values supported")
            for value in values:
                if not accepts(setting, value):  # each value of its own type (splash marks)
                    raise ValueError(f"{name}.{key} has no value {value!r}")
            own[key] = tuple(values)
        if own:
            limits[name] = own
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


def lacking(scenario: Any, limits: Mapping[str, Mapping[str, tuple[Any, ...]]]
            ) -> list[tuple[str, str, Any, tuple[Any, ...]]]:
    """(option, setting, value, the values supported) for each value the scenario needs
    outside `limits` (a setting left out counts as its default, VAR-01); [] when all are
    supported. NEWER's () means the setting must be left out."""
    from reference_impl.variants import OPTIONS, accepts

    out: list[tuple[str, str, Any, tuple[Any, ...]]] = []
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
                if not accepts(setting, chosen):
                    continue  # not a value of the setting: refused, needs no support
                if not values and key not in given:
                    continue  # NEWER, left out: its default, the behaviour from before it
                if not any(_same(chosen, v) for v in values):
                    found = (name, key, chosen, values)
                    if not any(f[:2] == found[:2] and _same(f[2], chosen) for f in out):
                        out.append(found)
    return out


def unsupported(scenario: Any, limits: Mapping[str, Mapping[str, tuple[Any, ...]]]
                ) -> list[str]:
    """`option setting: value` for each value the scenario needs outside `limits`
    (`lacking`); [] when all are supported."""
    return [setting_text(name, key, value) for name, key, value, _ in lacking(scenario, limits)]


def setting_text(name: str, key: str, value: Any) -> str:
    """How a setting value is named in a skip reason: `plunge when: "before_bids"`."""
    return f"{name} {key}: {_json(value)}"


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
