"""The cause of a difference, asked of the reference: which one of its decisions, made
otherwise, turns its answer into the engine's (spec/INTERPRETING.md, "How a cause is
found").

The reference replays the step with every decision recorded (reference_impl.why). Each
decision is a suspect. Each is made otherwise, one at a time, over the values it could
take (the other answers of a yes/no, the values its own table holds, the numbers and names
the engine's answer shows), and the step is replayed. A decision whose other values all
leave the answer as far from the engine's, or further, is cleared: the engine agrees with
what it decided, or what it decided does not reach what differs (a wrong team while the
winner seat is right clears the ranking, since a ranking made otherwise moves the winner
too). The suspects that bring the answer nearest the engine's are the cause, named by the
rule IDs their code names; where several do, each is said.

Nothing here knows a rule: the rules come from the code that decided.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from conformance.run.diagnosis.readings import Reading, readings
from conformance.run.matching import diff, same_scalar
from reference_impl import IllegalAction, Match
from reference_impl.rules import BASE_RULES
from reference_impl.tiles import NAMES, SEATS, TEAMS
from reference_impl.why import Decision, Record, traced, with_entry

# The JSON names of the engine's answer read as the reference's numbers (a seat, a team, a
# tile), so that a value it shows can be offered to a decision that makes it.
NUMBERS = {**{name: i for i, name in enumerate(SEATS)}, **{n: i for i, n in enumerate(TEAMS)},
           **{name: i for i, name in enumerate(NAMES)}}
# a step with more suspects than this is answered in part; a count, not a time, so that a
# run's causes are the same on a loaded machine
BUDGET_REPLAYS = 4000


@dataclass(frozen=True)
class Suspect:
    """A decision that, made `value` instead, brings the reference's answer to `distance`
    differences from the engine's."""

    decision: Decision
    value: Any
    distance: int
    reading: Reading | None = None  # a rule read otherwise (readings.yaml), not one decision

    @property
    def rules(self) -> tuple[str, ...]:
        return self.decision.rules

    def answer(self, before: Match, step: Step) -> Any:
        """The reference's answer to `step` with this suspect's decision made its way."""
        if self.reading is not None:
            return answer(with_entry(before, self.reading.entry, self.reading.function), step,
                          Record())
        return answer(before, step, Record(overrides={self.decision.id: self.value}))


Step = Callable[[Match], Any]  # plays the step on a (traced) match; returns its answer


def answer(before: Match, step: Step, record: Record) -> Any:
    """The answer of `step` from `before` with decisions recorded: what the step returns,
    or the refusal's code."""
    match = traced(before, record)
    try:
        return step(match)
    except IllegalAction as error:
        return {"refused": error.code}


def distance(ours: Any, theirs: Any) -> int:
    """How many values of two answers differ: len(matching.diff(ours, theirs, "",
    partial=False)), counted without building the differences (a replay's hot path)."""
    return _count(ours, theirs, False)


def _count(ours: Any, theirs: Any, hand: bool) -> int:
    if ours is theirs:
        return 0
    if isinstance(ours, dict):
        if not isinstance(theirs, dict):
            return 1
        n = sum(1 for key in theirs if key not in ours)
        for key, value in ours.items():
            n += _count(value, theirs[key], hand or str(key).startswith("hand")) \
                if key in theirs else 1
        return n
    if isinstance(ours, list):
        if not isinstance(theirs, list) or len(ours) != len(theirs):
            return 1
        if hand and ours != theirs and all(isinstance(t, str) for t in [*ours, *theirs]):
            return 1  # a hand: one difference, as matching.diff counts it
        return sum(_count(one, other, hand) for one, other in zip(ours, theirs, strict=True))
    return 0 if same_scalar(ours, theirs) else 1


