"""Any program that speaks the JSON-lines protocol (spec/protocol.md) on stdin/stdout.

One long-lived process; killed and started afresh after it crashes, hangs past the
timeout or breaks the protocol. Everything it sends is bounded (`Limits`): a reply line
longer than `reply_bytes` is a protocol error, and of its stderr only the last
`stderr_bytes` are kept, each line cut at `STDERR_LINE_BYTES`. So the harness's memory
does not depend on what the program writes.
"""

from __future__ import annotations

import json
import os
import queue
import re
import select
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import IO, Any, NamedTuple

from conformance.adapters import tree
from conformance.adapters.limits import Limits, cut, cut_tail
from conformance.adapters.protocol import (
    CAPABILITIES,
    MAX_INT_DIGITS,
    RESULT_FORMS,
    AdapterError,
    Encoded,
    Harnessed,
    Rejected,
    expected_value,
    form_problem,
    matches,
)
from conformance.adapters.support import declared

STDERR_LINE_BYTES = 2000  # a longer stderr line is cut, with a note of how much
# where a crash's report begins: Rust, Go, Python, Node, the JVM
CRASH = re.compile(r"panicked at|^panic: |^fatal error: |^Traceback \(most recent call last\)"
                   r"|^Uncaught |^Exception in thread ")
HELLO_SECONDS = 10.0  # the least time the first reply gets (start-up, imports)
STOP_SECONDS = 2.0  # the most time `stop` gets before the process is killed


# json.dumps(value, separators=(",", ":")), the encoder built once (a fuzz step's requests)
_REQUEST = json.JSONEncoder(separators=(",", ":"))
_PLAIN = frozenset({"view", "legal"})  # requests of no fields, written without the encoder
_NULL_FORM = (type(None),)  # the result form of a setup, deal or act (RESULT_FORMS)


class _Stop:
    """Markers the reader threads put on the reply queue."""

    def __init__(self, why: str):
        self.why = why


_EOF = _Stop("eof")
_TOO_LONG = _Stop("too long")


def _put(lines: queue.Queue[Any], item: Any, stop: threading.Event) -> bool:
    """Put on the queue unless told to stop while it is full: cleanup never waits on it."""
    while True:
        try:
            lines.put(item, timeout=0.1)
            return True
        except queue.Full:
            if stop.is_set():
                return False


def _chunks(fd: int, wake: int, stop: threading.Event,
            idle: threading.Event | None = None) -> Iterator[bytes]:
    """What a pipe delivers, until EOF or until told to stop (select on a wake-up pipe):
    a reader is never left blocked on a pipe that a stray process keeps open. `idle` is
    set while it waits, so every chunk read before has been handled by the caller."""
    poller = select.poll()  # not select.select: it refuses a descriptor past 1023
    poller.register(fd, select.POLLIN)
    poller.register(wake, select.POLLIN)
    try:
        while not stop.is_set():
            if idle is not None:
                idle.set()
            polled = poller.poll()
            if idle is not None:
                idle.clear()
            if any(ready == wake for ready, _ in polled):
                return
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            yield chunk
    except (OSError, ValueError):
        return
    finally:
        if idle is not None:
            idle.set()  # it reads no more


def _read_replies(fd: int, wake: int, stop: threading.Event, lines: queue.Queue[Any],
                  limit: int) -> None:
    """Reply lines as bytes, each at most `limit` bytes (plus its newline), put on the
    queue as a list: the complete lines of one read together (the replies to pipelined
    requests cross to the caller in one hand-over, not one each)."""
    held = bytearray()
    for chunk in _chunks(fd, wake, stop):
        held += chunk
        batch, start = [], 0
        while (end := held.find(b"\n", start)) >= 0:
            if end - start > limit:
                break
            batch.append(bytes(held[start:end + 1]))
            start = end + 1
        del held[:start]  # once a read: a long batch of replies is not moved line by line
        if batch and not _put(lines, batch, stop):
            return
        if held.find(b"\n") > limit or (b"\n" not in held and len(held) > limit):
            _put(lines, [_TOO_LONG], stop)  # stop reading: the process is killed for it
            return
    if held and not stop.is_set():
        _put(lines, [bytes(held)], stop)
    _put(lines, [_EOF], stop)


