"""Make the pictures of a run report in docs/running.md: a failing step, expected beside
actual, for each kind of failure the report draws.

    python tools/book_screenshot.py [--kind view|observation|legal|refusal|all] [--out FILE]

- view: tests/book's wrong engine LeaderWins on document 000's examples (docs/book-report.png);
- observation, legal, refusal: planted engines (docs/book-report-KIND.png): covered tricks
  shown face up, no duty to follow (its legal list, and a play it accepts).

Uses Debian's Chromium through Playwright, as the browser tests do (no browser download).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# kind -> (adapter, the scenario below scenarios/, the picture's file in docs/)
KINDS = {
    "view": (f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:LeaderWins",
             "examples/doc000-trump-sixes-30-set-after-one-trick", "book-report.png"),
    "observation": ("python:conformance.planted:covered-tricks-shown",
                    "visibility/marks-one-stack-cover", "book-report-observation.png"),
    "legal": ("python:conformance.planted:must-follow-not-enforced",
              "play/no-duty-to-play-higher", "book-report-legal.png"),
    "refusal": ("python:conformance.planted:must-follow-not-enforced",
                "play/check-order-tile-before-must-follow", "book-report-refusal.png"),
}


def shoot(kind: str, out: Path, work: Path, playwright: object) -> None:
    """One report of one scenario, its first failing step screenshotted into `out`."""
    from conformance.book.browser import launch

    adapter, scenario, _ = KINDS[kind]
    report = work / kind
    subprocess.run([sys.executable, "-m", "conformance.cli.main", "run",
                    str(ROOT / "scenarios" / f"{scenario}.yaml"), "--adapter", adapter,
                    "--report-html", str(report)], cwd=ROOT, capture_output=True, check=False)
    context = launch(playwright, work / f"profile-{kind}", 1100, 800)
    page = context.new_page()
    page.goto((report / "scenarios" / f"{scenario.replace('/', '.')}.html").as_uri())
    out.parent.mkdir(parents=True, exist_ok=True)
    page.locator(".frame.failed").first.screenshot(path=str(out))
    context.close()
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=[*KINDS, "all"], default="view")
    parser.add_argument("--out", type=Path, default=None,
                        help="the picture (one kind only; default docs/book-report*.png)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    kinds = list(KINDS) if args.kind == "all" else [args.kind]
    with tempfile.TemporaryDirectory() as work, sync_playwright() as playwright:
        for kind in kinds:
            out = args.out if args.out and len(kinds) == 1 else ROOT / "docs" / KINDS[kind][2]
            shoot(kind, out, Path(work), playwright)
    return 0


if __name__ == "__main__":
    sys.exit(main())
