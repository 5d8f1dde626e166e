"""A problem found in a scenario file, reported as `path:line: field.path: message`."""

from __future__ import annotations

from dataclasses import dataclass

from conformance.specdata.fields import FieldPath


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


def line_of(lines: dict[FieldPath, int], path: FieldPath) -> int:
    """The line of a field, or of its nearest ancestor that has one."""
    for cut in range(len(path), -1, -1):
        if path[:cut] in lines:
            return lines[path[:cut]]
    return 1
