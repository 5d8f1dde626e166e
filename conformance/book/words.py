"""A step's action and its expectation in words, for the reader beside each diagram."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from conformance.corpus.scenario import Step

# The declarations of actions.md and variants.md, in words.
TRUMPS = {"doubles": "doubles as trumps", "none": "no trump (doubles high)",
          "follow_me": "follow me (no trump)", "nello": "Nel-O (to lose every trick)",
          "sevens": "Sevens (closest to seven wins)", "first_tile": "the first tile sets trump",
          "plunge": "the plunge (the partner names trump)"}
SUITS = {0: "blanks", 1: "aces", 2: "deuces", 3: "treys", 4: "fours", 5: "fives", 6: "sixes"}


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def trump_words(trump: Any) -> str:
    if isinstance(trump, int) and not isinstance(trump, bool) and trump in SUITS:
        return SUITS[trump]
    return TRUMPS.get(trump, compact(trump)) if isinstance(trump, str) else compact(trump)


# What a marks bid undertakes, unless Nel-O is declared on it (or announced with it):
# then the declarer's side must lose every trick instead (NELLO-01), and saying "all the
# tricks" would contradict the trump words beside it.
LOSING_TRUMPS = ("nello",)


def bid_words(bid: dict[str, Any], goal: bool = True, trump: Any = None) -> str:
    """A bid in words; `goal`: say what a marks bid undertakes, given the `trump`
    declared on it (None: not yet)."""
    announced = [name for name, value in bid.items()
                 if name not in ("points", "marks") and value is True]
    also = f", announcing {announced[0]}" if announced and len(bid) == 2 else ""  # NELLO-14
    if "points" in bid:
        return f"{bid['points']} points{also}"
    if "marks" in bid:
        marks = bid["marks"]
        losing = trump in LOSING_TRUMPS or any(a in LOSING_TRUMPS for a in announced)
        undertakes = " (all the tricks)" if goal and not losing else ""
        return f"{marks} mark{'s' if marks != 1 else ''}{undertakes}{also}"
    if len(bid) == 1 and next(iter(bid.values())) is True:  # a special bid: plunge, splash
        return f"a {next(iter(bid))} (the partner names trump)"
    if len(bid) == 1 and type(next(iter(bid.values()))) is int:  # one that carries its marks
        name, marks = next(iter(bid.items()))
        return f"a {name} of {marks} mark{'s' if marks != 1 else ''} (the partner names trump)"
    return compact(bid)


def action_words(action: Any) -> str:
    """`{"type": "play", "seat": "A", "tile": "5|5"}` -> "A plays 5|5"."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return f"sends the malformed action {compact(action)}"
    seat, kind = action.get("seat", "?"), action["type"]
    if kind == "pass":
        return f"{seat} passes"
    if kind == "bid":
        rest = {k: v for k, v in action.items() if k not in ("type", "seat")}
        return f"{seat} bids {bid_words(rest)}"
    if kind == "trump":
        text = f"{seat} names {trump_words(action.get('trump'))}"
        if action.get("stacks") is not None:
            text += f", {action['stacks']} stack{'s' if action['stacks'] != 1 else ''}"
        if action.get("doubles") is not None:  # NELLO-13, NOTRUMP-05
            text += f", doubles {action['doubles']}"
        return text
    if kind == "play":
        return f"{seat} plays {action.get('tile')}"
    extra = {k: v for k, v in action.items() if k not in ("type", "seat")}
    return f"{seat} {kind}" + (f" {compact(extra)}" if extra else "")


def step_words(step: Step) -> str:
    if step.kind == "setup":
        payload = step.payload if isinstance(step.payload, dict) else {}
        parts = ["a new match"]
        if "dealer" in payload:
            parts.append(f"dealer {payload['dealer']}")
        if payload.get("variants"):
            parts.append(f"options {compact(payload['variants'])}")
        if payload.get("marks"):
            parts.append(f"marks {compact(payload['marks'])}")
        return "Setup: " + ", ".join(parts) if isinstance(step.payload, dict) else (
            f"Setup with the malformed value {compact(step.payload)}")
    if step.kind == "deal":
        return "Deal of the next round" if isinstance(step.payload, dict) else (
            f"Deal with the malformed value {compact(step.payload)}")
    if step.kind == "act":
        text = action_words(step.payload)
        return text[0].upper() + text[1:]
    return "No action: an expectation only"


def outcome_words(step: Step, code_text: dict[str, str]) -> str:
    """What must happen to the step itself: accepted, or refused with a code (and why)."""
    if not step.kind:
        return ""
    if step.reject:
        why = code_text.get(step.reject, "")
        return f"Must be rejected with {step.reject}" + (f": {why}" if why else "")
    return "Must be accepted"


