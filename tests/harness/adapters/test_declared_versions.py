"""Declarations read against the spec version they were written for (protocol.md,
"Declarations and spec versions"): an adapter unchanged since an older spec is never
failed at setup for a setting added since; its scenarios skip naming the setting."""

from __future__ import annotations

import re

import pytest

from conformance.adapters.inprocess import InProcess
from conformance.adapters.support import NEWER, claimed, current_spec, declared
from conformance.corpus import select as suite
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.specdata.files import scenarios_dir
from conformance.specdata.index import load_index
from tests.harness.fauxmplementations.versioned import NamesItsVersion, OldHello


def test_a_name_claims_the_settings_of_its_version():
    assert claimed("plunge", None) == {"when": NEWER}  # 0.1.0: plunge had no setting
    assert claimed("nello", None) == {"doubles": ("high", "low", "own_suit"),
                                      "min_marks": (1, 2), "on_plunge": NEWER,
                                      "announce": NEWER}
    assert claimed("nello", "0.2.0")["doubles"] == ("high", "low", "own_suit",
                                                    "own_suit_reversed")
    assert claimed("splash", None) == {"marks": (2, 3), "when": NEWER}  # new in 0.2.0
    assert claimed("splash", "0.1.0") == claimed("splash", None)  # its first version
    assert claimed("nello", current_spec()) == {} and claimed("first_bidder", None) == {}
    assert claimed("match_points", "0.2.0") == {"ladder": NEWER, "high_bids": NEWER}


def test_an_object_is_read_at_its_version_for_the_settings_it_does_not_name():
    entry = {"name": "nello", "settings": {"doubles": ["low"]}}
    assert declared([entry], None)[1] == {"nello": {"doubles": ("low",)}}  # today's form
    limits = declared([entry], "0.2.0")[1]["nello"]
    assert limits["doubles"] == ("low",) and limits["on_plunge"] == NEWER


def test_a_version_versions_yaml_does_not_list_makes_the_adapter_unusable():
    with pytest.raises(ValueError, match=r"spec '0\.1\.5' is not a version"):
        declared(["nello"], "0.1.5")
    old = OldHello()
    old.spec = "0.1.5"
    assert "is not a version of spec/versions.yaml" in (InProcess(old).broken or "")


def _run(adapter):
    index = load_index()
    loaded = suite.load([scenarios_dir()])
    chosen = [item.scenario for item in suite.select(loaded, None, (), ())]
    return [run_scenario(sc, adapter, index) for sc in chosen if sc and sc.variants]


@pytest.mark.parametrize("old", [OldHello, NamesItsVersion])
def test_an_adapter_unchanged_since_an_older_spec_gets_no_setup_failure(old):
    """The issue's test: options declared by name as an older adapter did, and a game
    that refuses every setting it never heard of: 0 failed, 0 errored."""
    results = _run(old())
    bad = [(r.id, r.outcome.value) for r in results
           if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    assert bad == []
    skipped = [r.reason for r in results if r.outcome is Outcome.SKIPPED]
    newer = [why for why in skipped if why.startswith("needs variant setting")]
    assert newer and all(re.search(r": .+, which written-for-0\.[12]\.0 does not support$", w)
                         for w in newer)
    assert sum(r.outcome is Outcome.PASSED for r in results) > 100
    # a newer setting a scenario gives but does not depend on stands in left out, the
    # behaviour from before it existed (run/standin.py)
    left_out = [n for r in results for n in r.stand_in if " left out for " in n]
    assert left_out and all(r.outcome is Outcome.PASSED for r in results if r.stand_in)


@pytest.mark.parametrize("old, spec", [(OldHello, None), (NamesItsVersion, "0.2.0")])
def test_the_version_travels_in_the_json_lines_hello(old, spec):
    from conformance.adapters.loading import load_adapter

    adapter = load_adapter(f"python:tests/harness/fauxmplementations/versioned.py:{old.__name__}")
    try:
        assert adapter.broken is None and adapter.spec_version == spec
        assert adapter.settings["plunge"] == {"when": NEWER}
        assert dict(adapter.settings["nello"])["doubles"] == claimed("nello", spec)["doubles"]
    finally:
        adapter.close()
