"""The reference engine's reads as JSON text, exactly as `t42 serve` writes them.

`text(match, read)` is `json.dumps(value, separators=(",", ":"), allow_nan=False)` of the
view, observation or legal list that `reference_impl.views` and `Match.legal_actions`
build for `read` (`("view",)`, `("observe", seat)`, `("legal",)`), written from the
match's state with the constant parts (a tile's name, a play, a history entry: the engine
shares one object for each) encoded once: about a third of encoding the view.

Used on both ends of the protocol: `t42 serve` of the reference engine writes its replies
with it, and the fuzzer compares a JSON-lines implementation's reply line with the
reference's text before decoding it (equal texts are equal values with their types: the
reply is then not decoded). tests/harness/adapters/test_texts.py holds it to `json.dumps` of the
views over random games of every option.
"""

from __future__ import annotations

import json
from typing import Any

from reference_impl.match import Match
from reference_impl.tiles import NAMES, NOBODY, PLAY_ORDERS, SEAT_INDEX, SEATS, TEAMS
from reference_impl.views import (
    IN_PROGRESS,
    contract_json,
    covered_count,
    points_hidden,
    result_json,
)

ENCODE = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
# a string as ENCODE writes it (ensure_ascii), without the encoder's set-up
_STRING: Any = getattr(json.encoder, "encode_basestring_ascii")  # noqa: B009
_TILE = tuple(ENCODE(name) for name in NAMES)
_SEAT = tuple(ENCODE(seat) for seat in SEATS)
_TEAM = tuple(ENCODE(team) for team in TEAMS)
# a play of a trick, {"seat": ..., "tile": ...}, by seat and tile
_PLAY = tuple(tuple(f'{{"seat":{_SEAT[s]},"tile":{_TILE[t]}}}' for t in range(len(NAMES)))
              for s in range(len(SEATS)))
# the texts of the engine's shared action objects (history entries, legal actions), by
# identity: each kept with its object, so an id is never reused while it is here
_ACTIONS: dict[int, tuple[Any, str]] = {}
_MOST = 20_000


def _action(action: Any) -> str:
    known = _ACTIONS.get(id(action))
    if known is not None and known[0] is action:
        return known[1]
    text = ENCODE(action)
    if len(_ACTIONS) >= _MOST:  # pragma: no cover - the engine shares a few hundred
        _ACTIONS.clear()
    _ACTIONS[id(action)] = (action, text)
    return text


def _actions(actions: list[Any]) -> str:
    return "[" + ",".join(map(_action, actions)) + "]"


# The text of a round's history so far, by the history list: the engine only appends to
# it (a round starts a new list), so its text grows by the entries added since. Each
# entry keeps its list, the number of entries written and the last of them.
_HISTORIES: dict[int, tuple[list[Any], int, Any, str]] = {}


def _history(history: list[Any]) -> str:
    """_actions(history), the entries written before not written again."""
    count = len(history)
    known = _HISTORIES.get(id(history))
    if (known is not None and known[0] is history and known[1] <= count
            and (known[1] == 0 or history[known[1] - 1] is known[2])):
        _, done, _, text = known
        if done == count:
            return "[" + text + "]"
        more = ",".join(map(_action, history[done:]))
        text = f"{text},{more}" if done else more
    else:
        text = ",".join(map(_action, history))
    if len(_HISTORIES) >= 64:  # pragma: no cover - a campaign reads one or two at a time
        _HISTORIES.clear()
    _HISTORIES[id(history)] = (history, count, history[-1] if count else None, text)
    return "[" + text + "]"


def _string(value: Any) -> str:
    return _STRING(value) if type(value) is str else ENCODE(value)


def _contract(m: Match) -> str:
    """ENCODE(contract_json(m)), kept for the contract object and the rules it was
    written with (a contract is replaced, never changed)."""
    contract = m.contract
    if contract is None:
        return "null"
    known = _CONTRACT.get(id(contract))
    if known is not None and known[0] is contract and known[1] is m.rules:
        return known[2]
    text = ENCODE(contract_json(m))
    if len(_CONTRACT) >= _MOST:  # pragma: no cover - one or two a round
        _CONTRACT.clear()
    _CONTRACT[id(contract)] = (contract, m.rules, text)
    return text


_CONTRACT: dict[int, tuple[Any, Any, str]] = {}


def _result(m: Match) -> str:
    return "null" if m.result is None else ENCODE(result_json(m))


def _number(value: Any) -> str:
    return str(value) if type(value) is int else ENCODE(value)


