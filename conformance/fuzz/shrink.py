"""Shrinking a divergence to a minimal case that still diverges the same way.

A candidate is kept when a thorough replay (every view, observation and legal list after
every step) still diverges with a signature that shares something with the original's:
the same outcome codes, or a difference in one of the same fields. Passes, in order:

1. truncate at the first divergence a thorough replay finds;
2. skip the earlier rounds: a setup that starts at the diverging round's deal, with
   that round's dealer and match marks; then, when the divergence comes as a round ends,
   a quicker round on that deal (four passes, or a contract set by its first trick) with
   starting marks that bring the scores at its end to the case's own (`quick_round`);
3. delta debugging (ddmin, Zeller and Hildebrandt 2002) over the steps;
4. a `setup` step that VAR-01 refuses made the case's setup with its own `variants`;
5. the bidding as the `contract` shortcut of scenario-format.md when it has that form
   (the others pass, the declarer bids and declares), its bid lowered (the lowest
   first), then ddmin again;
6. the bid lowered again; then other plays on the same deal that end the round with the
   same result in fewer tricks (`sooner`);
7. the deal: tiles swapped towards the sorted deal (`0|0 0|1 ...` from A to D, or as an
   `order`), the steps' tiles renamed along, one swap at a time; then ddmin again.

Every pass stops at the budget (replays and seconds): what is found by then is kept.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from conformance.fuzz.differential import (
    Case,
    Divergence,
    Finding,
    apply_step,
    replay,
)
from reference_impl.match import BIDDING, DECLARING, MATCH_OVER, PLAYING, ROUND_OVER
from reference_impl.tiles import NAMES, SEATS, TEAMS, team_of
from reference_impl.variants import rules_for


class Shrunk(NamedTuple):
    """A smaller case that still diverges, cut at its first divergence, and that
    divergence."""

    case: Case
    finding: Finding


Test = Callable[[Case], "Shrunk | None"]


class Shrinker:
    def __init__(self, other: Any, signature: frozenset[str] | None, level: str = "strict",
                 budget: int = 2000, seconds: float = 60.0,
                 keeps: Callable[[Case, Finding], bool] | None = None):
        self.other, self.signature, self.level = other, signature, level
        self.keeps = keeps  # whether a candidate still shows the cause being shrunk
        self.budget, self.deadline = budget, time.monotonic() + seconds
        self.tests = 0

    @property
    def spent(self) -> bool:
        return self.tests >= self.budget or time.monotonic() > self.deadline

    def test(self, case: Case) -> Shrunk | None:
        """The case cut at its first divergence, and that divergence, when it still
        diverges the same way; else None."""
        self.tests += 1
        try:
            prefix = len(case.expanded()[1]) - len(case.steps)
        except ValueError:  # a contract shortcut the reference refuses: not a case
            return None

        def wanted(found: Any) -> bool:
            # inside the contract shortcut there is no step to expect at
            return (self.signature is None or bool(found.finding.signature & self.signature)
                    ) and not (
                0 < found.step <= prefix) and (self.keeps is None or self.keeps(
                    cut(case, found.step), found.finding))

        try:
            found = replay(self.other, case, self.level, wanted)
        except Exception:  # noqa: BLE001 - a candidate that crashes is not this divergence
            return None
        if not found:
            return None
        return Shrunk(cut(case, found.step), found.finding)


def cut(case: Case, number: int) -> Case:
    """The case up to its `number`th expanded step (0: the setup alone)."""
    prefix = len(case.expanded()[1]) - len(case.steps)
    return Case(case.setup, case.steps[: max(0, number - prefix)])


def ddmin(case: Case, shrinker: Shrinker) -> Shrunk | None:
    """Remove chunks of steps, halving the chunk size when no chunk can go."""
    best: Shrunk | None = None
    steps, chunks = case.steps, 2
    while len(steps) >= 1 and not shrinker.spent:
        size = max(1, -(-len(steps) // chunks))
        removed = False
        for start in range(0, len(steps), size):
            if shrinker.spent:
                break
            candidate = Case(case.setup, steps[:start] + steps[start + size:])
            found = shrinker.test(candidate)
            if found:
                best, steps = found, found.case.steps
                chunks, removed = max(chunks - 1, 2), True
                break
        if not removed:
            if size == 1:
                break
            chunks = min(len(steps), chunks * 2)
    return best


def _oracle_at(case: Case, count: int) -> Any:
    """The reference adapter after the setup and the first `count` steps."""
    from conformance.adapters.protocol import Rejected
    from conformance.adapters.reference import ReferenceAdapter

    oracle = ReferenceAdapter()
    setup, steps = case.expanded()
    oracle.start(setup)
    prefix = len(steps) - len(case.steps)
    for step in steps[: prefix + count]:
        try:
            apply_step(oracle, step)
        except Rejected:
            pass
    return oracle


def skip_rounds(case: Case) -> Case | None:
    """A setup at the last deal of the case, with that round's dealer and marks."""
    deals = [i for i, step in enumerate(case.steps) if "deal" in step]
    if not deals:
        return None
    last = deals[-1]
    view = _oracle_at(case, last + 1).view()
    deal = case.steps[last]["deal"]
    setup: dict[str, Any] = {"dealer": view["dealer"], **deal}
    if any(view["marks"].values()):
        setup["marks"] = dict(view["marks"])
    if "variants" in case.setup:
        setup["variants"] = case.setup["variants"]
    return Case(setup, case.steps[last + 1:])


