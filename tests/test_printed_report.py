"""The built report as its readers meet it: every figure a page announces is on it, and in print
its figures' text is at least 8 points, no page is left under half full but a section's last,
boards come several to a page, and one PDF holds the whole report in reading order.

The checks read what ``make report`` wrote (``reports/`` and ``figures/``): the pages with code
(each figure cell's code beside its output), the reader's pages, the PDFs through poppler-utils
(``pdftotext``, ``pdfimages``, ``pdftoppm``) and the figures' SVG files, whose text sizes
matplotlib writes as each glyph's scale. A check skips, saying why, where the report or a tool
is missing. Each check is first shown to find the fault it is for, on a page made to have it.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudosat.report import export, plots
from sudosat.report.pages import PAGES
from tests.test_pdf_layout import page_fill, printed_lines

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
FIGURES = ROOT / "figures"
BUILT = [page.name for page in PAGES if (REPORTS / f"{page.name}-code.html").is_file()]
HALF = 0.5


def _built(name: str) -> None:
    if name not in BUILT:
        pytest.skip(f"reports/{name}-code.html is not built (make report)")


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} (poppler-utils) is not installed: the PDFs cannot be read")
    return found


# -- every figure a page announces is on the page ------------------------------------------

_CELL = re.compile(r'<div class="jp-Cell jp-(Code|Markdown)Cell')
_FIGURE_WORDS = re.compile(r"\b(box plots?|plots?|figures?|scatter|cactus|panels?|each point)\b",
                           re.I)
_NOT_DRAWN = "Not drawn"


def cells(page: str) -> list[tuple[str, str, str]]:
    """A page's cells in order: (kind, input, output), the input and output as HTML."""
    found = []
    starts = [(m.start(), m.group(1)) for m in _CELL.finditer(page)] + [(len(page), "")]
    for (begin, kind), (end, _) in zip(starts, starts[1:], strict=False):
        chunk = page[begin:end]
        cut = chunk.find("jp-Cell-outputWrapper")
        source, output = (chunk, "") if cut < 0 else (chunk[:cut], chunk[cut:])
        found.append((kind, source, output))
    return found


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def unshown_figures(code_page: str) -> list[str]:
    """The figure cells (their code saves a figure) whose output shows no image, nor says why."""
    missing = []
    for kind, source, output in cells(code_page):
        code = html.unescape(re.sub(r"<[^>]+>", "", source))  # highlighted code, as written
        drawn = "<img" in output or _NOT_DRAWN in text_of(output)
        if kind == "Code" and "save_and_show(" in code and not drawn:
            missing.append(" ".join(code.split())[:120])
    return missing


def unfollowed_announcements(reader_page: str) -> list[str]:
    """Markdown that announces a figure (its last paragraph names one and ends with a colon)
    without an image, or a sentence saying why none is drawn, in the output after it."""
    found = []
    page = cells(reader_page)
    for k, (kind, source, _) in enumerate(page):
        if kind != "Markdown":
            continue
        paragraphs = [p for p in re.split(r"</p>|</h\d>", source) if text_of(p)]
        last = text_of(paragraphs[-1]) if paragraphs else ""
        if not (last.endswith(":") and _FIGURE_WORDS.search(last)) or " above" in last:
            continue
        after = next((output for kind2, _, output in page[k + 1:] if kind2 == "Code"), "")
        if "<img" not in after and _NOT_DRAWN not in text_of(after):
            found.append(last[-120:])
    return found


@pytest.mark.parametrize("name", [page.name for page in PAGES])
def test_every_figure_a_built_page_draws_or_announces_is_on_it(name):
    _built(name)
    code_page = (REPORTS / f"{name}-code.html").read_text(encoding="utf-8")
    reader_page = (REPORTS / f"{name}.html").read_text(encoding="utf-8")
    assert unshown_figures(code_page) == []
    assert unfollowed_announcements(reader_page) == []
    assert reader_page.count("<img") == code_page.count("<img")  # the reader loses none


