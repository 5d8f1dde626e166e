"""A field's path and how it is written (`steps[2].act.tile`); the rules behind each field
of the views, read from the field tables of spec/observation.md (its `rule` column), so
that the harness holds no copy of them."""

from __future__ import annotations

import re
from functools import cache

from conformance.specdata.files import spec_dir

# A field's path in a JSON or YAML document: ("steps", 2, "act", "tile"), read from a
# schema's errors (schemas.py) and the YAML loader's lines (yamlload.py).
FieldPath = tuple[str | int, ...]


def format_field(path: FieldPath) -> str:
    """("steps", 2, "act", "tile") -> "steps[2].act.tile"."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


CITED = re.compile(r"\b([A-Z]{2,}[A-Z0-9]*-\d{2})\b")
FIELD_ROW = re.compile(r"^\| ((?:`[a-z_]+`(?:, )?)+) \|")


@cache
def field_rules(section: str | None = None) -> dict[str, tuple[str, ...]]:
    """Field -> the rule IDs its row cites, in the table under the `## section` heading
    ("Referee view", "Seat observation"), or in every table when `section` is None."""
    found: dict[str, tuple[str, ...]] = {}
    heading = None
    for line in (spec_dir() / "observation.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        match = FIELD_ROW.match(line)
        if match and section in (None, heading):
            cited = tuple(dict.fromkeys(CITED.findall(line)))
            for name in re.findall(r"`([a-z_]+)`", match.group(1)):
                found[name] = tuple(dict.fromkeys(found.get(name, ()) + cited))
    return found


def observation_rule(field: str) -> str:
    """The rule that decides what a seat's observation shows in `field`: the first its row
    cites; VIS-02 (the public record) for a field public as in the view."""
    return (field_rules("Seat observation").get(field) or ("VIS-02",))[0]
