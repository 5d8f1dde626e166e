"""The work behind each `t42` command (cli.py stays import-light)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.adapters import stopping
from conformance.corpus import select as suite
from conformance.report.ended import Ended
from conformance.report.safe import echo

if TYPE_CHECKING:
    from conformance.adapters.limits import Limits
    from conformance.adapters.protocol import Harnessed
    from conformance.corpus.scenario import Step
    from conformance.run.held import Held
    from conformance.run.results import Result
    from conformance.specdata.levels import Level


def _fail(message: str) -> int:
    echo(f"t42: {message}", err=True)
    return 2


def _say_source(err: bool = False) -> None:
    """Every command says which spec/ and scenarios/ it read (checkout or installed copy)."""
    from conformance.specdata.files import data_root

    echo(f"t42: {data_root().describe()}", err=err)


def _known_rules(rules: tuple[str, ...]) -> str | None:
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
    limits: Limits | None = None  # reply and stderr caps of cmd: and python: adapters
    in_process: bool = False  # call a python: adapter in this process


@dataclass(frozen=True)
class Plan:
    """What a run will do, resolved from its options before any adapter starts."""

    options: RunOptions
    level: Level  # --level, one of levels.yaml's
    expected: dict[str, str]  # --expected-failures: id -> reason
    loaded: list[Held]  # every scenario file read, valid or not
    chosen: list[Held]  # the ones selected to run
    claimed: list[Any] | None  # --variants, parsed (hello's `variants` form)


@dataclass(frozen=True)
class Ran:
    """What a run judged: the settled results, its time, and the stop that cut it short."""

    results: list[Result]
    seconds: float
    interrupted: tuple[str, int] | None  # how it was stopped, and the exit status that gives


def run_command(options: RunOptions) -> int:
    """`t42 run`: resolve what to run, start the adapter, run, report; the exit status (0,
    1, 2, or 128 + the signal after Ctrl-C, SIGTERM or SIGHUP: 130, 143, 129). Every run
    that got as far as choosing scenarios ends with the summary line."""
    try:
        plan = _resolve(options)
        adapter = _start(plan)
    except Ended as ended:
        return ended.tell()
    ran = _run(plan, adapter)
    return _report(plan, adapter, ran)


# --- resolve: the options checked, the scenarios chosen; nothing started yet -----------


def _resolve(o: RunOptions) -> Plan:
    """Ended (status 2) at the first problem of the options, the expected failures or the
    selection, found before the adapter starts and not after the whole run."""
    from conformance.run import held

    if o.update_expected and not o.expected_failures:
        raise Ended("--update-expected-failures needs --expected-failures FILE")
    problem = _known_rules(o.rules)
    if problem:
        raise Ended(problem)
    level = _level(o.level)
    expected = _expected(o)
    problem = _unwritable_outputs(o)
    if problem:
        raise Ended(problem)
    loaded, chosen = held.load(list(o.paths), o.keyword, o.rules, o.variants)
    if not chosen:
        raise Ended(f"no scenario matches {_selection(o)}: nothing to run")
    return Plan(o, level, expected, loaded, chosen, _claimed(o.declared))


def _level(name: str) -> Level:
    from conformance.specdata.index import load_index

    try:
        return load_index().levels.level(name)
    except ValueError as error:  # unknown level NAME (one of ...)
        raise Ended(str(error)) from None


def _expected(o: RunOptions) -> dict[str, str]:
    """The expected-failures list; a missing file is an error unless it is to be written."""
    from conformance.report import expected as xf

    if not o.expected_failures:
        return {}
    if not o.expected_failures.exists() and not o.update_expected:
        raise Ended(f"--expected-failures: {o.expected_failures} does not exist (to create "
                    "it, add --update-expected-failures)")
    try:
        return xf.load(o.expected_failures)
    except xf.ExpectedFailuresError as error:
        raise Ended(str(error)) from None


def _unwritable_outputs(o: RunOptions) -> str | None:
    from conformance.report.outputs import unwritable_file, unwritable_folder

    checks = [("--report-json", o.report_json, unwritable_file),
              ("--report-html", o.report_html, unwritable_folder),
              ("--update-expected-failures", o.expected_failures if o.update_expected
               else None, unwritable_file)]
    for option, path, unwritable in checks:
        why = path is not None and unwritable(path)
        if why:
            return f"{option}: cannot write {path}: {why}"
    return None


def _selection(o: RunOptions) -> str:
    said = [f"-k {o.keyword}"] if o.keyword else []
    said += [f"--rule {r}" for r in o.rules] + [f"--variant {v}" for v in o.variants]
    said += [str(p) for p in o.paths]
    return " ".join(said) or "the corpus"


def _claimed(declared: str | None) -> list[Any] | None:
    """--variants as hello's `variants` would declare it; None when not given."""
    from conformance.adapters.inprocess import parse_variants
    from conformance.specdata.index import load_index

    if declared is None:
        return None
    try:
        return parse_variants(declared, list(load_index().variants))
    except ValueError as error:
        raise Ended(f"--variants: {error}") from None


