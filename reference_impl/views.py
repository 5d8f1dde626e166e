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


def team_map(values: list[int]) -> dict[str, int]:
    return {"AC": values[0], "BD": values[1]}


def tile_names(tiles: Any) -> list[str]:
    return [NAMES[t] for t in tiles]


def plays(m: Match, leader: int, tiles: Any) -> list[dict]:
    """A trick's plays in play order, clockwise from the leader (PLAY-02), passing over a
    seat that sits out (NELLO-04)."""
    order = PLAY_ORDERS[NOBODY if m.sitting_out is None else m.sitting_out][leader]
    # the current trick may be partial: the first len(tiles) seats of the order
    return [{"seat": SEATS[order[n]], "tile": NAMES[t]} for n, t in enumerate(tiles)]


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


def public_fields(m: Match) -> dict:
    """What every seat and the referee see alike (VIS-02, VIS-03, VIS-04, VIS-09; the
    round points only as points_hidden() allows)."""
    return {
        "phase": m.phase,
        "round": m.round,
        "dealer": SEATS[m.dealer],
        "to_act": m.to_act,
        "bids": [dict(a) for a in m.bids],
        "contract": contract_json(m),
        "trick": plays(m, m.leader, m.trick) if m.trick else [],
        "points": team_map(m.points),
        "tricks_won": team_map(m.tricks_won),
        "result": result_json(m),
        "marks": team_map(m.marks),
        "winner": None if m.winner is None else TEAMS[m.winner],
    }


def referee_view(m: Match) -> dict:
    """The whole state: every hand, every trick with its seats (observation.md)."""
    public = public_fields(m)
    return {
        **pick(public, "phase", "round", "dealer", "to_act"),
        "hands": {SEATS[s]: tile_names(hand) for s, hand in enumerate(m.hands)},
        **pick(public, "bids", "contract", "trick"),
        "tricks": [
            {"number": n, "leader": SEATS[trick.leader],
             "plays": plays(m, trick.leader, trick.tiles), "winner": SEATS[trick.winner],
             "team": TEAMS[m.rules.team_of(trick.winner)], "points": trick.points}
            for n, trick in enumerate(m.completed_tricks, 1)],
        **pick(public, "points", "tricks_won", "result", "marks", "winner"),
        "history": [dict(a) for a in m.history],
    }


def pick(fields: dict, *names: str) -> dict:
    return {name: fields[name] for name in names}


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
    """Exactly what `seat` may see (VIS-01..VIS-10)."""
    index = SEAT_INDEX.get(seat) if type(seat) is str else None  # pragma: no mutate
    if index is None:
        raise ValueError(f"seat must be one of A, B, C, D, not {seat!r}")
    covered = covered_count(m)
    public = public_fields(m)
    hands = m.hands  # derived from the masks on each read: once here
    return {
        "seat": seat,
        **pick(public, "phase", "round", "dealer", "to_act"),
        "hand": tile_names(hands[index]),  # VIS-01: own hand, in hand order
        "hand_sizes": {SEATS[s]: len(hand) for s, hand in enumerate(hands)},
        **pick(public, "bids", "contract", "trick"),
        "captured": [  # VIS-08: number, team and sorted tiles, never seats
            {"number": n, "team": TEAMS[m.rules.team_of(trick.winner)],
             "tiles": tile_names(sorted(trick.tiles)) if n > covered else None}
            for n, trick in enumerate(m.completed_tricks, 1)],
        "points": None if points_hidden(m) else public["points"],
        **pick(public, "tricks_won", "marks", "result", "winner"),
        "history": None if m.phase in IN_PROGRESS else [dict(a) for a in m.history],  # VIS-10
    }
