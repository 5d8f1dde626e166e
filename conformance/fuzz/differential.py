"""Differential fuzzing: random matches played through an implementation and the reference
engine side by side, compared after every step.

The corpus pins down the cases someone thought of; this finds the ones nobody did. Each
game is a seeded random match: the reference engine proposes the actions (mostly legal,
some deliberately illegal), both implementations receive the same action, and each
difference (accepted or rejected, the error code, the referee view, a seat observation,
the legal actions) is judged at its level of spec/levels.yaml, as `t42 run` judges it. A
game goes on past a difference that leaves the states comparable (a wrong code, an
observation or legal list while the referee views agree) and stops where the referee
states differ. `save.diagnose` files each divergence under its cause, `shrink.py` cuts
one per cause down to a minimal case and `save.py` writes it as a scenario.

Speed: a snapshot is compared by equality (with its types when a round ends), and diffed
only on a mismatch. A campaign's game is a sparse duel (`Duel._reads`): the view at a
random share of the steps and at each round's end, an observation at some of those, the
legal actions at every other step, all sent to a JSON-lines implementation in one write
when the game ends (`ProcessAdapter.pipeline`), the reference's reads as the JSON text
`t42 serve` writes (`texts.py`), so that a reply equal to it is not decoded. A game that
differs is played again densely: the view after every step, one seat's observation per
step in turn (all four when a round ends). A shrink replays with every observation and
the legal actions after every step (`thorough`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from conformance.adapters.inprocess import harnessed
from conformance.adapters.protocol import (
    Adapter,
    Encoded,
    Exact,
    Harnessed,
    Rejected,
    expected_value,
    same_json,
)
from conformance.fuzz.options import invalid_setup, vary
from conformance.run.matching import Difference, diff, diff_sets
from reference_impl.errors import IllegalAction
from reference_impl.match import BIDDING, DECLARING, MATCH_OVER, PLAYING, ROUND_OVER
from reference_impl.rules import COUNTERS, TRUMP_CHOICES
from reference_impl.tiles import NAMES, SEATS, TEAMS
from reference_impl.variants import CHOICE_ORDER, NELLO_SUITS, OPTIONS, rules_for

TILES = list(NAMES)  # the 28 tiles in the sorted order (0|0, 0|1, ... 6|6)
LEVELS = ("rules", "codes", "strict")
DEALS = ("hands", "order")
_OVER = (ROUND_OVER, MATCH_OVER)
# A campaign's games read the other implementation's view after a random share of the
# steps (READ_SHARE, drawn from the game's seed apart from its moves) and at each round's
# end, and are played again with the reads of every step only where they differ.
READ_SHARE = 0.25
# A sparse duel sends a game's steps in one pipeline when the game ends, or at a round's
# end once more than this many are queued.
QUEUED = 100


@dataclass
class Case:
    """A game as scenario data: the setup (it may hold the `contract` shortcut of
    scenario-format.md) and the steps, each `{"act": action}` or `{"deal": deal}`."""

    setup: dict[str, Any]
    steps: list[dict[str, Any]]

    def expanded(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The setup to send and every step, the shortcut's steps first."""
        if "contract" not in self.setup:
            return self.setup, self.steps
        from conformance.corpus.scenario import expand_contract

        setup = {k: v for k, v in self.setup.items() if k != "contract"}
        prefix = [{"act": s.payload} for s in expand_contract(setup, self.setup["contract"], 0)]
        return setup, prefix + self.steps


@dataclass
class Finding:
    """What differed at one step."""

    where: str
    signature: frozenset[str]  # what shrinking must keep: outcome codes, differing fields
    differences: list[Difference] = field(default_factory=list)
    reference_code: str | None = None  # the reference's rejection code at that step
    # the states stay comparable after it (a different code on a rejection that changed
    # nothing, an observation or legal list while the referee views agree): the game
    # goes on, as `t42 run` goes on in a scenario
    comparable: bool = False
    judged: bool = True  # False: every difference is of a check above the level


@dataclass
class Divergence:
    seed: int
    case: Case  # the steps up to and including the diverging one
    finding: Finding
    original_steps: int = 0  # steps before shrinking
    shrunk: bool = False

    @property
    def where(self) -> str:
        return self.finding.where

    @property
    def differences(self) -> list[Difference]:
        return self.finding.differences

    @property
    def steps(self) -> list[dict[str, Any]]:
        return self.case.steps

    @property
    def setup(self) -> dict[str, Any]:
        return self.case.setup

    def render(self) -> str:
        import yaml

        lines = [f"game seed {self.seed}: {self.where}"]
        lines += [f"  {d.render()}" for d in self.differences[:10]]
        if self.shrunk:
            lines.append(f"  shrunk from {self.original_steps} steps to {len(self.steps)}")
        skeleton = {"setup": self.setup, "steps": self.steps}
        lines.append("  reproduce (scenario skeleton; check expectations against the spec):")
        text = yaml.safe_dump(skeleton, sort_keys=False, default_flow_style=None, width=100)
        lines += ["    " + line for line in text.splitlines()]
        return "\n".join(lines)


# --- random games --------------------------------------------------------------------