# --- start: the adapter, and the line that says what is judged against what ------------


def _start(plan: Plan) -> Harnessed:
    """The adapter started and narrowed to --variants. Ended when it cannot start (every
    chosen scenario then counts as errored) or a stop comes first."""
    from conformance.adapters.inprocess import WithVariants
    from conformance.adapters.loading import start_adapter

    o = plan.options
    try:
        adapter = start_adapter(o.adapter, o.timeout, o.limits, o.in_process)
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP (adapters/stopping.py)
        how, status = stopping.what(stop)
        raise Ended(None, f"interrupted ({how}) before the first scenario",
                    _summary([], plan.level), status=status) from None
    if isinstance(adapter, str):
        # One message, not one per scenario; every chosen scenario counts as errored.
        raise Ended(adapter, f"no scenario ran: the {len(plan.chosen)} chosen scenarios "
                             "count as errored", _summary([], plan.level, len(plan.chosen)))
    if plan.claimed is not None:
        adapter = WithVariants(adapter, plan.claimed)
        if adapter.beyond:
            echo(f"note: --variants narrows, never widens: {', '.join(adapter.beyond)} not "
                 f"run, beyond what {adapter.name} declares")
    _say_header(plan, adapter)
    return adapter


def _say_header(plan: Plan, adapter: Harnessed) -> None:
    from conformance.specdata.versions import versions

    options_text = ", ".join(name + (" (some settings)" if name in adapter.settings else "")
                             for name in sorted(adapter.variants)) or "none"
    _say_source()
    v = versions()  # what the engine is judged against: spec/versions.yaml
    echo(f"t42: {len(plan.chosen)} scenarios against {adapter.name} {adapter.version} "
         f"at level {plan.level} (variant options: {options_text}); spec "
         f"{v['spec']}, suite {v['suite']}, protocol {v['protocol']}")


def _summary(results: list[Result], level: Level, errored: int = 0) -> str:
    """The last line of every run that chose scenarios; `errored`: scenarios that count
    as errored without a result (the adapter could not start)."""
    from conformance.run import results as results_mod

    counts = results_mod.totals(results)
    if errored:
        counts["errored"] = errored
    return results_mod.summary_line(counts, level)


# --- run: every chosen scenario judged, the adapter closed ------------------------------


def _run(plan: Plan, adapter: Harnessed) -> Ran:
    """A stop (Ctrl-C, SIGTERM, SIGHUP) ends the run with the results so far, settled; a
    report's pictures are kept as each scenario is judged, never run again."""
    from conformance.report import text as report
    from conformance.run.runner import run_all
    from conformance.run.settle import settle

    o = plan.options
    progress = report.Progress(len(plan.chosen), plan.expected, o.verbose)
    done: list[Result] = []

    def on_result(result: Result) -> None:
        done.append(result)
        progress(result)

    interrupted: tuple[str, int] | None = None
    start = time.perf_counter()
    try:
        results = run_all(plan.chosen, adapter, on_result, level=plan.level,
                          pictures=o.report_html is not None)
        seconds = time.perf_counter() - start
    except KeyboardInterrupt as stop:
        results, interrupted = settle(done), stopping.what(stop)
        seconds = time.perf_counter() - start
    finally:
        try:
            adapter.close()
        except KeyboardInterrupt as stop:  # while it was told to stop: it is ended
            interrupted = interrupted or stopping.what(stop)
    return Ran(results, seconds, interrupted)


