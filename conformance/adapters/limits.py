"""The harness's own limits on an implementation, and the bounds of the options that set
them (README "Limits", spec/bounds.md "The harness's options"). Import-light: the `t42`
command and the pytest plugin read the bounds at start-up."""

from __future__ import annotations

from dataclasses import dataclass

# Seconds per reply: 0 would error every reply of a working program; a day is longer than
# any reply needs, and keeps a typo (`--timeout 5e9`) from hanging a CI job for ever.
TIMEOUT_SECONDS = (0.1, 86400.0)
# The longest reply line: a few KB is the largest real reply; past 1 GiB the harness's
# memory bound (README) would mean nothing.
REPLY_BYTES = (1, 1 << 30)
# The stderr kept for reports: 0 keeps none.
STDERR_BYTES = (0, 1 << 30)

# What a result keeps of the implementation's text, whatever it sends (README "Limits"):
# each result holds at most a few of these, so a run's memory does not grow with them.
TEXT_CHARS = 2000  # a message, a code, a name, a version, one value of a difference
STDERR_KEPT_CHARS = 8000  # the stderr quoted by one errored scenario: its newest part
NAME_CHARS = 200  # the name and version of `hello` (protocol/hello-result.json maxLength)


def cut(text: str, limit: int = TEXT_CHARS) -> str:
    """`text`, or its start and a note of how much more there was: `limit` characters in
    all, so that cutting again changes nothing."""
    if not isinstance(text, str) or len(text) <= limit:
        return text
    keep = max(limit - len(f" [... {len(text):,} more characters not kept]"), 0)
    return text[:keep] + f" [... {len(text) - keep:,} more characters not kept]"


def cut_tail(text: str, limit: int = STDERR_KEPT_CHARS) -> str:
    """`text`, or its end (the newest stderr is the telling part) after a note: `limit`
    characters in all."""
    if not isinstance(text, str) or len(text) <= limit:
        return text
    keep = max(limit - len(f"[... {len(text):,} earlier characters not kept]\n"), 0)
    return f"[... {len(text) - keep:,} earlier characters not kept]\n" + text[-keep:]


@dataclass(frozen=True)
class Limits:
    """`t42 run --max-reply-bytes/--max-stderr-bytes` (README "Limits")."""

    reply_bytes: int = 1 << 20  # one reply line; the largest real reply is a few KB
    stderr_bytes: int = 64 << 10  # stderr kept for reports, the newest lines


def within(low: float, high: float, kind: type = float):
    """An argparse/pytest option type: a `kind` number in [low, high], or a usage error that
    says the range (click options use click.FloatRange/IntRange with the same bounds)."""
    import argparse

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not in the range {low} to {high}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its message
    return parse
