"""The rules read otherwise (conformance/run/diagnosis/readings.yaml): data the
diagnosis replays, checked against the spec and the rule table."""

from __future__ import annotations

import dataclasses
import inspect
import json

from conformance.run.diagnosis.counterfactual import suspects
from conformance.run.diagnosis.readings import readings
from conformance.specdata.index import load_index
from reference_impl import Match
from reference_impl.rules import BASE_RULES, Rules
from reference_impl.why import with_entry

ENTRIES = {f.name for f in dataclasses.fields(Rules)}


def test_each_reading_names_a_rule_and_replaces_an_entry_with_its_signature():
    rules = load_index().rules
    for reading in readings():
        assert reading.rule in rules, reading
        assert reading.entry in ENTRIES, reading
        assert reading.as_if and not reading.as_if.endswith("."), reading
        base = getattr(BASE_RULES, reading.entry)
        if callable(reading.function) and callable(base):
            assert len(inspect.signature(reading.function).parameters) == \
                len(inspect.signature(base).parameters), reading
        elif not callable(reading.function):
            assert type(reading.function) is type(base) and reading.function != base, reading


def _mid_trick() -> Match:
    """6s trump, B to follow a lead of 4|1: B holds 2|2 and 2|5 and no 4."""
    match = Match.start({"dealer": "D", "hands": {
        "A": ["1|4", "0|0", "0|1", "0|2", "0|3", "0|4", "0|5"],
        "B": ["2|2", "2|5", "3|3", "3|5", "1|1", "1|2", "1|3"],
        "C": ["4|4", "4|5", "4|6", "5|5", "5|6", "6|6", "0|6"],
        "D": ["1|5", "1|6", "2|3", "2|4", "2|6", "3|4", "3|6"]}})
    for action in ({"type": "bid", "seat": "A", "points": 30}, {"type": "pass", "seat": "B"},
                   {"type": "pass", "seat": "C"}, {"type": "pass", "seat": "D"},
                   {"type": "trump", "seat": "A", "trump": 6},
                   {"type": "play", "seat": "A", "tile": "1|4"}):
        match.apply(action)
    return match


def _plays(match: Match) -> set[str]:
    return {a["tile"] for a in match.legal_actions()}


def test_a_reading_reaches_what_an_earlier_step_decided():
    # the lead was played a step before: its called suit is decided again under the reading
    match = _mid_trick()
    assert len(_plays(match)) == 7  # SUIT-05: the 4s are called; B holds none
    smaller = next(r for r in readings() if r.rule == "SUIT-05")
    assert _plays(with_entry(match, smaller.entry, smaller.function)) == {"1|1", "1|2", "1|3"}


def test_the_reading_that_gives_the_engines_list_is_the_suspect():
    match = _mid_trick()

    def legal(m: Match) -> dict[str, bool]:
        return {json.dumps(a, sort_keys=True): True for a in m.legal_actions()}

    engine = {json.dumps({"seat": "B", "tile": t, "type": "play"}, sort_keys=True): True
              for t in ("1|1", "1|2", "1|3")}
    found = suspects(match, legal, engine)
    assert [s.reading.rule for s in found.suspects if s.reading] == ["SUIT-05"]
