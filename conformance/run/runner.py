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
import re
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Set
from contextlib import contextmanager
from functools import partial
from types import FrameType
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

from conformance.adapters.inprocess import harnessed
from conformance.adapters.limits import cut
from conformance.adapters.protocol import Adapter, AdapterError, Harnessed, Rejected
from conformance.adapters.support import unsupported
from conformance.corpus.scenario import Loaded, Scenario, Step
from conformance.run import selfdeal
from conformance.run.diagnosis import Cause, Context, Diagnosis, general_path
from conformance.run.inputs import input_of
from conformance.run.matching import MISSING, Difference, diff, diff_sets, show
from conformance.run.pictures import Pictures
from conformance.run.results import Check, Detail, Outcome, Result, interned, shared
from conformance.run.settle import settle
from conformance.run.standin import StandIn, stand_in

if TYPE_CHECKING:
    from conformance.run.held import Held
from conformance.run.visibility import as_json, points_leaks, seat_leaks, tile_leaks
from conformance.specdata import schemas
from conformance.specdata.files import display_path
from conformance.specdata.index import SpecIndex, load_index
from conformance.specdata.levels import STRICT, Level
from reference_impl.rules import bidding_order
from reference_impl.tiles import NAMES, SEATS, left_of

Causes = Callable[[], list[Cause]]
T = TypeVar("T")


def given(*causes: Cause) -> Causes:
    """Causes known before the check fails, bound now (a loop's current values)."""
    return lambda: list(causes)


# An in-process implementation has no pipe to time out on: a watchdog bounds each scenario.
IN_PROCESS_LIMIT = 30.0


class Hung(BaseException):  # noqa: N818 - not an Exception, so no `except Exception` eats it
    """Raised into an in-process implementation that ran past the scenario's time limit."""


@contextmanager
def watchdog(seconds: float | None) -> Iterator[None]:
    """Raise Hung in this thread after `seconds` (SIGALRM: main thread, Unix only; elsewhere
    nothing is bounded). Cheap: one timer per scenario, not per call."""
    if not (seconds and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()):
        yield
        return

    def expire(_signum: int, _frame: FrameType | None) -> None:
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


def skip_reason(scenario: Scenario, adapter: Harnessed) -> str:
    missing = [v for v in scenario.variants if v not in adapter.variants]
    if missing:
        source = adapter.declared_by
        if source:
            return f"needs variant {', '.join(missing)}, not in {source}"
        return f"needs variant {', '.join(missing)}, which {adapter.name} does not declare"
    values = unsupported(scenario, adapter.settings)  # partial support (protocol.md)
    if values:
        return (f"needs variant setting {'; '.join(values)}, which "
                f"{adapter.declared_by or adapter.name} does not support")
    caps = sorted(scenario.needs - set(adapter.capabilities))
    if caps and not drivable(scenario, set(caps)):
        return (f"needs capability {', '.join(caps)}, which {adapter.name} does not declare, "
                "and has nothing else to judge")
    return ""


def drivable(scenario: Scenario, lacking: set[str]) -> bool:
    """Something of the scenario can be judged without the capabilities `lacking`: a step
    to send, or an expectation of another kind (their own checks are then not judged,
    counted apart: ScenarioRun.answerable)."""
    return any(step.kind or set(step.expect or ()) - lacking for step in scenario.steps)


