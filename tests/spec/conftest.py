"""Make tools/ importable for the spec tests (tools/ is scripts, not a package); the spec
itself is read through conformance.specdata.index, the one parser."""

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
