"""Scenarios: the model, the loader (schema + semantic checks) and the contract shortcut.

Order of work for one file: YAML with line numbers -> scenario.schema.json -> semantic
checks against the spec index -> a `Scenario` whose steps include the expanded
`setup.contract` shortcut. Every problem is collected, never just the first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.corpus.problems import FieldPath, Problem, format_field, line_of
from conformance.corpus.yamlload import load_yaml
from conformance.specdata import schemas
from conformance.specdata.index import SpecIndex, load_index

SEATS = "ABCD"
MODELINE = "# yaml-language-server: $schema="
ALL_TILES = frozenset(f"{a}|{b}" for a in range(7) for b in range(a, 7))
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


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    description: str
    rules: tuple[str, ...]
    variants: dict[str, Any]
    steps: tuple[Step, ...]  # the setup, the expanded contract shortcut, then `steps`
    path: Path
    needs: frozenset[str] = field(default_factory=frozenset)  # capabilities: legal, perft


def display_path(path: Path) -> str:
    """A path relative to the working directory when possible (clickable in terminals)."""
    try:
        return path.resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


# --- the contract shortcut (scenario-format.md) -------------------------------------


def left_of(seat: str) -> str:
    """TBL-01: the next seat clockwise."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def first_dealer(setup: dict[str, Any]) -> str:
    """The setup's `dealer`, or under deal_by_drawing the seat whose tile has the highest
    pip total in the last round of `draws` (DRAW-03, DRAW-04)."""
    if "dealer" in setup:
        return setup["dealer"]
    last = setup["draws"][-1]
    return max(last, key=lambda seat: sum(int(n) for n in last[seat].split("|")))


def expand_contract(dealer: str, contract: dict[str, Any], line: int) -> list[Step]:
    """BID-01: from the seat left of the dealer, the others pass and the declarer bids;
    then the declarer declares trump (and stacks) (CON-01, CON-02)."""
    declarer = contract["declarer"]
    steps = []
    seat = dealer
    for _ in range(4):
        seat = left_of(seat)
        action = {"type": "pass", "seat": seat}
        if seat == declarer:
            action = {"type": "bid", "seat": seat, **contract["bid"]}
        steps.append(Step("setup.contract", line, "act", action))
    declare = {"type": "trump", "seat": declarer, "trump": contract["trump"]}
    if "stacks" in contract:
        declare["stacks"] = contract["stacks"]
    steps.append(Step("setup.contract", line, "act", declare))
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
            elif rule.variant and rule.variant not in variants:
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

    def step(self, path: FieldPath, step: dict[str, Any], started: bool) -> bool:
        kind = next((k for k in PAYLOAD_SCHEMA if k in step), None)
        reject = step.get("reject")
        if kind != "setup" and not started:
            self.add(path, "the match has not started: give `setup` or begin with a setup step")
        if reject is not None:
            self.reject_code(path, kind, step[kind], reject)
        if kind in ("deal", "setup") and reject != "INVALID_SETUP":
            self.deal(path + (kind,), step[kind])
        if "expect" in step:
            self.expect(path + ("expect",), step["expect"])
        return started or (kind == "setup" and reject is None)

    def reject_code(self, path: FieldPath, kind: str | None, payload: Any, code: str) -> None:
        error = self.index.codes.get(code)
        if error is None:
            self.add(path + ("reject",), f"unknown error code {code} (spec/errors.yaml)")
            return
        target = kind
        if kind == "act":
            if not schemas.is_valid(PAYLOAD_SCHEMA["act"], payload):
                return  # a malformed action has no kind to judge
            target = payload["type"]
        if target not in error.applies_to:
            self.add(path + ("reject",), f"{code} never applies to a {target} "
                     f"(errors.yaml applies_to: {', '.join(error.applies_to)})")

    def expect(self, path: FieldPath, expect: dict[str, Any]) -> None:
        if "view" in expect:
            for sub, msg in schemas.check("view.schema.json", expect["view"], partial=True):
                self.add(path + ("view",) + sub, msg)
        for seat, partial in (expect.get("observe") or {}).items():
            for sub, msg in schemas.check("observation.schema.json", partial, partial=True):
                self.add(path + ("observe", seat) + sub, msg)
        keys = [json.dumps(a, sort_keys=True) for a in expect.get("legal") or []]
        for i, key in enumerate(keys):
            if key in keys[:i]:
                self.add(path + ("legal", i), "listed twice")


