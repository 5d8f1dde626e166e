"""Options and the skip summary of the project's own tests (the scenarios' options are
conformance.pytest_plugin's)."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import settings


def pytest_configure(config: pytest.Config) -> None:
    """The loading cache (conformance/corpus/cache.py) of this session in a folder of its
    own, made empty (each xdist worker its own): the tests never write to the user's home
    nor depend on what an earlier run left there."""
    folder = tempfile.mkdtemp(prefix="t42-test-cache-")
    config.stash[_CACHE_DIR] = (folder, os.environ.get("T42_CACHE_DIR"))
    os.environ["T42_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder, before = config.stash.get(_CACHE_DIR, (None, None))
    if folder is None:
        return
    shutil.rmtree(folder, ignore_errors=True)
    if before is None:
        os.environ.pop("T42_CACHE_DIR", None)
    else:
        os.environ["T42_CACHE_DIR"] = before


_CACHE_DIR = pytest.StashKey[tuple[str, "str | None"]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full-selftest", action="store_true",
                     help="also run every planted bug over every scenario (t42 selftest "
                          "--full; about 2 minutes on 2 cores)")
    parser.addoption("--full-hostile", action="store_true",
                     help="also run the whole-corpus attacks with --report-html under a "
                          "memory limit (tests/harness/hostile/test_hostile_bounds.py; minutes)")
    parser.addoption("--full-docs", action="store_true",
                     help="also check that docs/compare.md's examples are what "
                          "tools/compare_example.py makes now (about 20 s), and follow "
                          "every rule's scenario link in the browser (about 40 s)")
    parser.addoption("--full-fuzz", action="store_true",
                     help="also run the 300-game fuzz campaigns (tests/harness/"
                          "test_fuzz_causes.py; about a minute)")


@pytest.fixture(scope="session")
def shared(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, Callable[[], Any]], Any]:
    """`shared(name, make)`: `make()` once per session, also under pytest-xdist, where the
    first worker to ask makes it and the others read it (pickled), instead of each worker
    making its own (the selftest's report, a few seconds of both cores)."""

    def get(name: str, make: Callable[[], Any]) -> Any:
        if not hasattr(request.config, "workerinput"):
            return make()
        folder = tmp_path_factory.getbasetemp().parent  # the session's, shared by workers
        path = folder / f"{name}.pickle"
        with open(folder / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if path.exists():
                return pickle.loads(path.read_bytes())
            value = make()
            path.write_bytes(pickle.dumps(value))
            return value

    return get


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Every skip says why, even under -q (a missing Chromium, the full selftest): a test
    left out is never silent."""
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    if reasons:
        terminalreporter.section("skipped, and why", sep="-")
        for reason, count in reasons.most_common():
            terminalreporter.write_line(f"{count} skipped: {reason}")


# HYPOTHESIS_PROFILE=heavy: the property tests at the sizes they were written with
# (tests/engine/support.py, examples()), new examples each run; the default run takes a
# quarter of them, the same ones every run, so that CI's verdict is the change's, not a
# draw's (a heavy run explores, `--hypothesis-seed=N` replays one; what it finds becomes
# an issue and a test).
settings.register_profile("heavy", deadline=None)
settings.register_profile("default", deadline=None, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
