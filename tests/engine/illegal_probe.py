"""Random illegal actions against the reference engine: each must be rejected with a code
of errors.yaml and leave the match byte for byte unchanged (DIG-01, DIG-03).

    python -m tests.engine.illegal_probe --attempts 100000 --seed 0

Prints the figures and every violation; exit status 1 if there is one. The same judgment
runs at CI size as a Hypothesis test (tests/engine/test_illegal_actions.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tests.engine.illegal import OPTION_SETS, judge, near_legal, position


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-position", type=int, default=20,
                        help="attempts at each random position")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    violations: list[str] = []
    attempts = positions = legal = 0
    start = time.perf_counter()
    while attempts < args.attempts:
        variants = rng.choice(OPTION_SETS)
        m = position(rng.randrange(2**32), rng.randrange(90), variants)
        positions += 1
        for _ in range(min(args.per_position, args.attempts - attempts)):
            attempts += 1
            action = near_legal(rng, m)
            legal += action in m.legal_actions()
            found = judge(m, action)
            if found:
                violations.append(f"{variants}: {found}")
    seconds = time.perf_counter() - start
    for line in violations[:50]:
        print("VIOLATION", line)
    print(f"{attempts:,} attempts at {positions:,} positions (seed {args.seed}) in "
          f"{seconds:.1f} s: {attempts - legal:,} illegal, each judged; {legal:,} happened to "
          f"be legal; {len(violations)} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
