"""The files made from the spec, and their generators: spec/errors.md (the readable form
of errors.yaml, in the check order, DIG-03) and spec/schemas/spec-enums.schema.json (the
spec's closed lists as JSON Schema enums, for scenario.schema.json).

In the package, so that `t42 docs` and `t42 check` work from an installed copy as from a
checkout; tools/gen_errors_md.py and tools/gen_schema_enums.py are their command lines.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.specdata.index import check_order, load_index, read_codes


def write_or_check(out: Path, text: str, check: bool, how: str) -> int:
    """Write `text` to `out`; with `check`, write nothing and return 1 if `out` differs
    (`how` is the command that remakes it)."""
    if check:
        current = out.read_text(encoding="utf-8") if out.exists() else None
        if current != text:
            print(f"{out} is stale: run {how}", file=sys.stderr)
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    return 0


# ---- spec/errors.md ------------------------------------------------------------------

HEADER = """\
# Error codes

<!-- Generated from errors.yaml by tools/gen_errors_md.py. Do not edit by hand: edit
errors.yaml and run `python tools/gen_errors_md.py`. -->

The closed list of codes an implementation reports when it rejects an action, a setup or
a deal (DIG-03). When an action breaks several rules at once, the code reported MUST be
the first one in the check order below. Codes that variants add (`variants.md`) are
written at the end of `errors.yaml` so that no base position moves, and are placed here
at the position their `check_after` gives them. A rejected action changes
nothing (DIG-03).

| # | code | applies to | rules | only with option |
| --- | --- | --- | --- | --- |
"""


def _joined(values: Any) -> str:
    return ", ".join(str(v) for v in values or [])


def _row(position: int, code: dict[str, Any]) -> str:
    options = _joined(f"`{v}`" for v in code.get("variants", []))
    return (
        f"| {position} | [`{code['code']}`](#{code['code'].lower()}) | "
        f"{_joined(code['applies_to'])} | {_joined(code['rules'])} | {options} |"
    )


def _section(position: int, code: dict[str, Any]) -> str:
    lines = [f"## {code['code']}", ""]
    where = f"Check position {position}"
    if "check_after" in code:
        where += f", right after `{code['check_after']}`"
    where += f". Applies to: {_joined(code['applies_to'])}. Rules: {_joined(code['rules'])}."
    if code.get("variants"):
        where += f" Raised only with option {_joined(f'`{v}`' for v in code['variants'])}."
    lines.append(textwrap.fill(where, width=90))
    lines += ["", textwrap.fill(" ".join(str(code["when"]).split()), width=90), ""]
    return "\n".join(lines)


def render_errors_md(codes: list[dict[str, Any]]) -> str:
    """The whole of errors.md for the given errors.yaml codes."""
    order = check_order(codes)
    rows = [_row(i, c) for i, c in enumerate(order, start=1)]
    sections = [_section(i, c) for i, c in enumerate(order, start=1)]
    return HEADER + "\n".join(rows) + "\n\n" + "\n".join(sections)



# ---- spec/schemas/spec-enums.schema.json -----------------------------------------------

MARK = "generated from the spec by tools/gen_schema_enums.py; do not edit"


def _fields(schema_file: Path) -> list[str]:
    return list(json.loads(schema_file.read_text(encoding="utf-8"))["properties"])


def build_enums(spec: Path) -> dict[str, Any]:
    index = load_index(spec)
    rules = [r.id for r in index.items if not r.withdrawn and index.rules.get(r.id) is r]
    codes = [c["code"] for c in check_order(read_codes(spec / "errors.yaml"))]
    schemas = spec / "schemas"

    def enum(description: str, values: list[str]) -> dict[str, Any]:
        return {"$comment": MARK, "description": description, "enum": values}

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": MARK,
        "title": "The spec's closed lists, for scenario.schema.json",
        "$defs": {
            "ruleId": enum("a rule ID of spec/rules.md or spec/variants.md (not withdrawn)",
                           rules),
            "errorCode": enum("an error code of spec/errors.yaml", codes),
            "viewField": enum("a field of the referee view (view.schema.json)",
                              _fields(schemas / "view.schema.json")),
            "observationField": {
                "$comment": MARK,
                "description": "a field of a seat observation (observation.schema.json) "
                               "or an x_ extension field",
                "anyOf": [{"enum": _fields(schemas / "observation.schema.json")},
                          {"type": "string", "pattern": "^x_"}],
            },
        },
    }


def render_enums(spec: Path) -> str:
    return json.dumps(build_enums(spec), indent=2, ensure_ascii=False) + "\n"



# What each generated file (relative to the spec folder) is made by, from the spec folder.
GENERATED: dict[str, Callable[[Path], str]] = {
    "errors.md": lambda spec: render_errors_md(read_codes(spec / "errors.yaml")),
    "schemas/spec-enums.schema.json": render_enums,
}


def generate(spec: Path, check: bool) -> int:
    """Write every generated file of `spec` (with `check`: only say which are stale,
    on stderr); 1 if any was stale."""
    return max(write_or_check(spec / name, make(spec), check, "t42 docs")
               for name, make in GENERATED.items())
