"""The work behind each `t42` command (cli.py stays import-light)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click

from conformance.corpus import select as suite


def _fail(message: str) -> int:
    click.echo(f"t42: {message}", err=True)
    return 2


def _say_source(err: bool = False) -> None:
    """Every command says which spec/ and scenarios/ it read (checkout or installed copy)."""
    from conformance.specdata.files import data_root

    click.echo(f"t42: {data_root().describe()}", err=err)


def _known_rules(rules) -> str | None:
    from conformance.specdata.index import load_index

    unknown = [r for r in rules if r not in load_index().rules]
    return f"unknown rule {', '.join(unknown)}" if unknown else None


@dataclass(frozen=True)
class RunOptions:
    """What `t42 run` was asked for (cli/main.py builds it from the command line)."""

    paths: tuple[Path, ...] = ()
    adapter: str = "reference"
    keyword: str | None = None
    rules: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()  # --variant: select scenarios needing these options
    declared: str | None = None  # --variants: run as if these options were declared
    level: str = "strict"
    report_json: Path | None = None
    expected_failures: Path | None = None
    update_expected: bool = False
    timeout: float = 5.0
    verbose: bool = False
    report_html: Path | None = None


def run_command(options: RunOptions) -> int:
    """`t42 run`: select, start the adapter, run, report; the exit status (0, 1 or 2)."""
    from conformance.adapters.protocol import WithVariants, parse_variants
    from conformance.report import text as report
    from conformance.run import results as results_mod
    from conformance.run.runner import run_all
    from conformance.specdata.index import load_index

    o = options
    if o.update_expected and not o.expected_failures:
        return _fail("--update-expected-failures needs --expected-failures FILE")
    problem = _known_rules(o.rules) or _known_level(o.level)
    if problem:
        return _fail(problem)
    expected = _expected(o)
    if isinstance(expected, int):
        return expected
    loaded = suite.load(list(o.paths))
    chosen = suite.select(loaded, o.keyword, o.rules, o.variants)
    if not chosen:
        return _fail(f"no scenario matches {_selection(o)}: nothing to run")
    try:
        claimed = None if o.declared is None else parse_variants(
            o.declared, list(load_index().variants))
    except ValueError as error:
        return _fail(f"--variants: {error}")
    adapter = start_adapter(o.adapter, o.timeout)
    if isinstance(adapter, str):
        return _fail(adapter)
    if claimed is not None:
        beyond = sorted(set(claimed) - set(adapter.variants))
        if beyond:
            click.echo(f"note: --variants runs {', '.join(beyond)}, which {adapter.name} "
                       "does not declare")
        adapter = WithVariants(adapter, claimed)
    options_text = ", ".join(sorted(adapter.variants)) or "none"
    _say_source()
    click.echo(f"t42: {len(chosen)} scenarios against {adapter.name} {adapter.version} "
               f"at level {o.level} (variant options: {options_text})")
    start = time.perf_counter()
    shots = None
    try:
        results = run_all(chosen, adapter, report.Progress(len(chosen), expected, o.verbose),
                          level=o.level)
        seconds = time.perf_counter() - start
        if o.report_html:
            from conformance.book.report import capture_failures

            shots = capture_failures(chosen, results, adapter)
    finally:
        if hasattr(adapter, "close"):
            adapter.close()
    stale = _report(o, results, loaded, expected, adapter, seconds, shots)
    click.echo(results_mod.summary_line(results_mod.totals(results), o.level))
    return results_mod.exit_code(results, stale)


def _report(o: RunOptions, results, loaded, expected, adapter, seconds: float,
            shots=None) -> list[str]:
    """Everything a run prints before its summary line; the stale expected failures."""
    from conformance.report import expected as xf
    from conformance.report import text as report
    from conformance.run import results as results_mod

    stale = xf.mark(results, expected)
    for part in (report.details(results, o.verbose), report.variant_table(results),
                 report.compliance_table(results, o.level)):
        if part:
            click.echo("\n" + part)
    counts = results_mod.totals(results)
    if o.report_json:
        report.write_json(o.report_json, report.to_json(results, adapter, counts, seconds,
                                                        stale, o.level))
    if o.report_html:
        from conformance.book.report import write_report

        where = write_report(o.report_html, list(o.paths), results, shots, adapter, counts)
        click.echo(f"wrote the HTML report {where}")
    if o.expected_failures:
        path = o.expected_failures
        listed = sum(r.expected_failure for r in results)
        click.echo(f"\n{len(expected)} expected failures listed in {path}: "
                   f"{listed} failed as expected, {len(stale)} now pass")
        for stale_id in stale:
            click.echo(f"STALE {stale_id} passes but is listed in {path}")
        known = {item.scenario.id for item in loaded if item.scenario is not None}
        for unknown in sorted(set(expected) - known):
            click.echo(f"note: {path} lists {unknown}, which is not in the corpus")
        if o.update_expected:
            new = xf.update(path, results, expected)
            click.echo(f"rewrote {path}: {len(new)} entries")
            stale = []
            for r in results:
                r.expected_failure = r.id in new and r.outcome.value in ("failed", "errored")
    invalid = sum(1 for item in loaded if item.scenario is None)
    if invalid and len(results) < len(loaded):
        click.echo(f"note: {invalid} invalid scenario files in the corpus (see t42 check)")
    click.echo(f"time: {seconds:.2f} s")
    return stale


def _expected(o: RunOptions) -> dict[str, str] | int:
    """The expected-failures list; a missing file is an error unless it is to be written."""
    from conformance.report import expected as xf

    if not o.expected_failures:
        return {}
    if not o.expected_failures.exists() and not o.update_expected:
        return _fail(f"--expected-failures: {o.expected_failures} does not exist (to create "
                     "it, add --update-expected-failures)")
    try:
        return xf.load(o.expected_failures)
    except xf.ExpectedFailuresError as error:
        return _fail(str(error))


def _selection(o: RunOptions) -> str:
    said = [f"-k {o.keyword}"] if o.keyword else []
    said += [f"--rule {r}" for r in o.rules] + [f"--variant {v}" for v in o.variants]
    said += [str(p) for p in o.paths]
    return " ".join(said) or "the corpus"


def _known_level(level: str) -> str | None:
    from conformance.specdata.index import load_index

    names = load_index().levels.names
    return None if level in names else f"unknown level {level} (one of {', '.join(names)})"


def start_adapter(spec: str, timeout: float):
    """The adapter, started and shaken hands with, or one message saying why it cannot
    start (a missing program, an import error, a failed handshake): the run stops."""
    from conformance.adapters.protocol import load_adapter

    try:
        adapter = load_adapter(spec, timeout)
    except Exception as error:  # noqa: BLE001 - report any failure to build the adapter
        return f"cannot start adapter {spec!r}: {type(error).__name__}: {error}"
    broken = getattr(adapter, "broken", None)
    if broken:
        if hasattr(adapter, "close"):
            adapter.close()
        return f"adapter {spec!r}: {broken} (stopped before any scenario)"
    return adapter


def book_command(out: Path, paths) -> int:
    from conformance.book.build import build

    _say_source()
    start = time.perf_counter()
    stats = build(out, paths)
    click.echo(f"wrote {stats.pages} pages ({stats.scenarios} scenarios, {stats.frames} table "
               f"diagrams) to {out}/index.html in {time.perf_counter() - start:.1f} s")
    if stats.skipped_files:
        click.echo(f"note: {stats.skipped_files} invalid scenario files left out (see t42 check)")
    return 0


def check_command(paths) -> int:
    from conformance.specdata.files import spec_dir
    from conformance.specdata.index import load_index

    _say_source()
    index = load_index()
    problems = [f"spec/{p}" for p in index.problems]
    loaded = suite.load(paths)
    for item in loaded:
        problems += [str(p) for p in item.problems]
    problems += _errors_md_fresh(spec_dir())
    for line in problems:
        click.echo(line)
    good = sum(1 for item in loaded if item.scenario is not None)
    click.echo(f"{len(loaded)} scenario files checked ({good} valid), "
               f"{len(index.rules)} rules, {len(index.codes)} error codes: "
               f"{len(problems)} problems")
    return 1 if problems else 0


# Files generated from the spec, and their generators (in a checkout's tools/).
GENERATED = {"spec/errors.md": "gen_errors_md.py",
             "spec/schemas/spec-enums.schema.json": "gen_schema_enums.py"}


def _errors_md_fresh(spec: Path) -> list[str]:
    stale = []
    for name, script in GENERATED.items():
        tool = spec.parent / "tools" / script
        if not tool.exists():
            continue
        done = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True,
                              text=True)
        if done.returncode != 0:
            said = (done.stdout + done.stderr).strip().splitlines()
            stale.append(f"{name}: stale or invalid ({said[-1] if said else 'run t42 docs'})")
    return stale


def docs_command(check_only: bool) -> int:
    from conformance.specdata.files import spec_dir

    code = 0
    for script in GENERATED.values():
        tool = spec_dir().parent / "tools" / script
        if not tool.exists():
            return _fail(f"{tool} not found (needs a checkout)")
        args = [sys.executable, str(tool)] + (["--check"] if check_only else [])
        code = max(code, subprocess.run(args).returncode)
    return code


def coverage_command(paths, base_only: bool, as_json: bool) -> int:
    from conformance.specdata.index import load_index

    index = load_index()
    loaded = suite.load(paths)
    if not as_json:
        _say_source()

    def in_base(rule_id: str) -> bool:
        rule = index.rules.get(rule_id)
        return rule is not None and rule.file == "rules.md"

    rules = {r.id: [] for r in index.rules.values()
             if not r.withdrawn and not (base_only and not in_base(r.id))}
    codes: dict[str, list[str]] = {c.code: [] for c in index.codes.values()
                                   if not (base_only and not any(map(in_base, c.rules)))}
    for item in loaded:
        sc = item.scenario
        if sc is None:
            continue
        for rule_id in sc.rules:
            if rule_id in rules:
                rules[rule_id].append(sc.id)
        for step in sc.steps:
            if step.reject in codes and sc.id not in codes[step.reject]:
                codes[step.reject].append(sc.id)
    bad = [r for r, ids in rules.items() if not ids] + [c for c, ids in codes.items() if not ids]
    if as_json:
        click.echo(json.dumps({"rules": rules, "codes": codes, "uncovered": bad}, indent=2))
    else:
        for title, table in (("rule", rules), ("error code", codes)):
            click.echo(f"{title:18} scenarios")
            for key, ids in table.items():
                shown = ", ".join(ids[:4]) + (f" (+{len(ids) - 4})" if len(ids) > 4 else "")
                click.echo(f"{key:18} {len(ids):3}  {shown or 'NONE'}")
            click.echo("")
        invalid = sum(1 for item in loaded if item.scenario is None)
        if invalid:
            click.echo(f"note: {invalid} invalid scenario files ignored (see t42 check)")
        click.echo(f"{len(rules)} rules, {len(codes)} error codes: {len(bad)} without a scenario"
                   + (f": {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


def list_command(paths, keyword, rules, variants) -> int:
    from conformance.corpus.scenario import display_path
    from conformance.specdata.files import data_root

    chosen = suite.select(suite.load(paths), keyword, rules, variants)
    for item in chosen:
        sc = item.scenario
        if sc is None:
            click.echo(f"INVALID  {display_path(item.path)}")
        else:
            click.echo(f"{sc.id}  {display_path(sc.path)}  [{', '.join(sc.rules)}]")
    click.echo(f"t42: {len(chosen)} scenario files listed ({data_root().describe()})")
    return 0


def perft_command(scenario_path, seed, dealer, depth, steps) -> int:
    from reference_impl import IllegalAction, Match
    from reference_impl.perft import divide

    if (scenario_path is None) == (seed is None):
        return _fail("give a scenario file or --seed")
    if seed is not None:
        match = Match.from_seed(seed, dealer=dealer)
    else:
        from conformance.corpus.scenario import load_scenario

        loaded = load_scenario(scenario_path)
        if loaded.scenario is None:
            for problem in loaded.problems:
                click.echo(str(problem), err=True)
            return 1
        match = None
        own = 0
        for step in loaded.scenario.steps:
            if step.label.startswith("steps["):
                own += 1
                if steps is not None and own > steps:
                    break
            try:
                if step.kind == "setup":
                    match = Match.start(step.payload)
                elif step.kind == "deal":
                    match.deal(step.payload)
                elif step.kind == "act":
                    match.apply(step.payload)
            except IllegalAction:
                if step.reject is None:
                    return _fail(f"{step.label} (line {step.line}) is rejected by the engine")
    if depth == 0:
        click.echo("total 1")
        return 0
    counts = divide(match, depth)
    for key, count in counts.items():
        click.echo(f"{key:14} {count}")
    click.echo(f"total {sum(counts.values())}")
    return 0


def bench_command(seconds: float, seed: int) -> int:
    from reference_impl.bench import run_bench

    for name, value in run_bench(seconds=seconds, seed=seed).items():
        click.echo(f"{name:32} {value:,.1f}")
    return 0
