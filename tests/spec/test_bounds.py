"""spec/bounds.md against the schemas, the reference engine and `t42 check`.

Every bounded field of spec/schemas/ has a row, and every row a field; the `schema`
column is what the schema says; each field of an input is tried on the reference engine
at the edges of the `engine` column (not refused with the bound's code) and just beyond
them (refused with it); and `t42 check` reports a value beyond in a scenario file at the
value's own line and field. A new field without a row, or a row without its probes,
fails here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from bounds_table import Row, bound, bounded_fields, parse_values, read_table, schema_of

from conformance.corpus.problems import line_of
from conformance.corpus.scenario import load_scenario
from conformance.specdata.fields import format_field
from conformance.specdata.files import schemas_dir
from conformance.specdata.index import load_index
from conformance.specdata.yamlload import load_yaml
from reference_impl import IllegalAction, Match

ROWS = read_table()
FIELDS = bounded_fields()
BY_LOCATION = {location: row for row in ROWS for location in row.locations}
FOREIGN = "x_beyond"  # a string no enum of the spec holds
HANDS = {
    "A": ["5|5", "1|2", "0|0", "2|2", "1|3", "0|1", "1|1"],
    "B": ["3|5", "1|6", "0|3", "4|5", "2|4", "3|3", "0|2"],
    "C": ["0|5", "2|6", "4|4", "1|5", "3|4", "0|4", "2|5"],
    "D": ["6|6", "2|3", "4|6", "0|6", "5|6", "1|4", "3|6"],
}
SETUP = {"dealer": "D", "hands": HANDS}  # A bids first


def act(kind: str, seat: str = "A", **fields: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **fields}


PASSES = [act("pass", seat) for seat in "BCD"]
WHOLE = {"pass": act("pass"), "bid": act("bid", points=30), "trump": act("trump", trump=6),
         "play": act("play", tile="5|5")}  # a well-formed action of each type


def marks_bids(marks: int) -> list[dict[str, Any]]:
    """A legal way to a bid of `marks` (BID-05, BID-06): 2, 3, ... by A, B, C, D; a value
    beyond 5 comes where 5 is the only marks bid, so its refusal is the bound's."""
    prior = list(range(2, min(marks, 5)))
    return [act("bid", "ABCD"[i], marks=m) for i, m in enumerate([*prior, marks])]


# --- the reference engine: location -> value -> (setup, actions); the last one judged --

Probe = Callable[[Any], tuple[dict[str, Any], list[dict[str, Any]]]]


def _setting(location: str) -> tuple[str, str]:
    match = re.search(r"variants/properties/(\w+)/properties/(\w+)$", location)
    assert match, location
    return match[1], match[2]


def _engine_probe(location: str) -> Probe | None:
    name = location.rsplit("/", 1)[-1]
    if "/variants/properties/" in location:
        option, setting = _setting(location)
        return lambda v: ({**SETUP, "variants": {option: {setting: v}}}, [])
    if location.startswith("setup.schema.json#/$defs/marks/"):
        return lambda v: ({**SETUP, "marks": {"AC": 0, "BD": 0, name: v}}, [])
    probes: dict[str, Probe] = {
        "action.schema.json#/properties/type": lambda v: (SETUP, [WHOLE.get(v, act(v))]),
        "action.schema.json#/$defs/seat": lambda v: (SETUP, [act("pass", v)]),
        "action.schema.json#/$defs/tile": lambda v: (SETUP, [act("play", tile=v)]),
        "points": lambda v: (SETUP, [act("bid", points=v)]),
        "marks": lambda v: (SETUP, marks_bids(v)),
        "trump": lambda v: (SETUP, [act("bid", points=30), *PASSES, act("trump", trump=v)]),
        "stacks": lambda v: (SETUP, [act("bid", marks=2), *PASSES,
                                     act("trump", trump=6, stacks=v)]),
        "scenario.schema.json#/$defs/contract/properties/bid/properties/marks":
            lambda v: (SETUP, [act("bid", marks=v)]),
    }
    if location in probes:
        return probes[location]
    acts = ("action.schema.json#/$defs/", "scenario.schema.json#/$defs/acceptedAction/")
    return probes.get(name) if location.startswith(acts) else None


