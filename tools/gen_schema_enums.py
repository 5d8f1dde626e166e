"""Generate spec/schemas/spec-enums.schema.json: the spec's closed lists as JSON Schema enums.

    python tools/gen_schema_enums.py            # rewrite the file
    python tools/gen_schema_enums.py --check    # exit 1 if it is stale

scenario.schema.json refers to these enums, so an editor that validates a scenario with it
flags a misspelt view field (`trick_won`), an unknown error code (`NOT_YOUR_TRUN`) and an
unknown rule ID (`PLAY-99`) as you type. The lists come from the one parser of the spec
(conformance.specdata.index) and from view.schema.json and observation.schema.json, so they
are never kept by hand. `t42 check` reports the same mistakes in its own words. The
generator is in the package (conformance.specdata.generate, which `t42 docs` runs); this
is its command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Run as a script from a checkout: the generator is the harness's own.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from conformance.specdata.generate import (  # noqa: E402
    build_enums,
    render_enums,
    write_or_check,
)

SPEC = ROOT / "spec"
OUT = SPEC / "schemas" / "spec-enums.schema.json"
build, render = build_enums, render_enums


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
