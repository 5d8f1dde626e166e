"""The versions of spec/versions.yaml: the digest a release records, and the check that a
released number still names the spec and corpus it was given to.

    python tools/versions.py digest     # the digest to record in a release's entry
    python tools/versions.py check      # exit 1 if a released number names a changed tree
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("digest", "check"),
                        help="digest: print the digest of spec/ and scenarios/; check: "
                             "exit 1 if a released number names a changed spec or corpus")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.command == "digest":
        from conformance.specdata.versions import corpus_digest

        print(corpus_digest(ROOT))
        return 0
    from conformance.specdata.versions import versions_problem

    said = versions_problem(ROOT)
    print(said or "versions: consistent")
    return 1 if said else 0


if __name__ == "__main__":
    sys.exit(main())
