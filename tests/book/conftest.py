"""The book is built once per test process (the whole corpus: every link is checked)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRUMP_SIXES = "examples.doc000-trump-sixes-30-set-after-one-trick"


@pytest.fixture(scope="session")
def book(tmp_path_factory) -> Path:
    from conformance.book.build import build

    out = tmp_path_factory.mktemp("book")
    build(out, [ROOT / "scenarios"])
    return out
