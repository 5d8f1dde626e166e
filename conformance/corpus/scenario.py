"""Scenarios: the model, the loader (schema + semantic checks) and the contract shortcut.

Order of work for one file: YAML with line numbers -> scenario.schema.json -> semantic
checks against the spec index -> a `Scenario` whose steps include the expanded
`setup.contract` shortcut. Every problem is collected, never just the first.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.corpus.problems import Problem, line_of
from conformance.specdata import schemas
from conformance.specdata.fields import FieldPath, format_field
from conformance.specdata.files import display_path
from conformance.specdata.index import SpecIndex, load_index, options_citing
from conformance.specdata.yamlload import decode_text, load_yaml, read_text
from reference_impl.tiles import NAMES, SEATS

MODELINE = "# yaml-language-server: $schema="
ALL_TILES = frozenset(NAMES)
# scenario-format.md: act/deal/setup payloads are judged by these schemas.
PAYLOAD_SCHEMA = {
    "act": "action.schema.json",
    "deal": "setup.schema.json#/$defs/deal",
    "setup": "setup.schema.json",
}


@dataclass(frozen=True)
class Step:
    """One step as the runner executes it."""

    label: str  # "steps[3]" or "setup.contract"
    line: int
    kind: str | None  # "act", "deal", "setup" or None for an expect-only step
    payload: Any = None
    reject: str | None = None
    expect: dict[str, Any] | None = None
    also: tuple[str, ...] = ()  # `also_broken`: later codes in the check order it breaks


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    description: str
    rules: tuple[str, ...]
    variants: dict[str, Any]
    steps: tuple[Step, ...]  # the setup, the expanded contract shortcut, then `steps`
    path: Path
    needs: frozenset[str] = field(default_factory=frozenset)  # legal, perft, self_deal


# --- the contract shortcut (scenario-format.md) -------------------------------------


def expand_contract(setup: dict[str, Any], contract: dict[str, Any], line: int) -> list[Step]:
    """BID-01, CON-01, CON-02: in bidding order every seat but the declarer passes and the
    declarer bids; then the declarer declares trump (and stacks).

    Who is to bid next is asked of the reference engine, never re-derived here: the first
    dealer (by `dealer` or by the draw, DRAW-03/DRAW-04), the seat order (TBL-01) and any
    option that changes them are the engine's. ValueError when the engine refuses one of
    the steps, so that the loader reports it at `setup.contract`."""
    from reference_impl import IllegalAction, Match

    declarer = contract["declarer"]
    steps: list[Step] = []

    def send(match: Any, action: dict[str, Any]) -> None:
        try:
            match.apply(action)
        except IllegalAction as error:
            raise ValueError(f"the reference engine refuses {json.dumps(action)}: "
                             f"{error.code}") from None
        steps.append(Step("setup.contract", line, "act", action))

    try:
        match = Match.start(json.loads(json.dumps(setup)))
    except IllegalAction as error:
        raise ValueError(f"the reference engine refuses the setup: {error.code}") from None
    for _ in range(len(SEATS)):
        view = match.view()
        if view["phase"] != "bidding":
            break
        seat = view["to_act"]
        bid = {"type": "bid", "seat": seat, **contract["bid"]}
        send(match, bid if seat == declarer else {"type": "pass", "seat": seat})
    declare = {"type": "trump", "seat": declarer, "trump": contract["trump"]}
    if "stacks" in contract:
        declare["stacks"] = contract["stacks"]
    send(match, declare)
    return steps


# --- semantic checks ---------------------------------------------------------------


class _Checker:
    """Collects problems of one scenario document against the spec index."""

    def __init__(self, doc: dict[str, Any], index: SpecIndex, schema_errors: list[FieldPath]):
        self.doc, self.index = doc, index
        self.broken = schema_errors  # subtrees the schema refused are not checked further
        self.found: list[tuple[FieldPath, str]] = []

    def add(self, path: FieldPath, message: str) -> None:
        self.found.append((path, message))

    def sound(self, path: FieldPath) -> bool:
        """True if the schema found nothing wrong at or under `path`."""
        return not any(bad[: len(path)] == path for bad in self.broken)

    def run(self) -> None:
        if self.sound(("rules",)) and self.sound(("variants",)):
            self.rules()
            self.variants()
        setup = self.doc.get("setup")
        if setup is not None and self.sound(("setup",)):
            self.deal(("setup",), setup)
            self.engine_accepts(("setup",), setup)
            contract = setup.get("contract")
            if contract is not None:
                self.values_allowed(("setup", "contract", "bid"), contract["bid"])
                self.values_allowed(("setup", "contract"), contract)
        started = setup is not None
        steps = self.doc.get("steps")
        for i, step in enumerate(steps if isinstance(steps, list) else []):
            if self.sound(("steps", i)):
                started = self.step(("steps", i), step, started)
            else:
                started = True  # unknown: do not pile up "not started" problems

    def rules(self) -> None:
        variants = self.doc.get("variants") or {}
        for i, rule_id in enumerate(self.doc.get("rules") or []):
            rule = self.index.rules.get(rule_id)
            if rule is None:
                self.add(("rules", i),
                         f"unknown rule {rule_id} (not in spec/rules.md nor variants.md)")
            elif rule.withdrawn:
                self.add(("rules", i), f"rule {rule_id} is withdrawn")
            elif rule.variant and not options_citing(self.index, rule) & variants.keys():
                self.add(("rules", i), f"rule {rule_id} belongs to variant `{rule.variant}`, "
                         "which this scenario does not turn on")

    def variants(self) -> None:
        for name in self.doc.get("variants") or {}:
            if name not in self.index.variants:
                self.add(("variants", name), f"unknown variant option {name!r} (spec/variants.md)")
        setup_variants = (self.doc.get("setup") or {}).get("variants")
        if setup_variants is not None and setup_variants != (self.doc.get("variants") or {}):
            self.add(("setup", "variants"), "must equal the scenario's `variants`")

    def deal(self, path: FieldPath, deal: dict[str, Any]) -> None:
        """DIG-06: every tile exactly once (the schema checks form, 7 per hand, 28 in order)."""
        if "hands" in deal:
            seen: dict[str, str] = {}
            for seat in SEATS:
                for tile in deal["hands"].get(seat, []):
                    if tile in seen and seen[tile] != seat:
                        self.add(path + ("hands", seat), f"tile {tile} also dealt to {seen[tile]}")
                    seen.setdefault(tile, seat)
            missing = sorted(ALL_TILES - set(seen))
            if missing:
                self.add(path + ("hands",), f"tiles never dealt: {', '.join(missing)}")

    def engine_accepts(self, path: FieldPath, setup: dict[str, Any]) -> None:
        """A setup the scenario expects accepted must be valid by the engine's bounds too,
        which the schema cannot all state (starting marks depend on match_points, SCORE-03,
        MPTS-02): `t42 check` says so, rather than `t42 run` blaming the implementation."""
        setup = {k: v for k, v in setup.items() if k != "contract"}
        if self.doc.get("variants") and "variants" not in setup:
            setup["variants"] = self.doc["variants"]
        refused = _refusal(setup)
        if refused is None:
            return
        where = [path]
        marks = setup.get("marks")
        if isinstance(marks, dict) and _refusal({**setup, "marks": None}) is None:
            # the starting marks are at fault: name the team's field (SCORE-03, TARGET-02,
            # MPTS-02), or both when only the pair is refused
            where = [path + ("marks", team) for team in marks
                     if _refusal({**setup, "marks": {**dict.fromkeys(marks, 0), team: marks[team]}})
                     ] or [path + ("marks",)]
        for at in where:
            self.add(at, f"the reference engine refuses this setup ({refused}): a step "
                         "that is not `reject`ed must be valid")

    def values_allowed(self, path: FieldPath, action: dict[str, Any],
                       what: str = "a step that is not `reject`ed must be valid") -> None:
        """An action a step expects accepted has values that the scenario's own game allows
        in some position (scenario-format.md, Bounds): the schema's bounds are those of
        every game of variants.md; the reference engine's Rules for the scenario's
        options narrow them (42 is a point bid only under bid_42, FORTYTWO-02)."""
        from reference_impl import IllegalAction
        from reference_impl.variants import rules_for

        try:
            rules = rules_for(self.doc.get("variants") or {})
        except IllegalAction:
            return  # the options are reported where they are written
        for name, value in action.items():
            problem = _value_problem(rules, name, value)
            if problem:
                self.add(path + (name,), f"the reference engine refuses {name} {value!r} in "
                                         f"this scenario's game ({problem}): {what}")

    def step(self, path: FieldPath, step: dict[str, Any], started: bool) -> bool:
        kind = next((k for k in PAYLOAD_SCHEMA if k in step), None)
        reject = step.get("reject")
        own = "self_deal" in (step.get("expect") or {}) and kind is None
        if kind != "setup" and not started and not own:
            self.add(path, "the match has not started: give `setup` or begin with a setup step")
        if reject is not None and kind is not None:  # the schema wants a payload beside reject
            self.reject_code(path, kind, step[kind], reject)
            for i, other in enumerate(step.get("also_broken") or ()):
                self.also_broken(path + ("also_broken", i), kind, step[kind], reject, other)
        if kind in ("deal", "setup") and reject != "INVALID_SETUP":
            self.deal(path + (kind,), step[kind])
        if kind == "setup":
            self.step_variants(path + ("setup",), step["setup"], accepted=reject is None)
        if kind == "setup" and reject is None and not self.found:
            self.engine_accepts(path + ("setup",), step["setup"])
        if kind == "act" and reject is None:
            self.values_allowed(path + ("act",), step["act"])
        if "expect" in step:
            self.expect(path + ("expect",), step["expect"])
        return started or own or (kind == "setup" and reject is None)

    def also_broken(self, path: FieldPath, kind: str | None, payload: Any, reject: str,
                    other: str) -> None:
        """A code the step also breaks: it applies to the step and comes after `reject` in
        the check order, or `reject` would not be the right answer (levels.yaml)."""
        order = self.index.order
        if other not in order or reject not in order:
            return  # an unknown code is reported by the schema and by reject_code
        if order.index(other) <= order.index(reject):
            self.add(path, f"{other} comes before {reject} in the check order (errors.md): "
                     "the step would be rejected with it")
            return
        self.reject_code(path[:-2], kind, payload, other, where=path)

    def step_variants(self, path: FieldPath, setup: Any, accepted: bool) -> None:
        """scenario-format.md: a setup step is sent as written, its `variants` its own (no
        inheritance); every option of variants.md that it names must be in the scenario's
        `variants`, which is what an implementation is skipped by."""
        declared = self.doc.get("variants") or {}
        variants = setup.get("variants") if isinstance(setup, dict) else None
        if isinstance(variants, dict):
            for name in variants:
                if name in self.index.variants and name not in declared:
                    self.add(path + ("variants", name),
                             f"option {name!r} is not in the scenario's `variants`, so an "
                             "implementation without it would run this step instead of "
                             "skipping the scenario")
        elif accepted and declared and isinstance(setup, dict) and "variants" not in setup:
            self.add(path, "a setup step is sent as written: without `variants` it starts "
                           "a base-game match, not one with the scenario's options; give "
                           "`variants` (`{}` if the base game is meant)")

    def reject_code(self, path: FieldPath, kind: str | None, payload: Any, code: str,
                    where: FieldPath | None = None) -> None:
        where = where or path + ("reject",)
        error = self.index.codes.get(code)
        if error is None:
            self.add(where, f"unknown error code {code} (spec/errors.yaml)")
            return
        target = kind
        if kind == "act":
            if not schemas.is_valid(PAYLOAD_SCHEMA["act"], payload):
                return  # a malformed action has no kind to judge
            target = payload["type"]
        if target not in error.applies_to:
            self.add(where, f"{code} never applies to a {target} "
                     f"(errors.yaml applies_to: {', '.join(error.applies_to)})")

    def expect(self, path: FieldPath, expect: dict[str, Any]) -> None:
        if "view" in expect:
            for sub, msg in schemas.check("view.schema.json", expect["view"], partial=True):
                self.add(path + ("view",) + sub, msg)
        for seat, partial in (expect.get("observe") or {}).items():
            for sub, msg in schemas.check("observation.schema.json", partial, partial=True):
                self.add(path + ("observe", seat) + sub, msg)
        for i, action in enumerate(expect.get("legal") or []):
            self.values_allowed(path + ("legal", i), action, "no position allows it")
        keys = [json.dumps(a, sort_keys=True) for a in expect.get("legal") or []]
        for i, key in enumerate(keys):
            if key in keys[:i]:
                self.add(path + ("legal", i), "listed twice")


def _refusal(setup: dict[str, Any]) -> str | None:
    """`CODE: message` of the reference engine refusing `setup` (None: accepted; a
    `marks` of None is left out, the default)."""
    from reference_impl import IllegalAction, Match

    setup = {k: v for k, v in setup.items() if not (k == "marks" and v is None)}
    try:
        Match.start(json.loads(json.dumps(setup)))
    except IllegalAction as error:
        return f"{error.code}: {getattr(error, 'message', str(error))}"
    return None


def _value_problem(rules: Any, name: str, value: Any) -> str:
    """'' if some position of the game of `rules` allows `value` as the action field
    `name`, else `CODE: why`, in the engine's words where it has a check of the value alone
    (BID-02; CON-01; CON-02); a marks bid's range is what BID-05 and BID-06 reach in one
    round of four bids, from the first marks bid or a plunge (PLUNGE-03)."""
    if name == "points":
        problem = rules.point_bid_problem(rules, value, 0, 0)
        return f"{problem[0]}: {problem[2]}" if problem else ""
    if name == "marks":
        firsts = {*rules.first_marks_bids, *(bid.marks for bid in rules.special_bids)}
        reach = {first + sum(raises) for first in firsts for n in range(4)
                 for raises in itertools.product(rules.marks_raises, repeat=n)}
        if value in reach:
            return ""
        return (f"MARKS_BID_STEP: no position allows a bid of {value} marks; "
                f"this game's marks bids are {min(reach)}..{max(reach)}")
    if name == "trump" and rules.canonical_trump(value) is None:
        return f"INVALID_TRUMP: trump is one of {', '.join(map(str, rules.trumps))}"
    if name == "stacks" and value not in rules.stacks:
        return f"STACKS_INVALID: stacks is {' or '.join(map(str, rules.stacks))}"
    return ""


# --- loading -------------------------------------------------------------------------


@dataclass
class Loaded:
    path: Path
    scenario: Scenario | None
    problems: list[Problem]
    id_line: int = 1  # where a duplicate id is reported


def _problems(path: Path, lines: dict[FieldPath, int], found: Iterable[tuple[FieldPath, str]]):
    shown = display_path(path)
    out = [Problem(shown, line_of(lines, p), format_field(p), msg) for p, msg in found]
    return sorted(out, key=lambda pr: pr.line)


def build(path: Path, doc: dict[str, Any], lines: dict[FieldPath, int]) -> Scenario:
    setup = doc.get("setup")
    variants = dict(doc.get("variants") or {})
    steps: list[Step] = []
    if setup is not None:
        setup = {k: v for k, v in setup.items() if k != "contract"}
        if variants and "variants" not in setup:
            setup["variants"] = variants  # the scenario's options are the match's options
        steps.append(Step("setup", lines.get(("setup",), 1), "setup", setup))
        if "contract" in doc["setup"]:
            line = lines.get(("setup", "contract"), 1)
            steps += expand_contract(setup, doc["setup"]["contract"], line)
    needs: set[str] = set()
    for i, raw in enumerate(doc["steps"]):
        kind = next((k for k in PAYLOAD_SCHEMA if k in raw), None)
        expect = raw.get("expect")
        needs.update(cap for cap in ("legal", "perft", "self_deal") if expect and cap in expect)
        steps.append(Step(f"steps[{i}]", lines.get(("steps", i), 1), kind,
                          raw.get(kind) if kind else None, raw.get("reject"), expect,
                          tuple(raw.get("also_broken") or ())))
    return Scenario(doc["id"], doc["title"], doc["description"], tuple(doc["rules"]),
                    variants, tuple(steps), path, frozenset(needs))


def _modeline(path: Path, text: str) -> list[str]:
    """The first line names the schema, relative to the file, for editors."""
    first = text.split("\n", 1)[0]
    if not first.startswith(MODELINE):
        return [f"the first line must be the modeline `{MODELINE}<path to scenario.schema.json>`"]
    target = first[len(MODELINE):].strip()
    resolved = (path.parent / target).resolve()
    if resolved.name != "scenario.schema.json" or not resolved.exists():
        return [f"the modeline's schema {target} does not resolve to scenario.schema.json"]
    return []


def load_scenario(path: Path, index: SpecIndex | None = None) -> Loaded:
    """Load and check one file; `scenario` is None when it has any problem. Never raises:
    whatever the file holds, the answer is a list of `file:line: field: message`."""
    try:
        return _load(path, index or load_index())
    except Exception as error:  # noqa: BLE001 - a file must not end the run or collection
        return _refused(path, 1, f"cannot load ({type(error).__name__}: {error}); "
                                 "please report this as a harness bug")


def _refused(path: Path, line: int, message: str, field: str = "") -> Loaded:
    return Loaded(path, None, [Problem(display_path(path), line, field, message)])


def _load(path: Path, index: SpecIndex, data: bytes | None = None) -> Loaded:
    """`data`: the file's bytes, read already by `read_bytes` (the loading cache's key)."""
    if path.suffix == ".yml":
        return _refused(path, 1, "scenario files end in .yaml: rename this .yml file")
    text, line, why = read_text(path) if data is None else decode_text(data)
    if text is None:
        return _refused(path, line, why)
    doc, lines, raw = load_yaml(text)
    shown = display_path(path)
    problems = [Problem(shown, line, fld, msg) for line, fld, msg in raw]
    problems += [Problem(shown, 1, "", msg) for msg in _modeline(path, text)]
    if doc is not None:
        # rule IDs, codes and fields: the checker below names the spec file they come from
        found = schemas.check("scenario.schema.json", doc, spec_lists=False)
        if isinstance(doc, dict):
            checker = _Checker(doc, index, [p for p, _ in found])
            checker.run()
            found += checker.found
        found += _id_follows_path(path, doc) + _id_line_break(doc)
        problems += _problems(path, lines, found)
    if problems:
        return Loaded(path, None, sorted(problems, key=lambda p: p.line))
    try:
        return Loaded(path, build(path, doc, lines), [], lines.get(("id",), 1))
    except ValueError as error:  # the contract shortcut, refused by the reference engine
        return _refused(path, line_of(lines, ("setup", "contract")), str(error),
                        "setup.contract")


def _id_line_break(doc: Any) -> list[tuple[FieldPath, str]]:
    """The schema's pattern ends in `$`, which Python's re lets match before a final line
    break: "x\\n" would pass, be a second id beside "x", and name a file `x\\n.html`."""
    sid = doc.get("id") if isinstance(doc, dict) else None
    if isinstance(sid, str) and sid.endswith("\n"):
        return [(("id",), f"id {sid!r} ends with a line break: ids are lowercase words "
                          "joined by dots and dashes")]
    return []


def _id_follows_path(path: Path, doc: Any) -> list[tuple[FieldPath, str]]:
    """CONTRIBUTING.md: in a checkout's corpus the id is the path below `scenarios/`, `/`
    written `.`, so a report's id leads straight to its file; this holds for a file checked
    alone too (`t42 check FILE`). Files outside any checkout's scenarios/ are free."""
    from conformance.specdata.files import corpus_root_of

    try:
        corpus = corpus_root_of(path)
        if corpus is not None:
            below = path.resolve().with_suffix("").relative_to(corpus).parts
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a link loop (3.11)
        return []
    if corpus is None:
        return []
    want = ".".join(below)
    if not isinstance(doc, dict) or doc.get("id") in (None, want):
        return []
    return [(("id",), f"id {doc['id']!r} should be {want!r} (the path below scenarios/)")]