def engine_code(probe: Probe, value: Any) -> str | None:
    setup, actions = probe(value)
    try:
        match = Match.start(json.loads(json.dumps(setup)))
    except IllegalAction as error:
        assert not actions, f"the probe's setup is refused: {error}"
        return error.code
    for i, action in enumerate(actions):
        try:
            match.apply(action)
        except IllegalAction as error:
            assert i == len(actions) - 1, f"the probe's way there is refused at {action}"
            return error.code
    return None


# --- t42 check: location -> value -> [(scenario document, field path)] --------------------

Doc = dict[str, Any]
CheckProbe = Callable[[Any], list[tuple[Doc, tuple]]]


def doc(steps: list[dict[str, Any]], **fields: Any) -> Doc:
    return {"id": "bounds-probe", "title": "T", "description": "D", "rules": ["BID-01"],
            "setup": SETUP, **fields, "steps": steps}


def acted(actions: list[dict[str, Any]], name: str) -> list[tuple[Doc, tuple]]:
    """The last action as a step expected accepted, and as the legal action after the
    others (`expect.legal`)."""
    steps = [{"act": a} for a in actions]
    legal = [*steps[:-1], {"expect": {"legal": [actions[-1]]}}]
    return [(doc(steps), ("steps", len(steps) - 1, "act", name)),
            (doc(legal), ("steps", len(steps) - 1, "expect", "legal", 0, name))]


def contract(bid: dict[str, Any], **fields: Any) -> Doc:
    return doc([{"expect": {"view": {"phase": "playing"}}}],
               setup={**SETUP, "contract": {"declarer": "A", "bid": bid, "trump": 6, **fields}})


def expected(expect: dict[str, Any], *path: Any) -> list[tuple[Doc, tuple]]:
    return [(doc([{"expect": expect}]), ("steps", 0, "expect", *path))]


