"""The geometry of a table diagram, as data for templates/table.svg.j2 and figure.svg.j2.

Seats sit clockwise as seen from above: A at the bottom, B on the left, C at the top, D on
the right (TBL-01). Every tile is a `Tile` (two halves of pips); the templates only loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance.book.words import bid_words, trump_words
from reference_impl.tiles import NAMES as TILE_NAMES
from reference_impl.tiles import PIPS as TILE_PIPS
from reference_impl.tiles import SEATS

# Pip centres on a unit half, by number of pips (the usual domino faces).
PIPS = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)],
}
WIDTH, HEIGHT, TABLE_W = 780, 560, 540
TEAM = {"A": "AC", "C": "AC", "B": "BD", "D": "BD"}


@dataclass(frozen=True)
class Tile:
    """One tile on the table: an upright face symbol (see `faces`), placed and turned."""

    x: float
    y: float
    w: float  # the short side
    upright: bool = True
    name: str | None = None  # "a|b"; None: face down
    order: int | None = None  # play order badge
    seat: str | None = None
    kind: str = "hand"  # hand, play, captured, back
    mark: str = ""  # a run report's highlight: legal, missing, extra, tried

    @property
    def width(self) -> float:
        return self.w if self.upright else 2 * self.w

    @property
    def height(self) -> float:
        return 2 * self.w if self.upright else self.w

    @property
    def cx(self) -> float:
        return self.x + self.width / 2

    @property
    def cy(self) -> float:
        return self.y + self.height / 2

    @property
    def symbol(self) -> str:
        if self.name is None or self.name not in FACE_IDS:
            return "tile-back"
        return FACE_IDS[self.name]

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The upright symbol's box; a sideways tile is this box turned by -90 degrees."""
        return (self.cx - self.w / 2, self.cy - self.w, self.w, 2 * self.w)

    @property
    def turn(self) -> str:
        return "" if self.upright else f"rotate(-90 {self.cx:g} {self.cy:g})"


FACE_IDS = {name: f"tile-{a}-{b}" for name, (a, b) in zip(TILE_NAMES, TILE_PIPS, strict=True)}


def faces() -> list[dict[str, Any]]:
    """The 28 faces as symbols in a 10 x 20 box: pips of the low half on top."""
    out = []
    for name, symbol in FACE_IDS.items():
        a, b = (int(n) for n in name.split("|"))
        pips = [(px * 10, py * 10) for px, py in PIPS[a]]
        pips += [(px * 10, 10 + py * 10) for px, py in PIPS[b]]
        out.append({"id": symbol, "name": name, "pips": pips})
    return out


def make_tile(name: str | None, x: float, y: float, w: float, upright: bool = True,
              **extra: Any) -> Tile:
    return Tile(x, y, w, upright, name, **extra)


@dataclass
class Label:
    text: str
    x: float
    y: float
    cls: str = ""
    anchor: str = "middle"


@dataclass
class Diagram:
    width: int
    height: int
    tiles: list[Tile]
    labels: list[Label]
    seats: list[dict[str, Any]]
    title: str  # the accessible name of the picture
    description: str  # the same in words (a screen reader reads it)


# Where each seat's hand, label and play go (x, y of the first tile; upright tiles?).
HAND = {"A": (270, 478, True), "C": (270, 72, True), "B": (28, 150, False),
        "D": (TABLE_W - 28, 150, False)}
PLAY = {"A": (270, 318), "B": (196, 272), "C": (270, 206), "D": (344, 272)}
SEAT_LABEL = {"A": (270, 548), "C": (270, 64), "B": (64, 138), "D": (TABLE_W - 64, 138)}


