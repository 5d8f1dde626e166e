#!/usr/bin/env python3
"""The kits' generated files, made from the spec: never edit them by hand.

    python3 kits/generate.py            write them (the wire types need the generators:
                                        `npm install` in kits/)
    python3 kits/generate.py --check    exit 1 if one is stale

Wire types: spec/schemas/ bundled into one schema (every file's $defs under one roof,
the cross-file $refs made local; json-schema-to-typescript resolves a `$ref` beside
other keywords badly across files), then json-schema-to-typescript (TypeScript) and
quicktype (Go, with its union types' JSON methods, `omitempty` on each property the
schema does not require, its names made meaningful by `go_names`, then gofmt; Rust).
Rust is post-processed in one way (`optional_fields_skipped`): quicktype's Rust renderer
writes a property that may be absent and one that is required but may be null alike, as
`Option<T>`; without `skip_serializing_if` a `None` is written `null` (right for
`to_act`, wrong for an action's `points`), and quicktype's `--skip-serializing-none`
skips both. quicktype's own schema of its types says which properties are required, so
the skip goes on the others only. Error codes: the single check order of
spec/errors.yaml. Each file's header records a sha256 of the spec files it is made from,
so `--check` catches a stale file even where the generator is not installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "spec" / "schemas"
ERRORS = ROOT / "spec" / "errors.yaml"
TS = ROOT / "kits" / "typescript"
GO = ROOT / "kits" / "go"
RUST = ROOT / "kits" / "rust"
MODULES = ROOT / "kits" / "node_modules"
JSON2TS = MODULES / ".bin" / "json2ts"
QUICKTYPE = MODULES / ".bin" / "quicktype"
GOFMT = Path(shutil.which("gofmt") or "gofmt")  # wire.go is gofmt's output
DO_NOT_EDIT = "Do not edit: run `npm ci && npm run generate` in kits/."
# The wire forms an adapter reads or writes, by the type name each gets.
WIRE = {"Action": "action.schema.json", "Setup": "setup.schema.json",
        "Deal": "setup.schema.json#/$defs/deal", "View": "view.schema.json",
        "Observation": "observation.schema.json", "HelloResult": "protocol/hello-result.json",
        "PerftResult": "protocol/perft-result.json", "Request": "protocol/request.json",
        "Response": "protocol/response.json"}
# not on the wire: a scenario file, the spec's lists, the reports `t42 run` and `t42 compare`
# write
SKIP = {"scenario.schema.json", "spec-enums.schema.json", "report.schema.json",
        "compare.schema.json"}


def digest(paths: list[Path], base: Path) -> str:
    """sha256 of the files' names (from `base`) and contents."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.relative_to(base).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def schema_files() -> list[Path]:
    return sorted(p for p in SCHEMAS.rglob("*.json") if p.name not in SKIP)


def _key(file: str) -> str:
    """protocol/hello-result.json -> hello_result"""
    return re.sub(r"[^a-zA-Z0-9]+", "_", Path(file).name.split(".")[0])


def _local(ref: str, here: str) -> str:
    file, _, pointer = ref.partition("#")
    file = (Path(here).parent / file).as_posix() if file else here
    file = file.removeprefix("./")
    if not pointer:
        return f"#/$defs/{_key(file)}"
    name = pointer.removeprefix("/$defs/")
    return f"#/$defs/{_key(file)}__{name}"


def _rewrite(node: Any, here: str) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, here) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("$schema", "$id", "title", "$comment"):
            continue  # titles would name the types; the wire names do
        if key == "allOf" and all(isinstance(i, dict) and "if" in i and "then" in i
                                  for i in value):
            # if/then by a discriminating field (an action's type): generators read a
            # union of the branches, which says the same; they lose an if/then's fields
            out["anyOf"] = [_rewrite(item["then"], here) for item in value]
            continue
        out[key] = _local(value, here) if key == "$ref" else _rewrite(value, here)
    return out


def bundle() -> dict[str, Any]:
    """One schema whose properties are the wire forms, every $ref inside it local."""
    defs: dict[str, Any] = {}
    for path in schema_files():
        rel = path.relative_to(SCHEMAS).as_posix()
        schema = json.loads(path.read_text())
        for name, sub in schema.pop("$defs", {}).items():
            defs[f"{_key(rel)}__{name}"] = _rewrite(sub, rel)
        defs[_key(rel)] = _rewrite(schema, rel)
    props = {}
    for name, ref in WIRE.items():
        defs[name] = {"$ref": _local(ref, "")}  # the named alias
        props[name] = {"$ref": f"#/$defs/{name}"}
    return {"title": "Wire", "type": "object", "properties": props,
            "additionalProperties": False, "$defs": defs}


