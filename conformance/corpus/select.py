"""The corpus to run: load it (default: the whole suite) and select from it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from conformance.corpus.scenario import Loaded, load_corpus


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
    from conformance.specdata.files import scenarios_dir

    return load_corpus(list(paths) or [scenarios_dir()])