@dataclass(frozen=True)
class Verdict:
    """The suspects of a difference, and every rule the step's decisions name: a rule
    named there and not among the suspects is cleared; a rule not named there was not
    seen by the record (a decision the reference makes outside its rule table)."""

    suspects: list[Suspect]
    seen: tuple[str, ...]  # the last decision's rules first (the nearest the answer)

    def clears(self, rule: str) -> bool:
        return rule in self.seen and not self.names(rule)

    def names(self, rule: str) -> bool:
        """A suspect's deciding clause names `rule` (for a decision whose clause is not
        known, any rule its code names)."""
        return any(rule in (s.decision.deciding or s.rules) for s in self.suspects)


def suspects(before: Match, step: Step, theirs: Any,
             agreed: list[tuple[Match, Step]] = ()) -> Verdict:  # type: ignore[assignment]
    """The decisions of `step` that, made otherwise, turn the reference's answer into the
    engine's (`theirs`): every one that does (_suspects), the last made first (the
    nearest the answer: a ranking feeds the winner, which feeds the points); [] when the
    answers agree or no decision explains them. A suspect that, made otherwise in
    one of the `agreed` steps (earlier steps where the engine answered as the reference),
    would have changed that answer is cleared, unless every suspect is."""
    found = [*_readings(before, step, theirs), *_suspects(before, step, theirs)]
    if len(found) < 2:
        return Verdict(found, _seen(before, step))
    cleared: set[Any] = set()
    for earlier, play in agreed:
        record = Record()
        ours = answer(earlier, play, record)
        for suspect in found:
            if (suspect.reading or suspect.decision.id in record.decisions) and \
                    _contradicted(suspect, earlier, play, ours):
                cleared.add(suspect.decision.id)
    kept = [s for s in found if s.decision.id not in cleared]
    return Verdict(kept or found, _seen(before, step))


def _seen(before: Match, step: Step) -> tuple[str, ...]:
    """Every rule the decisions of a step name, the last decision's first."""
    record = Record()
    answer(before, step, record)
    return tuple(dict.fromkeys(r for d in reversed(record.decisions.values()) for r in d.rules))


def _contradicted(suspect: Suspect, before: Match, step: Step, ours: Any) -> bool:
    """Had the suspect's decision gone its way in this earlier step, the reference would
    have answered otherwise there (`ours`), where the engine agreed with it."""
    try:
        other = suspect.answer(before, step)
    except Exception:  # noqa: BLE001 - a value the engine's code cannot take
        return False
    return distance(ours, other) > 0


def _readings(before: Match, step: Step, theirs: Any) -> list[Suspect]:
    """The other readings of a rule (readings.yaml) under which the reference answers as
    the engine did, each where the rule in force is the base game's reading of it."""
    ours = answer(before, step, Record())
    if distance(ours, theirs) == 0:
        return []
    found = []
    for reading in readings():
        if getattr(before.rules, reading.entry) is not getattr(BASE_RULES, reading.entry):
            continue
        decision = Decision("reading", (reading.entry, reading.as_if), None, (reading.rule,))
        suspect = Suspect(decision, None, 0, reading)
        try:
            if distance(suspect.answer(before, step), theirs) == 0:
                found.append(suspect)
        except Exception:  # noqa: BLE001 - a reading this position cannot take
            continue
    return found


def _suspects(before: Match, step: Step, theirs: Any) -> list[Suspect]:
    """The decisions that explain the engine's answer whole: one decision made otherwise,
    and every decision of one entry of the rule table made otherwise together (a range
    check asked once per bid); [] when none does (the difference lies where the record
    cannot see: an earlier step's hidden state, code outside the rule table)."""
    record = Record(clauses=True)
    ours = answer(before, step, record)
    start = distance(ours, theirs)
    if start == 0:
        return []
    hints = _hints(ours, theirs)
    found: list[Suspect] = []
    replays = 0
    for decision in reversed(list(record.decisions.values())):
        for value in _values(decision, hints, ours, theirs):
            replays += 1
            if replays > BUDGET_REPLAYS:
                break
            try:
                other = answer(before, step, Record(overrides={decision.id: value}))
            except Exception:  # noqa: BLE001 - a value the engine's code cannot take
                continue
            away = distance(other, theirs)
            if away < start:
                found.append(Suspect(decision, value, away))
    # one decision made otherwise, and one entry's decisions made otherwise together (a
    # check asked once per bid): each a single cause in an engine's code, so both count
    whole = _nearest([s for s in found if s.distance == 0])
    ids = {s.decision.id for s in whole}
    return whole + [s for s in _together(before, step, theirs, found)
                    if s.decision.id not in ids]