class ScenarioRun:
    """One scenario against one adapter, judged at one level (levels.yaml).

    Every check is recorded. A failed check that leaves both states comparable (a wrong
    code on a rejection that changed nothing, a wrong observation, legal set or count)
    lets the run go on; one after which they diverge (a wrong acceptance or rejection, a
    changed view, a view that differs or cannot be read) stops it, and the result says so.
    """

    def __init__(self, scenario: Scenario, adapter: Harnessed, index: SpecIndex,
                 level: Level = STRICT, pictures: bool = False):
        self.sc, self.adapter, self.index, self.level = scenario, adapter, index, level
        self.step: Step | None = None
        self.at: int | None = None  # the step's index (steps alike are told apart)
        # what an HTML report draws of each failing step, kept only when one is asked for
        self.pictures: Pictures | None = Pictures() if pictures else None
        self.started = False
        self.checks: list[Check] = []
        self.failures: list[Detail] = []
        self.not_judged: list[Detail] = []
        self.unanswered: dict[str, int] = {}  # capability -> its checks not judged (lacking)
        self.sampled: dict[str, bool] = {}  # self_deal: kinds of view already schema-checked
        self.diagnosis = Diagnosis(Context(scenario, self.adapter, index, lambda: self.step))
        self.replay_broke = ""  # how the engine broke during the diagnosis's replay

    # --- calling the adapter ----------------------------------------------------------

    def _call(self, what: str, fn: Callable[..., T], *args: object) -> T:
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

    def _checked(self, what: str, value: object, schema: str, judged: Set[str] = frozenset()
                 ) -> Any:
        """`value` as JSON, judged against its schema; `judged`: paths a leak check has
        already failed (an unknown field that leaks is that leak, not also a form)."""
        value = as_json(value, what)
        if self.pictures is not None and what == "view":
            self.pictures.read["view"] = value
        problems = schemas.check(schema, value)
        diffs = [Difference(f"{what}.{'.'.join(map(str, p))}".rstrip("."), MISSING, MISSING, m)
                 for p, m in problems[:10]]
        done = {re.sub(r"\[(\d+)\]", r".\1", p) for p in judged}
        diffs = [d for d in diffs if not any(d.path == p or d.path.startswith(p + ".")
                                             for p in done)]
        self.judge("schema", diffs, f"{what} does not follow {schema} (observation.md)",
                   causes=lambda: [self.diagnosis.form(diffs, "protocol.md" if what.startswith(
                       "perft") else "observation.md", value)], diverges=True)
        return value

    def view(self) -> dict[str, Any]:
        view = self._call("view()", self.adapter.view)
        return cast(dict[str, Any], self._checked("view", view, "view.schema.json"))

    def observe(self, seat: str) -> dict[str, Any]:
        raw = self._call(f"observe({seat})", self.adapter.observe, seat)
        return cast(dict[str, Any], self._checked(f"observe.{seat}", raw,
                                                  "observation.schema.json"))

    # --- judging ----------------------------------------------------------------------

    def judge(self, kind: str, differences: list[Difference] | None, message: str,
              rules: Iterable[str] = (), code: str | None = None, failed: bool | None = None,
              diverges: bool = False, causes: Causes | None = None,
              test_input: str | None = None) -> bool:
        """Record one check; True when it held. A failure is kept as a judged failure or,
        above the run's level, as not judged, once per cause that `causes` finds
        (diagnosis.py; else under `rules`); `diverges` stops the run after a failure."""
        levels = self.index.levels
        level = levels.of(kind, code, test_input)
        judged = levels.judged(level, self.level)
        bad = bool(differences) if failed is None else failed
        if bad and self.pictures is not None:
            self.pictures.failed(self.at, kind, self._view_for_picture)
        if not bad:
            own = levels.checks[kind].rules
            self.checks.append(interned(Check(kind, level,
                                              tuple(dict.fromkeys([*own, *rules]))
                                              or self.sc.rules, True, judged)))
            return True
        broke = self.replay_broke
        found = self._causes(kind, rules, causes)
        broke = self.replay_broke if self.replay_broke != broke else ""
        step = self.step
        for cause in found:
            self.checks.append(interned(Check(kind, level, (cause.rule,), False, judged)))
            detail = Detail(message, step.label if step else None, step.line if step else None,
                            step.payload if step and step.kind else MISSING, (cause.rule,),
                            differences or [], kind=kind, level=level, rule=cause.rule,
                            cause=cause.what, first_seen=cause.where,
                            alternatives=[list(a) for a in cause.alternatives],
                            entry=cause.entry, decided=list(cause.decided))
            detail.since = self._since()
            if broke:  # the engine is restarted, its table gone: the failure stays, said so
                detail.context = context_lines(detail, self.index, self.adapter, table=False)
                detail.context.append(f"the engine then failed during the diagnosis's "
                                      f"replay, so the cause is the check's own rule: {broke}")
            else:
                detail.context = context_lines(detail, self.index, self.adapter)  # the table
                detail.context += self.diagnosis.position(cause)
            (self.failures if judged else self.not_judged).append(detail)
        if diverges or broke:
            raise Diverged(f"{'failed' if judged else 'not judged'} {kind}")
        return False

    def _view_for_picture(self) -> object:
        """The implementation's view for a report's picture, or why there is none: a view
        it cannot give is drawn as none, never judged (the run's own checks judge views)."""
        try:
            return as_json(self.adapter.view(), "view()")
        except Hung:
            raise
        except Exception as error:  # noqa: BLE001 - an unusable view is drawn as none
            return {"_unreadable": f"{type(error).__name__}: {cut(str(error), 200)}"}

    def _since(self, most: int = 8) -> list[str]:
        """The steps sent since the last step that was checked, up to this one: how the
        position came about."""
        steps = self.sc.steps
        if self.step not in steps:
            return []
        at = steps.index(self.step)
        start = at
        while start > 0 and not (steps[start - 1].expect or steps[start - 1].reject):
            start -= 1
        # a setup step's label is its kind ("setup"): said once, not "setup setup"
        shown = [s.label if brief(s) == s.label else f"{s.label} {brief(s)}"
                 for s in steps[start:at] if s.kind]
        return (["..."] if len(shown) > most else []) + shown[-most:]

    def _causes(self, kind: str, rules: Iterable[str], causes: Causes | None) -> list[Cause]:
        """The causes of a failed check: the diagnosis's, else the check's own rules."""
        found: list[Cause] = []
        if causes is not None:
            try:
                found = causes()
            except (Rejected, Hung):
                raise
            except AdapterError as error:  # a failure found stays one
                self.replay_broke, found = cut(str(error), 500), []
            except Exception:  # noqa: BLE001 - a diagnosis that fails falls back to the rules
                found = []
        if found:
            return list(dict.fromkeys(found))
        own = self.index.levels.checks[kind]
        named = list(dict.fromkeys(rules)) or [next(iter([*own.rules, *self.sc.rules]),
                                                    "DIG-03")]
        return [Cause(rule, own.means.split(";")[0]) for rule in named]

    def run(self) -> None:
        for at, step in enumerate(self.sc.steps):
            self.step, self.at = step, at
            if self.pictures is not None:
                self.pictures.next_step()
            if step.kind:
                self.send(step)
            if step.expect:
                self.expect(step.expect)

    def send(self, step: Step) -> None:
        kind, want = step.kind, step.reject
        assert kind is not None  # run() sends only the steps that have a kind
        before = self.view() if want and self.started else None
        if self.pictures is not None and before is not None:
            self.pictures.read["before"] = before
        method = {"setup": self.adapter.start, "deal": self.adapter.deal, "act": self.adapter.act}
        payload = json.loads(json.dumps(step.payload))  # the adapter may keep or mutate it
        refused: Rejected | None = None
        try:
            self._call(kind, method[kind], payload)
        except Rejected as error:
            refused = error
        if self.pictures is not None:
            self.pictures.read["answer"] = refused.code if refused else None
        if want is None:
            code = refused.code if refused else None
            self.judge("accepted", None,
                       f"rejected with {code} ({refused.message}); it must be accepted"
                       if refused else "", failed=refused is not None, diverges=True,
                       causes=lambda: [self.diagnosis.refused_legal(step.payload, code)])
            self.started = self.started or kind == "setup"
            return
        self.judge("rejected", None, f"accepted; it must be rejected with {want}",
                   code=want, failed=refused is None, diverges=True,
                   causes=lambda: [self.diagnosis.accepted_illegal(step.payload, want, before)],
                   test_input=input_of(step))  # a test input's refusal: its own level
        assert refused is not None  # an accepted step failed `rejected`, which stops the run
        self.judge_code(step, refused)
        if before is not None:
            changes = diff(before, self.view(), "view", partial=False)
            self.judge("unchanged", changes, "the rejected step changed the referee view "
                       "(DIG-03)", diverges=True, causes=lambda: [
                           Cause("DIG-03", "a refused action changed the referee view")])

    def judge_code(self, step: Step, refused: Rejected) -> None:
        """Known code (rules), the one rule's code (codes), the check order (strict)."""
        got, want = refused.code, step.reject
        assert want is not None  # only a step that expects a rejection has its code judged
        known = got in self.index.codes

        def wrong(order: bool) -> Causes:
            return lambda: [self.diagnosis.wrong_code(step.payload, got, want, order)]

        self.judge("known_code", [Difference("error.code", step.reject, got,
                                             "not a code of errors.yaml")],
                   f"rejected with a code that errors.yaml does not have ({refused.message})",
                   failed=not known, causes=wrong(False))
        if not known:
            return
        several = got in step.also
        kind = "check_order" if several else "code"
        note = (f"{got} is also broken, but {step.reject} comes first in the check order"
                if several else "")
        self.judge(kind, [Difference("error.code", step.reject, got, note)],
                   f"rejected with the wrong code ({refused.message})",
                   code=step.reject, failed=got != step.reject, causes=wrong(several),
                   test_input=input_of(step))

    def expect(self, expect: dict[str, Any]) -> None:
        if "view" in expect:
            found = diff(expect["view"], self.view(), "view")
            self.judge("view", found, "the referee view does not match", diverges=True,
                       causes=lambda: self.diagnosis.expectation("view", found))
        observe = expect.get("observe") or {}
        if observe:
            referee = self.view()
            for seat, wanted in observe.items():
                raw = as_json(self._call(f"observe({seat})", self.adapter.observe, seat),
                                   f"observe({seat})")
                # leaks first: a field the schema does not know may be the leak itself
                if self.pictures is not None:
                    self.pictures.read["observe"] = (seat, raw)
                leaked = self.check_leaks(seat, raw, referee) if isinstance(raw, dict) else set()
                seen = self._checked(f"observe.{seat}", raw, "observation.schema.json",
                                     leaked)
                found = [d for d in diff(wanted, seen, f"observe.{seat}")
                         if not any(d.path == p or d.path.startswith(p + "[")
                                    or d.path.startswith(p + ".") for p in leaked)]
                form = [d for d in found if form_only(d)]
                found = [d for d in found if not form_only(d)]
                self.judge("observe_form", form, f"the observation of {seat} differs in form "
                           "only", causes=given(*map(form_cause, form)))
                self.judge("observe", found, f"the observation of {seat} does not match",
                           causes=partial(self.diagnosis.expectation, "observe", found))
        if "legal" in expect and self.answerable("legal"):
            actions = as_json(self._call("legal()", self.adapter.legal), "legal()")
            if self.pictures is not None:
                self.pictures.read["legal"] = actions
            if not isinstance(actions, list):
                self.judge("schema", [Difference("legal", [], actions)],
                           "legal() did not return a list", diverges=True)
            found = diff_sets(expect["legal"], actions, "legal")
            self.judge("legal", found, "the legal actions do not match",
                       causes=lambda: self.diagnosis.expectation("legal", found))
        if "perft" in expect and self.answerable("perft"):
            found = self.perft(expect["perft"])
            depth = expect["perft"]["depth"]
            self.judge("perft", found, "the perft counts do not match",
                       causes=lambda: self.diagnosis.perft(depth))
        if "self_deal" in expect and self.answerable("self_deal"):
            self.self_deal(expect["self_deal"])

    def answerable(self, capability: str) -> bool:
        """The implementation declares `capability`; else its check is not judged, counted
        apart by capability, and every other check of the scenario still is."""
        if capability in self.adapter.capabilities:
            return True
        self.unanswered[capability] = self.unanswered.get(capability, 0) + 1
        return False

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
        failed = selfdeal.failing(tests)
        order = [t for t in failed if t.rule == "DEAL-03"]  # a convention: judged at strict
        bad = [t for t in failed if t.rule != "DEAL-03"]
        self.judge("hand_order", [Difference(f"self_deal: {t.name}", MISSING, MISSING,
                                             selfdeal.describe(t, len(tests))) for t in order],
                   "the hands the implementation deals itself are not in the order received",
                   causes=lambda: [Cause("DEAL-03", "self-dealt hands in a fixed order")])
        what = "first dealers" if want["check"] == "first_dealer" else "shuffles"
        self.judge("self_deal", [Difference(f"self_deal: {t.name}", MISSING, MISSING,
                                            selfdeal.describe(t, len(tests))) for t in bad],
                   f"the implementation's own {what} are not uniform and independent "
                   f"(a correct implementation fails this check with probability at most "
                   f"{selfdeal.ALPHA:g})", causes=lambda: [
                       Cause(t.rule, f"self-dealt {what}: {t.name}") for t in bad])

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
                                       [view["phase"], view["round"]], "MATCH-03"))
        if view["marks"] != {"AC": 0, "BD": 0}:
            problems.append(Difference("view.marks", {"AC": 0, "BD": 0}, view["marks"],
                                       "SCORE-03"))
        tiles = [t for s in SEATS for t in hands[s]]
        if any(len(hands[s]) != 7 for s in SEATS) or sorted(tiles) != sorted(NAMES):
            problems.append(Difference("view.hands", "7 distinct tiles each, 28 in all",
                                       hands, "DEAL-01"))
        if last_dealer is not None and dealer != SEATS[left_of(SEATS.index(last_dealer))]:
            problems.append(Difference("view.dealer", SEATS[left_of(SEATS.index(last_dealer))],
                                       dealer, "DEAL-05"))
        self.judge("self_deal", problems, f"after {what} the referee view is not a new round "
                   "of the base game dealt by the implementation", diverges=True,
                   causes=lambda: [Cause(d.note or "DEAL-01", f"a self-dealt {d.path} is wrong")
                                   for d in problems[:1]])
        return view

    def light_view(self) -> dict[str, Any]:
        """A referee view checked only in the fields a sample reads (the full schema check,
        most of the sampling's time, is made on the first view of each kind, and on any
        view whose sampled fields are not of the right form)."""
        view = as_json(self._call("view()", self.adapter.view), "view()")
        hands = view.get("hands") if isinstance(view, dict) else None
        if (isinstance(hands, dict) and sorted(hands) == list(SEATS)
                and all(isinstance(h, list) and all(type(t) is str for t in h)
                        for h in hands.values())
                and view.get("dealer") in tuple(SEATS) and type(view.get("round")) is int
                and type(view.get("phase")) is str and isinstance(view.get("marks"), dict)):
            return cast(dict[str, Any], view)
        return cast(dict[str, Any], self._checked("view", view, "view.schema.json"))

    def four_passes(self, dealer: str) -> None:
        """BID-01, BID-09: every seat passes, in the engine's bidding order; the round is
        over."""
        for seat in bidding_order(SEATS.index(dealer)):
            action = {"type": "pass", "seat": SEATS[seat]}
            try:
                self._call("act", self.adapter.act, action)
            except Rejected as refused:
                turn = refused.code == "NOT_YOUR_TURN"  # the order of bidding, else BID-09
                self.judge("self_deal", None, f"a pass by {action['seat']} in the "
                           f"implementation's own match was rejected with {refused.code} "
                           f"({refused.message})", ("BID-01" if turn else "BID-09",),
                           failed=True,
                           diverges=True)

    def check_leaks(self, seat: str, seen: dict[str, Any], referee: dict[str, Any]
                    ) -> set[str]:
        """Every leak of an observation, one failure per kind of item leaked, under the
        rule that hides it (visibility.py): another seat's tiles VIS-01, a covered trick's
        faces VIS-06, who played or won a completed trick VIS-08, the round points of a
        marks contract VIS-09. Returns the paths judged here, so that the expectation
        does not report them a second time."""
        hands, faces = tile_leaks(seat, seen, referee)
        rest = {k: v for k, v in seen.items() if k != "history"}
        in_history = (hands or faces) and tile_leaks(seat, rest, referee) == ([], [])
        for rule, tiles, what in (("VIS-01", hands, "another seat's unplayed tiles"),
                                  ("VIS-06", faces, "the faces of covered tricks")):
            if in_history:  # VIS-10: the leak is the history shown during the round
                rule, what = "VIS-10", "the action history during the round"
            self.judge("hidden_tiles", None, f"the observation of {seat} shows tiles it may "
                       f"not see ({what}): {show(tiles)}", failed=bool(tiles),
                       causes=given(Cause(rule, f"an observation shows {what}")))
        seats = seat_leaks(seen, referee, f"observe.{seat}")
        history = any(".history" in d.path for d in seats)  # VIS-10: no history in the round
        self.judge("hidden_seats", seats[:10], f"the observation of {seat} tells which seat "
                   "played or won a completed trick during the round", causes=lambda: [
                       Cause("VIS-10", "an observation shows the action history during the "
                             "round") if history else
                       Cause("VIS-08", "an observation tells who played or won a completed "
                             "trick during the round")])
        points = points_leaks(seen, referee, f"observe.{seat}")
        form = [d for d in points if d.actual == {"AC": 0, "BD": 0}
                and referee.get("points") == {"AC": 0, "BD": 0}]
        points = [d for d in points if d not in form]
        self.judge("hidden_points", points[:10], f"the observation of {seat} shows the round "
                   "points of a marks contract during the round: they tell what the covered "
                   "tricks hold", causes=lambda: [
                       Cause("VIS-09", "an observation shows the round points of a marks "
                             "contract during the round")])
        self.judge("observe_form", form, f"the observation of {seat} shows round points "
                   "where observation.md writes null (none is won yet, so nothing leaks)",
                   causes=lambda: [form_cause(d) for d in form[:1]])
        # a covered trick's faces shown are that leak, not also a wrong `captured`
        covered = [f"observe.{seat}.captured"] if faces else []
        return {d.path for d in [*seats, *points, *form]} | set(covered)


