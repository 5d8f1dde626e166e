"""Leaves `history` out of every observation."""

from _faux import Faux, serve_faux


class MissingField(Faux):
    def observe(self, seat):
        observation = super().observe(seat)
        del observation["history"]
        return observation


serve_faux(MissingField())
