"""The loading cache (conformance/corpus/cache.py): what it answers is what a fresh load
answers, and any change to a file, the spec or the loader's code re-checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conformance.corpus import cache
from conformance.corpus import scenario as loader
from conformance.corpus.scenario import load_corpus
from conformance.specdata import files

from ..conftest import BAD, GOOD
from .test_loader import scenario_text, write

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test, the cache on."""
    where = tmp_path / "cache"
    monkeypatch.setenv("T42_CACHE_DIR", str(where))
    monkeypatch.delenv("T42_NO_CACHE", raising=False)
    cache.enable()
    return where


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files checked afresh (not answered by the cache), in order."""
    seen: list[Path] = []
    fresh = loader._load

    def counted(path, index, data=None):
        seen.append(path)
        return fresh(path, index, data)

    monkeypatch.setattr(loader, "_load", counted)
    return seen


def fresh_load(paths: list[Path], monkeypatch: pytest.MonkeyPatch) -> list[loader.Loaded]:
    with monkeypatch.context() as patch:
        patch.setenv("T42_NO_CACHE", "1")
        return load_corpus(paths)


def corpus(tmp_path: Path) -> list[Path]:
    """Good and broken files, and a folder of a few of the suite's own."""
    some = sorted((ROOT / "scenarios" / "bidding").glob("*.yaml"))[:6]
    return [GOOD, BAD, *some, write(tmp_path, scenario_text(rules="[NOPE-01]"), "bad.yaml")]


def test_a_second_load_is_answered_by_the_cache_and_equals_a_fresh_load(
        folder, checks, tmp_path, monkeypatch):
    paths = corpus(tmp_path)
    fresh = fresh_load(paths, monkeypatch)
    checks.clear()
    cold = load_corpus(paths)
    assert len(checks) == len(fresh)  # everything checked, once
    assert list(folder.glob("corpus-*.pickle"))
    checks.clear()
    warm = load_corpus(paths)
    assert checks == []  # nothing checked again
    assert warm == cold == fresh
    assert any(item.problems for item in warm) and any(item.scenario for item in warm)
    # problems read the same, file, line and field
    assert [list(map(str, i.problems)) for i in warm] == [list(map(str, i.problems))
                                                          for i in fresh]


def test_editing_a_file_checks_it_again_and_reports_its_problem(folder, checks, tmp_path,
                                                                monkeypatch):
    path = write(tmp_path, scenario_text(sid="s"))
    other = write(tmp_path, scenario_text(sid="t"), "t.yaml")
    (first, _) = load_corpus([path, other])
    assert first.scenario is not None and not first.problems
    write(tmp_path, scenario_text(sid="s", rules="[BID-01, NOPE-01]"))
    checks.clear()
    (edited, unchanged) = load_corpus([path, other])
    assert checks == [path]  # the other file came from the cache
    assert edited.scenario is None
    assert [str(p) for p in edited.problems] == [
        f"{path.as_posix()}:5: rules[1]: unknown rule NOPE-01 (not in spec/rules.md nor "
        "variants.md)"]
    assert [edited, unchanged] == fresh_load([path, other], monkeypatch)
    # and back: the edit reverted is checked again too, and sound
    write(tmp_path, scenario_text(sid="s"))
    checks.clear()
    (again, _) = load_corpus([path, other])
    assert checks == [path] and again == first


def test_a_changed_digest_checks_every_file_again(folder, checks, tmp_path, monkeypatch):
    paths = [GOOD, BAD]
    load_corpus(paths)
    checks.clear()
    load_corpus(paths)
    assert checks == []
    monkeypatch.setattr(cache, "code_digest", lambda: "0" * 64)
    before = fresh_load(paths, monkeypatch)
    checks.clear()
    assert load_corpus(paths) == before
    assert len(checks) == len(before)


def test_the_digest_covers_the_spec_and_the_loaders_code(tmp_path, monkeypatch):
    digest = cache.code_digest
    spec = tmp_path / "spec"
    shutil.copytree(files.spec_dir(), spec)
    code = tmp_path / "code"
    for package in ("reference_impl", "conformance/corpus", "conformance/specdata"):
        shutil.copytree(ROOT / package, code / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(files, "spec_dir", lambda: spec)
    monkeypatch.setattr(cache, "_ROOT", code)
    seen = {digest()}
    for changed in (spec / "rules.md", spec / "schemas" / "scenario.schema.json",
                    code / "reference_impl" / "rules.py",
                    code / "conformance" / "corpus" / "scenario.py",
                    code / "conformance" / "specdata" / "index.py"):
        changed.write_bytes(changed.read_bytes() + b"\n")
        seen.add(digest())
    assert len(seen) == 6
    monkeypatch.setenv("MUTANT_UNDER_TEST", "reference_impl.rules.x__mutmut_1")
    seen.add(digest())
    assert len(seen) == 7


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05K\x01.",
                                     b"\x80\x05}\x94(\x8c\x06format\x94K\x01u."])