def _check_probe(location: str) -> CheckProbe | None:
    name = location.rsplit("/", 1)[-1]
    if "/variants/properties/" in location:
        option, setting = _setting(location)
        return lambda v: [(doc([{"expect": {"view": {"phase": "bidding"}}}],
                               variants={option: {setting: v}}), ("variants", option, setting))]
    if location.startswith("setup.schema.json#/$defs/marks/"):
        return lambda v: [(doc([{"expect": {"view": {"phase": "bidding"}}}],
                               setup={**SETUP, "marks": {"AC": 0, "BD": 0, name: v}}),
                           ("setup", "marks", name))]
    accepted = "scenario.schema.json#/$defs/acceptedAction/properties/"
    perft = "scenario.schema.json#/$defs/expect/properties/perft/properties/"
    self_deal = "scenario.schema.json#/$defs/expect/properties/self_deal/properties/"
    contract_ = "view.schema.json#/$defs/contract/oneOf/1/properties/"
    probes: dict[str, CheckProbe] = {
        "action.schema.json#/properties/type": lambda v: acted([{"type": v, "seat": "A"}], "type"),
        "action.schema.json#/$defs/seat": lambda v: acted([act("pass", v)], "seat"),
        "action.schema.json#/$defs/tile": lambda v: acted([act("play", tile=v)], "tile"),
        "action.schema.json#/$defs/bid/properties/points":
            lambda v: acted([act("bid", points=v)], "points"),
        "action.schema.json#/$defs/bid/properties/marks": lambda v: acted(marks_bids(v), "marks"),
        "action.schema.json#/$defs/trump/properties/trump":
            lambda v: acted([act("bid", points=30), *PASSES, act("trump", trump=v)], "trump"),
        "action.schema.json#/$defs/trump/properties/stacks":
            lambda v: acted([act("bid", marks=2), *PASSES, act("trump", trump=6, stacks=v)],
                            "stacks"),
        accepted + "points": lambda v: [*acted([act("bid", points=v)], "points"),
                                        (contract({"points": v}),
                                         ("setup", "contract", "bid", "points"))],
        accepted + "marks": lambda v: acted(marks_bids(v), "marks"),
        accepted + "trump": lambda v: [
            *acted([act("bid", points=30), *PASSES, act("trump", trump=v)], "trump"),
            (contract({"points": 30}) | {"setup": {**SETUP, "contract": {
                "declarer": "A", "bid": {"points": 30}, "trump": v}}},
             ("setup", "contract", "trump"))],
        accepted + "stacks": lambda v: [
            *acted([act("bid", marks=2), *PASSES, act("trump", trump=6, stacks=v)], "stacks"),
            (contract({"marks": 2}, stacks=v), ("setup", "contract", "stacks"))],
        "scenario.schema.json#/$defs/contract/properties/bid/properties/marks":
            lambda v: [(contract({"marks": v}, stacks=1), ("setup", "contract", "bid", "marks"))],
        accepted + "doubles": lambda v: [
            (doc([{"act": a} for a in (act("bid", marks=2), *PASSES,
                                       act("trump", trump="nello", stacks=1, doubles=v))],
                 variants={"nello": {"doubles": "declared"}}),
             ("steps", 4, "act", "doubles"))],
        perft + "total": lambda v: expected({"perft": {"depth": 1, "total": v}}, "perft", "total"),
        perft + "divide/additionalProperties": lambda v: expected(
            {"perft": {"depth": 1, "total": 1, "divide": {"pass": v}}}, "perft", "divide", "pass"),
        "protocol/request.json#/$defs/perft/properties/depth": lambda v: expected(
            {"perft": {"depth": v, "total": 1}}, "perft", "depth"),
        self_deal + "check": lambda v: expected({"self_deal": {"check": v, "matches": 100}},
                                                "self_deal", "check"),
        self_deal + "matches": lambda v: expected(
            {"self_deal": {"check": "shuffle", "matches": v}}, "self_deal", "matches"),
        "action.schema.json#/$defs/team": lambda v: expected(
            {"view": {"tricks": [{"team": v}]}}, "view", "tricks", 0, "team"),
        "view.schema.json#/properties/round": lambda v: expected({"view": {"round": v}},
                                                                 "view", "round"),
        "observation.schema.json#/properties/round": lambda v: expected(
            {"observe": {"A": {"round": v}}}, "observe", "A", "round"),
        "view.schema.json#/properties/tricks/items/properties/number": lambda v: expected(
            {"view": {"tricks": [{"number": v}]}}, "view", "tricks", 0, "number"),
        "observation.schema.json#/properties/captured/items/properties/number":
            lambda v: expected({"observe": {"A": {"captured": [{"number": v}]}}},
                               "observe", "A", "captured", 0, "number"),
        "view.schema.json#/properties/tricks/items/properties/points": lambda v: expected(
            {"view": {"tricks": [{"points": v}]}}, "view", "tricks", 0, "points"),
        "view.schema.json#/$defs/phase": lambda v: expected({"view": {"phase": v}},
                                                            "view", "phase"),
        contract_ + "bid/oneOf/0/properties/points": lambda v: expected(
            {"view": {"contract": {"bid": {"points": v}}}}, "view", "contract", "bid", "points"),
        contract_ + "bid/oneOf/1/properties/marks": lambda v: expected(
            {"view": {"contract": {"bid": {"marks": v}}}}, "view", "contract", "bid", "marks"),
        contract_ + "stake": lambda v: expected({"view": {"contract": {"stake": v}}},
                                                "view", "contract", "stake"),
        contract_ + "trump/oneOf/0": lambda v: expected({"view": {"contract": {"trump": v}}},
                                                        "view", "contract", "trump"),
        contract_ + "trump/oneOf/1": lambda v: expected({"view": {"contract": {"trump": v}}},
                                                        "view", "contract", "trump"),
        contract_ + "stacks": lambda v: expected({"view": {"contract": {"stacks": v}}},
                                                 "view", "contract", "stacks"),
        contract_ + "doubles": lambda v: expected({"view": {"contract": {"doubles": v}}},
                                                  "view", "contract", "doubles"),
        "view.schema.json#/$defs/result/oneOf/1/properties/outcome": lambda v: expected(
            {"view": {"result": {"outcome": v}}}, "view", "result", "outcome"),
        "view.schema.json#/$defs/result/oneOf/1/properties/marks": lambda v: expected(
            {"view": {"result": {"marks": v}}}, "view", "result", "marks"),
        "spec-enums.schema.json#/$defs/ruleId": lambda v: [(doc([{"act": act("pass")}],
                                                                rules=[v]), ("rules", 0))],
        "spec-enums.schema.json#/$defs/errorCode": lambda v: [
            (doc([{"act": act("pass", "B"), "reject": v}]), ("steps", 0, "reject"))],
        "spec-enums.schema.json#/$defs/viewField": lambda v: expected({"view": {v: 1}},
                                                                      "view", v),
        "spec-enums.schema.json#/$defs/observationField/anyOf/0": lambda v: expected(
            {"observe": {"A": {v: 1}}}, "observe", "A", v),
    }
    maps = {"action.schema.json#/$defs/teamMap/": "marks",
            "view.schema.json#/$defs/teamPoints/": "points",
            "view.schema.json#/$defs/teamTricks/": "tricks_won"}
    for prefix, field in maps.items():
        if location.startswith(prefix):
            return lambda v, field=field: expected({"view": {field: {name: v}}},
                                                   "view", field, name)
    if location.startswith("observation.schema.json#/properties/hand_sizes/"):
        return lambda v: expected({"observe": {"A": {"hand_sizes": {name: v}}}},
                                  "observe", "A", "hand_sizes", name)
    return probes.get(location)


