"""A run of the suite: choose scenarios, run them, count outcomes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from conformance.results import Outcome, Result
from conformance.scenario import Loaded, load_corpus


def select(
    loaded: Iterable[Loaded],
    keyword: str | None = None,
    rules: Sequence[str] = (),
    variants: Sequence[str] = (),
) -> list[Loaded]:
    """-k: id substring; --rule: cites one of these IDs; --variant: needs one of these
    options (`base` = the base game). Invalid files are kept only when nothing filters."""
    filtering = bool(keyword or rules or variants)
    out = []
    for item in loaded:
        sc = item.scenario
        if sc is None:
            if not filtering:
                out.append(item)
            continue
        if keyword and keyword not in sc.id:
            continue
        if rules and not set(rules) & set(sc.rules):
            continue
        if variants and not any(v in sc.variants or (v == "base" and not sc.variants)
                                for v in variants):
            continue
        out.append(item)
    return out


def load(paths: Sequence[Path]) -> list[Loaded]:
    from conformance.data import scenarios_dir

    return load_corpus(list(paths) or [scenarios_dir()])


def totals(results: Iterable[Result]) -> dict[str, int]:
    counts = {o.value: 0 for o in Outcome}
    for result in results:
        counts[result.outcome.value] += 1
    return counts


def summary_line(counts: dict[str, int]) -> str:
    """The last line of every run: `N passed, N failed, N errored, N skipped`."""
    return ", ".join(f"{counts[o.value]} {o.value}" for o in Outcome)


def exit_code(results: Iterable[Result], stale: Sequence[str] = ()) -> int:
    bad = any(r.outcome in (Outcome.FAILED, Outcome.ERRORED) and not r.expected_failure
              for r in results)
    return 1 if bad or stale else 0
