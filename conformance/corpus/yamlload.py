"""YAML loading that keeps line numbers and refuses duplicate keys.

Built on yaml's safe loader (the C one when libyaml is present): compose the node tree,
walk it once to record the line of every field and find duplicate keys, then construct.
"""

from __future__ import annotations

from typing import Any

import yaml

from conformance.corpus.problems import FieldPath, format_field

_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class LineLoader(_SafeBase):  # type: ignore[misc, valid-type]
    """A safe loader; the line bookkeeping is done by `load_yaml` on its node tree."""


def _walk(
    loader: LineLoader,
    node: yaml.Node,
    path: FieldPath,
    lines: dict[FieldPath, int],
    duplicates: list[tuple[FieldPath, int, str]],
) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                first = seen.get(key)
            except TypeError:  # an unhashable key; the schema will refuse it
                continue
            if first is not None:
                duplicates.append((path + (key,), line, f"duplicate key (first at line {first})"))
                continue
            seen[key] = line
            lines[path + (key,)] = line
            _walk(loader, value_node, path + (key,), lines, duplicates)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(loader, item, path + (index,), lines, duplicates)


def load_yaml(text: str) -> tuple[Any, dict[FieldPath, int], list[tuple[int, str, str]]]:
    """Return (data, line of each field path, problems as (line, field, message))."""
    loader = LineLoader(text)
    lines: dict[FieldPath, int] = {}
    problems: list[tuple[int, str, str]] = []
    try:
        node = loader.get_single_node()
        if node is None:
            return None, lines, [(1, "", "empty file")]
        duplicates: list[tuple[FieldPath, int, str]] = []
        _walk(loader, node, (), lines, duplicates)
        problems += [(line, format_field(path), msg) for path, line, msg in duplicates]
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        return None, lines, [(line, "", f"invalid YAML: {error.problem or error}")]
    except yaml.YAMLError as error:
        return None, lines, [(1, "", f"invalid YAML: {error}")]
    finally:
        loader.dispose()
    return data, lines, problems
