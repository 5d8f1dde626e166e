"""Seats, teams and tiles as small ints (TBL-01, TBL-02, TIL-01, TIL-02).

A tile is an int 0..27 in canonical order (`0|0, 0|1, ... 6|6`); a set of tiles is a
28-bit mask. A seat is an int 0..3 (`A`..`D`, clockwise); a team is 0 (`AC`) or 1 (`BD`).
"""

from __future__ import annotations

SEATS: tuple[str, ...] = ("A", "B", "C", "D")  # TBL-01: clockwise
SEAT_INDEX: dict[str, int] = {name: i for i, name in enumerate(SEATS)}
TEAMS: tuple[str, ...] = ("AC", "BD")  # TBL-02: partners sit opposite

# TIL-01, TIL-02: every unordered pair a|b with 0 <= a <= b <= 6, in canonical order.
PIPS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
NAMES: tuple[str, ...] = tuple(f"{a}|{b}" for a, b in PIPS)
TILE_INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
TILE_COUNT = len(PIPS)


def left_of(seat: int) -> int:
    """The next seat clockwise (TBL-01: the seat after D is A)."""
    return (seat + 1) & 3


def team_of(seat: int) -> int:
    """The team of a seat: A and C are AC (0), B and D are BD (1) (TBL-02)."""
    return seat & 1


BITS: tuple[int, ...] = tuple(1 << t for t in range(TILE_COUNT))


def mask_of(tiles: list[int] | tuple[int, ...]) -> int:
    """The mask of distinct tiles."""
    return sum(map(BITS.__getitem__, tiles))


def play_order(leader: int, sitting_out: int | None = None) -> tuple[int, ...]:
    """The seats of a trick in play order: clockwise from the leader (PLAY-02), passing
    over a seat that sits out (NELLO-04)."""
    # pragma: no mutate start
    return tuple(seat for seat in ((leader + i) & 3 for i in range(4)) if seat != sitting_out)
    # pragma: no mutate end


# PLAY_ORDERS[sitting_out][leader], with index 4 for "nobody sits out".
PLAY_ORDERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(play_order(leader, out) for leader in range(4)) for out in (0, 1, 2, 3, None))
NOBODY = 4
# NEXT_SEATS[sitting_out][seat]: the seat that plays after `seat` in a trick.
NEXT_SEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(orders[seat][1] for seat in range(4)) for orders in PLAY_ORDERS)
