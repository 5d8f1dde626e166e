"""Development tools (not installed): mutation testing, benchmarks, generated docs."""