# --- report: what the run found, its outputs, the summary line last ---------------------


def _report(plan: Plan, adapter: Harnessed, ran: Ran) -> int:
    """Everything a run prints, the summary line last; the exit status."""
    from conformance.run import results as results_mod

    try:
        stale, unwritten = _report_parts(plan, adapter, ran)
    except Exception as error:  # noqa: BLE001 - the summary line still comes, last
        echo(f"t42: the report failed ({type(error).__name__}: {error}); please "
             "report it", err=True)
        stale, unwritten = [], True
    if ran.interrupted:
        echo(f"interrupted ({ran.interrupted[0]}) after {len(ran.results)} of "
             f"{len(plan.chosen)} scenarios")
    echo(_summary(ran.results, plan.level))
    if ran.interrupted:
        return ran.interrupted[1]
    return 2 if unwritten else results_mod.exit_code(ran.results, stale)


def _report_parts(plan: Plan, adapter: Harnessed, ran: Ran) -> tuple[list[str], bool]:
    """Everything before the summary line; the stale expected failures, and whether an
    output could not be written (an error: status 2)."""
    from conformance.report import expected as xf

    o, results = plan.options, ran.results
    stale = xf.mark(results, plan.expected)
    _say_tables(plan, results, adapter)
    unwritten = _write_json(plan, results, adapter, ran.seconds, stale)
    unwritten = _write_html(plan, results, adapter) or unwritten
    if o.expected_failures:
        stale, rewritten = _expected_failures(plan, o.expected_failures, results, stale)
        unwritten = unwritten or not rewritten
    invalid = sum(1 for item in plan.loaded if item.id is None)
    if invalid and len(results) < len(plan.loaded):
        echo(f"note: {invalid} invalid scenario files in the corpus (see t42 check)")
    echo(time_line(ran.seconds))
    return stale, unwritten


