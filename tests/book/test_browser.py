"""The book in a real headless browser: Debian's Chromium driven by Playwright through
the system executable (never `playwright install`: no browser downloads here). In CI these
tests must run: a missing browser fails them there instead of skipping."""

from pathlib import Path
from urllib.parse import unquote, urlparse

from .conftest import ROOT, TRUMP_SIXES


def test_pages_load_without_console_errors(book, tab):
    for path in (book / "index.html", book / "rules.html",
                 book / "scenarios" / f"{TRUMP_SIXES}.html",
                 book / "scenarios" / "variants.nello.declare-on-two-marks.html"):
        assert path.exists(), path
        tab.open(path)
    assert tab.errors == []


def _covering_pages(page) -> dict[str, str]:
    """From the rules page: rule ID -> the first scenario page that checks it."""
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('article.rule')]
          .map(r => [r.id, r.querySelector('a.scenario-link')])
          .filter(([, a]) => a)
          .map(([id, a]) => [id, a.href]))""")


def test_every_rule_links_to_scenarios_that_link_back(book, tab, request):
    """Every covering page links back to its rules, read from the files; the browser
    follows a sample of the links (every one with --full-docs: about 40 s more)."""
    page = tab.open(book / "rules.html")
    links = _covering_pages(page)
    live = page.evaluate("() => [...document.querySelectorAll('article.rule:not(.withdrawn)')]"
                         ".map(r => r.id)")
    assert set(live) == set(links), "a rule without a scenario link"
    by_page: dict[str, list[str]] = {}
    for rule, href in links.items():
        by_page.setdefault(href, []).append(rule)
    for href, rules in by_page.items():
        text = Path(unquote(urlparse(href).path)).read_text(encoding="utf-8")
        for rule in rules:
            assert f'href="../rules.html#{rule}"' in text, f"{href} does not link back to {rule}"
    followed = list(by_page.items())
    if not request.config.getoption("--full-docs"):
        followed = followed[::max(1, len(followed) // 8)]
    for href, rules in followed:
        page.goto(href)
        assert page.locator("article.scenario h1").count() == 1, href
        for rule in rules:
            back = page.locator(f'p.rules a.rule-link[href="../rules.html#{rule}"]')
            assert back.count() == 1, f"{href} does not link back to {rule}"
    back.first.click()
    page.wait_for_load_state("load")
    assert page.evaluate("() => document.querySelector(':target').id") == rules[-1]
    assert tab.errors == []


def _shown(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('#scenarios tr.scenario')]"
                         ".filter(r => !r.hidden).map(r => r.dataset.id)")


def test_the_search_filters(book, tab):
    page = tab.open(book / "index.html")
    everything = _shown(page)
    assert len(everything) == len(list((book / "scenarios").glob("*.html")))
    page.fill("#q", "trump-six")
    found = _shown(page)
    assert found and all("trump-six" in i for i in found) and len(found) < len(everything)
    assert page.inner_text("#shown") == f"{len(found)} of {len(everything)} shown"
    page.fill("#q", "")
    page.select_option("#area", "VIS")
    vis = _shown(page)
    assert vis and len(vis) < len(everything)
    for sid in vis:
        areas = page.get_attribute(f'tr[data-id="{sid}"]', "data-areas").split()
        assert "VIS" in areas
    page.select_option("#area", "")
    page.select_option("#variant", "nello")
    nello = _shown(page)
    assert "variants.nello.declare-on-two-marks" in nello
    assert all("nello" in page.get_attribute(f'tr[data-id="{i}"]', "data-variants").split()
               for i in nello)
    page.select_option("#variant", "")
    page.select_option("#code", "MUST_FOLLOW")
    must = _shown(page)
    assert must and all("MUST_FOLLOW" in page.get_attribute(f'tr[data-id="{i}"]',
                                                            "data-codes").split() for i in must)
    page.fill("#q", "no-such-scenario-anywhere")
    assert _shown(page) == [] and page.is_visible("#none")
    again = tab.open(book / "index.html", "?q=examples.doc000")
    assert len(_shown(again)) == 4 and again.input_value("#q") == "examples.doc000"
    assert tab.errors == []


def test_the_trump_sixes_example_shows_the_four_tiles_in_play_order(book, tab):
    """Document 000's second figure of the example: 5|5, 3|5, 0|5, 6|6 numbered 1-4, laid
    out left to right, each under its seat."""
    page = tab.open(book / "scenarios" / f"{TRUMP_SIXES}.html")
    tiles = page.locator("figure#figure-2 g.tile.play")
    assert tiles.count() == 4
    seen = [(tiles.nth(i).get_attribute("data-order"), tiles.nth(i).get_attribute("data-seat"),
             tiles.nth(i).get_attribute("data-tile"),
             tiles.nth(i).locator("text.badge-number").text_content()) for i in range(4)]
    assert seen == [("1", "A", "5|5", "1"), ("2", "B", "3|5", "2"),
                    ("3", "C", "0|5", "3"), ("4", "D", "6|6", "4")]
    xs = [tiles.nth(i).bounding_box()["x"] for i in range(4)]
    assert xs == sorted(xs) and all(tiles.nth(i).is_visible() for i in range(4))
    caption = page.inner_text("figure#figure-2 figcaption")
    assert "1. A 5|5; 2. B 3|5; 3. C 0|5; 4. D 6|6" in caption
    assert tab.errors == []


def test_a_failing_scenario_opens_at_the_failing_step(tmp_path, tab):
    from click.testing import CliRunner

    from conformance.cli.main import main

    out = tmp_path / "report"
    adapter = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:LeaderWins"
    result = CliRunner().invoke(main, ["run", str(ROOT / "scenarios" / "examples"),
                                       "--adapter", adapter, "--report-html", str(out)])
    assert result.exit_code == 1 and "wrote the HTML report" in result.output
    page = tab.open(out / "index.html")
    page.select_option("#outcome", "failed")
    assert TRUMP_SIXES in _shown(page)
    page.click(f'tr[data-id="{TRUMP_SIXES}"] a.scenario-link')
    page.wait_for_load_state("load")
    frame = page.locator(".frame.failed")
    assert frame.count() == 1
    assert page.evaluate("() => location.hash") == f"#{frame.get_attribute('id')}"
    assert frame.get_attribute("data-label") == "steps[8]"
    assert frame.locator("figure.expected svg").count() == 1
    assert frame.locator("figure.actual svg").count() == 1
    assert "trick 1 complete: D wins" in frame.locator("figure.expected").inner_text()
    assert "trick 1 complete: A wins" in frame.locator("figure.actual").inner_text()
    assert "view.tricks[0].winner" in frame.inner_text()
    top = frame.bounding_box()["y"]
    assert 0 <= top < 900, "the failing step is not in view"
    assert tab.errors == []


def test_the_report_shows_the_compliance_table_and_every_failing_step(tmp_path, tab):
    """The run's level named, per rule counts (the hidden bids are filed under VIS-02,
    the rule of what every seat sees, as the diagnosis finds it), a rule's link to its
    rule and to its failing scenario; there, every failing step outlined, expected beside
    actual, none greyed."""
    from click.testing import CliRunner

    from conformance.cli.main import main

    out = tmp_path / "report"
    adapter = f"python:{ROOT / 'tests' / 'book' / 'engines.py'}:HidesBids"
    result = CliRunner().invoke(main, ["run", str(ROOT / "scenarios" / "visibility"),
                                       "--adapter", adapter, "--report-html", str(out)])
    assert result.exit_code == 1, result.output
    page = tab.open(out / "index.html")
    assert page.inner_text("h2#compliance") == "Compliance at level strict"
    row = page.locator('#compliance-table tr.rule-row[data-key="VIS-02"]')
    assert row.count() == 1 and row.is_visible()
    failed = int(row.locator('td.failed[data-level="rules"]').inner_text())
    assert failed > 0
    row.locator("a.rule-link").click()
    page.wait_for_load_state("load")
    assert page.evaluate("() => document.querySelector(':target').id") == "VIS-02"
    page.go_back()
    link = page.locator('#compliance-table tr[data-key="VIS-02"] a.scenario-link.failing',
                        has_text="visibility.bids-and-contract-public")
    link.click()
    page.wait_for_load_state("load")
    frames = page.locator(".frame.failed")
    assert frames.count() >= 3
    assert page.evaluate("() => location.hash") == f"#{frames.first.get_attribute('id')}"
    for i in range(frames.count()):
        frame = frames.nth(i)
        assert frame.locator("figure.expected svg").count() == 1
        assert frame.locator("figure.actual svg").count() == 1
        assert "Failed here:" in frame.inner_text()
    assert page.locator(".frame.unreached").count() == 0
    assert tab.errors == []


# A screenshot is checked by Chromium itself (no image library): the PNG drawn on a
# canvas, its distinct colours counted over a grid of samples. A blank or one-colour
# shot has one or two; a drawn table with tiles has dozens.
DISTINCT_COLOURS = """async (data) => {
  const img = new Image();
  img.src = "data:image/png;base64," + data;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const pixels = ctx.getImageData(0, 0, img.width, img.height).data;
  const seen = new Set();
  for (let y = 0; y < img.height; y += 4) for (let x = 0; x < img.width; x += 4) {
    const i = (y * img.width + x) * 4;
    seen.add((pixels[i] >> 3) + "," + (pixels[i + 1] >> 3) + "," + (pixels[i + 2] >> 3));
  }
  return seen.size;
}"""


def test_the_failing_pictures_in_screenshots_at_set_widths(tmp_path, tab):
    """Issue 44: each kind of failure drawn, screenshotted in Chromium at a wide and a
    narrow window; a page whose first failure is far down opens scrolled to it and its
    screenshot is not blank. The PNGs are kept in the test's folder."""
    import base64

    from click.testing import CliRunner

    from conformance.cli.main import main

    planted = "python:conformance.planted:"
    pages = {  # the kind of failure -> (engine, scenario)
        "observation": (planted + "covered-tricks-shown", "visibility/marks-two-stacks-cover"),
        "legal": (planted + "must-follow-not-enforced", "play/no-duty-to-play-higher"),
        "refusal": (planted + "must-follow-not-enforced",
                    "play/check-order-tile-before-must-follow"),
    }
    for kind, (adapter, scenario) in pages.items():
        out = tmp_path / kind
        result = CliRunner().invoke(main, ["run", str(ROOT / "scenarios" / f"{scenario}.yaml"),
                                           "--adapter", adapter, "--in-process",
                                           "--report-html", str(out)])
        assert result.exit_code == 1, result.output
        html = out / "scenarios" / f"{scenario.replace('/', '.')}.html"
        for width in (1280, 760):
            page = tab.page
            page.set_viewport_size({"width": width, "height": 900})
            tab.open(html)
            frame = page.locator(".frame.failed").first
            offset = frame.evaluate("f => f.offsetTop")
            box = frame.bounding_box()
            assert box is not None and -2 <= box["y"] < 900, (kind, width, box)
            shot = tmp_path / f"{kind}-{width}.png"
            page.screenshot(path=str(shot))  # the window as the reader sees it
            colours = page.evaluate(DISTINCT_COLOURS, base64.b64encode(shot.read_bytes())
                                    .decode("ascii"))
            assert colours > 20, (kind, width, colours)
            for side in ("expected", "actual"):
                assert frame.locator(f"figure.{side} svg").is_visible(), (kind, side)
            if kind == "observation":
                assert offset > 3 * 900, "the first failure is not far down"
    assert tab.errors == []
