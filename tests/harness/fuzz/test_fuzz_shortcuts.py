"""The shortcuts of a fuzz round's hot path (issue 43) against what they stand for: an
action's kind, the lazy view of an illegal candidate, a step sent without the adapter's
layers, the batched replies of `t42 serve` and the reply lines handed over by chunk. Each
must give what the long way gives, so the games and their findings stay the same."""

from __future__ import annotations

import io
import json
import os
import random
import threading

from conformance.adapters.inprocess import InProcess
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.server import serve
from conformance.fuzz import differential
from conformance.fuzz.differential import Duel, illegal_candidate, random_setup
from reference_impl.variants import OPTIONS


def _long_kind(action):  # the kind as _by_kind computed it before the shortcut
    kind = action["type"] + "".join(k for k in ("points", "marks", "plunge", "splash")
                                    if k in action)
    return kind + ("plunge" if action.get("trump") == "plunge" else "")


def _states():
    """Duels at every step of seeded games: the base game, then each option."""
    for seed, name in enumerate([None, *sorted(OPTIONS)]):
        rng = random.Random(seed)
        duel = Duel(ReferenceAdapter())
        duel.begin(random_setup(rng, "hands", {name: True} if name else None))
        for _ in range(60):
            if duel.oracle.match is None or not duel.legal_actions():
                break
            yield rng, duel
            duel.send("act", rng.choice(duel.legal_actions()))


def test_kind_is_the_long_formula():
    seen = set()
    for _, duel in _states():
        for action in duel.legal_actions():
            assert differential._kind(action) == _long_kind(action)
            seen.add(_long_kind(action))
    odd = [{"type": "play", "tile": "0|0", "points": 30}, {"type": "play", "seat": "A"},
           {"type": "trump", "seat": "A", "trump": "plunge"}]
    for action in odd:
        assert differential._kind(action) == _long_kind(action)
    assert {"play", "pass", "bidpoints", "trump"} <= seen


def test_an_illegal_candidate_is_the_same_from_the_lazy_view():
    for rng, duel in _states():
        state = rng.getstate()
        legal = duel.legal_actions()
        whole = illegal_candidate(rng, duel.state(), legal)
        rng.setstate(state)
        assert illegal_candidate(rng, duel.lazy_state(), legal) == whole
        assert dict(duel.lazy_state()) == duel.state()


def test_steps_through_the_pipeline_are_the_steps_called_one_by_one():
    class Picky(ReferenceAdapter):
        def act(self, action):
            super().act(action)
            return None

    short, long = InProcess(Picky()), InProcess(Picky())
    setup = random_setup(random.Random(3), "hands", None)
    requests = [("setup", {"setup": setup}),
                ("act", {"action": {"type": "pass", "seat": "A"}}),
                ("act", {"action": {"type": "play", "seat": "B", "tile": "9|9"}}),
                ("view", {})]
    got = short.pipeline(requests, [None, None, None, None])
    want = long.pipeline(requests)
    assert [type(g) for g in got] == [type(w) for w in want]
    assert [str(g) for g in got] == [str(w) for w in want]


def _served(requests: list[dict], batched: bool) -> list[str]:
    read, write = os.pipe()
    with os.fdopen(write, "w") as sink:
        sink.write("".join(json.dumps(r) + "\n" for r in requests))
    out = io.StringIO()
    with os.fdopen(read) as source:
        serve(ReferenceAdapter(), stdin=source, stdout=out, batched=batched)
    return out.getvalue().splitlines()


def test_batched_replies_are_the_replies_one_by_one():
    setup = random_setup(random.Random(5), "hands", None)
    requests = [{"seq": 1, "cmd": "hello", "protocol": 1},
                {"seq": 2, "cmd": "setup", "setup": setup},
                {"seq": 3, "cmd": "view"}, {"seq": 4, "cmd": "legal"},
                {"seq": 5, "cmd": "act", "action": {"type": "pass", "seat": "Z"}},
                {"seq": 6, "cmd": "observe", "seat": "C"},
                {"seq": 7, "cmd": "stop"}, {"seq": 8, "cmd": "view"}]
    batched = _served(requests, batched=True)
    assert batched == _served(requests, batched=False)
    assert len(batched) == 7  # nothing after stop


