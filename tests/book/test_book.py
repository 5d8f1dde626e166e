"""`t42 book`: every rule with its scenarios, every scenario drawn; read as HTML files."""

import html
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner

from conformance.corpus import select
from conformance.specdata.index import load_index

from .conftest import ROOT, TRUMP_SIXES


class Page(HTMLParser):
    """The ids, links and tagged elements of one page."""

    def __init__(self, text: str):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        self.elements.append((tag, attrs))


def page(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


# The ids and links of a page by regular expression: the book's templates quote every
# attribute with ", and reading 500 pages this way takes a tenth of HTMLParser's time.
# test_the_fast_reader_agrees_with_the_parser holds it to the parser on sample pages.
ID = re.compile(r'<[^>]*?\sid="([^"]*)"')
HREF = re.compile(r'<a\s[^>]*?href="([^"]*)"')


def ids_and_links(path: Path) -> tuple[set[str], list[str]]:
    text = path.read_text(encoding="utf-8")
    return ({html.unescape(i) for i in ID.findall(text)},
            [html.unescape(h) for h in HREF.findall(text)])


def test_every_scenario_has_a_page_and_every_rule_an_entry(book):
    scenarios = [i.scenario for i in select.load([ROOT / "scenarios"]) if i.scenario]
    assert {p.stem for p in (book / "scenarios").glob("*.html")} == {s.id for s in scenarios}
    rules = page(book / "rules.html")
    live = {r.id for r in load_index().rules.values()}
    assert live <= rules.ids


def test_every_link_of_the_site_resolves(book):
    """Rules <-> scenarios, navigation, anchors: every local href names a file that exists
    and, with a fragment, an id on that page."""
    pages = {p: ids_and_links(p) for p in book.rglob("*.html")}
    checked = 0
    for path, (_, links) in pages.items():
        for href in links:
            parts = urlsplit(href)
            if parts.scheme:
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            assert target.exists(), f"{path.relative_to(book)} links to missing {href}"
            if parts.fragment and target.suffix == ".html":
                assert parts.fragment in pages[target][0], (
                    f"{path.relative_to(book)}: {href} names no element")
            checked += 1
    assert checked > 5000


def test_the_fast_reader_agrees_with_the_parser(book):
    sample = [book / "index.html", book / "rules.html",
              *sorted((book / "scenarios").glob("*.html"))[::50]]
    assert len(sample) > 10
    for path in sample:
        parsed = page(path)
        assert ids_and_links(path) == (parsed.ids, parsed.links), path.name


def test_no_page_shows_where_it_was_built(book):
    """A published book says which kind of source it read, never the builder's paths."""
    machine = {str(ROOT), str(ROOT.resolve()), str(book)}
    shown = [(p.name, m) for p in book.rglob("*.html")
             for m in machine if m in p.read_text(encoding="utf-8")]
    assert not shown, shown[:5]
    assert "read from the checkout" in (book / "index.html").read_text(encoding="utf-8")


def test_rules_and_scenarios_link_both_ways(book):
    rules = page(book / "rules.html")
    to_scenarios = {h for h in rules.links if h.startswith("scenarios/")}
    sample = page(book / "scenarios" / f"{TRUMP_SIXES}.html")
    assert f"scenarios/{TRUMP_SIXES}.html" in to_scenarios
    assert "../rules.html#PLAY-06" in sample.links


def _tiles(parsed: Page, kind: str) -> list[dict[str, str]]:
    return [a for tag, a in parsed.elements if tag == "g" and f"tile {kind}" in a.get("class", "")]


def test_the_trump_sixes_figure_numbers_the_four_tiles_in_play_order(book):
    parsed = page(book / "scenarios" / f"{TRUMP_SIXES}.html")
    plays = [(a["data-order"], a["data-seat"], a["data-tile"]) for a in _tiles(parsed, "play")]
    four = [("1", "A", "5|5"), ("2", "B", "3|5"), ("3", "C", "0|5"), ("4", "D", "6|6")]
    # figure 1 (after B), figure 2 (the complete trick), then the table frames
    assert plays[:6] == four[:2] + four
    assert any(plays[i:i + 4] == four for i in range(6, len(plays)))


def test_covered_tricks_are_drawn_face_down(book):
    parsed = page(book / "scenarios" / "examples.doc000-visibility-marks-one-stack.html")
    backs = _tiles(parsed, "back")
    faces = [a["data-tile"] for a in _tiles(parsed, "captured")]
    assert len(backs) >= 8  # tricks 1 and 2, four tiles each, in the last frame
    assert {"0|4", "1|4", "3|4", "4|4"} <= set(faces)


def test_filters_list_rule_areas_variants_and_error_codes(book):
    parsed = page(book / "index.html")
    options = {(a.get("value")) for tag, a in parsed.elements if tag == "option"}
    assert {"PLAY", "VIS", "base", "nello", "MUST_FOLLOW"} <= options
    rows = [a for tag, a in parsed.elements if tag == "tr" and a.get("class") == "scenario"]
    assert len(rows) == len(list((book / "scenarios").glob("*.html")))
    assert all(a["data-areas"] and a["data-variants"] for a in rows)


def test_steps_are_told_in_words(book):
    text = (book / "scenarios" / "suits.trump-six-five-six-is-not-a-five.html").read_text()
    assert "Must be rejected with MUST_FOLLOW" in text
    assert "B plays 5|6" in text


def test_the_command_says_what_it_read_and_wrote(tmp_path):
    from conformance.cli.main import main

    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["book", str(out), str(ROOT / "scenarios" / "examples")])
    assert result.exit_code == 0, result.output
    assert "spec and scenarios of the" in result.output
    assert "wrote 7 pages (4 scenarios" in result.output  # + index, rules, house rules
    assert (out / "assets" / "book.js").exists()


