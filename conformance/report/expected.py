"""Expected-failures files (in the manner of protobuf's failure lists).

A YAML list of `{id, reason}`. A listed scenario that fails or errors does not fail the
run; a listed scenario that passes does (the list is stale). `--update-expected-failures`
rewrites the list from the run, keeping the reasons already written.
"""

from __future__ import annotations

from pathlib import Path

from conformance.run.results import Outcome, Result

HEADER = (
    "# Scenarios this implementation is known to fail (t42 run --expected-failures).\n"
    "# A listed scenario that passes fails the run: remove it, or rewrite the list with\n"
    "# t42 run --expected-failures FILE --update-expected-failures.\n"
)


class ExpectedFailuresError(ValueError):
    pass


def load(path: Path) -> dict[str, str]:
    """id -> reason. A missing file is an empty list (so --update can create it). Read as
    a scenario file is (`conformance.corpus`): a regular file of at most 1 MiB, the safe
    YAML loader with its alias and depth caps; a problem names its line."""
    from conformance.specdata.files import display_path
    from conformance.specdata.yamlload import load_yaml, read_text

    if not path.exists() and not path.is_symlink():
        return {}
    shown = display_path(path)
    text, line, why = read_text(path)
    if text is None:
        raise ExpectedFailuresError(f"{shown}:{line}: {why}")
    data, lines, problems = load_yaml(text)
    if problems and [what for _, _, what in problems] != ["empty file"]:
        at, field, what = problems[0]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise ExpectedFailuresError(f"{shown}:{at}: {f'{field}: ' if field else ''}{what}"
                                    f"{more}")
    data = data or []
    if not isinstance(data, list):
        raise ExpectedFailuresError(f"{shown}:1: must be a YAML list of {{id, reason}}")
    out: dict[str, str] = {}
    for i, entry in enumerate(data):
        if not (isinstance(entry, dict) and isinstance(entry.get("id"), str)
                and set(entry) <= {"id", "reason"}):
            raise ExpectedFailuresError(f"{shown}:{lines.get((i,), 1)}: entry {i} must be "
                                        "{id: ..., reason: ...}")
        out[entry["id"]] = str(entry.get("reason", ""))
    return out


def mark(results: list[Result], expected: dict[str, str]) -> list[str]:
    """Flag listed failures as expected; return the stale ids (listed, but passed)."""
    stale = []
    for result in results:
        if result.id not in expected:
            continue
        if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
            result.expected_failure = True
        elif result.outcome is Outcome.PASSED:
            stale.append(result.id)
    return stale


def update(path: Path, results: list[Result], expected: dict[str, str]) -> dict[str, str]:
    """Listed = failing now; entries for scenarios not run this time are kept."""
    ran = {r.id: r for r in results}
    new = {i: reason for i, reason in expected.items() if i not in ran}
    for result in results:
        if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
            first = result.detail.message if result.detail else result.outcome.value
            new[result.id] = expected.get(result.id) or first
    _write(path, dict(sorted(new.items())))
    return new


def _write(path: Path, entries: dict[str, str]) -> None:
    import yaml

    body = yaml.safe_dump([{"id": i, "reason": r} for i, r in entries.items()],
                          sort_keys=False, allow_unicode=True, width=100)
    path.write_text(HEADER + (body if entries else "[]\n"), encoding="utf-8")
