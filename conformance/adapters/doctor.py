"""`t42 doctor`: a first check of an adapter, before any rule is judged.

A few short sessions that between them send every command and read every field of a
view, an observation and a legal list, checked against `spec/schemas/` only. Each
protocol or form mistake becomes one line that says how to fix it. The reference engine
runs beside the adapter only to choose the actions (a legal bid, a legal play), never to
judge one: a rule the adapter gets wrong is for `t42 run`.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from conformance.adapters.protocol import AdapterError, Harnessed, Rejected
from conformance.adapters.reference import ReferenceAdapter
from conformance.specdata.fields import format_field
from reference_impl.tiles import NAMES as TILES
from reference_impl.tiles import SEATS

# A deal of every tile (the rules' tiles and seats, from the engine): D deals, each seat
# holds seven.
SETUP = {"dealer": SEATS[-1],
         "hands": {seat: list(TILES[i::len(SEATS)]) for i, seat in enumerate(SEATS)}}

# What to do about each AdapterError of process.py, found by its wording.
HINTS = (
    ("is not JSON", "only replies go to stdout: write logs to stderr (and flush each reply)"),
    ("not UTF-8", "write replies as UTF-8"),
    ("reply seq", "echo the request's seq in its reply, one reply per request, in order"),
    ("integer seq", "a reply is {\"seq\": <the request's seq>, \"ok\": ..., ...}"),
    ("protocol/response.json", "a reply is exactly {\"seq\", \"ok\": true, \"result\"} or "
                               "{\"seq\", \"ok\": false, \"error\": {\"code\", \"message\"}}"),
    ("replied with error", "only setup, deal and act may be refused (\"ok\": false)"),
    ("the result is", "setup, deal and act reply null; view, observe and perft an object; "
                      "legal a list (protocol.md)"),
    ("no reply within", "flush stdout after each reply; answer within --timeout"),
    ("exited", "a crash: fix what its stderr says (a refusal is \"ok\": false, not an exit)"),
    ("closed its", "keep reading requests until stop"),
    ("speaks protocol", "answer hello with \"protocol\": the number the request carries"),
    ("hello: bad result", "hello's result is {name, version, protocol, variants, "
                          "capabilities} (protocol/hello-result.json)"),
    ("cannot start", "check the command after cmd: (it runs without a shell)"),
)


# Bounds: an engine may add thousands of unknown fields, new at every call.
SHOWN_PER_KIND = 3  # findings of one kind shown; the rest of that kind counted
KEPT_PER_KIND = 10_000  # distinct findings of one kind told apart; past it, "more than"
SESSION_FINDINGS = 100  # findings (shown or counted) after which a session stops
NEAREST_PER_FORM = 20  # unknown fields of one reply looked up for the field meant


@dataclass
class Doctor:
    """The findings of one check: each a line, `say`d as it is found; `notes` say what
    was not checked. Of a kind of finding (an unknown field of the view, ...) the first
    SHOWN_PER_KIND are lines, the others counted in `more`."""

    adapter: Harnessed
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    restarted: bool = False  # a broken reply was found: the process was started afresh
    say: Callable[[str], None] = field(default=lambda line: None)
    more: Counter[str] = field(default_factory=Counter)  # kind -> findings not shown
    shown: Counter[str] = field(default_factory=Counter)
    in_session: int = 0  # findings of the session under way

    def add(self, line: str, key: str | None = None, kind: str | None = None) -> None:
        key = key or line
        kind = kind or key
        if key in self.seen:
            return
        if self.shown[kind] < SHOWN_PER_KIND:
            self.seen.add(key)
            self.shown[kind] += 1
            self.findings.append(line)
            self.say(line)
        elif self.more[kind] < KEPT_PER_KIND:
            self.seen.add(key)
            self.more[kind] += 1
        self.in_session += 1

    def full(self) -> bool:
        """The session under way has found enough: it stops (`_Stopped`)."""
        return self.in_session >= SESSION_FINDINGS

    def counted(self) -> list[str]:
        """A line per kind of which findings were counted, not shown."""
        return [f"{kind}: and {'more than ' if n >= KEPT_PER_KIND else ''}{n:,} more"
                for kind, n in self.more.items()]

    @property
    def total(self) -> int:
        return len(self.findings) + sum(self.more.values())

    def broke(self, error: AdapterError) -> None:
        message = str(error)
        seen = read_break(message, error.stderr)
        if seen.crash and self.restarted:
            # the process was started afresh after a broken reply: its crash in a later
            # session (a request the engine was never meant to see alone) is a note
            note = f"then {seen.line} (after a restart for the mistake above: fix that first)"
            if note not in self.notes:
                self.notes.append(note)
            return
        self.restarted |= not seen.crash
        # one line per kind of break, not per request (each seq differs)
        self.add(seen.line, re.sub(r"\d+", "N", message))

    def form(self, what: str, ref: str, value: Any, like: Any) -> None:
        """Schema problems of `value` (a `what` result), each named; `like` is the
        reference engine's answer at the same point (the fields it should have)."""
        from conformance.specdata import schemas

        problems = schemas.check(ref, value)
        # A renamed field is one mistake, not an unknown one and a missing one. The field
        # meant is looked up (difflib) for the first few unknown fields of a reply only.
        unknown = [path for path, message in problems if message == "unknown field"]
        nearest = {tuple(path): _nearest(path, like, ref)
                   for path in unknown[:NEAREST_PER_FORM]}
        renamed = {(tuple(path[:-1]), near) for path, near in nearest.items() if near}
        for path, message in problems:
            where = format_field((what, *path))
            general = re.sub(r"\[\d+\]", "[]", where)
            if message == "unknown field":
                near = nearest.get(tuple(path), "")
                owner = format_field(tuple(path[:-1])) or what
                hint = f"; the {owner}'s field is {near}" if near else ""
                self.add(f"{where}: unknown field{hint}", general + ":unknown",
                         re.sub(r"\[\d+\]", "[]", f"{what} {owner}: unknown field"
                                if owner != what else f"{what}: unknown field"))
            elif (m := re.fullmatch(r"'(.+)' is a required property", message)):
                if (tuple(path), m[1]) not in renamed:
                    self.add(f"{format_field((what, *path, m[1]))}: missing field "
                             f"({ref} requires it)", general + ":" + m[1])
            elif "is not of type" in message:
                self.add(f"{where}: wrong type: {message}", general + ":type")
            else:
                self.add(f"{where}: {message}", general + ":" + message)
        if self.full():
            raise _Stopped


