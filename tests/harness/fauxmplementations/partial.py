"""A fauxmplementation that supports some settings of two options only (protocol.md,
"Partial support of an option"): the reference game, refusing a setup with a value it
lacks, as an engine without that rule would.

`--adapter python:<this file>:NelloForcedInPart`.
"""

from __future__ import annotations

from conformance import Rejected
from conformance.adapters.reference import ReferenceAdapter

# Nel-O with the doubles high or low only; the forced bid only where the dealer may make
# any bid (its default, "minimum", unsupported).
SUPPORTED = {"nello": {"doubles": ("high", "low")}, "forced_bid": {"bid": ("any",)}}


class NelloForcedInPart(ReferenceAdapter):
    name = "nello-forced-in-part"
    supported = SUPPORTED

    def __init__(self) -> None:
        super().__init__()
        self.variants = [
            {"name": name, "settings": {k: list(v) for k, v in self.supported[name].items()}}
            if name in self.supported else name for name in self.variants]

    def start(self, setup):
        from reference_impl.variants import OPTIONS

        variants = setup.get("variants") if isinstance(setup, dict) else None
        for name, limits in self.supported.items():
            value = variants.get(name) if isinstance(variants, dict) else None
            if value is None or value is False:
                continue
            given = value if isinstance(value, dict) else {}
            for key, values in limits.items():
                if given.get(key, OPTIONS[name].settings[key].default) not in values:
                    raise Rejected("INVALID_SETUP", f"{name} {key} is not supported here")
        super().start(setup)


class NelloForcedByName(NelloForcedInPart):
    """The same engine declaring both options by name: it claims every setting, and the
    scenarios needing what it lacks fail."""

    name = "nello-forced-by-name"

    def __init__(self) -> None:
        super().__init__()
        self.variants = [v["name"] if isinstance(v, dict) else v for v in self.variants]


class PlungeAnyTime(NelloForcedInPart):
    """The reference declaring plunge `when: ["any_time"]` only, as a real engine of issue
    39 did: the scenarios that do not depend on `before_bids`, its default, run with
    `any_time` in its place; the others are skipped."""

    name = "plunge-any-time"
    supported = {"plunge": {"when": ("any_time",)}}