# --- values: the edges of a bound and just beyond -------------------------------------


def schema_values(node: dict[str, Any]) -> list[Any] | None:
    """The values of an enum, or of an integer range with both ends; else None."""
    if "enum" in node:
        return list(node["enum"])
    if "minimum" in node and "maximum" in node:
        return list(range(node["minimum"], node["maximum"] + 1))
    return None


def edges(values: list[Any]) -> list[Any]:
    """Every value of a short list, the ends of a long run of integers."""
    ints = sorted(v for v in values if type(v) is int)
    others = [v for v in values if type(v) is not int]
    if len(ints) > 10 and ints == list(range(ints[0], ints[-1] + 1)):
        ints = [ints[0], ints[1], ints[-2], ints[-1]]
    return [*ints, *others]


def beyond(values: list[Any], node: dict[str, Any]) -> list[Any]:
    """Values just outside: below and above the integers, a foreign string where strings
    are allowed (not for an integer-only field)."""
    ints = [v for v in values if type(v) is int]
    out = [min(ints) - 1, max(ints) + 1] if ints else []
    types = node.get("type")
    strings = (any(isinstance(v, str) for v in values) or types == "string"
               or (isinstance(types, list) and "string" in types))
    return [v for v in out if v not in values] + ([FOREIGN] if strings else [])


def schema_beyond(node: dict[str, Any]) -> list[Any]:
    """Values just outside the schema's own bound, for a field the engine does not take."""
    if str(node.get("$comment", "")).startswith("generated"):
        return ["NOPE-99" if "ruleId" in str(node) else "nope"]
    values = schema_values(node)
    if values is not None:
        return beyond(values, node)
    low, high = node.get("minimum"), node.get("maximum")
    return [v for v in (None if low is None else low - 1, None if high is None else high + 1)
            if v is not None]


