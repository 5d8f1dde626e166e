"""Prints something that is not protocol when asked for a view."""

import sys

from _faux import Faux, serve_faux


class Garbage(Faux):
    def view(self):
        sys.stdout.write("<html>surprise</html>\n")
        return super().view()


serve_faux(Garbage())
