"""Why the reference decided what it did: a copy of a match that records its decisions.

Only the diagnosis uses this (conformance/run/diagnosis/); nothing here runs while a
match is played, and the engine's own code is unchanged by it. `traced(match, record)` is
a copy of `match` whose rule table (`Rules`) and the tables built from it report to
`record` every decision they make: which entry decided (a function of the table, a
parameter, a suit table's entry), on what arguments, what it decided, and the rule IDs
the deciding code names (a function's docstring, a parameter's comment in `Rules`, the
rule a refusal carries). A decision can also be made otherwise (`Record.overrides`), so
the harness can ask the reference: had this one decision gone the engine's way, would
the reference have answered as the engine did?

A decision is keyed by its entry and its arguments: the same question asked twice (the
rank of a tile in a suit, the team of a seat) is one decision, overridden everywhere.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from . import rules as _rules_module
from . import variant_rules as _variant_rules_module
from .match import BIDDING, Match
from .rules import Rules
from .tables import Tables, tables_for

RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{2}\b")
# the files whose functions are rule functions: their clauses name rules
RULE_FILES = frozenset({_rules_module.__file__, _variant_rules_module.__file__})

# The Rules entries that are functions: each call is a decision.
FUNCTIONS = frozenset(f.name for f in dataclasses.fields(Rules)
                      if "Callable" in str(f.type))
# The parameters a decision can be made of: a number or a yes/no (a table of bids or of
# counters is read through the decisions that use it).
SCALARS = frozenset(f.name for f in dataclasses.fields(Rules)
                    if str(f.type) in ("int", "bool"))


@dataclass(frozen=True)
class Decision:
    """One decision of the reference: the entry that made it, its arguments (hashable),
    its value, the rule IDs the deciding code names (the most specific first), and the
    decisions it passed on unchanged (`delegates`: an option's function that returns what
    the base game's function it wraps decided did not decide it)."""

    entry: str
    key: Hashable
    value: Any
    rules: tuple[str, ...]
    delegates: tuple[tuple[str, Hashable], ...] = ()
    # the rules of the clause that decided (a refusal's own rule, the IDs its `return`
    # line names), when the record names clauses; else every rule the code names
    deciding: tuple[str, ...] = ()

    @property
    def id(self) -> tuple[str, Hashable]:
        return (self.entry, self.key)


@dataclass
class Record:
    """The decisions a traced match made, in order, each once; `overrides` makes the
    decisions it names otherwise (by Decision.id)."""

    overrides: dict[tuple[str, Hashable], Any] = field(default_factory=dict)
    decisions: dict[tuple[str, Hashable], Decision] = field(default_factory=dict)
    _calls: list[list[Decision]] = field(default_factory=list)  # the decisions made inside
    # each call now open, innermost last

    def decide(self, entry: str, key: Hashable, value: Any, rules: tuple[str, ...],
               inside: list[Decision] = (),  # type: ignore[assignment]
               clause: tuple[str, ...] = ()) -> Any:
        """The value of decision (entry, key): the reference's, unless overridden.
        `inside`: the decisions made while it was being made; `clause`: the rules of the
        clause that made it, when known."""
        made = self.overrides.get((entry, key), value)
        if (entry, key) not in self.decisions:
            passed = tuple(d.id for d in inside if _same(d.value, value))
            own = _refusal_rule(value)
            deciding = tuple(dict.fromkeys((*own, *clause))) if own or clause else ()
            decision = Decision(entry, key, value, tuple(dict.fromkeys(
                (*own, *clause, *rules))), passed, deciding or own + rules)
            self.decisions[(entry, key)] = decision
            if self._calls:
                self._calls[-1].append(decision)
        return made

    clauses: bool = False  # name each decision by the clause that made it (a tracer: slow)

    def call(self, entry: str, key: Hashable, fn: Callable[[], Any],
             rules: tuple[str, ...], always: tuple[str, ...] = ()) -> Any:
        """Make a decision by calling `fn`, noting the decisions made inside it and, with
        `clauses`, the rules of the clause that decided (`deciding_clause`) and `always`
        (an option's own rules, which decide whichever clause of the functions it wraps
        gave the value)."""
        self._calls.append([])
        clause: tuple[str, ...] = ()
        try:
            if self.clauses and (entry, key) not in self.decisions:
                value, clause = deciding_clause(fn)
                clause = clause if value is not None else ()  # an accept: every check
            else:
                value = fn()
        finally:
            inside = self._calls.pop()
        return self.decide(entry, key, value, rules, inside, _deciding(clause, always))


def deciding_clause(fn: Callable[[], Any]) -> tuple[Any, tuple[str, ...]]:
    """Call `fn`; return its value and the rule IDs of the clause that decided it: the
    `return` of the innermost rule function that produced the value (followed through
    each `return callee(...)`), the IDs its line names, else its docstring's."""
    returns: list[tuple[int, int | None, Any, Any, int]] = []  # frame, caller, code, value, line

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "return":
            caller = id(frame.f_back) if frame.f_back is not None else None
            returns.append((id(frame), caller, frame.f_code, arg, frame.f_lineno))
        return local

    def call(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename in RULE_FILES else None

    before = sys.gettrace()
    sys.settrace(call)
    try:
        value = fn()
    finally:
        sys.settrace(before)
    return value, _clause_rules(returns)


def _clause_rules(returns: list[tuple[int, int | None, Any, Any, int]]) -> tuple[str, ...]:
    if not returns:
        return ()
    chain = [returns[-1]]  # the outermost rule function's return; then who produced it
    for ret in reversed(returns[:-1]):
        frame, caller, _, value, _ = ret
        if caller == chain[-1][0] and _same_object(value, chain[-1][3]) and \
                _passes_on(chain[-1][2], chain[-1][4]):
            chain.append(ret)
    for _, _, code, _, line in reversed(chain):  # the innermost first
        found = rule_ids(_source_line(code.co_filename, line))
        doc = code.co_consts[0] if code.co_consts and isinstance(code.co_consts[0], str) \
            else ""
        found = found or rule_ids(doc)
        if found:
            return tuple(dict.fromkeys(found))
    return ()


def _passes_on(code: Any, line: int) -> bool:
    """Whether a `return` may pass on a call's value (`return callee(...)`), not one
    computed from it (`return not is_trump(...) and ...`, equal to is_trump's False by
    chance): its line returns a call, or is not a `return` line the tracer can read."""
    lines = _source_lines(code.co_filename)
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return not text.startswith("return ") or bool(RETURNS_A_CALL.match(text))


RETURNS_A_CALL = re.compile(r"return [\w.]+\(")


def _same_object(one: Any, other: Any) -> bool:
    return one is other or _same(one, other)


@functools.cache
def _source_lines(path: str) -> tuple[str, ...]:
    return tuple(Path(path).read_text().splitlines())


def _source_line(path: str, line: int) -> str:
    """Line `line` of a source file with the comment lines just above it (a clause's
    comment may stand over its `return`)."""
    lines = _source_lines(path)
    if not 0 < line <= len(lines):
        return ""
    start = line - 1
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1
    return "\n".join(lines[start:line])


def _same(one: Any, other: Any) -> bool:
    return type(one) is type(other) and one == other


def traced(match: Match, record: Record) -> Match:
    """A copy of `match` that reports every decision of its rules to `record`."""
    copy = match.clone()
    rules = TracedRules(match.rules, record)
    copy.rules = rules  # type: ignore[assignment]
    copy._tables = TracedTables(tables_for(match.rules), rules, record)  # type: ignore
    _rederive(copy, match, rules)
    return copy


def _rederive(copy: Match, match: Match, rules: Any) -> None:
    """What `match` holds from decisions made in earlier steps, decided again by `rules`
    (so a replay records them, and can make them otherwise): in the bidding, the order of
    the seats; once declared, the tables of its trump and its duty; in a trick, the suit
    its lead called."""
    if match.phase == BIDDING:
        copy._bidders = copy._tables.bidding_orders[rules.last_bidder(
            rules, match.dealer, match.dealt)]
        copy.last_marks = _last_marks(rules, match.history)
    if match.contract is None or match._called_of is None:
        return
    copy._use_trump(_suit_key(match))
    copy._duty = rules.duty
    if match.trick:
        copy.called = copy._called_of[match.trick[0]]


def _last_marks(rules: Any, history: list[dict]) -> int:
    """The marks of the last marks bid of a bidding, a special bid's decided again by
    `rules.bid_marks` (match._bid: PLUNGE-03, PLUNGE-07, PLUNGE-09 tell them)."""
    last = 0
    special = {bid.name: bid for bid in rules.special_bids}
    for action in history:
        if action.get("type") != "bid":
            continue
        if "marks" in action:
            last = action["marks"]
            continue
        kind = next((name for name in special if name in action), None)
        if kind is not None:
            written = action[kind]
            value = written if type(written) is int else special[kind].marks
            last = rules.bid_marks(rules, kind, last, value)
    return last


def with_entry(match: Match, entry: str, fn: Any) -> Match:
    """A copy of `match` played from here by its rules with one entry of the table
    replaced by `fn` (the diagnosis's other readings of a rule); None-valued entries
    (a duty besides following) too."""
    key = (id(match.rules), entry, fn)
    if key not in _REPLACED or _REPLACED[key][0] is not match.rules:
        _REPLACED[key] = (match.rules, dataclasses.replace(match.rules, **{entry: fn}))
    copy = match.clone()
    copy.rules = _REPLACED[key][1]
    copy._tables = tables_for(copy.rules)
    _rederive(copy, match, copy.rules)
    return copy


# the rules with one entry replaced, by (id of the rules, entry, function): hashing Rules
# is slow; each value keeps its rules alive
_REPLACED: dict[tuple[int, str, Any], tuple[Rules, Rules]] = {}


# ---- the rule IDs a piece of the engine names ------------------------------------------


def rule_ids(text: str) -> list[str]:
    """The rule IDs a text names, a range written `END-01..END-04` read as every ID in it."""
    return list(_rule_ids(text))


@functools.lru_cache(maxsize=4096)
def _rule_ids(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for token in re.finditer(rf"({RULE_ID.pattern})(?:\.\.({RULE_ID.pattern}))?", text):
        start, end = token.group(1), token.group(2)
        found.append(start)
        prefix, low = start.rsplit("-", 1)
        if end and end.rsplit("-", 1)[0] == prefix:
            found += [f"{prefix}-{n:02d}" for n in range(int(low) + 1,
                                                          int(end.rsplit("-", 1)[1]) + 1)]
    return tuple(found)


@functools.lru_cache(maxsize=1024)
def named_rules(fn: Any) -> tuple[str, ...]:
    """Every rule ID a rule function names, the option's own function first (through
    functools.partial: `own`, `rule`, the wrapped `inner`), each once."""
    found: list[str] = []
    while fn is not None:
        if isinstance(fn, functools.partial):
            rule = fn.keywords.get("rule")
            if isinstance(rule, str):
                found.append(rule)
            own = fn.keywords.get("own")
            if own is not None:
                found += named_rules(own)
            found += rule_ids(getattr(fn.func, "__doc__", "") or "")
            fn = fn.keywords.get("inner")
            continue
        found += rule_ids(getattr(fn, "__doc__", "") or "")
        break
    return tuple(dict.fromkeys(found))


def _own_rules(fn: functools.partial) -> tuple[str, ...]:
    """The rules an option's wrapping function names itself (not the one it wraps)."""
    own = fn.keywords.get("own")
    rule = fn.keywords.get("rule")
    found = [rule] if isinstance(rule, str) else []
    found += named_rules(own) if own is not None else []
    found += rule_ids(getattr(fn.func, "__doc__", "") or "")
    return tuple(dict.fromkeys(found))


@functools.cache
def parameter_rules() -> dict[str, tuple[str, ...]]:
    """The rule IDs the comment of each `Rules` field names (`trick_point: int = 1  #
    PTS-01: ...`), read from the source: the parameters' rules are written once."""
    found: dict[str, tuple[str, ...]] = {}
    for line in inspect.getsource(Rules).splitlines():
        match = re.match(r"\s+(\w+): [^#]*#(.*)$", line)
        if match:
            found[match.group(1)] = tuple(dict.fromkeys(rule_ids(match.group(2))))
    return found


def _refusal_rule(value: Any) -> tuple[str, ...]:
    """A refusal (error code, rule ID, message) names its own rule."""
    if isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, str) for v in value) \
            and RULE_ID.fullmatch(value[1]):
        return (value[1],)
    return ()


def freeze(value: Any) -> Hashable:
    """A hashable form of a decision's arguments."""
    if value is None or type(value) in (int, str, bool):  # most arguments: as they are
        return value
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, Rules | TracedRules):
        return "rules"
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


