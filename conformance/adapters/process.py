"""Any program that speaks the JSON-lines protocol (spec/protocol.md) on stdin/stdout.

One long-lived process; restarted after it crashes, hangs past the timeout or breaks the
protocol. Its stderr is kept so a report can show what it said.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections import deque
from typing import Any

from conformance.adapters.protocol import CAPABILITIES, AdapterError, Rejected

_EOF = object()
STDERR_LINES = 200


def _read_replies(stream, lines: queue.Queue[Any]) -> None:
    for line in stream:
        lines.put(line.rstrip("\n"))
    lines.put(_EOF)


class ProcessAdapter:
    def __init__(self, command: str, timeout: float = 5.0, protocol: int | None = None):
        from conformance.specdata.files import versions

        self.command = shlex.split(command)
        self.timeout = timeout
        self.protocol = protocol if protocol is not None else int(versions()["protocol"])
        self.name, self.version = self.command[0], "?"
        self.variants: list[str] = []
        self.capabilities: frozenset[str] = frozenset()
        self.broken: str | None = None  # a handshake failure: every scenario errors with it
        self._proc: subprocess.Popen[str] | None = None
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._stderr_count = 0
        self._seq = 0
        try:
            self._launch()
        except AdapterError as error:
            self.broken = str(error)
            self._kill()

    # --- process lifecycle ------------------------------------------------------------

    def _launch(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace", bufsize=1,
            )
        except OSError as error:
            raise AdapterError(f"cannot start {self.command[0]}: {error}") from None
        self._lines: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=_read_replies, args=(self._proc.stdout, self._lines),
                         daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr,
                                               args=(self._proc.stderr,), daemon=True)
        self._stderr_reader.start()
        self._hello()

    def _read_stderr(self, stream) -> None:
        for line in stream:
            self._stderr.append(line.rstrip("\n"))
            self._stderr_count += 1

    def _hello(self) -> None:
        from conformance.specdata import schemas

        result = self._request("hello", protocol=self.protocol)
        problems = schemas.check("protocol/hello-result.json", result)
        if problems:
            path, msg = problems[0]
            raise AdapterError(f"hello: bad result at {'.'.join(map(str, path)) or '(top)'}: {msg}")
        if result["protocol"] != self.protocol:
            raise AdapterError(f"implementation speaks protocol {result['protocol']}, "
                               f"the harness speaks protocol {self.protocol}")
        self.name, self.version = result["name"], result["version"]
        self.variants = list(result["variants"])
        self.capabilities = frozenset(result["capabilities"]) & CAPABILITIES

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for stream in (proc.stdin,):
            try:
                stream.close()
            except OSError:
                pass
        proc.kill()
        proc.wait()
        # The process is gone, so its stderr is at EOF: let the reader take the last lines
        # before a report quotes them (a grandchild holding the pipe open costs 1 s).
        self._stderr_reader.join(timeout=1.0)

    def _ensure(self) -> None:
        if self.broken:
            raise AdapterError(self.broken)
        if self._proc is None:
            self._launch()

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._request("stop")
            except AdapterError:
                pass
        self._kill()

    def stderr_tail(self, lines: int = 20) -> str:
        return "\n".join(list(self._stderr)[-lines:])

    def stderr_mark(self) -> int:
        return self._stderr_count

    def stderr_since(self, mark: int) -> str:
        """What the implementation wrote on stderr since `mark` (at most STDERR_LINES)."""
        new = min(self._stderr_count - mark, len(self._stderr))
        return "\n".join(list(self._stderr)[len(self._stderr) - new:]) if new > 0 else ""

    # --- one request ------------------------------------------------------------------

    def _fail(self, message: str) -> AdapterError:
        """Break off: the process is killed and started afresh on the next request."""
        self._kill()
        return AdapterError(message, self.stderr_tail())

    def _request(self, cmd: str, **fields: Any) -> Any:
        proc = self._proc
        if proc is None:
            raise AdapterError("the implementation is not running")
        self._seq += 1
        message = json.dumps({"seq": self._seq, "cmd": cmd, **fields}, separators=(",", ":"))
        try:
            proc.stdin.write(message + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise self._fail(f"{cmd}: the implementation closed its input "
                             f"(exit code {proc.poll()})") from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._fail(f"{cmd}: no reply within {self.timeout:g} s") from None
        if line is _EOF:
            proc.wait()
            raise self._fail(f"{cmd}: the implementation exited (code {proc.returncode}) "
                             "without replying")
        return self._reply(cmd, line)

    def pipeline(self, requests: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        """Several requests in one write, then their replies in order (protocol.md: each
        request gets one reply, in order): one round trip instead of one per request.
        Each item is the result, or the Rejected of a refused setup, deal or act."""
        self._ensure()
        proc = self._proc
        first = self._seq + 1
        lines = []
        for cmd, fields in requests:
            self._seq += 1
            lines.append(json.dumps({"seq": self._seq, "cmd": cmd, **fields},
                                    separators=(",", ":")))
        try:
            proc.stdin.write("\n".join(lines) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise self._fail(f"{requests[0][0]}: the implementation closed its input "
                             f"(exit code {proc.poll()})") from None
        out: list[Any] = []
        for seq, (cmd, _) in enumerate(requests, first):
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise self._fail(f"{cmd}: no reply within {self.timeout:g} s") from None
            if line is _EOF:
                proc.wait()
                raise self._fail(f"{cmd}: the implementation exited (code "
                                 f"{proc.returncode}) without replying")
            try:
                out.append(self._reply(cmd, line, seq))
            except Rejected as refused:
                out.append(refused)
        return out

    def _reply(self, cmd: str, line: str, seq: int | None = None) -> Any:
        """Check the reply envelope (protocol/response.json) and unwrap it."""
        try:
            reply = json.loads(line)
        except ValueError:
            raise self._fail(f"{cmd}: reply is not JSON: {line[:200]!r}") from None
        if not isinstance(reply, dict) or type(reply.get("seq")) is not int:
            raise self._fail(f"{cmd}: reply is not an object with an integer seq: {line[:200]!r}")
        want = self._seq if seq is None else seq
        if reply["seq"] != want:
            raise self._fail(f"{cmd}: reply seq {reply['seq']}, expected {want}")
        if reply.get("ok") is True and set(reply) == {"seq", "ok", "result"}:
            return reply["result"]
        error = reply.get("error")
        if (reply.get("ok") is False and set(reply) == {"seq", "ok", "error"}
                and isinstance(error, dict) and set(error) == {"code", "message"}
                and isinstance(error["code"], str) and isinstance(error["message"], str)):
            if cmd in ("setup", "deal", "act"):
                raise Rejected(error["code"], error["message"])
            raise self._fail(f"{cmd}: the implementation replied with error "
                             f"{error['code']}: {error['message']}")
        raise self._fail(f"{cmd}: reply does not follow protocol/response.json: {line[:200]!r}")

    def _call(self, cmd: str, **fields: Any) -> Any:
        self._ensure()
        return self._request(cmd, **fields)

    # --- the adapter interface --------------------------------------------------------

    def start(self, setup: dict[str, Any]) -> None:
        self._call("setup", setup=setup)

    def deal(self, deal: dict[str, Any]) -> None:
        self._call("deal", deal=deal)

    def act(self, action: Any) -> None:
        self._call("act", action=action)

    def view(self) -> dict[str, Any]:
        return self._call("view")

    def observe(self, seat: str) -> dict[str, Any]:
        return self._call("observe", seat=seat)

    def legal(self) -> list[dict[str, Any]]:
        return self._call("legal")

    def perft(self, depth: int) -> dict[str, Any]:
        return self._call("perft", depth=depth)
