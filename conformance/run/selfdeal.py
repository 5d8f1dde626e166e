"""The statistical checks of capability `self_deal` (spec/protocol.md, "Deals of your own").

The implementation starts matches and deals by itself; the harness reads each deal from
the referee view and tests, with Pearson's chi-square, that first dealers are uniform and
independent (DEAL-04) and that shuffles are uniform and independent (DEAL-06). Each check
runs several tests at level ALPHA / (number of tests) (Bonferroni), so a correct
implementation fails a check with probability at most ALPHA.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

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
    unless: str = ""  # a test whose failure explains this one's: then this one is not reported
    p_value: float | None = None  # a test that is not a chi-square gives its own p-value

    @property
    def p(self) -> float:
        return self.p_value if self.p_value is not None else chi2_sf(self.chi2, self.df)


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


Key = TypeVar("Key", str, int)  # a tile, or a seat's place after the dealer


def cell_test(name: str, rule: str, maps: Sequence[Mapping[Key, int]], cells: int,
              what: str, where: str, unless: str = "") -> Test:
    """Every key in every cell (0..cells-1) equally often, over deals `maps` (key ->
    cell), each a deal of the 28 tiles into `cells` equal blocks (four seats of 7, seven
    places in a hand of 4).

    A deal's counts are a table with fixed margins, not multinomial: the sum of
    (O - E)^2 / E is asymptotically 28/27 times a chi-square with (keys - 1)(cells - 1)
    degrees of freedom, so the statistic is scaled by 27/28 (as for a permutation).
    """
    counts = Counter((key, cell) for m in maps for key, cell in m.items())
    keys = sorted({key for m in maps for key in m})
    expected = len(maps) * (len(maps[0]) / len(keys)) / cells if maps else 0.0
    grid = [counts[k, c] for k in keys for c in range(cells)]
    key, cell = max(((k, c) for k in keys for c in range(cells)),
                    key=lambda kc: abs(counts[kc] - expected))
    return Test(name, rule, statistic(grid, expected) * (N - 1) / N,
                (len(keys) - 1) * (cells - 1),
                f"{what.format(key)} in {where.format(cell)}: {counts[key, cell]} of "
                f"{len(maps)}, expected {expected:.3g}", unless)


def shuffle_tests(firsts: Sequence[list[str]], redeals: Sequence[list[str]]) -> list[Test]:
    """Over the first deal and the redeal of each match (orders t0..t27, ti dealt to the
    seat i places left of the dealer's left, as place i // 4 of its hand): DEAL-06, which
    seat receives each tile, every deal; the seats of the redeal against those of the deal
    before it, and of one match's first deal against the previous match's (a reused or
    slightly changed shuffle fails these). Apart, under DEAL-03, where each tile sits in
    its hand against its rank among the hand's tiles: an engine that sorts its hands
    fails that one, and the place of each tile in its hand (DEAL-06, a biased shuffle)
    is then not reported, since sorting explains it."""
    def seats(order: list[str]) -> dict[str, int]:
        return {tile: i % 4 for i, tile in enumerate(order)}

    def places(order: list[str]) -> dict[str, int]:
        return {tile: i // 4 for i, tile in enumerate(order)}

    def relative(a: list[str], b: list[str]) -> list[dict[int, int]]:
        """Per tile, its seat in deal a -> its seat in deal b (one map per tile)."""
        where = seats(b)
        return [{i % 4: where[tile]} for i, tile in enumerate(a)]

    orders = [*firsts, *redeals]
    again = [m for a, b in zip(firsts, redeals, strict=True) for m in relative(a, b)]
    later = [m for a, b in zip(firsts[0::2], firsts[1::2], strict=False)
             for m in relative(a, b)]
    return [
        cell_test("seat of each tile, every deal", "DEAL-06", [seats(o) for o in orders], 4,
                  "tile {}", "the seat {} places after the dealer's left"),
        cell_test("seats of the redeal after four passes, against the deal before it",
                  "DEAL-06", again, 4, "a tile of seat +{} in the deal",
                  "seat +{} of the redeal"),
        cell_test("seats of a match's first deal, against the previous match's", "DEAL-06",
                  later, 4, "a tile of seat +{} in one match", "seat +{} of the next"),
        order_test(orders),
        cell_test("place of each tile in its hand, every deal", "DEAL-06",
                  [places(o) for o in orders], 7, "tile {}", "place {} of its hand",
                  unless=FIXED_ORDER),
    ]


FIXED_ORDER = "hands in the order received: no pair of tiles always in the same order"
MET = 10  # a pair of tiles met this often in one hand is judged


def order_test(orders: Sequence[list[str]]) -> Test:
    """DEAL-03: a hand keeps the order its tiles were received in, which a fair shuffle
    makes random: two tiles met in one hand `MET` times or more are in the same order
    every time with probability 2^(1 - met) or less. An engine that sorts its hands (in
    any order) has every such pair fixed; a biased shuffle still mixes them."""
    seen: Counter[tuple[str, str]] = Counter()
    first: Counter[tuple[str, str]] = Counter()
    for order in orders:
        for seat in range(4):
            hand = order[seat::4]
            for i, x in enumerate(hand):
                for y in hand[i + 1:]:
                    pair = (min(x, y), max(x, y))
                    seen[pair] += 1
                    first[pair] += x == pair[0]
    judged = [pair for pair, n in seen.items() if n >= MET]
    fixed = [pair for pair in judged if first[pair] in (0, seen[pair])]
    q = max((2.0 ** (1 - seen[pair]) for pair in judged), default=1.0)
    expected = len(judged) * q
    return Test(FIXED_ORDER, "DEAL-03", float(len(fixed)), len(judged),
                f"{len(fixed)} of {len(judged)} pairs of tiles met {MET} times or more in "
                f"one hand were always in the same order, expected {expected:.2g} at most",
                p_value=binomial_tail(len(judged), q, len(fixed)))


def binomial_tail(n: int, q: float, k: int) -> float:
    """P(X >= k) for X ~ Binomial(n, q)."""
    if k <= 0:
        return 1.0
    if q >= 1.0:
        return 1.0
    terms = [math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
             + j * math.log(q) + (n - j) * math.log1p(-q) for j in range(k, n + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def order_of(view: dict[str, Any]) -> list[str]:
    """DEAL-02 backwards: the shuffled order t0..t27 from the hands (in hand order,
    DEAL-03) and the dealer: ti went to seat (dealer + 1 + i) mod 4."""
    d = SEATS.index(view["dealer"])
    hands = view["hands"]
    return [hands[SEATS[(d + 1 + i) % 4]][i // 4] for i in range(N)]


def failing(tests: Sequence[Test]) -> list[Test]:
    """The tests that fail at the check's level, less those another failure explains."""
    level = ALPHA / len(tests)
    bad = [t for t in tests if t.p < level]
    names = {t.name for t in bad}
    return [t for t in bad if t.unless not in names]


def describe(test: Test, count: int) -> str:
    if test.p_value is not None:
        return f"{test.rule}: {test.worst}; p = {test.p:.2g} < {ALPHA / count:.2g}"
    return (f"{test.rule}: chi-square {test.chi2:.1f} with {test.df} degrees "
            f"of freedom, p = {test.p:.2g} < {ALPHA / count:.2g}; furthest cell: {test.worst}")

