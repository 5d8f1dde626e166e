"""The kits' tests. Those marked `generators` run the npm generators (seconds each):
only when asked for, `pytest -m generators tests/kits` (.ci/run does, after `npm ci`)."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "generators" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="runs the generators: pytest -m generators tests/kits")
    for item in items:
        if "generators" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cargo target folder for the session, shared by pytest-xdist's workers too: the
    crates (serde and its derive, most of a build's minute) are compiled once."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if hasattr(request.config, "workerinput") else base) / "cargo-target"
