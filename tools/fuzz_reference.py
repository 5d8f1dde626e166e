"""The fuzzer against the reference engine itself: every game must agree.

    python tools/fuzz_reference.py [--rounds 100000] [--shard i/n]

Plays seeded games (3 rounds each) until the rounds are reached, cycling through the
deal forms (hands, order), the levels and the variant options one at a time (and none),
in process; prints the figures and exits non-zero on any divergence or error. A
divergence here is a bug in the harness (its comparisons, its generator), never in an
implementation. `--shard i/n` runs the i-th of n ranges of seeds, to use several cores at
once.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.adapters.reference import ReferenceAdapter  # noqa: E402
from conformance.fuzz.campaign import shard_seeds  # noqa: E402
from conformance.fuzz.differential import Duel, Game, play_game  # noqa: E402
from conformance.specdata.index import load_index  # noqa: E402


def configs() -> list[Game]:
    options = [None, *({name: True} for name in load_index().variants)]
    return [Game(variants=v, deal=deal, level=level) for v in options
            for deal in ("hands", "order") for level in ("strict", "rules")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--shard", default=None, help="i/n: the i-th of n ranges of seeds")
    args = parser.parse_args(argv)
    games = configs()
    other = ReferenceAdapter()
    duels = {g.level: Duel(other, g.level) for g in games}
    rounds = played = 0
    divergences, errors = [], []
    start = time.perf_counter()
    seeds = iter(shard_seeds(0, 10**9, args.shard)) if args.shard else iter(range(10**9))
    while rounds < args.rounds:
        seed = next(seeds)
        game = games[seed % len(games)]
        try:
            found, n = play_game(other, seed, game, duels[game.level])
        except Exception as error:  # noqa: BLE001 - counted and shown, the run goes on
            errors.append(f"seed {seed}: {type(error).__name__}: {error}")
            continue
        if rounds // 10_000 != (rounds + n) // 10_000:
            print(f"... {rounds + n:,} rounds, {played + 1:,} games, "
                  f"{time.perf_counter() - start:.0f} s, {len(divergences)} divergences",
                  flush=True)
        played, rounds = played + 1, rounds + n
        if found:
            divergences.append(found)
            print(found.render())
    seconds = time.perf_counter() - start
    for error in errors[:10]:
        print("ERRORED", error)
    print(f"{rounds:,} rounds in {played:,} games ({len(games)} configurations: "
          f"{len(games) // 4} variant settings x hands/order x strict/rules), "
          f"{seconds:.0f} s, {rounds / seconds:,.0f} rounds/s: "
          f"{len(divergences)} divergences, {len(errors)} errors")
    return 1 if divergences or errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
