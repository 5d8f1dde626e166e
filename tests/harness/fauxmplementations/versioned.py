"""Fauxmplementations written against an older spec version: the reference game, refusing
(INVALID_SETUP) a setup that gives a setting or value that version did not have, as an
engine unchanged since then would. `OldHello` names no version, as every hello before
0.3.0 did; `NamesItsVersion` names 0.2.0 (protocol.md, "Declarations and spec versions").
"""

from __future__ import annotations

from conformance import Rejected
from conformance.adapters.reference import ReferenceAdapter
from conformance.specdata.versions import settings_at


class _Older(ReferenceAdapter):
    written_for = "0.1.0"

    def __init__(self) -> None:
        super().__init__()
        del self.spec  # the class attribute below, or none
        self.known = settings_at(self.written_for) or {}
        self.variants = sorted(self.known)  # every option of that version, by name

    def start(self, setup):
        variants = setup.get("variants") if isinstance(setup, dict) else None
        for name, value in (variants or {}).items() if isinstance(variants, dict) else ():
            settings = self.known.get(name)
            if settings is None or not isinstance(value, dict):
                continue  # not an option it knows, or not settings: the reference judges
            for key, given in value.items():
                if key not in settings or not any(type(given) is type(v) and given == v
                                                  for v in settings[key]):
                    raise Rejected("INVALID_SETUP", f"{name}: {key} {given!r} is unknown here")
        super().start(setup)


class OldHello(_Older):
    name = "written-for-0.1.0"
    spec = None


class NamesItsVersion(_Older):
    name = "written-for-0.2.0"
    written_for = spec = "0.2.0"
