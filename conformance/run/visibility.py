"""What a seat may not see (VIS-01, VIS-06, VIS-08, VIS-09): the leak judges.

Each takes an observation and the referee view of the same moment and returns the
differences that leak; the runner, the fuzzer and the book use them alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TypeGuard

from conformance.adapters.protocol import AdapterError
from conformance.run.matching import MISSING, Difference
from reference_impl.match import DECLARING, PLAYING
from reference_impl.tiles import SEATS
from reference_impl.views import IN_PROGRESS as IN_ROUND  # observation.md: no history here
from reference_impl.views import covered_in_view


def as_json(value: object, what: str) -> Any:
    """A copy that is plain JSON, as it would be on the wire."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as error:
        raise AdapterError(f"{what} returned a value that is not JSON: {error}") from None


def tile_leaks(seat: str, seen: object, referee: dict[str, Any]
               ) -> tuple[list[str], list[str]]:
    """VIS-01 and VIS-06: the other seats' unplayed tiles, and the covered tricks' tiles,
    that an observation of `seat` shows anywhere (sorted)."""
    strings = set(strings_in(seen))
    hands = {t for s in SEATS if s != seat for t in referee["hands"][s]}
    covered = referee["tricks"][: covered_in_view(referee)]
    faces = {p["tile"] for trick in covered for p in trick["plays"]}
    return sorted(hands & strings), sorted(faces & strings)


def points_leaks(seen: Any, referee: dict[str, Any], path: str) -> list[Difference]:
    """VIS-09 leaks of an observation, judged against the referee view of the same moment.

    Under a marks contract in phases `declaring` and `playing`, `points` must be null, and
    no object at any depth (`x_` fields included) may be the team map of the referee's
    round points. A map is judged only when those points differ from every public team map
    (zero, tricks won, marks): then it cannot be one of them by chance.
    """
    contract = referee.get("contract")
    if (referee["phase"] not in (DECLARING, PLAYING) or not contract
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
    for where, obj in objects_in({k: v for k, v in seen.items() if k != "points"}, path):
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
    for where, obj in objects_in(seen, path):
        number = obj.get("number")
        if (number in winners and isinstance(obj.get("tiles"), list)
                and any(_names_seats(v) for k, v in obj.items() if k != "team")):
            leaks.append(Difference(where, MISSING, obj, "names seats in a completed trick"))
            continue
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


def objects_in(value: object, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every JSON object inside a value, with its path."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from objects_in(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from objects_in(item, f"{path}[{i}]")


def _names_seats(value: object) -> bool:
    """A seat, or a list holding one."""
    return _is_seat(value) or isinstance(value, list) and any(_is_seat(v) for v in value)


def _is_seat(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) == 1 and value in SEATS


def _seat_tile_pairs(obj: dict[str, Any]) -> list[tuple[str, str]]:
    """The (seat, tile) pairs an object states: a play, a list of seats beside a list of
    tiles as long, a map seat -> tile(s), a map tile -> seat. Tiles are any strings
    here; the caller keeps those of completed tricks."""
    if "seat" in obj and "tile" in obj:
        seat, tile = obj["seat"], obj["tile"]
        return [(seat, tile)] if _is_seat(seat) and isinstance(tile, str) else []
    lists = [v for v in obj.values() if isinstance(v, list) and v]
    seats = [v for v in lists if all(_is_seat(x) for x in v)]
    tiles = [v for v in lists if all(isinstance(x, str) and "|" in x for x in v)]
    if len(seats) == 1 and len(tiles) == 1 and len(seats[0]) == len(tiles[0]):
        return list(zip(seats[0], tiles[0], strict=True))  # seats[i] played tiles[i]
    if all(_is_seat(key) for key in obj):
        return [(key, tile) for key, value in obj.items()
                for tile in (value if isinstance(value, list) else [value])
                if isinstance(tile, str)]
    return [(value, key) for key, value in obj.items() if _is_seat(value)]


def strings_in(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