def typescript() -> str:
    """wire.d.ts, by json-schema-to-typescript (its version in the header)."""
    version = _version("json-schema-to-typescript")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "wire.json"
        src.write_text(json.dumps(bundle()))
        out = subprocess.run([str(JSON2TS), "-i", str(src), "--no-additionalProperties",
                              "--unreachableDefinitions", "--maxItems", "-1",
                              "--bannerComment", ""],
                             check=True, capture_output=True, text=True).stdout
    return (f"// Generated by kits/generate.py from spec/schemas/ (sha256 "
            f"{digest(schema_files(), SCHEMAS)}) with json-schema-to-typescript {version}.\n"
            f"// {DO_NOT_EDIT}\n\n" + out)


def _version(package: str) -> str:
    return json.loads((MODULES / package / "package.json").read_text())["version"]


def go() -> str:
    """kits/go/wire.go, by quicktype, its names made meaningful (go_names), then gofmt
    (quicktype pads comments and indents its union helpers with spaces)."""
    out = _quicktype("go", "--package", "t42", "--omit-empty")
    out = out[out.index("package t42"):]  # quicktype's own usage note names no real API
    out = (f"// Code generated by kits/generate.py from spec/schemas/ (sha256 "
           f"{digest(schema_files(), SCHEMAS)}) with quicktype {_version('quicktype')}. "
           f"DO NOT EDIT.\n// {DO_NOT_EDIT}\n\n" + out)
    return _gofmt(go_names(_gofmt(out)))


def _gofmt(source: str) -> str:
    return subprocess.run([str(GOFMT)], input=source, check=True, capture_output=True,
                          text=True).stdout


# quicktype names a type after where it first met it, and tells two alike apart by
# "Class", "Union", "Enum" or an underscore: the names a Go reader should see instead. A
# name here that quicktype no longer writes is an error (the table went stale).
GO_TYPES = {
    "SetupClass": "Setup", "ViewClass": "View", "DealClass": "Deal",
    "ContractClass": "Contract", "Contract": "Bid42Contract", "BidClass": "ContractBid",
    "PointsClass": "TeamPoints", "ResultClass": "Result", "TrickElement": "TrickPlay",
    "Type": "ActionType", "TrumpEnum": "TrumpName", "BidEnum": "DealerBid",
    "MarksEnum": "SplashMarksName", "MarksUnion": "SplashMarks",
    "VariantEnum": "OptionName", "VariantElement": "Declared", "VariantClass": "PartialOption",
    "VariantsSplash": "SplashOption",
    # `true` or `{}`: deal_by_drawing, first_bidder and marks_raise, which have no settings
    "DealByDrawingUnion": "NoSettingsOption",
}
# an option's value (`true` or its settings) and its settings object: OPTIONOption, OPTIONSettings
GO_OPTION_TYPES = re.compile(r"^(\w+?)_?(Union|Class)$")
# enum types whose constants are their values alone: the seats A..D, the teams AC and BD
GO_BARE_ENUMS = {"Seat", "Team"}


def _go_constant(enum: str, value: str) -> str:
    """The constant of `value` of the enum type `enum`: TypeValue (PhaseBidding,
    Tile05, OptionNameNello), or the value alone for a seat or a team."""
    if enum in GO_BARE_ENUMS:
        return value
    return enum + "".join(part[:1].upper() + part[1:]
                          for part in re.split(r"[^A-Za-z0-9]+", value) if part)


# a Go source line: its code, then its strings (quoted or raw) and comment, left alone
GO_CODE = re.compile(r'("(?:[^"\\]|\\.)*"|`[^`]*`|//.*)')


