"""The YAML loader's old place: it is conformance/specdata/yamlload.py now, below both the
spec's index and the corpus. Kept for the diagnosis's readings (run/diagnosis/readings.py)
until that import moves; nothing else imports it."""

from conformance.specdata.yamlload import load_yaml

__all__ = ["load_yaml"]