def _hand_tiles(seat: str, tiles: list[str | None], marks: dict[str, str] | None = None
                ) -> list[Tile]:
    x, y, upright = HAND[seat]
    w = 18
    out = []
    marks = marks or {}
    if upright:
        total = len(tiles) * (w + 5) - 5
        for i, name in enumerate(tiles):
            out.append(make_tile(name, x - total / 2 + i * (w + 5), y, w, True, seat=seat,
                                 kind="hand" if name else "back",
                                 mark=marks.get(name, "") if isinstance(name, str) else ""))
    else:
        for i, name in enumerate(tiles):
            tx = x if seat == "B" else x - 2 * w
            out.append(make_tile(name, tx, y + i * (w + 6), w, False, seat=seat,
                                 kind="hand" if name else "back",
                                 mark=marks.get(name, "") if isinstance(name, str) else ""))
    return out


def _play_tiles(plays: list[dict[str, Any]]) -> list[Tile]:
    out = []
    w = 24
    for order, play in enumerate(plays, 1):
        seat = play.get("seat")
        if seat not in PLAY:
            continue
        cx, cy = PLAY[seat]
        out.append(make_tile(play.get("tile"), cx - w / 2, cy - w, w, True, seat=seat,
                             order=order, kind="play"))
    return out


def contract_words(contract: dict[str, Any] | None) -> str:
    if not contract:
        return "no contract yet"
    bid = bid_words(contract["bid"], trump=contract.get("trump"))
    text = f"{contract.get('declarer')} ({contract.get('team')}) bid {bid}"
    if contract.get("trump") is not None:
        text += f", trump: {trump_words(contract['trump'])}"
    if contract.get("stacks"):
        text += f", {contract['stacks']} stack{'s' if contract['stacks'] != 1 else ''}"
    return text


def _pair(value: Any) -> str:
    if value is None:  # a seat is not shown the round points of a marks contract (VIS-09)
        return "not shown"
    if not isinstance(value, dict):
        return "?"
    return f"AC {value.get('AC', '?')} · BD {value.get('BD', '?')}"


def table(view: dict[str, Any] | None, covered: list[int], completed: bool,
          title: str, marks: dict[str, str] | None = None,
          notes: Sequence[str] = ()) -> Diagram:
    """The referee's table: every hand, the trick numbered in play order, captured tricks
    (covered ones face down), contract, points and marks. A run report adds `marks` (tile
    -> legal, missing, extra or tried: drawn on the tile in its hand) and `notes` (lines
    on the felt: the actions that are not tiles, what was answered)."""
    tiles: list[Tile] = []
    labels: list[Label] = _notes(notes)
    seats: list[dict[str, Any]] = []
    if view is None:
        labels.append(Label("no match is running", TABLE_W / 2, HEIGHT / 2, "note"))
        return Diagram(WIDTH, HEIGHT, tiles, labels, seats, title, "No match is running.")
    hands = view.get("hands") or {}
    for seat in SEATS:
        hand = hands.get(seat) or []
        tiles += _hand_tiles(seat, list(hand), marks)
        x, y = SEAT_LABEL[seat]
        role = []
        if view.get("dealer") == seat:
            role.append("dealer")
        if (view.get("contract") or {}).get("declarer") == seat:
            role.append("declarer")
        seats.append({"seat": seat, "x": x, "y": y, "team": TEAM[seat],
                      "to_act": view.get("to_act") == seat,
                      "text": f"{seat} · {TEAM[seat]}" + (f" · {', '.join(role)}" if role else "")})
    tricks = view.get("tricks") or []
    trick = view.get("trick") or []
    if completed and tricks and not trick:
        last = tricks[-1]
        tiles += _play_tiles(last.get("plays") or [])
        labels.append(Label(f"trick {last.get('number')} complete: {last.get('winner')} wins, "
                            f"{last.get('points')} points to {last.get('team')}",
                            TABLE_W / 2, 380, "trick-note"))
    else:
        tiles += _play_tiles(trick)
        if trick:
            labels.append(Label(f"trick {len(tricks) + 1} in play", TABLE_W / 2, 380,
                                "trick-note"))
    contract = view.get("contract")
    if isinstance(view.get("bids"), list):  # the round's bids (VIS-02: public)
        labels.append(Label(cut_text("bids: " + (bids_words(view["bids"]) or "none"), 44),
                            TABLE_W - 12,
                            20, "info", "end"))
    labels += [
        Label(f"round {view.get('round')} · {view.get('phase')}"
              + (f" · {view.get('to_act')} to act" if view.get("to_act") else ""),
              12, 20, "info", "start"),
        Label(contract_words(contract), 12, 36, "info", "start"),
        Label(f"round points {_pair(view.get('points'))}", TABLE_W + 16, HEIGHT - 32,
              "panel-info", "start"),
        Label(f"match marks {_pair(view.get('marks'))}", TABLE_W + 16, HEIGHT - 14,
              "panel-info", "start"),
    ]
    result = view.get("result")
    if result:
        labels.append(Label(f"result: {result.get('outcome')}, {result.get('marks')} mark(s) "
                            f"to {result.get('awarded_to')}", TABLE_W / 2, 404, "result"))
    if view.get("winner"):
        labels.append(Label(f"{view['winner']} win the match", TABLE_W / 2, 424, "result"))
    tiles_c, labels_c = _captured(tricks, covered)
    text = describe(view, covered, completed) + "".join(f" {n}." for n in notes)
    return Diagram(WIDTH, HEIGHT, tiles + tiles_c, labels + labels_c, seats, title, text)