def _exported(folder: Path, cells_: list) -> tuple[str, str]:
    import nbformat

    notebook = nbformat.v4.new_notebook(cells=cells_)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, str(folder / "page.ipynb"))
    export.export(folder / "page.ipynb", folder, "page")
    return ((folder / "page-code.html").read_text(encoding="utf-8"),
            (folder / "page.html").read_text(encoding="utf-8"))


def test_the_checks_find_a_figure_saved_but_not_shown(tmp_path):
    """The control: the heuristics page once saved its box plots and showed only the sentence
    printed after them."""
    import nbformat

    intro = nbformat.v4.new_markdown_cell("The decisions of every run, as box plots:")
    cell = nbformat.v4.new_code_cell(
        'report.save_and_show(figure, "page-boxes", figures_dir)\ndisplay(Markdown(said))')
    cell.outputs = [nbformat.v4.new_output("display_data",
                                           data={"text/markdown": "The machine was quiet."})]
    code_page, reader_page = _exported(tmp_path, [intro, cell])
    assert len(unshown_figures(code_page)) == 1
    assert len(unfollowed_announcements(reader_page)) == 1


# -- in print, figure text is at least 8 points ----------------------------------------------

_SVG_SIZE = re.compile(r'<svg[^>]*\swidth="([\d.]+)pt"\s+height="([\d.]+)pt"')
_GLYPH_SCALE = re.compile(r"scale\(([\d.]+) -[\d.]+\)")


def saved_figures(folder: Path) -> list[tuple[str, float, float, float]]:
    """Every saved figure: (name, its width and height in pixels as a page shows it, its
    smallest text in points at its own size), read from its SVG file (matplotlib writes each
    text's glyphs at a scale of its size / 100)."""
    found = []
    for svg in sorted(folder.glob("*.svg")):
        text = svg.read_text(encoding="utf-8")
        size = _SVG_SIZE.search(text)
        scales = [float(s) * 100 for s in _GLYPH_SCALE.findall(text)]
        if size and scales:
            width, height = (float(v) / 72 * plots.PAGE_DPI for v in size.groups())
            found.append((svg.stem, width, height, min(scales)))
    return found


def printed_images(pdf: Path) -> list[tuple[int, int, int, float]]:
    """Every image of `pdf`: (page, width and height in pixels, pixels per inch printed)."""
    listing = subprocess.run([_tool("pdfimages"), "-list", str(pdf)], capture_output=True,
                             text=True, check=True).stdout.splitlines()[2:]
    images = []
    for row in listing:
        fields = row.split()
        images.append((int(fields[0]), int(fields[3]), int(fields[4]), float(fields[12])))
    return images


def small_figure_text(pdf: Path, figures: list[tuple[str, float, float, float]]) -> list[str]:
    """The images of `pdf` whose smallest text prints under 8 points, or that no saved figure
    matches (a figure whose text cannot be measured)."""
    small = []
    for page, width, height, ppi in printed_images(pdf):
        matches = [f for f in figures if abs(f[1] - width) <= 2 and abs(f[2] - height) <= 2]
        if not matches:
            small.append(f"page {page}: a {width}x{height} image that no saved figure matches")
            continue
        smallest = min(f[3] for f in matches) * plots.PAGE_DPI / ppi
        if smallest < plots.SMALLEST_PRINTED_PT - 0.05:
            names = ", ".join(f[0] for f in matches)
            small.append(f"page {page}: {names} prints text at {smallest:.1f} pt")
    return small


def _pdfs() -> list[Path]:
    found = sorted(REPORTS.glob("*.pdf"))
    if not found:
        pytest.skip("no PDF in reports/ (make report with chromium installed)")
    return found


def test_every_figure_of_every_pdf_prints_its_text_at_eight_points_or_more():
    figures = saved_figures(FIGURES)
    small = {pdf.name: found for pdf in _pdfs() if (found := small_figure_text(pdf, figures))}
    assert small == {}


