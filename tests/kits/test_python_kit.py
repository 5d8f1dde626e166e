"""The kit for Python engines (conformance.kit): the setup and action-form checks an
in-process adapter makes first, each refusal a Rejected with the spec's code, as the
node, Go and Rust kits' checkers."""

from __future__ import annotations

import pytest

from conformance import Rejected
from conformance.kit import check_action, check_setup
from reference_impl.errors import IllegalAction

HANDS = {"A": ["0|0", "0|1", "0|2", "0|3", "0|4", "0|5", "0|6"],
         "B": ["1|1", "1|2", "1|3", "1|4", "1|5", "1|6", "2|2"],
         "C": ["2|3", "2|4", "2|5", "2|6", "3|3", "3|4", "3|5"],
         "D": ["3|6", "4|4", "4|5", "4|6", "5|5", "5|6", "6|6"]}


def _verdict(check, *args) -> str:
    try:
        check(*args)
    except Rejected as refused:
        return refused.code
    return "ok"


def test_check_setup_refuses_one_team_of_marks_and_nulls():
    """SCORE-03 gives both teams' marks; VAR-01 refuses a `variants` of null (absent is
    the base game): the node kit's cases, the same verdicts."""
    extras = [{}, {"marks": {"AC": 3, "BD": 1}}, {"marks": {"AC": 3}}, {"marks": None},
              {"variants": None}]
    said = [_verdict(check_setup, {"dealer": "D", "hands": HANDS, **extra})
            for extra in extras]
    assert said == ["ok", "ok"] + ["INVALID_SETUP"] * 3


def test_check_setup_gives_the_parts_as_copies():
    order = [tile for i in range(7) for tile in (HANDS["A"][i], HANDS["B"][i],
                                                   HANDS["C"][i], HANDS["D"][i])]
    setup = {"dealer": "D", "order": order, "variants": {"nello": True}}
    checked = check_setup(setup)
    # DEAL-02: the dealer D deals t0 to A, t1 to B, ...: the hands in the order received
    assert checked == ("D", {"AC": 0, "BD": 0}, {"nello": True}, HANDS)
    checked.variants["nello"] = False
    assert setup["variants"] == {"nello": True}
    assert _verdict(check_setup, {**setup, "order": order[:-1]}) == "INVALID_SETUP"
    assert _verdict(check_setup, [setup]) == "INVALID_SETUP"


def test_check_action_agrees_with_the_reference_on_every_form():
    """Every action of spec/actions.md broken every way, under the options that change the
    forms: the reference's verdict, as a Rejected (never the engine's IllegalAction)."""
    from tests.kits.action_forms import cases

    wrong = []
    for action, variants, want in cases():
        try:
            got = "ok" if check_action(action, variants) is action else "not the action"
        except Rejected as refused:
            got = refused.code
        except IllegalAction as error:  # the engine's own exception must not escape
            got = f"IllegalAction {error.code}"
        if got != want:
            wrong.append((action, variants, want, got))
    assert wrong == [], wrong[:10]


@pytest.mark.parametrize(("action", "variants", "code"), [
    ({"type": "bid", "seat": "A", "plunge": True}, None, "MALFORMED_ACTION"),
    ({"type": "bid", "seat": "A", "plunge": True}, {"plunge": True}, "ok"),
    ({"type": "bid", "seat": "A", "points": 29}, None, "ok"),  # the rules' (POINT_BID_RANGE)
    ({"type": "trump", "seat": "A", "trump": 7}, None, "ok"),  # the rules' (INVALID_TRUMP)
])
def test_check_action_judges_the_form_only(action, variants, code):
    assert _verdict(check_action, action, variants) == code


# An in-process adapter's declaration, as mypy reads it against conformance.Adapter.
TYPED = '''
from typing import Any

from conformance import Adapter
from conformance.kit import PartialOption


class Engine:
    name, version = "my42", "0.3.0"
    capabilities = {"legal"}

    def start(self, setup: dict[str, Any]) -> None: ...
    def deal(self, deal: dict[str, Any]) -> None: ...
    def act(self, action: Any) -> None: ...
    def view(self) -> dict[str, Any]: return {}
    def observe(self, seat: str) -> dict[str, Any]: return {}
    def legal(self) -> list[dict[str, Any]]: return []
    def perft(self, depth: int) -> dict[str, Any]: return {}
    def new_match(self) -> None: ...
    def next_deal(self) -> None: ...


class Names(Engine):
    variants = ["nello"]


class Partial(Engine):
    variants: list[str | PartialOption] = [
        "nello", {"name": "forced_bid", "settings": {"bid": SETTING}}]


names: Adapter = Names()
partial: Adapter = Partial()
'''


@pytest.mark.parametrize(("setting", "errors"), [('["any"]', 0), ('"any"', 1)])
def test_a_partial_declaration_is_typed(tmp_path, setting, errors):
    """A list of names and a list with an option supported in part both conform to
    Adapter; a setting's values given as one value instead of a list do not."""
    import subprocess
    import sys
    from pathlib import Path

    source = tmp_path / "typed_adapter.py"
    source.write_text(TYPED.replace("SETTING", setting))
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                           str(source)], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])
    found = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(found) == errors, done.stdout
    line = TYPED[:TYPED.index("\"nello\", {\"name\"")].count("\n") + 1  # the item
    assert all(f"typed_adapter.py:{line}:" in error for error in found), done.stdout
