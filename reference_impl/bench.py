"""Speed of the reference engine, measured only through its public API, on one core.

    python -m reference_impl.bench [seconds] [seed]

Figures: complete random rounds per second from seeded deals under two policies,
(a) the seat left of the dealer bids 30, the others pass, the declarer picks one of the
nine trumps uniformly and every play is uniform over the legal plays, and (b) uniform over
all legal actions, bids included (a four-pass round counts as a round); legal-action
generations per second; perft leaves per second. Time is CPU time of this process, the
best of ten runs per figure, so other load on the machine does not drag the figures down.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from .match import Match
from .perft import perft
from .tiles import NAMES, SEATS

RoundPlayer = Callable[[Match, random.Random], int]


def bid30_bidding(m: Match) -> None:
    """Policy (a)'s bidding: the seat left of the dealer bids 30, the three others pass.
    In canonical order the first bidder's legal actions are pass, 30, 31, ...: the bid
    is legal[1], a pass legal[0]."""
    m.apply(m.legal_actions()[1])
    for _ in range(3):
        m.apply(m.legal_actions()[0])


def uniform_round(m: Match, rng: random.Random) -> int:
    """Policy (b): uniform over all legal actions until the round ends; the number of
    actions applied."""
    rand, legal_actions, apply, count = rng.random, m.legal_actions, m.apply, 0
    while m.to_act is not None:
        legal = legal_actions()
        apply(legal[int(rand() * len(legal))])
        count += 1
    return count


def bid30_round(m: Match, rng: random.Random) -> int:
    """Policy (a): bid 30 from the dealer's left, then the declarer's trump (one of nine)
    and every play uniform over the legal actions."""
    bid30_bidding(m)
    return 4 + uniform_round(m, rng)


def new_round(rng: random.Random) -> Match:
    """A match at a seeded random deal with a random dealer (DEAL-02, DEAL-04)."""
    order = sorted(NAMES, key=lambda _: rng.random())  # uniform: i.i.d. random keys
    return Match.start({"dealer": SEATS[rng.randrange(4)], "order": order})


def best_rate(work: Callable[[], int], seconds: float, trials: int = 10) -> float:
    """Units of `work` per CPU second: the best of `trials` runs of seconds/trials each
    (as timeit takes the minimum: other load on the machine only ever slows a run)."""
    best = 0.0
    for _ in range(trials):
        done, start = 0, time.process_time()
        deadline = start + seconds / trials
        while True:
            done += work()
            now = time.process_time()
            if now >= deadline:
                break
        best = max(best, done / (now - start))
    return best


def rounds_per_second(play: RoundPlayer, seconds: float, seed: int) -> float:
    """Complete rounds per second: a seeded deal, then the policy until the round ends."""
    rng = random.Random(seed)

    def hundred_rounds() -> int:
        for _ in range(100):
            play(new_round(rng), rng)
        return 100

    return best_rate(hundred_rounds, seconds)


def positions(count: int, seed: int) -> list[Match]:
    """Positions met in uniform random rounds: every position before each action."""
    rng = random.Random(seed)
    found: list[Match] = []
    while len(found) < count:
        m = new_round(rng)
        while m.to_act is not None:
            found.append(m.clone())
            legal = m.legal_actions()
            m.apply(rng.choice(legal))
    return found[:count]


def legal_per_second(seconds: float, seed: int) -> float:
    """legal_actions() calls per second over positions of random rounds."""
    sample = positions(2000, seed)

    def generate_all() -> int:
        for m in sample:
            m.legal_actions()
        return len(sample)

    return best_rate(generate_all, seconds)


def perft_per_second(seconds: float, seed: int, depth: int = 4) -> float:
    """perft leaves per second, depth 4 from the first lead of seeded point contracts."""
    rng = random.Random(seed)

    def one_perft() -> int:
        m = new_round(rng)
        bid30_bidding(m)
        m.apply(rng.choice(m.legal_actions()))  # the trump
        return perft(m, depth)

    return best_rate(one_perft, seconds)


def run_bench(seconds: float = 2.0, seed: int = 0) -> dict[str, float]:
    """The four figures, `seconds` of CPU time in all (a quarter each)."""
    share = seconds / 4
    return {
        "rounds_per_s_bid30": rounds_per_second(bid30_round, share, seed),
        "rounds_per_s_uniform": rounds_per_second(uniform_round, share, seed),
        "legal_actions_per_s": legal_per_second(share, seed),
        "perft_leaves_per_s": perft_per_second(share, seed),
    }


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    seconds = float(args[0]) if args else 2.0
    seed = int(args[1]) if len(args) > 1 else 0
    for name, value in run_bench(seconds, seed).items():
        print(f"{name:24} {value:12,.0f}")


if __name__ == "__main__":
    main()