def brief(step: Step) -> str:
    """A step in a few words: `A plays 1|2`, `B bids 30`, `C passes`, `A declares 6`."""
    a = step.payload if isinstance(step.payload, dict) else {}
    seat, kind = a.get("seat", "?"), a.get("type")
    if step.kind != "act":
        return step.kind or "expect"
    if kind == "play":
        return f"{seat} plays {a.get('tile')}"
    if kind == "pass":
        return f"{seat} passes"
    if kind == "bid":
        bid = next((f"{v} {k}" if k == "marks" else str(v) if k == "points" else k
                    for k, v in a.items() if k not in ("type", "seat")), "?")
        return f"{seat} bids {bid}"
    stacks = f" with {a['stacks']} stacks" if "stacks" in a else ""
    return f"{seat} declares {a.get('trump')}{stacks}"


PUBLIC_ACTIONS = ("pass", "bid", "trump")  # what every seat saw made (not a play: VIS-08)


def form_only(d: Difference) -> bool:
    """A difference of form that tells nothing (observation.md's null where the engine
    writes an empty list or object, zero round points, or a `history` of the round's
    public bids and declaration, which every seat saw made)."""
    if d.expected is not None:
        return False
    return d.actual in ([], {}, {"AC": 0, "BD": 0}) or (
        d.path.endswith(".history") and isinstance(d.actual, list)
        and all(isinstance(a, dict) and a.get("type") in PUBLIC_ACTIONS for a in d.actual))


