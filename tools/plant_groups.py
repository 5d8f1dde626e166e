"""How well the report files each planted bug: every plant at one level, its groups.

A plant breaks exactly one rule (its catalog entry names it). Run each against the corpus
and group its failures as `t42 run` does: the diagnosis is right for a plant when every
group names the plant's rule. Prints one line per plant that is not, and the totals.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor

_SCENARIOS: list = []


def _groups_of(name: str, level: str) -> tuple[str, str, list[tuple[str, str, int]]]:
    from conformance.report.text import groups
    from conformance.run.runner import run_scenario
    from conformance.specdata.index import load_index
    from planted import BY_NAME

    bug = BY_NAME[name]
    index = load_index()
    adapter = bug.adapter()
    results = [run_scenario(s, adapter, index, level=level) for s in _SCENARIOS]
    found = [(g.rule, g.what, len(g.ids)) for g in groups(results)]
    return name, bug.rule, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-k", dest="keyword", help="only plants whose name contains this")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--level", default="rules")
    parser.add_argument("-v", "--verbose", action="store_true", help="every plant's groups")
    args = parser.parse_args(argv)

    from conformance.corpus import select
    from planted import BUGS

    _SCENARIOS.extend(item.scenario for item in select.load([]) if item.scenario)
    names = [b.name for b in BUGS if not args.keyword or args.keyword in b.name]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
        rows = list(pool.map(_groups_of, names, [args.level] * len(names)))
    failing = right = largest = total_groups = 0
    for name, rule, found in rows:
        if not found:
            continue
        failing += 1
        total_groups += len(found)
        ok = all(r == rule for r, _, _ in found)
        right += ok
        largest += found[0][0] == rule
        if args.verbose or not ok:
            print(f"{'ok ' if ok else 'BAD'} {name} ({rule}): {len(found)} groups")
            for r, what, n in found[:8]:
                print(f"      {r:10} {n:4}  {what}")
    print(f"{failing} plants fail; every group names the plant's rule in {right} "
          f"({100 * right / max(failing, 1):.0f}%); the largest group in {largest}; "
          f"{total_groups / max(failing, 1):.1f} groups a plant")
    return 0


if __name__ == "__main__":
    sys.exit(main())
