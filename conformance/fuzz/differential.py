"""Differential fuzzing: random matches played through an implementation and the reference
engine side by side, compared after every step.

The corpus pins down the cases someone thought of; this finds the ones nobody did. Each
game is a seeded random match: the reference engine proposes the actions (mostly legal,
some deliberately illegal), both implementations receive the same action, and the run
stops a game at the first divergence: an accepted/rejected mismatch, a different error
code, or any difference in the referee view or a seat observation. The report gives the
seed and the steps so far as a scenario skeleton, ready to become a regression scenario
once its expectations are checked against the spec.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from conformance.adapters.protocol import Adapter, Rejected
from conformance.run.matching import Difference, diff

SEATS = "ABCD"
TILES = [f"{a}|{b}" for a in range(7) for b in range(a, 7)]


@dataclass
class Divergence:
    seed: int
    steps: list[dict[str, Any]]  # scenario steps up to and including the diverging one
    setup: dict[str, Any]
    where: str
    differences: list[Difference] = field(default_factory=list)

    def render(self) -> str:
        import yaml

        lines = [f"game seed {self.seed}: {self.where}"]
        lines += [f"  {d.render()}" for d in self.differences[:10]]
        skeleton = {"setup": self.setup, "steps": self.steps}
        lines.append("  reproduce (scenario skeleton; check expectations against the spec):")
        text = yaml.safe_dump(skeleton, sort_keys=False, default_flow_style=None, width=100)
        lines += ["    " + line for line in text.splitlines()]
        return "\n".join(lines)


def random_deal(rng: random.Random) -> dict[str, Any]:
    order = TILES[:]
    rng.shuffle(order)
    return {"order": order}


def illegal_candidate(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
    """A plausible action that is often illegal: any seat, any tile, any bid."""
    seat = rng.choice(SEATS)
    kind = rng.choice(("play", "play", "bid", "pass", "trump"))
    if kind == "play":
        return {"type": "play", "seat": seat, "tile": rng.choice(TILES)}
    if kind == "bid":
        if rng.random() < 0.5:
            return {"type": "bid", "seat": seat, "points": rng.randint(28, 43)}
        return {"type": "bid", "seat": seat, "marks": rng.randint(0, 6)}
    if kind == "pass":
        return {"type": "pass", "seat": seat}
    action = {"type": "trump", "seat": seat, "trump": rng.choice([*range(8), "doubles", "none"])}
    if rng.random() < 0.5:
        action["stacks"] = rng.randint(0, 3)
    return action


def _outcome(adapter: Adapter, method: str, payload: Any) -> str | None:
    """None when accepted, the error code when rejected."""
    try:
        getattr(adapter, method)(payload)
    except Rejected as refusal:
        return refusal.code
    return None


def _compare(oracle: Adapter, other: Adapter) -> list[Difference]:
    out = diff(oracle.view(), _public(other.view()), "view", partial=False)
    for seat in SEATS:
        out += diff(oracle.observe(seat), _public(other.observe(seat)), f"observe.{seat}",
                    partial=False)
    return out


def _public(value: dict[str, Any]) -> dict[str, Any]:
    """Drop an implementation's own `x_` fields (observation.md allows them)."""
    return {k: v for k, v in value.items() if not k.startswith("x_")}


def play_game(oracle: Adapter, other: Adapter, seed: int, illegal_rate: float,
              max_rounds: int, variants: dict[str, Any] | None = None) -> Divergence | None:
    """One seeded match on both adapters; the first divergence, or None."""
    rng = random.Random(seed)
    setup = {"dealer": rng.choice(SEATS), **random_deal(rng)}
    if variants:
        setup["variants"] = variants
    steps: list[dict[str, Any]] = []

    def check(step: dict[str, Any], method: str, payload: Any) -> Divergence | None:
        steps.append(step)
        want, got = _outcome(oracle, method, payload), _outcome(other, method, payload)
        if want != got:
            where = f"step {len(steps)}: expected {want or 'accepted'}, got {got or 'accepted'}"
            return Divergence(seed, steps, setup, where)
        if want:
            step["reject"] = want
        differences = _compare(oracle, other)
        if differences:
            return Divergence(seed, steps, setup, f"step {len(steps)}: views differ",
                              differences)
        return None

    oracle.start(setup)
    found = _start(other, setup, seed)
    if found:
        return found
    differences = _compare(oracle, other)
    if differences:
        return Divergence(seed, steps, setup, "after setup: views differ", differences)
    rounds = 1
    while True:
        view = oracle.view()
        if view["phase"] == "match_over" or (view["phase"] == "round_over"
                                             and rounds >= max_rounds):
            return None
        if view["phase"] == "round_over":
            deal = random_deal(rng)
            rounds += 1
            found = check({"deal": deal}, "deal", deal)
        elif rng.random() < illegal_rate:
            action = illegal_candidate(rng, view)
            found = check({"act": action}, "act", action)
        else:
            action = dict(rng.choice(oracle.legal()))
            found = check({"act": action}, "act", action)
        if found:
            return found


def _start(other: Adapter, setup: dict[str, Any], seed: int) -> Divergence | None:
    try:
        other.start(setup)
    except Rejected as refusal:
        return Divergence(seed, [], setup, f"setup rejected with {refusal.code}")
    return None


def fuzz(other: Adapter, games: int, seed: int, illegal_rate: float = 0.2,
         max_rounds: int = 3, variants: dict[str, Any] | None = None
         ) -> tuple[int, list[Divergence], list[str]]:
    """(games played, divergences, errors): `games` seeded matches, seeds seed..seed+games-1,
    under the variant options `variants` (spec/variants.md; None: the base game)."""
    from conformance.adapters.reference import ReferenceAdapter

    oracle = ReferenceAdapter()
    divergences: list[Divergence] = []
    errors: list[str] = []
    for game_seed in range(seed, seed + games):
        try:
            found = play_game(oracle, other, game_seed, illegal_rate, max_rounds, variants)
        except Exception as error:  # noqa: BLE001 - a crash or hang ends one game only
            errors.append(f"game seed {game_seed}: {type(error).__name__}: {error}")
            continue
        if found:
            divergences.append(found)
    return games, divergences, errors


def fuzz_command(adapter_spec: str, games: int, seed: int, illegal_rate: float,
                 rounds: int, timeout: float, variants_json: str | None = None) -> int:
    """`t42 fuzz`: print each divergence and a closing count line; non-zero if any."""
    import json

    import click

    from conformance.adapters.protocol import load_adapter

    try:
        variants = json.loads(variants_json) if variants_json else None
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--variants") from None
    adapter = load_adapter(adapter_spec, timeout)
    try:
        played, divergences, errors = fuzz(adapter, games, seed, illegal_rate, rounds,
                                           variants)
    finally:
        if hasattr(adapter, "close"):
            adapter.close()
    for found in divergences:
        click.echo(found.render() + "\n")
    for error in errors:
        click.echo(f"ERRORED {error}")
    agreed = played - len(divergences) - len(errors)
    click.echo(f"{agreed} agreed, {len(divergences)} diverged, {len(errors)} errored "
               f"({played} games from seed {seed}, against {adapter.name} {adapter.version})")
    return 1 if divergences or errors else 0
