"""The cause of a failure: the rule the engine broke, found from what differs.

The reference engine replays the scenario beside the run (a *shadow*, built only when a
failure is diagnosed, so a passing scenario costs nothing). A failure is explained in
two moves (spec/INTERPRETING.md, "How a cause is found"):

1. If the engine's referee view already differs from the shadow's before the failing
   check, the state diverged earlier, at a step nothing checked: the engine is replayed
   from its setup, a view after every step, and the cause is the first field that
   differs at the first step where one does, under the rule the reference applied to
   decide that field (`explain.field_rule`).
2. Otherwise the failure is about this step alone: an action accepted that the
   reference refuses (the rule of its refusal), an action refused that it accepts (the
   rule the engine's code claims in this position), a legal action too many or too few
   (each under the rule that refuses or allows it), an observation field (the VIS rule
   that decides what the seat sees).

A cause is a rule and a short text generalised over tiles and seats, so that one
mistake seen in many scenarios is one group of the report.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from conformance.adapters.protocol import AdapterError, Harnessed, Rejected
from conformance.corpus.scenario import Scenario, Step
from conformance.run.diagnosis import counterfactual, explain
from conformance.run.matching import MISSING, Difference, diff
from conformance.specdata.fields import observation_rule
from conformance.specdata.index import Rule, SpecIndex
from reference_impl import IllegalAction, Match
from reference_impl.actions import action_from_key
from reference_impl.errors import CODES
from reference_impl.match import MATCH_OVER, ROUND_OVER
from reference_impl.tiles import SEATS, TILE_INDEX
from reference_impl.variants import option_settings

# The observation fields a seat's view is judged by, and the rule that decides each
# (observation.md); a difference in one while the referee views agree is that rule's.



OVER = (ROUND_OVER, MATCH_OVER)
RULE_IDS = re.compile(r"\b[A-Z][A-Z0-9]*-\d{2}\b")

# the areas of spec/rules.md (the base game), whose rules an option may restate
BASE_AREAS = {"TBL", "TIL", "DEAL", "BID", "CON", "SUIT", "PLAY", "RANK", "PTS", "END", "SCORE",
              "MATCH", "VIS", "DIG"}


@dataclass(frozen=True)
class Cause:
    """What an engine did wrong: the rule it broke and what differs, in words that hold
    for every scenario where it does the same (no tile, no seat)."""

    rule: str
    what: str
    where: str = ""  # the step where it first showed, when earlier than the failing one
    # other (rule, what) this failure fits as well (a position where two misreadings give
    # the same plays); the run's other failures decide between them (settle)
    alternatives: tuple[tuple[str, str], ...] = ()
    # the base rule an option's rule restates here (restated): a special bid in play may
    # bring that base rule into play by its own rule (in_play)
    restates: str = field(default="", compare=False)
    # the entry of the reference's rule table whose decision, made otherwise, gives the
    # engine's answer (counterfactual.Suspect): the failures one decision explains are
    # one cause, whichever rules they show (settle)
    entry: str = field(default="", compare=False)
    # the rules of the options in force that the step's decisions name: where the base
    # rule found agrees wherever the option is off, one of these is the cause (settle)
    decided: tuple[str, ...] = field(default=(), compare=False)


def _field(path: str) -> str:
    """`view.tricks[2].winner` -> `tricks`; `observe.A.points` -> `points`."""
    parts = path.replace("[", ".").split(".")
    parts = [p for p in parts if p and not p.rstrip("]").isdigit()]
    if parts and parts[0] == "observe":
        parts = parts[2:]
    elif parts and parts[0] == "view":
        parts = parts[1:]
    return parts[0] if parts else path


def general_path(path: str) -> str:
    """`view.tricks[2].winner` (or a schema's `view.tricks.2.winner`) ->
    `view.tricks[].winner`; `observe.B.hand` -> `observe.hand`."""
    out: list[str] = []
    for i, part in enumerate(path.split(".")):
        if i == 1 and out == ["observe"]:
            continue
        if part.isdigit() and out:
            out[-1] = out[-1].removesuffix("[]") + "[]"
            continue
        head = part.split("[")[0]
        out.append(head + ("[]" if "[" in part else ""))
    return ".".join(out)


def _kind_of(payload: Any, kind: str | None = None) -> str:
    """An action's type, else the step's kind (setup, deal)."""
    if isinstance(payload, dict) and isinstance(payload.get("type"), str):
        return str(payload["type"])
    return kind or "step"


@dataclass(frozen=True)
class Context:
    """What the diagnosis reads of a run: the scenario, the engine (replayed from its
    setup when the states parted earlier), the spec's index, and the step being run."""

    sc: Scenario
    adapter: Harnessed
    index: SpecIndex
    current: Callable[[], Step | None]


def field_rules(index: SpecIndex, scenario: Scenario, differences: list[Difference]
                ) -> tuple[str, ...]:
    """The scenario's rules of the areas behind the differing fields (levels.yaml
    `fields`), the innermost field's first (`tricks[0].points` is about points before
    tricks), in the scenario's order; else the scenario's rules. The fallback of a
    diagnosis that finds no cause."""
    areas: list[str] = []
    for d in differences:
        for part in reversed(d.path.replace("[", ".").split(".")):
            areas += index.levels.fields.get(part, ())
    ordered = [r for area in dict.fromkeys(areas) for r in scenario.rules
               if r.split("-")[0] == area]
    return tuple(dict.fromkeys(ordered)) or scenario.rules


class Shadow:
    """The reference engine after each step of a scenario: `state(i)` is the match after
    the first `i` steps (None before the setup); a refused step leaves it as it was."""

    def __init__(self, context: Context):
        self.steps = context.sc.steps
        self.states: list[Match | None] = [None]

    def state(self, upto: int) -> Match | None:
        while len(self.states) <= upto:
            step = self.steps[len(self.states) - 1]
            match = self.states[-1]
            self.states.append(self._after(match, step))
        return self.states[upto]

    @staticmethod
    def _after(match: Match | None, step: Any) -> Match | None:
        if not step.kind:  # an expectation only: nothing sent
            return match
        payload = json.loads(json.dumps(step.payload))
        try:
            if step.kind == "setup":
                return Match.start(payload)
            if match is None:
                return match
            after = match.clone()
            if step.kind == "deal":
                after.deal(payload)
            else:
                after.apply(payload)
            return after
        except (IllegalAction, ValueError, TypeError):
            return match


class Diagnosis:
    """Finds the cause of each failure of one scenario's run."""

    def __init__(self, context: Context):
        self.context = context
        self._shadow: Shadow | None = None
        self._divergence: Cause | None = None  # the first divergence, once replayed
        self._replayed = False
        self._verdicts: dict[tuple[int, Any, str], tuple[Match, counterfactual.Verdict]] = {}

    @property
    def shadow(self) -> Shadow:
        if self._shadow is None:
            self._shadow = Shadow(self.context)
        return self._shadow

    def index(self) -> int:
        """The index of the step being run."""
        step = self.context.current()
        return self.context.sc.steps.index(step) if step in self.context.sc.steps else 0

    def position(self, cause: Cause) -> list[str]:
        """For a round's end or result (a `phase` or `result` cause): the reference's
        round points against the bid, where the difference showed."""
        if not any(f"view.{f}" in cause.what for f in ("phase", "result", "winner")):
            return []
        upto = self.index() + 1
        if cause.where in [s.label for s in self.context.sc.steps]:
            upto = [s.label for s in self.context.sc.steps].index(cause.where) + 1
        match = self.shadow.state(upto)
        if match is None or match.contract is None:
            return []
        view = match.view()
        bid = view["contract"]["bid"]
        stake = f"{bid['points']} points" if "points" in bid else f"{bid.get('marks')} marks"
        return [f"the reference there: round points AC {view['points']['AC']}, BD "
                f"{view['points']['BD']}, tricks AC {view['tricks_won']['AC']}, BD "
                f"{view['tricks_won']['BD']}, against {view['contract']['declarer']}'s bid of "
                f"{stake}; phase {view['phase']}"]

    # ---- 1. a state that diverged earlier -------------------------------------------

    def diverged(self, upto: int, engine_view: Any = None) -> Cause | None:
        """The first divergence of the engine's state from the reference's, if the
        engine's view after `upto` steps differs from the shadow's."""
        reference = self.shadow.state(upto)
        if reference is None:
            return None
        try:
            now = engine_view if engine_view is not None else self.context.adapter.view()
        except (AdapterError, Rejected, Exception):  # noqa: BLE001 - a help, never a failure
            return None
        if not _differs(reference.view(), now):
            return None
        if not self._replayed:
            self._divergence, self._replayed = self._replay(upto), True
        return self._divergence

    def _replay(self, upto: int) -> Cause | None:
        """Replay the engine from its setup, a view after each step, and name the first
        field that differs from the shadow's, at the first step where one does. The engine
        ends in the state it was in (the same calls, in the same order)."""
        adapter, steps = self.context.adapter, self.context.sc.steps
        found: Cause | None = None
        try:
            for i in range(upto):
                step = steps[i]
                if not self._resend(step):
                    continue
                if found is not None:
                    continue
                after = self.shadow.state(i + 1)
                if after is None:
                    continue
                theirs = json.loads(json.dumps(adapter.view()))
                fields = _differing_fields(after.view(), theirs)
                if fields:
                    before = self.shadow.state(i) if step.kind != "setup" else None
                    field = fields[0]
                    earlier = step.label if i < self.index() else ""
                    what = f"view.{field} differs after a {_kind_of(step.payload, step.kind)}"
                    found = self.field_cause(before, step.payload, after, field, theirs, what,
                                             earlier)
        except AdapterError:
            raise
        except Exception:  # noqa: BLE001 - the diagnosis is a help, never a second failure
            return found
        return found

    def field_cause(self, before: Match | None, action: Any, after: Match, field: str,
                    theirs: Any, what: str, where: str = "") -> Cause:
        """A view field that differs after `action`: the rule the reference applied to
        decide it (restated by an option in force), and the rules it fits as well."""
        rule = explain.field_rule(before, action, after, field, theirs)
        also = explain.field_alternatives(after, field, theirs) + \
            explain.forced_field_alternatives(before, action, field, theirs)
        first = self.restated(Cause(rule, what, where=where))
        cause = self.in_play(replace(first, alternatives=(
            *first.alternatives, *((r, what) for r in also))), after)
        cause = _filed_first(cause, "FORCE-05") if explain.played_forced(
            before, action, field, theirs) else cause
        if before is None or not isinstance(theirs, dict):
            return cause
        cause = self.weigh(cause, before, _view_step(action), theirs)
        kept = explain.kept_rules(before, after, field, theirs)
        if kept and not self._explained(before, action, theirs):
            # carried over from the last round, and no decision of the deal explains it:
            # the rule of what the field shows, not of what the deal set
            cause = replace(cause, rule=kept[0], alternatives=tuple(dict.fromkeys((
                *((r, cause.what) for r in (*kept[1:], cause.rule)), *cause.alternatives))))
        return cause

    def _explained(self, before: Match, action: Any, theirs: Any) -> bool:
        """Whether a decision of the step, made otherwise, gives the engine's view."""
        try:
            return bool(self._verdict(before, _view_step(action), theirs).suspects)
        except AdapterError:
            raise
        except Exception:  # noqa: BLE001 - the weighing is a help, never a failure
            return False

    def weigh(self, cause: Cause, before: Match, step: counterfactual.Step, theirs: Any
              ) -> Cause:
        """A cause weighed against the reference's own decisions (counterfactual.suspects):
        the decisions that, made otherwise, bring the reference's answer to `step` nearest
        the engine's (`theirs`), cleared by the earlier steps where the two agreed. The
        cause's rule, else the base rule it restates, else one of its alternatives, is kept
        when a suspect's code names it; a rule that a decision of the step names and no
        suspect does is cleared, and the suspects' rules stand instead; a rule no decision
        names (one the record cannot see) is kept. The suspects' other rules become
        alternatives, for the run's other failures to decide (settle)."""
        try:
            verdict = self._verdict(before, step, theirs)
        except AdapterError:
            raise
        except Exception:  # noqa: BLE001 - the weighing is a help, never a failure
            return cause
        known, options = self.context.index.rules, self.context.sc.variants
        cause = replace(cause, decided=tuple(
            r for r in verdict.seen if r in known and known[r].variant in options))
        found = [self._rules_of(s) for s in verdict.suspects]
        found = [rules for rules in found if rules]
        if not found:
            return cause
        named = {r for rules in found for r in rules}
        candidates = [r for r in (cause.restates, *(r for r, _ in cause.alternatives)) if r]
        if _stands(cause.rule, verdict) or (cause.restates and verdict.names(cause.restates)):
            rule = cause.rule  # a suspect's, decided where the record cannot see, or the
            # option's form of the base rule a suspect's clause names (UNDECL-02's CON-02)
        else:
            rule = next((r for r in candidates if r in named), "")
            if not rule:  # a suspect's rule, as the options in force state it: the first
                # decided by a clause of an option in force (the more specific), else the
                # nearest the answer
                first = next((rules for s in verdict.suspects
                              if (rules := self._option_rules(s))), found[0])
                chosen = self.restated(Cause(first[0], cause.what))
                rule = chosen.rule
                cause = replace(cause, alternatives=(*cause.alternatives,
                                                     *chosen.alternatives))
        # each other suspect by the rule the explainer named among its own, else its first,
        # as the options in force state it (restated)
        others = [self.restated(Cause(next((r for r in candidates if r in rules), rules[0]),
                                      cause.what)).rule
                  for rules in found if rule not in rules]
        others = [r for r in others if r != rule]
        kept = [a for a in cause.alternatives if a[0] != rule]
        return replace(cause, rule=rule, alternatives=tuple(dict.fromkeys(
            (*kept, *((r, cause.what) for r in others)))),
            entry=_entry_of(verdict.suspects, {rule, self.restated(Cause(rule, "")).restates}))

    def _option_rules(self, suspect: counterfactual.Suspect) -> tuple[str, ...]:
        """The rules of options the scenario turns on that a suspect's deciding clause
        names (a reading's rule is its own)."""
        known, options = self.context.index.rules, self.context.sc.variants
        return tuple(r for r in suspect.decision.deciding if suspect.reading is None
                     and r in known and known[r].variant in options)

    def _verdict(self, before: Match, step: counterfactual.Step, theirs: Any
                 ) -> counterfactual.Verdict:
        """counterfactual.suspects, once per state, step and answer (a legal list's
        differences are weighed each against the same answer)."""
        key = (id(before), step, json.dumps(theirs, sort_keys=True, default=repr))
        kept = self._verdicts.get(key)
        if kept is None or kept[0] is not before:  # each value keeps its state alive, so
            verdict = counterfactual.suspects(  # an id is never another state's
                before, step, theirs, self._agreed(before))
            verdict = replace(verdict, suspects=[
                self._named_by_code(s) for s in verdict.suspects if self._may_give(s)])
            kept = self._verdicts[key] = (before, verdict)
        return kept[1]

    def _named_by_code(self, suspect: counterfactual.Suspect) -> counterfactual.Suspect:
        """A check made to refuse with a code decides by that code's rules (errors.yaml)
        among those it names: an accepting check named by all its clauses, made to say
        INVALID_TRUMP, is CON-01's."""
        made = counterfactual.refusal(suspect.value)
        error = self.context.index.codes.get(made[0]) if made else None
        if error is None or suspect.reading is not None:
            return suspect
        rules = tuple(r for r in suspect.rules if r in error.rules)
        return replace(suspect, decision=replace(suspect.decision, deciding=rules)) \
            if rules else suspect

    def _may_give(self, suspect: counterfactual.Suspect) -> bool:
        """A check made to refuse with the engine's code is a suspect only if it names a
        rule of that code (errors.yaml): any check could be made to refuse with any code,
        and only the checks of that code give it (no rule's check says MALFORMED_ACTION)."""
        made = counterfactual.refusal(suspect.value)
        if made is None or made[0] == "REFUSED":
            return True
        error = self.context.index.codes.get(made[0])
        return error is None or bool(set(error.rules) & set(suspect.rules))

    def _rules_of(self, suspect: counterfactual.Suspect) -> tuple[str, ...]:
        """A suspect's rules of the options the scenario turns on (a function the base game
        shares with an option names the option's rules too: canonical_trump names
        FOLLOWME-02), those of the code it would refuse with first (errors.yaml: a bid
        refused with POINT_BID_RANGE is BID-02's range, whichever check refused it). A
        rule of another value of an option that is on stays: an engine may misread it."""
        known, options = self.context.index.rules, self.context.sc.variants
        rules = tuple(r for r in suspect.rules if r not in known
                      or known[r].variant in (None, *options)) or suspect.rules
        made = counterfactual.refusal(suspect.value)
        error = self.context.index.codes.get(made[0]) if made else None
        if error is None:
            return rules
        return (*(r for r in rules if r in error.rules),
                *(r for r in rules if r not in error.rules))

    def _agreed(self, before: Match) -> list[tuple[Match, counterfactual.Step]]:
        """The steps before the state `before` (a shadow state), where the engine's view
        agreed with the reference's, each as the step that answers with its view."""
        states = self.shadow.states
        upto = next((i for i, s in enumerate(states) if s is before), 0)
        agreed = []
        for j in range(upto):
            state, step = states[j], self.context.sc.steps[j]
            if state is not None and step.kind in ("deal", "act"):
                agreed.append((state, _view_step(step.payload)))
        return agreed

    # ---- 2. this step alone -----------------------------------------------------------

    def refused_legal(self, action: Any, code: str | None) -> Cause:
        """The engine refused an action the reference accepts."""
        i = self.index()
        early = self.diverged(i)
        if early:
            return early
        match = self.shadow.state(i)
        kind = self.context.sc.steps[i].kind
        misread = self._engine_plays(match, action)
        if misread:
            return misread
        rule: str | None
        if kind in ("setup", "deal"):
            rule = explain.setup_rule(action, match)
        else:
            rule = explain.claimed_rule(match, action, code) if match is not None else None
        shown = code or "an error without a code"
        what = f"a {_kind_of(action, kind)} refused with {shown}, though legal here"
        also = explain.acceptance_alternatives(match, action) if match is not None and \
            kind == "act" else ()
        first = self.restated(Cause(rule or self._code_rule(code), what))
        cause = self.in_play(
            replace(first, alternatives=first.alternatives
                    + self._setup_alternatives(kind, action, what)
                    + tuple((r, what) for r in also)),
            match, action)
        cause = _played_as_named(match, action, cause)
        if kind != "act" or match is None:
            return cause
        cause = _forced_only_misread(match, action, cause)
        return self.weigh(cause, match, _act_step(action), {"refused": code or "ERROR"})

    @staticmethod
    def _setup_alternatives(kind: str | None, action: Any, what: str
                            ) -> tuple[tuple[str, str], ...]:
        """A starting score between a setup's own points target and the default one, or
        one the unread marks target would refuse: the target's rule (explain.target_rule:
        MPTS-01, TARGET-03) or the range of starting scores (MPTS-02)."""
        rule = explain.target_rule(action) if kind == "setup" else None
        return tuple((r, what) for r in (rule, "MPTS-02")) if rule else ()

    def _engine_plays(self, match: Match | None, action: Any) -> Cause | None:
        """For a play refused or wrongly taken, the engine's own legal plays here
        (capability `legal`) read as a misreading, when they are one."""
        adapter = self.context.adapter
        if (match is None or not isinstance(action, dict) or action.get("type") != "play"
                or "legal" not in getattr(adapter, "capabilities", ())):
            return None
        try:
            theirs = json.loads(json.dumps(adapter.legal()))
        except (Rejected, AdapterError, TypeError, ValueError):
            return None
        if not isinstance(theirs, list):
            return None
        ours = [a for a in match.legal_actions()]
        from conformance.run.matching import diff_sets

        differences = diff_sets(ours, theirs, "legal")
        # a misreading is a cause only where the engine's own list shows it
        return self._misread(match, differences) if differences else None

    def accepted_illegal(self, action: Any, want: str, before: Any) -> Cause:
        """The engine accepted an action the reference refuses."""
        i = self.index()
        early = self.diverged(i, before) if before is not None else None
        if early:
            return early
        if isinstance(action, dict) and action.get("type") == "play" and \
                "legal" in getattr(self.context.adapter, "capabilities", ()):
            # the run stops here: put the engine back before the play and ask its legal plays
            self._replay(i)
            misread = self._engine_plays(self.shadow.state(i), action)
            if misread:
                return misread
        rule = self._refusal(i, action)
        kind = _kind_of(action, self.context.sc.steps[i].kind)
        what = f"a {kind} accepted, though it must be refused with {want}"
        match = self.shadow.state(i) if self.context.sc.steps[i].kind == "act" else None
        also = explain.refusal_alternatives(match, action) if match is not None else ()
        cause = _played_as_named(match, action, self.in_play(
            Cause(rule or self._code_rule(want), what,
                  alternatives=self._setup_alternatives(self.context.sc.steps[i].kind, action, what)
                  + tuple((r, what) for r in also)),
            match, action))
        if match is None:
            return cause
        return self.weigh(cause, match, _act_step(action), {"accepted": True})

    def _refusal(self, i: int, action: Any) -> str | None:
        """The rule of the reference's refusal of step i (an action, a deal or a setup)."""
        kind = self.context.sc.steps[i].kind
        match = self.shadow.state(i)
        try:
            if kind == "setup":
                Match.start(json.loads(json.dumps(action)))
                return None
            elif kind == "deal" and match is not None:
                match.clone().deal(json.loads(json.dumps(action)))
            elif match is not None:
                return explain.refusal_rule(match, action)
        except IllegalAction as error:
            return (kind == "setup" and explain.target_rule(action)) or error.rule
        return None

    def wrong_code(self, action: Any, got: str, want: str, order: bool) -> Cause:
        """The engine refused with another code than the reference's: an action of the
        wrong form judged by its content, so read as well-formed (DIG-01), else a code
        out of the check order."""
        malformed = f"a malformed {_kind_of(action)} refused as if well-formed"
        if want == "MALFORMED_ACTION" and got in explain.ABOUT_THE_ACTION:
            return Cause("DIG-01", malformed)
        if want == "MALFORMED_ACTION" and not order:  # the form read as well-formed, or
            what = "a refusal with a later code of the check order"  # checked after the phase
            return Cause("DIG-03", what, alternatives=(("DIG-01", malformed),))
        found = self._code_of_rule(action, got, want)
        if order:  # the action breaks both: the order, or the first check's code (found)
            what = "a refusal with a later code of the check order"
            also = ((found.rule, found.what), *found.alternatives) if found else ()
            return Cause("DIG-03", what, alternatives=tuple(a for a in also if a[0] != "DIG-03"))
        return found or Cause("DIG-03", "a refusal with another code than the rule's")

    def _code_of_rule(self, action: Any, got: str, want: str) -> Cause | None:
        """One rule broken, refused with another code: the rule whose check the engine got
        wrong, as the option in force states it. The first reading (explain.wrong_code_rule)
        weighed as `weigh` weighs any cause: kept when a suspect names it or the record
        cannot see it, else the suspects' rule (_check_giving) stands, the other beside."""
        error = self.context.index.codes.get(got)
        kind = _kind_of(action)
        if want == "MALFORMED_ACTION" or error is None or kind not in error.applies_to or \
                kind not in ("bid", "pass", "trump", "play"):
            return None  # a form, or a code no check of this action gives: DIG-03's list
        match = self.shadow.state(self.index())
        if match is None:
            return None
        what = f"a {_kind_of(action)} refused with {got}, where the rule's code is {want}"
        rule = explain.wrong_code_rule(match, action, got)
        first = self._option_form(self.restated(Cause(rule, what)), action) if rule else None
        try:
            verdict = self._verdict(match, _act_step(action), {"refused": got})
        except AdapterError:
            raise
        except Exception:  # noqa: BLE001 - the weighing is a help, never a failure
            return first
        weighed = self._check_giving(verdict, got, what)
        if weighed is None or first is None:
            return weighed or first
        if _stands(first.rule, verdict) or first.rule in [a for a, _ in weighed.alternatives]:
            kept, other = first, weighed
        else:
            kept, other = weighed, first
        also = [(other.rule, other.what), *other.alternatives, *kept.alternatives]
        return replace(kept, alternatives=tuple(a for a in dict.fromkeys(also)
                                                if a[0] != kept.rule))

    def _check_giving(self, verdict: counterfactual.Verdict, got: str, what: str
                      ) -> Cause | None:
        """The check whose decision, made otherwise, refuses with the engine's code
        (counterfactual.suspects). A check made to refuse with `got` is broken: where the
        reference passes it, under the rule `got` states (a range check that also reads
        the high bid); where the reference refuses by it with a code `got` comes after
        in the check order, under the rule of that refusal (a range check that says
        BID_TOO_LOW), the other as its alternative. The reference's refusing check made
        to pass, so that a later check refuses with `got`, is the check order (DIG-03: the
        action breaks both), that check's rule beside it. None when no decision gives
        the engine's code."""
        causes: list[tuple[str, str]] = []
        entries: dict[str, str] = {}
        for suspect in verdict.suspects:
            rules = self._rules_of(suspect)
            if suspect.reading is not None or not rules:
                continue
            if suspect.value is None:
                causes += [("DIG-03", "a refusal with a later code of the check order"),
                           (rules[0], what)]
                continue
            refused = counterfactual.refusal(suspect.decision.value)
            later = refused is not None and refused[0] in CODES and got in CODES and \
                CODES.index(got) > CODES.index(refused[0])
            pair = [(rules[0], what), *(((refused[1], what),) if refused else ())]
            causes += reversed(pair) if later else pair
            for r, _ in pair:
                entries.setdefault(self.restated(Cause(r, what)).rule, suspect.decision.entry)
        if not causes:
            return None
        causes = [(self.restated(Cause(r, w)).rule, w) for r, w in dict.fromkeys(causes)]
        (rule, said), *others = dict.fromkeys(causes)
        return Cause(rule, said, alternatives=tuple(a for a in others if a[0] != rule),
                     entry=entries.get(rule, ""))

    def _option_form(self, cause: Cause, action: Any) -> Cause:
        """VAR-04 (a form only an option defines, judged by the base rules without it) as
        the one rule of an option in force that restates it for this very form (FORCE-06:
        without `nello`, `"nello"` stays INVALID_TRUMP under forced_only)."""
        if cause.rule != "VAR-04" or not isinstance(action, dict):
            return cause
        form = action.get("trump") if action.get("type") == "trump" else next(
            (k for k in action if k not in ("type", "seat", "points", "marks")), None)
        options = self.context.sc.variants
        citing = [r.id for r in self.context.index.rules.values() if r.variant in options
                  and "VAR-04" in r.text and f'"{form}"' in r.text]
        return replace(cause, rule=citing[0]) if len(citing) == 1 else cause

    def restated(self, cause: Cause) -> Cause:
        """Under options, the option's own rule that restates a base rule (NELLO-05 cites
        PLAY-01 and PLAY-03 for Nel-O; TARGET-02 cites MATCH-01): the more specific rule
        in force is the one broken."""
        options = self.context.sc.variants
        found = self.context.index.rules.get(cause.rule)
        in_force = found is not None and (found.variant in options
                                          or cause.rule.split("-")[0] not in BASE_AREAS
                                          and found.variant is None)
        if not options or in_force:
            return cause
        citing = [rule for rule in self.context.index.rules.values()
                  if rule.variant in options and rule_in_force(rule, options)
                  and re.search(rf"\b{cause.rule}\b", rule.text)]
        if not citing:
            return cause
        # the most specific: the rule that cites the fewest others (PTERMS-05 restates
        # PLUNGE-03 alone; PTERMS-02 names PLUNGE-02 to PLUNGE-06 at once)
        best = min(citing, key=lambda rule: len(set(RULE_IDS.findall(rule.text))))
        # the base rule fits as well: an engine that breaks it in every game shows it
        # in the run's other failures, and settle files this one with them
        return Cause(best.id, cause.what, cause.where,
                     (*cause.alternatives, (cause.rule, cause.what)), restates=cause.rule)

    def in_play(self, cause: Cause, match: Match | None, action: Any = None,
                offered: bool = False) -> Cause:
        """A failure about a special bid, or on a contract won by one, where a rule of the
        special bid in play brings the rule found into play: SPLASH-05 sets two special
        bids at one table (explain.beside_rule); SPLASH-04, PTERMS-04 and PTERMS-08 make a
        contract a plunge for the rules their text cites (explain.plunge_by). That rule
        fits as well; it comes first where it decides and the rule found is another
        option's: a plunge refused after a splash (or missing where the engine offers the
        splash, `offered`) is SPLASH-05's, Nel-O accepted on a splash SPLASH-04's, but Nel-O
        refused on a splash under `on_plunge: "allowed"` NELLO-12's (it names SPLASH-04). A marks
        bid refused by an option's raise after a special bid fits that bid's marks too
        (explain.raise_alternatives)."""
        if match is None:
            return cause
        cause = replace(cause, alternatives=(*cause.alternatives, *(
            (r, cause.what) for r in (*explain.raise_alternatives(match, action, cause.rule),
                                      *explain.jump_alternatives(match, action, cause.rule)))))
        beside = explain.beside_rule(match, action, cause.rule)
        decides = offered or explain.after_other_special_bid(match, action)
        found = [beside] if beside else [
            r for r in explain.plunge_by(match) if self._cite(r, cause.rule)
            or cause.restates and self._cite(r, cause.restates)]
        mine = self.context.index.rules.get(cause.rule)
        for rule in found:
            theirs = self.context.index.rules.get(rule)
            if theirs is None or rule == cause.rule:
                continue
            # the special bid's rule comes first unless the rule found was written for its
            # contract and names it (NELLO-12, a Nel-O on a splash, names SPLASH-04)
            first = (decides or not beside) and (mine is None or mine.variant != theirs.variant
                                                  and not self._names(cause.rule, rule))
            other = (cause.rule, cause.what) if first else (rule, cause.what)
            kept = rule if first else cause.rule
            cause = replace(cause, rule=kept, alternatives=tuple(
                a for a in (*cause.alternatives, other) if a[0] != kept))
            mine = theirs if first else mine
        return cause

    def _names(self, one: str, other: str) -> bool:
        """Rule `one`'s text names rule `other`."""
        rules = self.context.index.rules
        return one in rules and re.search(rf"\b{re.escape(other)}\b", rules[one].text) is not None

    def _cite(self, one: str, other: str) -> bool:
        """One of two rules names the other in its text."""
        return self._names(one, other) or self._names(other, one)

    def _code_rule(self, code: str | None) -> str:
        error = self.context.index.codes.get(code) if code else None
        cited = [r for r in self.context.sc.rules if error and r in error.rules]
        return (cited or list(error.rules if error else ()) or list(self.context.sc.rules)
                or ["DIG-03"])[0]

    def expectation(self, kind: str, differences: list[Any]) -> list[Cause]:
        """A view, observation, legal or perft expectation that does not hold."""
        i = self.index() + 1
        early = self.diverged(i)
        if early:
            return [early]
        if kind == "legal":
            return self.legal_causes(differences, i) or [self._by_field(kind, differences)]
        if kind == "observe":
            return [self._observation(differences)]
        return [self._by_field(kind, differences)]

    def form(self, differences: list[Any], document: str, value: Any = None) -> Cause:
        """A view or observation that does not follow its schema: a value the rules
        decide wrongly (the state diverged), else a mistake of form (a field of the wrong
        type, `"6"` for `6`, differs from the reference only where the schema fails)."""
        reference = self.shadow.state(self.index() + 1)
        broken = {_field(d.path) for d in differences}
        views = all(d.path.startswith("view.") for d in differences)
        ours = reference.view() if reference is not None else None
        only_form = views and isinstance(value, dict) and ours is not None and set(
            f.split(".")[0] for f in _differing_fields(ours, value)) <= broken and not any(
            _same_kind(_value_at(ours, d.path), _value_at(value, d.path)) for d in differences)
        early = None if only_form else self.diverged(self.index() + 1)
        if early:
            return early
        return Cause(document, form_mistake(differences, value))

    def _observation(self, differences: list[Any]) -> Cause:
        d = differences[0]
        field = _field(d.path)
        rule = observation_rule(field)
        match = self.shadow.state(self.index() + 1)
        if field == "captured" and match is not None:
            rule = _captured_rule(match, d.path)
        if field == "hand_sizes" and match is not None:
            rule = explain.hand_size_rule(match, d.path.rsplit(".", 1)[-1]) or rule
        return self.restated(Cause(rule, f"{general_path(d.path)} differs from what the seat "
                                   "may see"))

    def _by_field(self, kind: str, differences: list[Any]) -> Cause:
        """No earlier divergence: the view's field is wrong at this very step."""
        d = differences[0] if differences else None
        path = general_path(d.path) if d else kind
        i = self.index()
        before, after = self.shadow.state(i), self.shadow.state(i + 1)
        step = self.context.sc.steps[i]
        if after is not None and d is not None and kind == "view":
            try:
                theirs = json.loads(json.dumps(self.context.adapter.view()))
            except Exception:  # noqa: BLE001 - the engine's view is a help only
                theirs = None
            return self.field_cause(before if step.kind != "setup" else None, step.payload,
                                    after, _field(d.path), theirs, f"{path} differs")
        return Cause(self._fallback_rule(d.path if d else kind), f"{path} differs")

    def _fallback_rule(self, path: str) -> str:
        """No decision to read (an observation's field, a perft count): the scenario's
        rule of the area behind the field (levels.yaml `fields`)."""
        context = self.context
        rules = field_rules(context.index, context.sc, [Difference(path, MISSING, MISSING)])
        return rules[0] if rules else "DIG-04"

    def legal_causes(self, differences: list[Any], upto: int) -> list[Cause]:
        """One cause per rule and direction: each extra action under the rule that refuses
        it, each missing one under the rule that allows it (`legal` differences carry the
        action as `actual` (extra) or `expected` (missing))."""
        match = self.shadow.state(upto)
        return self._legal_causes_at(match, differences) if match is not None else []

    def _legal_causes_at(self, match: Match, differences: list[Any]) -> list[Cause]:
        """legal_causes at the position `match` (a shadow state, or a position perft
        descended to)."""
        causes: dict[tuple[str, str], Cause] = {}
        missing = [d.expected for d in differences if d.actual is MISSING]
        for d in differences:
            extra = d.expected is MISSING
            action = d.actual if extra else d.expected
            if not isinstance(action, dict):
                continue
            if extra:  # refused here, or listed twice: the rule that makes it legal
                rule = explain.refusal_rule(match, action) or _legal_rule(match, action)
            else:
                rule = _legal_rule(match, action)
            what = _legal_what(action, extra)
            also = (explain.refusal_alternatives if extra else
                    explain.acceptance_alternatives)(match, action)
            cause = self.restated(Cause(rule, what, alternatives=tuple((r, what) for r in also)))
            cause = self.in_play(cause, match, action, offered=not extra and _other_offered(
                match, action, missing))
            cause = _played_as_named(match, action, cause)
            if not extra:
                cause = _forced_only_misread(match, action, cause)
            cause = self.weigh(cause, match, _legal_step, _engine_set(match, differences))
            causes.setdefault((cause.rule, what), cause)
        misread = self._misread(match, differences)
        if misread:  # one cause: the reading, the rules of each difference as alternatives
            return [replace(misread, alternatives=tuple(dict.fromkeys((*misread.alternatives, *(
                (c.rule, c.what) for c in causes.values() if c.rule != misread.rule)))))]
        return list(causes.values())

    def _misread(self, match: Match, differences: list[Any]) -> Cause | None:
        """The engine's legal actions, from the reference's and the differences, when a
        rule read otherwise gives them whole (readings.yaml): the first reading that does,
        the others that do as its alternatives."""
        try:
            verdict = self._verdict(match, _legal_step, _engine_set(match, differences))
        except AdapterError:
            raise
        except Exception:  # noqa: BLE001 - the weighing is a help, never a failure
            return None
        fits: dict[str, str] = {}  # per rule, the words of its first reading
        for suspect in verdict.suspects:
            if suspect.reading is not None:
                fits.setdefault(suspect.reading.rule, f"legal plays as if {suspect.reading.as_if}")
        if not fits:
            return None
        (rule, what), *others = fits.items()
        entry = next(s.reading.entry for s in verdict.suspects
                     if s.reading is not None and s.reading.rule == rule)
        return Cause(rule, what, alternatives=tuple(others), entry=entry)

    def perft(self, depth: int) -> list[Cause]:
        """Descend to the first position whose perft counts differ: there, each extra or
        missing first action is a cause. The engine is replayed back afterwards."""
        i = self.index() + 1
        early = self.diverged(i)
        if early:
            return [early]
        match = self.shadow.state(i)
        if match is None:
            return []
        adapter = self.context.adapter
        moved = False
        causes: list[Cause] = []
        try:
            while depth > 0:
                theirs = adapter.perft(depth)
                divide = theirs.get("divide") if isinstance(theirs, dict) else None
                if not isinstance(divide, dict):
                    break
                ours = _divide(match, depth)
                extra = sorted(set(divide) - set(ours))
                missing = sorted(set(ours) - set(divide))
                if extra or missing:
                    causes = self._perft_first_actions(match, extra, missing)
                    break
                wrong = [k for k in sorted(ours) if divide[k] != ours[k]]
                if not wrong:
                    break
                action = _key_action(match, wrong[0])
                adapter.act(action)
                moved = True
                before, match = match, match.clone()
                match.apply(action)
                depth -= 1
                theirs = json.loads(json.dumps(adapter.view()))
                fields = _differing_fields(match.view(), theirs)
                if fields:
                    causes = [self.field_cause(before, action, match, fields[0], theirs,
                                               f"view.{fields[0]} differs after a "
                                               f"{action['type']}")]
                    break
        except (Rejected, AdapterError, IllegalAction, KeyError, ValueError, TypeError):
            pass
        finally:
            if moved:
                self._restore()
        return causes

    def _perft_first_actions(self, match: Match, extra: list[str], missing: list[str]
                             ) -> list[Cause]:
        """First actions that differ are a legal list that differs at that position,
        weighed as one (legal_causes); a key no action reads is DIG-01's."""
        try:
            differences = [Difference("perft", MISSING, _key_action(match, k)) for k in extra]
            differences += [Difference("perft", _key_action(match, k), MISSING)
                            for k in missing]
        except (KeyError, ValueError, TypeError):
            return [Cause("DIG-01", "perft first actions: keys that name no action")]
        return [_said_of_perft(c) for c in self._legal_causes_at(match, differences)]

    def _restore(self) -> None:
        """Put the engine back where the run left it: replay the steps so far."""
        for step in self.context.sc.steps[: self.index() + 1]:
            self._resend(step)

    def _resend(self, step: Any) -> bool:
        """Send a step to the engine again; False when it sends nothing or is refused."""
        adapter = self.context.adapter
        method = {"setup": adapter.start, "deal": adapter.deal, "act": adapter.act}.get(
            step.kind or "")
        if method is None:
            return False
        try:
            method(json.loads(json.dumps(step.payload)))
        except Rejected:
            return False
        return True


def _stands(rule: str, verdict: counterfactual.Verdict) -> bool:
    """A first reading stands against the reference's decisions when a suspect names its
    rule (the clause that decided, where the record knows it), or when no decision of the
    step does (the record cannot see it)."""
    return verdict.names(rule) or not verdict.clears(rule)


def _entry_of(suspects: list[counterfactual.Suspect], rules: set[str]) -> str:
    """The rule-table entry of the first suspect whose deciding clause names one of
    `rules`, else of the first whose code does (an option's function and the base game's
    one it wraps are one entry: `score.inner` is `score`)."""
    for clause in (True, False):  # the deciding clause first
        found = next((s.decision.entry.split(".")[0] for s in suspects
                      if s.reading is None
                      and rules & set(s.decision.deciding if clause else s.rules)), "")
        if found:
            return found
    return ""


def _act_step(action: Any) -> counterfactual.Step:
    """A step that sends `action` and answers whether it was accepted (a refusal answers
    with its code: counterfactual.answer)."""
    payload = json.loads(json.dumps(action))

    def step(match: Match) -> Any:
        match.apply(json.loads(json.dumps(payload)))
        return {"accepted": True}
    return step


def _legal_step(match: Match) -> Any:
    """The step that answers with the legal actions, as a set (canonical JSON keys)."""
    return _action_set(match.legal_actions())


def _engine_set(match: Match, differences: list[Any]) -> dict[str, bool]:
    """The engine's legal actions, as a set: the reference's, less those it misses, with
    those it adds (a difference carries the action as `expected` or `actual`)."""
    found = _action_set(match.legal_actions())
    for d in differences:
        if d.actual is MISSING:
            found.pop(json.dumps(d.expected, sort_keys=True), None)
        elif d.expected is MISSING:
            found[json.dumps(d.actual, sort_keys=True)] = True
    return found


def _action_set(actions: Any) -> dict[str, bool]:
    return {json.dumps(a, sort_keys=True): True for a in actions} if isinstance(
        actions, list) else {}


def _view_step(action: Any) -> counterfactual.Step:
    """A step that sends `action` (a deal, else an action) and answers with the view."""
    payload = json.loads(json.dumps(action))
    acts = isinstance(payload, dict) and "type" in payload

    def step(match: Match) -> Any:
        (match.apply if acts else match.deal)(json.loads(json.dumps(payload)))
        return match.view()
    return step


def _played_as_named(match: Match | None, action: Any, cause: Cause) -> Cause:
    """A play whose legality is another value's of the doubles declared than the named
    one's, or an option's choice's under another trump: the treatment's rule
    (explain.played_as_named) or the option's rule for the other trumps
    (explain.played_as_other_choice), the suit rule as its alternative (the run's other
    failures decide, settle)."""
    tile = TILE_INDEX.get(str(action.get("tile"))) if isinstance(action, dict) and \
        action.get("type") == "play" else None
    named = (explain.played_as_named(match, tile) or explain.played_as_other_choice(
        match, tile)) if match is not None and tile is not None else None
    return _filed_first(cause, named)


def rule_in_force(rule: Rule, variants: dict[str, Any]) -> bool:
    """The rule holds under these options: its option is on (a base or general rule
    always holds) and, for a rule of one setting (Rule.setting_values), the setting has a
    value it states, its default counted when the setup leaves it out."""
    if rule.variant is None:
        return True
    if rule.variant not in variants:
        return False
    stated = rule.setting_values
    if stated is None:
        return True
    try:
        settings = option_settings(rule.variant, variants[rule.variant])
    except IllegalAction:
        return True  # a setup the reference refuses: no setting to read
    name, values = stated
    value = settings.get(name)
    return any(type(value) is type(v) and value == v for v in values)  # 1 is not true


def _forced_only_misread(match: Match | None, action: Any, cause: Cause) -> Cause:
    """A legal action refused (or missing) that `nello_sevens: "forced_only"` would refuse
    under a setup that leaves it `"any_contract"`: FORCE-06 first
    (explain.forced_only_misread), the rule that allows the action as its alternative."""
    return _filed_first(cause, explain.forced_only_misread(match, action) if match is not None
                  else None)


def _filed_first(cause: Cause, rule: str | None) -> Cause:
    """`cause` filed under `rule` (when one is given), its rule kept as an alternative."""
    if not rule or rule == cause.rule:
        return cause
    return replace(cause, rule=rule, alternatives=((cause.rule, cause.what), *(
        a for a in cause.alternatives if a[0] != rule)))


def form_mistake(differences: list[Any], value: Any = None) -> str:
    """What to change, in words: `view.toAct: unknown field; the field is to_act` when an
    unknown field stands for a missing one, else the first schema message."""
    unknown = {}
    missing = []
    if isinstance(value, dict):  # fields the engine wrote beside the missing ones
        unknown = {k: "" for k in value if isinstance(k, str)}
    for d in differences:
        for name in re.findall(r"'([^']+)' was unexpected", d.note) + re.findall(
                r"'([^']+)' were unexpected", d.note):
            unknown[name] = general_path(d.path)
        missing += [(m, general_path(d.path)) for m in
                    re.findall(r"'([^']+)' is a required property", d.note)]
    for name, path in missing:
        near = difflib.get_close_matches(name, [k for k in unknown if k != name], n=1,
                                         cutoff=0.5)
        if near:
            return f"{path}.{near[0]}: unknown field; the field is {name}"
    if missing:
        return f"{missing[0][1]}.{missing[0][0]}: missing"
    said = {name: path for name, path in unknown.items() if path}  # from the schema
    if said:
        name, path = next(iter(said.items()))
        return f"{path}.{name}: unknown field"
    d = differences[0]
    return f"{general_path(d.path)}: {_general_note(d.note) or 'not of the right form'}"


JSON_KINDS = {str: "a string", bool: "a boolean", int: "a number", float: "a number",
              list: "a list", dict: "an object", type(None): "null"}


def _general_note(note: str) -> str:
    """`"6" is not 0..6, ...` -> `a string is not 0..6, ...`: the same mistake in every
    scenario reads the same, whatever the value (the example shows it)."""
    shown, sep, rest = note.partition(" is not ")
    try:
        kind = JSON_KINDS.get(type(json.loads(shown)), "a value")
    except ValueError:
        return note
    return f"{kind}{sep}{rest}" if sep else note


def _captured_rule(match: Match, path: str) -> str:
    """Which rule decides what `captured` shows here: the order of a trick's tiles (VIS-08,
    never play order), after the round (VIS-10), the cover of a marks contract, moving only
    when a trick completes (VIS-07) or not (VIS-06), else everything face up (VIS-05)."""
    if path.endswith("]") and ".tiles[" in path:
        return "VIS-08"
    if match.phase in OVER:
        return "VIS-10"
    if match.contract is not None and match.contract.kind == "marks":
        return "VIS-07" if match.trick else "VIS-06"
    return "VIS-05"


def _value_at(document: Any, path: str) -> Any:
    """The value at a difference's path (`view.tricks.0.points`, `view.tricks[0].points`)
    of a view, or MISSING."""
    for part in path.replace("[", ".").replace("]", "").split(".")[1:]:
        if isinstance(document, list) and part.isdigit() and int(part) < len(document):
            document = document[int(part)]
        elif isinstance(document, dict) and part in document:
            document = document[part]
        else:
            return MISSING
    return document


def _same_kind(ours: Any, theirs: Any) -> bool:
    """Two values of one JSON kind (a number out of range, a name not of the list): what
    the rules decide, not the form (`"6"` for `6`, a list for an object)."""
    kinds = (bool, int | float, str, list, dict, type(None))
    return ours is not MISSING and theirs is not MISSING and any(
        isinstance(ours, k) and isinstance(theirs, k) for k in kinds) and \
        isinstance(ours, bool) == isinstance(theirs, bool)


def _differs(ours: dict[str, Any], theirs: Any) -> bool:
    return bool(_differing_fields(ours, theirs))


def _differing_fields(ours: dict[str, Any], theirs: Any) -> list[str]:
    """The referee view's fields that differ, in the order an action decides them
    (explain.DECISION_ORDER): top-level fields, and the parts of a trick (`tricks.winner`,
    `tricks.points`) and of the contract (`contract.stake`, ...) that rules apart decide."""
    if not isinstance(theirs, dict):
        return []
    differing: set[str] = set()
    for key, value in ours.items():
        if key not in theirs:
            continue
        if key == "phase" and value in OVER and theirs[key] in OVER and value != theirs[key]:
            differing.add("winner")  # the match's end is decided after the round's marks
            continue
        for d in diff(value, theirs[key], key, partial=False):
            parts = [p for p in d.path.replace("[", ".").split(".")
                     if p and not p.rstrip("]").isdigit()]
            sub = ".".join(parts[:2])
            differing.add(sub if sub in explain.DECISION_ORDER else key)
    return [f for f in explain.DECISION_ORDER if f in differing]


def _divide(match: Match, depth: int) -> dict[str, int]:
    from reference_impl.perft import divide

    return divide(match, depth)


def _legal_what(action: dict[str, Any], extra: bool) -> str:
    """`extra plays`, `missing declarations with stacks`: an action's kind, in words."""
    kind = action.get("type", "action")
    noun = {"play": "plays", "bid": "bids", "pass": "passes", "trump": "declarations"}.get(
        kind, "actions")
    if kind == "trump" and "stacks" in action:
        noun += " with stacks"
    if kind == "bid":
        noun = next((f"{k} bids" for k in action if k not in ("type", "seat")), noun)
    return f"legal actions: {'extra' if extra else 'missing'} {noun}"


def _other_offered(match: Match, action: dict[str, Any], missing: list[Any]) -> bool:
    """The engine offers a special bid of another kind than the missing `action` here (the
    reference lists it, and it is not missing)."""
    kinds = {bid.name for bid in match.rules.special_bids}
    return any(isinstance(a, dict) and a not in missing and kinds & set(a) - set(action)
               for a in match.legal_actions())


def _legal_rule(match: Match, action: dict[str, Any]) -> str:
    """The rule that makes `action` legal here; DIG-01 for one the reference cannot read."""
    try:
        return explain.legal_rule(match, action)
    except (KeyError, TypeError):
        return "DIG-01"


def _key_action(match: Match, key: str) -> dict[str, Any]:
    """The action a perft key names, of the seat to act. Once the round has ended no seat
    is, and the phase refuses any seat's action alike (END-06): the first seat's stands
    for all (an action of no seat would be malformed, DIG-01)."""
    return action_from_key(match.to_act or SEATS[0], key)


def _said_of_perft(cause: Cause) -> Cause:
    """A legal list's cause said of perft's first actions."""
    def said(what: str) -> str:
        return what.replace("legal actions", "perft first actions")
    return replace(cause, what=said(cause.what),
                   alternatives=tuple((r, said(w)) for r, w in cause.alternatives))