def go_names(source: str) -> str:
    """`source` (quicktype's Go, gofmt'd) with meaningful names: the types of GO_TYPES;
    an option's value and settings types OPTIONOption and OPTIONSettings; every enum
    constant its type's name and its value (ActionTypePass, CmdSetup); the team BD and
    the fields that hold it `BD`, as `AC` is. A type is renamed where code names it, a
    constant where it is defined (quicktype's code uses none), a field only from Bd;
    never a selector (`json.Number`), a JSON tag, a string or a comment."""
    types = set(re.findall(r"^type (\w+) ", source, re.M))
    missing = sorted(set(GO_TYPES) - types)
    if missing:
        raise ValueError(f"quicktype no longer writes the types {missing}: update GO_TYPES")
    renamed = dict(GO_TYPES)
    for name in sorted(types - set(GO_TYPES)):
        if (m := GO_OPTION_TYPES.match(name)):
            renamed[name] = m[1] + ("Option" if m[2] == "Union" else "Settings")
    constants: dict[str, str] = {}
    for enum, block in re.findall(r"^type (\w+) string\n\nconst \(\n(.*?)^\)", source,
                                  re.M | re.S):
        for constant, value in re.findall(rf"^\t(\w+)\s+{enum} = \"([^\"]*)\"", block, re.M):
            constants[constant] = _go_constant(renamed.get(enum, enum), value)
    fields = {"Bd": "BD"}  # the field of team BD (quicktype reads "BD" as a word)
    # a union (a struct of untagged pointers) names a field after its type (`NelloClass
    # *NelloClass`): renamed with it
    unions = re.findall(r"^type \w+ struct \{\n((?:\t\w+\s+\*\w+\n)+)\}", source, re.M)
    fields.update({name: renamed[name] for block in unions
                   for name in re.findall(r"^\t(\w+)\s+\*\1$", block, re.M) if name in renamed})
    names = [renamed.get(t, t) for t in types] + list(constants.values())
    clashes = sorted(n for n in set(names) if names.count(n) > 1)
    if clashes:
        raise ValueError(f"two Go names would be one: {clashes}")
    word = re.compile(r"(?<![.\w])(" + "|".join(map(re.escape, sorted(renamed, key=len,
                                                                     reverse=True))) + r")\b")
    selector = re.compile(r"(?<=\.)(" + "|".join(map(re.escape, fields)) + r")\b")
    out, block = [], ""
    for line in source.splitlines(keepends=True):
        if (m := re.match(r"type \w+ (struct) \{$|const \($", line)):
            block = "struct" if m[1] else "const"
        elif line.startswith((")", "}")):
            block = ""
        head = ""
        if block and (m := re.match(r"(\t(\w+))(\s.*)", line, re.S)):
            mine = constants if block == "const" else fields
            head, line = "\t" + mine.get(m[2], m[2]), m[3]
        parts = GO_CODE.split(line)
        out.append(head + "".join(
            part if i % 2 else selector.sub(lambda m: fields[m[1]],
                                            word.sub(lambda m: renamed[m[1]], part))
            for i, part in enumerate(parts)))
    return "".join(out)


