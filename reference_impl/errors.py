"""The rejection raised by the engine, with a code from spec/errors.yaml (DIG-03).

The codes are the closed list of `spec/errors.yaml`, in its single check order (a variant's
code right after its `check_after`, as errors.md shows); a test keeps this tuple equal to
that file, so the engine needs no YAML at run time.
"""

from __future__ import annotations

CODES: tuple[str, ...] = (
    "MALFORMED_ACTION",
    "INVALID_SETUP",
    "WRONG_PHASE",
    "NOT_YOUR_TURN",
    "POINT_BID_RANGE",
    "BID_TOO_LOW",
    "MARKS_BID_STEP",
    "PLUNGE_NOT_ALLOWED",
    "FORCED_BID",
    "NELLO_BID_NOT_ALLOWED",
    "INVALID_TRUMP",
    "TRUMP_NOT_ALLOWED",
    "STACKS_NOT_ALLOWED",
    "STACKS_REQUIRED",
    "STACKS_INVALID",
    "DOUBLES_REQUIRED",
    "DOUBLES_INVALID",
    "TILE_NOT_IN_HAND",
    "MUST_FOLLOW",
    "MUST_PLAY_CLOSEST",
)


class IllegalAction(Exception):
    """An action, deal or setup the rules refuse; the match is left exactly as it was."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(f"{code} ({rule}): {message}")
        self.code = code
        self.rule = rule
        self.message = message