@pytest.mark.parametrize("text, html", [
    ("`a|b` and **Decision**", "<code>a|b</code> and <strong>Decision</strong>"),
    ("x < y & *(withdrawn)*", "x &lt; y &amp; <em>(withdrawn)</em>"),
])
def test_rule_text_markup_is_escaped(text, html):
    from conformance.book.build import inline_md

    assert str(inline_md(text)) == html


def test_invalid_files_are_listed_not_dropped(tmp_path):
    from conformance.book.build import build

    corpus = tmp_path / "mine"
    corpus.mkdir()
    good = ROOT / "scenarios" / "examples" / "doc000-visibility-marks-one-stack.yaml"
    schema = ROOT / "spec" / "schemas" / "scenario.schema.json"
    text = good.read_text(encoding="utf-8").replace("../../spec/schemas/scenario.schema.json",
                                                    str(schema), 1)
    (corpus / "one-stack.yaml").write_text(text, encoding="utf-8")
    (corpus / "broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    stats = build(tmp_path / "site", [corpus])
    assert stats.scenarios == 1 and stats.skipped_files == 1
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "1 scenario file could not be loaded" in index and "broken.yaml" in index


@pytest.mark.parametrize("action, said", [
    ({"type": "trump", "seat": "A", "trump": 6}, "A names sixes"),
    ({"type": "trump", "seat": "B", "trump": "nello"}, "B names Nel-O (to lose every trick)"),
    ({"type": "trump", "seat": "A", "trump": "none", "stacks": 2},
     "A names no trump (doubles high), 2 stacks"),
    ({"type": "bid", "seat": "C", "marks": 2}, "C bids 2 marks (all the tricks)"),
    ({"type": "play", "seat": "D", "tile": "0|0"}, "D plays 0|0"),
    ("pass", 'sends the malformed action "pass"'),
])
def test_actions_in_words(action, said):
    from conformance.book.words import action_words

    assert action_words(action) == said


def test_a_nello_contract_does_not_say_all_the_tricks():
    """Issue 44: Nel-O is losing every trick; the header said "bid 2 marks (all the
    tricks)" beside it. A marks contract on a trump still says it."""
    from conformance.book.drawing import contract_words

    nello = {"declarer": "B", "team": "BD", "bid": {"marks": 2}, "trump": "nello"}
    sixes = {**nello, "trump": 6}
    assert contract_words(nello) == "B (BD) bid 2 marks, trump: Nel-O (to lose every trick)"
    assert contract_words(sixes) == "B (BD) bid 2 marks (all the tricks), trump: sixes"


def test_the_published_house_rules_page_renders_the_spec_table(book):
    """variants.md's table of published house rules, row by row, on its own page: every
    row of each subsection, its rule IDs linked to the rules page (issue 28)."""
    from conformance.book.house_rules import house_rules
    from conformance.specdata.files import spec_dir

    house = house_rules(spec_dir() / "variants.md")
    titles = [part["title"] for part in house["parts"]]
    assert titles == ["Expressed", "Expressed in part", "Open (not expressed yet)", "Ruled out",
                      "Doubtful"]
    expressed = house["parts"][0]
    assert len(expressed["rows"]) > 30 and all(len(r) == 3 for r in expressed["rows"])
    assert ["the holder of `0|1` bids first", "3 in issue 28's survey; eightygames.wordpress.com"
            " (\"The player who has the 1:0 domino begins the biding\")",
            "`first_bidder` (FIRST-02)"] in expressed["rows"]
    text = (book / "house-rules.html").read_text(encoding="utf-8")
    assert text.count("<tr>") == sum(len(part["rows"]) + 1 for part in house["parts"])
    assert 'href="rules.html#FIRST-02"' in text and "<code>0|1</code>" in text
    assert 'href="house-rules.html"' in (book / "index.html").read_text(encoding="utf-8")