def _say_tables(plan: Plan, results: list[Result], adapter: Harnessed) -> None:
    from conformance.report import text as report
    from conformance.run.results import Outcome
    from conformance.specdata.files import installed_note

    o = plan.options
    failed = [r.path for r in results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    for part in (report.verdict(results, o.adapter), report.details(results, o.verbose),
                 "\n".join(report.option_lines(report.option_coverage(results, adapter))),
                 installed_note(failed), report.variant_table(results),
                 report.compliance_table(results, plan.level), report.recap(results)):
        if part:
            echo("\n" + part)


def time_line(seconds: float) -> str:
    """The run's footer: the scenarios' time, and the wall time since the process started
    (Python's start, the corpus read, the adapter started and shaken hands with)."""
    whole = max(process_age(), seconds)
    return (f"time: {seconds:.2f} s running the scenarios, {whole:.2f} s in all (start-up "
            "and the adapter's handshake included)")


def process_age() -> float:
    """Seconds since this process started: from /proc to the clock tick (psutil's start
    time is whole seconds of boot time off), else psutil's."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        import psutil

        return time.time() - psutil.Process().create_time()


def _write_json(plan: Plan, results: list[Result], adapter: Harnessed, seconds: float,
                stale: list[str]) -> bool:
    """--report-json; whether it could not be written."""
    from conformance.report import text as report
    from conformance.run import results as results_mod

    o = plan.options
    if not o.report_json:
        return False
    counts = results_mod.totals(results)
    try:
        report.write_json(o.report_json, report.to_json(results, adapter, counts, seconds,
                                                        stale, plan.level))
    except OSError as error:
        echo(f"t42: the JSON report could not be written to {o.report_json}: "
             f"{error.strerror or error}", err=True)
        return True
    return False


def _write_html(plan: Plan, results: list[Result], adapter: Harnessed) -> bool:
    """--report-html; whether it could not be written."""
    from conformance.book.report import write_report
    from conformance.run import results as results_mod

    o = plan.options
    if not o.report_html:
        return False
    try:
        shots = {r.id: r.pictures for r in results if r.pictures}
        where = write_report(o.report_html, list(o.paths), results, shots, adapter,
                             results_mod.totals(results), plan.level, loaded=plan.loaded)
        echo(f"wrote the HTML report {where}")
    except Exception as error:  # noqa: BLE001 - the run's summary line still comes
        echo(f"t42: the HTML report could not be written ({type(error).__name__}: "
             f"{error})", err=True)
        return True
    return False


def _expected_failures(plan: Plan, path: Path, results: list[Result], stale: list[str]
                       ) -> tuple[list[str], bool]:
    """What the run says of the --expected-failures list, which it rewrites when asked;
    the stale ids left, and whether the list could be rewritten if it was to be."""
    from conformance.report import expected as xf

    o, expected = plan.options, plan.expected
    listed = sum(r.expected_failure for r in results)
    echo(f"\n{len(expected)} expected failures listed in {path}: "
         f"{listed} failed as expected, {len(stale)} now pass")
    for stale_id in stale:
        echo(f"STALE {stale_id} passes but is listed in {path}")
    known = {item.id for item in plan.loaded if item.id is not None}
    for unknown in sorted(set(expected) - known):
        echo(f"note: {path} lists {unknown}, which is not in the corpus")
    if not o.update_expected:
        return stale, True
    try:
        new = xf.update(path, results, expected)
    except OSError as error:
        echo(f"t42: {path} could not be rewritten: {error.strerror or error}", err=True)
        return stale, False
    echo(f"rewrote {path}: {len(new)} entries")
    for r in results:
        r.expected_failure = r.id in new and r.outcome.value in ("failed", "errored")
    return [], True


def book_command(out: Path, paths: Sequence[Path]) -> int:
    from conformance.book.build import build

    _say_source()
    start = time.perf_counter()
    stats = build(out, paths)
    echo(f"wrote {stats.pages} pages ({stats.scenarios} scenarios, {stats.frames} table "
               f"diagrams) to {out}/index.html in {time.perf_counter() - start:.1f} s")
    if stats.skipped_files:
        echo(f"note: {stats.skipped_files} invalid scenario files left out (see t42 check)")
    return 0


def check_command(paths: Sequence[Path]) -> int:
    from conformance.specdata.files import spec_dir
    from conformance.specdata.index import load_index

    _say_source()
    index = load_index()
    problems = [f"spec/{p}" for p in index.problems]
    loaded = suite.load(paths)
    for item in loaded:
        problems += [str(p) for p in item.problems]
    if paths and not loaded:  # a folder named x.yaml, an empty folder: nothing was checked
        problems.append(f"{' '.join(map(str, paths))}: no scenario files (*.yaml) found")
    problems += _errors_md_fresh(spec_dir())
    for line in problems:
        echo(line)
    good = sum(1 for item in loaded if item.scenario is not None)
    files = f"{len(loaded)} scenario file{'' if len(loaded) == 1 else 's'}"
    echo(f"{files} checked ({good} valid), "
               f"{len(index.rules)} rules, {len(index.codes)} error codes: "
               f"{len(problems)} problems")
    return 1 if problems else 0


def _errors_md_fresh(spec: Path) -> list[str]:
    """The generated files of `spec` (conformance.specdata.generate) that are stale."""
    from conformance.specdata.generate import GENERATED

    stale = []
    for name, make in GENERATED.items():
        out = spec / name
        try:
            fresh = out.exists() and out.read_text(encoding="utf-8") == make(spec)
        except Exception as error:  # noqa: BLE001 - a spec the generator cannot read
            stale.append(f"spec/{name}: invalid ({error})")
            continue
        if not fresh:
            stale.append(f"spec/{name}: stale or invalid (run t42 docs)")
    return stale


def docs_command(check_only: bool) -> int:
    from conformance.specdata.files import spec_dir
    from conformance.specdata.generate import generate

    _say_source()
    return generate(spec_dir(), check_only)


def coverage_command(paths: Sequence[Path], base_only: bool, as_json: bool) -> int:
    from conformance.specdata.index import load_index

    index = load_index()
    loaded = suite.load(paths)
    if not as_json:
        _say_source()

    def in_base(rule_id: str) -> bool:
        rule = index.rules.get(rule_id)
        return rule is not None and rule.file == "rules.md"

    rules: dict[str, list[str]] = {r.id: [] for r in index.rules.values()
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
        echo(json.dumps({"rules": rules, "codes": codes, "uncovered": bad}, indent=2))
    else:
        for title, table in (("rule", rules), ("error code", codes)):
            echo(f"{title:18} scenarios")
            for key, ids in table.items():
                shown = ", ".join(ids[:4]) + (f" (+{len(ids) - 4})" if len(ids) > 4 else "")
                echo(f"{key:18} {len(ids):3}  {shown or 'NONE'}")
            echo("")
        invalid = sum(1 for item in loaded if item.scenario is None)
        if invalid:
            echo(f"note: {invalid} invalid scenario files ignored (see t42 check)")
        echo(f"{len(rules)} rules, {len(codes)} error codes: {len(bad)} without a scenario"
                   + (f": {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


def list_command(paths: Sequence[Path], keyword: str | None, rules: Sequence[str],
                 variants: Sequence[str]) -> int:
    from conformance.specdata.files import data_root, display_path

    chosen = suite.select(suite.load(paths), keyword, rules, variants)
    for item in chosen:
        sc = item.scenario
        if sc is None:
            echo(f"INVALID  {display_path(item.path)}")
        else:
            echo(f"{sc.id}  {display_path(sc.path)}  [{', '.join(sc.rules)}]")
    echo(f"t42: {len(chosen)} scenario files listed ({data_root().describe()})")
    return 0


def perft_command(scenario_path: Path | None, seed: int | None, dealer: str | None,
                  depth: int, steps: int | None, adapter_spec: str = "reference",
                  timeout: float = 60.0) -> int:
    """Through an adapter like any run: a scenario's steps (or a seed's setup) are sent,
    then one `perft` request; the divide is printed, then the total."""
    from conformance.adapters.loading import load_adapter
    from conformance.adapters.protocol import AdapterError, Rejected

    if (scenario_path is None) == (seed is None):
        return _fail("give a scenario file or --seed")
    _say_source()
    steps_to_send = _perft_steps(scenario_path, seed, dealer, steps)
    if isinstance(steps_to_send, int):
        return steps_to_send
    try:
        adapter = load_adapter(adapter_spec, timeout)
    except Exception as error:  # noqa: BLE001 - report any failure to build the adapter
        return _fail(f"cannot load adapter {adapter_spec!r}: {type(error).__name__}: {error}")
    try:
        if adapter.broken:
            return _fail(f"{adapter.name} is unusable: {adapter.broken}")
        if "perft" not in adapter.capabilities:
            return _fail(f"{adapter.name} does not declare capability perft")
        for step in steps_to_send:
            method = {"setup": adapter.start, "deal": adapter.deal, "act": adapter.act}
            assert step.kind is not None  # _perft_steps keeps only the steps that send
            try:
                method[step.kind](step.payload)
            except Rejected as refused:
                if step.reject is None:
                    return _fail(f"{step.label} (line {step.line}) is rejected by "
                                 f"{adapter.name}: {refused.code}")
        counts = adapter.perft(depth)
    except AdapterError as error:
        return _fail(f"{adapter.name} broke: {error}")
    finally:
        adapter.close()
    for key, count in counts.get("divide", {}).items():
        echo(f"{key:14} {count}")
    echo(f"total {counts.get('total')}")
    return 0


def _perft_steps(scenario_path: Path | None, seed: int | None, dealer: str | None,
                 steps: int | None) -> list[Step] | int:
    """The steps that reach the position, or an exit status."""
    from conformance.corpus.scenario import Step, load_scenario

    if seed is not None:
        from reference_impl import Match

        view = Match.from_seed(seed, dealer=dealer).view()
        return [Step("--seed", 0, "setup", {"dealer": view["dealer"], "hands": view["hands"]})]
    assert scenario_path is not None  # perft_command: a scenario file or --seed
    loaded = load_scenario(scenario_path)
    if loaded.scenario is None:
        for problem in loaded.problems:
            echo(str(problem), err=True)
        return 1
    chosen, own = [], 0
    for step in loaded.scenario.steps:
        if step.label.startswith("steps["):
            own += 1
            if steps is not None and own > steps:
                break
        if step.kind:
            chosen.append(step)
    return chosen


def bench_command(seconds: float, seed: int) -> int:
    from reference_impl.bench import run_bench

    for name, value in run_bench(seconds=seconds, seed=seed).items():
        echo(f"{name:32} {value:,.1f}")
    return 0
