"""Planted-bug engines: the reference engine with one rule broken, as in-process adapters.

    t42 selftest                                       # the corpus against every one
    t42 run --adapter python:conformance.planted:doubles-low

The catalog is `catalog.BUGS`: base plants (a rule of spec/rules.md, base scenarios only)
then variant plants (a rule of spec/variants.md; they declare every option and play as
the reference engine unless the setup turns their option on). Each names the rule it
breaks. The harness's self-test, and public: any of them is a demo of what a failure
looks like (README, docs/fuzzing.md).
"""

from __future__ import annotations

import importlib
from typing import Any

SUBMODULES = frozenset({"base", "catalog", "edges", "rule_swaps", "selftest", "variant_edges",
                        "variant_swaps"})
__all__ = ["BUGS", "BY_NAME", "Bug"]


def __getattr__(name: str) -> Any:
    """`BUGS`, `BY_NAME`, `Bug`, or a bug's name: a factory of its adapter (for
    `--adapter python:conformance.planted:NAME`). Imported lazily: the engine is heavy."""
    if name.startswith("_") or name in SUBMODULES:
        raise AttributeError(name)  # let the import system load submodules itself
    catalog = importlib.import_module("conformance.planted.catalog")
    if name in __all__:
        return getattr(catalog, name)
    bug = catalog.BY_NAME.get(name)
    if bug is None:
        raise AttributeError(f"no planted bug named {name!r}")
    return bug.adapter
