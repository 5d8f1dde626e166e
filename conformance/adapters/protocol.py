"""The seam between the harness and an implementation (spec/protocol.md).

`Adapter` is what an implementer writes: any object with these attributes and methods.
`Harnessed` is what the harness holds: an adapter plus the hooks the runner needs (is it
usable, what did it write on stderr, does it run in this process, close it). Every
adapter the harness runs is one: `loading.load_adapter` builds them, and the runner wraps
a bare in-process object with `inprocess.harnessed`. The runner never probes attributes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, TypedDict, runtime_checkable

from conformance.adapters.limits import cut, cut_tail

CAPABILITIES = frozenset({"legal", "perft", "self_deal"})
OPERATIONS = ("start", "deal", "act", "view", "observe")  # every adapter has these
# and these only with the capability declared: the harness calls them only then
CAPABILITY_METHODS = {"legal": ("legal()",), "perft": ("perft(depth)",),
                      "self_deal": ("new_match()", "next_deal()")}
# protocol.md, "answers with a result of the wrong form": the JSON type of each result.
# A view or observation of the right type but the wrong content is a wrong answer about
# the game (failed, observation.md); a result of the wrong type is a protocol error.
RESULT_FORMS: dict[str, tuple[type, ...]] = {
    "setup": (type(None),), "deal": (type(None),), "act": (type(None),),
    "view": (dict,), "observe": (dict,), "legal": (list,), "perft": (dict,),
    "new_match": (type(None),), "next_deal": (type(None),),  # capability self_deal
}
FORM_NAMES = {type(None): "null", dict: "an object", list: "a list"}
# A result whose whole shape protocol.md fixes: one of another shape is a protocol error
# too (a view's content is judged against the game instead, as a wrong answer).
RESULT_SCHEMAS = {"perft": "protocol/perft-result.json"}
MAX_DEPTH = 64  # of any value an implementation returns (a view is 5 deep)


class Rejected(Exception):  # noqa: N818 - the protocol's word for a rule refusal
    """The implementation refused a setup, deal or action with an errors.yaml code."""

    def __init__(self, code: str, message: str = ""):
        code, message = cut(code), cut(message)  # a result keeps these: bounded
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


def broken_stderr_note(adapter: object) -> str:
    """For an adapter that is unusable (`broken`): the last lines its process wrote to
    stderr, indented under the message ("" if none): the traceback of an engine that
    crashed at start is the answer."""
    text = (getattr(adapter, "broken_stderr", "") or "").rstrip()
    lines = "".join(f"\n    {line}" for line in text.splitlines())
    return f"\n  its stderr (last lines):{lines}" if text else ""


class AdapterError(Exception):
    """The implementation broke: crashed, hung, or broke the protocol (-> errored)."""

    def __init__(self, message: str, stderr: str = ""):
        super().__init__(cut(message))  # a result keeps these: bounded
        self.stderr = cut_tail(stderr)


class PartialOption(TypedDict):
    """An option supported in part (protocol.md, "Partial support"): only the listed
    values of each setting named, `{"name": "forced_bid", "settings": {"bid": ["any"]}}`."""

    name: str
    settings: dict[str, list[Any]]


# An entry of `variants`: an option's name (every setting), or an option supported in part.
Declared = str | PartialOption


@runtime_checkable
class Adapter(Protocol):
    name: str
    version: str

    @property
    def variants(self) -> list[Declared] | list[str] | list[PartialOption]:
        """The variant options supported (spec/variants.md), each a `Declared`. Optional,
        not part of the Protocol checked: `spec = "0.2.0"`, the spec version the
        declaration was written for (protocol.md, "Declarations and spec versions"). A
        plain attribute does (read-only here, so that a list of names alone conforms)."""

    @property
    def capabilities(self) -> frozenset[str] | set[str] | list[str]:
        """A subset of CAPABILITIES. A plain attribute does: the harness only reads it
        (read-only here, so that an adapter may narrow its type, as Harnessed does)."""

    def start(self, setup: dict[str, Any]) -> None:
        """Start a new match from `setup` (actions.md), replacing any current match."""

    def deal(self, deal: dict[str, Any]) -> None:
        """Deal the next round."""

    def act(self, action: Any) -> None:
        """Apply a player action; raise Rejected(code, message) if it is illegal."""

    def view(self) -> dict[str, Any]:
        """The referee view (observation.md)."""

    def observe(self, seat: str) -> dict[str, Any]:
        """The seat observation (observation.md)."""

    # The methods below are those of a capability: only called when `capabilities`
    # declares it, and an adapter that does not may leave them out (the loader checks the
    # declared ones; a Protocol cannot say "optional", so a type checker asks for all).

    def legal(self) -> list[dict[str, Any]]:
        """The legal actions of the seat to act (capability `legal`)."""

    def perft(self, depth: int) -> dict[str, Any]:
        """{"total": n, "divide": {action key: n}} (capability `perft`)."""

    # Capability `self_deal` (protocol.md, "Deals of your own").

    def new_match(self) -> None:
        """Start a new match of the base game, replacing any current one, as your own game
        does: you choose the first dealer (DEAL-04) and shuffle the first deal (DEAL-06)."""

    def next_deal(self) -> None:
        """In phase round_over, deal the next round yourself: a fresh shuffle (DEAL-06)."""


class Harnessed:
    """An adapter as the harness runs it: the operations of `Adapter` (AdapterError when
    the implementation breaks, Rejected when it refuses) and the hooks below, whose
    defaults fit an adapter that keeps no process and writes no stderr."""

    name: str = "?"
    version: str = "?"
    variants: list[str]  # the option names declared
    spec_version: str | None = None  # the spec version the hello named (`spec`), if any
    declaration: list[Any] | None = None  # `variants` as the hello gave it (for reports)
    # the options declared with only some values of a setting (support.py): by default none
    settings: Mapping[str, Mapping[str, tuple[Any, ...]]] = MappingProxyType({})
    capabilities: frozenset[str] = frozenset()
    broken: str | None = None  # why it is unusable: every scenario errors with this
    declared_by: str | None = None  # who chose `variants`, if not the implementation
    in_process = False  # True: calls run in this process; a watchdog bounds each scenario

    def stderr_mark(self) -> int:
        """A mark to pass to stderr_since."""
        return 0

    def stderr_since(self, mark: int) -> str:
        """What the implementation wrote on stderr since `mark` (as much as is kept)."""
        return ""

    def close(self) -> None:
        """End the implementation (sends `stop` to a process)."""

    def pipeline(self, requests: list[tuple[str, dict[str, Any]]],
                 expected: list[Any] | None = None) -> list[Any]:
        """Several requests, their results in order (a Rejected for a refused setup, deal
        or act). A process adapter sends them in one write; this default calls them.

        `expected`, one item per request (None: nothing expected): values the caller
        compares the results with by `==` (an `Exact`: by `same_json`; an `Encoded` also
        by its text, before a reply is decoded). An in-process
        adapter may return the expected value itself for a result equal to it, without
        the JSON copy and form check that a value equal to a well-formed one cannot fail,
        and a JSON-lines one skips the form check of such a reply (a fuzz step's hot
        path); the others ignore it."""
        out: list[Any] = []
        for cmd, fields in requests:
            method = {"setup": "start"}.get(cmd, cmd)
            try:
                out.append(getattr(self, method)(*fields.values()))
            except Rejected as refused:
                out.append(refused)
        return out

    def start(self, setup: dict[str, Any]) -> None:
        raise NotImplementedError

    def deal(self, deal: dict[str, Any]) -> None:
        raise NotImplementedError

    def act(self, action: Any) -> None:
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        raise NotImplementedError

    def observe(self, seat: str) -> dict[str, Any]:
        raise NotImplementedError

    def legal(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def perft(self, depth: int) -> dict[str, Any]:
        raise NotImplementedError

    def new_match(self) -> None:  # capability self_deal
        raise NotImplementedError

    def next_deal(self) -> None:  # capability self_deal
        raise NotImplementedError


class Exact(NamedTuple):
    """An expected value (Harnessed.pipeline) to be compared with its types."""

    value: Any


class Encoded:
    """An expected value (Harnessed.pipeline) with its JSON text as `t42 serve` writes it
    (compact separators, texts.py): a JSON-lines reply whose result is that very text is
    that value, with its types, and is not decoded. `typed`: compared as an Exact.
    `Encoded.of_text(text, typed)`: the value is the text decoded, only when asked for;
    a reply equal to the text is returned by `pipeline` as this very item (`unread`),
    never decoded."""

    __slots__ = ("_value", "text", "typed")
    _UNREAD: Any = object()

    def __init__(self, value: Any, text: str, typed: bool):
        self._value, self.text, self.typed = value, text, typed

    @classmethod
    def of_text(cls, text: str, typed: bool) -> Encoded:
        return cls(cls._UNREAD, text, typed)

    @property
    def unread(self) -> bool:
        return self._value is Encoded._UNREAD

    @property
    def value(self) -> Any:
        if self._value is Encoded._UNREAD:
            self._value = json.loads(self.text)
        return self._value


def expected_value(want: Any) -> Any:
    """The value of an expected item: an Exact's or Encoded's own, else the item."""
    return want.value if isinstance(want, Exact | Encoded) else want


def matches(result: Any, want: Any) -> bool:
    """Whether a result is what `pipeline`'s caller expects (`want`: a value, an Exact or
    an Encoded)."""
    if isinstance(want, Encoded):
        want = Exact(want.value) if want.typed else want.value
    if isinstance(want, Exact):
        return same_json(result, want.value)
    try:
        return type(result) is type(want) and bool(result == want)
    except Exception:  # noqa: BLE001 - an odd value: not the one expected
        return False


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal with their types: `==` takes true for 1 and 1.0
    for 1, which JSON tells apart. A walk with the types compared (cheaper than two
    canonical texts); a value nested too deep is not the same."""
    try:
        return a is b or _same(a, b)
    except RecursionError:
        return False


