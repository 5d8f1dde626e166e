"""Report: what a run found, for people (text) and machines (JSON), and expected failures."""
