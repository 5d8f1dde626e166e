"""The book is built once per test process (the whole corpus: every link is checked); the
browser (Debian's Chromium) is started once per test module."""

import os
import shutil
from pathlib import Path

import pytest

from conformance.book.browser import CHROMIUM, launch

ROOT = Path(__file__).resolve().parents[2]
TRUMP_SIXES = "examples.doc000-trump-sixes-30-set-after-one-trick"


@pytest.fixture(scope="session")
def book(tmp_path_factory) -> Path:
    from conformance.book.build import build

    out = tmp_path_factory.mktemp("book")
    build(out, [ROOT / "scenarios"])
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} not found: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh user-data-dir
    with sync_playwright() as playwright:
        context = launch(playwright, profile)
        yield context
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


class Watched:
    """A page whose console errors and uncaught exceptions are kept."""

    def __init__(self, context):
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: Path, query: str = ""):
        self.page.goto(path.as_uri() + query)
        self.page.wait_for_load_state("load")
        return self.page


@pytest.fixture
def tab(browser):
    watched = Watched(browser)
    yield watched
    watched.page.close()