# --- the corpus ----------------------------------------------------------------------

SUFFIXES = (".yaml", ".yml")  # .yml is found so that it is refused aloud, not skipped


# A corpus is a few folders deep with a few hundred files: past these a tree is a mistake
# or an attack (a folder 1,100 levels deep, a diamond of links with 2^22 paths).
MAX_DEPTH = 32  # folders below a path named to the command
MAX_ENTRIES = 100_000  # entries of one folder


@dataclass(frozen=True)
class Refused:
    """A folder that is not walked, and why: loading reports it as a problem of that path."""

    path: Path
    message: str


def folder_identity(path: Path | os.DirEntry) -> tuple[int, int]:
    info = path.stat()  # follows links: a link and its target are one folder
    return info.st_dev, info.st_ino


def folder_entries(folder: Path) -> list[os.DirEntry] | Refused | None:
    """A folder's entries sorted by name; None if it cannot be read."""
    try:
        with os.scandir(folder) as listing:
            entries = list(itertools.islice(listing, MAX_ENTRIES + 1))
    except OSError:
        return None
    if len(entries) > MAX_ENTRIES:
        return Refused(folder, f"a folder of more than {MAX_ENTRIES:,} entries: not walked "
                               "(the limit of a corpus folder)")
    return sorted(entries, key=lambda e: e.name)