RICH = 0.2  # the share of deals with a hand of 3 to 7 doubles


def random_deal(rng: random.Random, deal: str = "hands") -> dict[str, Any]:
    """A shuffled deal as `hands` (every engine takes them) or as an `order` (DEAL-02).
    One deal in five gives one hand 3 to 7 doubles: a shuffle gives a hand four doubles
    about one deal in six, so the plunge, the splash and their declared forms (PLUNGE-02,
    SPLASH-02, PTERMS-07), which need them, would come up too seldom to be tested."""
    order = TILES[:]
    rng.shuffle(order)
    if rng.random() < RICH:
        _gather_doubles(rng, order, 7 * rng.randrange(4), rng.randint(3, 7))
    if deal == "order":
        return {"order": order}
    return {"hands": {seat: order[7 * i: 7 * i + 7] for i, seat in enumerate(SEATS)}}


def _gather_doubles(rng: random.Random, order: list[str], start: int, count: int) -> None:
    """Swap doubles into order[start:start + 7] (one hand, whichever seat it goes to)
    until it holds `count` of them."""
    inside = range(start, start + 7)
    while sum(_double(order[i]) for i in inside) < count:
        mine = rng.choice([i for i in inside if not _double(order[i])])
        theirs = rng.choice([i for i in range(28) if i not in inside and _double(order[i])])
        order[mine], order[theirs] = order[theirs], order[mine]


def _double(tile: str) -> bool:
    return tile[0] == tile[2]


def random_draws(rng: random.Random) -> list[dict[str, str]]:
    """DRAW-04: rounds of draws, the seats tied for the highest total drawing again."""
    seats, draws = list(SEATS), []
    while True:
        tiles = rng.sample(TILES, len(seats))
        draw = dict(zip(seats, tiles, strict=True))
        draws.append(draw)
        totals = {s: sum(map(int, t.split("|"))) for s, t in draw.items()}
        top = max(totals.values())
        seats = [s for s in seats if totals[s] == top]
        if len(seats) == 1:
            return draws


def random_setup(rng: random.Random, deal: str, variants: dict[str, Any] | None,
                 limits: Any = None) -> dict[str, Any]:
    """A setup the reference accepts: a dealer (or, with deal_by_drawing, draws half the
    time), the deal, now and then starting marks, and the options with their values
    varied (options.vary)."""

    chosen = vary(rng, variants, limits) if variants else None  # limits: partial support
    setup: dict[str, Any] = {"dealer": rng.choice(SEATS)}
    setup.update(random_deal(rng, deal))
    if rng.random() < 0.3:  # starting marks (SCORE-03): matches that end within the game
        top = _target(chosen) - 1
        setup["marks"] = {team: rng.randint(max(0, top - 2), top) for team in TEAMS}
    if chosen:
        if "deal_by_drawing" in chosen and rng.random() < 0.5:
            del setup["dealer"]
            setup = {"draws": random_draws(rng), **setup}
        setup["variants"] = chosen
    return setup


PHASE_KINDS = {BIDDING: ("bid", "pass"), DECLARING: ("trump",), PLAYING: ("play",)}


def _target(variants: dict[str, Any] | None) -> int:
    """What a team needs to win the match, as the engine's Rules say: MATCH-01, the
    match_marks target (TARGET-02) or the match_points target (MPTS-08; TARGET-03: it
    wins over match_marks). Options the reference refuses (a setup sent to be refused,
    VAR-01) play for the base game's."""
    try:
        return rules_for(variants or {}).marks_target
    except IllegalAction:
        return rules_for({}).marks_target