@dataclass(frozen=True)
class Break:
    """An adapter error read for its author: what happened, how to fix it, a crash's
    error (from its stderr), and `kind`, the same for the same mistake at any request."""

    message: str
    hint: str
    last: str = ""
    kind: str = ""
    crash: bool = False

    @property
    def line(self) -> str:
        if self.last:
            return f"{self.message}; it crashed; its stderr says: {self.last}"
        return self.message + (f"; {self.hint}" if self.hint else "")


def read_break(message: str, stderr: str = "") -> Break:
    """The protocol mistake an AdapterError's message (and the stderr before it) shows:
    its kind is the HINTS pattern it matches, for a crash with the error its stderr shows."""
    pattern, hint = next(((p, h) for p, h in HINTS if p in message), ("", ""))
    crash = "exited" in message
    last = crash_line(stderr) if crash else ""
    kind = f"{pattern}: {last}" if last else pattern or message
    return Break(message, hint, last, re.sub(r"\d+", "N", kind), crash)


# A stack frame of JavaScript, Java or C# ("    at f (file:1:2)"), Python ('  File "x",
# line 1'), Go ("\t/src/main.go:12 +0x1d"); lines a runtime adds after the error.
FRAME = re.compile(r'^\s+(at |File "|/|[A-Za-z]:\\)|^\s*\d+: ')
TRAILER = re.compile(r"^(Node\.js v\d|note: run with `RUST_BACKTRACE|note: Some details are "
                     r"omitted|exit status \d)")


def crash_line(stderr: str) -> str:
    """The error a crash's stderr shows: the line above its last stack trace (JavaScript's
    message, a Go panic), a Rust panic with its message, else the last line (Python's
    traceback ends with its message); '' for no stderr."""
    lines = [line.rstrip() for line in (stderr or "").splitlines()
             if line.strip() and not TRAILER.match(line)]
    if not lines:
        return ""
    for i in range(len(lines) - 1, -1, -1):
        if "panicked at" in lines[i]:  # Rust: the message follows, or is quoted in it
            after = lines[i + 1].strip() if i + 1 < len(lines) else ""
            return f"{lines[i].strip()} {after}".strip()[:200]
        if lines[i].startswith(("panic: ", "fatal error: ")):  # Go
            return lines[i].strip()[:200]
    if not lines[-1].strip().startswith("Traceback") and FRAME.match(lines[-1]):
        start = len(lines) - 1
        while start > 0 and (FRAME.match(lines[start - 1]) or lines[start - 1].startswith(
                ("goroutine ", "\t"))):
            start -= 1
        if start > 0:
            return lines[start - 1].strip()[:200]
    return lines[-1].strip()[:200]


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


