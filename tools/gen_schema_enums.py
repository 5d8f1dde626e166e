"""Generate spec/schemas/spec-enums.schema.json: the spec's closed lists as JSON Schema enums.

    python tools/gen_schema_enums.py            # rewrite the file
    python tools/gen_schema_enums.py --check    # exit 1 if it is stale

scenario.schema.json refers to these enums, so an editor that validates a scenario with it
flags a misspelt view field (`trick_won`), an unknown error code (`NOT_YOUR_TRUN`) and an
unknown rule ID (`PLAY-99`) as you type. The lists come from the one parser of the spec
(conformance.specdata.index) and from view.schema.json and observation.schema.json, so they
are never kept by hand. `t42 check` reports the same mistakes in its own words.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

# Run as a script from a checkout: the spec parser is the harness's own (one parser).
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from conformance.specdata.index import check_order, load_index, read_codes  # noqa: E402
from tools.generated import write_or_check  # noqa: E402

SPEC = ROOT / "spec"
OUT = SPEC / "schemas" / "spec-enums.schema.json"
MARK = "generated from the spec by tools/gen_schema_enums.py; do not edit"


def _fields(schema_file: Path) -> list[str]:
    return list(json.loads(schema_file.read_text(encoding="utf-8"))["properties"])


def build(spec: Path) -> dict[str, Any]:
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


def render(spec: Path) -> str:
    return json.dumps(build(spec), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    parser.add_argument("--spec", type=Path, default=SPEC)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    text = render(args.spec)
    return write_or_check(args.out, text, args.check, "python tools/gen_schema_enums.py")


if __name__ == "__main__":
    sys.exit(main())