def walk(root: Path) -> Iterator[Path | Refused]:
    """Depth first, sorted by name (the order of sorted(rglob)), without recursion: each
    real folder is walked once, however many links lead to it. A link to an enclosing
    folder is yielded, not entered, so that loading reports it; a folder too deep or too
    large is a Refused."""
    try:
        top = folder_identity(root)
    except OSError:
        yield root  # loading says why it cannot be read
        return
    seen, enclosing = {top}, [top]
    listing = folder_entries(root)
    if not isinstance(listing, list):
        yield listing or root
        return
    stack = [iter(listing)]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            enclosing.pop()
            continue
        path = Path(entry.path)
        try:
            real = folder_identity(entry) if entry.is_dir() else None  # follows links
        except OSError:  # a link loop: loading reports it if it is named like a scenario
            real = None
        if real is None:
            if entry.name.endswith(SUFFIXES):
                yield path
        elif real in enclosing:
            yield path
        elif real in seen:
            continue  # walked already, through another link
        elif len(stack) > MAX_DEPTH:
            yield Refused(path, f"a folder more than {MAX_DEPTH} levels deep: not walked "
                                "(the limit of a corpus)")
        else:
            seen.add(real)
            listing = folder_entries(path)
            if isinstance(listing, list):
                stack.append(iter(listing))
                enclosing.append(real)
            else:
                yield listing or path


