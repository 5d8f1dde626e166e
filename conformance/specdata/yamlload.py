"""YAML loading that keeps line numbers, refuses duplicate keys and stays bounded: the one
loader of every YAML file the harness reads (scenarios, the spec's, lists of expected
failures, saved cases), below both the spec's index and the corpus.

Built on yaml's safe loader (the C one when libyaml is present). Three passes over one
text: (1) the event stream, flat and cheap, checks the caps that must hold before any
tree is built (nesting depth, string length, how far aliases expand: a 1 KB file of
nested aliases would otherwise expand to gigabytes); (2) the node tree is walked once to
record the line of every field, find duplicate keys and refuse values that have no JSON
form (dates, !!binary, !!set, NaN, huge integers) at their own line and field; (3) only
then is the data constructed.
"""

from __future__ import annotations

import codecs
import errno
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.specdata.fields import FieldPath, format_field
from conformance.specdata.files import display_path

_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Limits:
    """What one scenario file may hold (README "Limits"). The corpus's largest file is
    7 KB, 9 levels deep, 860 scalars, its longest string 1,310 characters."""

    file_bytes: int = 1 << 20
    depth: int = 64
    string_chars: int = 10_000
    nodes: int = 100_000  # after alias expansion
    integer: int = 2**53 - 1  # the largest integer every JSON reader keeps exactly


LIMITS = Limits()
_JSON_SCALARS = {
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float", "tag:yaml.org,2002:str",
}
_NO_JSON_FORM = {
    "tag:yaml.org,2002:timestamp": "a date or time, which JSON has not: quote it to make it "
                                   "a string",
    "tag:yaml.org,2002:binary": "!!binary data, which JSON has not",
    "tag:yaml.org,2002:set": "a !!set, which JSON has not: write a list",
    "tag:yaml.org,2002:omap": "an !!omap, which JSON has not: write a mapping",
    "tag:yaml.org,2002:pairs": "!!pairs, which JSON has not: write a mapping",
}
Found = list[tuple[int, str, str]]  # (line, field, message)


class LineLoader(_SafeBase):  # type: ignore[misc, valid-type]
    """A safe loader; the line bookkeeping is done by `load_yaml` on its node tree."""


def _scan(text: str, limits: Limits) -> Found:
    """Pass 1, over events: depth, string length and alias expansion, before any tree."""
    depth = 0
    sizes: dict[str, int] = {}  # anchor -> nodes it stands for
    open_: list[tuple[str | None, int]] = []  # (anchor, nodes so far) per open collection
    total = 0
    for event in yaml.parse(text, Loader=LineLoader):
        mark = event.start_mark  # None only in an event built by hand, not parsed
        line = mark.line + 1 if mark is not None else 1
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > limits.depth:
                return [(line, "", f"nested deeper than {limits.depth} levels")]
            open_.append((event.anchor, total))
            total += 1
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            anchor, start = open_.pop()
            if anchor is not None:
                sizes[anchor] = total - start
            continue
        if isinstance(event, yaml.ScalarEvent):
            if len(event.value) > limits.string_chars:
                return [(line, "", f"a value of {len(event.value):,} characters (the limit "
                                   f"is {limits.string_chars:,})")]
            total += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        # a parsed alias always names its anchor
        elif isinstance(event, yaml.AliasEvent) and event.anchor is not None:
            if any(anchor == event.anchor for anchor, _ in open_):
                return [(line, "", f"an alias inside its own anchor (&{event.anchor}): a "
                                   "structure that contains itself has no JSON form")]
            total += sizes.get(event.anchor, 1)
        if total > limits.nodes:
            return [(line, "", f"more than {limits.nodes:,} values once aliases are expanded "
                               "(an alias bomb?)")]
    return []


class _Walk:
    """Pass 2, over the node tree: lines, duplicate keys, values without a JSON form."""

    def __init__(self, loader: LineLoader, limits: Limits):
        self.loader, self.limits = loader, limits
        self.lines: dict[FieldPath, int] = {}
        self.found: list[tuple[FieldPath, int, str]] = []

    def node(self, node: yaml.Node, path: FieldPath) -> None:
        line = node.start_mark.line + 1
        self.lines.setdefault(path, line)
        if isinstance(node, yaml.MappingNode):
            self.mapping(node, path)
        elif isinstance(node, yaml.SequenceNode):
            if node.tag in _NO_JSON_FORM:  # !!omap, !!pairs
                self.found.append((path, line, _NO_JSON_FORM[node.tag]))
                return
            for index, item in enumerate(node.value):
                self.node(item, path + (index,))
        else:
            problem = self.scalar(node)
            if problem:
                self.found.append((path, line, problem))

    def mapping(self, node: yaml.MappingNode, path: FieldPath) -> None:
        if node.tag in _NO_JSON_FORM:
            self.found.append((path, node.start_mark.line + 1, _NO_JSON_FORM[node.tag]))
            return
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != (
                    "tag:yaml.org,2002:str"):
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "?"
                self.found.append((path + (str(shown),), line,
                                   "a key must be a string (JSON has no other keys): quote it"))
                continue
            key = key_node.value
            if key in seen:
                self.found.append((path + (key,), line,
                                   f"duplicate key (first at line {seen[key]})"))
                continue
            seen[key] = line
            self.lines[path + (key,)] = line
            self.node(value_node, path + (key,))

    def scalar(self, node: yaml.Node) -> str:
        if node.tag in _NO_JSON_FORM:
            return _NO_JSON_FORM[node.tag]
        if node.tag not in _JSON_SCALARS:
            return f"the tag {node.tag} has no JSON form"
        if node.tag == "tag:yaml.org,2002:float":
            value = self.loader.construct_object(node)
            if value != value or value in (float("inf"), float("-inf")):
                return f"{node.value} is not a JSON number"
        if node.tag == "tag:yaml.org,2002:int":
            digits = node.value.lstrip("+-").replace("_", "")
            # int() refuses more than 4,300 digits with a ValueError: test the length first.
            if len(digits) > 30 or abs(self.loader.construct_object(node)) > self.limits.integer:
                return (f"integer {node.value[:40]}{'...' if len(node.value) > 40 else ''} "
                        f"is beyond ±{self.limits.integer:,} (2^53 - 1)")
        return ""


