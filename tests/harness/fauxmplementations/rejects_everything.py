"""Rejects every setup, deal and action with INVALID_SETUP / MALFORMED_ACTION."""

from _faux import Faux, serve_faux

from conformance import Rejected


class RejectsEverything(Faux):
    def start(self, setup):
        raise Rejected("INVALID_SETUP", "I refuse")

    def deal(self, deal):
        raise Rejected("INVALID_SETUP", "I refuse")

    def act(self, action):
        raise Rejected("MALFORMED_ACTION", "I refuse")


serve_faux(RejectsEverything())
