"""Run scenarios step by step against an adapter and judge every step.

A step is sent to the adapter; a rejection must carry exactly the expected code and leave
the referee view unchanged (DIG-03); expectations are partial matches. Every view and
observation the harness reads must also follow its schema, and an observation must never
show a tile its seat may not see (VIS-01, VIS-06), nor, during the round, say which seat
played or won a completed trick (VIS-08) or the round points of a marks contract
(VIS-09), whether or not the scenario asks.
"""

from __future__ import annotations

import json
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from conformance.adapters.inprocess import harnessed
from conformance.adapters.protocol import Adapter, AdapterError, Harnessed, Rejected
from conformance.corpus.scenario import Loaded, Scenario, Step, display_path
from conformance.run import selfdeal
from conformance.run.matching import MISSING, Difference, diff, diff_sets, show
from conformance.run.results import Check, Detail, Outcome, Result
from conformance.specdata import schemas
from conformance.specdata.index import SpecIndex, load_index
from reference_impl.rules import bidding_order
from reference_impl.tiles import SEATS, left_of
from reference_impl.views import IN_PROGRESS as IN_ROUND  # observation.md: no history here
from reference_impl.views import covered_in_view

# An in-process implementation has no pipe to time out on: a watchdog bounds each scenario.
IN_PROCESS_LIMIT = 30.0


class Hung(BaseException):  # noqa: N818 - not an Exception, so no `except Exception` eats it
    """Raised into an in-process implementation that ran past the scenario's time limit."""


