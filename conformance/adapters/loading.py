"""`--adapter SPEC` to a Harnessed adapter (protocol.py): the one place that knows the
kinds of adapter."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from conformance.adapters.limits import Limits
from conformance.adapters.protocol import Harnessed


def load_adapter(spec: str, timeout: float = 5.0, limits: Limits | None = None,
                 in_process: bool = False) -> Harnessed:
    """`reference` (default), `python:MODULE:OBJECT` (or `python:path/file.py:OBJECT`),
    or `cmd:COMMAND ARGS` (a JSON-lines protocol server).

    A python OBJECT that is a class or other callable is called with no arguments. It
    runs in a worker process (worker.py), unless `in_process`: then it is called directly
    (faster, and a debugger works; but an exit in it ends the run). ValueError for a spec
    of no known kind; for `python:` with `in_process`, whatever the import raises.
    """
    if spec in ("", "reference"):
        from conformance.adapters.inprocess import InProcess
        from conformance.adapters.reference import ReferenceAdapter

        return InProcess(ReferenceAdapter())
    kind, _, rest = spec.partition(":")
    if kind == "cmd" and rest.strip():
        from conformance.adapters.process import ProcessAdapter

        return ProcessAdapter(rest, timeout=timeout, limits=limits)
    if kind == "python" and ":" in rest:
        if in_process:
            from conformance.adapters.inprocess import InProcess

            return InProcess(python_object(rest))
        from conformance.adapters.worker import WorkerAdapter

        return WorkerAdapter(spec, timeout=timeout, limits=limits)
    raise ValueError(f"unknown adapter {spec!r}: "
                     "use reference, python:MODULE:OBJECT or cmd:COMMAND")


def start_adapter(spec: str, timeout: float = 5.0, limits: Limits | None = None,
                  in_process: bool = False) -> Harnessed | str:
    """The adapter, started and shaken hands with, or one message saying why it cannot
    start (a missing program, an import error, a failed handshake): the run stops."""
    from conformance.adapters.protocol import broken_stderr_note

    try:
        adapter = load_adapter(spec, timeout, limits, in_process)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # noqa: BLE001 - report any failure to build the adapter
        return f"cannot start adapter {spec!r}: {type(error).__name__}: {error}"
    if adapter.broken:
        adapter.close()
        return (f"adapter {spec!r}: {adapter.broken} (stopped before any scenario)"
                f"{broken_stderr_note(adapter)}")
    return adapter


def python_object(target: str) -> Any:
    """`MODULE:OBJECT` or `path/file.py:OBJECT`; a class or factory is called."""
    module, _, name = target.rpartition(":")
    if module.endswith(".py"):
        path = Path(module).resolve()
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {module}")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    else:
        # As with `python -m` (which the worker process is), the current folder is
        # importable: `--adapter python:my_adapter:My42Adapter` works from its own folder.
        if "" not in sys.path and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        mod = importlib.import_module(module)
    obj = getattr(mod, name)
    if isinstance(obj, type) or (callable(obj) and not callable(getattr(obj, "act", None))):
        obj = obj()
    return obj