def _together(before: Match, step: Step, theirs: Any, found: list[Suspect]) -> list[Suspect]:
    """The entries whose decisions, each made its nearest other way, together explain the
    engine's answer whole: one suspect per entry (its first decision), at distance 0."""
    best: dict[tuple[str, Any], Suspect] = {}
    for suspect in found:
        mine = best.get(suspect.decision.id)
        if mine is None or suspect.distance < mine.distance:
            best[suspect.decision.id] = suspect
    entries: dict[str, list[Suspect]] = {}
    for suspect in best.values():
        entries.setdefault(suspect.decision.entry, []).append(suspect)
    whole = []
    for suspects in entries.values():
        if len(suspects) < 2:
            continue
        overrides = {s.decision.id: s.value for s in suspects}
        try:
            other = answer(before, step, Record(overrides=overrides))
        except Exception:  # noqa: BLE001 - values the engine's code cannot take together
            continue
        if distance(other, theirs) == 0:
            whole.append(suspects[0])
    return whole


def _nearest(found: list[Suspect]) -> list[Suspect]:
    """The suspects at the least distance, one per decision, in the order found."""
    if not found:
        return []
    least = min(s.distance for s in found)
    seen: dict[Any, Suspect] = {}
    for suspect in found:
        if suspect.distance == least:
            seen.setdefault(suspect.decision.id, suspect)
    # a decision that passed on another suspect's unchanged comes after it: both fit (the
    # option's wrapper or the base game's function it wraps), the run tells them apart;
    # so does one whose value, made otherwise, differs only where it copies an argument
    # (a contract's bid is the last marks bid it is given: the bid's marks decided it)
    return sorted(seen.values(), key=lambda s: (bool(set(s.decision.delegates) & set(seen)),
                                                _copies_argument(s)))


def _copies_argument(suspect: Suspect) -> bool:
    """The suspect's value, a record of several parts, differs from the reference's only
    in parts the reference took whole from the decision's arguments (its key's items)."""
    ours, key = suspect.decision.value, suspect.decision.key
    items = key if isinstance(key, tuple) else (key,)

    def given(part: Any) -> bool:
        return any(type(part) is type(item) and part == item for item in items)

    theirs = suspect.value
    if isinstance(ours, tuple) and isinstance(theirs, tuple) and len(ours) == len(theirs):
        changed = [mine for mine, other in zip(ours, theirs, strict=True) if mine != other]
        return bool(changed) and all(given(part) for part in changed)
    return False  # a number equal to an argument is as often a coincidence (0 + 4 is 4)


# ---- the values a decision could have taken --------------------------------------------


def _values(decision: Decision, hints: list[Any], ours: Any, theirs: Any) -> Iterator[Any]:
    """The other values of a decision, each once: of its own kind, from its neighbours
    and from what the engine's answer shows."""
    seen: list[Any] = [decision.value]
    for value in _others(decision.value, hints, _deltas(ours, theirs)):
        if not any(type(value) is type(s) and value == s for s in seen):
            seen.append(value)
            yield value


