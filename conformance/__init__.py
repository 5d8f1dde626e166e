"""Texas 42 conformance harness: load scenarios, run them against an adapter, report.

Kept import-light on purpose (`t42 --help` must start fast): the heavy modules load
on first use.
"""

from conformance.adapters.protocol import Adapter, Rejected

__all__ = ["Adapter", "Rejected"]
