"""How soon the fuzzer finds each planted bug: the games and the CPU to its first divergence.

    python tools/fuzz_reach.py [-k NAME] [--part I/N] [--games 40] [--seconds 30]

For each plant of the catalog (not those of `self_deal`, which the fuzzer never reaches),
seeded games against the reference under `fuzz_plants.py`'s configurations, one game at
a time (seeds 0, 1, ... in each configuration, deals by hands then by order), until the
first divergence, `--games` a configuration or `--seconds` of CPU a plant. No shrinking:
this measures the search alone. The games are the same whatever the fuzzer reads (a game's
steps never depend on the implementation's replies), so two commits' lines compare what
their reads find and what they cost: run it on both, on the same machine, and compare
the plants found and the CPU to each.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.fuzz.differential import fuzz  # noqa: E402
from tools.fuzz_plants import SELF_DEAL, configurations, part  # noqa: E402


def reach(bug: object, games: int, seconds: float) -> tuple[bool, int, float]:
    """(found, games played, CPU seconds) for one plant."""
    start, played = time.process_time(), 0
    for deal in ("hands", "order"):
        for variants in configurations(bug):
            adapter = bug.adapter()  # type: ignore[attr-defined]
            for seed in range(games):
                try:
                    _, found, _ = fuzz(adapter, games=1, seed=seed, variants=variants,
                                       deal=deal)
                except Exception:  # noqa: BLE001 - a configuration the reference refuses
                    break
                played += 1
                if found:
                    return True, played, time.process_time() - start
                if time.process_time() - start > seconds:
                    return False, played, time.process_time() - start
    return False, played, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    from conformance.planted import BUGS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="keyword", help="only plants whose name contains this")
    parser.add_argument("--games", type=int, default=40, help="games per configuration")
    parser.add_argument("--seconds", type=float, default=30.0, help="CPU seconds per plant")
    parser.add_argument("--part", type=part, default=(1, 1), metavar="I/N",
                        help="only the I-th of N consecutive slices of the plants")
    args = parser.parse_args(argv)
    bugs = [b for b in BUGS if (not args.keyword or args.keyword in b.name)
            and b.rule not in SELF_DEAL]
    i, n = args.part
    bugs = bugs[len(bugs) * (i - 1) // n: len(bugs) * i // n]
    found, cpu = 0, 0.0
    for bug in bugs:
        hit, played, spent = reach(bug, args.games, args.seconds)
        found += hit
        cpu += spent
        print(f"{bug.name:40} {'found' if hit else 'NOT FOUND':9} {played:5} games "
              f"{spent:7.2f} s", flush=True)
    print(f"{len(bugs)} plants: {found} found, {cpu:.1f} s of CPU in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