def _others(value: Any, hints: list[Any], deltas: list[int]) -> Iterator[Any]:
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield from (value + d for d in deltas)
        yield from (value - 1, value + 1)
        yield from (h for h in hints if type(h) is int)
        if 0 <= value <= 3:
            yield from range(4)
        yield None  # no one: a winner not yet, a seat that sits no one out
    elif value is None:
        yield from (h for h in hints if isinstance(h, str))
        yield ("REFUSED", "", "")  # a check that refuses here
        # with the code the engine shows
        yield from ((h, "", "") for h in hints if isinstance(h, str) and h.isupper())
    elif isinstance(value, str):
        yield from (h for h in hints if isinstance(h, str))
        yield None
    elif refusal(value) is not None:
        yield None  # a check that accepts here
        yield from ((h, value[1], value[2]) for h in hints if isinstance(h, str) and h.isupper())
    elif isinstance(value, tuple | list):
        yield from _sequences(value, hints, deltas)


def _sequences(value: tuple[Any, ...] | list[Any], hints: list[Any], deltas: list[int]
               ) -> Iterator[Any]:
    """A tuple or list with one item made otherwise (a contract's team, a score's gains),
    reordered (a hand, the seats of the bidding), or as the engine shows it."""
    make = value._make if hasattr(value, "_make") else type(value)
    for i, item in enumerate(value):
        if isinstance(item, tuple | list) and not hasattr(item, "_make"):
            for other in _sequences(item, hints, deltas):
                yield make([*value[:i], other, *value[i + 1:]])
            continue
        if isinstance(item, tuple | list):
            continue
        for other in itertools.islice(_others(item, hints, deltas), 12):
            yield make([*value[:i], other, *value[i + 1:]])
    for hint in hints:
        if isinstance(hint, list) and sorted(map(repr, hint)) == sorted(map(repr, value)):
            yield make(hint)
    if len(value) <= 4 and all(type(v) is int for v in value):
        for turn in range(1, len(value)):
            yield make([*value[turn:], *value[:turn]])


def refusal(value: Any) -> tuple[str, str, str] | None:
    """A check's decision that refuses: (code, rule, message); None for one that passes."""
    return value if isinstance(value, tuple) and len(value) == 3 and all(
        isinstance(v, str) for v in value) else None


def _hints(ours: Any, theirs: Any) -> list[Any]:
    """What the engine shows where the answers differ (each differing value, and the
    list or object that holds it), each once."""
    found: dict[str, Any] = {}
    for d in diff(ours, theirs, "", partial=False):
        parent = d.path.rsplit("[", 1)[0] if d.path.endswith("]") else d.path.rsplit(".", 1)[0]
        for value in (_at(theirs, parent), d.actual):
            for shown in _shown(value):
                found.setdefault(repr(shown), shown)
    return list(found.values())


def _at(value: Any, path: str) -> Any:
    """The value at a path of `diff` (`.hands.A[2]`), or None."""
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        try:
            value = value[int(part[1:-1])] if part.startswith("[") else value[part]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return value


def _shown(theirs: Any) -> Iterator[Any]:
    """The values the engine's answer shows, read as the reference's numbers where they
    name a seat, a team or a tile (lists too: a hand in the engine's order)."""
    if isinstance(theirs, dict):
        for value in theirs.values():
            yield from _shown(value)
    elif isinstance(theirs, list):
        if theirs and all(isinstance(v, str) and v in NUMBERS for v in theirs):
            yield [NUMBERS[v] for v in theirs]
        for value in theirs:
            yield from _shown(value)
    elif isinstance(theirs, str):
        yield NUMBERS.get(theirs, theirs)
        yield theirs
    elif theirs is not None and not isinstance(theirs, float):
        yield theirs


def _deltas(ours: Any, theirs: Any) -> list[int]:
    """By how much each number the engine shows differs from the reference's."""
    found = []
    for d in diff(ours, theirs, "", partial=False):
        if type(d.expected) is int and type(d.actual) is int:
            found.append(d.actual - d.expected)
    return list(dict.fromkeys(found))