def test_the_font_check_finds_a_figure_printed_too_small(tmp_path):
    """The control: a figure 12 inches wide, as the scaling page's were, prints its 8-point
    text at about 5 points."""
    import base64

    import nbformat

    chromium = export.find_chromium()
    if chromium is None:
        pytest.skip("Debian's chromium is not installed: nothing prints the page")
    figure, ax = plots.new_figure(12.0, 2.5)
    ax.plot([1, 2], [1, 2])
    ax.set_xticks([1, 2], ["1", "2"], fontsize=8)
    plots.save_figure(figure, "wide", tmp_path)
    cell = nbformat.v4.new_code_cell("figure")
    png = base64.b64encode(figure._repr_png_()).decode("ascii")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": png})]
    _exported(tmp_path, [cell])
    pdf = export.print_pdf(tmp_path / "page.html", chromium)
    assert pdf is not None
    found = small_figure_text(pdf, saved_figures(tmp_path))
    assert len(found) == 1 and "wide prints text at" in found[0]


# -- no page under half full but a section's last ----------------------------------------------


def headings(page: Path) -> set[str]:
    """The text of a reader's page's headings (h1 to h3), as a printed line shows it."""
    text = page.read_text(encoding="utf-8")
    return {text_of(h).rstrip("¶ ").strip() for h in re.findall(r"<h[123][^>]*>(.*?)</h[123]>",
                                                                 text, re.S)}


def half_empty_pages(pdf: Path, starts: set[str]) -> list[str]:
    """Pages of `pdf` printed less than half way down whose next page does not open a section
    (its first line is not one of the headings `starts`); the last page may be short."""
    fills = page_fill(pdf)
    lines = printed_lines(pdf, _tool("pdftotext"))
    found = []
    for number, fill in enumerate(fills[:-1], 1):
        after = sorted(lines[number])
        first = " ".join(after[0][2].split()) if after else ""
        if fill < HALF and not any(first.startswith(h) for h in starts if h):
            found.append(f"page {number} ({fill:.0%} down; next: {first[:50]!r})")
    return found


@pytest.mark.parametrize("name", [page.name for page in PAGES])
def test_no_printed_page_is_under_half_full_but_a_sections_last(name):
    _built(name)
    pdf = REPORTS / f"{name}.pdf"
    if not pdf.is_file():
        pytest.skip(f"reports/{name}.pdf is not printed (chromium)")
    _tool("pdftoppm")
    assert half_empty_pages(pdf, headings(REPORTS / f"{name}.html")) == []


# -- the whole report in one PDF, in reading order ----------------------------------------------


def test_the_complete_pdf_holds_a_contents_page_then_every_page_in_reading_order():
    pdf = REPORTS / export.COMPLETE_PDF
    if not pdf.is_file():
        pytest.skip("reports/report-complete.pdf is not printed (chromium)")
    lines = printed_lines(pdf, _tool("pdftotext"))
    first = " ".join(text for _, _, text in sorted(lines[0]))
    titles = [page.title for page in PAGES if (REPORTS / f"{page.name}.html").is_file()]
    assert "Contents" in first and all(title in first for title in titles)
    # each page starts on a page of its own, in reading order, with its own title
    opening = [" ".join(text for _, _, text in sorted(page)[:1]) for page in lines[1:]]
    titles_of_pages = {page.name: text_of(re.search(
        r"<h1[^>]*>(.*?)</h1>", (REPORTS / f"{page.name}.html").read_text(encoding="utf-8"),
        re.S).group(1)).rstrip("¶ ") for page in PAGES if (REPORTS / f"{page.name}.html").is_file()}
    heads = {name: title[:24] for name, title in titles_of_pages.items()}  # a long one wraps
    found = [name for name, head in heads.items() if any(line.startswith(head) for line in opening)]
    assert found == list(titles_of_pages)
    starts = [next(k for k, line in enumerate(opening) if line.startswith(head))
              for head in heads.values()]
    assert starts == sorted(starts)
    every = sum(len(page_fill(REPORTS / f"{n}.pdf")) for n in titles_of_pages
                if (REPORTS / f"{n}.pdf").is_file())
    assert len(lines) >= every  # nothing of any page left out