def _teams(values: list[int]) -> str:
    return f'{{"AC":{_number(values[0])},"BD":{_number(values[1])}}}'


def _plays(order: tuple[int, ...], tiles: Any) -> str:
    return "[" + ",".join([_PLAY[seat][t] for seat, t in zip(order, tiles, strict=False)]) + "]"


def _head(m: Match) -> str:
    """phase, round, dealer, to_act (after a seat's `seat` in an observation)."""
    to_act = m.to_act
    return (f'"phase":{_string(m.phase)},"round":{_number(m.round)},"dealer":'
            f'{_SEAT[m.dealer]},"to_act":{"null" if to_act is None else _string(to_act)}')


def _middle(m: Match, orders: tuple[tuple[int, ...], ...]) -> str:
    """bids, contract, trick."""
    trick = _plays(orders[m.leader], m.trick) if m.trick else "[]"
    return (f'"bids":{_actions(m.bids)},"contract":'
            f'{_contract(m)},"trick":{trick}')


def view_text(m: Match) -> str:
    """ENCODE(referee_view(m))."""
    masks, sitting_out = m.masks, m.sitting_out
    orders = PLAY_ORDERS[NOBODY if sitting_out is None else sitting_out]
    team_of = m.rules.team_of
    hands = ",".join([f'{_SEAT[s]}:[{",".join([_TILE[t] for t in hand if masks[s] >> t & 1])}]'
                      for s, hand in enumerate(m.dealt)])
    tricks = ",".join([
        f'{{"number":{n},"leader":{_SEAT[leader]},"plays":{_plays(orders[leader], tiles)},'
        f'"winner":{_SEAT[winner]},"team":{_TEAM[team_of(winner)]},'
        f'"points":{_number(points)}}}'
        for n, (leader, tiles, winner, points) in enumerate(m.tricks, 1)])
    winner = m.winner
    return (f'{{{_head(m)},"hands":{{{hands}}},{_middle(m, orders)},"tricks":[{tricks}],'
            f'"points":{_teams(m.points)},"tricks_won":{_teams(m.tricks_won)},'
            f'"result":{_result(m)},"marks":{_teams(m.marks)},'
            f'"winner":{"null" if winner is None else _TEAM[winner]},'
            f'"history":{_history(m.history)}}}')


def observation_text(m: Match, seat: str) -> str:
    """ENCODE(seat_observation(m, seat)); ValueError for a seat that is none."""
    index = SEAT_INDEX.get(seat) if type(seat) is str else None
    if index is None:
        raise ValueError(f"seat must be one of A, B, C, D, not {seat!r}")
    covered = covered_count(m)
    masks, sitting_out = m.masks, m.sitting_out
    orders = PLAY_ORDERS[NOBODY if sitting_out is None else sitting_out]
    team_of = m.rules.team_of
    mask = masks[index]
    hand = ",".join([_TILE[t] for t in m.dealt[index] if mask >> t & 1])
    sizes = ",".join([f'{_SEAT[s]}:{len([t for t in held if masks[s] >> t & 1])}'
                      for s, held in enumerate(m.dealt)])
    captured = ",".join([
        f'{{"number":{n},"team":{_TEAM[team_of(winner)]},"tiles":'
        + (f'[{",".join([_TILE[t] for t in sorted(tiles)])}]' if n > covered else "null")
        + "}"
        for n, (_, tiles, winner, _) in enumerate(m.tricks, 1)])
    winner = m.winner
    points = "null" if points_hidden(m) else _teams(m.points)
    history = "null" if m.phase in IN_PROGRESS else _history(m.history)
    return (f'{{"seat":{_SEAT[index]},{_head(m)},"hand":[{hand}],"hand_sizes":{{{sizes}}},'
            f'{_middle(m, orders)},"captured":[{captured}],"points":{points},'
            f'"tricks_won":{_teams(m.tricks_won)},"marks":{_teams(m.marks)},'
            f'"result":{_result(m)},'
            f'"winner":{"null" if winner is None else _TEAM[winner]},"history":{history}}}')


def legal_text(m: Match) -> str:
    """ENCODE(m.legal_actions())."""
    return _actions(m.legal_actions())


def text(m: Match, read: tuple[str, ...]) -> str:
    """The text of a read: `("view",)`, `("observe", seat)` or `("legal",)`."""
    if read[0] == "view":
        return view_text(m)
    if read[0] == "observe":
        return observation_text(m, read[1])
    return legal_text(m)