def test_reply_lines_cross_by_chunk_in_order_and_bounded():
    from conformance.adapters.process import _EOF, _TOO_LONG, _read_replies

    def lines_of(data: bytes, limit: int) -> list:
        read, write = os.pipe()
        wake = os.pipe()
        os.write(write, data)
        os.close(write)
        got: list = []

        class Sink:
            def put(self, item, timeout=None):
                got.extend(item)

        thread = threading.Thread(target=_read_replies,
                                  args=(read, wake[0], threading.Event(), Sink(), limit))
        thread.start()
        thread.join()
        for fd in (read, *wake):
            os.close(fd)
        return got

    assert lines_of(b"a\nbb\nccc", 10) == [b"a\n", b"bb\n", b"ccc", _EOF]
    assert lines_of(b"a\n" + b"x" * 20 + b"\n", 10) == [b"a\n", _TOO_LONG]


def _long_by_kind(rng, legal):  # _by_kind before its shortcuts (plays, kinds kept)
    kinds = {}
    for action in legal:
        kinds.setdefault(_long_kind(action), []).append(action)
    special = sorted(k for k in kinds if k.startswith("bid") and ("plunge" in k or "splash" in k))
    if special and rng.random() < 0.5:
        return kinds[rng.choice(special)]
    if "pass" in kinds and rng.random() < 0.5:
        return kinds["pass"][:1]
    return kinds[rng.choice(sorted(kinds))]


def test_the_choice_of_a_kind_is_the_long_way_with_the_same_draws():
    for rng, duel in _states():
        legal = duel.legal_actions()
        state = rng.getstate()
        long_way = _long_by_kind(rng, legal)
        after = rng.getstate()
        rng.setstate(state)
        assert differential._by_kind(rng, legal) == long_way
        assert rng.getstate() == after  # the same draws: the game goes on the same


class _Pipelines(InProcess):
    """The reference in process, counting its pipelines and the steps in them."""

    def __init__(self):
        super().__init__(ReferenceAdapter())
        self.calls, self.steps = 0, 0

    def pipeline(self, requests, expected=None):
        self.calls += 1
        self.steps += sum(cmd in ("setup", "deal", "act") for cmd, _ in requests)
        return super().pipeline(requests, expected)


def test_a_sparse_game_is_sent_in_one_pipeline_with_the_findings_of_a_dense_one():
    from conformance.fuzz.differential import Game, play

    game = Game()
    for seed in range(5):
        sparse_side, dense_side = _Pipelines(), _Pipelines()
        sparse = play(sparse_side, seed, game, Duel(sparse_side, sparse=True))
        dense = play(dense_side, seed, game, Duel(dense_side))
        assert (sparse.rounds, sparse.divergences) == (dense.rounds, dense.divergences)
        assert sparse_side.steps == dense_side.steps  # every step sent, as many reads
        # the setup, its reads, then the game's steps at once (dense: one a step)
        assert sparse_side.calls == 3 < dense_side.calls == dense_side.steps + 1


def test_over_the_protocol_a_sparse_game_reads_no_value_it_was_not_shown_otherwise():
    """A sparse duel's expected reads go as texts (Encoded.of_text): a reply that is the
    text comes back as that item, never decoded, and one that differs is decoded and
    compared: the same findings as a dense duel's, against a plant served over the
    protocol."""
    import sys

    from conformance.adapters.process import ProcessAdapter
    from conformance.adapters.protocol import Encoded
    from conformance.fuzz.differential import Game, play

    serve = [sys.executable, "-m", "conformance.cli.main", "serve", "--adapter",
             "python:conformance.planted:doubles-low"]
    adapter = ProcessAdapter(" ".join(serve))
    try:
        text = Encoded.of_text('{"a":[1,true]}', typed=True)
        assert text.unread and text.value == {"a": [1, True]} and not text.unread
        game = Game()
        found = 0
        for seed in range(6):
            sparse = play(adapter, seed, game, Duel(adapter, sparse=True))
            dense = play(adapter, seed, game, Duel(adapter))
            assert (sparse.rounds, sparse.divergences) == (dense.rounds, dense.divergences)
            found += len(dense.divergences)
        assert found  # the plant's ranking shows in some of these games
    finally:
        adapter.close()
