"""Generate spec/errors.md from spec/errors.yaml.

    python tools/gen_errors_md.py            # rewrite spec/errors.md
    python tools/gen_errors_md.py --check    # exit 1 if spec/errors.md is stale

errors.yaml is the data; errors.md is only its readable form, in the single check order
(DIG-03), so nobody edits the order or the texts twice. The generator is in the package
(conformance.specdata.generate, which `t42 docs` runs); this is its command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Run as a script from a checkout: the generator is the harness's own.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conformance.specdata.generate import render_errors_md, write_or_check  # noqa: E402
from conformance.specdata.index import read_codes  # noqa: E402

SPEC = Path(__file__).resolve().parent.parent / "spec"
render = render_errors_md


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