# A run report's lines on the felt, under the trick (at most this many: the rest is in
# the failure's table of differences beside the picture).
NOTE_LINES = 3


def _notes(notes: Sequence[str]) -> list[Label]:
    shown = list(notes[:NOTE_LINES])
    if len(notes) > NOTE_LINES:
        shown[-1] = f"... and {len(notes) - NOTE_LINES + 1} more lines (see the failure)"
    return [Label(cut_text(n), TABLE_W / 2, 436 + 14 * i, "mark-note")
            for i, n in enumerate(shown)]


def bids_words(bids: Any) -> str:
    """`A 30 · B pass · C pass`: the bids of a round, short."""
    if not isinstance(bids, list):
        return "?"
    out = []
    for b in bids:
        if not isinstance(b, dict):
            out.append("?")
            continue
        rest = {k: v for k, v in b.items() if k not in ("type", "seat")}
        out.append(f"{b.get('seat')} " + ("pass" if b.get("type") == "pass"
                                          else bid_words(rest, goal=False) if rest
                                          else str(b.get("type"))))
    return " · ".join(out)


def cut_text(text: str, most: int = 80) -> str:
    """A line that fits the felt."""
    return text if len(text) <= most else text[:most - 3] + "..."


def observation_table(seen: Any, seat: str, title: str) -> Diagram:
    """What one seat is shown (an observation, observation.md): its own hand face up,
    the other hands face down by their sizes, the trick, each captured trick face up or
    covered as the observation gives it, and anything it tells of who won."""
    if not isinstance(seen, dict):
        labels = [Label(f"not an observation: {cut_text(repr(seen), 60)}", TABLE_W / 2,
                        HEIGHT / 2, "note")]
        return Diagram(WIDTH, HEIGHT, [], labels, [], title, "Not an observation.")
    sizes: dict[str, Any] = seen["hand_sizes"] if isinstance(seen.get("hand_sizes"), dict) \
        else {}
    hands: dict[str, list[str | None]] = {}
    for s in SEATS:
        if s == seat:
            hands[s] = [t for t in seen.get("hand") or [] if isinstance(t, str)]
        else:
            size = sizes.get(s)
            hands[s] = [None] * (size if isinstance(size, int) and 0 <= size <= 28 else 0)
    as_view = {k: seen.get(k) for k in ("phase", "round", "dealer", "to_act", "contract",
                                         "bids", "trick", "points", "marks", "result",
                                         "winner")}
    as_view["hands"] = hands
    as_view["tricks"] = []
    diagram = table(as_view, [], False, title)
    tiles = [t for t in diagram.tiles if t.kind != "captured"]
    labels = [lb for lb in diagram.labels if lb.cls not in ("panel-title", "note")
              or lb.x < TABLE_W]
    tiles_c, labels_c = _captured_seen(seen.get("captured") or [])
    for entry in diagram.seats:
        if entry["seat"] == seat:
            entry["text"] += " · this seat"
    text = (f"What {seat} is shown. " + describe(as_view, [], False)
            + " Captured tricks as shown: " + _captured_words(seen.get("captured") or []))
    return Diagram(WIDTH, HEIGHT, tiles + tiles_c, labels + labels_c, diagram.seats, title,
                   text)


