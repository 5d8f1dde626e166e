"""Options of the project's own tests (the scenarios' options are conformance.pytest_plugin's)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full-selftest", action="store_true",
                     help="also run every planted bug over every scenario (t42 selftest "
                          "--full; about 2 minutes on 2 cores)")