def form_cause(d: Difference, schema: str = "observation.md") -> Cause:
    """A difference of form: the field and what to change, generalised over seats."""
    return Cause(schema, f"{general_path(d.path)}: {d.note or 'null expected'}")


class _Common(TypedDict):
    """The fields every Result of a scenario has, whatever its outcome."""

    title: str
    variants: tuple[str, ...]
    rules: tuple[str, ...]
    size: int


def run_scenario(scenario: Scenario, adapter: Adapter | Harnessed, index: SpecIndex | None = None,
                 limit: float | None = IN_PROCESS_LIMIT, level: Level = STRICT,
                 pictures: bool = False) -> Result:
    """One scenario's outcome at one level. `limit` bounds an in-process adapter's whole
    scenario (a process adapter has its own per-message timeout); `pictures`: keep what
    an HTML report draws of each failing step (Result.pictures)."""
    index = index or load_index()
    adapter = harnessed(adapter)
    path = display_path(scenario.path)
    base = _Common(title=scenario.title, variants=shared(tuple(scenario.variants)),
                   rules=shared(scenario.rules), size=len(scenario.steps))
    broken = adapter.broken
    if broken:
        return Result(scenario.id, path, Outcome.ERRORED, **base,
                      detail=Detail(f"the implementation is unusable: {broken}"))
    standing = _standing_in(scenario, adapter, index)
    if standing is not None:  # run as the reference showed it may be (run/standin.py)
        scenario = standing.scenario
    reason = skip_reason(scenario, adapter)
    if reason:
        missing = tuple(v for v in scenario.variants if v not in adapter.variants)
        return Result(scenario.id, path, Outcome.SKIPPED, reason=reason, missing=missing,
                      **base)
    mark = adapter.stderr_mark()
    run = ScenarioRun(scenario, adapter, index, level, pictures)
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
    if run.pictures is not None and error is not None:
        run.pictures.errored(run.at)
    # a run keeps every Result: the id is the one its loading kept too (sys.intern), an
    # empty `unanswered` or `pictures` the one shared empty dict (never changed after)
    return Result(sys.intern(scenario.id), path, outcome, seconds, detail, **base,
                  failures=run.failures, not_judged=run.not_judged, checks=run.checks[:],
                  stopped=stopped,
                  unanswered=dict(sorted(run.unanswered.items())) if run.unanswered else _NONE,
                  stand_in=standing.notes if standing else (),
                  pictures=run.pictures.to_json() if run.pictures is not None else _NONE)


