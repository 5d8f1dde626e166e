"""Versions that never lie (spec/versions.yaml): a development version while changes are
unreleased, a released number held to the spec and corpus it was given to by a digest,
and `added` accounting for every option, setting and value of the current spec."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from packaging.version import Version

from conformance.specdata.versions import (
    added,
    corpus_digest,
    history,
    is_development,
    settings_at,
    versions,
    versions_problem,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_versions_are_canonical_pep_440():
    v = versions()
    for name in ("spec", "suite"):
        assert str(Version(str(v[name]))) == str(v[name]), name


def test_the_package_the_reference_and_the_suite_carry_one_version():
    import tomllib

    import reference_impl

    package = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert package == str(versions()["suite"]) == reference_impl.__version__


def test_unreleased_changes_are_under_a_development_version_above_every_release():
    v = versions()
    assert versions_problem(ROOT) == ""
    if history()[0].get("unreleased"):
        assert is_development(v["spec"]) and is_development(v["suite"])
        for entry in history()[1:]:
            assert Version(str(v["spec"])) > Version(str(entry["spec"]))


@pytest.fixture
def tree(tmp_path):
    """A copy of spec/ and scenarios/ to change."""
    for folder in ("spec", "scenarios"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def released(data: dict, digest: str) -> dict:
    """versions.yaml's data as a release would leave it: 0.3.0 with this digest."""
    entry = {"spec": "0.3.0", "suite": "0.3.0", "protocol": "1.1", "date": "2026-12-07",
             "digest": digest, "changes": ["..."]}
    return {**data, "spec": "0.3.0", "suite": "0.3.0",
            "history": [entry, *data["history"][1:]]}


def test_a_change_under_a_released_number_is_caught(tree):
    data = released(versions(), corpus_digest(tree))
    assert versions_problem(tree, data) == ""
    scenario = next((tree / "scenarios").rglob("*.yaml"))
    scenario.write_text(scenario.read_text() + "\n# a change\n")
    assert "changed under the released number spec 0.3.0" in versions_problem(tree, data)


def test_a_spec_change_under_a_released_number_is_caught(tree):
    data = released(versions(), corpus_digest(tree))
    (tree / "spec" / "rules.md").write_text("changed")
    assert "changed under the released number" in versions_problem(tree, data)
    (tree / "spec" / "versions.yaml").write_text("anything")  # holds the digest: left out
    assert corpus_digest(tree) == corpus_digest(tree)


def test_unreleased_changes_under_a_released_number_are_caught():
    data = {**versions(), "spec": "0.2.0", "suite": "0.2.0"}  # the lie of issue 39
    assert "unreleased changes under the released number spec 0.2.0" in \
        versions_problem(ROOT, data)


def test_added_accounts_for_every_option_setting_and_value_once():
    from reference_impl.variants import OPTIONS

    table: dict[str, dict[str, list]] = {}
    for entry in reversed(history()):
        for name, settings in added(entry).items():
            option = table.setdefault(name, {})
            for setting, values in settings.items():
                values = list(range(values["from"], values["to"] + 1)) \
                    if isinstance(values, dict) else values
                already = [v for v in values if v in option.get(setting, [])]
                assert not already, f"{name}.{setting}: {already} added twice"
                option.setdefault(setting, []).extend(values)
    current = {name: {key: list(setting.values) for key, setting in option.settings.items()}
               for name, option in OPTIONS.items()}
    assert {n: {k: sorted(v, key=repr) for k, v in s.items()} for n, s in table.items()} == \
        {n: {k: sorted(v, key=repr) for k, v in s.items()} for n, s in current.items()}


def test_the_settings_of_a_released_version():
    first = settings_at("0.1.0")
    assert first is not None and "splash" not in first and first["plunge"] == {}
    assert first["nello"] == {"doubles": ["high", "low", "own_suit"], "min_marks": [1, 2]}
    second = settings_at("0.2.0")
    assert second is not None and second["splash"] == {"marks": [2, 3]}
    assert second["nello"]["doubles"][-1] == "own_suit_reversed"
    assert settings_at("9.9.9") is None
