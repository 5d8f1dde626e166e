"""Exits in the middle of a scenario (on the first play), after a word on stderr."""

import os
import sys

from _faux import Faux, serve_faux


class Crashes(Faux):
    def act(self, action):
        if isinstance(action, dict) and action.get("type") == "play":
            sys.stderr.write("faux crashes: segmentation fault (pretend)\n")
            sys.stderr.flush()
            os._exit(3)
        super().act(action)


serve_faux(Crashes())
