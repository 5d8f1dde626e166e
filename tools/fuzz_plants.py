"""Sweep every planted-bug engine with the fuzzer: found, shrunk, saved, verified.

    python tools/fuzz_plants.py [-k NAME] [--part I/N] [--games 150] [--save DIR]

For each plant of `t42 selftest --list` (adapter `python:conformance.planted:NAME`): seeded games
against the reference under each configuration that can show its rule (the base game;
for a variant plant its option with each of its settings alone, then the option with each
other option, then each setting with each other option; deals by hands, then by order),
until a divergence shrinks to at most 12 steps or the games run out. Prints one line per
plant, the shrunk scenario's step count, whether the saved scenario fails on the plant
(with the cause it was saved for) and passes on the reference, and the rule it cites
first when not the plant's (and whether its catalog entry says it breaks that rule too),
then a summary.
A rule of FLOORS cannot be shown in 12 steps by any scenario: its plant must shrink to
exactly that floor, and is counted apart.
The plants of an implementation's own dealing (DEAL-04, DEAL-06: capability self_deal)
are listed and not swept: the fuzzer deals every round itself. Exit status 1 if any
other plant is not found, not shrunk to 12 steps, or unsound. `--part I/N`
sweeps the I-th of N consecutive slices of the catalog, so that a long sweep runs in parts
(or in parallel).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.fuzz import save  # noqa: E402
from conformance.fuzz.campaign import Causes, verify  # noqa: E402
from conformance.fuzz.differential import fuzz  # noqa: E402
from conformance.fuzz.shrink import shrink  # noqa: E402

GOAL = 12
# Rules that no scenario of the format shows in fewer steps than this, and why: such a
# plant is held to exactly its floor (more is a shrinking failure) and reported apart.
FLOORS = {
    "MPTS-05": (21, "only a made Nel-O leaves its defenders round points (a made marks "
                    "contract's bidders take every trick otherwise, END-03), and a Nel-O is "
                    "made only by its last trick (NELLO-07): 7 tricks of 3 tiles, and a "
                    "setup cannot start in mid-round"),
    # the same floor, for the same reason: only a made Nel-O on a point bid is scored
    # otherwise than a point contract (a set one is set by a trick won, as any)
    "NELLO-11": (21, "a Nel-O on a point bid is scored apart from the round points only when "
                     "made, by its last trick (NELLO-07): 7 tricks of 3 tiles"),
}
# Rules of an implementation's own dealing (capability self_deal): who deals first, how it
# shuffles. The fuzzer gives every deal (DEAL-02), so such a plant plays exactly as the
# reference; the `self_deal` scenarios test these rules statistically.
SELF_DEAL = {"DEAL-04": "its own first dealer", "DEAL-06": "its own shuffle"}


def settings(option: str) -> list[Any]:
    """`true`, then each enumerated value of each setting (setup.schema.json), and a
    small target score for match_points (a match decided within a few rounds)."""
    import json

    from conformance.specdata.files import spec_dir

    schema = json.loads((spec_dir() / "schemas" / "setup.schema.json").read_text())
    props = schema["$defs"]["variants"]["properties"][option].get("properties", {})
    out: list[Any] = [True]
    for name, prop in props.items():
        out += [{name: value} for value in prop.get("enum", [])]
        if prop.get("type") == "integer":
            out.append({name: 42})
    return out


def configurations(bug: Any) -> list[dict[str, Any] | None]:
    from conformance.specdata.index import load_index

    index = load_index()
    rule = index.rules.get(bug.rule)
    option = rule.variant if rule else None
    if not bug.adapter().variants:
        return [None]
    if option is None:  # a general rule of variants.md: all options, each, then pairs
        names = list(index.variants)
        return [dict.fromkeys(names, True)] + [{n: True} for n in names] + [
            {a: True, b: True} for a in names for b in names if a < b]
    configs: list[dict[str, Any] | None] = [{option: s} for s in settings(option)]
    others = [other for other in index.variants if other != option]
    configs += [{option: True, other: True} for other in others]
    # then each setting with each other option: an interaction rule (FORCE-09: sweep_marks
    # under match_points) shows only with a setting and another option together
    configs += [{option: s, other: True} for s in settings(option)[1:] for other in others]
    return configs


def goal(rule: str) -> int:
    """The most steps a plant of this rule may shrink to: GOAL, or the rule's floor."""
    return max(GOAL, FLOORS[rule][0]) if rule in FLOORS else GOAL