_NONE: dict[str, Any] = {}  # see run_scenario: read only


def _standing_in(scenario: Scenario, adapter: Harnessed, index: SpecIndex) -> StandIn | None:
    """A supported setting value in place of one the scenario does not depend on, for an
    implementation that declares every option the scenario names (else it is skipped
    anyway)."""
    if not adapter.settings or any(v not in adapter.variants for v in scenario.variants):
        return None
    return stand_in(scenario, adapter.settings, index)


def _error_detail(run: ScenarioRun, message: str, stderr: str = "") -> Detail:
    step = run.step
    return Detail(message, step.label if step else None, step.line if step else None,
                  step.payload if step and step.kind else MISSING, run.sc.rules, stderr=stderr)


def _stopped(run: ScenarioRun, why: str) -> str:
    """The note of a run that stopped because the states diverged."""
    steps = run.sc.steps
    left = len(steps) - 1 - steps.index(run.step) if run.step in steps else 0
    rest = f"; the {left} later steps were not run" if left else ""
    # the implementation's state left the expected one at a check of the scenario: the
    # check's kind (`rejected`, `view`, ...) is named, never read as a harness verdict
    if run.replay_broke:
        return (f"stopped at {run.step.label if run.step else '?'}: the engine failed "
                f"during the diagnosis's replay{rest}")
    how = "the unjudged" if why.startswith("not judged") else "the failed"
    above = " (a check above this level)" if how == "the unjudged" else ""
    return (f"stopped at {run.step.label if run.step else '?'}: the states diverged "
            f"after {how} `{why.split()[-1]}` check{above}{rest}")


