"""Make the examples of docs/compare.md: `t42 compare` of the reference engine, two planted
engines and the node kit's example adapter, and two versions of one engine (a planted
bug, then fixed); their terminal output goes between the page's markers, and the HTML
page's picture into docs/compare-page.png (Debian's Chromium, as tests/book does).

    python tools/compare_example.py            # rewrite the examples and the picture
    python tools/compare_example.py --check    # exit 1 if the page's text is not what the
                                               # commands print now (the picture is not checked)
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "compare.md"
PICTURE = ROOT / "docs" / "compare-page.png"
SCENARIOS = ["scenarios/examples", "scenarios/play"]
ENGINES = ["reference", "python:conformance.planted:leader-rotates",
           "python:conformance.planted:doubles-low",
           "cmd:node kits/typescript/example/adapter.js"]
MANY = ["t42", "compare", *SCENARIOS, "--level", "rules", "--in-process",
        *[word for engine in ENGINES for word in ("--adapter", engine)],
        "--html", "build/compared", "--json", "build/compared.json", "--badges", "build/badges"]
VERSIONS = ["t42", "compare", *SCENARIOS, "--level", "rules", "--in-process",
            "--adapter", "label=my42-1.0 python:conformance.planted:leader-rotates",
            "--adapter", "label=my42-1.1 reference", "--baseline", "my42-1.0"]
# what changes from one run or machine to the next: each engine's time, the folder it
# was read from, how many engines run at once (one per core)
VARYING = re.compile(r"^  .*: (done|ERROR .*) \(\d+\.\d s\)$|^t42: spec and scenarios of .*$"
                     r"|^t42: running \d+ engines, \d+ at a time")


def run(command: list[str], cwd: Path) -> str:
    """The command's output as the page shows it: the command, then what it printed but
    the lines that change from run to run."""
    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", *command[1:]],
                          cwd=cwd, capture_output=True, text=True, check=False)
    kept = [line for line in done.stdout.splitlines() if not VARYING.match(line)]
    return "$ " + shlex.join(command) + "\n" + "\n".join(kept).strip("\n") + "\n"


def block(name: str, text: str) -> str:
    return f"<!-- example {name}: python tools/compare_example.py -->\n```text\n{text}```\n"


def rewrite(doc: str, name: str, text: str) -> str:
    pattern = re.compile(rf"<!-- example {name}: .*? -->\n```text\n.*?```\n", re.S)
    if not pattern.search(doc):
        raise SystemExit(f"{DOC}: no `<!-- example {name}: ... -->` block")
    return pattern.sub(lambda _: block(name, text), doc)


def picture(page: Path, work: Path) -> None:
    from playwright.sync_api import sync_playwright

    from conformance.book.browser import launch

    with sync_playwright() as playwright:
        context = launch(playwright, work / "profile", 1400, 1000)
        tab = context.new_page()
        tab.goto(page.as_uri())
        tab.screenshot(path=str(PICTURE), clip={"x": 0, "y": 0, "width": 1400, "height": 1000})
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare the page's examples with the commands' output")
    args = parser.parse_args(argv)
    made = {"many": run(MANY, ROOT), "versions": run(VERSIONS, ROOT)}  # build/ is ignored
    with tempfile.TemporaryDirectory() as folder:
        doc = DOC.read_text(encoding="utf-8")
        new = doc
        for name, text in made.items():
            new = rewrite(new, name, text)
        if args.check:
            if new != doc:
                print(f"{DOC} is stale: run python tools/compare_example.py")
                return 1
            print(f"{DOC}: the examples are what the commands print")
            return 0
        DOC.write_text(new, encoding="utf-8")
        picture(ROOT / "build" / "compared" / "index.html", Path(folder))
    print(f"wrote the examples of {DOC} and {PICTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
