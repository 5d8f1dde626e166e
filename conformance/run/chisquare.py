"""Pearson's chi-square test, computed exactly (spec/protocol.md, "Deals of your own").

The survival function of the chi-square distribution with an integer number of degrees
of freedom has a closed form (the regularized upper incomplete gamma function at an
integer or half-integer shape), so no statistics library is needed: for `df = 2m`,
P(X > x) = exp(-y) * sum_{j<m} y^j / j!, and for `df = 2m + 1`,
P(X > x) = erfc(sqrt y) + exp(-y) * sum_{j<m} y^(j + 1/2) / Gamma(j + 3/2), with y = x/2.
Terms are summed in log space, so large statistics and many degrees of freedom are fine.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with `df` degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    y = x / 2
    m, odd = divmod(df, 2)
    if odd:
        head = math.erfc(math.sqrt(y))
        logs = [-y + (j + 0.5) * math.log(y) - math.lgamma(j + 1.5) for j in range(m)]
    else:
        head = 0.0
        logs = [-y + j * math.log(y) - math.lgamma(j + 1) for j in range(m)]
    if not logs:
        return min(1.0, head)
    top = max(logs)
    return min(1.0, head + math.exp(top) * sum(math.exp(v - top) for v in logs))


def statistic(observed: Iterable[int], expected: float) -> float:
    """Pearson's sum of (O - E)^2 / E over cells that all expect `expected`."""
    return sum((o - expected) ** 2 for o in observed) / expected
