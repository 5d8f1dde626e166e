"""Where the spec and the scenario corpus live: the checkout first, else package data."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # conformance/
_CHECKOUT = _PACKAGE.parent
_PACKAGED = _PACKAGE / "_data"


def _locate(name: str, marker: str) -> Path:
    for root in (_CHECKOUT, _PACKAGED):
        if (root / name / marker).exists():
            return root / name
    raise FileNotFoundError(f"cannot find {name}/ beside conformance/ nor in {_PACKAGED}")


@cache
def spec_dir() -> Path:
    return _locate("spec", "rules.md")


@cache
def schemas_dir() -> Path:
    return spec_dir() / "schemas"


@cache
def scenarios_dir() -> Path:
    """The corpus; an installed package carries a copy (pyproject force-include)."""
    for root in (_CHECKOUT, _PACKAGED):
        if (root / "scenarios").is_dir() and (root / "spec" / "rules.md").exists():
            return root / "scenarios"
    raise FileNotFoundError("cannot find the scenarios/ corpus")


@cache
def versions() -> dict[str, object]:
    """spec/versions.yaml: spec, suite and protocol versions."""
    import yaml

    return yaml.safe_load((spec_dir() / "versions.yaml").read_text(encoding="utf-8"))