def _captured_seen(captured: Any) -> tuple[list[Tile], list[Label]]:
    """The captured tricks of an observation: face up where it gives the tiles, face
    down where it covers them (VIS-06), with any seat it names (VIS-08)."""
    x0 = TABLE_W + 16
    labels = [Label("captured tricks (as shown)", x0, 24, "panel-title", "start")]
    tiles: list[Tile] = []
    entries = [c for c in captured if isinstance(c, dict)] if isinstance(captured, list) else []
    if not entries:
        labels.append(Label("none", x0, 48, "note", "start"))
    for row, trick in enumerate(entries[:7]):
        y = 40 + row * 72
        names = trick.get("tiles")
        hidden = not isinstance(names, list)
        told = [f"{k} {trick[k]}" for k in ("winner", "leader") if trick.get(k)]
        labels.append(Label(" · ".join([str(trick.get("number")), str(trick.get("team")),
                                        *told, *(["covered"] if hidden else [])]),
                            x0, y + 12, "trick-label", "start"))
        faces = [None] * 4 if not isinstance(names, list) else [
            n if isinstance(n, str) else None for n in names]
        for i, name in enumerate(faces[:7]):
            tiles.append(make_tile(name, x0 + i * 26, y + 18, 20, True,
                                   kind="back" if name is None else "captured"))
    return tiles, labels


def _captured_words(captured: Any) -> str:
    entries = [c for c in captured if isinstance(c, dict)] if isinstance(captured, list) else []
    return "; ".join(f"{c.get('number')} " + (", ".join(map(str, c["tiles"]))
                                               if isinstance(c.get("tiles"), list) else "covered")
                     for c in entries) or "none"


def legal_marks(mine: list[Any], due: list[Any] | None = None) -> dict[str, str]:
    """Tile -> mark for a legal list: `legal` for each tile `mine` plays; with `due`
    (the reference's list), `extra` for a play `due` lacks and `missing` for one of `due`
    that `mine` lacks."""
    def plays(actions: list[Any]) -> set[str]:
        return {a["tile"] for a in actions if isinstance(a, dict) and a.get("type") == "play"
                and isinstance(a.get("tile"), str)}

    have = plays(mine)
    marks = {t: "legal" for t in have}
    if due is not None:
        want = plays(due)
        marks.update({t: "extra" for t in have - want})
        marks.update({t: "missing" for t in want - have})
    return marks


def _captured(tricks: list[dict[str, Any]], covered: list[int]) -> tuple[list[Tile], list[Label]]:
    x0 = TABLE_W + 16
    labels = [Label("captured tricks", x0, 24, "panel-title", "start")]
    tiles: list[Tile] = []
    if not tricks:
        labels.append(Label("none yet", x0, 48, "note", "start"))
    for row, trick in enumerate(tricks):
        y = 40 + row * 72
        hidden = trick.get("number") in covered
        labels.append(Label(f"{trick.get('number')} · {trick.get('team')} · "
                            f"{trick.get('points')} pts · {trick.get('winner')} won"
                            + (" · covered" if hidden else ""), x0, y + 12, "trick-label", "start"))
        names = sorted(p.get("tile") for p in trick.get("plays") or [])
        for i, name in enumerate(names):
            tiles.append(make_tile(None if hidden else name, x0 + i * 26, y + 18, 20, True,
                                   kind="back" if hidden else "captured"))
    return tiles, labels