# ---- the traced rule table ----------------------------------------------------------


class TracedRules:
    """A `Rules` whose functions and scalar parameters report their decisions."""

    def __init__(self, rules: Rules, record: Record) -> None:
        self._rules, self._record = rules, record

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._rules, name)
        if name in FUNCTIONS and callable(value):
            traced = self.__dict__[name] = self._traced(name, value)  # made once per copy
            return traced
        if name in SCALARS:
            return self._record.decide(name, (), value, parameter_rules().get(name, ()))
        return value

    def _traced(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn` reporting its calls as decisions of entry `name`; an option's function
        that wraps another (`inner`) reports the wrapped one's as `name.inner`, so that
        the link that decided is told from the one that passed its decision on."""
        record, rules = self._record, named_rules(fn)
        if isinstance(fn, functools.partial) and callable(fn.keywords.get("inner")):
            fn = functools.partial(fn.func, *fn.args, **{
                **fn.keywords, "inner": self._traced(f"{name}.inner", fn.keywords["inner"])})
            rules = _own_rules(fn) or rules

        always = _always(fn, rules)

        def decide(*args: Any) -> Any:
            return record.call(name, freeze(args), lambda: fn(*args), rules, always)
        return decide


class TracedTables:
    """The suit tables of a `Tables`, each entry read reported as a decision of the rule
    function it was built from; the bidding and declaring lists rebuilt through the traced
    rules (so the checks they run are decisions too)."""

    def __init__(self, tables: Tables, rules: TracedRules, record: Record) -> None:
        self._tables, self._rules, self._record = tables, rules, record
        real = tables.rules
        keys = real.suit_keys
        self.plain_bidding = False
        # built when read: a replay reads the rows of one trump
        # each entry read is the decision of the function the table was built from, on
        # the arguments it was built with (tables.Tables), so its clause can be named
        self.called = _Rows(lambda i: _Lookup(
            tables.called[i], "called_suit", (keys[i],), real.called_suit, record,
            _built_with(keys[i])))
        self.follow = _Rows(lambda i: _Masks(tables.follow[i], (keys[i],), real.follows,
                                             record))
        self.rank = _Rows(lambda i: _Rows(lambda suit: _Lookup(
            tables.rank[i][suit], "trick_rank", (keys[i], suit), real.trick_rank, record,
            _built_with(keys[i], suit))))
        self.counters = _Lookup(tables.counters, "counters", (),
                                parameter_rules().get("counters", ()), record)
        self.bidding_orders = _Lookup(tables.bidding_orders, "bidding_order", (),
                                      real.bidding_order, record)

    def bidding(self, seat: int, state: Any) -> tuple[dict, ...]:
        from .actions import bidding_actions

        return bidding_actions(self._rules, seat, state)  # type: ignore[arg-type]

    def declaring(self, seat: int, contract: Any) -> tuple[dict, ...]:
        from .actions import declaring_actions

        return declaring_actions(self._rules, seat, contract)  # type: ignore[arg-type]


def _built_with(trump: Any, *called: int) -> Callable[[int], tuple]:
    """The arguments a suit table's entry `i` was built from (tables.Tables): the tile,
    the called suit (the rank table), the trump's suit key last."""
    return lambda i: (i, *called, trump)


class _Rows:
    """A table's rows, each made when first read."""

    def __init__(self, make: Callable[[int], Any]) -> None:
        self.make, self.rows = make, {}  # type: ignore[var-annotated]

    def __getitem__(self, index: int) -> Any:
        if index not in self.rows:
            self.rows[index] = self.make(index)
        return self.rows[index]


class _Lookup:
    """A row of a table: `row[i]` is a decision (entry, (*key, i)). With `args` (the
    arguments the row's function `fn` built entry i from), a record that names clauses
    names the clause of `fn` that decided the entry, as a call would."""

    def __init__(self, row: Any, entry: str, key: tuple, fn: Any, record: Record,
                 args: Callable[[int], tuple] | None = None) -> None:
        self.row, self.entry, self.key, self.record = row, entry, key, record
        self.rules = fn if isinstance(fn, tuple) else named_rules(fn)
        self.fn, self.args, self.always = fn, args, _always(fn, self.rules)

    def __getitem__(self, index: int) -> Any:
        key = (*self.key, index)
        clause = _clause(self.record, (self.entry, key), self.fn, self.args(index),
                         self.always) if self.args else ()
        return self.record.decide(self.entry, key, self.row[index], self.rules, clause=clause)

    def __len__(self) -> int:
        return len(self.row)


class _Masks:
    """The follow masks of one trump: `row[called]` is the mask of the tiles that follow;
    each tile's bit is its own decision (`follows`, (trump, called, tile))."""

    def __init__(self, row: Any, key: tuple, fn: Any, record: Record) -> None:
        self.row, self.key, self.record, self.rules = row, key, record, named_rules(fn)
        self.fn, self.always = fn, _always(fn, self.rules)

    def __getitem__(self, called: int) -> int:
        mask = 0
        for tile in range(28):
            bit = bool(self.row[called] >> tile & 1)
            key = (*self.key, called, tile)
            clause = _clause(self.record, ("follows", key), self.fn,
                             (tile, called, self.key[0]), self.always)
            if self.record.decide("follows", key, bit, self.rules, clause=clause):
                mask |= 1 << tile
        return mask

    def __len__(self) -> int:
        return len(self.row)


def _clause(record: Record, decision: tuple[str, Hashable], fn: Any, args: tuple,
            always: tuple[str, ...]) -> tuple[str, ...]:
    """For a record that names clauses and a decision not yet made, the rules of the
    clause of the table's function `fn` that decides it on `args` (deciding_clause) with
    `always`; else ()."""
    if not record.clauses or decision in record.decisions:
        return ()
    return _deciding(_table_clause(fn, args), always)


@functools.lru_cache(maxsize=65536)
def _table_clause(fn: Any, args: tuple) -> tuple[str, ...]:
    """The clause of a suit table's function on `args`, traced once: the function is pure
    (its table was built from it), and tracing is the slow part of a diagnosis."""
    return deciding_clause(lambda: fn(*args))[1]


def _always(fn: Any, rules: tuple[str, ...]) -> tuple[str, ...]:
    """The rules that decide whichever clause gave a value: an option's function's own
    (a partial wrapping the base game's), none for a base function."""
    return rules if isinstance(fn, functools.partial) else ()


def _deciding(clause: tuple[str, ...], always: tuple[str, ...]) -> tuple[str, ...]:
    """A clause's rules and `always`, once each; () when the clause is not known."""
    return tuple(dict.fromkeys((*clause, *always))) if clause else ()


def _suit_key(match: Match) -> Any:
    from .rules import suit_key

    assert match.contract is not None and match.contract.trump is not None
    return suit_key(match.contract.trump, match.contract.treatment)