def context_lines(detail: Detail, index: SpecIndex, adapter: Adapter | Harnessed,
                  table: bool = True) -> list[str]:
    """What a failure block adds: the broken rule's one-line text, and when tiles are
    involved (and `table`) a picture of the table (the trick in play order, trump, the
    acting hand)."""
    out = []
    rule = index.rules.get(detail.rule)
    if rule is not None:
        out.append(f"rule {rule.id}: {rule.sentence(detail.cause or detail.message)}")
    action = detail.action if isinstance(detail.action, dict) else {}
    tiles = "tile" in action or detail.kind in ("legal", "hidden_tiles") or any(
        part in d.path for d in detail.differences for part in ("trick", "hand", "captured"))
    if tiles and table:  # legal actions are the next seat's: its hand, not the actor's
        out += table_picture(adapter, None if detail.kind == "legal" else action.get("seat"))
    return out


def table_picture(adapter: Adapter | Harnessed, seat: object) -> list[str]:
    """A few lines from the implementation's own referee view (trump, the trick in play or
    the one that just ended, a hand), or none if it cannot give one that follows the
    schema."""
    try:
        view = as_json(adapter.view(), "view()")
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
    if not view["trick"] and view["tricks"]:  # a trick just ended: who took it, and how
        last = view["tricks"][-1]
        plays = ", ".join(f"{p['seat']} {p['tile']}" for p in last["plays"])
        lines.append(f"last trick ({last['number']}): {plays}; won by {last['winner']}")
    if seat in SEATS:
        lines.append(f"hand of {seat}: {' '.join(view['hands'][seat]) or 'empty'}")
    return lines


def invalid_file(loaded: Loaded | Held) -> Result:
    """A scenario file with problems is an errored result; the run goes on."""
    path = display_path(loaded.path)
    problems = [str(p) for p in loaded.problems]
    return Result(path, path, Outcome.ERRORED,
                  detail=Detail("invalid scenario file", problems=problems))


def run_all(loaded: Iterable[Loaded | Held], adapter: Adapter | Harnessed,
            on_result: Callable[[Result], None] = lambda r: None,
            level: Level = STRICT, pictures: bool = False) -> list[Result]:
    """Every scenario, then the run's causes settled; `pictures`: keep what an HTML
    report draws (run_scenario)."""
    index = load_index()
    adapter = harnessed(adapter)
    results = []
    for item in loaded:
        scenario = item.scenario  # a Held unpacks it: once, let go once judged
        if scenario is None:
            result = invalid_file(item)
        else:
            result = run_scenario(scenario, adapter, index, level=level, pictures=pictures)
        del scenario
        on_result(result)
        results.append(result)
    return settle(results)  # the causes, once the whole run is in
