"""Adds thousands of unknown fields to every view and observation, new names at every
call: `t42 doctor` ran 400 s to 266 MB and printed nothing (issue 40)."""

from _faux import Faux, serve_faux

FIELDS = 5_000


class ManyFields(Faux):
    calls = 0

    def _more(self, reply):
        ManyFields.calls += 1
        reply.update({f"extra_{self.calls}_{i}": i for i in range(FIELDS)})
        return reply

    def view(self):
        return self._more(super().view())

    def observe(self, seat):
        return self._more(super().observe(seat))


serve_faux(ManyFields())
