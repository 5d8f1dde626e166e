"""An adapter's whole process tree, ended when the harness is done with it.

A kill of the adapter's process group misses a grandchild that made its own session or
a daemon that forked twice: it outlived the run, and one that kept the adapter's stdout
open hung it. So the harness becomes a child subreaper (Linux, prctl): an orphan of the
tree is re-parented to the harness instead of to init, and stays findable. Every process
of the tree also carries `T42_ADAPTER_TREE` in its environment. `end_tree` kills the
adapter, its descendants, and every process of the harness's own descendants that
carries the tree's mark, shares its session or process group, until none is left.

An orphan may leave all three: a session of its own and an empty environment (an
`execve` with no environment; changing `os.environ` does not hide the mark from
/proc). Re-parented to the harness it is still the harness's child, outside the
harness's own session, which no process the harness starts without a new session can
leave; and it was created after the adapter. Such a child is the tree's unless it is
another live adapter or of another live adapter's session, group or mark (`launched`
records them). What is not covered: off Linux there is no subreaper, so an orphan
re-parented to init is found only while it keeps the adapter's process group (a kill of
the group); with two adapters alive in one harness process (no `t42` command does
that), an orphan that left every trace is ended with whichever ends first.
"""

from __future__ import annotations

import os
import signal
import sys
import uuid

import psutil

MARK = "T42_ADAPTER_TREE"
_PR_SET_CHILD_SUBREAPER = 36
_subreaper: bool | None = None
_live: dict[int, tuple[str, float]] = {}  # each live adapter's root: its mark, its start
ROUNDS = 20  # a fork bomb racing the kill gets this many sweeps


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux); True if it is."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            import ctypes

            try:
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                pass
    return _subreaper


def new_mark() -> str:
    return f"{os.getpid()}-{uuid.uuid4().hex}"


def launched(root: int, mark: str) -> None:
    """Record an adapter's root process, just started: its orphans are found by it."""
    try:
        started = psutil.Process(root).create_time()
    except psutil.Error:
        started = 0.0
    _live[root] = (mark, started)


def _in_tree(proc: psutil.Process, root: int, mark: str) -> bool:
    try:
        if os.getsid(proc.pid) == root or os.getpgid(proc.pid) == root:
            return True
        return proc.environ().get(MARK) == mark
    except (OSError, psutil.Error):
        return False


def _orphan_of(proc: psutil.Process, root: int) -> bool:
    """A child of the harness that left the adapter's session, group and mark: one outside
    the harness's session, created since the adapter, of no other live adapter."""
    try:
        if os.getsid(proc.pid) == os.getsid(0) or proc.pid in _live:
            return False
        if proc.create_time() < _live.get(root, ("", 0.0))[1]:
            return False
        return not any(_in_tree(proc, other, mark) for other, (mark, _) in _live.items()
                       if other != root)
    except (OSError, psutil.Error):
        return False


def tree(root: int, mark: str) -> set[psutil.Process]:
    """The live processes of the adapter's tree: the root, its descendants, the harness's
    descendants that carry its mark, session or group, and (with a subreaper) the
    harness's children that left all three (`_orphan_of`), with their descendants."""
    found: set[psutil.Process] = set()
    try:
        top = psutil.Process(root)
        found |= {top, *top.children(recursive=True)}
    except psutil.Error:
        pass
    me = os.getpid()
    try:
        ours = psutil.Process(me).children(recursive=True)
    except psutil.Error:
        ours = []
    for proc in ours:
        if proc not in found and (_in_tree(proc, root, mark) or (
                _subreaper and _parent(proc) == me and _orphan_of(proc, root))):
            found.add(proc)
            try:
                found |= set(proc.children(recursive=True))
            except psutil.Error:
                pass
    return {proc for proc in found if proc.pid != me}


def _parent(proc: psutil.Process) -> int | None:
    try:
        return proc.ppid()
    except psutil.Error:
        return None


def end_tree(root: int, mark: str) -> int:
    """Kill every process of the tree, sweeping again for any forked meanwhile; reap
    those that are this process's children. The number of processes killed."""
    killed: dict[int, psutil.Process] = {}
    try:  # the root is not reaped yet, so its group id is still its own
        os.killpg(root, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    for _ in range(ROUNDS):
        alive = [proc for proc in tree(root, mark) if proc.pid not in killed
                 or _running(proc)]
        if not alive:
            break
        for proc in alive:
            try:
                proc.send_signal(signal.SIGKILL)
            except psutil.Error:
                pass
            killed[proc.pid] = proc
    _live.pop(root, None)
    me = os.getpid()
    for proc in killed.values():
        try:
            if proc.pid != root and proc.ppid() == me:  # an orphan re-parented to us
                proc.wait(timeout=1.0)
        except (psutil.Error, ChildProcessError):
            pass
    return len(killed)


def live_roots() -> set[int]:
    return set(_live)


def end_all() -> int:
    """End the tree of every live adapter of this process (a pytest worker told to stop,
    which may never reach its cleanup); the number of processes killed."""
    return sum(end_tree(root, mark) for root, (mark, _) in list(_live.items()))


def _running(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False
