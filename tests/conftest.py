"""Options and the skip summary of the project's own tests (the scenarios' options are
conformance.pytest_plugin's)."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import settings


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full-selftest", action="store_true",
                     help="also run every planted bug over every scenario (t42 selftest "
                          "--full; about 2 minutes on 2 cores)")


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Every skip says why, even under -q (a missing Chromium, the full selftest): a test
    left out is never silent."""
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    if reasons:
        terminalreporter.section("skipped, and why", sep="-")
        for reason, count in reasons.most_common():
            terminalreporter.write_line(f"{count} skipped: {reason}")


# HYPOTHESIS_PROFILE=heavy: the property tests at the sizes they were written with
# (tests/engine/support.py, examples()); the default run takes a quarter of them.
settings.register_profile("heavy", deadline=None)
settings.register_profile("default", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
