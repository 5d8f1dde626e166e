"""The `t42` command. Only click is imported at start-up; each command imports its work."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from conformance.adapters.limits import REPLY_BYTES, STDERR_BYTES, TIMEOUT_SECONDS
from conformance.adapters.newadapter import KITS

# The levels of spec/levels.yaml, lowest first (tests/spec checks they agree).
LEVELS = ("rules", "codes", "strict")
PATHS = click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))


def _versions(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from conformance.specdata.versions import versions

    v = versions()
    click.echo(f"t42: suite {v['suite']}, spec {v['spec']}, protocol {v['protocol']}")
    ctx.exit()


def _no_cache(_ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        from conformance.corpus import cache

        cache.disable()


# The commands that load the corpus: each file checked afresh, the loading cache left
# alone (corpus/cache.py; T42_NO_CACHE=1 does the same).
NO_CACHE = click.option("--no-cache", is_flag=True, expose_value=False, callback=_no_cache,
                        help="Load and check every scenario afresh, without the loading "
                             "cache (also T42_NO_CACHE=1).")


class _Group(click.Group):
    """The commands, each run with SIGTERM and SIGHUP taken as Ctrl-C is (stopping.py);
    a command that does not report such a stop itself exits with its status."""

    def invoke(self, ctx: click.Context) -> Any:
        from conformance.adapters import stopping

        cache = sys.modules.get("conformance.corpus.cache")
        if cache is not None:  # a --no-cache of an earlier command in this process ends
            cache.enable()
        with stopping.handled():
            try:
                return super().invoke(ctx)
            except stopping.Stopped as stop:
                from conformance.adapters import tree

                tree.end_all()  # stopped amid an adapter's own shutdown: its tree too
                click.echo(f"t42: stopped by {stop.name}", err=True)
                raise SystemExit(128 + stop.signum) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_versions,
              help="Show the suite, spec and protocol versions.")
def main() -> None:
    """Texas 42 conformance suite: run the scenarios against an implementation."""
    from conformance.specdata.files import data_root

    try:
        data_root()  # which spec/ and scenarios/ (files.py); a bad T42_ROOT stops here
    except FileNotFoundError as error:
        raise click.ClickException(str(error)) from None


@main.command()
@PATHS
@click.option("--adapter", default="reference", show_default=True, envvar="T42_ADAPTER",
              help="reference | python:MODULE:OBJECT | cmd:COMMAND ARGS")
@click.option("-k", "keyword", help="Only scenarios whose id contains this.")
@click.option("--rule", "rules", multiple=True, help="Only scenarios citing this rule ID.")
@click.option("--variant", "variants", multiple=True,
              help="Only scenarios needing this variant option (`base`: none).")
@click.option("--variants", "declared", metavar="LIST",
              help="Narrow the implementation's own declaration to these variant options "
                   "(comma-separated, `all` or `none`, or a JSON list in the form of "
                   "hello's `variants`, protocol.md); it never widens it. Scenarios "
                   "needing any other option or setting are skipped.")
@click.option("--report-json", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a JSON report here.")
@click.option("--report-html", type=click.Path(file_okay=False, path_type=Path),
              help="Write the scenario book with this run's outcomes into this directory.")
@click.option("--expected-failures", type=click.Path(dir_okay=False, path_type=Path),
              help="YAML list of {id, reason} known to fail for this implementation.")
@click.option("--update-expected-failures", is_flag=True,
              help="Rewrite the --expected-failures file from this run.")
@click.option("--timeout", type=click.FloatRange(*TIMEOUT_SECONDS), default=5.0,
              show_default=True,
              help="Seconds to wait for each reply of a cmd: adapter.")
@click.option("--level", type=click.Choice(LEVELS), default="strict", show_default=True,
              help="Judge the checks of this level and below (spec/levels.yaml): rules = "
                   "the game, codes = + the error code of a one-rule rejection, strict = "
                   "+ check order, field values, forms. Checks above it are not judged.")
@click.option("--max-reply-bytes", type=click.IntRange(*REPLY_BYTES), default=1 << 20,
              show_default=True,
              help="Longest reply line of a cmd: or python: adapter; a longer one is errored.")
@click.option("--max-stderr-bytes", type=click.IntRange(*STDERR_BYTES), default=64 << 10,
              show_default=True, help="How much of an adapter's stderr is kept for reports "
                                      "(the newest lines).")
@click.option("--in-process", is_flag=True,
              help="Call a python: adapter in the harness's own process instead of a worker "
                   "process: faster, and a debugger works, but it trusts the adapter: an "
                   "exit in it ends the run, and a call that ignores the watchdog (catches "
                   "BaseException, ignores SIGALRM) hangs it.")
@click.option("-v", "--verbose", is_flag=True,
              help="One line per scenario, and every failure block instead of groups.")
@NO_CACHE
def run(paths: tuple[Path, ...], adapter: str, keyword: str | None, rules: tuple[str, ...],
        variants: tuple[str, ...], declared: str | None, report_json: Path | None,
        report_html: Path | None, expected_failures: Path | None,
        update_expected_failures: bool, timeout: float, level: str, max_reply_bytes: int,
        max_stderr_bytes: int, in_process: bool, verbose: bool) -> None:
    """Run scenarios (default: the whole suite) against an adapter (default: the
    reference engine). The last line is `N passed, N failed, N errored, N skipped,
    N not judged at level L`."""
    from conformance.adapters.limits import Limits
    from conformance.cli.commands import RunOptions, run_command

    limits = Limits(reply_bytes=max_reply_bytes, stderr_bytes=max_stderr_bytes)
    raise SystemExit(run_command(RunOptions(
        tuple(paths), adapter, keyword, tuple(rules), tuple(variants), declared, level,
        report_json, expected_failures, update_expected_failures, timeout, verbose,
        report_html, limits, in_process)))


@main.command()
@PATHS
@click.option("--adapter", "adapters", multiple=True, metavar="[KEY=VALUE ...] ADAPTER",
              help="An engine to run (repeated): reference | python:MODULE:OBJECT | "
                   "cmd:COMMAND ARGS, after its own settings if any: label=NAME level=L "
                   "variants=LIST timeout=SECONDS (e.g. \"label=old level=rules "
                   "cmd:./my42\").")
@click.option("--report-json", "reports_in", multiple=True, metavar="[label=NAME] FILE",
              help="A report `t42 run --report-json` already wrote (repeated): a column "
                   "read, not run, at the level it was run at.")
@click.option("-k", "keyword", help="Only scenarios whose id contains this.")
@click.option("--rule", "rules", multiple=True, help="Only scenarios citing this rule ID.")
@click.option("--variant", "variants", multiple=True,
              help="Only scenarios needing this variant option (`base`: none).")
@click.option("--variants", "declared", metavar="LIST",
              help="As `t42 run --variants`, for every engine without its own variants=.")
@click.option("--level", type=click.Choice(LEVELS), default="strict", show_default=True,
              help="The level of every engine without its own level=.")
@click.option("--timeout", type=click.FloatRange(*TIMEOUT_SECONDS), default=5.0,
              show_default=True, help="Seconds per reply, for every engine without its own "
                                      "timeout=.")
@click.option("--max-reply-bytes", type=click.IntRange(*REPLY_BYTES), default=1 << 20,
              show_default=True, help="As `t42 run --max-reply-bytes`.")
@click.option("--max-stderr-bytes", type=click.IntRange(*STDERR_BYTES), default=64 << 10,
              show_default=True, help="As `t42 run --max-stderr-bytes`.")
@click.option("--in-process", is_flag=True,
              help="As `t42 run --in-process`, for the python: engines (each run is still "
                   "a process of its own).")
@click.option("--engine-seconds", type=click.FloatRange(*TIMEOUT_SECONDS), default=3600.0,
              show_default=True,
              help="Wall time of one engine's whole run; past it the run is stopped and "
                   "the scenarios it had not reached are missing from its column.")
@click.option("-j", "--jobs", type=click.IntRange(0), default=0, show_default=True,
              help="Engines run at once (0: one per core).")
@click.option("--baseline", metavar="LABEL",
              help="Compare every other engine with this one: what newly fails, what "
                   "newly passes (two versions of one engine). Exit 1 if anything newly "
                   "fails.")
@click.option("--html", type=click.Path(file_okay=False, path_type=Path),
              help="Write the HTML page into this directory.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the summary here (spec/schemas/compare.schema.json).")
@click.option("--badges", type=click.Path(file_okay=False, path_type=Path),
              help="Write a shields.io endpoint badge per engine into this directory.")
@click.option("--reports", type=click.Path(file_okay=False, path_type=Path),
              help="Keep each engine's `t42 run` report and output in this directory.")
def compare(paths: tuple[Path, ...], adapters: tuple[str, ...], reports_in: tuple[str, ...],
            keyword: str | None, rules: tuple[str, ...], variants: tuple[str, ...],
            declared: str | None, level: str, timeout: float, max_reply_bytes: int,
            max_stderr_bytes: int, in_process: bool, engine_seconds: float, jobs: int,
            baseline: str | None, html: Path | None, json_out: Path | None,
            badges: Path | None, reports: Path | None) -> None:
    """Run several engines over the same scenarios (each by `t42 run`, in parallel), or
    read their reports, and compare them: a matrix of rule areas by engine, each engine's
    causes, the scenarios they disagree on; with --baseline, what changed."""
    from conformance.compare.command import CompareOptions, compare_command
    from conformance.compare.engines import RunSettings, parse_engine

    try:
        engines = [parse_engine(a, level, declared, timeout) for a in adapters]
        engines += [parse_engine(r, level, None, timeout, from_file=True) for r in reports_in]
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    for engine in engines:
        if engine.level not in LEVELS:
            raise click.BadParameter(f"level={engine.level}: one of {', '.join(LEVELS)}")
        if not TIMEOUT_SECONDS[0] <= engine.timeout <= TIMEOUT_SECONDS[1]:
            raise click.BadParameter(f"timeout={engine.timeout:g}: not in the range "
                                     f"{TIMEOUT_SECONDS[0]} to {TIMEOUT_SECONDS[1]:g}")
    settings = RunSettings(tuple(paths), keyword, tuple(rules), tuple(variants),
                           max_reply_bytes, max_stderr_bytes, in_process, engine_seconds)
    raise SystemExit(compare_command(CompareOptions(
        tuple(engines), settings, jobs, html, json_out, badges, reports, baseline)))


@main.command()
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@PATHS
@NO_CACHE
def book(out: Path, paths: tuple[Path, ...]) -> None:
    """Write the scenario book into OUT: every rule linked to its scenarios, every scenario
    drawn step by step on the reference engine's table (static HTML + SVG, no server)."""
    from conformance.cli.commands import book_command

    raise SystemExit(book_command(out, paths))


