"""The type of a conformance level, apart from the index that reads spec/levels.yaml: what
passes a level around names its type without loading the spec."""

from typing import NewType

Level = NewType("Level", str)
"""A conformance level: a name of levels.yaml's `levels` (`rules`, `codes`, `strict`). The
file is the list: a name from outside (an option, a report) becomes a Level through
`Levels.level` (specdata/index.py), which refuses a name the file does not have."""

# The level a run judges when none is asked for: the highest (tests/harness/run/test_levels.py).
STRICT = Level("strict")