# -- boards: several to a printed page -----------------------------------------------------------

BOARDS_A_PAGE = 4
_BOARD_LABEL = re.compile(r"input \(\d+ givens\)|solution \((givens|differences|where)")


def boards_per_page(pdf: Path) -> list[int]:
    """How many boards (each labelled: an input, a solution) each page of `pdf` prints."""
    return [sum(len(_BOARD_LABEL.findall(" ".join(text.split()))) for _, _, text in page)
            for page in printed_lines(pdf, _tool("pdftotext"))]


def instances_per_page(pdf: Path, order: int) -> list[int]:
    """How many instances of `order` (a caption ``Line K: order N``) each page of `pdf` prints."""
    caption = re.compile(rf"Line \d+: order {order}\b")
    return [sum(bool(caption.match(" ".join(text.split()))) for _, _, text in page)
            for page in printed_lines(pdf, _tool("pdftotext"))]


def test_the_results_pdf_prints_four_boards_a_page_or_more():
    """Four instances of order 3 a page and more (the pages once held two, a third of each
    page empty beside them); an order-4 or order-5 pair fills a row, two a page."""
    pdf = REPORTS / "report.pdf"
    if not pdf.is_file():
        pytest.skip("reports/report.pdf is not printed (chromium)")
    counts = [n for n in boards_per_page(pdf) if n]
    assert counts and all(n >= BOARDS_A_PAGE for n in counts[:-1]), counts
    order3 = [n for n in instances_per_page(pdf, 3) if n]
    assert order3 and all(n >= BOARDS_A_PAGE for n in order3[:-1]), order3


@pytest.mark.slow
def test_boards_of_order_three_print_six_a_page_and_differing_solutions_are_marked(tmp_path):
    import nbformat
    import pandas as pd

    from sudosat.report import boards
    from sudosat.report.io import normalise_results
    from sudosat.sudoku.board import Board

    chromium = export.find_chromium()
    if chromium is None:
        pytest.skip("Debian's chromium is not installed: nothing prints the page")
    solution = Board.parse("3 " + "".join(
        str((3 * (r % 3) + r // 3 + c) % 9 + 1) for r in range(9) for c in range(9)))
    swapped = Board(3, [{1: 2, 2: 1}.get(v, v) for v in solution.cells])  # another solution
    puzzle = Board(3, [v if v > 2 else 0 for v in solution.cells])
    rows = []
    for line in range(1, 13):
        for solver in ("cdcl", "zchaff"):
            board = swapped if (line == 12 and solver == "zchaff") else solution
            rows.append({"line": line, "order": 3, "solver": solver, "status": "SAT",
                         "valid": True, "output": board.to_line(), "total_wall_ms": 1.0,
                         "total_cpu_ms": 1.0})
    table = normalise_results(pd.DataFrame(rows))
    instances = dict.fromkeys(range(1, 13), puzzle)
    shown = str(boards.solved_boards_html(table, instances, dict.fromkeys(range(1, 13),
                                                                          solution)))
    assert len(re.findall(r'<td class="[^"]*\bdiffers\b', shown)) == 18  # the 1s and 2s
    assert "The solutions differ: cdcl's and zchaff's in 18 cells, marked." in html.unescape(
        shown)
    cell = nbformat.v4.new_code_cell("boards")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": shown})]
    _exported(tmp_path, [nbformat.v4.new_markdown_cell("## Every solved instance"), cell])
    pdf = export.print_pdf(tmp_path / "page.html", chromium)
    assert pdf is not None
    counts = boards_per_page(pdf)  # 12 inputs, 12 + 1 solutions: line 12 shows both
    assert sum(counts) == 25 and all(n >= 2 * BOARDS_A_PAGE for n in counts[:-1]), counts