def discover(paths: Iterable[Path]) -> list[Path | Refused]:
    """Scenario files under the given files and directories, sorted, each once; and the
    folders refused."""
    found: dict[Path | Refused, None] = {}
    for path in paths:
        if path.is_dir():
            for file in walk(path):
                found.setdefault(file, None)
        else:
            found.setdefault(path, None)
    return list(found)


def duplicate_id(seen: dict[str, Path], item: Loaded) -> None:
    """A duplicate id is a problem of the later file (in discovery order); `seen` holds
    the first file of each id. Shared by `t42` and the pytest plugin."""
    sc = item.scenario
    if sc is None:
        return
    if sc.id in seen:
        other = display_path(seen[sc.id])
        item.problems.append(Problem(display_path(sc.path), item.id_line, "id",
                                     f"id {sc.id} already used by {other}"))
        item.scenario = None
    else:
        seen[sc.id] = sc.path


def load_corpus(paths: Iterable[Path], index: SpecIndex | None = None) -> list[Loaded]:
    """Load every file; a duplicate id is a problem of the later file. A file unchanged
    since an earlier load is answered by the loading cache (corpus/cache.py)."""
    from conformance.corpus.cache import open_cache

    stored = open_cache(index)
    index = index or load_index()
    one = stored.load if stored is not None else load_scenario
    loaded = [_refused(p.path, 1, p.message) if isinstance(p, Refused)
              else one(p, index) for p in discover(paths)]
    if stored is not None:
        stored.save()
    first: dict[str, Path] = {}
    for item in loaded:
        duplicate_id(first, item)
    return loaded