@main.command()
@PATHS
@NO_CACHE
def check(paths: tuple[Path, ...]) -> None:
    """Lint scenarios (schema, rule IDs, error codes, deals, ids) and the spec index."""
    from conformance.cli.commands import check_command

    raise SystemExit(check_command(paths))


@main.command()
@PATHS
@click.option("--base", is_flag=True,
              help="Only the base game: rules of rules.md, codes citing one of them.")
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON.")
@NO_CACHE
def coverage(paths: tuple[Path, ...], base: bool, as_json: bool) -> None:
    """Rule ID -> scenarios and error code -> scenarios; fails if one has none."""
    from conformance.cli.commands import coverage_command

    raise SystemExit(coverage_command(paths, base, as_json))


@main.command("list")
@PATHS
@click.option("-k", "keyword", help="Only scenarios whose id contains this.")
@click.option("--rule", "rules", multiple=True, help="Only scenarios citing this rule ID.")
@click.option("--variant", "variants", multiple=True, help="Only scenarios needing this option.")
@NO_CACHE
def list_(paths: tuple[Path, ...], keyword: str | None, rules: tuple[str, ...],
          variants: tuple[str, ...]) -> None:
    """List scenarios: id, file, rules."""
    from conformance.cli.commands import list_command

    raise SystemExit(list_command(paths, keyword, rules, variants))


