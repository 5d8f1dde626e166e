"""After a non-editable `pip install .`, a checkout's own spec/ and scenarios/ are read:
a scenario a contributor adds there is run and checked (issue 16). Outside a checkout the
installed copy serves."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ("conformance", "reference_impl", "spec", "scenarios", "kits", "tools",
           "pyproject.toml", "README.md", "CHANGELOG.md")
SOURCE = ROOT / "scenarios" / "examples" / "doc000-trump-sixes-30-set-after-one-trick.yaml"
NEW_ID = "play.contributed-after-install"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A copy of the checkout and a non-editable install of it into its own target dir."""
    base = tmp_path_factory.mktemp("installed")
    checkout = base / "checkout"
    checkout.mkdir()
    for name in SHIPPED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, checkout / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules"))
        elif src.exists():
            shutil.copy2(src, checkout / name)
    site = base / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--target", str(site), str(checkout)],
        capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (site / "conformance" / "_data" / "scenarios").is_dir()
    return checkout, site


def test_the_book_ships_its_templates_and_builds_from_the_installed_copy(installed, tmp_path):
    """pyproject's hatch config ships conformance/book's templates, assets and data."""
    _, site = installed
    book = site / "conformance" / "book"
    for name in ("templates/scenario.html.j2", "templates/table.svg.j2", "static/book.js",
                 "static/book.css", "doc000_figures.yaml"):
        assert (book / name).is_file(), name
    out = tmp_path / "site"
    done = t42(site, tmp_path, "book", str(out), str(site / "conformance" / "_data" /
                                                     "scenarios" / "examples"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "installed copy" in done.stdout and (out / "rules.html").is_file()


def t42(site: Path, cwd: Path, *args: str,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The installed package's `t42`, never this source tree's (PYTHONPATH first, -P: the
    working directory is not put on sys.path)."""
    extra = env or {}
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("T42_ROOT", None)
    env.update(extra)
    code = "import sys; from conformance.cli import main; sys.argv[0] = 't42'; main()"
    return subprocess.run([sys.executable, "-P", "-c", code, *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def add_scenario(checkout: Path, scenario_id: str) -> Path:
    text = SOURCE.read_text(encoding="utf-8").replace(
        "id: examples.doc000-trump-sixes-30-set-after-one-trick", f"id: {scenario_id}")
    path = checkout / "scenarios" / "play" / "contributed-after-install.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_installed_code_runs(installed):
    checkout, site = installed
    done = t42(site, checkout, "--version")
    assert done.returncode == 0, done.stderr
    show = "import conformance; print(conformance.__file__)"
    where = subprocess.run([sys.executable, "-P", "-c", show], cwd=checkout,
                           env={**os.environ, "PYTHONPATH": str(site)},
                           capture_output=True, text=True).stdout
    assert where.startswith(str(site)), where


def test_a_scenario_added_to_the_checkout_is_run_and_checked(installed):
    checkout, site = installed
    path = add_scenario(checkout, NEW_ID)
    try:
        ran = t42(site, checkout, "run", "-k", "contributed-after-install")
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert f"spec and scenarios of the checkout {checkout.resolve()}" in ran.stdout
        assert ran.stdout.rstrip().splitlines()[-1] == (
            "1 passed, 0 failed, 0 errored, 0 skipped, 0 not judged at level strict")
        listed = t42(site, checkout, "list")
        count = len(list((checkout / "scenarios").rglob("*.yaml")))
        assert f"t42: {count} scenario files listed" in listed.stdout and NEW_ID in listed.stdout
        checked = t42(site, checkout, "check", str(path))
        assert checked.returncode == 0, checked.stdout
        assert "1 scenario file checked (1 valid)" in checked.stdout
    finally:
        path.unlink()


def test_a_wrong_id_in_the_checkout_is_caught_even_for_a_single_file(installed):
    checkout, site = installed
    path = add_scenario(checkout, "play.not-its-path")
    try:
        checked = t42(site, checkout, "check", str(path))
        assert checked.returncode == 1
        assert ("id 'play.not-its-path' should be 'play.contributed-after-install' "
                "(the path below scenarios/)") in checked.stdout
        ran = t42(site, checkout, "run", str(path))
        assert ran.returncode == 1 and "0 passed, 0 failed, 1 errored" in ran.stdout
    finally:
        path.unlink()


def test_outside_a_checkout_the_installed_copy_serves(installed, tmp_path):
    checkout, site = installed
    add_scenario(checkout, NEW_ID)  # in the checkout only: the installed copy lacks it
    try:
        listed = t42(site, tmp_path, "list", "-k", "contributed-after-install")
        assert listed.returncode == 0, listed.stderr
        assert "t42: 0 scenario files listed" in listed.stdout
        assert f"installed copy {site.resolve() / 'conformance' / '_data'}" in listed.stdout
    finally:
        (checkout / "scenarios" / "play" / "contributed-after-install.yaml").unlink()


def test_outside_a_checkout_a_failure_is_placed_in_scenarios(installed, tmp_path):
    _, site = installed
    ran = t42(site, tmp_path, "run", "-k", "order-dealer-a", "--in-process",
              "--adapter", "python:conformance.planted:deal-starts-at-dealer")
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "(scenarios/deal/order-dealer-a.yaml:" in ran.stdout, ran.stdout
    assert ran.stdout.count("note: scenarios/... are the installed suite's own files") == 1


def test_checkout_of_finds_the_nearest_checkout(tmp_path):
    from conformance.specdata.files import checkout_of, corpus_root_of, is_checkout

    assert is_checkout(ROOT) and checkout_of(ROOT / "scenarios" / "play") == ROOT
    assert checkout_of(tmp_path) is None
    fake = tmp_path / "repo"
    (fake / "spec").mkdir(parents=True)
    (fake / "scenarios" / "play").mkdir(parents=True)
    assert checkout_of(fake / "scenarios" / "play") is None  # no spec files: not a checkout
    (fake / "spec" / "rules.md").write_text("# rules\n")
    (fake / "spec" / "versions.yaml").write_text("spec: 0\n")
    assert checkout_of(fake / "scenarios" / "play") == fake.resolve()
    assert corpus_root_of(fake / "scenarios" / "play" / "x.yaml") == (fake / "scenarios").resolve()
    assert corpus_root_of(tmp_path / "x.yaml") is None


def test_t42_root_names_another_checkout(installed, tmp_path):
    checkout, site = installed
    env_root = {"T42_ROOT": str(checkout)}
    done = t42(site, tmp_path, "list", "-k", "doc000", env=env_root)
    assert f"T42_ROOT {checkout.resolve()}" in done.stdout and "4 scenario files" in done.stdout
    bad = t42(site, tmp_path, "list", env={"T42_ROOT": str(tmp_path)})
    assert bad.returncode != 0 and "holds no spec/rules.md" in bad.stderr