@cache
def _schema_words() -> list[str]:
    """Every property name in the schemas: the fallback for a field the reference's own
    answer has no parent for."""
    from conformance.specdata.schemas import load_all

    words: set[str] = set()
    stack: list[Any] = list(load_all().values())
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            words.update(item.get("properties", {}) if isinstance(item.get("properties"), dict)
                         else ())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return sorted(words)


def _nearest(path: tuple[Any, ...], like: Any, ref: str) -> str:
    """The closest field the reference's answer has where `path` ends (to_act for
    toAct), or ''."""
    *parent, key = path
    known = _at(like, tuple(parent))
    words = sorted(known) if isinstance(known, dict) else _schema_words()
    words = [w for w in words if w != key]
    plain = [_plain(w) for w in words]
    match = difflib.get_close_matches(_plain(str(key)), plain, 1, 0.6)
    return words[plain.index(match[0])] if match else ""

def _plain(word: str) -> str:
    """toAct, to-act and to_act alike."""
    return re.sub(r"[^a-z0-9]", "", word.lower())


class _Stopped(Exception):  # noqa: N818 - ends a session early, quietly
    pass


def _call(doc: Doctor, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except AdapterError as error:
        doc.broke(error)
        raise _Stopped from None


def _look(doc: Doctor, ref: ReferenceAdapter) -> None:
    """view, every observation and legal, each checked against its schema."""
    a = doc.adapter
    doc.form("view", "view.schema.json", _call(doc, a.view), ref.view())
    for seat in SEATS:
        doc.form("observation", "observation.schema.json", _call(doc, a.observe, seat),
                 ref.observe(seat))
    if "legal" in a.capabilities:
        got = _call(doc, a.legal)
        for i, action in enumerate(got):
            doc.form(f"legal[{i}]", "action.schema.json", action,
                     (ref.legal() or [{}])[0])


def _step(doc: Doctor, ref: ReferenceAdapter, method: str, payload: Any) -> None:
    """Send what the reference accepts; a refusal is a rule matter: stop quietly."""
    getattr(ref, method)(payload)
    try:
        _call(doc, getattr(doc.adapter, method), payload)
    except Rejected as refused:
        what = f"act {json.dumps(payload)}" if method == "act" else method
        note = (f"{what} was refused ({refused.code}): the rest of that session was "
                "skipped; t42 run judges the rules")
        if note not in doc.notes:
            doc.notes.append(note)
        raise _Stopped from None


def _refusal(doc: Doctor, method: str, payload: Any, codes: set[str]) -> None:
    try:
        _call(doc, getattr(doc.adapter, method), payload)
    except Rejected as refused:
        if refused.code not in codes:
            doc.add(f"{method}: refused with code {refused.code!r}, which is not in "
                    "spec/errors.yaml; use one of its codes", f"code:{refused.code}")


def _round(doc: Doctor) -> None:
    """setup, a bid, a declaration, 28 plays, the next deal: every field of a view."""
    ref = ReferenceAdapter()
    _step(doc, ref, "start", SETUP)
    _look(doc, ref)
    bid = next(a for a in ref.legal() if a["type"] == "bid")
    _step(doc, ref, "act", bid)
    while ref.view()["phase"] == "bidding":
        _step(doc, ref, "act", ref.legal()[0])
    _look(doc, ref)
    _step(doc, ref, "act", next(a for a in ref.legal() if a.get("trump") == 6))
    while ref.view()["phase"] == "playing":
        _step(doc, ref, "act", ref.legal()[0])
        if len(ref.view()["trick"]) in (1, 0) and len(ref.view()["tricks"]) < 2:
            _look(doc, ref)
    _look(doc, ref)
    if "perft" in doc.adapter.capabilities:
        _call(doc, doc.adapter.perft, 1)
    _step(doc, ref, "deal", {"order": sorted(ref.shuffled())})
    _look(doc, ref)


def _refusals(doc: Doctor) -> None:
    from conformance.specdata.index import load_index

    codes = set(load_index().codes)
    _refusal(doc, "act", {"type": "bid", "seat": "A", "points": 30}, codes)  # no match yet
    ref = ReferenceAdapter()
    _step(doc, ref, "start", SETUP)
    _refusal(doc, "act", {"type": "bid", "seat": "E", "points": 30}, codes)
    _refusal(doc, "start", {"dealer": "Q", "hands": SETUP["hands"]}, codes)
    _refusal(doc, "deal", {"order": []}, codes)
    if "perft" in doc.adapter.capabilities:
        _call(doc, doc.adapter.perft, 2)
    _look(doc, ref)
    # last, as accepting it starts a match: a decoder that keeps an absent field's zero
    # value (Go's encoding/json, a `??` default) reads this setup as AC 3, BD 0
    try:
        _call(doc, doc.adapter.start, {**SETUP, "marks": {"AC": 3}})
    except Rejected:
        return
    doc.add('setup: accepted "marks": {"AC": 3}, the marks of one team; a setup not of '
            "setup.schema.json is refused INVALID_SETUP (SCORE-03, DIG-06)")


# What the self_deal session cannot check when the engine's game goes elsewhere
NEXT_DEAL = "next_deal and the view of its deal were not checked"


def _unreached(doc: Doctor, what: str, why: str) -> None:
    """A check the engine's own answers led away from: a note (its rules are for
    `t42 run`), and the session ends."""
    note = f"{what}: {why} (the engine's rules: t42 run judges them)"
    if note not in doc.notes:
        doc.notes.append(note)
    raise _Stopped


def _own_deals(doc: Doctor) -> None:
    """new_match and next_deal (capability self_deal): forms only, no statistics. The
    passes that end the first round follow the engine's own view (and legal list): an
    engine whose game forces the dealer never reaches `round_over`, and next_deal, which
    may not be refused, is sent only there (protocol.md)."""
    a = doc.adapter
    _call(doc, a.new_match)
    view = _call(doc, a.view)
    doc.form("view", "view.schema.json", view, _setup_view())
    for _ in range(4):  # four passes end the round (BID-09): next_deal is then due
        seat = view.get("to_act") if isinstance(view, dict) else None
        phase = view.get("phase") if isinstance(view, dict) else None
        if phase != "bidding" or not isinstance(seat, str):
            _unreached(doc, NEXT_DEAL, f"before four passes the view shows phase {phase!r}, "
                                       f"to act {seat!r}")
        action = {"type": "pass", "seat": seat}
        legal = _call(doc, a.legal) if "legal" in a.capabilities else [action]
        if not isinstance(legal, list) or action not in legal:
            _unreached(doc, NEXT_DEAL, f"{seat} may not pass (its legal list)")
        try:
            _call(doc, a.act, action)
        except Rejected as refused:
            _unreached(doc, NEXT_DEAL, f"{seat}'s pass was refused ({refused.code})")
        view = _call(doc, a.view)
    phase = view.get("phase") if isinstance(view, dict) else None
    if phase != "round_over":
        _unreached(doc, NEXT_DEAL, f"after four passes the view shows phase {phase!r}, "
                                   "not 'round_over'")
    _call(doc, a.next_deal)
    doc.form("view", "view.schema.json", _call(doc, a.view), _setup_view())


def _setup_view() -> dict[str, Any]:
    """A view of the first deal: the fields a view after new_match has."""
    ref = ReferenceAdapter()
    ref.start(SETUP)
    return ref.view()


def _stop(doc: Doctor) -> None:
    """`stop` answered, then an exit (process adapters only)."""
    stop = getattr(doc.adapter, "stop_problem", None)
    if stop is not None:
        problem = stop()
        if problem:
            doc.add(problem)


def diagnose(adapter: Harnessed, say: Callable[[str], None] = lambda line: None) -> Doctor:
    """Run the sessions; every mistake found, once each, `say`d as it is found (of a kind
    of mistake, the first few; the others counted)."""
    doc = Doctor(adapter, say=say)
    if adapter.broken:
        doc.broke(AdapterError(adapter.broken, getattr(adapter, "broken_stderr", "")))
        return doc
    sessions = [_round, _refusals]
    if "self_deal" in adapter.capabilities:
        sessions.append(_own_deals)
    for session in sessions:
        doc.in_session = 0
        try:
            session(doc)
        except _Stopped:
            pass
        note = f"a session stopped after {SESSION_FINDINGS} findings: fix these first"
        if doc.full() and note not in doc.notes:
            doc.notes.append(note)
        if adapter.broken:
            break
    _stop(doc)
    return doc