def _line_text(line: bytes, cut: int) -> str:
    extra = cut + max(len(line) - STDERR_LINE_BYTES, 0)
    text = line[:STDERR_LINE_BYTES].decode("utf-8", "replace")
    return text + (f" [... {extra:,} more bytes of this line not kept]" if extra else "")


class _Pipes(NamedTuple):
    """The pipes of a process started with stdin, stdout and stderr set to PIPE."""

    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]

    @classmethod
    def of(cls, proc: subprocess.Popen[bytes]) -> _Pipes:
        if proc.stdin is None or proc.stdout is None or proc.stderr is None:
            raise ValueError("the process was started without pipes")
        return cls(proc.stdin, proc.stdout, proc.stderr)


class StderrTail:
    """The newest stderr lines, at most `budget` bytes in all; counts every line."""

    def __init__(self, budget: int):
        self.budget = budget
        self.lines: deque[str] = deque()
        self.size = 0
        self.count = 0
        self.lock = threading.Lock()
        self.idle = threading.Event()  # the reader waits: all it read is in `lines`

    def read(self, fd: int, wake: int, stop: threading.Event) -> None:
        """Read to EOF in chunks (a flood of lines costs little); keep each line's start."""
        head, cut = b"", 0  # the line being read: its first bytes, and how many more
        for chunk in _chunks(fd, wake, stop, self.idle):
            *done, rest = chunk.split(b"\n")
            texts = []
            for piece in done:
                texts.append(_line_text(head + piece, cut))
                head, cut = b"", 0
            room = max(STDERR_LINE_BYTES - len(head), 0)
            head, cut = head + rest[:room], cut + max(len(rest) - room, 0)
            if texts:
                self.add(texts)
        if head or cut:
            self.add([_line_text(head, cut)])

    def add(self, texts: list[str]) -> None:
        with self.lock:
            self.lines.extend(texts)
            self.size += sum(len(text) + 1 for text in texts)
            self.count += len(texts)
            while self.size > self.budget and len(self.lines) > 1:
                self.size -= len(self.lines.popleft()) + 1

    def since(self, mark: int) -> str:
        with self.lock:
            new = min(self.count - mark, len(self.lines))
            return "\n".join(list(self.lines)[len(self.lines) - new:]) if new > 0 else ""


