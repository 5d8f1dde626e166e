"""Fixtures for the harness tests: test data, fauxmplementations, a t42 runner."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

HERE = Path(__file__).parent
DATA = HERE / "data"
GOOD = DATA / "good"
BAD = DATA / "bad"
FAUX = HERE / "fauxmplementations"
INPROC = FAUX / "inprocess.py"


def faux_cmd(name: str) -> str:
    """A cmd: adapter running one protocol fauxmplementation."""
    return f"cmd:{sys.executable} {FAUX / (name + '.py')}"


def inproc(name: str) -> str:
    return f"python:{INPROC}:{name}"


@pytest.fixture
def t42():
    """Invoke the t42 CLI in-process; returns (exit code, output)."""
    from conformance.cli.main import main

    def invoke(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        return result.exit_code, result.output

    return invoke