def _same(a: Any, b: Any) -> bool:
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        if a.keys() != b.keys():
            return False
        for key, value in a.items():
            other = b[key]
            if value is not other and not _same(value, other):
                return False
        return True
    if kind is list:
        if len(a) != len(b):
            return False
        for value, other in zip(a, b, strict=True):
            if value is not other and not _same(value, other):
                return False
        return True
    return bool(a == b)


def form_problem(cmd: str, result: Any) -> str:
    """'' when `result` has the JSON form protocol.md gives `cmd`'s result, else why not
    (the scenario is then errored: a protocol error, not a wrong answer)."""
    forms = RESULT_FORMS.get(cmd)
    if forms is not None and not isinstance(result, forms):
        return (f"{cmd}: the result is {_kind(result)}, not {FORM_NAMES[forms[0]]} "
                "(protocol.md)")
    depth = _depth(result)
    if depth > MAX_DEPTH:
        return f"{cmd}: the result is nested deeper than {MAX_DEPTH} levels"
    schema = RESULT_SCHEMAS.get(cmd)
    if schema:
        from conformance.specdata import schemas
        from conformance.specdata.fields import format_field

        problems = schemas.check(schema, result)
        if problems:
            path, message = problems[0]
            at = f" at {format_field(path)}" if path else ""
            return f"{cmd}: the result does not follow {schema}{at}: {message} (protocol.md)"
    return ""


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "a number", float: "a number"}
    return names.get(type(value), f"a Python {type(value).__name__}")


