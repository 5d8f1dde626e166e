"""Panics on the first play as a Rust engine run with RUST_BACKTRACE=1 does: the panic's
two lines, then a backtrace longer than the stderr tail a report quotes."""

import os
import sys

from _faux import Faux, serve_faux


class PanicsWithBacktrace(Faux):
    def act(self, action):
        if isinstance(action, dict) and action.get("type") == "play":
            frames = "".join(f"  {i}: my42::Game::play_{i}\n             at src/game.rs:{i}:5\n"
                             for i in range(15))
            sys.stderr.write("thread 'main' panicked at src/game.rs:61:27:\n"
                             "not yet implemented: play is not written yet\n"
                             "stack backtrace:\n" + frames + "note: Some details are omitted, "
                             "run with `RUST_BACKTRACE=full` for a verbose backtrace.\n")
            sys.stderr.flush()
            os._exit(101)
        super().act(action)


serve_faux(PanicsWithBacktrace())
