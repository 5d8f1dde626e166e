"""Prints a debug line on stdout when asked for a view, and, like many an engine, crashes
on an action before any setup (a traceback on stderr)."""

from _faux import Faux, serve_faux


class DebugLine(Faux):
    started = False

    def start(self, setup):
        super().start(setup)
        self.started = True

    def act(self, action):
        if not self.started:
            raise AttributeError("'NoneType' object has no attribute 'apply'")  # a crash
        super().act(action)

    def view(self):
        print("debug: view asked")
        return super().view()


serve_faux(DebugLine())
