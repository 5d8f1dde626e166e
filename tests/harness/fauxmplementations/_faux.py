"""Shared by the fauxmplementations: the reference engine with one thing broken.

Each faux is a deliberately wrong implementation; the harness tests prove that each
gets a clear report and that the run goes on.
"""

from __future__ import annotations

import sys

from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.server import serve


class Faux(ReferenceAdapter):
    name = "faux"


def serve_faux(adapter: ReferenceAdapter) -> None:
    sys.exit(serve(adapter))