FIELD_NAMES = {
    "phase": "phase", "round": "round", "dealer": "dealer", "to_act": "seat to act",
    "hands": "hands", "hand": "hand", "hand_sizes": "hand sizes", "bids": "bids",
    "contract": "contract", "trick": "current trick", "tricks": "completed tricks",
    "captured": "captured tricks", "points": "round points", "tricks_won": "tricks won",
    "result": "result", "marks": "match marks", "winner": "match winner",
    "history": "history", "seat": "seat",
}


def value_words(name: str, value: Any) -> str:
    """A view field's value in words (the book's tables), by the field's own words where
    it has them (VALUE_WORDS), else compact JSON."""
    if value is None:
        return "none"
    words = VALUE_WORDS.get(name)
    kind = dict if name in ("points", "marks", "tricks_won", "hand_sizes", "result",
                            "contract") else list
    if words is not None and isinstance(value, kind):
        return words(value)
    if isinstance(value, list | dict):
        return compact(value)
    return str(value)


def _per_team(value: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in value.items())


def _trick_in_play(value: list[Any]) -> str:
    plays = [f"{n}. {p.get('seat', '?')} {p.get('tile', '?')}" for n, p in
             enumerate(value, 1) if isinstance(p, dict)]
    return "; ".join(plays) or "empty"


def _result_words(value: dict[str, Any]) -> str:
    parts = [str(value.get("outcome", ""))]
    if "awarded_to" in value:
        parts.append(f"awarded to {value['awarded_to']}")
    if "marks" in value:
        parts.append(f"{value['marks']} mark{'s' if value['marks'] != 1 else ''}")
    return ", ".join(p for p in parts if p)


def _tricks_words(value: list[Any]) -> str:
    return "; ".join(_trick_words(t) for t in value) or "none"


def _captured_words(value: list[Any]) -> str:
    out = []
    for c in value:
        if not isinstance(c, dict):
            out.append(compact(c))
            continue
        tiles = c.get("tiles")
        face = "covered" if tiles is None else ", ".join(tiles) if tiles else "?"
        out.append(f"trick {c.get('number', '?')} ({c.get('team', '?')}): {face}")
    return "; ".join(out) or "none"


def _contract_words(value: dict[str, Any]) -> str:
    parts = []
    if "declarer" in value:
        parts.append(f"declarer {value['declarer']}")
    if "bid" in value and isinstance(value["bid"], dict):
        parts.append(bid_words(value["bid"], trump=value.get("trump")))
    if "trump" in value:
        parts.append(trump_words(value["trump"]))
    if value.get("stacks") is not None:
        parts.append(f"{value['stacks']} stack{'s' if value['stacks'] != 1 else ''}")
    if value.get("doubles") is not None:
        parts.append(f"doubles {value['doubles']}")
    return ", ".join(parts) or compact(value)


VALUE_WORDS: dict[str, Callable[[Any], str]] = {
    "points": _per_team, "marks": _per_team, "tricks_won": _per_team,
    "hand_sizes": _per_team, "trick": _trick_in_play, "result": _result_words,
    "tricks": _tricks_words, "captured": _captured_words, "contract": _contract_words,
}


def _trick_words(trick: Any) -> str:
    if not isinstance(trick, dict):
        return compact(trick)
    parts = [f"trick {trick.get('number', '?')}"]
    if "leader" in trick:
        parts.append(f"led by {trick['leader']}")
    if "plays" in trick and isinstance(trick["plays"], list):
        parts.append("plays " + value_words("trick", trick["plays"]))
    if "winner" in trick:
        parts.append(f"won by {trick['winner']}" + (f" ({trick['team']})" if "team" in trick
                                                      else ""))
    elif "team" in trick:
        parts.append(f"to {trick['team']}")
    if "points" in trick:
        parts.append(f"{trick['points']} point{'s' if trick['points'] != 1 else ''}")
    return " ".join(parts[:1]) + ": " + ", ".join(parts[1:]) if len(parts) > 1 else parts[0]


def expectation_words(expect: dict[str, Any] | None) -> list[str]:
    """One sentence per thing checked after the step."""
    if not expect:
        return []
    out = []
    view = expect.get("view") or {}
    for name, value in view.items():
        out.append(f"Referee view: {FIELD_NAMES.get(name, name)} is {value_words(name, value)}")
    observed = expect.get("observe") or {}
    groups: dict[str, list[str]] = {}
    for seat, partial in observed.items():
        groups.setdefault(compact(partial), []).append(seat)
    for key, seats in groups.items():
        partial = json.loads(key)
        who = " and ".join(seats) if len(seats) < 4 else "every seat"
        for name, value in partial.items():
            out.append(f"{who} sees {FIELD_NAMES.get(name, name)}: {value_words(name, value)}")
    if "legal" in expect:
        acts = [action_words(a) for a in expect["legal"]]
        out.append("The legal actions are exactly: " + ("; ".join(acts) or "none"))
    if "perft" in expect:
        perft = expect["perft"]
        out.append(f"Perft to depth {perft['depth']} counts {perft['total']} sequences"
                   + (f" ({len(perft['divide'])} first actions)" if "divide" in perft else ""))
    return out