def engine_values(row: Row, location: str) -> list[Any]:
    cell = row.engine.strip()
    if cell == "= schema":
        values = schema_values(FIELDS[location])
        assert values is not None, f"{location}: '= schema' needs a closed schema bound"
        return values
    return parse_values(cell)


def code_of(row: Row) -> str:
    found = re.findall(r"`([A-Z][A-Z0-9_]+)`", row.beyond)
    assert found, f"bounds.md line {row.line}: the `beyond` column names no error code"
    return found[0]


# --- the tests ---------------------------------------------------------------------------


def test_every_bounded_field_has_a_row_and_every_row_a_field():
    named = [location for row in ROWS for location in row.locations]
    assert len(named) == len(set(named)), "a location is named twice"
    assert sorted(set(FIELDS) - set(named)) == [], "bounded fields without a row in bounds.md"
    assert sorted(set(named) - set(FIELDS)) == [], "rows of bounds.md for no bounded field"


@pytest.mark.parametrize("location", sorted(FIELDS))
def test_the_schema_column_is_the_schemas_bound(location):
    row = BY_LOCATION[location]
    assert schema_of(row, location) == bound(FIELDS[location]), f"bounds.md line {row.line}"


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"line{row.line}")
def test_each_row_cites_real_rules_and_codes(row):
    index = load_index()
    cited = re.findall(r"\b[A-Z]+[0-9]*-[0-9]{2}\b", row.spec)
    assert all(rule in index.rules for rule in cited), cited
    assert all(code in index.codes for code in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.beyond))
    assert row.spec and row.engine and row.beyond and row.check


INPUTS = [location for location in sorted(FIELDS) if BY_LOCATION[location].engine != "—"]
CHECKED = [location for location in sorted(FIELDS) if BY_LOCATION[location].check != "—"]


def test_every_input_and_every_checked_field_has_its_probe():
    assert [loc for loc in INPUTS if _engine_probe(loc) is None] == []
    assert [loc for loc in CHECKED if _check_probe(loc) is None] == []


@pytest.mark.parametrize("location", INPUTS)
def test_the_engine_takes_the_edges_and_refuses_just_beyond(location):
    row, probe = BY_LOCATION[location], _engine_probe(location)
    values, code = engine_values(row, location), code_of(row)
    schema = schema_values(FIELDS[location])
    if schema is not None:  # the engine's bound lies within the schema's
        assert set(values) <= set(schema), f"bounds.md line {row.line}"
    for value in edges(values):
        assert engine_code(probe, value) != code, f"{value!r} is inside the bound"
    for value in beyond(values, FIELDS[location]):
        assert engine_code(probe, value) == code, f"{value!r} is beyond the bound"


def _check_values(row: Row, location: str) -> list[Any]:
    """Just beyond the engine's bound for an input, else just beyond the schema's."""
    if row.engine != "—":
        return beyond(engine_values(row, location), FIELDS[location])
    return schema_beyond(FIELDS[location])


@pytest.mark.parametrize("location", CHECKED)
def test_t42_check_reports_a_value_beyond_at_its_line_and_field(location, tmp_path: Path):
    row, probe = BY_LOCATION[location], _check_probe(location)
    values = _check_values(row, location)
    assert values, f"bounds.md line {row.line}: nothing lies beyond {row.schema}"
    for i, value in enumerate(values):
        for j, (scenario, path) in enumerate(probe(value)):
            text = (f"# yaml-language-server: $schema={schemas_dir() / 'scenario.schema.json'}\n"
                    + yaml.safe_dump(scenario, sort_keys=False))
            file = tmp_path / f"probe-{i}-{j}.yaml"
            file.write_text(text, encoding="utf-8")
            loaded = load_scenario(file)
            _, lines, _ = load_yaml(text)
            want = (line_of(lines, path), format_field(path))
            found = [(p.line, p.field) for p in loaded.problems]
            assert want in found, (value, [str(p) for p in loaded.problems])
            assert want[0] > 1, "reported at its own line, not the file's first"
