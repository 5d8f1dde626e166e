"""Adapters the harness holds in its own process: a bare object, and `--variants`.

`InProcess` is for code the harness trusts (the reference engine, the planted bugs, an
adapter run with `--in-process`); any other `python:` adapter runs in a worker process
(worker.py), where an exit or a crash cannot end the run.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Mapping
from typing import Any

from conformance.adapters.limits import NAME_CHARS, cut
from conformance.adapters.protocol import (
    CAPABILITIES,
    CAPABILITY_METHODS,
    OPERATIONS,
    RESULT_FORMS,
    Adapter,
    AdapterError,
    Harnessed,
    Rejected,
    expected_value,
    form_problem,
    matches,
    not_json_message,
    raised_message,
)
from conformance.adapters.support import current_spec, declared


def unusable(obj: Any) -> str:
    """'' if `obj` has the attributes of the Adapter protocol, else what it lacks. The
    method of a capability (`legal`, `perft`, `self_deal`'s `new_match` and `next_deal`)
    is needed only when `capabilities` declares it: the harness never calls it otherwise."""
    missing = [name for name in OPERATIONS if not callable(getattr(obj, name, None))]
    for name in ("name", "version"):
        if not isinstance(getattr(obj, name, None), str):
            missing.append(f"{name} (a string)")
    if not isinstance(getattr(obj, "variants", None), list | tuple | frozenset | set):
        missing.append("variants (a list)")
    capabilities = getattr(obj, "capabilities", None)
    if not isinstance(capabilities, list | tuple | frozenset | set):
        missing.append("capabilities (a list)")
        capabilities = ()
    declared = []
    for capability, methods in CAPABILITY_METHODS.items():
        absent = [m for m in methods if not callable(getattr(obj, m.split("(")[0], None))]
        if capability in capabilities and absent:
            declared.append(f"{', '.join(absent)}, which {capability!r} in capabilities needs "
                            f"(write {'them' if len(absent) > 1 else 'it'}, or leave "
                            f"{capability!r} out)")
    if not missing and not declared:
        return ""
    return (f"{type(obj).__name__} is not an adapter (protocol.md, In process): it lacks "
            + "; ".join(filter(None, [", ".join(missing), *declared])))


class InProcess(Harnessed):
    """A bare adapter object, called directly. Its results are copied through JSON and
    checked for form; any exception but Rejected becomes an AdapterError with the
    traceback."""

    in_process = True

    def __init__(self, obj: Any):
        self.inner = obj
        self.broken = unusable(obj) or None
        self.name = cut(str(getattr(obj, "name", type(obj).__name__)), NAME_CHARS)
        self.version = cut(str(getattr(obj, "version", "?")), NAME_CHARS)
        self.variants: list[str] = []
        if not self.broken:
            spec = getattr(obj, "spec", None)
            self.spec_version = spec if isinstance(spec, str) else None
            self.declaration = list(getattr(obj, "variants", ()) or ())
            try:
                if spec is not None and not isinstance(spec, str):
                    raise ValueError(f"spec must be a version string, not {spec!r}")
                self.variants, self.settings = declared(self.declaration, self.spec_version)
            except ValueError as error:
                self.broken = f"{type(obj).__name__}.variants: {error} (protocol.md)"
        capabilities = getattr(obj, "capabilities", ()) if not self.broken else ()
        self.capabilities = frozenset(capabilities) & CAPABILITIES

    def close(self) -> None:
        close = getattr(self.inner, "close", None)  # optional in the Adapter protocol
        if callable(close):
            close()

    def call(self, cmd: str, method: str, *args: Any) -> Any:
        return checked(cmd, self._raw(cmd, method, *args))

    def _raw(self, cmd: str, method: str, *args: Any) -> Any:
        try:
            return getattr(self.inner, method)(*args)
        except (Rejected, AdapterError):
            raise
        except Exception as error:  # noqa: BLE001 - any other exception is a crash
            raise AdapterError(raised_message(cmd, error),
                               traceback.format_exc(limit=-6)) from None

    def pipeline(self, requests: list[tuple[str, dict[str, Any]]],
                 expected: list[Any] | None = None) -> list[Any]:
        """As Harnessed.pipeline; a read whose result equals its expected value returns
        that value (already plain JSON, and the caller's own): any other is checked."""
        if expected is None:
            return super().pipeline(requests)
        out: list[Any] = []
        for (cmd, fields), want in zip(requests, expected, strict=True):
            step = STEPS.get(cmd)
            if step is not None:  # as start, deal or act would, without their layers
                try:
                    out.append(checked(cmd, self._raw(cmd, step, *fields.values())))
                except Rejected as refused:
                    out.append(refused)
                continue
            if want is None or cmd not in READS:
                out += super().pipeline([(cmd, fields)])
                continue
            raw = self._raw(cmd, cmd, *fields.values())
            if matches(raw, want):
                out.append(expected_value(want))
            else:  # checked here, reported by the caller
                out.append(checked(cmd, raw))
        return out

    def start(self, setup: dict[str, Any]) -> None:
        self.call("setup", "start", setup)

    def deal(self, deal: dict[str, Any]) -> None:
        self.call("deal", "deal", deal)

    def act(self, action: Any) -> None:
        self.call("act", "act", action)

    def view(self) -> dict[str, Any]:
        return self.call("view", "view")

    def observe(self, seat: str) -> dict[str, Any]:
        return self.call("observe", "observe", seat)

    def legal(self) -> list[dict[str, Any]]:
        return self.call("legal", "legal")

    def perft(self, depth: int) -> dict[str, Any]:
        return self.call("perft", "perft", depth)

    def new_match(self) -> None:  # capability self_deal
        self.call("new_match", "new_match")

    def next_deal(self) -> None:
        self.call("next_deal", "next_deal")


def checked(cmd: str, result: Any) -> Any:
    """A copy of `result` as plain JSON, as it would be on the wire, of the right form."""
    if result is None and RESULT_FORMS.get(cmd) == (type(None),):
        return None  # its whole form (a step's hot path)
    problem = form_problem(cmd, result)
    if problem:
        raise AdapterError(problem)
    try:
        return json.loads(json.dumps(result, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        raise AdapterError(not_json_message(cmd, result)) from None


READS = ("view", "observe", "legal")  # requests whose results can be expected
STEPS = {"setup": "start", "deal": "deal", "act": "act"}  # a request's adapter method


def harnessed(adapter: Adapter | Harnessed) -> Harnessed:
    """What the runner calls: a Harnessed adapter as it is, any other object wrapped."""
    return adapter if isinstance(adapter, Harnessed) else InProcess(adapter)


class WithVariants(Harnessed):
    """An adapter whose declared options are narrowed (`t42 run --variants`): a scenario
    that needs an option outside `variants` is skipped. It never widens: an option the
    implementation does not declare is not run (`beyond` names it), and an object of
    settings keeps only the values the implementation supports too. Everything else is
    the wrapped adapter's."""

    declared_by = "--variants"  # named in skip reasons (runner.skip_reason)

    def __init__(self, adapter: Adapter | Harnessed, variants: list[Any]):
        self.inner = harnessed(adapter)
        names, given = declared(variants, current_spec())
        own = self.inner.settings
        self.variants, self.beyond = [], []
        settings: dict[str, dict[str, tuple[Any, ...]]] = {}
        for name in names:
            both = _narrowed(own.get(name) or {}, given.get(name) or {})
            if name not in self.inner.variants or both is None:
                self.beyond.append(name)
                continue
            self.variants.append(name)
            if both:
                settings[name] = both
        self.settings = settings
        self.name, self.version = self.inner.name, self.inner.version
        self.spec_version, self.declaration = self.inner.spec_version, self.inner.declaration
        self.capabilities = self.inner.capabilities

    @property
    def broken(self) -> str | None:  # type: ignore[override]
        return self.inner.broken

    @property
    def in_process(self) -> bool:  # type: ignore[override]
        return self.inner.in_process

    def stderr_mark(self) -> int:
        return self.inner.stderr_mark()

    def stderr_since(self, mark: int) -> str:
        return self.inner.stderr_since(mark)

    def close(self) -> None:
        self.inner.close()

    def pipeline(self, requests: list[tuple[str, dict[str, Any]]],
                 expected: list[Any] | None = None) -> list[Any]:
        return self.inner.pipeline(requests, expected)

    def start(self, setup: dict[str, Any]) -> None:
        self.inner.start(setup)

    def deal(self, deal: dict[str, Any]) -> None:
        self.inner.deal(deal)

    def act(self, action: Any) -> None:
        self.inner.act(action)

    def view(self) -> dict[str, Any]:
        return self.inner.view()

    def observe(self, seat: str) -> dict[str, Any]:
        return self.inner.observe(seat)

    def legal(self) -> list[dict[str, Any]]:
        return self.inner.legal()

    def perft(self, depth: int) -> dict[str, Any]:
        return self.inner.perft(depth)

    def new_match(self) -> None:
        self.inner.new_match()

    def next_deal(self) -> None:
        self.inner.next_deal()


def _narrowed(own: Mapping[str, tuple[Any, ...]], given: Mapping[str, tuple[Any, ...]]
              ) -> dict[str, tuple[Any, ...]] | None:
    """The limits of both an implementation's declaration and --variants: each setting's
    values in both (by value and type); None when a setting is left with none."""
    out = dict(own)
    for key, values in given.items():
        if key in own and not own[key]:
            continue  # newer than the declaration (support.NEWER): left out only, still
        if key in own:
            values = tuple(v for v in values if any(type(v) is type(w) and v == w
                                                    for w in own[key]))
            if not values:
                return None
        out[key] = values
    return out


def parse_variants(text: str, known: list[str]) -> list[Any]:
    """`--variants`: option names separated by commas, `all` (every option of
    variants.md) or `none` (the base game only), or a JSON list in the form of hello's
    `variants` (protocol.md, "Partial support"); ValueError for an unknown name."""
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a JSON list: {error}") from None
        declared(items, current_spec())  # ValueError: an unknown option, setting or value
        return list(items)
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