@contextmanager
def watchdog(seconds: float | None) -> Iterator[None]:
    """Raise Hung in this thread after `seconds` (SIGALRM: main thread, Unix only; elsewhere
    nothing is bounded). Cheap: one timer per scenario, not per call."""
    usable = (seconds and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(_signum: int, _frame: Any) -> None:
        raise Hung(f"no answer within {seconds:g} s (in-process watchdog)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Diverged(Exception):  # noqa: N818 - a stop, not an error
    """The states can no longer be compared: the rest of the scenario is not run."""


def _json(value: Any, what: str) -> Any:
    """A copy that is plain JSON, as it would be on the wire."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as error:
        raise AdapterError(f"{what} returned a value that is not JSON: {error}") from None


def skip_reason(scenario: Scenario, adapter: Harnessed) -> str:
    missing = [v for v in scenario.variants if v not in adapter.variants]
    if missing:
        source = adapter.declared_by
        if source:
            return f"needs variant {', '.join(missing)}, not in {source}"
        return f"needs variant {', '.join(missing)}, which {adapter.name} does not declare"
    caps = sorted(scenario.needs - set(adapter.capabilities))
    if caps:
        return f"needs capability {', '.join(caps)}, which {adapter.name} does not declare"
    return ""


class ScenarioRun:
    """One scenario against one adapter, judged at one level (levels.yaml).

    Every check is recorded. A failed check that leaves both states comparable (a wrong
    code on a rejection that changed nothing, a wrong observation, legal set or count)
    lets the run go on; one after which they diverge (a wrong acceptance or rejection, a
    changed view, a view that differs or cannot be read) stops it, and the result says so.
    """

    def __init__(self, scenario: Scenario, adapter: Adapter, index: SpecIndex,
                 level: str = "strict"):
        self.sc, self.adapter, self.index, self.level = scenario, adapter, index, level
        self.step: Step | None = None
        self.started = False
        self.checks: list[Check] = []
        self.failures: list[Detail] = []
        self.not_judged: list[Detail] = []
        self.sampled: dict[str, bool] = {}  # self_deal: kinds of view already schema-checked

    # --- calling the adapter ----------------------------------------------------------

    def _call(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Call the adapter; only setup, deal and act may be refused (protocol.md)."""
        try:
            return fn(*args)
        except Rejected as refused:
            if what in ("setup", "deal", "act"):
                raise
            raise AdapterError(f"{what} refused with {refused.code}: {refused.message}; "
                               "only setup, deal and act may be refused") from None
        except AdapterError:
            raise
        except Exception as error:  # noqa: BLE001 - any other exception is a crash
            tb = traceback.format_exc(limit=-6)
            raise AdapterError(f"{what} raised {type(error).__name__}: {error}", tb) from None

    def _checked(self, what: str, value: Any, schema: str) -> Any:
        value = _json(value, what)
        problems = schemas.check(schema, value)
        diffs = [Difference(f"{what}.{'.'.join(map(str, p))}".rstrip("."), MISSING, MISSING, m)
                 for p, m in problems[:10]]
        self.judge("schema", diffs, f"{what} does not follow {schema} (observation.md)",
                   self._field_rules(diffs), diverges=True)
        return value

    def view(self) -> dict[str, Any]:
        return self._checked("view", self._call("view()", self.adapter.view), "view.schema.json")

    def observe(self, seat: str) -> dict[str, Any]:
        raw = self._call(f"observe({seat})", self.adapter.observe, seat)
        return self._checked(f"observe.{seat}", raw, "observation.schema.json")

    # --- judging ----------------------------------------------------------------------

    def judge(self, kind: str, differences: list[Difference] | None, message: str,
              rules: Iterable[str] = (), code: str | None = None, failed: bool | None = None,
              diverges: bool = False) -> bool:
        """Record one check; True when it held. A failure is kept as a judged failure or,
        above the run's level, as not judged; `diverges` stops the run after a failure."""
        levels = self.index.levels
        level = levels.of(kind, code)
        judged = levels.judged(level, self.level)
        own = levels.checks[kind].rules
        attributed = tuple(dict.fromkeys([*own, *rules])) or self.sc.rules
        bad = bool(differences) if failed is None else failed
        self.checks.append(Check(kind, level, attributed, not bad, judged))
        if not bad:
            return True
        step = self.step
        detail = Detail(message, step.label if step else None, step.line if step else None,
                        step.payload if step and step.kind else MISSING, attributed,
                        differences or [], kind=kind, level=level, rule=attributed[0])
        detail.context = context_lines(detail, self.index, self.adapter)  # the table now
        (self.failures if judged else self.not_judged).append(detail)
        if diverges:
            raise Diverged(f"{'failed' if judged else 'not judged'} {kind}")
        return False

    def run(self) -> None:
        for step in self.sc.steps:
            self.step = step
            if step.kind:
                self.send(step)
            if step.expect:
                self.expect(step.expect)

    def send(self, step: Step) -> None:
        before = self.view() if step.reject and self.started else None
        method = {"setup": self.adapter.start, "deal": self.adapter.deal, "act": self.adapter.act}
        payload = json.loads(json.dumps(step.payload))  # the adapter may keep or mutate it
        try:
            self._call(step.kind, method[step.kind], payload)
            refused = None
        except Rejected as error:
            refused = error
        if step.reject is None:
            self.judge("accepted", None,
                       f"rejected with {refused.code} ({refused.message}); it must be accepted"
                       if refused else "", self._refusal_rules(refused),
                       failed=refused is not None, diverges=True)
            self.started = self.started or step.kind == "setup"
            return
        code_rules = self._code_rules(step.reject)
        self.judge("rejected", None, f"accepted; it must be rejected with {step.reject}",
                   code_rules, code=step.reject, failed=refused is None, diverges=True)
        self.judge_code(step, refused, code_rules)
        if before is not None:
            changes = diff(before, self.view(), "view", partial=False)
            self.judge("unchanged", changes, "the rejected step changed the referee view "
                       "(DIG-03)", diverges=True)

    def judge_code(self, step: Step, refused: Rejected, code_rules: tuple[str, ...]) -> None:
        """Known code (rules), the one rule's code (codes), the check order (strict)."""
        got = refused.code
        known = got in self.index.codes
        self.judge("known_code", [Difference("error.code", step.reject, got,
                                             "not a code of errors.yaml")],
                   f"rejected with a code that errors.yaml does not have ({refused.message})",
                   code_rules, failed=not known)
        if not known:
            return
        several = got in step.also
        kind = "check_order" if several else "code"
        note = (f"{got} is also broken, but {step.reject} comes first in the check order"
                if several else "")
        self.judge(kind, [Difference("error.code", step.reject, got, note)],
                   f"rejected with the wrong code ({refused.message})", code_rules,
                   code=step.reject, failed=got != step.reject)

    def _code_rules(self, code: str | None) -> tuple[str, ...]:
        error = self.index.codes.get(code) if code else None
        return error.rules if error else ()

    def _refusal_rules(self, refused: Rejected | None) -> tuple[str, ...]:
        """A wrong refusal is filed under the scenario's rules that the code names, else
        under the scenario's own rules."""
        named = set(self._code_rules(refused.code if refused else None))
        return tuple(r for r in self.sc.rules if r in named) or self.sc.rules

    def _field_rules(self, differences: list[Difference]) -> tuple[str, ...]:
        """The scenario's rules of the areas behind the differing fields (levels.yaml
        `fields`), the innermost field's first (`tricks[0].points` is about points before
        tricks), in the scenario's order; else the scenario's rules."""
        areas: list[str] = []
        for d in differences:
            for part in reversed(d.path.replace("[", ".").split(".")):
                areas += self.index.levels.fields.get(part, ())
        ordered = [r for area in dict.fromkeys(areas) for r in self.sc.rules
                   if r.split("-")[0] == area]
        return tuple(dict.fromkeys(ordered)) or self.sc.rules

    def expect(self, expect: dict[str, Any]) -> None:
        if "view" in expect:
            found = diff(expect["view"], self.view(), "view")
            why = self._field_rules(found or [Difference(f"view.{k}", 0, 0)
                                              for k in expect["view"]])
            self.judge("view", found, "the referee view does not match", why, diverges=True)
        observe = expect.get("observe") or {}
        if observe:
            referee = self.view()
            for seat, partial in observe.items():
                seen = self.observe(seat)
                self.check_hidden(seat, seen, referee)
                self.check_seats_hidden(seat, seen, referee)
                self.check_points_hidden(seat, seen, referee)
                found = diff(partial, seen, f"observe.{seat}")
                why = self._field_rules(found or [Difference(f"observe.{k}", 0, 0)
                                                  for k in partial])
                self.judge("observe", found, f"the observation of {seat} does not match", why)
        if "legal" in expect:
            actions = _json(self._call("legal()", self.adapter.legal), "legal()")
            if not isinstance(actions, list):
                self.judge("schema", [Difference("legal", [], actions)],
                           "legal() did not return a list", diverges=True)
            found = diff_sets(expect["legal"], actions, "legal")
            self.judge("legal", found, "the legal actions do not match",
                       self._field_rules([Difference("legal", 0, 0)]))
        if "perft" in expect:
            found = self.perft(expect["perft"])
            self.judge("perft", found, "the perft counts do not match",
                       self._field_rules([Difference("perft", 0, 0)]))
        if "self_deal" in expect:
            self.self_deal(expect["self_deal"])

    def perft(self, want: dict[str, Any]) -> list[Difference]:
        got = self._call("perft()", self.adapter.perft, want["depth"])
        got = self._checked(f"perft({want['depth']})", got, "protocol/perft-result.json")
        found = diff(want["total"], got["total"], f"perft.depth{want['depth']}.total")
        if "divide" in want:
            found += diff(want["divide"], got["divide"], "perft.divide", partial=False)
        return found

    # --- capability self_deal (protocol.md, "Deals of your own") ------------------------

    def self_deal(self, want: dict[str, Any]) -> None:
        """DEAL-04 or DEAL-06: `matches` matches started and dealt by the implementation,
        their first dealers or their deals (the first one and the redeal after four passes)
        tested with chi-square at the false-alarm rate selfdeal.ALPHA."""
        dealers: list[str] = []
        firsts: list[list[str]] = []
        redeals: list[list[str]] = []
        for _ in range(want["matches"]):
            self._call("new_match()", self.adapter.new_match)
            self.started = True
            first = self.own_deal("new_match()", 1, None)
            dealers.append(first["dealer"])
            if want["check"] == "shuffle":
                firsts.append(selfdeal.order_of(first))
                self.four_passes(first["dealer"])
                phase = self.light_view()["phase"]
                self.judge("self_deal", [Difference("view.phase", "round_over", phase)],
                           "after four passes in the implementation's own match the round "
                           "must be over, ready for next_deal", ("BID-09",),
                           failed=phase != "round_over", diverges=True)
                self._call("next_deal()", self.adapter.next_deal)
                redeal = self.own_deal("next_deal()", 2, first["dealer"])
                redeals.append(selfdeal.order_of(redeal))
        if want["check"] == "shuffle":
            tests = selfdeal.shuffle_tests(firsts, redeals)
        else:
            tests = selfdeal.dealer_tests(dealers)
        bad = selfdeal.failing(tests)
        what = "first dealers" if want["check"] == "first_dealer" else "shuffles"
        self.judge("self_deal", [Difference(f"self_deal: {t.name}", MISSING, MISSING,
                                            selfdeal.describe(t, len(tests))) for t in bad],
                   f"the implementation's own {what} are not uniform and independent "
                   f"(a correct implementation fails this check with probability at most "
                   f"{selfdeal.ALPHA:g})", [t.rule for t in bad])

    def own_deal(self, what: str, round_number: int, last_dealer: str | None) -> dict[str, Any]:
        """The referee view after the implementation dealt: a fresh round in bidding, seven
        tiles each (DEAL-01), dealt by the seat left of the last dealer (DEAL-05)."""
        view = self.light_view() if self.sampled.get(what) else self.view()
        self.sampled[what] = True
        hands = view["hands"]
        dealer = view["dealer"]
        problems = []
        if view["phase"] != "bidding" or view["round"] != round_number:
            problems.append(Difference("view.phase, view.round", ["bidding", round_number],
                                       [view["phase"], view["round"]]))
        if view["marks"] != {"AC": 0, "BD": 0}:
            problems.append(Difference("view.marks", {"AC": 0, "BD": 0}, view["marks"]))
        tiles = [t for s in SEATS for t in hands[s]]
        if any(len(hands[s]) != 7 for s in SEATS) or sorted(tiles) != sorted(selfdeal.TILES):
            problems.append(Difference("view.hands", "7 distinct tiles each, 28 in all",
                                       hands, "DEAL-01"))
        if last_dealer is not None and dealer != SEATS[left_of(SEATS.index(last_dealer))]:
            problems.append(Difference("view.dealer", SEATS[left_of(SEATS.index(last_dealer))],
                                       dealer, "DEAL-05"))
        self.judge("self_deal", problems, f"after {what} the referee view is not a new round "
                   "of the base game dealt by the implementation", ("DEAL-01", "DEAL-05"),
                   diverges=True)
        return view

    def light_view(self) -> dict[str, Any]:
        """A referee view checked only in the fields a sample reads (the full schema check,
        most of the sampling's time, is made on the first view of each kind, and on any
        view whose sampled fields are not of the right form)."""
        view = _json(self._call("view()", self.adapter.view), "view()")
        hands = view.get("hands") if isinstance(view, dict) else None
        if (isinstance(hands, dict) and sorted(hands) == list(SEATS)
                and all(isinstance(h, list) and all(type(t) is str for t in h)
                        for h in hands.values())
                and view.get("dealer") in tuple(SEATS) and type(view.get("round")) is int
                and type(view.get("phase")) is str and isinstance(view.get("marks"), dict)):
            return view
        return self._checked("view", view, "view.schema.json")

    def four_passes(self, dealer: str) -> None:
        """BID-01, BID-09: every seat passes, in the engine's bidding order; the round is
        over."""
        for seat in bidding_order(SEATS.index(dealer)):
            action = {"type": "pass", "seat": SEATS[seat]}
            try:
                self._call("act", self.adapter.act, action)
            except Rejected as refused:
                self.judge("self_deal", None, f"a pass by {action['seat']} in the "
                           f"implementation's own match was rejected with {refused.code} "
                           f"({refused.message})", ("BID-01", "BID-09"), failed=True,
                           diverges=True)

    def check_hidden(self, seat: str, seen: dict[str, Any], referee: dict[str, Any]) -> None:
        """VIS-01, VIS-06: no other seat's unplayed tile, no covered trick's tile, anywhere."""
        hidden = {t for s in SEATS if s != seat for t in referee["hands"][s]}
        covered = referee["tricks"][: covered_in_view(referee)]
        hidden |= {p["tile"] for trick in covered for p in trick["plays"]}
        leaks = sorted(hidden & set(_strings(seen)))
        self.judge("hidden_tiles", None,
                   f"the observation of {seat} shows tiles it may not see: {show(leaks)}",
                   failed=bool(leaks))

    def check_seats_hidden(self, seat: str, seen: dict[str, Any],
                           referee: dict[str, Any]) -> None:
        """VIS-08: in no field, `x_` fields included, who played or won a completed trick."""
        leaks = seat_leaks(seen, referee, f"observe.{seat}")
        self.judge("hidden_seats", leaks[:10], f"the observation of {seat} tells which seat "
                   "played or won a completed trick during the round")

    def check_points_hidden(self, seat: str, seen: dict[str, Any],
                            referee: dict[str, Any]) -> None:
        """VIS-09: under a marks contract no seat sees the running round points."""
        leaks = points_leaks(seen, referee, f"observe.{seat}")
        self.judge("hidden_points", leaks[:10], f"the observation of {seat} shows the round "
                   "points of a marks contract during the round: they tell what the covered "
                   "tricks hold")


def points_leaks(seen: Any, referee: dict[str, Any], path: str) -> list[Difference]:
    """VIS-09 leaks of an observation, judged against the referee view of the same moment.

    Under a marks contract in phases `declaring` and `playing`, `points` must be null, and
    no object at any depth (`x_` fields included) may be the team map of the referee's
    round points. A map is judged only when those points differ from every public team map
    (zero, tricks won, marks): then it cannot be one of them by chance.
    """
    contract = referee.get("contract")
    if (referee["phase"] not in ("declaring", "playing") or not contract
            or "marks" not in contract["bid"]):
        return []
    points = referee["points"]
    leaks = []
    if seen.get("points") is not None:
        leaks.append(Difference(f"{path}.points", None, seen["points"],
                                "must be null under a marks contract during the round"))
    public = ({"AC": 0, "BD": 0}, seen.get("tricks_won"), seen.get("marks"))
    if points in public:
        return leaks
    for where, obj in _objects({k: v for k, v in seen.items() if k != "points"}, path):
        if obj == points:
            leaks.append(Difference(where, MISSING, obj, "the running round points"))
    return leaks


def seat_leaks(seen: Any, referee: dict[str, Any], path: str) -> list[Difference]:
    """VIS-08 leaks of an observation, judged against the referee view of the same moment.

    Only forms that no correct observation can hold are judged (INTERPRETING.md): while the
    round is in progress, an object at any depth that pairs completed-trick tiles with
    exactly the seats that played them, as a play `{"seat", "tile"}` (an action too), a
    seat-keyed map of tiles or a tile-keyed map of seats; or `{"number": n, "winner": s}`
    with the seat that won trick n. A true pairing cannot be chance: the public fields
    never pair a seat with a completed trick's tile, and a map that also pairs such a tile
    with another seat is not taken for a record of plays.
    """
    if referee["phase"] not in IN_ROUND or not referee["tricks"]:
        return []
    played = {p["tile"]: p["seat"] for trick in referee["tricks"] for p in trick["plays"]}
    winners = {trick["number"]: trick["winner"] for trick in referee["tricks"]}
    leaks = []
    for where, obj in _objects(seen, path):
        pairs = [(s, t) for s, t in _seat_tile_pairs(obj) if t in played]
        if pairs and all(played[t] == s for s, t in pairs):
            leaks.append(Difference(where, MISSING, obj, "pairs a completed trick's tiles "
                                    "with the seats that played them"))
        number = obj.get("number")
        if (isinstance(number, int) and not isinstance(number, bool)
                and number in winners and obj.get("winner") == winners[number]):
            leaks.append(Difference(where, MISSING, obj, f"names the seat that won trick "
                                    f"{number}"))
    return leaks


def _objects(value: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every JSON object inside a value, with its path."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _objects(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _objects(item, f"{path}[{i}]")


def _is_seat(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 1 and value in SEATS


def _seat_tile_pairs(obj: dict[str, Any]) -> list[tuple[Any, Any]]:
    """The (seat, tile) pairs an object states: a play, a map seat -> tile(s), a map
    tile -> seat. Tiles are any strings here; the caller keeps those of completed tricks."""
    if "seat" in obj and "tile" in obj:
        seat, tile = obj["seat"], obj["tile"]
        return [(seat, tile)] if _is_seat(seat) and isinstance(tile, str) else []
    if all(_is_seat(key) for key in obj):
        return [(key, tile) for key, value in obj.items()
                for tile in (value if isinstance(value, list) else [value])
                if isinstance(tile, str)]
    return [(value, key) for key, value in obj.items() if _is_seat(value)]


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def run_scenario(scenario: Scenario, adapter: Adapter | Harnessed, index: SpecIndex | None = None,
                 limit: float | None = IN_PROCESS_LIMIT, level: str = "strict") -> Result:
    """One scenario's outcome at one level. `limit` bounds an in-process adapter's whole
    scenario (a process adapter has its own per-message timeout)."""
    index = index or load_index()
    adapter = harnessed(adapter)
    path = display_path(scenario.path)
    base = {"title": scenario.title, "variants": tuple(scenario.variants)}
    broken = adapter.broken
    if broken:
        return Result(scenario.id, path, Outcome.ERRORED, **base,
                      detail=Detail(f"the implementation is unusable: {broken}"))
    reason = skip_reason(scenario, adapter)
    if reason:
        return Result(scenario.id, path, Outcome.SKIPPED, reason=reason, **base)
    mark = adapter.stderr_mark()
    run = ScenarioRun(scenario, adapter, index, level)
    start = time.perf_counter()
    error: Detail | None = None
    stopped = ""
    try:
        with watchdog(limit if adapter.in_process else None):
            run.run()
    except Diverged as why:
        stopped = _stopped(run, str(why))
    except Hung as hung:
        error = _error_detail(run, f"the implementation hung: {hung}")
    except AdapterError as failure:
        error = _error_detail(run, str(failure), failure.stderr)
    except Exception as failure:  # noqa: BLE001 - a harness bug must not end the run either
        error = _error_detail(run, f"the harness failed while judging this scenario "
                              f"({type(failure).__name__}: {failure}); please report it "
                              "with this scenario", traceback.format_exc(limit=-8))
    seconds = time.perf_counter() - start
    outcome = (Outcome.ERRORED if error else Outcome.FAILED if run.failures
               else Outcome.NOT_JUDGED if run.not_judged else Outcome.PASSED)
    detail = error or next(iter(run.failures or run.not_judged), None)
    if detail is not None and not detail.stderr:
        detail.stderr = adapter.stderr_since(mark)
    return Result(scenario.id, path, outcome, seconds, detail, **base,
                  failures=run.failures, not_judged=run.not_judged, checks=run.checks,
                  stopped=stopped)


def _error_detail(run: ScenarioRun, message: str, stderr: str = "") -> Detail:
    step = run.step
    return Detail(message, step.label if step else None, step.line if step else None,
                  step.payload if step and step.kind else MISSING, run.sc.rules, stderr=stderr)


def _stopped(run: ScenarioRun, why: str) -> str:
    """The note of a run that stopped because the states diverged."""
    steps = run.sc.steps
    left = len(steps) - 1 - steps.index(run.step) if run.step in steps else 0
    rest = f"; the {left} later steps were not run" if left else ""
    above = " (a check above this level)" if why.startswith("not judged") else ""
    return (f"stopped at {run.step.label if run.step else '?'}: the states diverged "
            f"after a {why.split()[-1]} check{above}{rest}")


def context_lines(detail: Detail, index: SpecIndex, adapter: Adapter) -> list[str]:
    """What a failure block adds: the broken rule's one-line text, and when tiles are
    involved a picture of the table (the trick in play order, trump, the acting hand)."""
    out = []
    rule = index.rules.get(detail.rule)
    if rule is not None:
        out.append(f"rule {rule.id}: {rule.summary}")
    action = detail.action if isinstance(detail.action, dict) else {}
    tiles = "tile" in action or detail.kind in ("legal", "hidden_tiles") or any(
        part in d.path for d in detail.differences for part in ("trick", "hand", "captured"))
    if tiles:  # legal actions are the next seat's: its hand, not the actor's
        out += table_picture(adapter, None if detail.kind == "legal" else action.get("seat"))
    return out


def table_picture(adapter: Adapter, seat: Any) -> list[str]:
    """Three lines from the implementation's own referee view, or none if it cannot give
    one that follows the schema."""
    try:
        view = _json(adapter.view(), "view()")
    except AdapterError:
        raise  # the engine broke on a view: the scenario is errored, as on any other
    except Exception:  # noqa: BLE001 - the picture is a help, never a second failure
        return []
    if schemas.check("view.schema.json", view):
        return []
    contract = view["contract"] or {}
    bid = contract.get("bid") or {}
    marks = bid.get("marks")
    stake = (f"{bid['points']} points" if "points" in bid else
             f"{marks} mark{'' if marks == 1 else 's'}" if "marks" in bid else "")
    named = contract.get("trump")
    trump = (f"trump {'not declared yet' if named is None else named} "
             f"({contract.get('declarer')} bid {stake})" if contract
             else "trump not declared yet")
    trick = ", ".join(f"{p['seat']} {p['tile']}" for p in view["trick"]) or "empty"
    seat = seat if isinstance(seat, str) and seat in SEATS else view["to_act"]
    lines = [f"table: {trump}; trick in play order: {trick}"]
    if seat in SEATS:
        lines.append(f"hand of {seat}: {' '.join(view['hands'][seat]) or 'empty'}")
    return lines


def invalid_file(loaded: Loaded) -> Result:
    """A scenario file with problems is an errored result; the run goes on."""
    path = display_path(loaded.path)
    problems = [str(p) for p in loaded.problems]
    return Result(path, path, Outcome.ERRORED,
                  detail=Detail("invalid scenario file", problems=problems))


def run_all(loaded: Iterable[Loaded], adapter: Adapter | Harnessed,
            on_result: Callable[[Result], None] = lambda r: None,
            level: str = "strict") -> list[Result]:
    index = load_index()
    adapter = harnessed(adapter)
    results = []
    for item in loaded:
        if item.scenario is None:
            result = invalid_file(item)
        else:
            result = run_scenario(item.scenario, adapter, index, level=level)
        on_result(result)
        results.append(result)
    return results
