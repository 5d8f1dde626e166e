"""Helpers for the engine tests: deals written by hand, contracts reached by bidding."""

from __future__ import annotations

from pathlib import Path

from reference_impl import IllegalAction, Match
from reference_impl.tiles import NAMES

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"


def tiles(text: str) -> list[str]:
    """`"5|5 3|4"` -> `["5|5", "3|4"]`."""
    return text.split()


def hands(A: str, B: str, C: str, D: str | None = None) -> dict[str, list[str]]:
    """Hands from tile strings; D, when omitted, gets the 7 tiles nobody else holds (in
    canonical order)."""
    given = {"A": tiles(A), "B": tiles(B), "C": tiles(C)}
    if D is None:
        used = {t for hand in given.values() for t in hand}
        given["D"] = [t for t in NAMES if t not in used]
    else:
        given["D"] = tiles(D)
    return given


# A deal for the worked example of document 000 (trump sixes): A leads 5|5, B follows
# with 3|5, C with 0|5, D holds no five and trumps with 6|6.
EXAMPLE = hands(
    A="5|5 0|0 0|1 0|2 1|1 1|2 2|2",
    B="3|5 0|3 1|3 2|3 3|3 0|4 1|4",
    C="0|5 2|4 3|4 4|4 4|5 1|5 2|5",
    D="6|6 0|6 1|6 2|6 3|6 4|6 5|6",
)


# A holds all seven sixes: under trump sixes A wins every trick it leads (no one else can
# follow or trump). The counters lie with B (5|5), C (0|5) and D (1|4, 2|3).
SIXES = hands(
    A="0|6 1|6 2|6 3|6 4|6 5|6 6|6",
    B="5|5 0|0 0|1 0|2 0|3 0|4 1|1",
    C="0|5 1|2 1|3 1|5 2|2 2|4 2|5",
    D="1|4 2|3 3|3 3|4 3|5 4|4 4|5",
)


def start(hands_: dict | None = None, dealer: str = "D", **extra) -> Match:
    return Match.start({"dealer": dealer, "hands": hands_ or EXAMPLE, **extra})


def bid_and_declare(m: Match, declarer: str, bid: dict, trump, stacks: int | None = None
                    ) -> Match:
    """The scenario `contract` shortcut: in bidding order every other seat passes and the
    declarer bids; then the declarer declares."""
    for _ in range(4):
        seat = m.to_act
        m.apply({"type": "bid", "seat": seat, **bid} if seat == declarer
                else {"type": "pass", "seat": seat})
    declaration = {"type": "trump", "seat": declarer, "trump": trump}
    if stacks is not None:
        declaration["stacks"] = stacks
    m.apply(declaration)
    return m


def play(m: Match, *moves: str) -> Match:
    """Play `"A 5|5"`-style moves in turn."""
    for move in moves:
        seat, tile = move.split()
        m.apply({"type": "play", "seat": seat, "tile": tile})
    return m


def play_out(m: Match) -> Match:
    """Play the round to its end, always the first legal action."""
    while m.to_act is not None:
        m.apply(m.legal_actions()[0])
    return m



def rejects(m: Match, action, code: str) -> None:
    """`action` is rejected with `code` and nothing in `m` changes (DIG-03)."""
    before, view, legal = m.clone(), m.view(), m.legal_actions()
    try:
        m.apply(action)
    except IllegalAction as error:
        assert error.code == code, f"{action!r}: expected {code}, got {error.code}: {error}"
    else:
        raise AssertionError(f"{action!r} was accepted; expected {code}")
    assert m == before and m.view() == view and m.legal_actions() == legal


def examples(heavy: int) -> int:
    """Hypothesis examples of a property test: `heavy` under HYPOTHESIS_PROFILE=heavy
    (the sizes the tests were written with), a quarter of it in the default run, so that
    `pytest` stays within minutes; the heavy run is `HYPOTHESIS_PROFILE=heavy pytest
    tests/engine`."""
    import os

    return heavy if os.environ.get("HYPOTHESIS_PROFILE") == "heavy" else max(5, heavy // 4)
