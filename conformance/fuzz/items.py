"""Fuzz games as pytest items: `pytest --t42-fuzz N --t42-adapter A`.

Each seed is one ordinary item (`fuzz[seed=17]`), run by pytest's own protocol (setup,
call, teardown), so pytest-xdist spreads a campaign over cores (`-n auto`) and machines
(`--tx ssh=...`) through its public interface alone, `--junitxml` reports it for CI, and
`-x` stops at the first divergence. A diverging item fails with the shrunk case; with
`--t42-fuzz-save DIR` it is written there as a scenario, as `t42 fuzz --save` does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance.fuzz.differential import DEALS, LEVELS, Duel, Game, play
from conformance.pytest_failure import Reported, failure_repr
from conformance.report.safe import safe

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr  # what pytest's repr_failure returns

_DUEL = pytest.StashKey[Duel]()
_CAUSES = pytest.StashKey[Any]()  # this worker's campaign.Causes
_SHRUNK = pytest.StashKey[dict[Any, str]]()  # cause -> where it was shrunk (this worker)
_KNOWN = pytest.StashKey[set[tuple[str, str]]]()  # --t42-fuzz-known, read at configure
CAMPAIGN = "t42-fuzz"  # the games' parent: node ids t42-fuzz::fuzz[seed=17]


def add_options(group: Any) -> None:
    group.addoption("--t42-fuzz", type=int, default=0, metavar="N",
                    help="run N differential fuzz games (seeds from --t42-fuzz-seed) "
                         "against --t42-adapter instead of the collected tests")
    group.addoption("--t42-fuzz-seed", type=int, default=0, help="first fuzz seed")
    group.addoption("--t42-fuzz-deal", choices=DEALS, default="hands",
                    help="deal fuzz rounds as hands or as an order")
    group.addoption("--t42-fuzz-level", choices=LEVELS, default="strict",
                    help="rules: a rejection agrees whatever its code")
    group.addoption("--t42-fuzz-rounds", type=int, default=3, help="rounds per fuzz game")
    group.addoption("--t42-fuzz-variants", metavar="JSON",
                    help="variant options for every fuzz game (a JSON object)")
    group.addoption("--t42-fuzz-save", metavar="DIR",
                    help="write each cause, shrunk, as a scenario file in DIR")
    group.addoption("--t42-fuzz-known", metavar="FILE_OR_DIR", action="append", default=[],
                    help="causes already known (saved cases, or a text file of rule IDs or "
                         "`RULE: what` lines): counted, a game of only those passes")


def configure(config: pytest.Config) -> None:
    """Under `--t42-fuzz` no test is collected, so Hypothesis's pytest plugin (when
    installed) has nothing to do, but at the end of every session, in each xdist worker
    too, its terminal summary imports all of Hypothesis: seconds per process where no
    bytecode is cached. It is unregistered."""
    if config.getoption("t42_fuzz"):
        plugin = config.pluginmanager.get_plugin("hypothesispytest")
        if plugin is not None:
            config.pluginmanager.unregister(plugin)
        if not hasattr(config, "workerinput"):  # the xdist controller, or a lone pytest
            config.pluginmanager.register(FuzzProgress(config), "t42-fuzz-progress")
        config.stash[_KNOWN] = _known(config)
        save = config.getoption("t42_fuzz_save")
        if save and not hasattr(config, "workerinput"):
            from conformance.report.outputs import unwritable_folder

            why = unwritable_folder(Path(save))  # found now, not after the campaign
            if why:
                raise pytest.UsageError(f"--t42-fuzz-save: cannot write {save}: {why}")


def _known(config: pytest.Config) -> set[tuple[str, str]]:
    """--t42-fuzz-known, read once before any game: a file that cannot be read stops the
    session with its problems, each `FILE:LINE: what`."""
    from conformance.fuzz.save import known_causes

    known: set[tuple[str, str]] = set()
    for path in config.getoption("t42_fuzz_known"):
        try:
            known |= known_causes(Path(path))
        except ValueError as error:
            raise pytest.UsageError(f"--t42-fuzz-known {safe(str(path))} cannot be "
                                    f"read:\n{safe(str(error))}") from None
    return known


class _Lines:
    """A stream for campaign.Progress that writes through pytest's terminal reporter."""

    def __init__(self, config: pytest.Config):
        self.config = config

    def write(self, text: str) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None and text.strip():
            reporter.ensure_newline()  # after pytest's dots
            reporter.write_line(safe(f"t42 fuzz: {text.strip()}"))

    def flush(self) -> None:
        pass


class FuzzProgress:
    """Rounds/s, divergences and causes so far, as `t42 fuzz` shows them: a line every
    10 s while the games run (from each item's report, so under xdist too), and at the
    end the line and the causes, new and known, with their games."""

    def __init__(self, config: pytest.Config):
        from conformance.fuzz.campaign import Progress

        self.progress = Progress(config.getoption("t42_fuzz"), _Lines(config))
        self.lines = _Lines(config)
        self.games: dict[tuple[str, str, bool], int] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            properties = dict(report.user_properties)
            rounds = properties.get("rounds", 0)
            listed = properties.get("causes", ())  # typed object: the item put a list
            causes = [tuple(c) for c in listed] if isinstance(listed, list | tuple) else []
            for rule, what, known in causes:
                key = (str(rule), str(what), bool(known))
                self.games[key] = self.games.get(key, 0) + 1
            self.progress(rounds if isinstance(rounds, int) else 0,
                          True if report.failed or causes else None,
                          [c[:2] for c in causes if not c[2]], [c[:2] for c in causes if c[2]])

    def pytest_terminal_summary(self) -> None:
        self.progress.show()
        for (rule, what, known), games in sorted(self.games.items(),
                                                 key=lambda item: (item[0][2], -item[1])):
            self.lines.write(f"{'known' if known else 'new'} cause {rule}: {what} "
                             f"({games} game{'' if games == 1 else 's'})")