def _depth(value: Any) -> int:
    """Nesting depth, without recursion (the value may be arbitrarily deep): one level
    at a time, only the containers kept (every in-process read is walked: a fuzz step's
    hot path)."""
    level, depth = [value], 0
    while True:
        level = [item for item in level if isinstance(item, dict | list)]
        if not level:
            return depth
        depth += 1
        if depth > MAX_DEPTH:
            return depth
        level = [child for item in level
                 for child in (item.values() if isinstance(item, dict) else item)]


# --- reports in the harness's own words ----------------------------------------------
# Python words some errors differently from one version to the next (RecursionError,
# the float and integer limits of json); a report must be the same wherever it is read,
# so the harness finds and names the trouble itself.


def raised_message(cmd: str, error: BaseException) -> str:
    """`act raised KeyError: 'hands'`; `act raised MemoryError` when it says nothing."""
    text = str(error)
    return f"{cmd} raised {type(error).__name__}" + (f": {text}" if text else "")


def not_json_message(cmd: str, value: Any) -> str:
    """Why `value`, which json.dumps refused, has no JSON form: its first such part."""
    return f"{cmd} returned a value that is not JSON: {json_trouble(value) or 'it has none'}"


JSON_KEYS = (str, int, float, bool, type(None))  # json.dumps writes these keys as strings
MAX_INT_DIGITS = 4300  # CPython's int_max_str_digits: json refuses a longer integer
_TOO_BIG = 10 ** MAX_INT_DIGITS


def json_trouble(value: Any) -> str:
    """'' if `value` is plain JSON, else its first part that is not, by path: `round is
    NaN`, `phase is a Python set`; without recursion (the value may be arbitrarily deep)."""
    stack: list[tuple[str, Any, int]] = [("", value, 1)]
    while stack:
        path, item, depth = stack.pop()
        where = path.lstrip(".") or "the value"
        if isinstance(item, dict | list) and depth > MAX_DEPTH:
            return f"it is nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, dict):
            for key, child in reversed(item.items()):
                if not isinstance(key, JSON_KEYS):
                    return f"{where} has a key that is a Python {type(key).__name__}"
                stack.append((f"{path}.{key}", child, depth + 1))
        elif isinstance(item, list | tuple):
            stack.extend((f"{path}[{i}]", child, depth + 1)
                         for i, child in reversed(list(enumerate(item))))
        elif isinstance(item, float) and item != item:
            return f"{where} is NaN"
        elif isinstance(item, float) and item in (float("inf"), float("-inf")):
            return f"{where} is {'-' if item < 0 else ''}Infinity"
        elif isinstance(item, int) and abs(item) >= _TOO_BIG:
            return f"{where} is an integer of more than {MAX_INT_DIGITS} digits"
        elif not isinstance(item, str | int | float | type(None)):
            return f"{where} is a Python {type(item).__name__}"
    return ""
