"""Varied option values for fuzz setups (VAR-01): valid settings, and invalid ones.

A campaign run with `--variants '{"nello": true}'` would otherwise only ever send
`{"nello": true}`, and an implementation that mishandles `{"nello": {"min_marks": 2}}` or
accepts `{"nello": false}` would never be caught. So each game gives each option named
`true` a value drawn from what VAR-01 allows: `true`, `{}` or an object of settings, each
setting left out or set to one of its values (an enumerated value, or an integer in its
range, near its ends half the time). Now and then a game also sends a setup that VAR-01
refuses (`invalid_setup`): an option given as `false`, `null`, a number, a string or a
list, an unknown setting, a value the setting does not list, an integer out of range;
with `deal_by_drawing`, half the time draws that DRAW-04 refuses instead.
The settings and their ranges are read from spec/schemas/setup.schema.json, which
follows spec/variants.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def option_settings() -> dict[str, dict[str, dict[str, Any]]]:
    """Option name -> setting name -> its schema (`enum`, or integer `minimum`/`maximum`)."""
    from conformance.specdata.files import schemas_dir

    schema = json.loads((schemas_dir() / "setup.schema.json").read_text(encoding="utf-8"))
    options = schema["$defs"]["variants"]["properties"]
    return {name: dict(option.get("properties", {})) for name, option in options.items()}


def setting_value(rng: random.Random, setting: dict[str, Any]) -> Any:
    """One value the setting lists: an enumerated value, or an integer in its range (one
    of its ends or next to one half the time: a target of 1 ends a match at once)."""
    if "enum" in setting:
        return rng.choice(setting["enum"])
    low, high = setting.get("minimum", 0), setting.get("maximum", 100)
    if rng.random() < 0.5:
        return rng.choice((low, min(low + 1, high), max(high - 1, low), high))
    return rng.randint(low, min(high, max(low, _points_target())))


def _points_target() -> int:
    """The match_points target unless set (MPTS-01): a random integer setting stays at
    most that, so that a fuzzed match can end."""
    from reference_impl.variants import OPTIONS

    return int(OPTIONS["match_points"].settings["target"].default)


def vary(rng: random.Random, variants: dict[str, Any],
         limits: Mapping[str, Mapping[str, tuple[Any, ...]]] | None = None) -> dict[str, Any]:
    """The options with each `true` one given a random valid value (VAR-01): `true`,
    `{}`, or some of its settings. An object of settings is kept as given. `limits`: the
    values an implementation supports of some settings (protocol.md, "Partial support"),
    the only ones drawn."""
    known = option_settings()
    out: dict[str, Any] = {}
    for name, value in variants.items():
        settings = known.get(name)
        if value is not True or settings is None:
            out[name] = value
            continue
        roll = rng.random()
        if roll < 0.4 or (roll < 0.6 and not settings):
            out[name] = True
        elif not settings or roll < 0.6:
            out[name] = {}
        else:
            out[name] = {key: setting_value(rng, setting) for key, setting in settings.items()
                         if rng.random() < 0.6}
        if limits and limits.get(name):
            out[name] = _within(rng, name, out[name], limits[name])
    return out


def _within(rng: random.Random, name: str, value: Any,
            allowed: Mapping[str, tuple[Any, ...]]) -> Any:
    """`value` of option `name` with each limited setting drawn from its supported values
    when the drawn one (or the default it leaves in force) is not one of them."""
    from reference_impl.variants import OPTIONS

    settings = dict(value) if isinstance(value, dict) else {}
    changed = False
    for key, values in allowed.items():
        if not values:  # a setting newer than the declaration (support.NEWER): left out
            changed = changed or key in settings
            settings.pop(key, None)
            continue
        chosen = settings.get(key, OPTIONS[name].settings[key].default)
        if not any(type(chosen) is type(v) and chosen == v for v in values):
            settings[key] = rng.choice(values)
            changed = True
    return settings if changed else value


WRONG_FORMS: tuple[Any, ...] = (False, None, 1, 0, "true", [], ["on"])  # not true, not {}


def invalid_value(rng: random.Random, name: str, value: Any) -> Any:
    """A value of option `name` that VAR-01 refuses, near `value`."""
    settings = option_settings().get(name, {})
    roll = rng.random()
    if roll < 0.5 or not settings:
        if rng.random() < 0.5:
            return False  # the likeliest mistake: `false` read as "off"
        return rng.choice(WRONG_FORMS)
    base = dict(value) if isinstance(value, dict) else {}
    if roll < 0.65:
        return {**base, "unknown_setting": True}  # an unknown setting
    key = rng.choice(sorted(settings))
    setting = settings[key]
    if "enum" in setting:
        wrong = rng.choice(("", "other", 0, 99, True, None, setting["enum"][:1]))
        if any(type(wrong) is type(v) and wrong == v for v in setting["enum"]):
            wrong = "other"  # a value of the setting (each of its own type: splash marks)
        return {**base, key: wrong}
    low, high = setting.get("minimum", 0), setting.get("maximum", 100)
    return {**base, key: rng.choice((low - 1, high + 1, 0 if low > 0 else -1, low + 0.5,
                                     str(low), True))}


def invalid_setup(rng: random.Random, setup: dict[str, Any]) -> dict[str, Any] | None:
    """The setup with one option's value made one VAR-01 refuses (None: no options); with
    deal_by_drawing, half the time its draws made ones DRAW-04 refuses."""
    variants = setup.get("variants")
    if not isinstance(variants, dict) or not variants:
        return None
    if "deal_by_drawing" in variants and rng.random() < 0.5:
        return invalid_draws(rng, setup)
    name = rng.choice(sorted(variants))
    return {**setup, "variants": {**variants, name: invalid_value(rng, name, variants[name])}}


def invalid_draws(rng: random.Random, setup: dict[str, Any]) -> dict[str, Any]:
    """The setup with draws DRAW-04 refuses: a last round still tied for the highest pip
    total, or `draws` beside a `dealer`."""
    from reference_impl.tiles import NAMES, SEATS

    by_total: dict[int, list[str]] = {}
    for tile in NAMES:
        by_total.setdefault(sum(map(int, tile.split("|"))), []).append(tile)
    total = rng.choice([t for t, tiles in by_total.items() if t >= 3 and len(tiles) >= 2])
    lower = [tile for t, tiles in by_total.items() if t < total for tile in tiles]
    seats = rng.sample(SEATS, 4)
    rest = {k: v for k, v in setup.items() if k not in ("dealer", "draws")}
    if rng.random() < 0.5:  # two seats tie for the highest total, and nobody draws again
        tiles = rng.sample(by_total[total], 2) + rng.sample(lower, 2)
        return {**rest, "draws": [dict(zip(seats, tiles, strict=True))]}
    tiles = [rng.choice(by_total[total]), *rng.sample(lower, 3)]  # a valid draw, and a dealer
    return {**rest, "dealer": rng.choice(SEATS),
            "draws": [dict(zip(seats, tiles, strict=True))]}
