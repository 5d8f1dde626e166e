"""The kits' tests. Those marked `generators` run the npm generators (seconds each):
only when asked for, `pytest -m generators tests/kits` (.ci/run does, after `npm ci`)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "generators" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="runs the generators: pytest -m generators tests/kits")
    for item in items:
        if "generators" in item.keywords:
            item.add_marker(skip)
