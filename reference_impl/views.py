"""Views of a match (spec/observation.md): the referee view and a seat's observation.

Built from the state on demand, as fresh JSON objects the caller may keep or change. The
observer decides what a seat may see (VIS-01..VIS-10); the state knows nothing of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .tiles import NAMES, NOBODY, PLAY_ORDERS, SEAT_INDEX, SEATS, TEAMS

if TYPE_CHECKING:
    from .match import Match

IN_PROGRESS = ("bidding", "declaring", "playing")


def contract_json(m: Match) -> dict | None:
    """CON-04; PLUNGE-04: a plunge shows as a bid of its marks, declared by the partner."""
    c = m.contract
    if c is None:
        return None
    view = {"declarer": SEATS[c.declarer], "team": TEAMS[c.team], "bid": {c.kind: c.value},
            "stake": m.rules.stake(m.rules, c),
            "trump": c.trump, "stacks": c.stacks}
    if c.treatment is not None:  # NELLO-13, NOTRUMP-05: the doubles the declaration named
        view["doubles"] = c.treatment
    return view


def result_json(m: Match) -> dict | None:
    if m.result is None:
        return None
    result = m.result
    return {"outcome": result.outcome,
            "awarded_to": None if result.team is None else TEAMS[result.team],
            "marks": result.marks}


# The tiles each seat holds, as names in the order dealt, by the dealt hands and the
# masks of the tiles left: a state's view and observations (and another engine's of the
# same state) list them alike, so they are found once. Plain data: copied when shown.
_HELD: dict[Any, tuple[tuple[str, ...], ...]] = {}


def _held(m: Match) -> tuple[tuple[str, ...], ...]:
    """Each seat's tiles in hand (Match.hands) as names."""
    masks = m.masks
    key: Any = (m.dealt, *masks)
    try:
        return _HELD[key]
    except KeyError:
        pass
    except TypeError:  # hands dealt as lists (a rule's own deal_order): not kept
        key = None
    held = tuple(tuple([NAMES[t] for t in hand if masks[s] >> t & 1])
                 for s, hand in enumerate(m.dealt))
    if key is not None:
        if len(_HELD) >= 1024:  # pragma: no mutate
            _HELD.clear()  # pragma: no mutate
        _HELD[key] = held
    return held


def referee_view(m: Match) -> dict:
    """The whole state: every hand, every trick with its seats (observation.md).

    Built in one pass from the state's own fields (a fuzz campaign reads a view about
    every third step, on both engines): no intermediate dicts, no named tuples."""
    history, sitting_out = m.history, m.sitting_out
    orders = PLAY_ORDERS[NOBODY if sitting_out is None else sitting_out]
    team_of = m.rules.team_of
    points, won, marks, winner = m.points, m.tricks_won, m.marks, m.winner
    return {
        "phase": m.phase,
        "round": m.round,
        "dealer": SEATS[m.dealer],
        "to_act": m.to_act,
        # the dealt hands less the tiles played (Match.hands), as names
        "hands": {SEATS[s]: list(hand) for s, hand in enumerate(_held(m))},
        "bids": list(map(dict, history[:len(m._bidders)])),  # Match.bids: fresh copies
        "contract": contract_json(m),
        "trick": _plays(orders[m.leader], m.trick) if m.trick else [],
        "tricks": [
            {"number": n, "leader": SEATS[leader], "plays": _plays(orders[leader], tiles),
             "winner": SEATS[trick_winner], "team": TEAMS[team_of(trick_winner)],
             "points": trick_points}
            for n, (leader, tiles, trick_winner, trick_points) in enumerate(m.tricks, 1)],
        "points": {"AC": points[0], "BD": points[1]},
        "tricks_won": {"AC": won[0], "BD": won[1]},
        "result": result_json(m),
        "marks": {"AC": marks[0], "BD": marks[1]},
        "winner": None if winner is None else TEAMS[winner],
        "history": list(map(dict, history)),
    }


def _plays(order: tuple[int, ...], tiles: Any) -> list[dict]:
    """`plays` with the trick's play order given: the first len(tiles) seats of it."""
    return [{"seat": SEATS[seat], "tile": NAMES[t]}
            for seat, t in zip(order, tiles, strict=False)]


def covered_tricks(phase: str, stacks: int | None, completed: int) -> int:
    """How many of the earliest completed tricks are covered: under a marks contract
    during play all but the latest `stacks` (VIS-06, VIS-07); none under a point contract
    (VIS-05, `stacks` None) nor after the round (VIS-10). The conformance harness calls
    this too, through `covered_in_view`, so the rule is written once."""
    if phase != "playing" or stacks is None:
        return 0
    return max(0, completed - stacks)


def covered_count(m: Match) -> int:
    stacks = m.contract.stacks if m.contract is not None else None
    return covered_tricks(m.phase, stacks, len(m.tricks))


def covered_in_view(view: dict) -> int:
    """`covered_tricks` of a referee view (observation.md), whoever produced it."""
    contract = view["contract"]
    stacks = contract.get("stacks") if isinstance(contract, dict) else None
    return covered_tricks(view["phase"], stacks if type(stacks) is int else None,
                          len(view["tricks"]))


def points_hidden(m: Match) -> bool:
    """VIS-09: under a marks contract the running round points would tell what the covered
    tricks hold (VIS-06), so no seat sees them until the round has ended (VIS-10)."""
    return m.contract is not None and m.contract.kind == "marks" and m.phase in IN_PROGRESS


def seat_observation(m: Match, seat: str) -> dict:
    """Exactly what `seat` may see (VIS-01..VIS-10): what every seat and the referee see
    alike (VIS-02, VIS-03, VIS-04, VIS-09; the round points only as points_hidden()
    allows), its own hand and the captured tricks. Built in one pass, as referee_view."""
    index = SEAT_INDEX.get(seat) if type(seat) is str else None  # pragma: no mutate
    if index is None:
        raise ValueError(f"seat must be one of A, B, C, D, not {seat!r}")
    covered = covered_count(m)
    history, sitting_out, phase = m.history, m.sitting_out, m.phase
    orders = PLAY_ORDERS[NOBODY if sitting_out is None else sitting_out]
    team_of = m.rules.team_of
    points, won, marks, winner = m.points, m.tricks_won, m.marks, m.winner
    held = _held(m)
    return {
        "seat": seat,
        "phase": phase,
        "round": m.round,
        "dealer": SEATS[m.dealer],
        "to_act": m.to_act,
        "hand": list(held[index]),  # VIS-01: own hand, in hand order
        "hand_sizes": {SEATS[s]: len(hand) for s, hand in enumerate(held)},
        "bids": list(map(dict, history[:len(m._bidders)])),
        "contract": contract_json(m),
        "trick": _plays(orders[m.leader], m.trick) if m.trick else [],
        "captured": [  # VIS-08: number, team and sorted tiles, never seats
            {"number": n, "team": TEAMS[team_of(trick_winner)],
             "tiles": [NAMES[t] for t in sorted(tiles)] if n > covered else None}
            for n, (_, tiles, trick_winner, _) in enumerate(m.tricks, 1)],
        "points": None if points_hidden(m) else {"AC": points[0], "BD": points[1]},
        "tricks_won": {"AC": won[0], "BD": won[1]},
        "marks": {"AC": marks[0], "BD": marks[1]},
        "result": result_json(m),
        "winner": None if winner is None else TEAMS[winner],
        "history": None if phase in IN_PROGRESS else list(map(dict, history)),  # VIS-10
    }
