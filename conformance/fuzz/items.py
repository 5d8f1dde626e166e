"""Fuzz games as pytest items: `pytest --t42-fuzz N --t42-adapter A`.

Each seed is one item (`fuzz[seed=17]`), so pytest-xdist spreads a campaign over cores
(`-n auto`) and machines (`--tx ssh=...`), `--junitxml` reports it for CI, and `-x`
stops at the first divergence. A diverging item fails with the shrunk case; with
`--t42-fuzz-save DIR` it is written there as a scenario, as `t42 fuzz --save` does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.fuzz.campaign import kind_of
from conformance.fuzz.differential import DEALS, LEVELS, Duel, Game, play_game
from conformance.pytest_failure import Reported, failure_repr
from conformance.report.safe import safe

_DUEL = pytest.StashKey[Duel]()
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
                    help="write each divergence, shrunk, as a scenario file in DIR")


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
        config.pluginmanager.register(OneReport(config), "t42-fuzz-one-report")


class OneReport:
    """A fuzz game has no fixtures: it is run and reported in one phase, `call`, not the
    three of pytest's protocol (setup, call, teardown). Under pytest-xdist every report,
    and a game's start and finish too, is a message from a worker that the controller
    decodes and hands to every reporter, waking on the cores the games need: a worker
    sends only the report, and the controller frames it with the start and finish itself.
    Two messages a game instead of six: `-n 2` went from 1.61x to 1.83x one process
    (tools/fuzz_bench.py --jobs 2). Ctrl-C and pytest.exit still stop the run."""

    def __init__(self, config: pytest.Config):
        self.hook = config.hook
        self.remote = hasattr(config, "workerinput")  # an xdist worker
        self.junit = bool(config.getoption("xmlpath", None))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: Any) -> bool | None:
        if not isinstance(item, FuzzGame):
            return None
        hook, where = item.ihook, {"nodeid": item.nodeid, "location": item.location}
        if not self.remote:
            hook.pytest_runtest_logstart(**where)
        # item.runtest itself: the pytest_runtest_call hook expects the setup phase's state
        call = pytest.CallInfo.from_call(item.runtest, when="call",
                                         reraise=(pytest.exit.Exception, KeyboardInterrupt))
        report = hook.pytest_runtest_makereport(item=item, call=call)
        hook.pytest_runtest_logreport(report=report)
        if call.excinfo is not None and report.failed:  # --pdb
            hook.pytest_exception_interact(node=item, call=call, report=report)
        if not self.remote:
            self._close(report)
            hook.pytest_runtest_logfinish(**where)
        return True

    def _close(self, report: pytest.TestReport) -> None:
        """pytest's JUnit XML writes a test's properties (a game's `rounds`) when its
        teardown is reported, and a game has none: one is made here, not sent by a
        worker, and only when JUnit XML is written."""
        if not self.junit:
            return
        # a copy: junitxml matches a teardown to its call by the report's node id (pytest
        # 9 keeps it structured), and under xdist by its worker and index too
        teardown = copy.copy(report)
        teardown.when, teardown.outcome, teardown.longrepr = "teardown", "passed", None
        teardown.sections, teardown.duration = [], 0.0  # already in the call's
        self.hook.pytest_runtest_logreport(report=teardown)

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Any:
        """On the xdist controller (which sets `report.node`), a game's report from a
        worker comes between the start and the finish that its worker did not send."""
        if getattr(report, "node", None) is None or report.when != "call" or \
                not report.nodeid.startswith(f"{CAMPAIGN}::"):
            return (yield)
        where = {"nodeid": report.nodeid, "location": report.location}
        self.hook.pytest_runtest_logstart(**where)
        result = yield
        self._close(report)
        self.hook.pytest_runtest_logfinish(**where)
        return result


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
    """Rounds/s and divergences so far, as `t42 fuzz` shows them: a line every 10 s
    while the games run (from each item's report, so under xdist too), and at the end."""

    def __init__(self, config: pytest.Config):
        from conformance.fuzz.campaign import Progress

        self.progress = Progress(config.getoption("t42_fuzz"), _Lines(config))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            rounds = dict(report.user_properties).get("rounds", 0)
            self.progress(rounds if isinstance(rounds, int) else 0,
                          True if report.failed else None)

    def pytest_terminal_summary(self) -> None:
        self.progress.show()


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


def save_stem(kind: str) -> str:
    """The file name (without .yaml) of a kind of divergence: its words, at most 80 letters
    and a hash (a file name has at most 255 bytes; an error code may be 1,000 letters)."""
    import hashlib
    import re

    slug = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")
    if len(slug) > 80:
        slug = f"{slug[:80]}-{hashlib.sha256(kind.encode()).hexdigest()[:12]}"
    return "fuzz-" + slug


def _save_once(found: Any, directory: Path, adapter: Any, kind: str) -> str:
    """One file per kind of divergence (campaign.kind_of), as `t42 fuzz` groups them, and
    under xdist too: the file is named after the kind, and a game whose kind is already
    saved says so instead of writing it again."""
    from conformance.fuzz.campaign import save_checked

    stem = save_stem(kind)
    path = directory / f"{stem}.yaml"
    directory.mkdir(parents=True, exist_ok=True)
    try:
        path.open("x").close()  # claimed at once: another worker may be saving this kind
    except FileExistsError:
        return f"  the same kind of divergence as {path}, saved by another game of this campaign"
    try:
        return save_checked(found, directory, adapter, stem=stem)
    except BaseException:
        path.unlink(missing_ok=True)  # no empty file left behind
        raise


class FuzzGame(pytest.Item):
    def __init__(self, *, seed: int, adapter: Callable[[pytest.Config], Any], **kwargs):
        super().__init__(**kwargs)
        self.seed, self._adapter = seed, adapter

    def _game(self) -> Game:
        import json

        option = self.config.getoption
        text = option("t42_fuzz_variants")
        return Game(variants=json.loads(text) if text else None,
                    max_rounds=option("t42_fuzz_rounds"), deal=option("t42_fuzz_deal"),
                    level=option("t42_fuzz_level"))

    def runtest(self) -> None:
        from conformance.fuzz.save import rule_line, rules_of
        from conformance.fuzz.shrink import shrink

        adapter = self._adapter(self.config)  # a Harnessed (plugin's start_adapter)
        game = self._game()
        if _DUEL not in self.config.stash:  # one per worker: the reference is reused
            self.config.stash[_DUEL] = Duel(adapter, game.level)
        found, rounds = play_game(adapter, self.seed, game, self.config.stash[_DUEL])
        self.user_properties.append(("rounds", rounds))
        if found is None:
            return
        found = shrink(adapter, found, game.level)
        kind = kind_of(found)  # of the shrunk case: games of one bug shrink alike
        rendered = found.render()
        report = rendered + "\n" + rule_line(found)
        save = self.config.getoption("t42_fuzz_save")
        if save:
            report += "\n" + _save_once(found, Path(save), adapter, kind)
        raise Reported(report, f"{rendered.splitlines()[0]} ({rules_of(found)[0]})")

    def repr_failure(self, excinfo, style=None):
        return failure_repr(self, excinfo) or super().repr_failure(excinfo, style)

    def reportinfo(self):
        return CAMPAIGN, None, f"fuzz game seed {self.seed}"
