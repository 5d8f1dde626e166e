"""Sends a view's round as a string ("1" for 1)."""

from _faux import Faux, serve_faux


class WrongType(Faux):
    def view(self):
        view = super().view()
        view["round"] = str(view["round"])
        return view


serve_faux(WrongType())
