"""The JSON Schemas of spec/schemas/, loaded once, and readable error messages.

Two validators of the same schemas: jsonschema-rs (Rust) answers "valid?" for every view
and observation of a run, about 100 times faster than jsonschema; jsonschema explains
what is wrong when the answer is no, with the paths and messages a report shows.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from conformance.specdata.fields import FieldPath
from conformance.specdata.files import schemas_dir

# The `$comment` of the enums tools/gen_schema_enums.py writes from the spec (rule IDs,
# error codes, view and observation fields): editors need them; `t42 check` says the same
# in its own words, naming the spec file, so the loader leaves them out (`spec_lists`).
GENERATED = "generated from the spec"


def load_all() -> dict[str, Any]:
    root = schemas_dir()
    return {p.relative_to(root).as_posix(): json.loads(p.read_text()) for p in root.rglob("*.json")}


def _strip_required(schema: Any) -> Any:
    """The partial form of a schema: object fields optional (scenario `expect` is partial).

    `required` stays where it only picks a branch (a schema without `properties`, such as
    the points/marks choice of a bid) and inside `if`, which discriminates.
    """
    if isinstance(schema, list):
        return [_strip_required(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "required" and "properties" in schema:
            continue
        out[key] = value if key == "if" else _strip_required(value)
    return out


@cache
def _registry(partial: bool):  # -> referencing.Registry
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources = []
    for uri, schema in load_all().items():
        contents = _strip_required(schema) if partial else schema
        # without `$schema`, a `$ref` keeps the explaining validator's own keywords
        # (`_explaining`) instead of the stock class that `$schema` names
        contents = {key: value for key, value in contents.items() if key != "$schema"}
        resources.append((uri, Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


@cache
def _fast_registry(partial: bool):  # -> jsonschema_rs.Registry
    import jsonschema_rs

    loaded = load_all()
    return jsonschema_rs.Registry([(uri, _strip_required(schema) if partial else schema)
                                   for uri, schema in loaded.items()])


@cache
def _fast(ref: str, partial: bool):  # -> Callable[[Any], bool]
    """"Is it valid?" for `ref`, by jsonschema-rs (a no is explained by `validator`)."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator({"$ref": ref},
                                              registry=_fast_registry(partial)).is_valid