ROUND_END = (ROUND_OVER, MATCH_OVER)


def _engine(setup: dict[str, Any]) -> Any:
    """The reference engine's match for a setup (a copy of it); None when refused."""
    from reference_impl import IllegalAction, Match

    try:
        return Match.start(json.loads(json.dumps(setup)))
    except IllegalAction:
        return None


def _ending(match: Any, depth: int, nodes: list[int]) -> list[dict[str, Any]] | None:
    """The first sequence (depth-first, in the canonical order) of at most `depth` legal
    actions after which the round is over; None when there is none within `nodes`."""
    if match.phase in ROUND_END:
        return []
    if depth == 0:
        return None
    for action in match.legal_actions():
        nodes[0] -= 1
        if nodes[0] < 0:
            return None
        child = match.clone()
        child.apply(action)
        rest = _ending(child, depth - 1, nodes)
        if rest is not None:
            return [action, *rest]
    return None


def shortest_ending(match: Any, most: int = 8, nodes: int = 4000
                    ) -> list[dict[str, Any]] | None:
    """The shortest sequence of legal actions that ends the round (iterative deepening
    up to `most` actions), or None."""
    budget = [nodes]
    for depth in range(most + 1):
        found = _ending(match, depth, budget)
        if found is not None or budget[0] < 0:
            return found
    return None


def _declaration(case: Case) -> dict[str, Any] | None:
    """The case's declaration (`trump`, maybe `stacks`) and its declarer."""
    contract = case.setup.get("contract")
    if contract:
        return {"seat": contract["declarer"], "trump": contract["trump"],
                **({"stacks": contract["stacks"]} if "stacks" in contract else {})}
    for step in case.steps:
        action = step.get("act")
        if isinstance(action, dict) and action.get("type") == "trump":
            return {k: v for k, v in action.items() if k != "type"}
    return None


def _simpler_variants(variants: Any) -> list[Any]:
    """The options as given, then each option's settings left out one at a time (an
    option left with none is `true`): a setting such as `end: "play_out"` may be what
    keeps a round long."""
    out = [variants]
    if not isinstance(variants, dict):
        return out
    for name, value in variants.items():
        if isinstance(value, dict):
            for key in value:
                rest = {k: v for k, v in value.items() if k != key}
                out.append({**variants, name: rest or True})
    return out