def illegal_candidate(rng: random.Random, view: Mapping[str, Any] | None = None,
                      legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A plausible action that is often illegal: half the time from the seat to act and
    of the phase's kind (a tile of its own hand, a bid out of range, a plunge or a
    splash, stacks on a point contract, a legal declaration of `legal` with its stacks
    taken away or added), else any seat, any tile, any bid."""
    # the view when the action is aimed at the seat to act, else None
    aimed = view if view is not None and view.get("to_act") and rng.random() < 0.5 else None
    seat = aimed["to_act"] if aimed else rng.choice(SEATS)
    kinds = PHASE_KINDS.get(aimed["phase"], ()) if aimed else ()
    kind = rng.choice(kinds or ("play", "play", "bid", "pass", "trump"))
    if kind == "play":
        hand = aimed["hands"].get(seat) if aimed else None
        return {"type": "play", "seat": seat, "tile": rng.choice(hand or TILES)}
    if kind == "bid":
        special = rng.random()
        if special < 0.1:  # a plunge or a splash: out of turn, without its doubles, or
            # without its option (a field that is then malformed, actions.md); a splash
            # may carry marks (SPLASH-06), malformed where it is `true`
            name = rng.choice(("plunge", "splash"))
            return {"type": "bid", "seat": seat,
                    name: True if name == "plunge" or special < 0.05 else _number(rng, 1, 4)}
        if special < 0.55:
            return {"type": "bid", "seat": seat, "points": _number(rng, 28, 43)}
        if special < 0.65:  # a bid announcing a choice (NELLO-14), or malformed without it
            return {"type": "bid", "seat": seat, rng.choice(("points", "marks")):
                    _number(rng, 1, 42), rng.choice(ANNOUNCED): True}
        return {"type": "bid", "seat": seat, "marks": _number(rng, 0, 6)}
    if kind == "pass":
        return {"type": "pass", "seat": seat}
    declarations = [a for a in legal or () if a["type"] == "trump"] if aimed else []
    if declarations and rng.random() < 0.5:  # a trump it may declare, one kind in two
        declaration = dict(rng.choice(_by_kind(rng, declarations)))
        if rng.random() < 0.3:
            return _toggle_doubles(rng, declaration)
        return _toggle_stacks(rng, declaration)
    action = {"type": "trump", "seat": seat, "trump": rng.choice(TRUMPS)}
    if rng.random() < 0.5:
        action["stacks"] = _number(rng, 0, 3)
    return action


def _toggle_stacks(rng: random.Random, action: dict[str, Any]) -> dict[str, Any]:
    """The declaration without its stacks, or with stacks it did not have (CON-02,
    PTERMS-07: a declared plunge has none)."""
    if "stacks" in action:
        del action["stacks"]
    else:
        action["stacks"] = _number(rng, 0, 3)
    return action


# The choices a bid may announce (NELLO-14), read from the option that adds them.
ANNOUNCED = tuple({choice for name, option in OPTIONS.items() for key, setting in
                   option.settings.items() if key == "announce"
                   for value in setting.values
                   for choice in rules_for({name: {key: value}}).bid_announces})
# The doubles a declaration may name (NELLO-13, NOTRUMP-05), and a value no option lists.
DOUBLES_NAMED = (*NELLO_SUITS, "middle")


def _toggle_doubles(rng: random.Random, action: dict[str, Any]) -> dict[str, Any]:
    """The declaration without the doubles it names, or naming doubles it did not, or
    other ones (NELLO-13, NOTRUMP-05: DOUBLES_REQUIRED, DOUBLES_INVALID; VAR-04: a
    `doubles` field without the setting is malformed)."""
    if "doubles" in action and rng.random() < 0.5:
        del action["doubles"]
    else:
        action["doubles"] = rng.choice(DOUBLES_NAMED)
    return action


# Every trump a declaration may name, in the base game or under an option (actions.md),
# and 7, a number that is none (CON-01): the numbers, then the base game's other choices,
# the alias follow_me (FOLLOWME-02), the options' choices.
_NUMBERS = [t for t in TRUMP_CHOICES if isinstance(t, int)]
TRUMPS = [*_NUMBERS, max(_NUMBERS) + 1, *(t for t in TRUMP_CHOICES if isinstance(t, str)),
          *(alias for alias, _ in rules_for({"follow_me": True}).trump_aliases),
          *CHOICE_ORDER]


def _number(rng: random.Random, low: int, high: int) -> int | bool:
    """An integer in range, or now and then a boolean, which is not one (DIG-01)."""
    return rng.choice((True, False)) if rng.random() < 0.05 else rng.randint(low, high)


COUNTS = dict(COUNTERS)  # PTS-02


def legal_choice(rng: random.Random, legal: list[dict[str, Any]],
                 counters_first: bool = False, bold: bool = False) -> dict[str, Any]:
    """A legal action: first a kind (pass, point bid, marks bid, plunge, ...), then one of
    that kind, a pass half the time, so that four-pass rounds and forced dealers come up
    (a uniform choice over some fifteen bids almost never passes four times).
    `counters_first`: a play is most often the seat's biggest counter, so that rounds are
    decided in the first tricks (END-01, END-02 early). `bold`: a bid is most often the
    highest marks bid, so that the bidding reaches 3 and 4 marks (BID-06), where a
    declared plunge may need it (PTERMS-07)."""
    if counters_first and legal and legal[0]["type"] == "play" and rng.random() < 0.8:
        top = max(COUNTS.get(a["tile"], 0) for a in legal)
        return dict(rng.choice([a for a in legal if COUNTS.get(a["tile"], 0) == top]))
    if bold and rng.random() < 0.7:
        marks = [a for a in legal if "marks" in a and not _special(a)]
        if marks:
            return dict(max(marks, key=lambda a: a["marks"]))
    return dict(rng.choice(_by_kind(rng, legal)))


def _special(action: dict[str, Any]) -> bool:
    return "plunge" in action or "splash" in action


def _by_kind(rng: random.Random, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions of one kind, the kind chosen uniformly; a pass half the time (a
    four-pass round: 1 in 16). A plunge, bid or declared, is a kind of its own."""
    if legal and all(action.keys() == _PLAY_KEYS for action in legal):  # plays only
        rng.choice(_PLAY_ONLY)  # the one kind, drawn as below: the same games
        return legal
    kinds, special = _kinds(legal)
    # a hand that may bid a plunge or a splash does so one time in two: else a won plunge
    # whose partner declares (NELLO-12) comes up once in some 300 games
    if special and rng.random() < 0.5:
        return kinds[rng.choice(special)]
    if "pass" in kinds and rng.random() < 0.5:
        return kinds["pass"][:1]
    return kinds[rng.choice(sorted(kinds))]