@main.command()
@click.option("--adapter", default="reference", show_default=True,
              help="The in-process adapter to serve: reference | python:MODULE:OBJECT")
def serve(adapter: str) -> None:
    """Serve the reference engine (or an in-process adapter) over the JSON-lines protocol
    on stdin/stdout (spec/protocol.md)."""
    from conformance.adapters.inprocess import unusable
    from conformance.adapters.loading import python_object
    from conformance.adapters.reference import ReferenceAdapter
    from conformance.adapters.server import serve as serve_forever
    from conformance.cli.commands import _say_source

    kind, _, target = adapter.partition(":")
    if adapter != "reference" and kind != "python":
        raise click.BadParameter("reference or python:MODULE:OBJECT", param_hint="--adapter")
    _say_source(err=True)  # stdout is the protocol
    if adapter == "reference":
        raise SystemExit(serve_forever(ReferenceAdapter(), batched=True))
    try:
        obj = python_object(target)
        problem = unusable(obj)
    except Exception as error:  # noqa: BLE001 - an import may raise anything
        obj, problem = None, f"cannot load {adapter}: {type(error).__name__}: {error}"
    if problem:
        # one line for the person, and every request answered t42.unusable with it, so
        # that the harness at the other end reports it too (as the worker does)
        from conformance.report.safe import echo

        echo(f"t42 serve: {problem}", err=True)
        raise SystemExit(serve_forever(None, unusable=problem) or 2)
    raise SystemExit(serve_forever(obj))


