"""pytest plugin: every scenario file under a `scenarios/` directory is a test item.

`pytest scenarios/` works with -k, --junitxml and pytest-xdist; `--t42-adapter` chooses
the implementation (default: the reference engine). A failure shows the same report as
`t42 run`. Registered through the `pytest11` entry point (pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

import pytest

MODELINE = "# yaml-language-server: $schema="
_ADAPTER = pytest.StashKey[object]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("t42", "Texas 42 conformance scenarios")
    group.addoption("--t42-adapter", default="reference",
                    help="reference | python:MODULE:OBJECT | cmd:COMMAND ARGS")
    group.addoption("--t42-timeout", type=float, default=5.0,
                    help="seconds to wait for each reply of a cmd: adapter")
    from conformance.fuzz.items import add_options

    add_options(group)


def _is_scenario(path: Path) -> bool:
    if path.suffix != ".yaml" or "scenarios" not in path.parts:
        return False
    with path.open(encoding="utf-8", errors="replace") as stream:
        first = stream.readline()
    return first.startswith(MODELINE) and "scenario.schema.json" in first


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if _is_scenario(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


def _adapter(config: pytest.Config):
    """One adapter per test process (a cmd: adapter keeps its process for the session)."""
    if _ADAPTER not in config.stash:
        from conformance.adapters.protocol import load_adapter

        config.stash[_ADAPTER] = load_adapter(config.getoption("t42_adapter"),
                                              config.getoption("t42_timeout"))
    return config.stash[_ADAPTER]


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                   items: list[pytest.Item]) -> None:
    """`--t42-fuzz N`: the run is N fuzz games (conformance/fuzz/items.py), nothing else."""
    if config.getoption("t42_fuzz"):
        from conformance.fuzz.items import fuzz_items

        config.hook.pytest_deselected(items=list(items))
        items[:] = fuzz_items(session, config, _adapter)


def pytest_unconfigure(config: pytest.Config) -> None:
    adapter = config.stash.get(_ADAPTER, None)
    if adapter is not None and hasattr(adapter, "close"):
        adapter.close()


class ScenarioFailure(Exception):
    def __init__(self, report: str):
        super().__init__(report)
        self.report = report


class ScenarioFile(pytest.File):
    def collect(self):
        from conformance.corpus.scenario import load_scenario

        loaded = load_scenario(self.path)
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

        result = run_scenario(self.scenario, _adapter(self.config))
        if result.outcome is Outcome.SKIPPED:
            pytest.skip(result.reason)
        if result.outcome is not Outcome.PASSED:
            raise ScenarioFailure(result.report())

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailure):
            return excinfo.value.report
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.scenario.id}"


class InvalidScenario(pytest.Item):
    """A scenario file that does not load: a failing item, so the run goes on."""

    def __init__(self, *, problems, **kwargs):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise ScenarioFailure("invalid scenario file\n" + "\n".join(self.problems))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailure):
            return excinfo.value.report
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"invalid scenario {self.path.name}"
