"""`t42 book OUT/`: the spec's rules and every scenario as a static site (Jinja2 + SVG).

With a run's results (`t42 run --report-html DIR`, `pytest --t42-report-html DIR`) the same
pages carry each scenario's outcome; a failing scenario opens at the failing step with the
reference engine's table and the implementation's side by side.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from conformance.adapters.limits import cut
from conformance.book import KEPT_STEPS_CHARS, compliance, drawing, words
from conformance.book.house_rules import house_rules
from conformance.book.replay import Frame, replay
from conformance.corpus.scenario import Scenario
from conformance.report.outputs import replace
from conformance.run.pictures import OBSERVE_KINDS, REFUSAL_KINDS
from conformance.specdata.files import display_path
from conformance.specdata.index import SpecIndex, load_index

RULE_AREA = re.compile(r"^([A-Z]+)-\d+$")
SECTION_AREAS = re.compile(r"\(([A-Z, ]+)\)\s*$")


@dataclass
class BookStats:
    out: Path
    scenarios: int
    frames: int
    pages: int
    skipped_files: int


def inline_md(text: str) -> Markup:
    """The inline Markdown of a rule's text: `code` and **bold**, everything escaped."""
    html = str(escape(text))
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", html)
    html = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", html)
    html = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", html)
    return Markup(html)


def rule_links(html: Markup) -> Markup:
    """Each rule ID of the spec in an HTML text, a link to its entry on the rules page."""
    known = load_index().rules
    return Markup(RULE_ID.sub(lambda m: (f'<a class="rule-link" href="rules.html#{m[0]}">'
                                         f"{m[0]}</a>" if m[0] in known else m[0]),
                              str(html)))


RULE_ID = re.compile(r"\b[A-Z]+-\d\d\b")


