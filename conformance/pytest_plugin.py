"""pytest plugin: every scenario file under a `scenarios/` directory is a test item.

`pytest scenarios/` works with -k, --junitxml and pytest-xdist; `--t42-adapter` chooses
the implementation (default: the reference engine) and `--t42-level` the conformance level
(spec/levels.yaml). In an engine's own project, `--t42-adapter` with no path into a
`scenarios/` folder adds the suite's corpus (the checkout's, else the installed copy's) to
what pytest collects; a session with `--t42-adapter` that runs no scenario fails with one
line, never a green run that checked nothing. A failure shows every failure block of the
scenario, as `t42 run -v`; a scenario that differs only above the level is skipped as not
judged. An adapter that cannot start stops the session at once with exit status 2.
Registered through the `pytest11` entry point (pyproject.toml).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance.adapters.limits import REPLY_BYTES, STDERR_BYTES, TIMEOUT_SECONDS, within
from conformance.pytest_failure import Reported, failure_repr
from conformance.report.safe import safe

if TYPE_CHECKING:
    from conformance.adapters.protocol import Harnessed

_ADAPTER: pytest.StashKey[Harnessed] = pytest.StashKey()
_IDS = pytest.StashKey[dict]()  # scenario id -> the first file that had it
# the chosen adapter's declaration, kept by the controller for the HTML report: under
# xdist the controller's adapter is closed before any scenario (each worker starts its own)
_DECLARED = pytest.StashKey[Any]()
_WALKED = pytest.StashKey[set]()  # the real folders walked: each once, whatever the links


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("t42", "Texas 42 conformance scenarios")
    group.addoption("--t42-adapter", default=None,
                    help="reference (the default) | python:MODULE:OBJECT | cmd:COMMAND ARGS; "
                         "with no path into a scenarios/ folder, the suite's corpus is run")
    group.addoption("--t42-timeout", type=within(*TIMEOUT_SECONDS), default=5.0,
                    help="seconds to wait for each reply of a cmd: or python: adapter")
    group.addoption("--t42-level", default="strict", choices=("rules", "codes", "strict"),
                    help="judge the checks of this level and below (spec/levels.yaml)")
    group.addoption("--t42-max-reply-bytes", type=within(*REPLY_BYTES, int), default=1 << 20,
                    help="longest reply line of a cmd: or python: adapter (t42 run's "
                         "--max-reply-bytes)")
    group.addoption("--t42-max-stderr-bytes", type=within(*STDERR_BYTES, int),
                    default=64 << 10,
                    help="how much of an adapter's stderr is kept for reports")
    from conformance.fuzz.items import add_options

    add_options(group)
    group.addoption("--t42-report-html", metavar="DIR", default=None,
                    help="write the scenario book with this run's outcomes into DIR")


def _in_scenarios(path: Path) -> bool:
    return "scenarios" in path.parts


def _chosen_adapter(config: pytest.Config) -> str | None:
    """The --t42-adapter given, or None (the reference engine, chosen by default)."""
    return config.getoption("t42_adapter", None)


def _names_scenarios(config: pytest.Config, arg: str) -> bool:
    """A collection argument inside a `scenarios/` folder, or a folder that holds one."""
    path = config.invocation_params.dir / arg.split("::")[0]
    return _in_scenarios(path.resolve()) or (path / "scenarios").is_dir()


def _add_the_corpus(config: pytest.Config) -> None:
    """An engine's project names no scenario: the suite's own corpus is collected too."""
    if not _chosen_adapter(config) or config.getoption("t42_fuzz"):
        return
    if any(_names_scenarios(config, arg) for arg in config.args):
        return
    from conformance.specdata.files import scenarios_dir

    try:
        corpus = scenarios_dir()
    except FileNotFoundError as error:
        raise pytest.UsageError(f"--t42-adapter: {error}") from None
    config.args.append(str(corpus))


def pytest_collect_directory(path: Path, parent: pytest.Collector):
    """Folders under `scenarios/` are walked by ScenarioDir: nothing in them is skipped
    without a word, and a link to an enclosing folder is reported, not followed."""
    if _in_scenarios(path):
        return ScenarioDir.from_parent(parent, path=path)
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    from conformance.corpus.scenario import SUFFIXES

    if file_path.name.endswith(SUFFIXES) and _in_scenarios(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioDir(pytest.Directory):
    """Like pytest's Dir (final: pytest.Directory is the base it offers), except that
    every `*.yaml`/`*.yml` entry is collected whatever it is (a FIFO, a device, a link
    loop: loading refuses each with a message), a link to an enclosing folder becomes one
    failing item instead of an endless walk, each real folder is walked once however many
    links lead to it, and a folder too deep or too large is a failing item that names it
    (the bounds of `t42 run`, corpus/scenario.py)."""

    depth = 0
    enclosing: frozenset[tuple[int, int]] = frozenset()

    def collect(self):
        from conformance.corpus.scenario import (
            MAX_DEPTH,
            SUFFIXES,
            Refused,
            folder_entries,
            folder_identity,
        )

        ihook, config = self.ihook, self.config
        walked = config.stash.setdefault(_WALKED, set())
        try:
            me = folder_identity(self.path)
        except OSError:
            return
        walked.add(me)
        enclosing = self.enclosing | {me}
        entries = folder_entries(self.path)
        if isinstance(entries, Refused):
            yield _refused_folder(self, self.path, entries.message)
            return
        for entry in entries or []:
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir()
                real = folder_identity(entry) if is_dir else None
            except OSError:  # a link loop
                is_dir = False
            if not self.session.isinitpath(path, with_parents=is_dir) and \
                    ihook.pytest_ignore_collect(collection_path=path, config=config):
                continue
            if is_dir and real in enclosing:
                yield ScenarioFile.from_parent(self, path=path)
            elif is_dir and real in walked:
                continue  # walked already, through another link
            elif is_dir and self.depth + 1 > MAX_DEPTH:
                yield _refused_folder(self, path, f"a folder more than {MAX_DEPTH} levels "
                                                  "deep: not walked (the limit of a corpus)")
            elif is_dir:
                walked.add(real)  # now: pytest collects the folder after this one's loop
                collector = ihook.pytest_collect_directory(path=path, parent=self)
                if collector is not None:
                    if isinstance(collector, ScenarioDir):
                        collector.depth, collector.enclosing = self.depth + 1, enclosing
                    yield collector
            elif entry.name.endswith(SUFFIXES) or entry.is_file():
                yield from ihook.pytest_collect_file(file_path=path, parent=self)


def _refused_folder(parent: pytest.Collector, path: Path, message: str) -> pytest.Item:
    from conformance.corpus.problems import Problem
    from conformance.specdata.files import display_path

    return InvalidScenario.from_parent(parent, name=path.name or str(path),
                                       problems=[str(Problem(display_path(path), 1, "",
                                                             message))])


def _adapter(config: pytest.Config) -> Harnessed:
    """One adapter per test process (a cmd: adapter keeps its process for the session)."""
    if _ADAPTER not in config.stash:
        from conformance.adapters.limits import Limits
        from conformance.adapters.loading import start_adapter

        limits = Limits(config.getoption("t42_max_reply_bytes"),
                        config.getoption("t42_max_stderr_bytes"))
        adapter = start_adapter(_chosen_adapter(config) or "reference",
                                config.getoption("t42_timeout"), limits)
        if isinstance(adapter, str):
            pytest.exit(safe(f"t42: {adapter}"), returncode=2)
        config.stash[_ADAPTER] = adapter
    return config.stash[_ADAPTER]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under `--t42-fuzz` nothing else is collected (nor imported)."""
    return True if config.getoption("t42_fuzz") else None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                   items: list[pytest.Item]) -> None:
    """`--t42-fuzz N`: the run is N fuzz games (conformance/fuzz/items.py), nothing else."""
    if config.getoption("t42_fuzz"):
        from conformance.fuzz.items import fuzz_items

        config.hook.pytest_deselected(items=list(items))
        items[:] = fuzz_items(session, config, _adapter)


