"""The two validators of spec/schemas/ agree: jsonschema-rs (which answers "valid?" on the
hot path) and jsonschema (which explains a no), on valid and mutated instances."""

import copy
import json
import random

import pytest

from conformance.specdata import schemas

SCHEMAS = ["view.schema.json", "observation.schema.json"]
JUNK = [None, True, 0, 1.5, -3, "", "x", "7|7", "5|5", [], {}, [1], {"a": 1}, "A", "AC", 8]


def random_states(games: int = 25, seed: int = 7):
    """Views and observations along random games of the reference engine."""
    from reference_impl import Match

    rng = random.Random(seed)
    for game in range(games):
        match = Match.from_seed(game)
        while match.phase not in ("round_over", "match_over"):
            match.apply(rng.choice(match.legal_actions()))
            yield "view.schema.json", json.loads(json.dumps(match.view()))
            seat = rng.choice("ABCD")
            yield "observation.schema.json", json.loads(json.dumps(match.observe(seat)))


def mutate(value, rng):
    """One random change somewhere inside a JSON value."""
    value = copy.deepcopy(value)
    node = value
    while True:
        if isinstance(node, dict) and node and rng.random() < 0.7:
            key = rng.choice(list(node))
            child = node[key]
            if isinstance(child, dict | list) and child and rng.random() < 0.6:
                node = child
                continue
            choice = rng.random()
            if choice < 0.3:
                del node[key]
            elif choice < 0.4:
                node["extra_" + key] = child
            else:
                node[key] = rng.choice(JUNK)
            return value
        if isinstance(node, list) and node:
            i = rng.randrange(len(node))
            if isinstance(node[i], dict | list) and node[i] and rng.random() < 0.6:
                node = node[i]
                continue
            if rng.random() < 0.3:
                node.append(copy.deepcopy(node[i]))
            else:
                node[i] = rng.choice(JUNK)
            return value
        return rng.choice(JUNK)


def test_fast_and_slow_agree_on_valid_and_mutated_instances():
    rng = random.Random(1)
    checked = 0
    for name, instance in random_states():
        fast = schemas._fast(name, False)
        slow = schemas.validator(name)
        assert fast(instance) and slow.is_valid(instance)
        for _ in range(3):
            bad = mutate(instance, rng)
            assert fast(bad) == slow.is_valid(bad), (name, bad)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("partial", [False, True])
def test_every_schema_resolves_in_both(partial):
    for name in [*SCHEMAS, "scenario.schema.json", "action.schema.json",
                 "setup.schema.json#/$defs/deal", "protocol/perft-result.json",
                 "protocol/hello-result.json"]:
        assert schemas._fast(name, partial)({}) == schemas.validator(name, partial).is_valid({})


def test_boolean_is_not_an_integer():
    action = {"type": "bid", "seat": "A", "marks": True}
    assert not schemas._fast("action.schema.json", False)(action)
    assert not schemas.validator("action.schema.json").is_valid(action)
    assert schemas.is_valid("action.schema.json", {**action, "marks": 2})


def test_unique_items_is_linear_and_keeps_json_equality():
    """python-jsonschema compares objects pairwise (a hello of 25,000 variants held the
    handshake for hours, issue 40); the explaining validator's own uniqueItems hashes
    them, through a `$ref` too, and keeps JSON's equality: 1 is 1.0, true is not 1."""
    import time

    distinct = [{"n": i} for i in range(20_000)]
    hello = {"name": "n", "version": "1", "protocol": 1, "variants": [],
             "capabilities": distinct}
    started = time.monotonic()
    errors = list(schemas.validator("protocol/hello-result.json").iter_errors(hello))
    assert time.monotonic() - started < 10  # pairwise: minutes
    assert not any(error.validator == "uniqueItems" for error in errors)
    unique = schemas._explaining()({"uniqueItems": True})
    assert not unique.is_valid([{"a": 1}, {"a": 1.0}])
    assert not unique.is_valid([[1, {"b": None}], [1, {"b": None}]])
    assert unique.is_valid([1, True, "1", [1], {"a": 1}, {"a": True}, None, 0, False])


def test_unknown_fields_under_unevaluated_properties_are_read_once_and_each_named():
    """The names were found by a search of the whole message per key: quadratic (a setup
    of 20,000 unknown fields, 3 s; 100,000, minutes), and a name with a quote was lost."""
    import time

    from conformance.adapters.doctor import SETUP

    odd = {**SETUP, "it's": 1, "x": 2}
    assert schemas.check("setup.schema.json", odd) == [(("it's",), "unknown field"),
                                                      (("x",), "unknown field")]
    many = {**SETUP, **{f"extra_field_number_{i}": i for i in range(50_000)}}
    started = time.monotonic()
    found = schemas.check("setup.schema.json", many)
    assert len(found) == 50_000
    assert time.monotonic() - started < 30  # a search per key: minutes
