"""Every command names the spec and scenarios it read, checkout or installed copy (issue
16): run, check, list, coverage and book have their tests elsewhere; these are the rest.
A command whose stdout is a protocol or a JSON report says it on stderr instead."""

import json
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "scenarios" / "examples"


def invoke(*args: str, stdin: str | None = None):
    from conformance.cli.main import main

    return CliRunner().invoke(main, [str(a) for a in args], input=stdin,
                              catch_exceptions=False)


def said(text: str) -> bool:
    """The line names this tree (as a checkout when the tests run inside it)."""
    return any(line.startswith("t42: spec and scenarios of the ") and line.endswith(str(ROOT))
               for line in text.splitlines())


def test_selftest_says_it_on_stdout_and_on_stderr_with_json():
    done = invoke("selftest", "-k", "deal-starts-at-dealer", EXAMPLES)
    assert said(done.stdout.splitlines()[0]), done.stdout
    as_json = invoke("selftest", "--json", "-k", "deal-starts-at-dealer", EXAMPLES)
    assert said(as_json.stderr) and not said(as_json.stdout)
    assert json.loads(as_json.stdout)["bugs"]  # stdout is still only the JSON report
    listed = invoke("selftest", "--list")
    assert not said(listed.output)  # the list of plants reads no scenario


def test_perft_says_it_before_the_counts():
    done = invoke("perft", "--seed", "1", "--depth", "1")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert said(lines[0]) and lines[-1].startswith("total ")


def test_fuzz_says_it_before_the_games():
    done = invoke("fuzz", "--adapter", "python:conformance.adapters.reference:ReferenceAdapter",
                  "--games", "1", "--rounds", "1")
    assert done.exit_code == 0, done.output
    assert said(done.stdout.splitlines()[0])


def test_docs_says_which_spec_it_regenerates_from():
    done = invoke("docs", "--check")
    assert done.exit_code == 0, done.output
    assert said(done.stdout)


def test_serve_says_it_on_stderr_and_keeps_stdout_for_the_protocol():
    done = invoke("serve", stdin='{"seq": 1, "cmd": "hello", "protocol": 1}\n'
                                   '{"seq": 2, "cmd": "stop"}\n')
    assert done.exit_code == 0, done.output
    assert said(done.stderr)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["seq"] for reply in replies] == [1, 2], done.stdout
