"""The rendered report as a reader and a printer meet it, in headless Chromium.

A small report is built in a temporary folder (every notebook on tiny
parameters, the PDFs printed as ``make report`` prints them), so the tests do
not depend on an earlier build. Then, for every reader's page:

* Chromium loads it through Playwright (Debian's ``chromium`` through
  ``executable_path``; nothing is downloaded) and every request it makes is
  recorded: only the page's own files may be fetched;
* the visible text holds no pandas or Python artefact (``<NA>``, a printed
  dict, a traceback, a frozen progress bar), rows and columns are counted
  from 1, and every image is decoded;
* a full-page screenshot is kept beside the pages as evidence.

Printing: each page with boards is printed with the build's own Chromium
command after a script marks the start and the end of every board pair; the
PDF's text, page by page (``pdftotext``), must show both marks of a pair on
the same page, so no board is cut by a page break. The PDFs themselves must be
A4 and hold no navigation bar. Without Chromium (or Playwright, or poppler's
``pdftotext``) the tests skip and say why.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudosat.report import build as reportbuild
from sudosat.report import export
from tests.test_notebooks import TINY, TINY_INSTANCES

ROOT = Path(__file__).resolve().parent.parent
READER_PAGES = ("reduction", "solvers", "experiment", "report", "explore", "scaling")
# images a page must show at least (its figures)
LEAST_IMAGES = {"reduction": 2, "solvers": 1, "report": 4, "index": 2}
ARTEFACTS = ("<NA>", "{'", "Traceback", "0%|", "NaN", "nan ms")
MARKS = """<script>
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".sudosat-pair").forEach((pair, k) => {
    pair.insertAdjacentHTML("afterbegin", `<span style="font-size:6px">PAIRSTART${k}X</span>`);
    pair.insertAdjacentHTML("beforeend", `<span style="font-size:6px">PAIREND${k}X</span>`);
  });
});
</script>"""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def chromium() -> str:
    found = reportbuild.find_chromium()
    if found is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")
    return found


@pytest.fixture(scope="module")
def small_report(tmp_path_factory, chromium) -> Path:
    base = tmp_path_factory.mktemp("browser")
    instances = base / "tiny.txt"
    instances.write_text("\n".join(TINY_INSTANCES) + "\n")
    settings = reportbuild.Settings(
        root=ROOT,
        instances=str(instances),
        time_limit_ms=5000.0,
        reports=base / "reports",
        figures_dir=base / "figures",
        build=base / "executed",
        jobs=1,
        quick=True,
        pdf=True,
        overrides={**TINY, "experiment": {**TINY["experiment"], "solvers": ["cdcl", "zchaff"]}},
    )
    assert reportbuild.build(settings) == 0
    return base / "reports"


@pytest.fixture(scope="module")
def browser(chromium):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        launched.close()


def _pages(folder: Path) -> list[str]:
    return [name for name in (*READER_PAGES, "index") if (folder / f"{name}.html").is_file()]


def test_every_reader_page_is_clean_in_chromium(small_report, browser):
    for name in _pages(small_report):
        page = browser.new_page(viewport={"width": 1100, "height": 1400})
        requested: list[str] = []
        page.on("request", lambda request, seen=requested: seen.append(request.url))
        page.goto((small_report / f"{name}.html").as_uri(), wait_until="load")
        text = page.inner_text("body")
        images = page.evaluate(
            "Array.from(document.images).map(i => i.complete && i.naturalWidth > 0)"
        )
        page.screenshot(path=str(small_report / f"screenshot-{name}.png"), full_page=True)
        page.close()
        outside = [url for url in requested if not url.startswith(("file://", "data:"))]
        assert not outside, f"{name} fetched {outside}"
        for artefact in ARTEFACTS:
            assert artefact not in text, f"{name} shows {artefact!r}"
        assert all(images) and len(images) >= LEAST_IMAGES.get(name, 0), (name, images)
        _assert_counted_from_one(name, text)


def _assert_counted_from_one(name: str, text: str) -> None:
    """Rows, columns and lines are counted from 1, as on the course's boards."""
    cells = [int(n) for n in re.findall(r"x\(r(\d+),c(\d+)", text) for n in n]
    assert all(n >= 1 for n in cells), f"{name}: a 0-based cell name"
    lines = [int(n) for n in re.findall(r"\bLine (\d+)", text)]
    assert all(n >= 1 for n in lines), f"{name}: a line 0"
    assert not re.search(r"\b(row|column) 0\b|\(0, \d+\)|\(\d+, 0\)", text), name


def test_reduction_page_counts_rows_and_columns_from_one(small_report, browser):
    page = browser.new_page()
    page.goto((small_report / "reduction.html").as_uri())
    text = page.inner_text("body")
    page.close()
    assert "x(r1,c1,1)" in text and "more" in text  # an excerpt, and a count of the rest
    assert "build_up_to" not in text  # no parameter name in the prose


def _many_boards_page(folder: Path) -> None:
    """A page of board pairs of orders 3 to 5, enough to cross many page breaks."""
    from sudosat import report
    from sudosat.run.generate import generate

    pairs = [
        report.board_pair_html(generate(n, a, seed=k), generate(n, 1.0, seed=k), f"Line {k + 1}")
        for k, (n, a) in enumerate([(3, 0.4)] * 9 + [(4, 0.5)] * 3 + [(5, 0.7)] * 2)
    ]
    page = f"<html><head></head><body><h1>Boards</h1>{''.join(pairs)}</body></html>"
    (folder / "boards.html").write_text(export._printable(page))


def test_boards_are_never_split_across_printed_pages(small_report, chromium, tmp_path):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (Debian: apt-get install poppler-utils)")
    _many_boards_page(small_report)
    checked = 0
    for name in ("reduction", "solvers", "report", "boards"):
        marked = small_report / f"marked-{name}.html"
        marked.write_text(
            (small_report / f"{name}.html").read_text().replace("</head>", MARKS + "</head>", 1)
        )
        pdf = reportbuild.print_pdf(marked, chromium)
        assert pdf is not None, f"Chromium did not print {name}"
        pages = subprocess.run(
            ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout.split("\f")
        where = {}
        for number, page_text in enumerate(pages, 1):
            for kind, k in re.findall(r"PAIR(START|END)(\d+)X", page_text):
                where[(kind, int(k))] = number
        pairs = {k for _, k in where}
        assert pairs, f"{name}: no board pair was printed"
        for k in pairs:
            assert where.get(("START", k)) == where.get(("END", k)), (name, k, where)
        checked += len(pairs)
    assert checked >= 3 + 14


def test_pdfs_are_a4_without_the_navigation_bar(small_report):
    if shutil.which("pdfinfo") is None or shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils is not installed (pdfinfo, pdftotext)")
    index = (small_report / "index.html").read_text()
    for name in ("reduction", "solvers", "experiment", "report"):
        pdf = small_report / f"{name}.pdf"
        assert pdf.read_bytes()[:5] == b"%PDF-"
        assert f'href="{name}.pdf"' in index
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
        assert size and abs(float(size[1]) - 595) < 3 and abs(float(size[2]) - 842) < 3, info
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
        assert "version with code" not in text and "index" not in text.split("\n", 3)[0]


def test_index_links_resolve(small_report):
    index = (small_report / "index.html").read_text()
    links = re.findall(r'(?:href|src)="([^"#:]+)"', index)
    assert links
    # the live page is published beside the report, not in it (make site, make serve)
    assert "live/" in links
    for link in links:
        if link != "live/":
            assert (small_report / link).resolve().exists(), link
    assert ".venv/bin/papermill notebooks/experiment.ipynb runs/" in index
