"""`t42 doctor` names each protocol or form mistake in one line, with its fix."""

from __future__ import annotations

import re

import pytest

from ..conftest import faux_cmd

# faux -> the one line doctor must print about it (a part of it)
MISTAKES = {
    "camel_case": "view.toAct: unknown field; the view's field is to_act",
    "wrong_type": "view.round: wrong type: '1' is not of type 'integer'",
    "missing_field": "observation.history: missing field",
    "garbage": "view: reply is not JSON: '<html>surprise</html>'",
    "wrong_seq": "legal: reply seq 7, expected 8; echo the request's seq",
    "crashes": "its stderr says: faux crashes: segmentation fault (pretend)",
    # the panic sits above a backtrace longer than the stderr tail kept (RUST_BACKTRACE=1)
    "panics_with_backtrace": "its stderr says: thread 'main' panicked at src/game.rs:61:27: "
                             "not yet implemented: play is not written yet",
    "no_stop": "stop: no reply within 2 s; answer stop with null, then exit",
    "wrong_protocol": "the harness speaks protocol 1; answer hello with",
    "zero_marks": 'setup: accepted "marks": {"AC": 3}, the marks of one team',
    # and its crash on an action sent before a setup, after the restart, is only a note
    "debug_line": "view: reply is not JSON: 'debug: view asked'",
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


@pytest.mark.parametrize(("flags", "why"), [
    ("", "after four passes the view shows phase 'bidding', not 'round_over'"),
    (" --no-legal", "after four passes the view shows phase 'bidding', not 'round_over'"),
    (" --refuses", "may not pass (its legal list)"),
    (" --refuses --no-legal", "s pass was refused (FORCED_BID"),
])
def test_doctor_follows_an_engine_whose_own_game_forces_the_dealer(t42, flags, why):
    """Its four passes never end the round, so next_deal (which may not be refused) is
    never sent: the check not reached is a note, never a protocol mistake."""
    code, out = t42("doctor", "--adapter", faux_cmd("forces_dealer") + flags)
    notes = [line for line in out.splitlines() if line.startswith("  note: next_deal")]
    assert code == 0, out
    assert len(notes) == 1 and why in notes[0], out
    assert "(the engine's rules: t42 run judges them)" in notes[0]
    assert "no protocol or form mistake" in out.splitlines()[-1]


def test_a_crash_after_a_broken_reply_is_a_note_with_its_error(t42):
    code, out = t42("doctor", "--adapter", faux_cmd("debug_line"))
    notes = [line for line in out.splitlines() if line.startswith("  note: then act:")]
    assert len(notes) == 1, out
    assert "its stderr says: AttributeError: 'NoneType' object has no attribute" in notes[0]


@pytest.mark.parametrize(("stderr", "error"), [
    ("dealt by D\nact: TypeError: no match\n    at Object.act (file:///a.js:60:12)\n"
     "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n",
     "act: TypeError: no match"),
    ("file:///a.js:3\n  throw e\n  ^\n\nError: boom\n    at file:///a.js:3:9\n\nNode.js v20.1.0\n",
     "Error: boom"),
    ('Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n'
     "ValueError: no trick\n", "ValueError: no trick"),
    ("panic: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:40 +0x25\n",
     "panic: index out of range"),
    ("thread 'main' panicked at src/game.rs:12:5:\nno trick\nnote: run with `RUST_BACKTRACE=1`\n",
     "thread 'main' panicked at src/game.rs:12:5: no trick"),
])
def test_a_crash_is_shown_by_its_error_not_its_last_frame(stderr, error):
    from conformance.adapters.doctor import crash_line

    assert crash_line(stderr) == error



def test_doctor_bounds_an_engine_of_many_unknown_changing_fields():
    """5,000 unknown fields at every view, new names at every call: doctor ran 400 s to
    266 MB and printed nothing (one finding per field, each looked up with difflib, all
    printed at the end). Now a few are shown, the rest counted, and the session stops."""
    import subprocess
    import sys

    from ..conftest import HERE

    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", "doctor",
                           "--adapter", faux_cmd("many_fields")], capture_output=True,
                          text=True, cwd=HERE.parents[1], timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr[-2000:]
    assert lines[0].startswith("t42 doctor: faux")  # before the findings, printed as found
    shown = [line for line in lines if line.startswith("  view.extra_")]
    assert len(shown) == 3, done.stdout
    assert re.search(r"^  view: unknown field: and (more than )?[\d,]+ more$", done.stdout,
                     re.M), done.stdout
    assert "note: a session stopped after 100 findings" in done.stdout
    assert len(lines) < 20 and re.match(r"[\d,]+ protocol or form mistake", lines[-1])


def test_a_capability_method_is_needed_only_when_declared(t42):
    """The README's template: `perft` "only with 'perft' in capabilities". An adapter
    that declares no capability passes without legal() or perft(); one that declares a
    capability it did not write is told which method, and the two ways out."""
    from ..conftest import inproc

    code, out = t42("doctor", "--adapter", inproc("NoCapabilityMethods"))
    assert code == 0, out
    assert out.startswith("t42 doctor: core-only 1 (python:"), out
    code, out = t42("doctor", "--adapter", inproc("DeclaresPerftWithoutIt"))
    assert code == 1
    assert ("it lacks perft(depth), which 'perft' in capabilities needs (write it, or leave "
            "'perft' out); new_match(), next_deal(), which 'self_deal' in capabilities needs "
            "(write them, or leave 'self_deal' out)") in out, out


def test_the_header_of_an_adapter_that_did_not_start_names_only_the_adapter(t42):
    """No hello, so no name or version: the --adapter given, never a stray `?`."""
    from ..conftest import inproc

    spec = inproc("DeclaresPerftWithoutIt")
    code, out = t42("doctor", "--adapter", spec)
    assert out.splitlines()[0] == f"t42 doctor: {spec}", out
    assert " ? " not in out.splitlines()[0]
