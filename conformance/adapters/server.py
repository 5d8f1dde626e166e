"""A JSON-lines protocol server (spec/protocol.md) around any in-process adapter.

`t42 serve` runs it around the reference engine: the model to copy when writing a
server for an engine in another language. One request per line on stdin, one reply per
line on stdout, nothing else on stdout.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Iterator
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
          raised: str | None = None, unusable: str | None = None,
          batched: bool = False) -> int:
    """Answer requests until `stop` or end of input; exit status 0, or 1 on a bad request.

    For the worker (worker.py): with `raised`, an exception other than Rejected is
    answered with that error code and its traceback goes to stderr; with `unusable`,
    every request but `stop` is answered with the error code `t42.unusable`.

    `batched` (`t42 serve` of the reference engine, which never hangs): the replies to
    the requests that one read of stdin gave go out in one write, flushed before the
    next read, so a client that pipelines its requests (the fuzzer does) is answered
    without a write and a flush per reply, and none waits. Not for an adapter that may
    hang: the replies before the hanging request would be held back with it."""
    from conformance.specdata.versions import protocol_version

    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    protocol = protocol_version()
    for batch in _batches(stdin) if batched else ([line] for line in stdin):
        texts: list[str] = []
        try:
            for line in batch:
                try:
                    request = json.loads(line)
                    seq, cmd = request["seq"], request["cmd"]
                except (ValueError, KeyError, TypeError) as error:
                    print(f"t42 serve: bad request {line.strip()[:200]!r}: {error}",
                          file=sys.stderr)
                    return 1
                if unusable is not None and cmd != "stop":
                    texts.append(_error(seq, "t42.unusable", unusable))
                else:
                    texts.append(_answer(adapter, protocol, request, raised))
                if cmd == "stop":
                    return 0
        finally:  # the replies before a bad request, `stop` or an exception too
            if texts:
                stdout.write("\n".join(texts) + "\n")
                stdout.flush()
    return 0


def _batches(stdin: TextIO) -> Iterator[list[str]]:
    """The request lines as they arrive, each batch the complete lines of one read of
    the file descriptor (lines end at "\\n" only, as sys.stdin's do outside Windows); a
    stream without one (a test's StringIO) gives one line at a time."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    if fd < 0 or os.name == "nt":
        yield from ([line] for line in stdin)
        return
    encoding = getattr(stdin, "encoding", None) or "utf-8"
    errors = getattr(stdin, "errors", None) or "strict"
    held = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if held:
                yield [held.decode(encoding, errors)]
            return
        held += chunk
        if b"\n" in chunk:
            *lines, held = held.split(b"\n")
            yield [line.decode(encoding, errors) + "\n" for line in lines]


# json.dumps(value, separators=(",", ":"), allow_nan=False), without building the
# encoder again for each reply (a reply's hot path)
_REPLY = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def _error(seq: Any, code: str, message: str) -> str:
    return json.dumps({"seq": seq, "ok": False, "error": {"code": code, "message": message}},
                      separators=(",", ":"))


def _answer(adapter: Adapter | None, protocol: int, request: dict[str, Any],
            raised: str | None) -> str:
    seq, cmd = request["seq"], request["cmd"]
    # the reference's reads (texts.py), for a request of an integer seq (the harness's)
    read_text = getattr(adapter, "read_text", None) if type(seq) is int else None
    try:
        text = read_text(cmd, request) if read_text is not None else None
        if text is not None:  # _REPLY.encode of the reply, written as it writes it
            return f'{{"seq":{seq},"ok":true,"result":{text}}}'
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
    if result is None and type(seq) is int:  # a step's reply, as _REPLY.encode writes it
        return f'{{"seq":{seq},"ok":true,"result":null}}'
    try:
        return _REPLY.encode({"seq": seq, "ok": True, "result": result})
    except (TypeError, ValueError, RecursionError, MemoryError):
        if raised is None:
            raise
        return _error(seq, raised, not_json_message(cmd, result)[:2000])