def sweep(bug: Any, games: int, directory: Path) -> dict[str, Any]:
    start = time.perf_counter()
    if bug.rule in SELF_DEAL:
        return {"name": bug.name, "rule": bug.rule, "games": 0, "divergences": 0,
                "seconds": 0.0, "outside": SELF_DEAL[bug.rule]}
    best, tried, found_any = None, 0, 0
    for deal in ("hands", "order"):
        for variants in configurations(bug):
            adapter = bug.adapter()
            try:
                _, found, _ = fuzz(adapter, games=games, seed=0, variants=variants, deal=deal)
            except Exception:  # noqa: BLE001 - a configuration the reference refuses
                continue
            tried += games
            found_any += len(found)
            causes = Causes(adapter, "strict")
            for divergence in found:
                causes.add(divergence)
            causes.settle()
            # the three causes most games show, each shrunk keeping its cause
            for group in sorted(causes.new(), key=lambda g: -len(g.games))[:3]:
                small = shrink(adapter, group.found, seconds=20,
                               keeps=save.shows(group.cause, adapter, "strict", group.exact))
                if best is None or len(small.steps) < len(best[0].steps):
                    best = (small, variants, deal, group.cause)
            if best and len(best[0].steps) <= goal(bug.rule):
                break
        if best and len(best[0].steps) <= goal(bug.rule):
            break
    row: dict[str, Any] = {"name": bug.name, "rule": bug.rule, "also": bug.also, "games": tried,
                           "divergences": found_any, "seconds": time.perf_counter() - start}
    if best:
        small, variants, deal, cause = best
        target = save.write(small, directory, f"planted:{bug.name}", 1, stem=bug.name,
                            cause=cause)
        verdict = verify(target, bug.adapter(), cause)
        import yaml

        first = yaml.safe_load(target.read_text(encoding="utf-8"))["rules"][0]
        row.update(steps=len(small.steps), before=small.original_steps, deal=deal,
                   variants=variants, sound=verdict.sound, path=target, first=first,
                   verdict=f"reference {verdict.reference}, plant {verdict.implementation}")
    return row


def part(text: str) -> tuple[int, int]:
    """`I/N`, 1 <= I <= N."""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not I/N") from None
    if not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: need 1 <= I <= N")
    return i, n


def main(argv: list[str] | None = None) -> int:
    from conformance.planted import BUGS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="keyword", help="only plants whose name contains this")
    parser.add_argument("--games", type=int, default=150, help="games per configuration")
    parser.add_argument("--part", type=part, default=(1, 1), metavar="I/N",
                        help="only the I-th of N consecutive slices of the plants")
    parser.add_argument("--save", type=Path, help="keep the scenarios here (default: temp)")
    args = parser.parse_args(argv)
    directory = args.save or Path(tempfile.mkdtemp(prefix="fuzz-plants-"))
    bugs = [b for b in BUGS if not args.keyword or args.keyword in b.name]
    i, n = args.part
    bugs = bugs[len(bugs) * (i - 1) // n: len(bugs) * i // n]
    rows = []
    for bug in bugs:
        row = sweep(bug, args.games, directory)
        rows.append(row)
        if "steps" in row:
            shown = f"{row['steps']:3} steps (from {row['before']:3})  {row['verdict']}"
            if row["first"] in bug.also:
                shown += f"  cites {row['first']} first (it breaks it too, its catalog entry says)"
            elif row["first"] != bug.rule:
                shown += f"  cites {row['first']} first"
            shown += "" if row["sound"] else "  UNSOUND"
            if bug.rule in FLOORS and row["steps"] == FLOORS[bug.rule][0]:
                shown += f"  at its floor: {FLOORS[bug.rule][1]}"
            elif row["steps"] > GOAL:
                shown += f"  MORE THAN {GOAL}"
        elif "outside" in row:
            shown = (f"not for the fuzzer: {row['outside']} (self_deal), which it never "
                     f"uses; the self_deal scenarios test it")
        else:
            shown = "NOT FOUND"
        print(f"{bug.name:34} {bug.rule:11} {shown}  [{row['seconds']:.1f} s]", flush=True)
    outside = [r for r in rows if "outside" in r]
    found = [r for r in rows if "steps" in r]
    good = [r for r in found if r["sound"] and r["steps"] <= GOAL]
    floor = [r for r in found if r["sound"] and r["rule"] in FLOORS
             and r["steps"] == FLOORS[r["rule"]][0] > GOAL]
    steps = sorted(r["steps"] for r in found)
    also = sum(r["first"] in r["also"] for r in found)
    median = steps[len(steps) // 2] if steps else 0
    at_floor = "".join(f", 1 at its floor of {r['steps']} steps ({r['name']}, {r['rule']})"
                       for r in floor)
    print(f"{len(rows)} plants ({len(outside)} of self_deal, not for the fuzzer): "
          f"{len(found)} found, {len(good)} shrunk to <= {GOAL} steps and sound (scenario "
          f"fails on the plant, passes on the reference){at_floor}; steps: median {median}, "
          f"max {max(steps, default=0)}; {sum(r['first'] == r['rule'] for r in found)} "
          f"of {len(found)} cite the plant's rule first, {also} a rule its catalog entry "
          f"says it breaks too; scenarios in {directory}")
    return 0 if len(good) + len(floor) == len(rows) - len(outside) else 1


if __name__ == "__main__":
    raise SystemExit(main())
