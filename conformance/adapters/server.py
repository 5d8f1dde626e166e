"""A JSON-lines protocol server (spec/protocol.md) around any in-process adapter.

`t42 serve` runs it around the reference engine: the model to copy when writing a
server for an engine in another language. One request per line on stdin, one reply per
line on stdout, nothing else on stdout.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, TextIO

from conformance.adapters.protocol import Adapter, Rejected, not_json_message, raised_message


def _dispatch(adapter: Adapter | None, protocol: int, request: dict[str, Any]) -> Any:
    """The result of one request; Rejected propagates as an error reply. With no adapter
    (serve's `unusable`) only `stop` is dispatched."""
    cmd = request["cmd"]
    if cmd == "stop":
        return None
    if adapter is None:
        raise ValueError(f"no adapter to answer {cmd!r}")
    if cmd == "hello":
        hello = {"name": adapter.name, "version": adapter.version, "protocol": protocol,
                 "variants": list(adapter.variants),
                 "capabilities": sorted(adapter.capabilities)}
        spec = getattr(adapter, "spec", None)  # optional (protocol.md)
        return {**hello, "spec": spec} if isinstance(spec, str) else hello
    if cmd == "setup":
        return adapter.start(request["setup"])
    if cmd == "deal":
        return adapter.deal(request["deal"])
    if cmd == "act":
        return adapter.act(request["action"])
    if cmd == "view":
        return adapter.view()
    if cmd == "observe":
        return adapter.observe(request["seat"])
    if cmd == "legal":
        return adapter.legal()
    if cmd == "perft":
        return adapter.perft(request["depth"])
    if cmd == "new_match":
        return adapter.new_match()
    if cmd == "next_deal":
        return adapter.next_deal()
    raise ValueError(f"unknown command {cmd!r}")


def serve(adapter: Adapter | None, stdin: TextIO | None = None, stdout: TextIO | None = None,
          raised: str | None = None, unusable: str | None = None) -> int:
    """Answer requests until `stop` or end of input; exit status 0, or 1 on a bad request.

    For the worker (worker.py): with `raised`, an exception other than Rejected is
    answered with that error code and its traceback goes to stderr; with `unusable`,
    every request but `stop` is answered with the error code `t42.unusable`."""
    from conformance.specdata.versions import protocol_version

    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    protocol = protocol_version()
    for line in stdin:
        try:
            request = json.loads(line)
            seq, cmd = request["seq"], request["cmd"]
        except (ValueError, KeyError, TypeError) as error:
            print(f"t42 serve: bad request {line.strip()[:200]!r}: {error}", file=sys.stderr)
            return 1
        if unusable is not None and cmd != "stop":
            text = _error(seq, "t42.unusable", unusable)
        else:
            text = _answer(adapter, protocol, request, raised)
        stdout.write(text + "\n")
        stdout.flush()
        if cmd == "stop":
            break
    return 0


def _error(seq: Any, code: str, message: str) -> str:
    return json.dumps({"seq": seq, "ok": False, "error": {"code": code, "message": message}},
                      separators=(",", ":"))


def _answer(adapter: Adapter | None, protocol: int, request: dict[str, Any],
            raised: str | None) -> str:
    seq, cmd = request["seq"], request["cmd"]
    try:
        result = _dispatch(adapter, protocol, request)
    except Rejected as refused:
        return _error(seq, refused.code, refused.message)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - the worker reports even SystemExit
        if raised is None:
            raise
        traceback.print_exc(limit=-6, file=sys.stderr)
        return _error(seq, raised, raised_message(cmd, error)[:2000])
    try:
        return json.dumps({"seq": seq, "ok": True, "result": result}, separators=(",", ":"),
                          allow_nan=False)
    except (TypeError, ValueError, RecursionError, MemoryError):
        if raised is None:
            raise
        return _error(seq, raised, not_json_message(cmd, result)[:2000])
