"""Adapters: the reference engine in-process, and any program over the JSON-lines protocol."""
