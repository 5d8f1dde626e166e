"""A `python:` adapter in a worker process: what it does cannot end the harness's run.

`python -m conformance.adapters.worker python:MODULE:OBJECT` loads the object and serves
it over the JSON-lines protocol (server.py). An exception other than Rejected is
answered with the private code `t42.raised` and its traceback on stderr; an exit, an
`os._exit`, a crash of the interpreter, a reply too long or a hang is seen by
`WorkerAdapter` as by any `cmd:` adapter. Either way the scenario is errored and the
worker is started afresh, with a fresh object, for the next one.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from conformance.adapters.limits import Limits
from conformance.adapters.process import ProcessAdapter

RAISED = "t42.raised"  # an exception in the object: the message says which
UNUSABLE = "t42.unusable"  # the object could not be loaded, or is not an adapter


class WorkerAdapter(ProcessAdapter):
    in_process = False

    def __init__(self, spec: str, timeout: float = 5.0, limits: Limits | None = None):
        self.spec = spec
        super().__init__([sys.executable, "-m", "conformance.adapters.worker", spec],
                         timeout=timeout, limits=limits)
        if self.name == sys.executable:
            self.name = spec

    def _refused(self, cmd: str, code: str, message: str) -> Any:
        if code in (RAISED, UNUSABLE):
            raise self._fail(message)
        return super()._refused(cmd, code, message)


def main(argv: list[str]) -> int:
    import traceback

    from conformance.adapters.inprocess import unusable
    from conformance.adapters.loading import python_object
    from conformance.adapters.server import serve

    # Replies go to the real stdout; a print() in the object goes to stderr, which the
    # harness keeps for reports, instead of breaking the protocol.
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    spec = argv[0] if argv else ""
    try:
        obj = python_object(spec.removeprefix("python:"))
        problem = unusable(obj)
    except BaseException as error:  # noqa: BLE001 - an import may raise anything
        traceback.print_exc()
        obj, problem = None, f"cannot load {spec}: {type(error).__name__}: {error}"
    if problem:
        return serve(None, stdout=replies, unusable=problem)
    return serve(obj, stdout=replies, raised=RAISED)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
