"""Hostile scenario files, each with the exact report it must get (issue 15).

In the manner of Bowtie's fauxmplementations: every case is a file a careless or hostile
author could write, with the problems `t42 check` must print for it, as (line, field,
message). `materialize` writes them into a folder (FIFOs, devices and link loops
included) beside good scenarios, which must still load and pass.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = Path(__file__).resolve().parents[3] / "spec/schemas/scenario.schema.json"
MODELINE = f"# yaml-language-server: $schema={SCHEMA}\n"
# Line 1 is the modeline; the fields below sit at the lines named in the cases.
BODY = """\
id: {id}
title: {title}
description: {description}
rules: [BID-01]
setup:
  dealer: D
  hands:
    A: ["5|5", "1|2", "0|0", "2|2", "1|3", "0|1", "1|1"]
    B: ["3|5", "1|6", "0|3", "4|5", "2|4", "3|3", "0|2"]
    C: ["0|5", "2|6", "4|4", "1|5", "3|4", "0|4", "2|5"]
    D: ["6|6", "2|3", "4|6", "0|6", "5|6", "1|4", "3|6"]
steps:
  - act: {{type: bid, seat: A, points: {points}}}
    expect: {{view: {{to_act: B}}}}
{more}"""
TITLE, DESCRIPTION, STEP = 3, 4, 14  # lines of title, description, steps[0]
INT_LIMIT = "±9,007,199,254,740,991 (2^53 - 1)"


def body(name: str, title: str = "T", description: str = "D", points: str = "30",
         more: str = "") -> str:
    return MODELINE + BODY.format(id=f"hostile.{name}", title=title, description=description,
                                  points=points, more=more)


def marks(name: str, value: str) -> str:
    """Starting marks as line 7."""
    return body(name).replace("setup:\n", f"setup:\n  marks: {value}\n")


def contract(name: str, bid: str, more: str = "") -> str:
    """A contract shortcut as line 13 (steps[0] is then line 15)."""
    return body(name).replace("steps:\n", f"  contract: {{declarer: A, bid: {bid}, trump: 6"
                                          f"{more}}}\nsteps:\n")


PASSES = "".join(f"  - act: {{type: pass, seat: {seat}}}\n" for seat in "BCD")
REFUSED = "a step that is not `reject`ed must be valid"


@dataclass(frozen=True)
class Case:
    name: str  # the file name
    content: bytes | str | None  # None: a special file made by `special`
    problems: list[tuple[int, str, str]]  # the exact report; [] for a good file
    special: str = ""  # fifo, loop, devzero, dirloop, dangling
    note: str = field(default="", compare=False)


def _nested_aliases(levels: int, width: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        refs = ", ".join([f"*a{i - 1}"] * width)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines)


BOMB = _nested_aliases(9, 9)
GOOD = [
    Case("good-plain.yaml", body("good-plain"), []),
    Case("good-alias.yaml", body("good-alias", more="  - expect: {view: &v {to_act: B}}\n"
                                                     "  - expect: {view: *v}\n"), []),
    Case("good-unicode.yaml", body("good-unicode", title='"Dominó — ½ ✓"'), []),
    Case("good-quoted-date.yaml", body("good-quoted-date", title='"2024-01-01"'), []),
    Case("good-long-string.yaml", body("good-long-string", description="x" * 10_000), []),
    Case("good-big-int.yaml", body("good-big-int", more=(
        f"  - act: {{type: bid, seat: B, points: {2**53 - 1}}}\n"
        "    reject: POINT_BID_RANGE\n")), [], note="an integer at the cap loads"),
]
BAD = [
    # --- aliases, depth, size ------------------------------------------------------
    Case("alias-bomb.yaml", body("alias-bomb", more="x_bomb:\n  " + BOMB.replace("\n", "\n  ")
                                 + "\n"),
         [(22, "", "more than 100,000 values once aliases are expanded (an alias bomb?)")]),
    Case("alias-wide.yaml", body("alias-wide", more="x: &s 1\ny: [" + ", ".join(["*s"] * 100_001)
                                 + "]\n"),
         [(17, "", "more than 100,000 values once aliases are expanded (an alias bomb?)")]),
    Case("alias-recursive.yaml", body("alias-recursive", description="&d [a, *d]"),
         [(DESCRIPTION, "", "an alias inside its own anchor (&d): a structure that "
                            "contains itself has no JSON form")]),
    Case("alias-undefined.yaml", body("alias-undefined", description="*nowhere"),
         [(DESCRIPTION, "", "invalid YAML: found undefined alias")]),
    Case("deep-flow.yaml", body("deep-flow", description="[" * 100 + "]" * 100),
         [(DESCRIPTION, "", "nested deeper than 64 levels")]),
    Case("deep-block.yaml", body("deep-block", more="".join(
        "  " * i + f"k{i}:\n" for i in range(70)).replace("k0:", "x_deep:") + "  " * 70 + "v\n"),
         [(80, "", "nested deeper than 64 levels")]),
    Case("long-string.yaml", body("long-string", description="x" * 10_001),
         [(DESCRIPTION, "", "a value of 10,001 characters (the limit is 10,000)")]),
    Case("long-key.yaml", body("long-key", more="k" * 20_000 + ": 1\n"),
         [(16, "", "invalid YAML: could not find expected ':'")],
         note="YAML itself refuses a plain key longer than 1,024 characters"),
    Case("too-big.yaml", body("too-big") + "#" * (1 << 20) + "\n",
         [(1, "", "refused: more than 1,048,576 bytes (the limit of a scenario file)")]),
    # --- values without a JSON form -------------------------------------------------
    Case("int-5000-digits.yaml", body("int-5000-digits", points="9" * 5000),
         [(STEP, "steps[0].act.points", f"integer {'9' * 40}... is beyond {INT_LIMIT}")]),
    Case("int-2-53.yaml", body("int-2-53", points=str(2**53)),
         [(STEP, "steps[0].act.points", f"integer {2**53} is beyond {INT_LIMIT}")]),
    Case("int-negative.yaml", body("int-negative", points="-" + "1" * 40),
         [(STEP, "steps[0].act.points", f"integer -{'1' * 39}... is beyond {INT_LIMIT}")]),
    Case("int-hex-huge.yaml", body("int-hex-huge", points="0x" + "f" * 20),
         [(STEP, "steps[0].act.points", f"integer 0x{'f' * 20} is beyond {INT_LIMIT}")]),
    Case("date.yaml", body("date", title="2024-01-01"),
         [(TITLE, "title", "a date or time, which JSON has not: quote it to make it a string")]),
    Case("datetime-in-step.yaml", body("datetime-in-step", points="2024-01-01T10:00:00Z"),
         [(STEP, "steps[0].act.points", "a date or time, which JSON has not: quote it to make "
                                        "it a string")]),
    Case("binary.yaml", body("binary", description="!!binary aGVsbG8="),
         [(DESCRIPTION, "description", "!!binary data, which JSON has not")]),
    Case("set.yaml", body("set", description="!!set {a, b}"),
         [(DESCRIPTION, "description", "a !!set, which JSON has not: write a list")]),
    Case("omap.yaml", body("omap", description="!!omap [a: 1]"),
         [(DESCRIPTION, "description", "an !!omap, which JSON has not: write a mapping")]),
    Case("python-tag.yaml", body("python-tag", description="!!python/object:os.system x"),
         [(DESCRIPTION, "description", "the tag tag:yaml.org,2002:python/object:os.system has "
                                       "no JSON form")]),
    Case("local-tag.yaml", body("local-tag", title="!mine T"),
         [(TITLE, "title", "the tag !mine has no JSON form")]),
    Case("nan.yaml", body("nan", points=".nan"),
         [(STEP, "steps[0].act.points", ".nan is not a JSON number")]),
    Case("inf.yaml", body("inf", points=".inf"),
         [(STEP, "steps[0].act.points", ".inf is not a JSON number")]),
    Case("minus-inf.yaml", body("minus-inf", points="-.Inf"),
         [(STEP, "steps[0].act.points", "-.Inf is not a JSON number")]),
    Case("int-key.yaml", body("int-key", more="  - expect: {view: {1: x}}\n"),
         [(16, "steps[1].expect.view.1", "a key must be a string (JSON has no other keys): "
                                         "quote it")]),
    Case("bool-key.yaml", body("bool-key", more="yes: 1\n"),
         [(16, "yes", "a key must be a string (JSON has no other keys): quote it")]),
    Case("null-key.yaml", body("null-key", more="~: 1\n"),
         [(16, "~", "a key must be a string (JSON has no other keys): quote it")]),
    Case("list-key.yaml", body("list-key", more="? [a, b]\n: 1\n"),
         [(16, "?", "a key must be a string (JSON has no other keys): quote it")]),
    Case("merge-key.yaml", body("merge-key", more="x_base: &b {a: 1}\nx_more: {<<: *b}\n"),
         [(17, "x_more.<<", "a key must be a string (JSON has no other keys): quote it")]),
    # --- text and files -------------------------------------------------------------
    Case("bom.yaml", b"\xef\xbb\xbf" + body("bom").encode(),
         [(1, "", "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without "
                  "one, so that the modeline is the first thing in the file")]),
    Case("latin-1.yaml", body("latin-1", title="Domin\udce9").encode("utf-8", "surrogateescape"),
         [(TITLE, "", "not UTF-8: byte 0xe9 at column 13")]),
    Case("nul-byte.yaml", body("nul-byte", title="a\x00b"),
         [(TITLE, "", "invalid YAML: the character U+0000 is not allowed")]),
    Case("empty.yaml", "", [(1, "", "empty file"), (1, "", "the first line must be the "
                                                         "modeline `# yaml-language-server: "
                                                         "$schema=<path to "
                                                         "scenario.schema.json>`")]),
    Case("only-modeline.yaml", MODELINE, [(1, "", "empty file")]),
    Case("two-documents.yaml", body("two-documents") + "---\nid: again\n",
         [(16, "", "invalid YAML: but found another document")]),
    Case("tabs.yaml", body("tabs", more="\tx: 1\n"),
         [(16, "", "invalid YAML: found character that cannot start any token")]),
    Case("duplicate-key.yaml", body("duplicate-key", more="title: again\n"),
         [(16, "title", "duplicate key (first at line 3)")]),
    Case("top-level-list.yaml", MODELINE + "- a\n- b\n",
         [(2, "", "['a', 'b'] is not of type 'object'")]),
    Case("top-level-scalar.yaml", MODELINE + "hello\n",
         [(2, "", "'hello' is not of type 'object'")]),
    Case("dup-id-first.yaml", body("dup-id"), []),
    Case("dup-id-second.yaml", body("dup-id"),
         [(2, "id", "id hostile.dup-id already used by scenarios/dup-id-first.yaml")]),
    Case("extension.yml", body("extension"),
         [(1, "", "scenario files end in .yaml: rename this .yml file")]),
    # --- bounds the schema and the engine share ------------------------------------
    Case("marks-1e38.yaml", marks("marks-1e38", "{AC: 0, BD: 1" + "0" * 38 + "}"),
         [(7, "setup.marks.BD", f"integer {'1' + '0' * 38} is beyond {INT_LIMIT}")]),
    Case("marks-10000.yaml", marks("marks-10000", "{AC: 0, BD: 10000}"),
         [(7, "setup.marks.BD", "10000 is greater than the maximum of 9999")]),
    Case("marks-7.yaml", marks("marks-7", "{AC: 7, BD: 0}"),
         [(7, "setup.marks.AC", "the reference engine refuses this setup (INVALID_SETUP: "
                                "starting marks must be integers 0..6, not 7): " + REFUSED)]),
    Case("marks-12-match-marks-10.yaml", marks("marks-12-match-marks-10", "{AC: 3, BD: 12}")
         .replace("rules: [BID-01]\n", "rules: [BID-01]\nvariants: {match_marks: true}\n"),
         [(8, "setup.marks.BD", "the reference engine refuses this setup (INVALID_SETUP: "
                                "starting marks must be integers 0..9, not 12): " + REFUSED)]),
    # a value no position allows, in a step expected accepted: the schema's bounds (every
    # game of variants.md), then the scenario's own game (the reference engine's Rules)
    Case("bid-99.yaml", body("bid-99", points="99"),
         [(STEP, "steps[0].act.points", "99 is greater than the maximum of 42")]),
    Case("bid-29.yaml", body("bid-29", points="29"),
         [(STEP, "steps[0].act.points", "29 is less than the minimum of 30")]),
    Case("bid-42-base-game.yaml", body("bid-42-base-game", points="42"),
         [(STEP, "steps[0].act.points", "the reference engine refuses points 42 in this "
                                        "scenario's game (POINT_BID_RANGE: a point bid is "
                                        f"30..41, not 42): {REFUSED}")]),
    Case("marks-bid-6.yaml", body("marks-bid-6").replace("points: 30", "marks: 6"),
         [(STEP, "steps[0].act.marks", "the reference engine refuses marks 6 in this "
                                       "scenario's game (MARKS_BID_STEP: no position allows "
                                       "a bid of 6 marks; this game's marks bids are 1..5): "
                                       f"{REFUSED}")]),
    Case("trump-nello-base-game.yaml", body("trump-nello-base-game", more=PASSES + (
        "  - act: {type: trump, seat: A, trump: nello}\n")),
         [(19, "steps[4].act.trump", "the reference engine refuses trump 'nello' in this "
                                     "scenario's game (INVALID_TRUMP: trump is one of 0, 1, "
                                     f"2, 3, 4, 5, 6, doubles, none): {REFUSED}")]),
    Case("trump-7-stacks-3.yaml", body("trump-7-stacks-3", more=PASSES + (
        "  - act: {type: trump, seat: A, trump: 7, stacks: 3}\n")),
         [(19, "steps[4].act.stacks", "3 is not 1 or 2 (CON-02)"),
          (19, "steps[4].act.trump", "7 is not a trump choice: 0..6, doubles, none (CON-01), "
                                     "or an option's nello, sevens, first_tile, follow_me, "
                                     "plunge (VAR-04, PTERMS-07)")]),
    Case("legal-bid-42-base-game.yaml", body("legal-bid-42-base-game", more=(
        "  - expect: {legal: [{type: pass, seat: B}, {type: bid, seat: B, points: 42}]}\n")),
         [(16, "steps[1].expect.legal[1].points", "the reference engine refuses points 42 in "
                                                  "this scenario's game (POINT_BID_RANGE: a "
                                                  "point bid is 30..41, not 42): no position "
                                                  "allows it")]),
    Case("contract-points-25.yaml", contract("contract-points-25", "{points: 25}"),
         [(13, "setup.contract.bid.points", "25 is less than the minimum of 30")]),
    Case("contract-points-42.yaml", contract("contract-points-42", "{points: 42}"),
         [(13, "setup.contract.bid.points", "the reference engine refuses points 42 in this "
                                            "scenario's game (POINT_BID_RANGE: a point bid is "
                                            f"30..41, not 42): {REFUSED}")]),
    Case("contract-marks-3.yaml", contract("contract-marks-3", "{marks: 3}", ", stacks: 1"),
         [(13, "setup.contract.bid.marks", "3 is greater than the maximum of 2")]),
    Case("perft-depth-40.yaml", body("perft-depth-40", more=(
        "  - expect: {perft: {depth: 40, total: 1}}\n")),
         [(16, "steps[1].expect.perft.depth", "40 is greater than the maximum of 33")]),
    Case("self-deal-1e6.yaml", body("self-deal-1e6", more=(
        "  - expect: {self_deal: {check: shuffle, matches: 1000000}}\n")),
         [(16, "steps[1].expect.self_deal.matches",
           "1000000 is greater than the maximum of 100000")]),
    # --- special files ----------------------------------------------------------------
    Case("fifo.yaml", None, [(1, "", "refused: a FIFO, not a scenario file")], "fifo"),
    Case("loop.yaml", None, [(1, "", "cannot read: a symbolic link loop")], "loop"),
    Case("zero.yaml", None, [(1, "", "refused: a character device, not a scenario file")],
         "devzero"),
    Case("dangling.yaml", None, [(1, "", "cannot read: No such file or directory")],
         "dangling"),
    Case("self-link", None, [(1, "", "a link to an enclosing directory: not followed (it "
                                     "would loop)")], "dirloop"),
]
CASES = GOOD + BAD


def materialize(folder: Path, cases: list[Case] = CASES) -> None:
    """Write every case into `folder`, special files included (POSIX)."""
    folder.mkdir(parents=True, exist_ok=True)
    for case in cases:
        path = folder / case.name
        if case.special == "fifo":
            os.mkfifo(path)
        elif case.special == "loop":
            os.symlink(case.name, path)
        elif case.special == "devzero":
            os.symlink("/dev/zero", path)
        elif case.special == "dangling":
            os.symlink("nowhere.yaml", path)
        elif case.special == "dirloop":
            os.symlink(".", path)
        elif isinstance(case.content, bytes):
            path.write_bytes(case.content)
        else:
            path.write_text(case.content, encoding="utf-8")