def fuzz_items(session: pytest.Session, config: pytest.Config,
               adapter: Callable[[pytest.Config], Any]) -> list[pytest.Item]:
    first = config.getoption("t42_fuzz_seed")
    # its own node id: the session's is "", which made "::t42-fuzz" and a JUnit
    # classname ".t42-fuzz"
    campaign = FuzzCampaign.from_parent(session, name=CAMPAIGN, nodeid=CAMPAIGN)
    return [FuzzGame.from_parent(campaign, name=f"fuzz[seed={seed}]", seed=seed,
                                 adapter=adapter)
            for seed in range(first, first + config.getoption("t42_fuzz"))]


class FuzzCampaign(pytest.Collector):
    def collect(self) -> list[pytest.Item]:
        return []


def _claim(directory: Path, stem: str) -> Path | None:
    """The file of a cause, claimed at once (another worker may be saving it); None when
    it is already there."""
    path = directory / f"{stem}.yaml"
    directory.mkdir(parents=True, exist_ok=True)
    try:
        path.open("x").close()
    except FileExistsError:
        return None
    return path


class FuzzGame(pytest.Item):
    def __init__(self, *, seed: int, adapter: Callable[[pytest.Config], Any],
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed, self._adapter = seed, adapter

    def _game(self) -> Game:
        import json

        option = self.config.getoption
        text = option("t42_fuzz_variants")
        return Game(variants=json.loads(text) if text else None,
                    max_rounds=option("t42_fuzz_rounds"), deal=option("t42_fuzz_deal"),
                    level=option("t42_fuzz_level"))

    def _causes(self, adapter: Any, level: str) -> Any:
        """This worker's causes so far, the known ones read once."""
        from conformance.fuzz.campaign import Causes

        if _CAUSES not in self.config.stash:
            known = self.config.stash[_KNOWN]
            self.config.stash[_CAUSES] = Causes(adapter, level, known)
            self.config.stash[_SHRUNK] = {}
        return self.config.stash[_CAUSES]

    def runtest(self) -> None:
        adapter = self._adapter(self.config)  # a Harnessed (plugin's start_adapter)
        game = self._game()
        if _DUEL not in self.config.stash:  # one per worker: the reference is reused
            self.config.stash[_DUEL] = Duel(adapter, game.level, sparse=True)
        played = play(adapter, self.seed, game, self.config.stash[_DUEL])
        self.user_properties.append(("rounds", played.rounds))
        if not played.divergences:
            return
        causes = self._causes(adapter, game.level)
        groups = {g.cause: g for found in played.divergences for g in causes.add(found)}
        self.user_properties.append(("causes", [[c.rule, c.what, g.known]
                                                for c, g in groups.items()]))
        new = [g for g in groups.values() if not g.known]
        if not new:
            return  # only known causes: acknowledged
        reports = [self._report(group, adapter, game.level) for group in new]
        first = reports[0][1]
        raise Reported("\n\n".join(r[0] for r in reports),
                       first + (f" (+{len(new) - 1} more causes)" if len(new) > 1 else ""))

    def _report(self, group: Any, adapter: Any, level: str) -> tuple[str, str]:
        """A new cause of this game: shrunk and saved the first time this worker (or, with
        --t42-fuzz-save, any worker) sees it; else where it was. Its report and its
        one-line summary."""
        from conformance.fuzz.campaign import save_checked
        from conformance.fuzz.save import rule_line, save_stem, shows
        from conformance.fuzz.shrink import shrink

        cause, found = group.cause, group.found
        head = f"cause {cause.rule}: {cause.what}"
        shrunk = self.config.stash[_SHRUNK]
        save = self.config.getoption("t42_fuzz_save")
        stem = save_stem(cause)
        path = _claim(Path(save), stem) if save and cause not in shrunk else None
        if cause in shrunk or (save and path is None):
            where = shrunk.get(cause) or f"{Path(save) / stem}.yaml, saved by another game"
            return (f"{head}\n  the same cause as {where}",
                    f"game seed {self.seed}: the same cause as {where} ({cause.rule})")
        try:
            found = shrink(adapter, found, level,
                           keeps=shows(cause, adapter, level, group.exact))
            rendered = found.render()
            report = f"{head}\n{rendered}\n{rule_line(found, cause)}"
            if path is not None:
                report += "\n" + save_checked(found, path.parent, adapter, stem=stem,
                                               cause=cause)
        except BaseException:
            if path is not None:
                path.unlink(missing_ok=True)  # no empty file left behind
            raise
        shrunk[cause] = f"game seed {self.seed}" if path is None else str(path)
        return report, f"{rendered.splitlines()[0]} ({cause.rule})"

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | TerminalRepr:
        return failure_repr(self, excinfo) or super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return CAMPAIGN, None, f"fuzz game seed {self.seed}"