def load_yaml(text: str, limits: Limits = LIMITS) -> tuple[Any, dict[FieldPath, int], Found]:
    """Return (data, line of each field path, problems as (line, field, message)).

    Data is None when a problem makes it unsafe or meaningless to build."""
    loader = LineLoader(text)
    try:
        problems = _scan(text, limits)
        if problems:
            return None, {}, problems
        node = loader.get_single_node()
        if node is None:
            return None, {}, [(1, "", "empty file")]
        walk = _Walk(loader, limits)
        walk.node(node, ())
        problems = [(line, format_field(path), msg) for path, line, msg in walk.found]
        if any(not msg.startswith("duplicate key") for _, _, msg in problems):
            return None, walk.lines, problems
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        return None, {}, [(line, "", f"invalid YAML: {error.problem or error}")]
    except yaml.reader.ReaderError as error:  # a character YAML refuses, e.g. NUL
        line = text.count("\n", 0, error.position) + 1
        code = error.character if isinstance(error.character, int) else ord(error.character)
        return None, {}, [(line, "", f"invalid YAML: the character U+{code:04X} is not "
                                     "allowed")]
    except yaml.YAMLError as error:
        return None, {}, [(1, "", f"invalid YAML: {error}")]
    finally:
        loader.dispose()
    return data, walk.lines, problems


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_text(path: Path, limit: int = LIMITS.file_bytes) -> tuple[str | None, int, str]:
    """The file's text, or None and (line, why). Only a regular file of at most `limit`
    bytes of UTF-8 is read: a FIFO would block, /dev/zero would never end."""
    data, line, why = read_bytes(path, limit)
    return (None, line, why) if data is None else decode_text(data)


def read_bytes(path: Path, limit: int = LIMITS.file_bytes) -> tuple[bytes | None, int, str]:
    """`read_text`'s bytes, not yet decoded (the loading cache keys a file by them)."""
    try:
        info = path.stat()  # follows links: a link loop is ELOOP here
    except OSError as error:
        if error.errno == errno.ELOOP:
            return None, 1, "cannot read: a symbolic link loop"
        return None, 1, f"cannot read: {error.strerror or error}"
    if stat.S_ISDIR(info.st_mode):
        return None, 1, "a link to an enclosing directory: not followed (it would loop)"
    kind = next((name for test, name in _KINDS if test(info.st_mode)), None)
    if kind or not stat.S_ISREG(info.st_mode):
        return None, 1, f"refused: {kind or 'not a regular file'}, not a scenario file"
    try:
        with path.open("rb") as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        return None, 1, f"cannot read: {error.strerror or error}"
    if len(data) > limit or info.st_size > limit:
        return None, 1, f"refused: more than {limit:,} bytes (the limit of a scenario file)"
    return data, 0, ""


def decode_text(data: bytes) -> tuple[str | None, int, str]:
    """`read_text`'s answer for the bytes `read_bytes` read."""
    if data.startswith(codecs.BOM_UTF8):
        return None, 1, "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 " \
                        "without one, so that the modeline is the first thing in the file"
    try:
        return data.decode("utf-8"), 0, ""
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        return None, line, f"not UTF-8: byte 0x{data[error.start]:02x} at column {column}"


def read_yaml(path: Path) -> Any:
    """Any other YAML file the harness reads (the spec's, a list of expected failures),
    as a scenario file is read: `read_text`, then `load_yaml` with its caps. ValueError
    `FILE:LINE: what` for the first problem (an empty file is None)."""
    text, line, why = read_text(path)
    if text is None:
        raise ValueError(f"{display_path(path)}:{line}: {why}")
    data, _, problems = load_yaml(text)
    if problems and [what for _, _, what in problems] != ["empty file"]:
        at, field, what = problems[0]
        raise ValueError(f"{display_path(path)}:{at}: {f'{field}: ' if field else ''}{what}")
    return data
