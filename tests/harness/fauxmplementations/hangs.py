"""Never answers a `view` request."""

import time

from _faux import Faux, serve_faux


class Hangs(Faux):
    def view(self):
        time.sleep(3600)


serve_faux(Hangs())