def _quick_rounds(setup: dict[str, Any], own: dict[str, Any] | None
                  ) -> list[tuple[dict[str, Any], list[dict[str, Any]], Any]]:
    """Short rounds on the setup's deal, each (setup, steps, the match at their end): four
    passes, and for each declarer a 1-mark and a 30-point contract (the contract shortcut),
    declared as in the case or as first listed, played by the shortest legal sequence that
    ends the round (a marks contract is set by the first trick its defenders win)."""
    from reference_impl import IllegalAction

    found = []
    start = _engine(setup)
    if start is None:
        return []
    match, passes = start.clone(), []
    try:
        while match.phase == BIDDING:
            passes.append({"type": "pass", "seat": match.to_act})
            match.apply(passes[-1])
    except IllegalAction:
        pass
    if match.phase in ROUND_END:
        found.append((setup, [{"act": a} for a in passes], match))
    declarers = list(dict.fromkeys([*([own["seat"]] if own else []), *SEATS]))
    rules = start.rules
    lowest = ({"marks": rules.first_marks_bids[0]}, {"points": rules.point_bids[0]})
    for declarer in declarers:
        for bid in lowest:
            match = start.clone()
            try:
                while match.phase == BIDDING:
                    seat = match.to_act
                    match.apply({"type": "bid", "seat": seat, **bid} if seat == declarer
                                else {"type": "pass", "seat": seat})
            except IllegalAction:
                continue
            if match.phase != DECLARING or match.to_act != declarer:
                continue
            legal = match.legal_actions()
            wanted = {"type": "trump", **own} if own and own["seat"] == declarer else None
            for declare in list(dict.fromkeys(
                    json.dumps(a, sort_keys=True) for a in [wanted, *legal[:1]]
                    if a in legal)):
                action = json.loads(declare)
                played = match.clone()
                played.apply(action)
                plays = shortest_ending(played)
                if plays is None:
                    continue
                for play in plays:
                    played.apply(play)
                contract = {"declarer": declarer, "bid": dict(bid), "trump": action["trump"],
                            **({"stacks": action["stacks"]} if "stacks" in action else {})}
                found.append(({**setup, "contract": contract},
                              [{"act": a} for a in plays], played))
    return found


def quick_round(case: Case, shrinker: Shrinker) -> Shrunk | None:
    """A divergence at the end of a round that depends on the match scores there (the
    target reached, MATCH-01, MPTS-08) needs no long round: a shorter round on the same
    deal (four passes, or a contract set by the first trick, with the options' settings
    that lengthen a round left out), with starting marks that bring the scores at its end
    to the case's own (SCORE-03, TARGET-02, MPTS-02)."""
    if not case.steps:
        return None
    end = _oracle_at(case, len(case.steps)).view()
    if end["phase"] not in ROUND_END:
        return None
    base = {k: v for k, v in case.setup.items() if k not in ("contract", "marks")}
    own = _declaration(case)
    candidates = []
    for variants in _simpler_variants(base.get("variants")):
        setup = {**base, "variants": variants} if variants is not None else base
        for quick, steps, match in _quick_rounds(setup, own):
            start = {team: end["marks"][team] - match.marks[n] for n, team in enumerate(TEAMS)}
            contract = {"contract": quick["contract"]} if "contract" in quick else {}
            marks = {"marks": start} if any(start.values()) else {}
            candidates.append(Case({**setup, **marks, **contract}, steps))
    candidates.sort(key=lambda c: len(c.steps))
    for candidate in candidates:
        if shrinker.spent or len(candidate.steps) >= len(case.steps):
            break
        found = shrinker.test(candidate)
        if found:
            return found
    return None


def as_contract(case: Case) -> Case | None:
    """The steps up to the declaration as the `contract` shortcut, when one exists."""
    if "contract" in case.setup:
        return None
    for k, step in enumerate(case.steps):
        if "act" not in step:  # a deal or a setup before the declaration
            return None
        action = step["act"]
        if not (isinstance(action, dict) and action.get("type") == "trump"):
            continue
        view = _oracle_at(case, k + 1).view()
        contract = view["contract"]
        if view["phase"] != PLAYING or contract is None:
            continue
        bid = contract["bid"]
        if set(bid) not in ({"points"}, {"marks"}) or action.get("seat") != contract["declarer"]:
            return None
        shortcut = {"declarer": contract["declarer"], "bid": dict(bid), "trump": action["trump"]}
        if "stacks" in action:
            shortcut["stacks"] = action["stacks"]
        return Case({**case.setup, "contract": shortcut}, case.steps[k + 1:])
    return None


def passes(case: Case, shrinker: Shrinker) -> Shrunk | None:
    """Each bid made a pass, one at a time: a round that needs only to end can end with
    four passes."""
    best = None
    k = 0
    while k < len(case.steps) and not shrinker.spent:
        action = case.steps[k].get("act")
        if isinstance(action, dict) and action.get("type") == "bid":
            steps = [*case.steps[:k], {"act": {"type": "pass", "seat": action.get("seat")}},
                     *case.steps[k + 1:]]
            found = shrinker.test(Case(case.setup, steps))
            if found:
                best, case = found, found.case
        k += 1
    return best


