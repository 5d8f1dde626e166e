"""texts.py: the reference's reads written as JSON text, exactly as json.dumps writes the
views; `t42 serve` answers with them, and the fuzzer compares a reply's text with them."""

import io
import json
import random

import pytest

from conformance.adapters.protocol import Encoded, Exact, matches
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.server import serve
from conformance.adapters.texts import ENCODE, text
from conformance.fuzz.options import vary
from reference_impl.match import Match
from reference_impl.tiles import NAMES
from reference_impl.variants import OPTIONS

READS = [("view",), *(("observe", seat) for seat in "ABCD"), ("legal",)]


def _value(match: Match, read: tuple[str, ...]):
    if read[0] == "view":
        return match.view()
    if read[0] == "observe":
        return match.observe(read[1])
    return match.legal_actions()


def _games(count: int, seed: int):
    """Every state of `count` random matches of up to three rounds, half of them under
    one to four options with their settings varied."""
    rng, names = random.Random(seed), sorted(OPTIONS)
    for game in range(count):
        options = {name: True for name in rng.sample(names, rng.randint(1, 4))}
        match = Match.from_seed(game, variants=vary(rng, options, None) if game % 2 else {})
        rounds = 1
        while True:
            yield match
            legal = match.legal_actions()
            if legal:
                match.apply(dict(rng.choice(legal)))
            elif match.phase == "round_over" and rounds < 3:
                order = list(NAMES)
                rng.shuffle(order)
                match.deal({"order": order})
                rounds += 1
            else:
                break


@pytest.mark.parametrize("seed", [1, 2])
def test_each_read_is_the_json_text_of_the_view(seed):
    states = 0
    for match in _games(40, seed):
        for read in READS:
            assert text(match, read) == ENCODE(_value(match, read)), read
        states += 1
    assert states > 1000


def test_an_observation_of_a_seat_that_is_none_is_refused_as_by_the_view():
    match = Match.from_seed(1)
    with pytest.raises(ValueError, match="seat must be one of"):
        text(match, ("observe", "E"))


def _served(adapter, requests):
    stdin = io.StringIO("".join(json.dumps(r) + "\n" for r in requests))
    stdout = io.StringIO()
    serve(adapter, stdin, stdout)
    return stdout.getvalue().splitlines()


class _Plain(ReferenceAdapter):
    """The reference as any other adapter: its reads encoded by the server."""


def test_serve_writes_the_same_replies_with_the_texts_as_without():
    requests = [{"seq": 1, "cmd": "setup", "setup": {"dealer": "A", "order": list(NAMES)}},
                *({"seq": 2 + i, "cmd": read[0], **({"seat": read[1]} if read[1:] else {})}
                  for i, read in enumerate(READS)),
                {"seq": "x", "cmd": "view"}]
    assert ReferenceAdapter().read_text("view", {}) is None  # no match yet
    with_texts = _served(ReferenceAdapter(), requests)
    assert with_texts == _served(_Plain(), requests)
    assert _Plain().read_text("view", {}) is None  # a subclass may change its reads
    assert len(with_texts) == len(requests)
    assert with_texts[0] == json.dumps({"seq": 1, "ok": True, "result": None},
                                       separators=(",", ":"))


def test_a_reply_is_taken_by_its_text_or_else_by_its_value():
    from conformance.adapters.process import ProcessAdapter

    match = Match.from_seed(3)
    view = match.view()
    adapter = ProcessAdapter.__new__(ProcessAdapter)  # _reply alone: no process
    adapter._seq = 7
    want = Encoded(view, text(match, ("view",)), True)
    line = f'{{"seq":7,"ok":true,"result":{want.text}}}\n'.encode()
    assert adapter._reply("view", line, 7, want) is view
    spaced = json.dumps({"seq": 7, "ok": True, "result": view}).encode() + b"\n"
    assert adapter._reply("view", spaced, 7, want) is view  # decoded, then compared
    changed = dict(view, round=True)  # == to 1, but not the same JSON
    assert view["round"] == 1
    typed_line = json.dumps({"seq": 7, "ok": True, "result": changed}).encode() + b"\n"
    assert adapter._reply("view", typed_line, 7, want) == changed
    assert adapter._reply("view", typed_line, 7, Encoded(view, want.text, False)) is view
    assert matches(changed, Encoded(view, "", False)) and not matches(changed, Exact(view))
    # a text alone (a sparse duel's): the item itself when the line is its reply, never
    # decoded; else the reply decoded and compared with the text decoded
    alone = Encoded.of_text(want.text, True)
    assert adapter._reply("view", line, 7, alone) is alone and alone.unread
    assert adapter._reply("view", spaced, 7, alone) == view and not alone.unread
    assert adapter._reply("view", typed_line, 7, Encoded.of_text(want.text, True)) == changed


def test_a_step_accepted_is_taken_by_its_text_or_else_by_its_value():
    from conformance.adapters.process import ProcessAdapter

    adapter = ProcessAdapter.__new__(ProcessAdapter)  # _reply alone: no process
    adapter._seq = 7
    assert adapter._reply("act", b'{"seq":7,"ok":true,"result":null}\n', 7, None) is None
    assert adapter._reply("act", b'{"seq": 7, "ok": true, "result": null}\n', 7) is None
