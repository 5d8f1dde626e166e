"""SIGTERM and SIGHUP end a `t42` command as Ctrl-C does, through its normal shutdown.

Their default action ends the harness at once, without its `finally`: the adapter (in a
session of its own, so that a Ctrl-C meant for the harness does not reach it) was
re-parented to init and kept running. Here each is raised where the harness is, as
`Stopped`, a KeyboardInterrupt: every path that ends the adapter's process tree and
prints the summary on Ctrl-C does so for these too, and the exit status says which
signal (128 + its number). A second such signal during that shutdown is ignored, so that
the adapter's tree is still ended; SIGKILL remains.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the harness's main thread."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name


def _raise(signum: int, _frame: FrameType | None) -> None:
    for each in SIGNALS:  # the shutdown that follows is not cut short by another
        signal.signal(each, signal.SIG_IGN)
    raise Stopped(signum)


@contextmanager
def handled() -> Iterator[None]:
    """Within: SIGTERM and SIGHUP raise `Stopped` where they had their default action; the
    handlers before are put back after (the command may run inside pytest, by click's
    CliRunner)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # one ignored by whoever started the harness (nohup) stays ignored
    previous = {each: signal.signal(each, _raise) for each in SIGNALS
                if signal.getsignal(each) is signal.SIG_DFL}
    try:
        yield
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


def what(interrupt: KeyboardInterrupt) -> tuple[str, int]:
    """How a stop is named in a report, and the exit status it gives: Ctrl-C, 130."""
    if isinstance(interrupt, Stopped):
        return interrupt.name, 128 + interrupt.signum
    return "Ctrl-C", 130


def _end_trees_and_raise(signum: int, frame: FrameType | None) -> None:
    """In a pytest process: tell its children (the xdist workers, each ending its own
    adapter's tree in turn), end this process's adapters' trees at once (an interrupted
    worker may never reach pytest_unconfigure: xdist kills a busy one, and a session
    finish that cannot reach the controller raises), then stop as Ctrl-C does."""
    import os

    import psutil

    from conformance.adapters import tree

    for each in SIGNALS:
        signal.signal(each, signal.SIG_IGN)
    try:
        children = psutil.Process().children()
    except psutil.Error:
        children = []
    for child in children:
        if child.pid not in tree.live_roots():  # an adapter is ended below, with its tree
            try:
                os.kill(child.pid, signum)
            except OSError:
                pass
    tree.end_all()
    raise Stopped(signum)


def install_for_pytest() -> None:
    """SIGTERM and SIGHUP as Ctrl-C for the rest of a pytest process (the controller, a
    worker, or a lone pytest), with no adapter left behind (`_end_trees_and_raise`)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for each in SIGNALS:
        if signal.getsignal(each) is signal.SIG_DFL:
            signal.signal(each, _end_trees_and_raise)
