"""`t42 fuzz -j N`: a campaign's games played by N worker processes.

Each worker loads the adapter itself and plays whole games (a game is its seed alone:
`differential.play`), diagnoses each divergence as one process would (campaign.diagnose)
and sends back the games of a chunk of seeds. The campaign takes them in seed order
(`Pool.imap`), so its causes, their examples, what it shrinks and what it saves are those
of one process; shrinking and saving stay in the campaign's own process, after the games.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from conformance.adapters.inprocess import harnessed
from conformance.fuzz.differential import Duel, Game, Played, play


@dataclass(frozen=True)
class Setting:
    """What a worker needs to play and judge a campaign's games."""

    adapter: str
    timeout: float
    in_process: bool
    game: Game


@dataclass
class Outcome:
    """One game as a worker played it: the game, or why it errored, and the diagnosis
    of each of its divergences (campaign.diagnose), in order."""

    seed: int
    played: Played | None
    error: str | None
    diagnoses: list[Any]


_WORKER: dict[str, Any] = {}  # this worker's adapter, duel and setting


def jobs_of(text: str) -> int:
    """`-j`: a number of processes, or `auto` (the cores this process may use)."""
    if text == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
    try:
        jobs = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of processes or auto") from None
    if jobs < 1:
        raise ValueError(f"{text!r}: at least 1")
    return jobs


def _start(setting: Setting) -> None:
    """A worker's start: Ctrl-C is the campaign's to handle; the adapter is loaded once
    and closed when the worker ends."""
    from multiprocessing.util import Finalize

    from conformance.adapters.loading import load_adapter

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        adapter = load_adapter(setting.adapter, setting.timeout,
                               in_process=setting.in_process)
    except Exception as error:  # noqa: BLE001 - each game says so (a pool restarts a
        # worker whose start raises, without end)
        _WORKER["broken"] = f"cannot load adapter: {type(error).__name__}: {error}"
        return
    Finalize(adapter, adapter.close, exitpriority=10)
    # the settings values the adapter supports, as `differential.fuzz` draws them
    game = replace(setting.game, limits=harnessed(adapter).settings)
    _WORKER.update(adapter=adapter, game=game, duel=Duel(adapter, game.level, sparse=True))


def _games(seeds: Sequence[int]) -> list[Outcome]:
    from conformance.fuzz.campaign import diagnose

    if "broken" in _WORKER:
        return [Outcome(seed, None, f"game seed {seed}: {_WORKER['broken']}", [])
                for seed in seeds]
    adapter, game, duel = _WORKER["adapter"], _WORKER["game"], _WORKER["duel"]
    out = []
    for seed in seeds:
        try:
            played = play(adapter, seed, game, duel)
        except Exception as error:  # noqa: BLE001 - a crash or hang ends one game only
            out.append(Outcome(seed, None, f"game seed {seed}: {type(error).__name__}: "
                                           f"{error}", []))
            continue
        out.append(Outcome(seed, played, None,
                           [diagnose(found, adapter, game.level)
                            for found in played.divergences]))
    return out


def chunks(seeds: Sequence[int], jobs: int) -> list[Sequence[int]]:
    """Seeds in chunks small enough to keep every worker busy to the end and large
    enough that sending them costs little."""
    size = max(1, min(8, len(seeds) // (jobs * 16)))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


class Workers:
    """N worker processes, started before the campaign's own adapter (a fork copies no
    adapter's threads or pipes); `games(seeds)` yields each game's Outcome in seed order."""

    def __init__(self, setting: Setting, jobs: int):
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.jobs = jobs
        self.pool = context.Pool(jobs, initializer=_start, initargs=(setting,))

    def games(self, seeds: Sequence[int]) -> Iterator[Outcome]:
        for outcomes in self.pool.imap(_games, chunks(seeds, self.jobs)):
            yield from outcomes

    def close(self) -> None:
        """After the games: each worker closes its adapter."""
        self.pool.close()
        self.pool.join()

    def stop(self) -> None:
        """At an interruption: the workers are ended at once."""
        self.pool.terminate()
        self.pool.join()
