"""The `t42` command line (click); `main` is the entry point."""

from conformance.cli.main import main

__all__ = ["main"]