def test_a_corrupt_cache_file_is_ignored_and_rebuilt(folder, checks, garbage, monkeypatch):
    paths = [GOOD, BAD]
    fresh = fresh_load(paths, monkeypatch)
    load_corpus(paths)
    (stored,) = folder.glob("corpus-*.pickle")
    stored.write_bytes(garbage)
    checks.clear()
    assert load_corpus(paths) == fresh
    assert len(checks) == len(fresh)
    checks.clear()
    assert load_corpus(paths) == fresh  # rebuilt
    assert checks == []


def test_a_corrupt_entry_is_checked_afresh(folder, checks, monkeypatch):
    import pickle

    fresh = fresh_load([GOOD], monkeypatch)
    load_corpus([GOOD])
    (stored,) = folder.glob("corpus-*.pickle")
    data = pickle.loads(stored.read_bytes())
    data["entries"] = {name: (key, b"junk") for name, (key, _) in data["entries"].items()}
    stored.write_bytes(pickle.dumps(data))
    checks.clear()
    assert load_corpus([GOOD]) == fresh
    assert len(checks) == len(list(GOOD.glob("*.yaml")))


def test_a_cache_folder_that_cannot_be_written_is_no_cache(tmp_path, checks, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("T42_CACHE_DIR", str(blocker / "cache"))  # below a file: no folder
    monkeypatch.delenv("T42_NO_CACHE", raising=False)
    cache.enable()
    fresh = fresh_load([GOOD, BAD], monkeypatch)
    checks.clear()
    assert load_corpus([GOOD, BAD]) == fresh
    assert load_corpus([GOOD, BAD]) == fresh
    assert len(checks) == 2 * len(fresh)


def test_the_cache_folder_is_t42_cache_dir_else_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("T42_CACHE_DIR", str(tmp_path / "x"))
    assert cache.cache_dir() == tmp_path / "x"
    monkeypatch.delenv("T42_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "t42"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "t42"


def test_the_session_cache_is_a_temporary_folder():
    """tests/conftest.py: the tests never write to the user's cache."""
    import os
    import tempfile

    assert Path(os.environ["T42_CACHE_DIR"]).parent == Path(tempfile.gettempdir())


def test_t42_no_cache_bypasses_it(folder, checks, monkeypatch):
    monkeypatch.setenv("T42_NO_CACHE", "1")
    load_corpus([GOOD])
    checks.clear()
    load_corpus([GOOD])
    assert len(checks) == len(list(GOOD.glob("*.yaml")))
    assert not folder.exists()


@pytest.mark.parametrize("command", [["check"], ["list"],
                                     ["run", "--adapter", "reference"]])
def test_no_cache_option_bypasses_it(t42, folder, command):
    status, without = t42(*command, "--no-cache", GOOD, BAD)
    assert not folder.exists()
    assert t42(*command, GOOD, BAD)[0] == status  # the cache on again, for the next command
    assert list(folder.glob("corpus-*.pickle"))


def test_check_reports_the_same_from_the_cache(t42, folder):
    cold = t42("check", GOOD, BAD)
    warm = t42("check", GOOD, BAD)
    assert cold == warm and cold[0] == 1
    assert "corrupt.yaml:" in warm[1]


def test_held_load_of_t42_run_uses_the_cache(folder, checks, tmp_path, monkeypatch):
    from conformance.run import held

    paths = corpus(tmp_path)
    every, chosen = held.load(paths)
    checks.clear()
    again, chosen_again = held.load(paths)
    assert checks == []
    view = [(h.where, h.problems, h.id_line, h.id, h.scenario) for h in every]
    assert [(h.where, h.problems, h.id_line, h.id, h.scenario) for h in again] == view
    assert len(chosen) == len(chosen_again)


@pytest.mark.parametrize("command", ["run", "check", "list", "coverage", "book", "selftest"])
def test_every_command_that_loads_the_corpus_takes_no_cache(t42, command):
    status, shown = t42(command, "--help")
    assert status == 0 and "--no-cache" in shown and "T42_NO_CACHE=1" in shown