@main.command("new-adapter")
@click.argument("lang", type=click.Choice(list(KITS)))
@click.argument("dest", type=click.Path(file_okay=False, path_type=Path))
def new_adapter(lang: str, dest: Path) -> None:
    """Write a starting adapter in LANG into DEST (absent or empty) from the kit: the
    protocol loop done, the wire types, and an example engine to replace with yours."""
    from conformance.adapters.newadapter import AFTER_THE_EXAMPLE, next_steps
    from conformance.adapters.newadapter import new_adapter as write
    from conformance.report.safe import echo  # DEST is echoed: its escapes are not run

    try:
        files = write(lang, dest)
    except ValueError as error:  # a folder in use, a kit missing: as click's usage errors
        echo(f"Error: {error}", err=True)
        raise SystemExit(1) from None
    except OSError as error:  # under a file, a dangling link, a place not writable
        echo(f"t42 new-adapter: cannot write {dest}: {error.strerror or error}"
             f"{f' ({error.filename})' if error.filename else ''}", err=True)
        raise SystemExit(2) from None
    echo(f"wrote {len(files)} files into {dest} (its README.md says what each is); next:")
    for step in next_steps(lang, dest):
        echo(f"  {step}")
    echo(AFTER_THE_EXAMPLE)


@main.command()
@click.option("--adapter", required=True, envvar="T42_ADAPTER",
              help="python:MODULE:OBJECT | cmd:COMMAND ARGS (or reference)")
@click.option("--timeout", type=click.FloatRange(*TIMEOUT_SECONDS), default=5.0,
              show_default=True, help="Seconds to wait for each reply of a cmd: adapter.")
def doctor(adapter: str, timeout: float) -> None:
    """A first check of an adapter: the handshake and a few short sessions that send
    every command, each protocol or form mistake named with its fix. No rule is judged."""
    import shlex

    from conformance.adapters.doctor import diagnose
    from conformance.adapters.loading import load_adapter
    from conformance.adapters.newadapter import FIRST_RUN
    from conformance.report.safe import echo

    try:
        harnessed = load_adapter(adapter, timeout=timeout)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--adapter") from None
    # an adapter that did not start has told nothing of itself: the line under names why
    echo(f"t42 doctor: {adapter}" if harnessed.broken and harnessed.version == "?" else
         f"t42 doctor: {harnessed.name} {harnessed.version} ({adapter})")
    try:  # each mistake printed as it is found: a long check shows its progress
        found = diagnose(harnessed, say=lambda line: echo(f"  {line}"))
    finally:
        harnessed.close()
    for line in found.counted():
        echo(f"  {line}")
    for line in found.notes:
        echo(f"  note: {line}")
    if found.total:
        echo(f"{found.total:,} protocol or form mistake(s): fix these before `t42 run`")
        raise SystemExit(1)
    echo(f"no protocol or form mistake: next, {FIRST_RUN} {shlex.quote(adapter)}")


