"""Generate spec/errors.md from spec/errors.yaml.

    python tools/gen_errors_md.py            # rewrite spec/errors.md
    python tools/gen_errors_md.py --check    # exit 1 if spec/errors.md is stale

errors.yaml is the data; errors.md is only its readable form, in the single check order
(DIG-03), so nobody edits the order or the texts twice.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any

# Run as a script from a checkout: the spec parser is the harness's own (one parser).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conformance.specdata.index import check_order, read_codes  # noqa: E402
from tools.generated import write_or_check  # noqa: E402

SPEC = Path(__file__).resolve().parent.parent / "spec"

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


def render(codes: list[dict[str, Any]]) -> str:
    """The whole of errors.md for the given errors.yaml codes."""
    order = check_order(codes)
    rows = [_row(i, c) for i, c in enumerate(order, start=1)]
    sections = [_section(i, c) for i, c in enumerate(order, start=1)]
    return HEADER + "\n".join(rows) + "\n\n" + "\n".join(sections)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the output is stale")
    parser.add_argument("--errors", type=Path, default=SPEC / "errors.yaml")
    parser.add_argument("--out", type=Path, default=SPEC / "errors.md")
    args = parser.parse_args(argv)
    text = render(read_codes(args.errors))
    return write_or_check(args.out, text, args.check, "python tools/gen_errors_md.py")


if __name__ == "__main__":
    sys.exit(main())