class ProcessAdapter(Harnessed):
    def __init__(self, command: str | list[str], timeout: float = 5.0,
                 protocol: int | None = None, limits: Limits | None = None):
        from conformance.specdata.versions import protocol_version

        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.limits = limits or Limits()
        self.protocol = protocol if protocol is not None else protocol_version()
        self.name, self.version = self.command[0] if self.command else "?", "?"
        self.variants: list[str] = []
        self.capabilities: frozenset[str] = frozenset()
        self.broken: str | None = None  # a handshake failure: every scenario errors with it
        self.broken_stderr = ""  # and what the process wrote to stderr before it
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr = StderrTail(self.limits.stderr_bytes)
        self._readers: list[threading.Thread] = []
        self._lines: queue.Queue[Any] = queue.Queue(maxsize=4)  # lists of reply lines
        self._held: deque[Any] = deque()
        self._seq = 0
        try:
            self._launch()
        except AdapterError as error:
            self.broken, self.broken_stderr = str(error), error.stderr  # both cut
            self._kill()

    # --- process lifecycle ------------------------------------------------------------

    def _launch(self) -> subprocess.Popen[bytes]:
        """Start the process and shake hands: it is `self._proc` until it is killed."""
        if not self.command:
            raise AdapterError("cmd: names no command")
        tree.become_subreaper()  # orphans of the adapter's tree stay findable
        self._mark = tree.new_mark()
        try:
            # Its own session: a Ctrl-C meant for the harness does not reach it, and a
            # kill reaches its children too. The mark finds those that leave it.
            proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True,
                env={**os.environ, tree.MARK: self._mark},
            )
        except (OSError, ValueError) as error:
            raise AdapterError(f"cannot start {self.command[0]}: {error}") from None
        self._proc, self._pipes = proc, _Pipes.of(proc)
        tree.launched(proc.pid, self._mark)
        self._lines = queue.Queue(maxsize=4)
        self._held = deque()  # the lines of a batch taken from _lines, not yet read
        self._launched_at = self._stderr.count  # a failure quotes this process's lines only
        self._stop = threading.Event()
        self._wake = os.pipe()
        self._readers = [
            threading.Thread(target=_read_replies, daemon=True,
                             args=(self._pipes.stdout.fileno(), self._wake[0], self._stop,
                                   self._lines, self.limits.reply_bytes)),
            threading.Thread(target=self._stderr.read, daemon=True,
                             args=(self._pipes.stderr.fileno(), self._wake[0], self._stop)),
        ]
        for reader in self._readers:
            reader.start()
        try:
            self._hello()
        except BaseException:  # a Ctrl-C during the handshake leaves no process behind
            self._kill()
            raise
        return proc

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
        self.spec_version, self.declaration = result.get("spec"), result["variants"]
        try:
            self.variants, self.settings = declared(result["variants"], self.spec_version)
        except ValueError as error:
            raise AdapterError(f"hello: bad result at variants: {error}") from None
        self.capabilities = frozenset(result["capabilities"]) & CAPABILITIES

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        tree.end_tree(proc.pid, self._mark)  # its children, daemons and new sessions too
        proc.kill()
        proc.wait()
        # The tree is gone, so its pipes are at EOF: let stderr's reader take the last
        # lines before a report quotes them (the replies left are not wanted). A pipe that
        # a process out of reach still holds open does not hold the harness: the readers
        # are then told to stop, never blocked on.
        self._readers[1].join(timeout=1.0)
        self._stop.set()
        os.write(self._wake[1], b"x")
        for reader in self._readers:
            reader.join()
        for stream in self._pipes:
            try:
                stream.close()
            except OSError:
                pass
        for fd in self._wake:
            os.close(fd)

    def _ensure(self) -> subprocess.Popen[bytes]:
        """The running process, started afresh if the last one was killed."""
        if self.broken:
            raise AdapterError(self.broken)
        return self._proc if self._proc is not None else self._launch()

    def close(self) -> None:
        try:
            if self._proc is not None and self._proc.poll() is None:
                try:
                    self._request("stop")
                except (AdapterError, Rejected):
                    pass
        finally:  # a Ctrl-C or SIGTERM while `stop` is answered still ends the tree
            self._kill()

    def stop_problem(self) -> str:
        """Send `stop` (t42 doctor): '' when it is answered and the process exits in time,
        else what went wrong. The process is gone afterwards either way."""
        problem = ""
        try:
            self._ensure()
            self._request("stop")
        except (AdapterError, Rejected) as error:
            problem = f"{error}; answer stop with null, then exit"
        proc = self._proc
        if not problem and proc is not None:
            try:
                proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                problem = (f"stop: answered, but still running {STOP_SECONDS:g} s later; "
                           "exit after replying to stop")
        self._kill()
        return problem

    def stderr_tail(self, lines: int = 20) -> str:
        """The last lines of the running (or last) process, not of those before it: a
        program that crashes in every scenario is restarted, and each report quotes its
        own crash once. A crash's first lines (a Rust panic above its backtrace, a
        Python traceback's head) are kept too when the tail would lose them."""
        text = self._stderr.since(getattr(self, "_launched_at", 0)).splitlines()
        tail = len(text) - lines
        start = next((i for i in range(len(text) - 1, -1, -1) if CRASH.search(text[i])), None)
        if start is None or start >= tail:
            return "\n".join(text[-lines:])
        head = text[start:min(start + 3, tail)]
        gap = [f"... {tail - start - len(head)} lines ..."] if start + len(head) < tail else []
        return "\n".join(head + gap + text[tail:])

    def stderr_mark(self) -> int:
        return self._stderr.count

    def stderr_since(self, mark: int) -> str:
        self._stderr_caught_up()
        return cut_tail(self._stderr.since(mark))  # a result keeps it: bounded

    def _stderr_caught_up(self, most: float = 0.5) -> None:
        """Let stderr's reader take what the pipe holds (a line the program wrote before
        its last reply is in the pipe by now, maybe not yet read, or read and not yet
        kept: the pipe is empty and the reader waits): only on a failure."""
        proc = getattr(self, "_proc", None)
        if proc is None or proc.stderr is None or proc.stderr.closed:
            return
        end = time.monotonic() + most
        while time.monotonic() < end:
            try:
                ready, _, _ = select.select([proc.stderr.fileno()], [], [], 0)
            except (OSError, ValueError):
                return
            if not ready and self._stderr.idle.is_set():
                return
            time.sleep(0.002)

    # --- one request ------------------------------------------------------------------

    def _fail(self, message: str) -> AdapterError:
        """Break off: the process is killed and started afresh on the next request."""
        self._kill()
        return AdapterError(message, self.stderr_tail())

    def _send(self, data: bytes) -> None:
        """Write within the timeout: a program that never reads cannot block the harness."""
        fd = self._pipes.stdin.fileno()
        os.set_blocking(fd, False)
        view = memoryview(data)
        try:  # a pipe with room takes it at once (a fuzz step's requests): no wait
            view = view[os.write(fd, view):]
        except BlockingIOError:
            pass
        deadline = time.monotonic() + self.timeout
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([], [fd], [], remaining)[1]:
                raise TimeoutError
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue

    def _request(self, cmd: str, **fields: Any) -> Any:
        proc = self._proc
        if proc is None:
            raise AdapterError("the implementation is not running")
        self._seq += 1
        message = json.dumps({"seq": self._seq, "cmd": cmd, **fields}, separators=(",", ":"))
        self._write(proc, cmd, message.encode() + b"\n")
        return self._reply(cmd, self._next_line(proc, cmd))

    def pipeline(self, requests: list[tuple[str, dict[str, Any]]],
                 expected: list[Any] | None = None) -> list[Any]:
        """Several requests in one write, then their replies in order (protocol.md: each
        request gets one reply, in order): one round trip instead of one per request.
        Each item is the result, or the Rejected of a refused setup, deal or act."""
        proc = self._ensure()
        first = self._seq + 1
        lines = []
        for cmd, fields in requests:
            self._seq += 1
            if not fields and cmd in _PLAIN:  # _REQUEST.encode of it, written directly
                lines.append(f'{{"seq":{self._seq},"cmd":"{cmd}"}}')
            else:
                lines.append(_REQUEST.encode({"seq": self._seq, "cmd": cmd, **fields}))
        self._write(proc, requests[0][0], ("\n".join(lines) + "\n").encode())
        out: list[Any] = []
        wanted = expected or [None] * len(requests)
        for seq, (cmd, _), want in zip(range(first, self._seq + 1), requests, wanted,
                                       strict=True):
            line = self._next_line(proc, cmd)
            try:
                out.append(self._reply(cmd, line, seq, want))
            except Rejected as refused:
                out.append(refused)
        return out

    def _write(self, proc: subprocess.Popen[bytes], cmd: str, data: bytes) -> None:
        try:
            self._send(data)
        except TimeoutError:
            raise self._fail(f"{cmd}: the implementation read no request within "
                             f"{self.timeout:g} s") from None
        except (OSError, ValueError):
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                raise self._fail(f"{cmd}: the implementation closed its input") from None
            raise self._fail(f"{cmd}: the implementation exited (code {code}) "
                             "without replying") from None

    def _next_line(self, proc: subprocess.Popen[bytes], cmd: str) -> bytes:
        """The next reply line, or AdapterError (and the process killed)."""
        # A program may take a while to start: hello waits at least HELLO_SECONDS.
        wait = {"hello": max(self.timeout, HELLO_SECONDS),
                "stop": min(self.timeout, STOP_SECONDS)}.get(cmd, self.timeout)
        try:
            if not self._held:
                self._held.extend(self._lines.get(timeout=wait))
            line = self._held.popleft()
        except queue.Empty:
            code = proc.poll()
            if code is not None:  # gone, but a process it started holds its stdout open
                raise self._fail(f"{cmd}: the implementation exited (code {code}) without "
                                 "replying, and a process it started kept its stdout "
                                 "open") from None
            raise self._fail(f"{cmd}: no reply within {wait:g} s") from None
        if line is _TOO_LONG:
            raise self._fail(f"{cmd}: reply longer than {self.limits.reply_bytes:,} bytes "
                             "(--max-reply-bytes)")
        if line is _EOF:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                raise self._fail(f"{cmd}: the implementation closed its stdout") from None
            raise self._fail(f"{cmd}: the implementation exited (code {code}) "
                             "without replying")
        return line

    def _reply(self, cmd: str, raw: bytes, seq: int | None = None, expected: Any = None
               ) -> Any:
        """Check the reply envelope (protocol/response.json) and unwrap it. A result
        that `matches` its `expected` value (pipeline) has its form: the expected value
        is returned, as an in-process adapter returns it; an `Encoded` one is first
        compared by its text, the whole reply line as `t42 serve` writes it: equal, the
        line is that reply, and is not decoded (an `Encoded.of_text` is returned as
        itself: its value was never built)."""
        if type(expected) is Encoded and raw == (
                f'{{"seq":{self._seq if seq is None else seq},"ok":true,"result":'
                f'{expected.text}}}\n').encode():
            return expected if expected.unread else expected.value
        if (expected is None and RESULT_FORMS.get(cmd) == _NULL_FORM and raw ==
                f'{{"seq":{self._seq if seq is None else seq},"ok":true,"result":null}}\n'
                .encode()):
            return None  # a step accepted, in the very words `t42 serve` writes
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise self._fail(f"{cmd}: reply is not UTF-8 (byte 0x{raw[error.start]:02x} at "
                             f"offset {error.start}): {raw[:200]!r}") from None
        try:
            # json.loads(line, parse_constant=_no_constant), the decoder built once (its
            # own check of a leading BOM kept, and its words for it)
            reply = (_REPLY.decode(line) if not line.startswith("\ufeff")
                     else json.loads(line, parse_constant=_no_constant))
        except ValueError as error:
            why = str(error)
            if "integer string conversion" in why:  # worded differently by each Python
                why = f"an integer of more than {MAX_INT_DIGITS} digits"
            raise self._fail(f"{cmd}: reply is not JSON: {_shown(line)!r} ({why})") from None
        except RecursionError:
            raise self._fail(f"{cmd}: reply is nested too deep to read") from None
        if not isinstance(reply, dict) or type(reply.get("seq")) is not int:
            raise self._fail(f"{cmd}: reply is not an object with an integer seq: "
                             f"{_shown(line)!r}")
        want = self._seq if seq is None else seq
        if reply["seq"] != want:
            raise self._fail(f"{cmd}: reply seq {reply['seq']}, expected {want}")
        if reply.get("ok") is True and reply.keys() == _RESULT_KEYS:
            if expected is not None and matches(reply["result"], expected):
                return expected_value(expected)
            problem = form_problem(cmd, reply["result"])
            if problem:
                raise self._fail(problem)
            return reply["result"]
        refusal = reply.get("error")
        if (reply.get("ok") is False and set(reply) == {"seq", "ok", "error"}
                and isinstance(refusal, dict) and set(refusal) == {"code", "message"}
                and isinstance(refusal["code"], str) and isinstance(refusal["message"], str)):
            code, message = cut(refusal["code"]), cut(refusal["message"])
            # A Rejected's traceback keeps this frame, and a caller may keep the Rejected
            # in a cycle the collector frees late: the frame lets go of the whole reply
            # (a run refused at every step by 1 MB held 70 MB more).
            del reply, refusal, line, raw
            return self._refused(cmd, code, message)
        raise self._fail(f"{cmd}: reply does not follow protocol/response.json: "
                         f"{_shown(line)!r}")

    def _refused(self, cmd: str, code: str, message: str) -> Any:
        if cmd in ("setup", "deal", "act"):
            raise Rejected(code, message)
        raise self._fail(f"{cmd}: the implementation replied with error {code}: {message}")

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

    def new_match(self) -> None:
        self._call("new_match")

    def next_deal(self) -> None:
        self._call("next_deal")

def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _shown(line: str) -> str:
    """A reply line as a failure quotes it (only a failure: a reply's hot path)."""
    return line.rstrip("\r\n")[:200]


_RESULT_KEYS = frozenset({"seq", "ok", "result"})


_REPLY = json.JSONDecoder(parse_constant=_no_constant)