@pytest.hookimpl(tryfirst=True)
def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    """A failed scenario's word carries the rule of its first failure: `FAILED BID-02
    actions/x.yaml::actions.x - ...` in the short summary (and under -v). pytest cuts a
    summary line at the terminal's width (80 columns with none), from the end: a long
    path and id left no room for the message, and the rule went with it."""
    if report.when != "call" or not report.failed:
        return None
    rule = _first_rule(report)
    return ("failed", "F", f"FAILED {rule}") if rule else None


def _first_rule(report: pytest.TestReport) -> str:
    """The rule of a failed scenario's first failure, from the result its item kept."""
    for name, value in getattr(report, "user_properties", ()):
        if name == "t42_result":
            result = json.loads(value)["result"]
            first = (result.get("failures") or [result.get("detail") or {}])[0]
            return str(first.get("rule") or "")
    return ""


def pytest_configure(config: pytest.Config) -> None:
    """A chosen adapter is started here, once, before any worker: one that cannot start
    stops the session with one message (under pytest-xdist too)."""
    from conformance.adapters.stopping import install_for_pytest
    from conformance.fuzz.items import configure

    configure(config)
    _add_the_corpus(config)
    if _chosen_adapter(config) not in (None, "reference"):
        install_for_pytest()  # SIGTERM, SIGHUP: no adapter left behind, under xdist too
        adapter = _adapter(config)
        if not hasattr(config, "workerinput"):
            from types import SimpleNamespace

            config.stash[_DECLARED] = SimpleNamespace(
                variants=list(adapter.variants), settings=dict(adapter.settings or {}),
                declaration=adapter.declaration)
        if not hasattr(config, "workerinput") and _uses_workers(config):
            adapter.close()  # each worker starts its own
            del config.stash[_ADAPTER]
    if config.getoption("t42_report_html", None) and not hasattr(config, "workerinput"):
        from conformance.report.outputs import unwritable_folder

        out = Path(config.getoption("t42_report_html"))
        why = unwritable_folder(out)  # found now, not after the whole run
        if why:
            raise pytest.UsageError(f"--t42-report-html: cannot write {out}: {why}")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(RunReport(config), "t42-run-report")