def _quicktype(lang: str, *options: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "wire.json"
        src.write_text(json.dumps(bundle()))
        return subprocess.run([str(QUICKTYPE), "-s", "schema", str(src), "-l", lang,
                               "--top-level", "Wire", *options],
                              check=True, capture_output=True, text=True).stdout


SKIP_NONE = '#[serde(skip_serializing_if = "Option::is_none")]'


def _json_name(field: str, rename_all: str) -> str:
    """The JSON name serde gives a Rust field under the struct's rename_all."""
    if rename_all == "SCREAMING_SNAKE_CASE":
        return field.upper()
    if rename_all == "PascalCase":
        return "".join(part.capitalize() for part in field.split("_"))
    return field


def optional_fields_skipped(source: str, required: dict[str, list[str]]) -> str:
    """`source` (quicktype's Rust) with SKIP_NONE on each `Option` field that its struct's
    schema does not require (`required`: struct name -> required JSON names, from
    quicktype's own schema output). A required field stays as written: `None` is `null`.
    A struct or field not found in `required` is an error, never a guess."""
    out: list[str] = []
    struct, rename_all, rename = "", "", ""
    for line in source.splitlines():
        if (m := re.match(r"pub struct (\w+) \{", line)):
            struct = m[1]
            if struct not in required:
                raise ValueError(f"struct {struct}: not in quicktype's schema")
        elif line.startswith("}"):
            struct, rename_all = "", ""
        elif (m := re.match(r'#\[serde\(rename_all = "(\w+)"\)\]', line)):
            rename_all = m[1]
        elif struct and (m := re.match(r'\s+#\[serde\(rename = "([^"]+)"\)\]', line)):
            rename = m[1]
        elif struct and (m := re.match(r"(\s+)pub (\w+): Option<", line)):
            name = rename or _json_name(m[2], rename_all)
            if name not in required[struct][1]:
                raise ValueError(f"{struct}.{name}: not a property in quicktype's schema")
            if name not in required[struct][0]:
                out.append(m[1] + SKIP_NONE)
        if struct and re.match(r"\s+pub \w+:", line):
            rename = ""
        out.append(line)
    return "\n".join(out) + "\n"


def rust() -> str:
    """kits/rust/src/wire.rs, by quicktype, optional fields skipped when None."""
    schema = json.loads(_quicktype("schema"))["definitions"]
    required = {name: (set(d.get("required", [])), set(d["properties"]))
                for name, d in schema.items() if "properties" in d}
    out = _quicktype("rust", "--visibility", "public", "--derive-debug", "--derive-clone",
                     "--derive-partial-eq", "--no-leading-comments")
    return (f"// Generated by kits/generate.py from spec/schemas/ (sha256 "
            f"{digest(schema_files(), SCHEMAS)}) with quicktype {_version('quicktype')}.\n"
            f"// {DO_NOT_EDIT}\n\n" + optional_fields_skipped(out, required))


def _error_codes() -> tuple[list[str], list[str]]:
    """The codes in check order, and the header of a file generated from errors.yaml."""
    sys.path.insert(0, str(ROOT))
    from conformance.specdata.index import load_index

    head = [f"// Generated by kits/generate.py from spec/errors.yaml (sha256 "
            f"{digest([ERRORS], ERRORS.parent)}).", f"// {DO_NOT_EDIT}", ""]
    return list(load_index(ROOT / "spec").order), head


def errors_js() -> str:
    """errors.js: each code a constant, and CHECK_ORDER, the single check order."""
    order, lines = _error_codes()
    lines += [f'export const {code} = "{code}";' for code in order]
    lines += ["", "/** Every code, first checked first: report the first one the input breaks. */",
              "export const CHECK_ORDER = Object.freeze([", *(f"  {c}," for c in order), "]);",
              ""]
    return "\n".join(lines)


def errors_dts() -> str:
    """errors.d.ts: the types of errors.js, for TypeScript."""
    order, lines = _error_codes()
    lines += [f'export declare const {code}: "{code}";' for code in order]
    lines += ["", "/** Every code, first checked first: report the first one the input breaks. */",
              "export declare const CHECK_ORDER: readonly string[];", ""]
    return "\n".join(lines)


def errors_go() -> str:
    """kits/go/errors.go: each code a constant, and CheckOrder."""
    sys.path.insert(0, str(ROOT))
    from conformance.specdata.index import load_index

    order = load_index(ROOT / "spec").order
    lines = [f"// Code generated by kits/generate.py from spec/errors.yaml (sha256 "
             f"{digest([ERRORS], ERRORS.parent)}). DO NOT EDIT.", f"// {DO_NOT_EDIT}", "",
             "package t42", "", "// The error codes of spec/errors.yaml.", "const ("]
    width = max(map(len, order))  # gofmt aligns a const block
    lines += [f'\t{code:<{width}} = "{code}"' for code in order]
    lines += [")", "", "// CheckOrder is every code, first checked first: report the first "
              "one the input breaks.", "var CheckOrder = []string{",
              *(f"\t{code}," for code in order), "}", ""]
    return "\n".join(lines)


def errors_rust() -> str:
    """kits/rust/src/errors.rs: each code a constant, and CHECK_ORDER."""
    sys.path.insert(0, str(ROOT))
    from conformance.specdata.index import load_index

    order = load_index(ROOT / "spec").order
    lines = [f"// Generated by kits/generate.py from spec/errors.yaml (sha256 "
             f"{digest([ERRORS], ERRORS.parent)}).", f"// {DO_NOT_EDIT}", "",
             "//! The error codes of spec/errors.yaml.", ""]
    lines += [f'pub const {code}: &str = "{code}";' for code in order]
    lines += ["", "/// Every code, first checked first: report the first one the input breaks.",
              "pub const CHECK_ORDER: &[&str] = &[", *(f"    {code}," for code in order), "];",
              ""]
    return "\n".join(lines)


# Each generated wire file, its generator, and the command that makes it.
WIRES = {"typescript": (TS / "wire.d.ts", ("JSON2TS",), typescript),
         "go": (GO / "wire.go", ("QUICKTYPE", "GOFMT"), go),
         "rust": (RUST / "src" / "wire.rs", ("QUICKTYPE",), rust)}


def outputs(have: set[str]) -> dict[Path, str]:
    made = {TS / "errors.js": errors_js(), TS / "errors.d.ts": errors_dts(),
            GO / "errors.go": errors_go(),
            RUST / "src" / "errors.rs": errors_rust()}
    for kit in have:
        path, _, make = WIRES[kit]
        made[path] = make()
    return made


def recorded_digest(text: str) -> str:
    m = re.search(r"sha256 ([0-9a-f]{64})", text)
    return m[1] if m else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated file is stale")
    args = ap.parse_args(argv)
    have = {kit for kit, (_, tools, _) in WIRES.items()
            if all(globals()[tool].exists() for tool in tools)}
    if have != set(WIRES) and not args.check:
        print("the generators are not installed: run `npm install` in kits/ (and install "
              "Go, for gofmt)", file=sys.stderr)
        return 2
    made = outputs(have)
    stale = [path for path, text in made.items()
             if not path.exists() or path.read_text() != text]
    for kit in set(WIRES) - have:  # without its generator, the recorded digest tells
        path = WIRES[kit][0]
        if recorded_digest(path.read_text()) != digest(schema_files(), SCHEMAS):
            stale.append(path)
    if not args.check:
        for path, text in made.items():
            path.write_text(text)
        return 0
    for path in stale:
        print(f"{path.relative_to(ROOT)} is stale: run python3 kits/generate.py")
    return 1 if stale else 0

if __name__ == "__main__":
    sys.exit(main())
