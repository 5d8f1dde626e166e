"""Hostile JSON-lines servers: `python protocol_zoo.py MODE`. Each is `t42 serve` until
the first `view` of a run (the first `perft` for PERFT_MODES), which it answers in its
own wrong way (once.py). The stderr
line is 20 MB here, 100 MB in tests/harness/hostile/run.py (T42_HOSTILE_STDERR_MB)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from once import first_time  # noqa: E402

from conformance.adapters.reference import ReferenceAdapter  # noqa: E402
from conformance.adapters.server import _answer  # noqa: E402

out = sys.stdout.buffer
MB = 1 << 20


def write(data: bytes) -> None:
    out.write(data)
    out.flush()


def reply(seq: int, result: str) -> None:
    write(b'{"seq":%d,"ok":true,"result":%s}\n' % (seq, result.encode()))


def endless(chunk: bytes) -> None:
    while True:
        write(chunk)


MODES = {
    # the reply line
    "no-newline": lambda seq: write(b'{"seq":%d,"ok":true,"result":"' % seq + b"x" * 5 * MB),
    "endless-line": lambda seq: endless(b"x" * 65536),
    "not-utf8": lambda seq: write(b'{"seq":%d,"ok":true,"result":"\xff\xfe"}\n' % seq),
    "nan": lambda seq: reply(seq, "NaN"),
    "infinity": lambda seq: reply(seq, '{"round": -Infinity}'),
    "huge-int": lambda seq: reply(seq, "1" * 5000),
    "deep": lambda seq: reply(seq, "[" * 100_000 + "]" * 100_000),
    "deep-65": lambda seq: reply(seq, "[" * 65 + "]" * 65),
    "list-view": lambda seq: reply(seq, "[]"),
    "null-view": lambda seq: reply(seq, "null"),
    "string-view": lambda seq: reply(seq, '"phase: bidding"'),
    "extra-field": lambda seq: write(b'{"seq":%d,"ok":true,"result":{},"note":1}\n' % seq),
    "wrong-seq": lambda seq: reply(seq + 7, "{}"),
    "no-seq": lambda seq: write(b'{"ok":true,"result":{}}\n'),
    "refuses-view": lambda seq: write(b'{"seq":%d,"ok":false,"error":{"code":"WRONG_PHASE",'
                                      b'"message":"no"}}\n' % seq),
    "spam": lambda seq: [write(b'{"seq":%d,"ok":true,"result":null}\n' % (seq + i))
                         for i in range(1000)],
    # the process
    "exit-7": lambda seq: os._exit(7),
    "close-stdout": lambda seq: (os.close(1), time.sleep(60)),
    "sleep": lambda seq: time.sleep(60),
    "grandchild": lambda seq: (os.fork() == 0 and time.sleep(60)) or os._exit(0),
    # a grandchild in a session of its own keeps stdout open (the harness hung closing it)
    "detached-grandchild": lambda seq: (os.fork() == 0 and (os.setsid(), time.sleep(60)))
    or os._exit(0),
    # stderr: these answer correctly; the harness must keep only a bounded tail
    "stderr-100mb-line": None,
    "stderr-many-lines": None,
}
# Answered wrongly at the first `perft` instead: a perft reply of the wrong shape.
PERFT_MODES = {
    "perft-string-total": lambda seq: reply(seq, '{"total": "25", "divide": {}}'),
    "perft-no-divide": lambda seq: reply(seq, '{"total": 25}'),
    "perft-negative": lambda seq: reply(seq, '{"total": 25, "divide": {"pass": -1}}'),
    "perft-list": lambda seq: reply(seq, "[25]"),
}


# Every time, not once: attacks on the memory of a whole run (issue 27).
BIG = 1_000_000  # within the 1 MiB reply cap
ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x1b[8m"  # clear the screen, set the title, hide text


def always(mode: str, request: dict, adapter: ReferenceAdapter) -> bool:
    """Answer `request` in `mode`'s wrong way, if it is one of its requests."""
    seq, cmd = request["seq"], request["cmd"]
    if mode == "refuse-1mb" and cmd in ("setup", "deal", "act"):
        write(json.dumps({"seq": seq, "ok": False, "error": {
            "code": "ILLEGAL_BID", "message": "m" * BIG}}).encode() + b"\n")
    elif mode in ("hello-name-1mb", "hello-escapes") and cmd == "hello":
        name = "n" * BIG if mode == "hello-name-1mb" else f"evil{ESCAPES}"
        write(json.dumps({"seq": seq, "ok": True, "result": {
            "name": name, "version": ESCAPES, "protocol": request["protocol"],
            "variants": [], "capabilities": []}}).encode() + b"\n")
    elif mode == "hello-many-variants" and cmd == "hello":
        # 22,000 distinct objects, within the reply cap, and one entry that is wrong:
        # explaining it, python-jsonschema's uniqueItems compared the objects pairwise,
        # for hours (issue 40)
        variants = [{"name": "nello", "settings": {"x": [i]}} for i in range(22_000)]
        variants.append("no_such_option")
        write(json.dumps({"seq": seq, "ok": True, "result": {
            "name": "many", "version": "1", "protocol": request["protocol"],
            "variants": variants, "capabilities": []}}, separators=(",", ":")).encode()
              + b"\n")
    elif mode == "view-1mb-wrong" and cmd == "view":
        view = json.loads(_answer(adapter, 1, request, None))
        view["result"]["phase"] = "p" * BIG
        write(json.dumps(view).encode() + b"\n")
    elif mode == "rewrites-scenario" and cmd == "setup":
        # rewrite a scenario file under the harness's feet (and remove another, if named),
        # then play on as the reference
        target = Path(os.environ["T42_HOSTILE_REWRITE"])
        target.write_text(target.read_text().replace("title: T\n", "title: REWRITTEN\n"))
        if os.environ.get("T42_HOSTILE_REMOVE"):
            Path(os.environ["T42_HOSTILE_REMOVE"]).unlink(missing_ok=True)
        return False
    elif mode == "view-wrong-shape" and cmd == "view":
        reply(seq, '{"hands": 5, "trick": "x", "contract": 7, "to_act": []}')
    elif mode == "refuse-escapes" and cmd in ("setup", "deal", "act"):
        sys.stderr.write(f"log{ESCAPES}\n")
        sys.stderr.flush()
        write(json.dumps({"seq": seq, "ok": False, "error": {
            "code": f"X{ESCAPES}", "message": f"no{ESCAPES}"}}).encode() + b"\n")
    else:
        return False
    return True


