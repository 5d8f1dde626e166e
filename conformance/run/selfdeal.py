"""The statistical checks of capability `self_deal` (spec/protocol.md, "Deals of your own").

The implementation starts matches and deals by itself; the harness reads each deal from
the referee view and tests, with Pearson's chi-square, that first dealers are uniform and
independent (DEAL-04) and that shuffles are uniform and independent (DEAL-06). Each check
runs several tests at level ALPHA / (number of tests) (Bonferroni), so a correct
implementation fails a check with probability at most ALPHA.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance.run.chisquare import chi2_sf, statistic
from reference_impl.tiles import NAMES as TILES
from reference_impl.tiles import SEATS

N = len(TILES)
ALPHA = 1e-6  # the false-alarm rate of one check against a correct implementation


@dataclass(frozen=True)
class Test:
    """One chi-square test: what it tests, its statistic, degrees of freedom and p-value."""

    name: str
    rule: str
    chi2: float
    df: int
    worst: str  # the cell furthest from its expectation, for the reader

    @property
    def p(self) -> float:
        return chi2_sf(self.chi2, self.df)


def dealer_tests(dealers: Sequence[str]) -> list[Test]:
    """DEAL-04: each seat 1/4 (3 df); the pairs of matches 1-2, 3-4, ... uniform over
    the 16 pairs of seats (15 df), which a seat that depends on the last match fails."""
    counts = Counter(dealers)
    cells = [counts[s] for s in SEATS]
    worst = max(SEATS, key=lambda s: abs(counts[s] - len(dealers) / 4))
    tests = [Test("first dealer of each match, one seat in four", "DEAL-04",
                  statistic(cells, len(dealers) / 4), 3,
                  f"seat {worst}: {counts[worst]} of {len(dealers)} matches, "
                  f"expected {len(dealers) / 4:g}")]
    pairs = Counter(zip(dealers[0::2], dealers[1::2], strict=False))
    total = len(dealers) // 2
    grid = [pairs[a, b] for a in SEATS for b in SEATS]
    a, b = max(((a, b) for a in SEATS for b in SEATS),
               key=lambda ab: abs(pairs[ab] - total / 16))
    tests.append(Test("first dealers of two matches in a row, independent", "DEAL-04",
                      statistic(grid, total / 16), 15,
                      f"{a} then {b}: {pairs[a, b]} of {total} pairs of matches, "
                      f"expected {total / 16:g}"))
    return tests


def position_test(name: str, maps: Sequence[dict[Any, int]], what: str = "tile {}",
                  where: str = "place {}") -> Test:
    """Every key at every place, 1/28 each, over permutations `maps` (key -> place 0..27).

    The counts are a sum of random permutation matrices, not multinomial: the sum of
    (O - E)^2 / E is asymptotically 28/27 times a chi-square with 27^2 = 729 degrees of
    freedom (the covariance of a uniform permutation matrix is 1/27 times the identity on
    the doubly centred matrices), so the statistic is scaled by 27/28.
    """
    counts = Counter((key, place) for m in maps for key, place in m.items())
    keys = sorted({key for m in maps for key in m})
    expected = len(maps) / N
    cells = [counts[k, p] for k in keys for p in range(N)]
    key, place = max(((k, p) for k in keys for p in range(N)),
                     key=lambda kp: abs(counts[kp] - expected))
    return Test(name, "DEAL-06", statistic(cells, expected) * (N - 1) / N, (N - 1) ** 2,
                f"{what.format(key)} at {where.format(place)}: {counts[key, place]} of "
                f"{len(maps)}, expected {expected:.3g}")


def shuffle_tests(firsts: Sequence[list[str]], redeals: Sequence[list[str]]) -> list[Test]:
    """DEAL-06 over the first deal and the redeal of each match: every tile at every place
    of the order; the redeal's order relative to the first deal; the first deal of match
    2k relative to that of match 2k - 1. A shuffle that is uniform and independent gives
    uniform relative orders too; a reused or slightly changed order does not."""
    def places(order: list[str]) -> dict[str, int]:
        return {tile: i for i, tile in enumerate(order)}

    def relative(a: list[str], b: list[str]) -> dict[int, int]:
        """Place i of order a -> the place in b of the same tile."""
        where = places(b)
        return {i: where[tile] for i, tile in enumerate(a)}

    orders = [*firsts, *redeals]
    return [
        position_test("place of each tile in the order, every deal",
                      [places(o) for o in orders]),
        position_test("redeal after four passes, relative to the deal before it",
                      [relative(a, b) for a, b in zip(firsts, redeals, strict=True)],
                      "the tile at place {} of the deal", "place {} of the redeal"),
        position_test("first deal of a match, relative to the previous match's",
                      [relative(a, b) for a, b in zip(firsts[0::2], firsts[1::2],
                                                      strict=False)],
                      "the tile at place {} of one match's first deal",
                      "place {} of the next match's"),
    ]


def order_of(view: dict[str, Any]) -> list[str]:
    """DEAL-02 backwards: the shuffled order t0..t27 from the hands (in hand order,
    DEAL-03) and the dealer: ti went to seat (dealer + 1 + i) mod 4."""
    d = SEATS.index(view["dealer"])
    hands = view["hands"]
    return [hands[SEATS[(d + 1 + i) % 4]][i // 4] for i in range(N)]


def failing(tests: Sequence[Test]) -> list[Test]:
    level = ALPHA / len(tests)
    return [t for t in tests if t.p < level]


def describe(test: Test, count: int) -> str:
    return (f"{test.rule}: chi-square {test.chi2:.1f} with {test.df} degrees "
            f"of freedom, p = {test.p:.2g} < {ALPHA / count:.2g}; furthest cell: {test.worst}")