_PLAY_KEYS = frozenset({"type", "seat", "tile"})
_PLAY_ONLY = ["play"]  # the sorted kinds of a list of plays
Kinds = tuple[dict[str, list[dict[str, Any]]], list[str]]
# _kinds of the legal lists met, by the identities of their actions: the reference's
# legal actions are shared objects, never changed (Match.legal_actions), and each entry
# keeps its actions, so an identity is not reused while it is here
_KINDS: dict[tuple[int, ...], tuple[list[dict[str, Any]], Kinds]] = {}


def _kinds(legal: list[dict[str, Any]]) -> Kinds:
    """The actions by kind, and the kinds of special bids, sorted (`_by_kind`)."""
    key = tuple(map(id, legal))
    known = _KINDS.get(key)
    if known is not None:
        return known[1]
    kinds: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        kinds.setdefault(_kind(action), []).append(action)
    special = sorted(k for k in kinds if k.startswith("bid") and ("plunge" in k or "splash" in k))
    if len(_KINDS) >= 4096:  # pragma: no cover - a few hundred lists in a campaign
        _KINDS.clear()
    _KINDS[key] = (list(legal), (kinds, special))
    return kinds, special


def _kind(action: dict[str, Any]) -> str:
    """An action's kind for `_by_kind`: its type, the bid's fields (points, marks,
    plunge, splash) and `plunge` for a declared plunge. A play (most of a round's
    actions) is only its type: none of those fields, no trump."""
    if action.keys() == _PLAY_KEYS:
        return str(action["type"])
    kind = action["type"] + "".join(k for k in ("points", "marks", "plunge", "splash")
                                    if k in action)
    return str(kind) + ("plunge" if action.get("trump") == "plunge" else "")


# --- comparing two implementations ---------------------------------------------------


_FLAT = frozenset({str, int, bool})  # the types of an action's fields (`_copy`)


def _copy(payload: Any) -> Any:
    """A copy an in-process implementation may keep or change: actions are flat."""
    if isinstance(payload, dict) and _FLAT.issuperset(map(type, payload.values())):
        return dict(payload)
    return json.loads(json.dumps(payload))


def _public(value: Any) -> Any:
    """Drop an implementation's own top-level `x_` fields (observation.md allows them)."""
    if isinstance(value, dict) and any(k.startswith("x_") for k in value):
        return {k: v for k, v in value.items() if not k.startswith("x_")}
    return value


def _own_fields(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if k.startswith("x_")}


def _field(path: str) -> str:
    """A difference's field for signatures: `view.hands.A[2]` -> `view.hands`,
    `observe.B.captured[0]` -> `observe.captured`."""
    parts = path.replace("[", ".[").split(".")
    if parts[0] == "observe" and len(parts) > 1:
        parts = [parts[0], *parts[2:]]
    return ".".join(p for p in parts[:2] if not p.startswith("["))


def probe(adapter: Harnessed, kind: str, payload: Any, reads: list[tuple[str, ...]],
          expected: list[Any] | None = None) -> tuple[str | None, list[Any]]:
    """Send one setup, deal or act, then the reads (`("view",)`, `("observe", seat)`,
    `("legal",)`): the rejection code (None: accepted) and what each read returned. A
    JSON-lines adapter gets them all in one write (`Harnessed.pipeline`; protocol.md:
    replies come in order). `expected`: the reads' expected values, if any."""
    fields = {"setup": "setup", "deal": "deal", "act": "action"}
    requests = [(kind, {fields[kind]: payload})]
    requests += [(r[0], {"seat": r[1]} if r[0] == "observe" else {}) for r in reads]
    replies = adapter.pipeline(requests, None if expected is None else [None, *expected])
    first = replies[0]
    return (first.code if isinstance(first, Rejected) else None), replies[1:]


def _describe(kind: str, payload: Any) -> str:
    """A step in a few words: `play C 3|6`, `bid B 30`, `deal`, `setup`."""
    if kind != "act" or not isinstance(payload, dict):
        return kind
    words = [str(payload.get(k)) for k in ("type", "seat") if k in payload]
    words += [f"{k}={payload[k]}" if k != "tile" else str(payload[k])
              for k in payload if k not in ("type", "seat")]
    return " ".join(words) or "act"


def _levels() -> Any:
    from conformance.specdata.index import load_index

    return load_index().levels


def _codes() -> Any:
    from conformance.specdata.index import load_index

    return load_index().codes


def _read(adapter: Any, read: tuple[str, ...]) -> Any:
    if read[0] == "observe":
        return adapter.observe(read[1])
    return getattr(adapter, read[0])()


_ORACLE_STEPS = {"setup": "start", "deal": "deal", "act": "act"}  # a step's adapter method