# --- loading -------------------------------------------------------------------------


@dataclass
class Loaded:
    path: Path
    scenario: Scenario | None
    problems: list[Problem]


def _problems(path: Path, lines: dict[FieldPath, int], found: Iterable[tuple[FieldPath, str]]):
    shown = display_path(path)
    out = [Problem(shown, line_of(lines, p), format_field(p), msg) for p, msg in found]
    return sorted(out, key=lambda pr: pr.line)


def _build(path: Path, doc: dict[str, Any], lines: dict[FieldPath, int]) -> Scenario:
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
            steps += expand_contract(first_dealer(setup), doc["setup"]["contract"], line)
    needs = set()
    for i, raw in enumerate(doc["steps"]):
        kind = next((k for k in PAYLOAD_SCHEMA if k in raw), None)
        expect = raw.get("expect")
        needs.update(cap for cap in ("legal", "perft") if expect and cap in expect)
        steps.append(Step(f"steps[{i}]", lines.get(("steps", i), 1), kind,
                          raw.get(kind) if kind else None, raw.get("reject"), expect))
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
    """Load and check one file; `scenario` is None when it has any problem."""
    index = index or load_index()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return Loaded(path, None, [Problem(display_path(path), 1, "", f"cannot read: {error}")])
    doc, lines, raw = load_yaml(text)
    shown = display_path(path)
    problems = [Problem(shown, line, fld, msg) for line, fld, msg in raw]
    problems += [Problem(shown, 1, "", msg) for msg in _modeline(path, text)]
    if doc is not None:
        try:
            json.dumps(doc)
        except (TypeError, ValueError) as error:
            return Loaded(path, None, [Problem(shown, 1, "", f"not JSON data: {error}")])
        # rule IDs, codes and fields: the checker below names the spec file they come from
        found = schemas.check("scenario.schema.json", doc, spec_lists=False)
        if isinstance(doc, dict):
            checker = _Checker(doc, index, [p for p, _ in found])
            checker.run()
            found += checker.found
        found += _id_follows_path(path, doc)
        problems += _problems(path, lines, found)
    if problems:
        return Loaded(path, None, sorted(problems, key=lambda p: p.line))
    return Loaded(path, _build(path, doc, lines), [])


def _id_follows_path(path: Path, doc: Any) -> list[tuple[FieldPath, str]]:
    """CONTRIBUTING.md: in a checkout's corpus the id is the path below `scenarios/`, `/`
    written `.`, so a report's id leads straight to its file; this holds for a file checked
    alone too (`t42 check FILE`). Files outside any checkout's scenarios/ are free."""
    from conformance.specdata.files import corpus_root_of

    corpus = corpus_root_of(path)
    if corpus is None:
        return []
    below = path.resolve().with_suffix("").relative_to(corpus).parts
    want = ".".join(below)
    if not isinstance(doc, dict) or doc.get("id") in (None, want):
        return []
    return [(("id",), f"id {doc['id']!r} should be {want!r} (the path below scenarios/)")]


# --- the corpus ----------------------------------------------------------------------


def discover(paths: Iterable[Path]) -> list[Path]:
    """Scenario files under the given files and directories, sorted, each once."""
    found: dict[Path, None] = {}
    for path in paths:
        if path.is_dir():
            for file in sorted(path.rglob("*.yaml")):
                found.setdefault(file, None)
        else:
            found.setdefault(path, None)
    return list(found)


def load_corpus(paths: Iterable[Path], index: SpecIndex | None = None) -> list[Loaded]:
    """Load every file; a duplicate id is a problem of the later file."""
    index = index or load_index()
    loaded = [load_scenario(p, index) for p in discover(paths)]
    first: dict[str, Path] = {}
    for item in loaded:
        sc = item.scenario
        if sc is None:
            continue
        if sc.id in first:
            other = display_path(first[sc.id])
            item.problems.append(Problem(display_path(sc.path), 1, "id",
                                         f"id {sc.id} already used by {other}"))
            item.scenario = None
        else:
            first[sc.id] = sc.path
    return loaded
