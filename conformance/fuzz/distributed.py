"""A campaign in parts: `t42 fuzz --shard K/N` on other machines, their causes merged.

    python -m conformance.fuzz.distributed merge OUT PART_DIR...
    python -m conformance.fuzz.distributed dask --parts N --save OUT
        [--scheduler tcp://HOST:8786] -- T42_FUZZ_OPTIONS...

`merge`: each part saved its new causes with `--save PART_DIR`, one file per cause; the
merged folder keeps one case per cause (the shortest, then the first part's), read as
`--known` reads them. Any runner of jobs can run the parts (a CI matrix: one job per
shard, the folders as artifacts, then `merge`).

`dask`: the parts as tasks of a Dask cluster (`pip install 'distributed'`; a scheduler
and workers already running, `dask scheduler` and `dask worker ADDRESS` on each machine,
each with the suite and the engine installed), or of a local cluster of N processes
without `--scheduler`. Each task runs `t42 fuzz OPTIONS --shard K/N --save TMP` in a
process of its own and sends back its closing lines and saved files; they are merged
into OUT. Exit status: 2 if a part could not run, else 1 if a part found a new cause or
an errored game, else 0.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Part:
    """What one part of a campaign gives back: its exit status, its last lines and the
    cases it saved (file name, text)."""

    shard: str
    status: int
    tail: str
    files: list[tuple[str, str]]


def run_part(options: list[str], shard: str) -> Part:
    """`t42 fuzz OPTIONS --shard SHARD --save TMP` in a process of its own (a task of a
    distributed engine): its status, its closing lines and its saved files."""
    with tempfile.TemporaryDirectory(prefix="t42-part-") as tmp:
        done = subprocess.run(
            [sys.executable, "-m", "conformance.cli.main", "fuzz", *options,
             "--shard", shard, "--save", tmp], capture_output=True, text=True, check=False)
        files = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(Path(tmp).glob("*.yaml"))]
    lines = (done.stdout + done.stderr).strip().splitlines()
    return Part(shard, done.returncode, "\n".join(lines[-2:]), files)


def merge(parts: list[Path], out: Path) -> dict[frozenset[tuple[str, str]], Path]:
    """The saved cases of `parts` (folders), one per cause (per check of the reference,
    when a case names one), written to `out`: for each the case of fewest steps, then of
    the first part, then the first name. The cause (or check) of each written file.
    ValueError when a part's file is no saved case."""
    from conformance.fuzz.save import CHECK, _known_in
    from conformance.specdata.yamlload import load_yaml

    best: dict[frozenset[tuple[str, str]], tuple[int, int, str, Path]] = {}
    problems: list[str] = []
    for number, part in enumerate(parts):
        for file in sorted(part.glob("*.yaml")):
            causes, wrong = _known_in(file)
            problems += [f"{file}:{line}: {what}" for line, what in wrong]
            if wrong or not causes:
                continue
            doc = load_yaml(file.read_text(encoding="utf-8"))[0]
            steps = len(doc.get("steps") or []) if isinstance(doc, dict) else 0
            # one case per check of the reference behind a cause (its `Check:` line), else
            # per cause: the same bug filed under other rules in two parts is one case
            checks = frozenset(c for c in causes if c[0] == CHECK)
            key, rank = checks or frozenset(causes), (steps, number, file.name, file)
            if key not in best or rank[:3] < best[key][:3]:
                best[key] = rank
    if problems:
        raise ValueError("\n".join(problems))
    out.mkdir(parents=True, exist_ok=True)
    written: dict[frozenset[tuple[str, str]], Path] = {}
    names: set[str] = set()
    for key, (_, _, name, source) in sorted(best.items(), key=lambda kv: kv[1][2]):
        stem, suffix, n = Path(name).stem, Path(name).suffix, 1
        while name in names:  # two causes whose parts gave them the same name
            n += 1
            name = f"{stem}-{n}{suffix}"
        names.add(name)
        target = out / name
        shutil.copyfile(source, target)
        written[key] = target
    return written


def _save_parts(parts: list[Part], root: Path) -> list[Path]:
    folders = []
    for part in parts:
        folder = root / part.shard.replace("/", "-of-")
        folder.mkdir(parents=True)
        for name, text in part.files:
            (folder / name).write_text(text, encoding="utf-8")
        folders.append(folder)
    return folders


def run_on_dask(client: Any, options: list[str], parts: int) -> list[Part]:
    """The N parts of a campaign as tasks of a Dask cluster (`client`: a
    distributed.Client), in shard order."""
    futures = client.map(run_part, [options] * parts,
                         [f"{k}/{parts}" for k in range(1, parts + 1)], pure=False)
    return list(client.gather(futures))


def merged(parts: list[Part], out: Path) -> dict[frozenset[tuple[str, str]], Path]:
    """The parts' saved cases merged into `out` (merge)."""
    with tempfile.TemporaryDirectory(prefix="t42-parts-") as tmp:
        return merge(_save_parts(parts, Path(tmp)), out)


def _status(parts: list[Part]) -> int:
    statuses = [p.status for p in parts]
    return 2 if any(s not in (0, 1) for s in statuses) else max(statuses, default=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.fuzz.distributed",
                                     description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("merge", help="merge the saved causes of part folders")
    one.add_argument("out", type=Path)
    one.add_argument("parts", type=Path, nargs="+")
    two = sub.add_parser("dask", help="run the parts on a Dask cluster and merge them")
    two.add_argument("--parts", type=int, required=True)
    two.add_argument("--save", type=Path, required=True, help="the merged causes' folder")
    two.add_argument("--scheduler", help="a running scheduler's address (else a local "
                                         "cluster of --parts processes)")
    two.add_argument("options", nargs=argparse.REMAINDER,
                     help="-- then the options of t42 fuzz (--adapter, --games, ...)")
    args = parser.parse_args(argv)
    if args.command == "merge":
        try:
            written = merge(args.parts, args.out)
        except ValueError as error:
            print(f"t42: cannot merge:\n{error}", file=sys.stderr)
            return 2
        for key, path in written.items():
            print(f"{path}: {'; '.join(f'{r}: {w}' for r, w in sorted(key))}")
        print(f"{len(written)} causes from {len(args.parts)} parts in {args.out}")
        return 0
    from distributed import Client, LocalCluster

    options = [o for o in args.options if o != "--"]
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.parts, threads_per_worker=1,
                                     processes=True))
    with client:
        parts = run_on_dask(client, options, args.parts)
    for part in parts:
        print(f"part {part.shard} (status {part.status}): {part.tail}")
    written = merged(parts, args.save)
    for key, path in written.items():
        print(f"{path}: {'; '.join(f'{r}: {w}' for r, w in sorted(key))}")
    print(f"{len(written)} causes from {args.parts} parts in {args.save}")
    return _status(parts)


if __name__ == "__main__":
    raise SystemExit(main())
