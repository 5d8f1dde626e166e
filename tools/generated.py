"""Files made from the spec: write one, or with --check say whether it is stale."""

from __future__ import annotations

import sys
from pathlib import Path


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
