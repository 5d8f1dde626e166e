"""Partial match and structural diff (scenario-format.md, "Partial match")."""

from conformance.run.matching import MISSING, diff, diff_sets


def paths(found):
    return [d.path for d in found]


def test_partial_mapping_ignores_unnamed_keys():
    assert diff({"a": 1}, {"a": 1, "b": 2}, "view") == []


def test_missing_key_is_reported_with_its_path():
    found = diff({"a": {"b": 1}}, {"a": {}}, "view")
    assert paths(found) == ["view.a.b"] and found[0].actual is MISSING


def test_integer_never_equals_boolean():
    assert paths(diff({"x": 1}, {"x": True}, "v")) == ["v.x"]
    assert paths(diff({"x": False}, {"x": 0}, "v")) == ["v.x"]


def test_lists_must_have_the_same_length_and_match_in_order():
    assert "2 items expected, 1 found" in diff([1, 2], [1], "v")[0].note
    assert paths(diff([{"s": "A"}, {"s": "B"}], [{"s": "A"}, {"s": "C"}], "t")) == ["t[1].s"]


def test_exact_mode_reports_extra_keys():
    assert paths(diff({"a": 1}, {"a": 1, "b": 2}, "v", partial=False)) == ["v.b"]


def test_render_says_path_expected_and_actual():
    text = diff({"to_act": "C"}, {"to_act": "D"}, "view")[0].render()
    assert text == 'view.to_act: expected "C", actual "D"'


def test_legal_sets_ignore_order_and_catch_duplicates_and_strays():
    a, b, c = ({"type": "pass", "seat": s} for s in "ABC")
    assert diff_sets([a, b], [b, a], "legal") == []
    notes = sorted(d.note for d in diff_sets([a, b], [a, a, c], "legal"))
    assert notes == ["legal action missing", "listed twice", "not legal here"]
