"""`t42 doctor` names each protocol or form mistake in one line, with its fix."""

from __future__ import annotations

import pytest

from .conftest import faux_cmd

# faux -> the one line doctor must print about it (a part of it)
MISTAKES = {
    "camel_case": "view.toAct: unknown field; the view's field is to_act",
    "wrong_type": "view.round: wrong type: '1' is not of type 'integer'",
    "missing_field": "observation.history: missing field",
    "garbage": "view: reply is not JSON: '<html>surprise</html>'",
    "wrong_seq": "legal: reply seq 7, expected 8; echo the request's seq",
    "crashes": "its last stderr line: faux crashes: segmentation fault (pretend)",
    "no_stop": "stop: no reply within 2 s; answer stop with null, then exit",
    "wrong_protocol": "the harness speaks protocol 1; answer hello with",
}


@pytest.mark.parametrize("faux", sorted(MISTAKES))
def test_doctor_names_the_mistake_in_one_line(t42, faux):
    code, out = t42("doctor", "--adapter", faux_cmd(faux))
    found = [line.strip() for line in out.splitlines() if line.startswith("  ")
             and not line.startswith("  note:")]
    assert code == 1
    assert len(found) == 1, out
    assert MISTAKES[faux] in found[0], out
    assert out.splitlines()[-1].startswith("1 protocol or form mistake")


@pytest.mark.parametrize("adapter", ["reference", "cmd:t42 serve"])
def test_doctor_passes_a_correct_adapter(t42, adapter):
    code, out = t42("doctor", "--adapter", adapter)
    assert code == 0, out
    assert "no protocol or form mistake" in out


def test_doctor_notes_a_refusal_as_a_rule_matter(t42):
    code, out = t42("doctor", "--adapter", faux_cmd("rejects_everything"))
    # the refused setup is a note (the rules); the refused new_match is a mistake
    assert out.count("note: start was refused (INVALID_SETUP)") == 1, out
    assert "new_match: the implementation replied with error INVALID_SETUP" in out
    assert code == 1
