"""The spec's own data, read where it lives (spec/), for the engine tests."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from .support import SPEC


def _index():
    """The spec index of the harness (conformance/specdata/index.py): one parser for everyone."""
    from conformance.specdata.index import load_index

    return load_index(SPEC)


def _codes() -> list[dict]:
    from conformance.specdata.index import read_codes

    return read_codes(SPEC / "errors.yaml")


@cache
def error_codes() -> list[dict]:
    """The base game's codes of errors.yaml, in check order (variant codes left out)."""
    return [c for c in _codes() if "variants" not in c]


@cache
def codes_in_check_order() -> list[dict]:
    """Every code of errors.yaml in the single check order: a variant's code right after
    the code its `check_after` names (errors.yaml header)."""
    from conformance.specdata.index import check_order

    return check_order(_codes())


@cache
def variant_rule_ids() -> list[str]:
    """Rule IDs of spec/variants.md, in file order."""
    return [r.id for r in _index().rules.values() if r.file == "variants.md"]


@cache
def variant_options() -> list[str]:
    """The option names of spec/variants.md, in file order."""
    return list(_index().variants)


@cache
def rule_ids() -> list[str]:
    """Rule IDs of spec/rules.md, in file order."""
    return [r.id for r in _index().rules.values() if r.file == "rules.md"]


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def table_fields(heading: str) -> list[str]:
    """Field names in the first column of the table under `heading` (observation.md)."""
    body = section((SPEC / "observation.md").read_text(), heading)
    fields = []
    for line in body.splitlines():
        if line.startswith("| `"):
            fields += re.findall(r"`(\w+)`", line.split("|")[1])
    return fields


def object_fields(name: str) -> list[str]:
    """Top-level keys of an object defined as `**Name**...: `{...}`` (observation.md)."""
    text = (SPEC / "observation.md").read_text()
    body = text[text.index(f"**{name}**"):]
    body = body[body.index("`{") + 1:]
    keys, depth = [], 0
    for match in re.finditer(r'[{}\[\]]|"(\w+)":', body):
        token = match.group(0)
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1:
            keys.append(match.group(1))
    return keys


@cache
def schema_validator(name: str) -> Callable[[Any], None]:
    """A function that raises jsonschema.ValidationError unless its argument matches
    spec/schemas/<name> (with its references to the sibling schemas)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    schemas = {p.name: json.loads(p.read_text()) for p in (SPEC / "schemas").glob("*.json")}
    registry = Registry().with_resources(
        (file, DRAFT202012.create_resource(schema)) for file, schema in schemas.items())
    validator = Draft202012Validator(schemas[name], registry=registry)
    return validator.validate
