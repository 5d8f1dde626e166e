"""Misbehave once per run: the first call that finds no flag file makes it and breaks;
later ones, in the restarted process, behave. So each hostile adapter proves both its
report and that the run goes on with a fresh process."""

from __future__ import annotations

import os
from pathlib import Path


def first_time(name: str) -> bool:
    folder = os.environ.get("T42_HOSTILE_ONCE")
    if not folder:
        return True  # no flag folder: misbehave every time
    flag = Path(folder) / name
    if flag.exists():
        return False
    flag.touch()
    return True
