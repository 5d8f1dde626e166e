"""The headless browser the book's tests and tools/book_screenshot.py use: Debian's
Chromium driven by Playwright through the system executable (never `playwright install`:
no browser download)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launch(playwright: Any, profile: Path, width: int = 1280, height: int = 900) -> Any:
    """A persistent context on a fresh user-data-dir `profile`."""
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=ARGS, headless=True,
        viewport={"width": width, "height": height})
