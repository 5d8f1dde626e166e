"""Who receives which tile, and how the first dealer is drawn (DEAL-02, DRAW-02..DRAW-04).

A deal order is a list of 28 tiles (ints); hands come back as a tuple per seat, each in
the order its tiles were received (DEAL-03).
"""

from __future__ import annotations

import random

from .tiles import PIPS, SEATS, TILE_COUNT

Hands = tuple[tuple[int, ...], ...]  # per seat, the tiles in hand order (DEAL-03)


def deal_order(order: list[int], dealer: int) -> Hands:
    """DEAL-02: tile i of the shuffled order goes to seat (dealer + 1 + i) mod 4, so the
    seat k places after the dealer's left receives tiles k, k + 4, k + 8, ..."""
    hands: list[tuple[int, ...]] = [(), (), (), ()]
    for k in range(4):
        hands[(dealer + 1 + k) & 3] = tuple(order[k::4])
    return tuple(hands)


# DRAW-02: the seats that draw seven at a time, as offsets from the dealer: the left-hand
# opponent, the right-hand opponent, the partner, the dealer.
DRAWING_TURNS = (1, 3, 2, 0)


def drawn_order(order: list[int], dealer: int) -> Hands:
    """DRAW-02: tiles 0..6 to the dealer's left, 7..13 to the right, 14..20 to the
    partner, 21..27 to the dealer, each hand in the order drawn."""
    hands: list[tuple[int, ...]] = [(), (), (), ()]
    for k, offset in enumerate(DRAWING_TURNS):
        hands[(dealer + offset) & 3] = tuple(order[7 * k:7 * k + 7])
    return tuple(hands)


def highest_drawers(draw: dict[int, int]) -> list[int]:
    """DRAW-03: the seats whose tile has the highest pip total (a + b), in seat order."""
    totals = {seat: sum(PIPS[tile]) for seat, tile in draw.items()}
    best = max(totals.values())
    return sorted(seat for seat, total in totals.items() if total == best)


def draws_problem(draws: list[dict[int, int]]) -> str | None:
    """DRAW-04: what is wrong with a list of draw rounds (seat -> tile), or None. The first
    round has all four seats, each later one exactly the seats tied before it, tiles are
    distinct within a round, and only the last round has a single highest seat."""
    if not draws:
        return "`draws` needs at least one round"
    drawing = [0, 1, 2, 3]
    for number, draw in enumerate(draws, 1):
        if not drawing:
            return f"round {number} of draws comes after the dealer is known"
        if sorted(draw) != drawing:
            names = ", ".join(SEATS[seat] for seat in drawing)
            return f"round {number} of draws must have exactly the seats {names}"
        if len(set(draw.values())) != len(draw):
            return f"round {number} of draws has a tile twice"
        tied = highest_drawers(draw)
        drawing = tied if len(tied) > 1 else []
    if drawing:
        return "the last round of draws is still tied: it names no dealer"
    return None


def dealer_of_draws(draws: list[dict[int, int]]) -> int:
    """DRAW-03: the single highest seat of the last round (draws_problem() is None)."""
    return highest_drawers(draws[-1])[0]


def draw_first_dealer(rng: random.Random) -> int:
    """DRAW-03: every seat draws a tile; the tied highest draw again from the full
    reshuffled set until one seat is highest."""
    drawing = [0, 1, 2, 3]
    while True:
        tiles = rng.sample(range(TILE_COUNT), len(drawing))
        tied = highest_drawers(dict(zip(drawing, tiles, strict=True)))
        if len(tied) == 1:
            return tied[0]
        drawing = tied
