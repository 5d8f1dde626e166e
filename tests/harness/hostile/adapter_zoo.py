"""Hostile in-process adapters: `--adapter python:<this file>:<Class>`. Each runs in a
worker process; each breaks once per run (once.py), at the first `act` or `view`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from once import first_time  # noqa: E402

from conformance.adapters.reference import ReferenceAdapter  # noqa: E402


class OnAct(ReferenceAdapter):
    def act(self, action):
        if first_time(type(self).__name__):
            self.misbehave()
        super().act(action)

    def misbehave(self):
        raise NotImplementedError


class OnView(ReferenceAdapter):
    def view(self):
        if first_time(type(self).__name__):
            return self.wrong_view()
        return super().view()

    def wrong_view(self):
        raise NotImplementedError


class HardExit(OnAct):
    def misbehave(self):
        os._exit(0)  # the probe's worst: status 0 and no summary, read by CI as a pass


class SysExit(OnAct):
    def misbehave(self):
        sys.exit(3)


class Recursion(OnAct):
    def misbehave(self):
        def down(n):
            return down(n + 1) + 1
        down(0)


class Segfault(OnAct):
    def misbehave(self):
        import ctypes

        ctypes.string_at(0)


class Hangs(OnAct):
    def misbehave(self):
        while True:
            pass


class CatchesEverything(OnAct):
    """A hang that swallows whatever would end it (issue 27: it beat --in-process's
    watchdog)."""

    def misbehave(self):
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - the attack
                pass


class IgnoresAlarm(OnAct):
    """A hang that ignores SIGALRM, the signal of --in-process's watchdog."""

    def misbehave(self):
        import signal

        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            pass


class DetachedGrandchild(OnAct):
    """A grandchild in a session of its own holds the reply pipe; the worker exits."""

    def misbehave(self):
        import time

        if os.fork() == 0:
            os.setsid()
            time.sleep(60)
        os._exit(0)


class DaemonWithoutTrace(ReferenceAdapter):
    """Starts a daemon in a session of its own, orphaned, with an empty environment."""

    def __init__(self):
        from protocol_zoo import daemonize_without_trace

        super().__init__()
        daemonize_without_trace()


class MemoryHog(OnAct):
    def misbehave(self):
        import resource

        with open("/proc/self/statm") as statm:  # pages of address space in use
            used = int(statm.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (used + (256 << 20), resource.RLIM_INFINITY))
        hog = []
        while True:
            hog.append(bytearray(16 << 20))


class PrintsToStdout(OnAct):
    def misbehave(self):
        print("debugging: act called")  # goes to stderr in the worker; the scenario passes


class HugeView(OnView):
    def wrong_view(self):
        return {"phase": "x" * (int(os.environ.get("T42_HOSTILE_VIEW_MB", "20")) << 20)}


class DeepView(OnView):
    def wrong_view(self):
        value = []
        for _ in range(100_000):
            value = [value]
        return value


class NanView(OnView):
    def wrong_view(self):
        view = super().view()
        view["round"] = float("nan")
        return view


class SetView(OnView):
    def wrong_view(self):
        return {"phase": {"bidding"}}


class ListView(OnView):
    def wrong_view(self):
        return [super().view()]


class RaisesOnView(OnView):
    def wrong_view(self):
        raise KeyError("hands")


class PerftStringTotal(ReferenceAdapter):
    def perft(self, depth):
        if first_time(type(self).__name__):
            return {"total": str(super().perft(depth)["total"]), "divide": {}}
        return super().perft(depth)


class NotAnAdapter:
    """Has none of the attributes."""


class HalfAnAdapter:
    name = "half"
    version = "1"
    variants = []
    capabilities = []

    def start(self, setup):
        pass


class FailsToConstruct(ReferenceAdapter):
    def __init__(self):
        raise RuntimeError("no engine today")


def factory_returns_none():
    return None


class ListTiles(ReferenceAdapter):
    """Every view's hands hold tiles as lists ([5, 5] for "5|5"): the HTML report's table
    template hashed them (TypeError), and no report was written (issue 40)."""

    def view(self):
        view = super().view()
        view["hands"] = {seat: [[int(half) for half in tile.split("|")] for tile in hand]
                         if isinstance(hand, list) else hand
                         for seat, hand in view["hands"].items()}
        return view


def _doubles_low():
    from conformance.planted import catalog

    return catalog.BY_NAME["doubles-low"].adapter().planted_rules


class BreaksInReplay(ReferenceAdapter):
    """A double is the lowest of its suit (a RANK-03 failure to find), and the engine breaks
    when its setup is sent again as it stands: only during the diagnosis's replay. The
    failure found was dropped, the scenario ERRORED (issue 40)."""

    last = None

    def __init__(self):
        from conformance.planted.base import PlantedAdapter

        self.inner = PlantedAdapter("breaks-in-replay", rules=_doubles_low())

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def start(self, setup):
        if setup == type(self).last:
            self.misbehave()
        type(self).last = setup
        return self.inner.start(setup)

    def misbehave(self):
        raise NotImplementedError


class CrashesInReplay(BreaksInReplay):
    def misbehave(self):
        os._exit(3)


class HangsInReplay(BreaksInReplay):
    def misbehave(self):
        import time

        time.sleep(60)