@main.command()
@click.argument("scenario", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--seed", type=int, help="A random deal from this seed instead of a scenario.")
@click.option("--dealer", type=click.Choice(list("ABCD")), help="Dealer for --seed.")
@click.option("--depth", type=click.IntRange(0, 33), default=2, show_default=True,
              help="0..33: a round has at most 33 actions.")
@click.option("--steps", type=click.IntRange(0),
              help="Play only the first N of the scenario's own steps.")
@click.option("--adapter", default="reference", show_default=True, envvar="T42_ADAPTER",
              help="The implementation that counts (capability perft): reference | "
                   "python:MODULE:OBJECT | cmd:COMMAND ARGS")
@click.option("--timeout", type=click.FloatRange(*TIMEOUT_SECONDS), default=60.0,
              show_default=True,
              help="Seconds to wait for each reply of a cmd: or python: adapter.")
def perft(scenario: Path | None, seed: int | None, dealer: str | None, depth: int,
          steps: int | None, adapter: str, timeout: float) -> None:
    """Count legal action sequences from a scenario's position or a seed's deal (dealt by
    the reference engine), through an adapter (default: the reference engine)."""
    from conformance.cli.commands import perft_command

    raise SystemExit(perft_command(scenario, seed, dealer, depth, steps, adapter, timeout))


@main.command()
@click.option("--adapter", required=True, envvar="T42_ADAPTER",
              help="python:MODULE:OBJECT | cmd:COMMAND ARGS (compared with the reference).")
@click.option("--games", type=click.IntRange(0), default=200, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--shard", metavar="I/N",
              help="Only the I-th of N ranges of the seeds (a part of a campaign).")
@click.option("--deal", type=click.Choice(["hands", "order"]), default="hands",
              show_default=True, help="Deal every round as `hands` or as an `order` (DEAL-02).")
@click.option("--level", type=click.Choice(["rules", "codes", "strict"]), default="strict",
              show_default=True, help="Judge every comparison as `t42 run --level` does "
              "(spec/levels.yaml); a difference above it is counted as not judged.")
@click.option("--illegal-rate", type=click.FloatRange(0, 1), default=0.2, show_default=True,
              help="Share of steps that send a random, often illegal, action.")
@click.option("--rounds", type=click.IntRange(1), default=3, show_default=True,
              help="Rounds per match.")
@click.option("--timeout", type=click.FloatRange(*TIMEOUT_SECONDS), default=5.0,
              show_default=True,
              help="Seconds to wait for each reply of a cmd: adapter.")
@click.option("--variants", "variants_json", metavar="JSON",
              help='Variant options for every match, e.g. \'{"nello": true}\' (default: base).')
@click.option("--save", type=click.Path(file_okay=False, path_type=Path),
              help="Write each new cause, shrunk, as a scenario file in DIR.")
@click.option("--no-shrink", is_flag=True, help="Report divergences as found, unshrunk.")
@click.option("--known", multiple=True, type=click.Path(exists=True, path_type=Path),
              metavar="FILE_OR_DIR",
              help="Causes already known: saved cases (a file or folder), or a text file of "
                   "rule IDs or `RULE: what` lines. Counted, not shrunk or saved again.")
@click.option("-j", "--jobs", default="1", show_default=True, metavar="N|auto",
              help="Play the games in N worker processes (auto: one per core); the same "
                   "causes and saved cases as one process.")
@click.option("--in-process", is_flag=True,
              help="Call a python: adapter in this process (and each worker), not in a "
                   "process of its own: faster, but it trusts the adapter.")
def fuzz(adapter: str, games: int, seed: int, shard: str | None, deal: str, level: str,
         illegal_rate: float, rounds: int, timeout: float, variants_json: str | None,
         save: Path | None, no_shrink: bool, known: tuple[Path, ...], jobs: str,
         in_process: bool) -> None:
    """Differential fuzzing: seeded random matches played through ADAPTER and the
    reference engine, compared after every step; each divergence is shrunk to a minimal
    case. `-j N` plays them on N cores, `--shard K/N` one part of N (docs/fuzzing.md)."""
    from conformance.cli.commands import _say_source
    from conformance.fuzz.campaign import fuzz_command
    from conformance.fuzz.parallel import jobs_of

    try:
        processes = jobs_of(jobs)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="-j") from None
    _say_source()
    raise SystemExit(fuzz_command(
        adapter, games=games, seed=seed, illegal_rate=illegal_rate, rounds=rounds,
        timeout=timeout, variants_json=variants_json, deal=deal, level=level, save=save,
        shard=shard, shrink=not no_shrink, known=known, jobs=processes,
        in_process=in_process))


@main.command()
@click.option("--seconds", type=float, default=2.0, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
def bench(seconds: float, seed: int) -> None:
    """Benchmark the reference engine (reference_impl.bench)."""
    from conformance.cli.commands import bench_command

    raise SystemExit(bench_command(seconds, seed))


@main.command()
@PATHS
@click.option("-k", "keyword", help="Only bugs whose name contains this.")
@click.option("-j", "--jobs", type=int, default=1, show_default=True,
              help="Worker processes (fork), one bug at a time each.")
@click.option("--full", is_flag=True, help="Run every bug over every scenario (no stop at "
              "the first catch): how many scenarios catch each, and every crash of a plant.")
@click.option("--show", type=int, default=3, show_default=True,
              help="Catching ids shown per bug.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--list", "list_only", is_flag=True, help="List the planted bugs and stop.")
@NO_CACHE
def selftest(paths: tuple[Path, ...], keyword: str | None, jobs: int, full: bool, show: int,
             as_json: bool, list_only: bool) -> None:
    """Run the scenarios against every planted-bug engine; each must fail at least one
    scenario the reference engine passes."""
    from conformance.cli.commands import _say_source
    from conformance.planted.selftest import selftest_command

    if not list_only:  # --list reads no scenario
        _say_source(err=as_json)  # stdout is then the JSON report
    raise SystemExit(selftest_command(paths, keyword, jobs, full, show, as_json, list_only))


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Fail if a generated file is stale.")
def docs(check_only: bool) -> None:
    """Regenerate the files made from the spec: spec/errors.md (tools/gen_errors_md.py) and
    spec/schemas/spec-enums.schema.json (tools/gen_schema_enums.py)."""
    from conformance.cli.commands import docs_command

    raise SystemExit(docs_command(check_only))


if __name__ == "__main__":
    main()
