"""A JSON-lines protocol server (spec/protocol.md) around any in-process adapter.

`t42 serve` runs it around the reference engine: the model to copy when writing a
server for an engine in another language. One request per line on stdin, one reply per
line on stdout, nothing else on stdout.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from conformance.adapters.protocol import Adapter, Rejected


def _dispatch(adapter: Adapter, protocol: int, request: dict[str, Any]) -> Any:
    """The result of one request; Rejected propagates as an error reply."""
    cmd = request["cmd"]
    if cmd == "hello":
        return {"name": adapter.name, "version": adapter.version, "protocol": protocol,
                "variants": sorted(adapter.variants), "capabilities": sorted(adapter.capabilities)}
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
    if cmd == "stop":
        return None
    raise ValueError(f"unknown command {cmd!r}")


def serve(adapter: Adapter, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Answer requests until `stop` or end of input; exit status 0, or 1 on a bad request."""
    from conformance.specdata.files import versions

    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    protocol = int(versions()["protocol"])
    for line in stdin:
        try:
            request = json.loads(line)
            seq, cmd = request["seq"], request["cmd"]
        except (ValueError, KeyError, TypeError) as error:
            print(f"t42 serve: bad request {line.strip()[:200]!r}: {error}", file=sys.stderr)
            return 1
        try:
            reply = {"seq": seq, "ok": True, "result": _dispatch(adapter, protocol, request)}
        except Rejected as refused:
            reply = {"seq": seq, "ok": False,
                     "error": {"code": refused.code, "message": refused.message}}
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
        if cmd == "stop":
            break
    return 0