class RunReport:
    """What `t42 run` prints after its scenarios, at the end of a pytest session: the
    failures grouped by cause, the compliance table and the summary line (not judged
    counted apart from skipped); with --t42-report-html, the scenario book. On the xdist
    controller too: a worker's results travel in its reports' user_properties."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.entries: list[dict] = []
        self.invalid: list[dict] = []  # the files that did not load, for the HTML report
        self.said = ""  # what became of the HTML report
        self.nothing = ""  # the line of a session with --t42-adapter that ran no scenario
        self._settled: list | None = None

    def results(self) -> list:
        """The workers' results, their causes settled once, together (settle)."""
        if self._settled is None:
            from conformance.book.compliance import result_from_json
            from conformance.run.settle import settle

            self._settled = settle([result_from_json(e["result"], e.get("checks", ()))
                                    for e in self.entries])
        return self._settled

    @pytest.hookimpl(tryfirst=True)  # before junitxml writes the test case
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        _junit_classname(self.config, report)
        for name, value in getattr(report, "user_properties", ()):
            if name == "t42_result" and report.when == "call":
                self.entries.append(json.loads(value))
            elif name == "t42_invalid" and report.when == "call":
                self.invalid.append(json.loads(value))

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.nothing:
            terminalreporter.write_line(safe(self.nothing), red=True, bold=True)
        if not self.entries:
            return
        from conformance.report.text import compliance_table, groups, stand_in_lines
        from conformance.run.results import summary_line, totals

        level = self.config.getoption("t42_level")
        results = self.results()
        terminalreporter.write_sep("=", "t42: the scenarios' failures by cause")
        lines = []
        for group in groups(results):
            lines.append(group.head())
            lines.append(f"  {', '.join(group.ids[:10])}" + (" ..." if len(group.ids) > 10
                                                               else ""))
        lines += stand_in_lines(results)
        lines.append(compliance_table(results, level))
        lines.append(self.said)  # the HTML report, written at the session's finish
        lines.append(summary_line(totals(results), level))
        for line in filter(None, lines):  # an engine's code may be in a cause: escaped
            terminalreporter.write_line(safe(line))

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self._ran_nothing(session)
        if not self.entries or not self.config.getoption("t42_report_html", None):
            return
        from conformance.book.report import scenario_from_kept, write_report
        from conformance.corpus.scenario import Loaded
        from conformance.run.results import Outcome

        results = self.results()
        shots = {e["result"]["id"]: e["shot"] for e in self.entries if e.get("shot")}
        counts = {o.value: sum(r.outcome is o for r in results) for o in Outcome}
        # the scenarios as the run read them, sent with their results: no file is read again
        loaded = [Loaded(Path(e["scenario"]["path"]), scenario_from_kept(e["scenario"]), [])
                  for e in self.entries if e.get("scenario")]
        loaded += [Loaded(Path(e["path"]), None, e["problems"]) for e in self.invalid]
        loaded.sort(key=lambda item: (str(item.path), item.scenario.id if item.scenario
                                      else ""))
        cut_short = {e["scenario"]["id"]: e["scenario"]["steps_not_kept"]
                     for e in self.entries if (e.get("scenario") or {}).get("steps_not_kept")}
        try:
            where = write_report(Path(self.config.getoption("t42_report_html")), [],
                                 results, shots, _chosen_adapter(self.config) or "reference",
                                 counts, self.config.getoption("t42_level"),
                                 loaded=loaded, steps_not_kept=cut_short,
                                 declared=self.config.stash.get(_DECLARED, None))
        except Exception as error:  # noqa: BLE001 - the session's summary still comes
            said = f"t42: the HTML report could not be written ({type(error).__name__}: " \
                   f"{error})"
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
        else:
            said = f"t42: wrote the HTML report {where}"
        self.said = said  # printed with the summary: pytest prints it after this hook


    def _ran_nothing(self, session: pytest.Session) -> None:
        """An engine's CI that checked no scenario must not go green: exit status 5."""
        config = self.config
        if (self.entries or self.invalid or not _chosen_adapter(config)
                or config.getoption("t42_fuzz") or config.option.collectonly
                or session.shouldstop or session.shouldfail
                or session.exitstatus == pytest.ExitCode.INTERRUPTED):
            return
        self.nothing = (f"t42: --t42-adapter {_chosen_adapter(config)} ran no scenario: none "
                        "was collected or all were deselected, so nothing was checked")
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED


def _junit_classname(config: pytest.Config, report: pytest.TestReport) -> None:
    """A scenario's JUnit class is its file without `.yaml` (`scenarios.play.no-pass`):
    junitxml strips only `.py`. Set on the controller's test case, where the XML is
    written (a worker's own attribute would not reach it under xdist)."""
    path = report.nodeid.split("::")[0]
    if not path.endswith(".yaml"):
        return
    try:
        from _pytest.junitxml import xml_key
    except ImportError:  # a pytest that moved it: the class keeps `.yaml`
        return
    xml = config.stash.get(xml_key, None)
    if xml is not None:
        xml.node_reporter(report).add_attribute("classname",
                                                path.removesuffix(".yaml").replace("/", "."))


def _uses_workers(config: pytest.Config) -> bool:
    return bool(getattr(config.option, "numprocesses", None)) or bool(
        getattr(config.option, "dist", "no") != "no")


def pytest_unconfigure(config: pytest.Config) -> None:
    adapter = config.stash.get(_ADAPTER, None)
    if adapter is not None:
        adapter.close()


class ScenarioFile(pytest.File):
    def collect(self):
        from conformance.corpus.scenario import duplicate_id, load_scenario

        loaded = load_scenario(self.path)
        duplicate_id(self.config.stash.setdefault(_IDS, {}), loaded)
        if loaded.scenario is None:
            yield InvalidScenario.from_parent(self, name=self.path.name,
                                              problems=[str(p) for p in loaded.problems])
        else:
            yield ScenarioItem.from_parent(self, name=loaded.scenario.id,
                                           scenario=loaded.scenario)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario
        self.extra_keyword_matches.update(scenario.rules)

    def runtest(self) -> None:
        from conformance.run.results import Outcome
        from conformance.run.runner import run_scenario

        level = self.config.getoption("t42_level")
        html = bool(self.config.getoption("t42_report_html", None))
        result = run_scenario(self.scenario, _adapter(self.config), level=level, pictures=html)
        self._keep_for_report(result)
        if result.stand_in:  # a JUnit property: a value in place of one it does not depend on
            self.user_properties.append(("t42_stand_in", "; ".join(result.stand_in)))
        if result.outcome is Outcome.SKIPPED:
            pytest.skip(safe(result.reason))
        if result.outcome is Outcome.NOT_JUDGED:
            first = result.not_judged[0]
            pytest.skip(f"not judged at level {level}: {first.rule}: "
                        f"{first.cause or first.kind} (level {first.level})")
        if result.outcome is not Outcome.PASSED:
            raise Reported(result.reports(), result.headline())

    def _keep_for_report(self, result) -> None:
        from conformance.book.compliance import checks_to_json

        entry = {"result": result.to_json(), "checks": checks_to_json(result)}
        html = self.config.getoption("t42_report_html", None)
        if html:  # the report draws the scenario as it ran, not as its file is later
            from conformance.book.report import kept_scenario

            entry["scenario"] = kept_scenario(self.scenario)
        if result.pictures:  # kept as the scenario was judged: it is never run again
            entry["shot"] = result.pictures
        self.user_properties.append(("t42_result", json.dumps(entry)))

    def repr_failure(self, excinfo, style=None):
        return failure_repr(self, excinfo) or super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.scenario.id}"


class InvalidScenario(pytest.Item):
    """A scenario file that does not load: a failing item, so the run goes on."""

    def __init__(self, *, problems, **kwargs):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        if self.config.getoption("t42_report_html", None):  # listed in the report's index
            from conformance.adapters.limits import cut

            kept = {"path": str(self.path), "problems": [cut(p) for p in self.problems[:20]]}
            self.user_properties.append(("t42_invalid", json.dumps(kept)))
        raise Reported("invalid scenario file\n" + "\n".join(self.problems),
                       f"invalid scenario file: {self.problems[0]}" if self.problems else "")

    def repr_failure(self, excinfo, style=None):
        return failure_repr(self, excinfo) or super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"invalid scenario {self.path.name}"
