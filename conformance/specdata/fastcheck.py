"""A fast, conservative validity check compiled from the JSON Schemas.

jsonschema takes milliseconds per referee view; the runner reads hundreds of views. This
compiles the subset of JSON Schema used in spec/schemas/ into plain closures. It is only
ever a shortcut for "valid": when it says False (or meets a keyword it does not know),
jsonschema decides and explains. So it may be stricter than the schema, never looser
(tests/harness/test_fastcheck.py compares the two on many instances).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]
IGNORED = {"$schema", "$id", "$defs", "$comment", "title", "description", "examples"}


class Unsupported(Exception):
    pass


def _is_int(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or (
        isinstance(x, float) and x.is_integer())


TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": _is_int,
    "number": lambda x: isinstance(x, int | float) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: a boolean never equals a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b or (_is_num(a) and _is_num(b) and a == b)


def _is_num(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _static_properties(schema: Any) -> tuple[set[str], list[str]] | None:
    """Property names and patterns evaluated unconditionally (for unevaluatedProperties)."""
    if not isinstance(schema, dict):
        return None
    names = set(schema.get("properties", {}))
    patterns = list(schema.get("patternProperties", {}))
    for sub in schema.get("allOf", []):
        found = _static_properties(sub)
        if found:
            names |= found[0]
            patterns += found[1]
    return names, patterns


def compile_schema(schema: Any) -> Check:
    """A closure that returns True only if `schema` (refs already inlined) accepts x."""
    if schema is True:
        return lambda x: True
    if schema is False:
        return lambda x: False
    checks: list[Check] = []
    for key, value in schema.items():
        if key in IGNORED or key in ("then", "else"):
            continue
        maker = _KEYWORDS.get(key)
        if maker is None:
            raise Unsupported(key)
        checks.append(maker(value, schema))
    if len(checks) == 1:
        return checks[0]
    return lambda x: all(check(x) for check in checks)


def _type(value: Any, _s: Any) -> Check:
    names = [value] if isinstance(value, str) else value
    tests = [TYPES[n] for n in names]
    return lambda x: any(t(x) for t in tests)


def _scalar_key(x: Any) -> tuple[str, Any] | None:
    """A hashable key under JSON equality, for scalars (None for objects and arrays)."""
    if isinstance(x, bool):
        return ("bool", x)
    if _is_num(x):
        return ("num", x)
    if isinstance(x, str) or x is None:
        return ("str" if x is not None else "null", x)
    return None


def _enum(value: list[Any], _s: Any) -> Check:
    keys = {_scalar_key(v) for v in value}
    if None not in keys:  # scalars only: a set lookup (28 tiles are checked often)
        return lambda x: _scalar_key(x) in keys
    return lambda x: any(json_equal(x, v) for v in value)


def _const(value: Any, _s: Any) -> Check:
    return lambda x: json_equal(x, value)


def _properties(value: dict[str, Any], _s: Any) -> Check:
    subs = {k: compile_schema(v) for k, v in value.items()}
    return lambda x: not isinstance(x, dict) or all(
        subs[k](x[k]) for k in subs if k in x)


def _required(value: list[str], _s: Any) -> Check:
    return lambda x: not isinstance(x, dict) or all(k in x for k in value)


def _additional(value: Any, schema: dict[str, Any]) -> Check:
    known = set(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    sub = compile_schema(value)
    return lambda x: not isinstance(x, dict) or all(
        sub(x[k]) for k in x if k not in known and not any(p.search(k) for p in patterns))


def _unevaluated(value: Any, schema: dict[str, Any]) -> Check:
    if value is not False:
        raise Unsupported("unevaluatedProperties")
    names, raw = _static_properties(schema) or (set(), [])
    patterns = [re.compile(p) for p in raw]
    return lambda x: not isinstance(x, dict) or all(
        k in names or any(p.search(k) for p in patterns) for k in x)


def _pattern_properties(value: dict[str, Any], _s: Any) -> Check:
    subs = [(re.compile(p), compile_schema(v)) for p, v in value.items()]
    return lambda x: not isinstance(x, dict) or all(
        sub(x[k]) for k in x for p, sub in subs if p.search(k))


def _items(value: Any, _s: Any) -> Check:
    sub = compile_schema(value)
    return lambda x: not isinstance(x, list) or all(sub(i) for i in x)


def _min_items(value: int, _s: Any) -> Check:
    return lambda x: not isinstance(x, list) or len(x) >= value


def _max_items(value: int, _s: Any) -> Check:
    return lambda x: not isinstance(x, list) or len(x) <= value


def _unique(value: bool, _s: Any) -> Check:
    if not value:
        return lambda x: True
    return lambda x: not isinstance(x, list) or all(
        not json_equal(a, b) for i, a in enumerate(x) for b in x[i + 1:])


def _min_props(value: int, _s: Any) -> Check:
    return lambda x: not isinstance(x, dict) or len(x) >= value


def _minimum(value: float, _s: Any) -> Check:
    return lambda x: not _is_num(x) or x >= value


def _maximum(value: float, _s: Any) -> Check:
    return lambda x: not _is_num(x) or x <= value


def _min_length(value: int, _s: Any) -> Check:
    return lambda x: not isinstance(x, str) or len(x) >= value


def _pattern(value: str, _s: Any) -> Check:
    regex = re.compile(value)
    return lambda x: not isinstance(x, str) or regex.search(x) is not None


def _property_names(value: Any, _s: Any) -> Check:
    sub = compile_schema(value)
    return lambda x: not isinstance(x, dict) or all(sub(k) for k in x)


def _all_of(value: list[Any], _s: Any) -> Check:
    subs = [compile_schema(v) for v in value]
    return lambda x: all(s(x) for s in subs)


def _any_of(value: list[Any], _s: Any) -> Check:
    subs = [compile_schema(v) for v in value]
    return lambda x: any(s(x) for s in subs)


def _one_of(value: list[Any], _s: Any) -> Check:
    subs = [compile_schema(v) for v in value]
    return lambda x: sum(1 for s in subs if s(x)) == 1


def _not(value: Any, _s: Any) -> Check:
    sub = compile_schema(value)
    return lambda x: not sub(x)


def _if(value: Any, schema: dict[str, Any]) -> Check:
    cond = compile_schema(value)
    then = compile_schema(schema.get("then", True))
    other = compile_schema(schema.get("else", True))
    return lambda x: then(x) if cond(x) else other(x)


_KEYWORDS: dict[str, Callable[[Any, Any], Check]] = {
    "type": _type, "enum": _enum, "const": _const, "properties": _properties,
    "required": _required, "additionalProperties": _additional,
    "unevaluatedProperties": _unevaluated, "patternProperties": _pattern_properties,
    "items": _items, "minItems": _min_items, "maxItems": _max_items, "uniqueItems": _unique,
    "minProperties": _min_props, "minimum": _minimum, "maximum": _maximum,
    "minLength": _min_length, "pattern": _pattern, "propertyNames": _property_names,
    "allOf": _all_of, "anyOf": _any_of, "oneOf": _one_of, "not": _not, "if": _if,
}


def inline_refs(schemas: dict[str, Any], name: str) -> Any:
    """The schema `name` with every $ref replaced by its target (the schemas are not
    recursive). A $ref beside other keywords becomes an allOf member."""

    def resolve(ref: str, base: str) -> tuple[Any, str]:
        file, _, fragment = ref.partition("#")
        file = _join(base, file) if file else base
        node = schemas[file]
        for part in (p for p in fragment.split("/") if p):
            node = node[part]
        return node, file

    def walk(node: Any, base: str) -> Any:
        if isinstance(node, list):
            return [walk(item, base) for item in node]
        if not isinstance(node, dict):
            return node
        out = {k: walk(v, base) for k, v in node.items() if k not in ("$ref", "$defs")}
        if "$ref" in node:
            target, file = resolve(node["$ref"], base)
            inlined = walk(target, file)
            if not out:
                return inlined
            out["allOf"] = [inlined, *out.get("allOf", [])]
        return out

    return walk(schemas[name], name)


def _join(base: str, ref: str) -> str:
    parts = base.split("/")[:-1] + ref.split("/")
    out: list[str] = []
    for part in parts:
        if part == "..":
            out.pop()
        elif part not in ("", "."):
            out.append(part)
    return "/".join(out)