def daemonize() -> None:
    """The classic daemon: fork, a new session, fork again, stdio to /dev/null; it would
    outlive the run. The adapter itself goes on answering."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            time.sleep(120)
        os._exit(0)


def daemonize_without_trace() -> None:
    """A daemon that leaves every trace of the tree: a session of its own, orphaned (its
    parent exits at once), and an empty environment (the tree's mark gone); it keeps the
    adapter's stdout and stderr open. Its pid goes to `daemon-no-env.pids` in the flag
    folder, and its command line names the folder, so that it can be counted."""
    flags = os.environ.get("T42_HOSTILE_ONCE", "")
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            if flags:
                with open(Path(flags) / "daemon-no-env.pids", "a") as pids:
                    pids.write(f"{os.getpid()}\n")
            os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)",
                                       flags], {})
        os._exit(0)
    os.wait()  # the session leader is gone: the daemon is orphaned before the first reply


def misbehave_on_stderr(mode: str) -> None:
    err = sys.stderr.buffer
    if mode == "stderr-100mb-line":
        chunk = b"e" * MB
        for _ in range(int(os.environ.get("T42_HOSTILE_STDERR_MB", "20"))):
            err.write(chunk)
        err.write(b"\n")
    else:
        for i in range(200_000):
            err.write(b"line %d of much logging\n" % i)
    err.flush()


def main(mode: str) -> None:
    adapter = ReferenceAdapter()
    if mode == "daemon":
        daemonize()
    elif mode == "daemon-no-env":
        daemonize_without_trace()
    for line in sys.stdin:
        request = json.loads(line)
        seq, cmd = request["seq"], request["cmd"]
        if always(mode, request, adapter):
            continue
        if cmd == "stop" and mode == "slow-stop" and first_time(mode):
            time.sleep(60)  # the harness is stopped while it waits on this (issue 40)
        if cmd == "perft" and mode in PERFT_MODES and first_time(mode):
            PERFT_MODES[mode](seq)
            continue
        if cmd == "view" and mode in MODES and first_time(mode):
            if MODES[mode] is None:
                misbehave_on_stderr(mode)
            else:
                MODES[mode](seq)
                continue
        write(_answer(adapter, 1, request, None).encode() + b"\n")
        if cmd == "stop":
            return


if __name__ == "__main__":
    main(sys.argv[1])