def plain_setups(case: Case, shrinker: Shrinker) -> Shrunk | None:
    """Each `setup` step (one VAR-01 refuses) made the case's own setup with only its
    `variants` kept: what the step tests is then plain to see."""
    best = None
    base = {k: v for k, v in case.setup.items() if k != "contract"}
    for k, step in enumerate(case.steps):
        value = step.get("setup")
        if shrinker.spent or not isinstance(value, dict) or "variants" not in value:
            continue
        plain = {**base, "variants": value["variants"]}
        if plain == value:
            continue
        found = shrinker.test(Case(case.setup, [*case.steps[:k], {"setup": plain},
                                                *case.steps[k + 1:]]))
        if found:
            best, case = found, found.case
    return best


def lower_bid(case: Case, shrinker: Shrinker) -> Shrunk | None:
    """The shortcut's bid lowered, the lowest (30 points, 1 mark) first: a point contract
    is then made by fewer round points, sooner, and the case may end earlier."""
    contract = case.setup.get("contract")
    if not contract:
        return None
    kind, value = next(iter(contract["bid"].items()))
    rules = rules_for(case.setup.get("variants", {}))  # BID-02, BID-05
    lowest = {"points": rules.point_bids[0], "marks": rules.first_marks_bids[0]}.get(kind, value)
    for lower in range(lowest, value):
        if shrinker.spent:
            break
        found = shrinker.test(Case({**case.setup, "contract": {**contract, "bid": {kind: lower}}},
                                   case.steps))
        if found:
            return found
    return None


def _trick_plays(match: Any) -> list[tuple[list[dict[str, Any]], Any]]:
    """Every legal way to play the current trick to its end, and the match after it."""
    out: list[tuple[list[dict[str, Any]], Any]] = []
    todo: list[tuple[list[dict[str, Any]], Any]] = [([], match)]
    while todo:
        plays, state = todo.pop()
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            done = len(child.tricks) > len(state.tricks) or child.phase in ROUND_END
            (out if done else todo).append(([*plays, dict(action)], child))
    return out


def _endings(match: Any, tricks: int, favoured: int, result: dict[str, Any], width: int,
             deadline: float) -> Any:
    """Play sequences of at most `tricks` tricks after which the round is over with
    `result`: depth first, each trick's ways ordered by what they give the team favoured
    by that result (its tricks and round points first), `width` ways a trick."""
    def gain(way: tuple[list[dict[str, Any]], Any]) -> int:
        trick = way[1].completed_tricks[-1]
        return int(trick.points if team_of(trick.winner) == favoured else -trick.points)

    if tricks == 0 or match.phase in ROUND_END or time.monotonic() > deadline:
        return
    ways = sorted(_trick_plays(match), key=gain, reverse=True)[:width]
    for plays, after in ways:
        if after.phase in ROUND_END:
            if after.view()["result"] == result:
                yield plays
            continue
        for rest in _endings(after, tricks - 1, favoured, result, width, deadline):
            yield [*plays, *rest]


def sooner(case: Case, shrinker: Shrinker, width: int = 6, tests: int = 30
           ) -> Shrunk | None:
    """A divergence as a round ends after the contract shortcut, shown in fewer tricks on
    the same deal: plays (searched on the reference engine, fewest tricks first) that end
    the round with the same result (outcome, team, marks), the team it favours taking the
    tricks and round points first (a point contract made by its 30th round point, END-01,
    or set by its defenders' 12th, END-02)."""
    if "contract" not in case.setup or not case.steps:
        return None
    view = _oracle_at(case, len(case.steps)).view()
    if view["phase"] not in ROUND_END or view["result"] is None:
        return None
    favoured = TEAMS.index(view["result"]["awarded_to"])
    start = _oracle_at(case, 0).match
    deadline = min(shrinker.deadline, time.monotonic() + 10)
    for tricks in range(1, len(view["tricks"])):
        for plays in _endings(start, tricks, favoured, view["result"], width, deadline):
            if shrinker.spent or tests == 0:
                return None
            tests -= 1
            found = shrinker.test(Case(case.setup, [{"act": a} for a in plays]))
            if found:
                return found
    return None


def _tiles(setup: dict[str, Any]) -> tuple[str, list[str]] | None:
    if "hands" in setup:
        return "hands", [t for seat in SEATS for t in setup["hands"][seat]]
    if "order" in setup:
        return "order", list(setup["order"])
    return None


