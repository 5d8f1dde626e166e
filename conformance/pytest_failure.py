"""How a failed scenario or fuzz game reaches pytest: the t42 report under FAILURES, and
one line (the headline) in the short test summary and as JUnit's failure message.

A plain string would show the report, but pytest takes a string's whole text as the
summary message too, and on CI (`CI` set, as on GitHub Actions) it does not trim it:
every report printed twice. pytest has no public type for "this text, with this one-line
message"; its native-traceback repr is exactly that, and pytest-xdist carries it from a
worker whole (reprcrash and all), which a home-made TerminalRepr would not survive.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.report.safe import safe


class Reported(Exception):
    """A failure whose report is written for the engine's author, not a traceback."""

    def __init__(self, report: str, headline: str = ""):
        report = safe(report)  # it quotes the adapter and the scenario file: terminal-safe
        super().__init__(report)
        self.report = report
        self.headline = safe(headline) if headline else report.splitlines()[0]


def failure_repr(item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
    """The repr of a Reported failure; None for anything else (pytest's own then)."""
    if not isinstance(excinfo.value, Reported):
        return None
    try:
        from _pytest._code.code import (
            ExceptionChainRepr,
            ReprFileLocation,
            ReprTracebackNative,
        )
    except ImportError:  # a pytest that moved them: the report alone, as a string
        return excinfo.value.report
    path, line, _ = item.reportinfo()
    crash = ReprFileLocation(str(path), (line or 0) + 1, excinfo.value.headline)
    return ExceptionChainRepr([(ReprTracebackNative([excinfo.value.report + "\n"]),
                                crash, None)])
