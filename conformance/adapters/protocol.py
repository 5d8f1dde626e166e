"""The seam between the harness and an implementation (spec/protocol.md).

An adapter is any object with these attributes and methods. The reference engine's
adapter (`conformance.adapters.reference`) and the JSON-lines process adapter
(`conformance.adapters.process`) are two of them; `--adapter python:MODULE:OBJECT` loads
any other.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

CAPABILITIES = frozenset({"legal", "perft"})


class Rejected(Exception):  # noqa: N818 - the protocol's word for a rule refusal
    """The implementation refused a setup, deal or action with an errors.yaml code."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class AdapterError(Exception):
    """The implementation broke: crashed, hung, or broke the protocol (-> errored)."""

    def __init__(self, message: str, stderr: str = ""):
        super().__init__(message)
        self.stderr = stderr


@runtime_checkable
class Adapter(Protocol):
    name: str
    version: str
    variants: list[str]  # variant option names supported (spec/variants.md)
    capabilities: frozenset[str] | set[str] | list[str]  # subset of {"legal", "perft"}

    def start(self, setup: dict[str, Any]) -> None:
        """Start a new match from `setup` (actions.md), replacing any current match."""

    def deal(self, deal: dict[str, Any]) -> None:
        """Deal the next round."""

    def act(self, action: Any) -> None:
        """Apply a player action; raise Rejected(code, message) if it is illegal."""

    def view(self) -> dict[str, Any]:
        """The referee view (observation.md)."""

    def observe(self, seat: str) -> dict[str, Any]:
        """The seat observation (observation.md)."""

    def legal(self) -> list[dict[str, Any]]:
        """The legal actions of the seat to act (capability `legal`)."""

    def perft(self, depth: int) -> dict[str, Any]:
        """{"total": n, "divide": {action key: n}} (capability `perft`)."""


class WithVariants:
    """An adapter whose declared options are replaced (`t42 run --variants`): a scenario
    that needs an option outside `variants` is skipped, one inside it is run, whatever
    the implementation itself declares. Everything else is the wrapped adapter's."""

    declared_by = "--variants"  # named in skip reasons (runner.skip_reason)

    def __init__(self, adapter: Adapter, variants: list[str]):
        self._inner = adapter
        self.variants = list(variants)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def parse_variants(text: str, known: list[str]) -> list[str]:
    """`--variants`: option names separated by commas, `all` (every option of
    variants.md) or `none` (the base game only); ValueError for an unknown name."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return list(known)
    if names in (["none"], []):
        return []
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown variant option {', '.join(unknown)} "
                         f"(spec/variants.md has {', '.join(known)})")
    return names


def load_adapter(spec: str, timeout: float = 5.0) -> Adapter:
    """`reference` (default), `python:MODULE:OBJECT` (or `python:path/file.py:OBJECT`),
    or `cmd:COMMAND ARGS` (a JSON-lines protocol server).

    A python OBJECT that is a class or other callable is called with no arguments.
    """
    if spec in ("", "reference"):
        from conformance.adapters.reference import ReferenceAdapter

        return ReferenceAdapter()
    kind, _, rest = spec.partition(":")
    if kind == "cmd" and rest.strip():
        from conformance.adapters.process import ProcessAdapter

        return ProcessAdapter(rest, timeout=timeout)
    if kind == "python" and ":" in rest:
        return _python_adapter(*rest.rsplit(":", 1))
    raise ValueError(f"unknown adapter {spec!r}: "
                     "use reference, python:MODULE:OBJECT or cmd:COMMAND")


def _python_adapter(module: str, name: str) -> Adapter:
    import importlib
    import importlib.util
    from pathlib import Path

    if module.endswith(".py"):
        path = Path(module).resolve()
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {module}")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    else:
        import os
        import sys

        # As with `python -m`, the current folder is importable: `t42 run --adapter
        # python:my_adapter:My42Adapter` works from the adapter's own folder.
        if "" not in sys.path and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        mod = importlib.import_module(module)
    obj = getattr(mod, name)
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "act")):
        obj = obj()
    return obj