def _rename(step: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    action = step.get("act")
    if isinstance(action, dict) and action.get("tile") in (a, b):
        return {"act": {**action, "tile": b if action["tile"] == a else a}}
    return step


def swapped(case: Case, i: int) -> Case:
    """The deal with position i given its sorted tile (the two tiles swap places), and
    the two tiles renamed in the steps."""
    dealt = _tiles(case.setup)
    assert dealt is not None, "a case to sort deals its tiles (sort_deal checks)"
    form, tiles = dealt
    a, b = tiles[i], NAMES[i]
    j = tiles.index(b)
    tiles[i], tiles[j] = b, a
    setup = {**case.setup}
    if form == "hands":
        setup["hands"] = {seat: tiles[7 * n: 7 * n + 7] for n, seat in enumerate(SEATS)}
    else:
        setup["order"] = tiles
    deal = next((n for n, step in enumerate(case.steps) if "deal" in step), len(case.steps))
    return Case(setup, [_rename(step, a, b) for step in case.steps[:deal]]
                + case.steps[deal:])


def differing_tiles(case: Case) -> int:
    found = _tiles(case.setup)
    return sum(t != want for t, want in zip(found[1], NAMES, strict=True)) if found else 0


def sort_deal(case: Case, shrinker: Shrinker) -> Shrunk | None:
    """Swap tiles towards the sorted deal while it still diverges."""
    if _tiles(case.setup) is None:
        return None
    best = None
    improved = True
    while improved and not shrinker.spent:
        improved = False
        for i in range(28):
            if shrinker.spent:
                break
            dealt = _tiles(case.setup)
            assert dealt is not None  # checked above; a shrunk case keeps its setup
            if dealt[1][i] == NAMES[i]:
                continue
            found = shrinker.test(swapped(case, i))
            if found and len(found.case.steps) <= len(case.steps):
                best, case, improved = found, found.case, True
    return best


def no_starting_marks(case: Case, shrinker: Shrinker) -> Shrunk | None:
    """The setup without its starting marks (SCORE-03), when they are not what the case
    needs: a reader then need not wonder what they are for."""
    if "marks" not in case.setup:  # one test, even when the budget is spent
        return None
    return shrinker.test(Case({k: v for k, v in case.setup.items() if k != "marks"},
                              case.steps))


def shrink(other: Any, found: Divergence, level: str = "strict", budget: int = 2000,
           seconds: float = 60.0, keeps: Callable[[Case, Finding], bool] | None = None
           ) -> Divergence:
    """The smallest case the passes reach that still diverges like `found` (and, with
    `keeps`, still shows its cause: a shrink keeps one cause, not merely any
    divergence); `found` itself (thoroughly located) when nothing smaller does."""
    first = Shrinker(other, None, level, keeps=keeps)  # thoroughly: maybe an earlier step
    located = first.test(found.case)
    if located is None:  # a divergence that does not replay (a flaky implementation)
        return found
    case, finding = located
    shrinker = Shrinker(other, finding.signature | found.finding.signature, level, budget,
                        seconds, keeps)

    def keep(result: Shrunk | None) -> None:
        nonlocal case, finding
        if result and len(result.case.steps) <= len(case.steps):
            case, finding = result

    for candidate in (skip_rounds(case),):
        if candidate is not None:
            keep(shrinker.test(candidate))
    keep(quick_round(case, shrinker))
    keep(ddmin(case, shrinker))
    keep(plain_setups(case, shrinker))
    if any("deal" in step for step in case.steps):
        keep(passes(case, shrinker))
        keep(ddmin(case, shrinker))
    contract = as_contract(case)
    if contract is not None:
        # a bidding that reached 3 marks or more has no shortcut of its own (BID-05: a
        # first bid is of at most 2 marks), but often one with a lower bid
        keep(shrinker.test(contract) or lower_bid(contract, shrinker))
        keep(lower_bid(case, shrinker))
        keep(ddmin(case, shrinker))
    keep(lower_bid(case, shrinker))  # again: ddmin may have removed what needed the bid
    keep(sooner(case, shrinker))
    before = len(case.steps)
    keep(sort_deal(case, shrinker))
    if len(case.steps) <= before:
        keep(ddmin(case, shrinker))
    keep(plain_setups(case, shrinker))  # the sorted deal in the setup steps too
    keep(no_starting_marks(case, shrinker))
    return Divergence(found.seed, case, finding, found.original_steps or len(found.steps),
                      shrunk=True)
