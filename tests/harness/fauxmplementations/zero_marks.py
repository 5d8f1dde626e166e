"""Reads an absent team's starting marks as 0, as a decoder that keeps a missing field's
zero value does (Go's encoding/json): a setup with the marks of one team is accepted."""

from _faux import Faux, serve_faux


class ZeroMarks(Faux):
    def start(self, setup):
        if isinstance(setup.get("marks"), dict):
            setup = {**setup, "marks": {"AC": 0, "BD": 0, **setup["marks"]}}
        return super().start(setup)


serve_faux(ZeroMarks())