def environment():  # -> jinja2.Environment
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("conformance.book", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["inline_md"] = inline_md
    env.filters["rule_links"] = rule_links
    tile = env.get_template("tile.svg.j2")

    @lru_cache(maxsize=20000)
    def tile_svg(one: drawing.Tile) -> Markup:
        """A tile drawn once per place and face: the same tile recurs in many frames."""
        return Markup(tile.render(tile=one))

    env.filters["tile_svg"] = tile_svg
    return env


def _figures() -> dict[str, list[dict[str, Any]]]:
    text = resources.files("conformance.book").joinpath("doc000_figures.yaml").read_text(
        encoding="utf-8")
    from conformance.specdata.yamlload import load_yaml

    data, _, problems = load_yaml(text)  # the one YAML loader, whatever the file
    if problems:
        raise ValueError(f"doc000_figures.yaml:{problems[0][0]}: {problems[0][2]}")
    return data or {}


def _causes(results: list[Any]) -> list[dict[str, Any]]:
    """The run's failures grouped by cause, as `t42 run` prints them: the index leads
    with them, before the compliance table."""
    from conformance.report.text import groups

    return [{"rule": g.rule, "what": g.what, "level": g.level, "count": len(g.members),
             "ids": g.ids, "ways": g.ways[1:], "expected": g.expected, "also": g.also,
             "either": g.either, "through": g.through}
            for g in groups(list(results))]


def _areas(index: SpecIndex) -> dict[str, str]:
    """Rule area prefix -> the title of the section it sits in."""
    out: dict[str, str] = {}
    for rule in index.rules.values():
        area = _area(rule.id)
        title = SECTION_AREAS.sub("", rule.section).strip()
        title = re.sub(r"^\d+\.\s*", "", title)
        out.setdefault(area, title or area)
    return dict(sorted(out.items()))


def _area(rule_id: str) -> str:
    """The area of a rule of the index (`BID` of BID-02): the index keeps only IDs of
    that form (specdata.index.RULE_ID)."""
    match = RULE_AREA.match(rule_id)
    assert match is not None, rule_id
    return match.group(1)


def _frame_context(frame: Frame, code_text: dict[str, str], title: str) -> dict[str, Any]:
    told = [words.step_words(s) for s in frame.steps[:-1] if s.kind]
    step = frame.step
    return {
        "anchor": frame.anchor, "label": frame.label, "line": frame.line,
        "before": told,
        "action": words.step_words(step), "must": words.outcome_words(step, code_text),
        "expect": words.expectation_words(step.expect), "problem": frame.problem,
        "diagram": drawing.table(frame.view, frame.covered, frame.completed,
                                 f"{title}: the table after {frame.label}"),
        "failed": False, "unjudged": False, "unreached": False, "stopped_here": False,
        "failures": [], "not_judged": [], "actual": None, "actual_note": "", "what": "",
        "what_note": "",
    }


def _doc_figures(sc: Scenario, frames: list[Frame], wanted: list[dict[str, Any]]):
    """Document 000's figures: a seat's observation at the figure's step (all four seats
    see the same public table there), the trick just completed when the figure shows it."""
    out = []
    by_label = {f.label: f for f in frames}
    for fig in wanted:
        frame = by_label.get(fig["step"])
        if frame is None or frame.observation is None or frame.view is None:
            raise ValueError(f"conformance/book/doc000_figures.yaml: {sc.id} has no drawn "
                             f"step {fig['step']} with a match running")
        seen = frame.observation
        if fig.get("trick_from_tricks") and frame.view.get("tricks"):
            seen = {**seen, "trick": frame.view["tricks"][-1]["plays"]}
        out.append({**fig, "anchor": frame.anchor,
                    "diagram": drawing.figure(seen, fig["title_en"])})
    return out


def _detail(d: dict[str, Any], judged: bool) -> dict[str, Any]:
    """One failure (or difference above the level) as a frame lists it."""
    diffs = [{"path": x.get("path"), "expected": words.compact(x.get("expected")),
              "actual": words.compact(x.get("actual")), "note": x.get("note", "")}
             for x in d.get("differences") or []]
    return {"message": d.get("message", ""), "step": d.get("step"), "line": d.get("line"),
            "kind": d.get("kind", ""), "level": d.get("level", ""), "rule": d.get("rule", ""),
            "differences": diffs, "stderr": d.get("stderr", ""),
            "problems": d.get("problems") or [], "judged": judged, "error": False}


def _step_index(sc: Scenario, d: dict[str, Any], shot_steps: dict[str, Any]) -> int | None:
    """The step a detail names (label and line); of the contract shortcut's actions, which
    share one label and line, the one the capture saw fail."""
    found = [i for i, step in enumerate(sc.steps)
             if step.label == d.get("step") and d.get("line") in (None, step.line)]
    seen = [i for i in found if str(i) in shot_steps]
    return next(iter(seen or found), None)


def _run_marks(sc: Scenario, result: dict[str, Any] | None,
               shot: dict[str, Any] | None) -> dict[str, Any] | None:
    """What a run found in a scenario: its failures and the differences above the level,
    each at its step; the errored step; the step where the run stopped, if it did."""
    if not result or result.get("outcome") not in ("failed", "errored", "not judged"):
        return None
    shot_steps = dict((shot or {}).get("steps") or {})
    found = [(_detail(d, True)) for d in result.get("failures") or []]
    found += [_detail(d, False) for d in result.get("not_judged") or []]
    error = None
    if result["outcome"] == "errored":
        error = _detail(result.get("detail") or {}, True)
        error["error"] = True
        found.append(error)
    at: dict[int, list[dict[str, Any]]] = {}
    unplaced: list[dict[str, Any]] = []
    for d in found:
        index = _step_index(sc, d, shot_steps)
        d["index"] = index
        (at.setdefault(index, []) if index is not None else unplaced).append(d)
    stop = None
    if error is not None:
        stop = error["index"]
    elif result.get("stopped"):
        stop = max(at, default=None)
    label = sc.steps[stop].label if stop is not None else ""
    why = "where the implementation errored" if error is not None else (
        "where the states diverged")
    return {"outcome": result["outcome"], "at": at, "unplaced": unplaced, "stop": stop,
            "stop_label": label, "stop_why": why,
            "stopped": result.get("stopped", ""), "shots": shot_steps,
            "captured": shot is not None, "details": found}


# A real scenario draws a few dozen steps; a valid 1 MiB file can hold 10,000 (a 66 MB
# page and 470 MB to build it): a page draws at most this many, and says so.
MAX_FRAMES = 300


def scenario_page(sc: Scenario, index: SpecIndex, code_text: dict[str, str],
                  result: dict[str, Any] | None, shot: dict[str, Any] | None,
                  figures: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                          dict[str, Any] | None, list]:
    marks = _run_marks(sc, result, shot)
    frames = replay(sc, set(marks["at"]) if marks else set())
    left = max(len(frames) - MAX_FRAMES, 0)
    del frames[MAX_FRAMES:]  # a page's size and the book's memory stay bounded
    contexts = [_frame_context(f, code_text, sc.title) for f in frames]
    if marks:
        anchors = {}
        for f, ctx in zip(frames, contexts, strict=True):
            anchors[f.index] = f.anchor
            _mark_frame(sc, f, ctx, marks)
        for d in marks["details"]:
            d["anchor"] = anchors.get(d["index"], "top")
        failing = [d for d in marks["details"] if d["judged"]]
        marks["first"] = (failing or marks["details"] or [{"anchor": "top"}])[0]
        marks["steps"] = list(dict.fromkeys(
            (d["anchor"], d["step"] or "the start") for d in failing if d["index"] is not None))
        marks["unjudged_steps"] = list(dict.fromkeys(
            (d["anchor"], d["step"]) for d in marks["details"]
            if not d["judged"] and d["index"] is not None))
    doc = _doc_figures(sc, frames, figures) if figures else []
    summary = _summary(sc, index, result)
    summary["frames_left"] = left
    return summary, contexts, marks, doc


def _mark_frame(sc: Scenario, f: Frame, ctx: dict[str, Any], marks: dict[str, Any]) -> None:
    """A frame's failures, its differences above the level, the implementation's table
    there; grey when the run stopped before it."""
    here = marks["at"].get(f.index, [])
    ctx["failures"] = [d for d in here if d["judged"]]
    ctx["not_judged"] = [d for d in here if not d["judged"]]
    ctx["failed"] = bool(ctx["failures"])
    ctx["unjudged"] = bool(ctx["not_judged"]) and not ctx["failed"]
    ctx["stopped_here"] = marks["stop"] == f.index
    ctx["unreached"] = marks["stop"] is not None and f.index > marks["stop"]
    if not here:
        return
    shot = marks["shots"].get(str(f.index))
    note = ""
    if shot:
        try:
            _draw_what_failed(sc, f, ctx, shot, {d["kind"] for d in here})
        except Exception as error:  # noqa: BLE001 - a view of the wrong shape: say so
            ctx["actual"] = None
            note = (f"the implementation's view could not be drawn ({type(error).__name__}: "
                    f"{cut(str(error), 200)}); see the failure above")
    if shot:
        ctx["actual_note"] = note or shot.get("note", "")
    elif ctx["failed"]:
        ctx["actual_note"] = ("the implementation's answers were not kept in this run"
                              if not marks["captured"] else
                              "the implementation's answers were not kept at this step")


def _draw_what_failed(sc: Scenario, f: Frame, ctx: dict[str, Any], shot: dict[str, Any],
                      kinds: set[str]) -> None:
    """The pictures of a failing step, expected beside actual, of what the check read:
    a seat's observation where it failed, the legal actions marked on the table where
    they did, the position a step was tried in where its acceptance or code did, else
    the referee's table. Each side is drawn from what its engine answered, so the two
    differ where the implementation did."""
    title = f"{sc.title}: the implementation's table at {f.label}"
    observed = shot.get("observe") or {}
    seat = next(iter(observed), None)
    if kinds & OBSERVE_KINDS and seat in f.seen:
        ctx["what"] = f"what {seat} is shown"
        ctx["diagram"] = drawing.observation_table(f.seen[seat], seat,
                                                   f"{sc.title}: what {seat} should be shown")
        ctx["actual"] = drawing.observation_table(observed[seat], seat,
                                                  f"{sc.title}: what the implementation "
                                                  f"shows {seat} at {f.label}")
        others = [s for s in observed if s != seat]
        if others:  # one seat is drawn; the others' differences are listed below
            many = len(others) > 1
            ctx["what_note"] = (f"The observation{'s' if many else ''} of {', '.join(others)} "
                                f"also failed here ({'their' if many else 'its'} differences "
                                f"are listed below); {seat}'s is drawn.")
        return
    view = shot.get("view")
    if "legal" in kinds and isinstance(shot.get("legal"), list) and view is not None:
        mine, due = shot["legal"], f.legal
        ctx["what"] = "legal actions, marked"
        ctx["diagram"] = drawing.table(f.view, f.covered, f.completed, ctx["diagram"].title,
                                       drawing.legal_marks(due), _legal_notes(due, None))
        ctx["actual"] = drawing.table(view, drawing_covered(view), f.completed, title,
                                      drawing.legal_marks(mine, due), _legal_notes(mine, due))
        return
    if kinds & REFUSAL_KINDS and "answer" in shot and f.step.kind == "act":
        action = f.step.payload if isinstance(f.step.payload, dict) else {}
        tried = {action["tile"]: "tried"} if isinstance(action.get("tile"), str) else {}
        said = words.step_words(f.step)
        owed = f"refused with {f.refused}" if f.refused else "accepted"
        got = f"refused with {shot['answer']}" if shot["answer"] else "accepted"
        before = shot.get("before") or view  # its view before the step, else as it refused
        ctx["what"] = "the position the step was tried in"
        ctx["diagram"] = drawing.table(f.before, drawing_covered(f.before or {}), False,
                                       f"{sc.title}: the position {f.label} was tried in",
                                       tried, [f"{said}: {owed}"])
        if before is not None:
            ctx["actual"] = drawing.table(before, drawing_covered(before), False,
                                          f"{title} (before the step)", tried,
                                          [f"{said}: {got}"])
        return
    if view is not None:
        ctx["actual"] = drawing.table(view, drawing_covered(view), f.completed, title)


def _legal_notes(actions: list[Any], due: list[Any] | None) -> list[str]:
    """The legal actions in words on the felt: how many, and (against `due`) which are
    missing or extra, the ones that are not tiles by name."""
    key = words.compact
    have = {key(a): a for a in actions}
    if due is None:
        return [f"{len(actions)} legal action{'s' if len(actions) != 1 else ''}"]
    want = {key(a): a for a in due}
    missing = [a for k, a in want.items() if k not in have]
    extra = [a for k, a in have.items() if k not in want]
    notes = [f"{len(actions)} legal actions listed, {len(due)} due"]
    for what, those in (("missing", missing), ("extra", extra)):
        if those:
            shown = ", ".join(words.action_words(a) if isinstance(a, dict) else key(a)
                              for a in those[:3])
            more = f" (+{len(those) - 3})" if len(those) > 3 else ""
            notes.append(f"{what}: {shown}{more}")
    return notes


def _undrawn(contexts: list[dict[str, Any]], error: Exception) -> None:
    """The implementation's tables of a page that could not be drawn, each replaced by a
    note that says why (the reference's tables need nothing from the implementation)."""
    note = (f"the implementation's view could not be drawn ({type(error).__name__}: "
            f"{cut(str(error), 200)}); see the failure above")
    for ctx in contexts:
        if ctx.get("actual") is not None:
            ctx["actual"], ctx["actual_note"] = None, note


def drawing_covered(view: dict[str, Any]) -> list[int]:
    """VIS-06 from a referee view alone: in a marks contract with stacks, all but the last
    `stacks` completed tricks are covered (as the runner's leak check computes it)."""
    contract, tricks = view.get("contract") or {}, view.get("tricks") or []
    stacks = contract.get("stacks") if isinstance(contract, dict) else None
    if view.get("phase") != "playing" or not stacks or "marks" not in (contract.get("bid") or {}):
        return []
    return [t.get("number") for t in tricks[: max(0, len(tricks) - stacks)]]


def _summary(sc: Scenario, index: SpecIndex, result: dict[str, Any] | None) -> dict[str, Any]:
    codes = sorted({s.reject for s in sc.steps if s.reject})
    return {
        "id": sc.id, "title": sc.title, "description": sc.description, "rules": list(sc.rules),
        "areas": sorted({m.group(1) for r in sc.rules if (m := RULE_AREA.match(r))}),
        "variant_keys": sorted(sc.variants) or ["base"], "codes": codes,
        "path": display_path(sc.path), "href": f"scenarios/{sc.id}.html",
        "outcome": (result or {}).get("outcome", ""),
        "outcome_class": (result or {}).get("outcome", "").replace(" ", "-"),
        "reason": (result or {}).get("reason", ""),
    }


def write_assets(out: Path) -> None:
    """The stylesheet and script every page of `out` loads, into `out/assets`."""
    assets = out / "assets"
    assets.mkdir(exist_ok=True)
    for name in ("book.css", "book.js"):
        src = resources.files("conformance.book").joinpath("static").joinpath(name)
        replace(assets / name, src.read_text(encoding="utf-8"))


def build(out: Path, paths: Sequence[Path] = (), results: list[dict[str, Any]] | None = None,
          shots: dict[str, dict[str, Any]] | None = None,
          run: dict[str, Any] | None = None, loaded: list[Any] | None = None) -> BookStats:
    """Write the site into `out`. `results`: Result.to_json() of a run; `shots`: what the
    implementation answered at each failing step, kept as the run judged it
    (Result.pictures, conformance.run.pictures), by id;
    `loaded`: the scenarios as the run read them (else `paths` are read now)."""
    from conformance.corpus import select
    from conformance.specdata.files import data_root, spec_dir
    from conformance.specdata.versions import versions

    index = load_index()
    if loaded is None:
        loaded = select.load(list(paths))
    scenarios = [item.scenario for item in loaded if item.scenario is not None]
    by_id = {r["id"]: r for r in results or []}
    shots = shots or {}
    code_text = _code_text()
    figures = _figures()
    env = environment()
    out.mkdir(parents=True, exist_ok=True)
    (out / "scenarios").mkdir(exist_ok=True)
    write_assets(out)
    # the kind of source, not its path: a page must not show the builder's file system
    common = {"versions": versions(), "source": f"the {data_root().kind}", "run": run,
              "faces": drawing.faces()}
    page = env.get_template("scenario.html.j2")
    summaries, frames = [], 0
    rule_text = {r.id: r.text for r in index.rules.values()}
    not_run = 0
    if run is not None:  # a run's report: a page for each scenario that ran, none else
        not_run = sum(1 for sc in scenarios if sc.id not in by_id)
        scenarios = [sc for sc in scenarios if sc.id in by_id]
    for sc in scenarios:
        if run is not None and by_id[sc.id].get("outcome") == "skipped":
            summary = _summary(sc, index, by_id[sc.id])  # listed, with why, but not drawn
            summary["href"] = None
            summaries.append(summary)
            continue
        cut_short = (run or {}).get("steps_not_kept", {}).get(sc.id, 0)
        labels = {step.label for step in sc.steps}
        wanted = [fig for fig in figures.get(sc.id, []) if not cut_short or fig["step"] in labels]
        summary, contexts, marks, doc = scenario_page(
            sc, index, code_text, by_id.get(sc.id), shots.get(sc.id), wanted)
        frames += len(contexts)
        summary["steps_not_kept"] = cut_short
        summary["kept_chars"] = KEPT_STEPS_CHARS
        summaries.append(summary)
        try:
            html = page.render(root="../", sc=summary, frames=contexts, marks=marks,
                               figures=doc, rule_text=rule_text, **common)
        except Exception as error:  # noqa: BLE001 - an implementation's table of odd parts
            _undrawn(contexts, error)  # (tiles as lists): the page, saying why, not no report
            html = page.render(root="../", sc=summary, frames=contexts, marks=marks,
                               figures=doc, rule_text=rule_text, **common)
        replace(out / "scenarios" / f"{sc.id}.html", html)
    areas = _areas(index)
    citing: dict[str, list[str]] = {}
    for summary in summaries:
        if not summary["href"]:  # no page to link to (skipped in this run)
            continue
        for rule in summary["rules"]:
            citing.setdefault(rule, []).append(summary["id"])
    sections = _sections(index, citing)
    variants = sorted(index.variants)
    codes = list(code_text)
    rules_count = sum(1 for r in index.rules.values() if not r.withdrawn)
    invalid = [{"path": display_path(item.path), "problems": [str(p) for p in item.problems]}
               for item in loaded if item.scenario is None]
    table = compliance.table(run["results"], run["level"], areas) if run else None
    causes = _causes(run["results"]) if run else []
    index_html = env.get_template("index.html.j2").render(causes=causes,
        root="", scenarios=summaries, areas=[{"key": k, "name": v} for k, v in areas.items()],
        variants=variants, codes=codes, rules_count=rules_count, invalid=invalid,
        compliance=table, not_run=not_run, **common)
    replace(out / "index.html", index_html)  # never through a planted link
    rules_html = env.get_template("rules.html.j2").render(root="", sections=sections, **common)
    replace(out / "rules.html", rules_html)
    house = house_rules(spec_dir() / "variants.md")
    house_html = env.get_template("house_rules.html.j2").render(root="", house=house, **common)
    replace(out / "house-rules.html", house_html)
    return BookStats(out, len(scenarios), frames, len(scenarios) + 3,
                     sum(1 for item in loaded if item.scenario is None))


def _code_text() -> dict[str, str]:
    """Error code -> its `when` from errors.yaml, in check order."""
    from conformance.specdata.files import spec_dir
    from conformance.specdata.index import check_order, read_codes

    return {c["code"]: " ".join(str(c.get("when", "")).split())
            for c in check_order(read_codes(spec_dir() / "errors.yaml"))}


def _sections(index: SpecIndex, citing: dict[str, list[str]]) -> list[dict[str, Any]]:
    sections: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for rule in index.items:
        if index.rules.get(rule.id) is not rule:
            continue
        area = _area(rule.id)
        sections.setdefault((rule.file, rule.section), []).append({
            "id": rule.id, "text": rule.text, "variant": rule.variant, "area": area,
            "withdrawn": rule.withdrawn, "scenarios": citing.get(rule.id, [])})
    return [{"file": f, "title": t, "rules": rules} for (f, t), rules in sections.items()]