def _canonical(value: Any) -> Any:
    """A hashable form, equal for values JSON calls equal: 1 and 1.0 alike, true and 1 not."""
    if value is None or isinstance(value, bool | str):
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        return ("number", value)  # 1 == 1.0, and they hash alike
    if isinstance(value, dict):
        return ("object", frozenset((key, _canonical(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return ("array", tuple(_canonical(item) for item in value))
    raise TypeError(type(value).__name__)


def _unique_items(validator, unique, instance, schema):  # -> Iterator[ValidationError]
    """`uniqueItems` in linear time: python-jsonschema's compares objects pairwise, and an
    adapter's hello of 25,000 objects would hold the handshake for hours."""
    from jsonschema import ValidationError
    from jsonschema._keywords import uniqueItems

    if not (unique and validator.is_type(instance, "array")):
        return
    try:
        seen = {_canonical(item) for item in instance}
    except (TypeError, RecursionError):  # not JSON (a YAML date): the library's own way
        yield from uniqueItems(validator, unique, instance, schema)
        return
    if len(seen) < len(instance):
        yield ValidationError(f"{_short(instance)} has non-unique elements")


@cache
def _explaining():  # -> type[jsonschema.Draft202012Validator]
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {"uniqueItems": _unique_items})


@cache
def validator(ref: str, partial: bool = False):  # -> jsonschema.Draft202012Validator
    """A validator for `ref`, e.g. "view.schema.json" or "setup.schema.json#/$defs/deal"."""
    return _explaining()({"$ref": ref}, registry=_registry(partial))


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _leaf(error):  # -> jsonschema.ValidationError
    """Descend through oneOf/anyOf to the most telling sub-error."""
    from jsonschema.exceptions import best_match

    while error.context:
        if isinstance(error.schema, dict) and error.schema.get("description") and \
                not isinstance(error.instance, (dict, list)):
            break  # a value of none of the choices: the description names them all
        # a branch of another type (`null` beside an object) explains nothing when a branch
        # of the instance's own type is there to say what is wrong inside it
        inside = [e for e in error.context if e.relative_path or e.validator != "type"]
        deeper = best_match(inside or error.context)
        if deeper is None:
            break
        error = deeper
    return error


def _message(error) -> str:
    described = isinstance(error.schema, dict) and error.schema.get("description")
    if described and error.validator in ("enum", "const", "pattern", "not", "oneOf", "anyOf"):
        return f"{_short(error.instance)} is not {described}"
    if error.validator in ("enum", "const"):
        return f"{_short(error.instance)} is not {_short(error.validator_value, 120)}"
    return error.message if len(error.message) < 300 else error.message[:297] + "..."


def _extra_keys(error) -> list[str]:
    """The keys an additionalProperties/unevaluatedProperties error is about."""
    schema, instance = error.schema, error.instance
    if not isinstance(instance, dict):
        return []
    known = set(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    extra = [k for k in instance if k not in known and not any(p.search(k) for p in patterns)]
    if error.validator == "unevaluatedProperties":  # names come from $ref'd parts too
        unexpected = _unexpected(error.message)
        extra = [k for k in instance if k in unexpected] or extra
    return extra or ["?"]


def _unexpected(message: str) -> set[str]:
    """The names of "Unevaluated properties are not allowed ('a', 'b' were unexpected)",
    read once (a search of the message per key was quadratic)."""
    import ast

    found = re.search(r"\((.*) (?:was|were) unexpected\)$", message, re.DOTALL)
    try:
        names = ast.literal_eval(f"[{found[1]}]") if found else []
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return set()
    return {name for name in names if isinstance(name, str)}


def _generated(error) -> bool:
    schema = error.schema
    return isinstance(schema, dict) and str(schema.get("$comment", "")).startswith(GENERATED)


def _resolve(base: str, ref: str) -> tuple[str, Any]:
    """The file and the node a `$ref` names, from within the schema file `base`."""
    from urllib.parse import urljoin

    file, _, pointer = urljoin(base, ref).partition("#")
    node = load_all().get(file)
    for part in filter(None, pointer.split("/")):
        node = node.get(part) if isinstance(node, dict) else None
    return file, node


def _oversized(base: str, schema: Any, instance: Any,
               path: FieldPath = ()) -> list[tuple[FieldPath, str]]:
    """The arrays and objects of `instance` beyond the schema's `maxItems` and
    `maxProperties`, through `$ref`, `properties`, `items` and `additionalProperties`
    only: linear in the instance, so that a bound is said before the explaining validator
    spends time in proportion to what lies beyond it (a hello of 25,000 variants)."""
    if not isinstance(schema, dict):
        return []
    if "$ref" in schema:
        base, target = _resolve(base, schema["$ref"])
        return _oversized(base, target, instance, path)
    if isinstance(instance, list):
        most = schema.get("maxItems")
        if isinstance(most, int) and len(instance) > most:
            return [(path, f"{len(instance):,} items, at most {most}")]
        return [found for i, item in enumerate(instance)
                for found in _oversized(base, schema.get("items"), item, (*path, i))]
    if isinstance(instance, dict):
        most = schema.get("maxProperties")
        if isinstance(most, int) and len(instance) > most:
            return [(path, f"{len(instance):,} fields, at most {most}")]
        fields, other = schema.get("properties", {}), schema.get("additionalProperties")
        return [found for key, value in instance.items()
                for found in _oversized(base, fields.get(key, other), value, (*path, key))]
    return []


def check(ref: str, instance: Any, partial: bool = False,
          spec_lists: bool = True) -> list[tuple[FieldPath, str]]:
    """All schema problems of `instance` as (field path, message), in document order.
    With `spec_lists` False, the generated enums of the spec's closed lists are not judged
    (the caller checks those against the spec index itself). An array or object beyond its
    schema's bound is said alone, before anything inside it is explained."""
    if _fast(ref, partial)(instance):
        return []
    oversized = _oversized("", {"$ref": ref}, instance)
    if oversized:
        return oversized
    found = []
    for error in validator(ref, partial).iter_errors(instance):
        if not spec_lists and _generated(error):
            continue
        leaf = _leaf(error)
        path = tuple(leaf.absolute_path)
        if leaf.validator in ("additionalProperties", "unevaluatedProperties"):
            found += [(path + (key,), "unknown field") for key in _extra_keys(leaf)]
        else:
            found.append((path, _message(leaf)))
    return sorted(set(found), key=lambda item: [str(p) for p in item[0]])


def is_valid(ref: str, instance: Any) -> bool:
    return _fast(ref, False)(instance)