def describe(view: dict[str, Any], covered: list[int], completed: bool) -> str:
    """The diagram in one paragraph, like document 000's text alternatives."""
    trick = view.get("trick") or []
    tricks = view.get("tricks") or []
    if completed and tricks and not trick:
        trick = tricks[-1].get("plays") or []
    plays = "; ".join(f"{n}. {p.get('seat')} {p.get('tile')}" for n, p in enumerate(trick, 1))
    hands = view.get("hands") or {}
    sizes = ", ".join(f"{s}={len(hands.get(s) or [])}" for s in SEATS)
    seen = "; ".join(
        f"{t.get('number')} ({t.get('team')}) "
        + ("covered" if t.get("number") in covered
           else ", ".join(sorted(p.get("tile") for p in t.get("plays") or [])))
        for t in tricks) or "none"
    return (f"Contract: {contract_words(view.get('contract'))}. "
            f"Tiles in play order: {plays or 'none'}. Hand sizes: {sizes}. "
            f"Captured tricks: {seen}. Points: {_pair(view.get('points'))}. "
            f"Marks: {_pair(view.get('marks'))}.")


# --- document 000's figures -------------------------------------------------------------

FIG_W, FIG_H = 560, 250


def figure(observation: dict[str, Any], title: str) -> Diagram:
    """What document 000's figures show, from a seat's observation: the current trick
    with each tile's play order, and only the captured faces a seat may look at, with no
    seat attached to them (VIS-05, VIS-06, VIS-08)."""
    tiles: list[Tile] = []
    labels = [Label("current trick", 20, 24, "panel-title", "start"),
              Label("captured faces", 300, 24, "panel-title", "start")]
    trick = observation.get("trick") or []
    for order, play in enumerate(trick, 1):
        x = 24 + (order - 1) * 64
        tiles.append(make_tile(play.get("tile"), x, 60, 30, True, order=order,
                               seat=play.get("seat"), kind="play"))
        labels.append(Label(str(play.get("seat")), x + 15, 146, "seat-under"))
    if not trick:
        labels.append(Label("no tile played", 20, 90, "note", "start"))
    visible = [c for c in observation.get("captured") or [] if c.get("tiles")]
    for row, capture in enumerate(visible):
        y = 40 + row * 66
        labels.append(Label(f"trick {capture.get('number')} · {capture.get('team')}", 300,
                            y + 12, "trick-label", "start"))
        for i, name in enumerate(capture["tiles"]):
            tiles.append(make_tile(name, 300 + i * 48, y + 20, 20, False, kind="captured"))
    if not visible:
        labels.append(Label("no captured tiles", 300, 52, "note", "start"))
    sizes = observation.get("hand_sizes") or {}
    labels.append(Label("hand sizes: " + ", ".join(f"{s}={sizes.get(s)}" for s in SEATS),
                        20, FIG_H - 40, "info", "start"))
    labels.append(Label(contract_words(observation.get("contract")), 20, FIG_H - 20, "info",
                        "start"))
    plays = "; ".join(f"{n}. {p.get('seat')} {p.get('tile')}" for n, p in enumerate(trick, 1))
    faces = "; ".join(f"{c.get('number')} ({c.get('team')}) {', '.join(c['tiles'])}"
                      for c in visible) or "none"
    sizes_text = ", ".join(f"{s}={sizes.get(s)}" for s in SEATS)
    text = (f"Contract: {contract_words(observation.get('contract'))}. Tiles in play order: "
            f"{plays or 'none'}. Hand sizes: {sizes_text}. Visible captured faces: {faces}.")
    return Diagram(FIG_W, FIG_H, tiles, labels, [], title, text)
