"""Text for a terminal. What an adapter or a scenario file says reaches the screen: an
escape sequence in it could clear the screen, set the window title or hide the summary
line. Every command and the pytest plugin pass such text through `safe` where it is
printed."""

from __future__ import annotations

import re

import click

# C0 and C1 controls (ESC, BEL, CR, backspace, CSI, ...) but newline and tab; DEL; and
# the bidirectional overrides that reorder what is shown.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def safe(text: str) -> str:
    """`text` with every control character shown escaped (`\\x1b`); newlines and tabs kept."""
    return _CONTROL.sub(_escaped, text)


def echo(message: str = "", err: bool = False) -> None:
    """click.echo of text that may hold an adapter's or a scenario file's words."""
    click.echo(safe(message), err=err)
