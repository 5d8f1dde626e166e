"""Make docs/book-report.png, the picture of a run report in docs/running.md (tests/book's wrong
engine LeaderWins on document 000's examples, the failing step, expected beside actual).

    python tools/book_screenshot.py [--out docs/book-report.png]

Uses Debian's Chromium through Playwright, as the browser tests do (no browser download).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = "examples.doc000-trump-sixes-30-set-after-one-trick"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "book-report.png")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from conformance.book.browser import launch

    with tempfile.TemporaryDirectory() as work:
        report = Path(work) / "report"
        adapter = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:LeaderWins"
        subprocess.run([sys.executable, "-m", "conformance.cli.main", "run",
                        str(ROOT / "scenarios" / "examples"), "--adapter", adapter,
                        "--report-html", str(report)], cwd=ROOT, capture_output=True)
        with sync_playwright() as playwright:
            context = launch(playwright, Path(work) / "profile", 1100, 800)
            page = context.new_page()
            page.goto((report / "scenarios" / f"{SCENARIO}.html").as_uri())
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.locator(".frame.failed").screenshot(path=str(args.out))
            context.close()
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