class Duel:
    """The reference engine and an implementation, sent the same steps and compared."""

    def __init__(self, other: Adapter | Harnessed, level: str = "strict",
                 thorough: bool = False, sparse: bool = False):
        from conformance.adapters.reference import ReferenceAdapter

        self.oracle = ReferenceAdapter()
        self.other = harnessed(other)
        self.level = level
        self.levels = _levels()
        self.thorough = thorough
        self.sparse = sparse and not thorough
        self.legal = "legal" in self.other.capabilities
        self.count = 0
        self._spots = random.Random(0)  # which steps a sparse duel reads (begin)
        self._seen: dict[tuple[str, ...], Any] = {}  # the reference's reads of this state
        # a JSON-lines implementation's replies are compared first by their text (texts.py)
        self._texts = not self.other.in_process
        self._dense: Duel | None = None
        # sparse: the steps not yet sent, each with its outcome, reads and expected values
        self._queue: list[tuple[str, Any, str | None, list[tuple[str, ...]], list[Any]]] = []

    def dense(self) -> Duel:
        """The same duel reading what a campaign reads after every step (a sparse duel's
        game replayed where it found a difference)."""
        if self._dense is None:
            self._dense = Duel(self.other, self.level)
        return self._dense

    def phase(self) -> str | None:
        """The reference's phase now (None: no match), without building its view."""
        match = self.oracle.match
        return None if match is None else str(match.phase)

    def _reads(self, phase: str | None) -> list[tuple[str, ...]]:
        """What to read after a step. Thorough: everything. A campaign: the view, then
        on even steps one seat's observation (each seat every 8 steps) and on odd steps
        the legal actions; all four observations when a round ends. Sparse: the legal
        actions as a campaign reads them (cheap), the campaign's view and observation at
        a random share of the steps (READ_SHARE: a difference that shows for a few steps
        is met in some games, whichever steps those are), and at a round's end the view
        and one seat's observation, in turn (a leak at one seat's end shows at one round
        end in four). A game of a sparse duel that finds a difference is replayed with
        the campaign's reads (`play`), a superset of these at every step, so a difference
        it finds is found at the same step, with the same reads, as without."""
        if phase is None:
            return []
        if self.sparse and phase not in _OVER and self._spots.random() >= READ_SHARE:
            return ([("legal",)] if self.legal and self.count % 2 else [])
        reads: list[tuple[str, ...]] = [("view",)]
        if self.sparse and phase in _OVER:
            reads.append(("observe", SEATS[self.count % 4]))
        elif self.thorough or phase in _OVER:
            reads += [("observe", s) for s in SEATS]
        elif self.count % 2 == 0:
            reads.append(("observe", SEATS[(self.count // 2) % 4]))
        if self.legal and phase not in _OVER and (self.thorough or self.count % 2):
            reads.append(("legal",))
        return reads

    def _oracle_read(self, read: tuple[str, ...]) -> Any:
        """The reference's value; reused while its state has not changed (a step that
        changes it empties `_seen`)."""
        if read not in self._seen:
            self._seen[read] = _read(self.oracle, read)
        return self._seen[read]

    def _oracle_text(self, read: tuple[str, ...]) -> str:
        """The reference's value as `t42 serve` writes it (texts.py), reused as
        `_oracle_read`'s."""
        key = ("text", *read)
        if key not in self._seen:
            from conformance.adapters.texts import text

            self._seen[key] = text(self.oracle.match, read)
        written: str = self._seen[key]
        return written

    @staticmethod
    def _differs(expected: Any, value: Any, typed: bool) -> bool:
        if value != expected:
            return True
        return typed and not same_json(value, expected)

    def send(self, kind: str, payload: Any) -> Finding | None:
        """One step on both; what differed (`where` names the step), or None."""
        found = self._send(kind, payload)
        if found:
            found.where = f"{_describe(kind, payload)}: {found.where}"
        return found

    def _send(self, kind: str, payload: Any) -> Finding | None:
        self.count += 1
        try:
            getattr(self.oracle, _ORACLE_STEPS[kind])(payload)
            want = None
        except Rejected as refusal:
            want = refusal.code
        changed = want is None
        if changed:
            self._seen.clear()
        phase = self.phase()
        running = phase is not None
        reads = self._reads(phase)
        # what the implementation's reads are compared with: an in-process one may hand
        # back the expected value itself when equal (with its types, when a typed
        # comparison is due: `==` takes true for 1), a JSON-lines one skips the form
        # check of a reply equal to it (protocol.Harnessed.pipeline)
        typed = self._typed(phase)
        queued = self.sparse and kind != "setup"  # sent when the game ends (`finish`)
        expected: list[Any]
        if self._texts:
            # a queued step's value only when a reply differs from the text (the text
            # decoded: the reference's state has moved on by the time its replies come)
            expected = [Encoded.of_text(self._oracle_text(read), typed) if queued
                        else Encoded(self._oracle_read(read), self._oracle_text(read), typed)
                        for read in reads]
        else:
            expected = [Exact(v) if typed else v for v in map(self._oracle_read, reads)]
        sent = _copy(payload) if self.other.in_process else payload
        if queued:
            self._queue.append((kind, sent, want, reads, expected))
            # or at a round's end, once many are queued (a long game: one write bounded)
            return self._flush() if phase in _OVER and len(self._queue) > QUEUED else None
        # A setup the implementation refuses may leave it without a match: its reads are
        # sent only once the outcomes agree (a deal or act goes in one write with them).
        got, values = probe(self.other, kind, sent, [] if kind == "setup" else reads,
                            None if kind == "setup" else expected)
        found = self._outcome(kind, want, got)
        if (found and not found.comparable) or not running:
            return found
        if kind == "setup" and reads:
            values = self.other.pipeline(
                [(r[0], {"seat": r[1]} if r[0] == "observe" else {}) for r in reads],
                expected)
        state = self._state(reads, values, want)
        if found is None or state is None:
            return found or state
        # a wrong code and a state that moved: the state decides whether the game goes on
        return Finding(f"{found.where}; {state.where}", found.signature | state.signature,
                       found.differences + state.differences, want,
                       state.comparable, found.judged or state.judged)

    def finish(self) -> Finding | None:
        """A sparse duel's game has ended: its steps not yet sent, sent (`_flush`)."""
        return self._flush() if self._queue else None

    def _flush(self) -> Finding | None:
        """A sparse duel's steps of a game (or of its rounds so far), each with its reads,
        in one pipeline (one write to a JSON-lines implementation, one round trip: the
        next step never depends on the implementation's replies, only on the reference's
        state; the reads are the same, compared later): whether an outcome or a read differs
        (a bare Finding: the game is then played again densely, which says what). After
        a step whose outcome differs the steps were sent to an implementation that the
        game no longer follows: nothing after it is looked at."""
        fields = {"deal": "deal", "act": "action"}
        queued, self._queue = self._queue, []
        requests: list[tuple[str, dict[str, Any]]] = []
        wanted: list[Any] = []
        for kind, sent, _, reads, expected in queued:
            requests.append((kind, {fields[kind]: sent}))
            requests += [(r[0], {"seat": r[1]} if r[0] == "observe" else {}) for r in reads]
            wanted += [None, *expected]
        replies = iter(self.other.pipeline(requests, wanted))
        for kind, _, want, _reads, expected in queued:
            reply = next(replies)
            if self._outcome(kind, want, reply.code if isinstance(reply, Rejected) else None):
                return SPARSE_FOUND
            for want_read, value in zip(expected, replies, strict=False):
                typed = isinstance(want_read, Exact) or (isinstance(want_read, Encoded)
                                                         and want_read.typed)
                if value is not want_read and self._differs(expected_value(want_read),
                                                             value, typed):
                    return SPARSE_FOUND
        return None

    def _typed(self, phase: str | None) -> bool:
        """Whether reads are compared with their types too (see _state): in thorough
        reads and when a round ends."""
        return self.thorough or phase in _OVER

    def state(self) -> dict[str, Any]:
        """The reference's referee view now."""
        return cast(dict[str, Any], self._oracle_read(("view",)))

    def legal_actions(self) -> list[dict[str, Any]]:
        """The reference's legal actions now."""
        return cast(list[dict[str, Any]], self._oracle_read(("legal",)))

    def lazy_state(self) -> Mapping[str, Any]:
        """The reference's referee view now, built only if a field other than `to_act`
        and `phase` is read (an illegal candidate reads the hands one time in four)."""
        return _LazyView(self)

    def _judged(self, kind: str, code: str | None = None) -> bool:
        """Whether a check of this kind (levels.yaml) is judged at the campaign's level."""
        return bool(self.levels.judged(self.levels.of(kind, code), self.level))

    def _outcome(self, kind: str, want: str | None, got: str | None) -> Finding | None:
        """Accepted or rejected as the reference (levels.yaml `rejected`: a convention
        code's rejection is judged at its level), and the code (`known_code`, then `code`,
        whose level is never below the rejection's)."""
        if (want is None) != (got is None):
            return Finding(f"expected {want or 'accepted'}, got {got or 'accepted'}",
                           frozenset({f"outcome:{want or 'accepted'}>{got or 'accepted'}"}),
                           reference_code=want,
                           judged=self._judged("rejected" if want else "accepted", want))
        if want != got:
            known = got in _codes()
            judged = self._judged("code", want) if known else self._judged("known_code")
            return Finding(f"expected {want}, got {got}",
                           frozenset({f"code:{want}>{got}"}),
                           [Difference("error.code", want, got)], reference_code=want,
                           comparable=True, judged=judged)
        return None

    def _state(self, reads: list[tuple[str, ...]], values: list[Any],
               want: str | None) -> Finding | None:
        # Equal Python values are taken as equal, except in thorough reads and when a
        # round ends, where the canonical texts are compared too: `==` alone takes true
        # for 1, and any such confusion is still there when the round ends.
        typed = self._typed(self.phase())
        found: list[Difference] = []
        for read, value in zip(reads, values, strict=True):
            expected = self._oracle_read(read)
            if read[0] == "legal":
                if self._differs(expected, value, typed):
                    found += diff_sets(expected, value if isinstance(value, list) else [],
                                       "legal")
                continue
            path = ".".join(read)
            public = value
            if isinstance(value, dict) and value.keys() != expected.keys():
                public = _public(value)
            if self._differs(expected, public, typed):
                found += diff(expected, public, path, partial=False)
            if read[0] == "observe" and public is not value:
                found += self._leaks(read[1], value, path)
        if not found:
            return None
        from conformance.run.runner import form_only

        # observation.md's null written as [] or {AC: 0, BD: 0}: a form, judged at its level
        # as the runner judges it: zero round points are a form only while none is won
        points = self._oracle_read(("view",)).get("points")

        def form(d: Difference) -> bool:
            return d.path.startswith("observe.") and form_only(d) and (
                not d.path.endswith(".points") or points == {"AC": 0, "BD": 0})

        kept = found if self._judged("observe_form") else [d for d in found if not form(d)]
        finding = self._finding(kept or found, want)
        if any(form(d) for d in kept or found):  # a form is not the same kind as a leak
            finding.signature |= {"form"}
        finding.comparable = not any(d.path.startswith("view") for d in found)
        finding.judged = bool(kept)
        return finding

    def _finding(self, found: list[Difference], want: str | None) -> Finding:
        order = {"view": 0, "observe": 1, "legal": 2}
        fields = sorted({_field(d.path) for d in found},
                        key=lambda f: (order.get(f.split(".")[0], 3), f))
        shown = ", ".join(fields[:4]) + (" ..." if len(fields) > 4 else "")
        where = (f"the rejected step ({want}) changed {shown}" if want
                 else f"{shown} differ{'s' if len(fields) == 1 else ''}")
        return Finding(where, frozenset(fields), found, reference_code=want)

    def _leaks(self, seat: str, seen: dict[str, Any], path: str) -> list[Difference]:
        """VIS-01, VIS-06, VIS-08, VIS-09 in the implementation's own `x_` fields, which are
        not compared: no tile the seat may not see, no seat of a completed trick's play, no
        running round points of a marks contract (judged as `t42 run` judges them)."""
        own = _own_fields(seen)
        if not own:
            return []
        from conformance.run.matching import MISSING
        from conformance.run.visibility import points_leaks, seat_leaks
        from conformance.run.visibility import strings_in as _strings

        referee = self._oracle_read(("view",))
        hidden = {t for s in SEATS if s != seat for t in referee["hands"][s]}
        shown = sorted(hidden & set(_strings(own)))
        out = [Difference(f"{path}.x_", MISSING, shown, "shows tiles this seat may not see")
               ] if shown else []
        # the public `points` is compared with the reference's already
        public = {k: v for k, v in seen.items() if k != "points"}
        return out + seat_leaks(own, referee, path) + points_leaks(public, referee, path)

    def begin(self, setup: dict[str, Any], seed: int = 0) -> Finding | None:
        """A new game: `setup` sent to both; `seed` (the game's) draws the steps a sparse
        duel reads, apart from the game's own draws."""
        self.count = 0
        self._spots.seed(seed)
        self._seen.clear()
        self._queue.clear()
        return self.send("setup", setup)


class _LazyView(Mapping[str, Any]):
    """Duel.lazy_state: `to_act` and `phase` are the match's own (as in its view)."""

    def __init__(self, duel: Duel):
        self._duel = duel

    def __getitem__(self, key: str) -> Any:
        match = self._duel.oracle.match
        if key == "to_act":
            return match.to_act
        if key == "phase":
            return match.phase
        return self._duel.state()[key]

    def __iter__(self) -> Any:
        return iter(self._duel.state())

    def __len__(self) -> int:
        return len(self._duel.state())

    def __bool__(self) -> bool:  # a view is never empty: not built to say so
        return True


# What a sparse duel's step returns when something differs, before the dense replay.
SPARSE_FOUND = Finding("differs (sparse reads)", frozenset())

# --- playing and replaying -----------------------------------------------------------

STEP_KINDS = ("act", "deal", "setup")  # a step's one key (scenario-format.md)


def step_kind(step: dict[str, Any]) -> str:
    return next(kind for kind in STEP_KINDS if kind in step)


def apply_step(adapter: Any, step: dict[str, Any]) -> None:
    """Send one step to an adapter (Rejected when it refuses)."""
    kind = step_kind(step)
    {"act": adapter.act, "deal": adapter.deal, "setup": adapter.start}[kind](step[kind])


@dataclass
class Game:
    """One seeded game's settings."""

    illegal_rate: float = 0.2
    max_rounds: int = 3
    variants: dict[str, Any] | None = None
    deal: str = "hands"
    level: str = "strict"
    limits: Any = None  # the settings values the other supports (protocol.md), or all


@dataclass
class Played:
    """One game: its divergences judged at the level (the first of each kind of the
    game), the differences not judged, and where the states stopped being comparable."""

    divergences: list[Divergence] = field(default_factory=list)
    rounds: int = 0
    not_judged: int = 0
    stopped: str = ""  # the step where the referee states differed ("": none did)
    seed: int = 0


def play(other: Adapter | Harnessed, seed: int, game: Game, duel: Duel | None = None) -> Played:
    """One seeded match on both adapters. It goes on past a divergence that leaves the
    states comparable and stops where the referee states differ (`Played.stopped`).
    With a sparse duel the game is played reading less; at its first difference it is
    played again from its seed with the campaign's reads (`Duel.dense`), which are a
    superset of the sparse ones at every step: the same game, the same findings."""
    duel = duel or Duel(other, game.level)
    if duel.sparse:
        try:
            played = _play(seed, game, duel)
        except Exception:  # noqa: BLE001 - raised again where the dense game meets it
            played = None
        if played is not None:
            return played
        duel = duel.dense()
    played = _play(seed, game, duel)
    assert played is not None  # a dense duel plays on past its findings
    return played


def _play(seed: int, game: Game, duel: Duel) -> Played | None:
    """`play` with `duel`; None at a sparse duel's first finding."""
    rng = random.Random(seed)
    setup = random_setup(rng, game.deal, game.variants, game.limits)
    steps: list[dict[str, Any]] = []
    duel.oracle.match = None
    counters_first = rng.random() < 0.5
    bold = rng.random() < 0.25
    found = duel.begin(setup, seed)
    if duel.oracle.match is None:
        why = found.where if found else "refused by both"
        raise ValueError(f"the reference engine refuses the setup ({why})")
    played = Played(rounds=1, seed=seed)
    seen: set[tuple[frozenset[str], str | None]] = set()
    while True:
        if found and duel.sparse:
            return None
        if found:
            if not found.judged:
                played.not_judged += 1
            elif (found.signature, found.reference_code) not in seen:
                seen.add((found.signature, found.reference_code))
                played.divergences.append(
                    Divergence(seed, Case(setup, list(steps)), found, len(steps)))
            if not found.comparable:
                played.stopped = found.where
                return played
        phase = duel.phase()
        if phase == MATCH_OVER or (phase == ROUND_OVER and played.rounds >= game.max_rounds):
            if duel.sparse and duel.finish():  # its steps compared: a difference replays it
                return None
            return played
        kind = "act"  # the step's one key (step_kind)
        if phase == ROUND_OVER:
            kind, step = "deal", {"deal": random_deal(rng, game.deal)}
            if game.variants and rng.random() < 0.1:  # VAR-02: a deal carries no variants
                step["deal"]["variants"] = _copy(setup["variants"])
            else:
                played.rounds += 1
        elif rng.random() < game.illegal_rate:
            # now and then (options only) a setup that VAR-01 refuses: the match goes on
            bad = invalid_setup(rng, setup) if game.variants and rng.random() < 0.1 else None
            legal = duel.legal_actions() if phase == DECLARING else None
            if bad:
                kind, step = "setup", {"setup": bad}
            else:
                step = {"act": illegal_candidate(rng, duel.lazy_state(), legal)}
        else:
            step = {"act": legal_choice(rng, duel.legal_actions(), counters_first, bold)}
        steps.append(step)
        found = duel.send(kind, step[kind])


def play_game(other: Adapter | Harnessed, seed: int, game: Game, duel: Duel | None = None
              ) -> tuple[Divergence | None, int]:
    """One seeded match on both adapters: its first divergence judged at the level (or
    None) and the number of rounds dealt."""
    played = play(other, seed, game, duel)
    return next(iter(played.divergences), None), played.rounds


class Located(NamedTuple):
    """Where a replayed case first diverges: its expanded step (0: the setup) and what
    differed."""

    step: int
    finding: Finding


def replay(other: Adapter | Harnessed, case: Case, level: str = "strict",
           wanted: Any = None) -> Located | None:
    """Play a case on both adapters, comparing everything after every step: the number
    of the first diverging step (0: the setup, counting the shortcut's steps) and what
    differed, or None when they agree (or the reference refuses the setup). A finding
    not judged at the level, or that `wanted(located)` declines, is passed over while
    the states stay comparable."""
    duel = Duel(other, level, thorough=True)
    setup, steps = case.expanded()
    found = duel.begin(setup)
    if duel.oracle.match is None:
        return None  # the reference refused the setup: not a case
    for number, step in enumerate([None, *steps]):
        if step is not None:  # 0: the setup, sent above
            kind = step_kind(step)
            found = duel.send(kind, step[kind])
        if not found:
            continue
        located = Located(number, found)
        if found.judged and (wanted is None or wanted(located)):
            return located
        if not found.comparable:
            return None
    return None


def fuzz(other: Adapter | Harnessed, games: int, seed: int, *, illegal_rate: float = 0.2,
         max_rounds: int = 3, variants: dict[str, Any] | None = None,
         deal: str = "hands", level: str = "strict", seeds: Any = None,
         on_game: Any = None) -> tuple[int, list[Divergence], list[str]]:
    """(games played, divergences, errors): `games` seeded matches, seeds seed..seed+games-1
    (or the given `seeds`), under the variant options `variants` (spec/variants.md; None:
    the base game). A game may diverge in several ways (each kind once). `on_game(played)`
    is called after each game with its `Played`."""
    game = Game(illegal_rate, max_rounds, variants, deal, level,
                harnessed(other).settings)  # draws only the values it supports
    duel = Duel(other, level, sparse=True)
    divergences: list[Divergence] = []
    errors: list[str] = []
    chosen = list(seeds) if seeds is not None else range(seed, seed + games)
    for game_seed in chosen:
        played = Played()
        try:
            played = play(other, game_seed, game, duel)
        except Exception as error:  # noqa: BLE001 - a crash or hang ends one game only
            errors.append(f"game seed {game_seed}: {type(error).__name__}: {error}")
        divergences += played.divergences
        if on_game:
            on_game(played)
    return len(chosen), divergences, errors
