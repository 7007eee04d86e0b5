"""Printed pages keep headings with what follows and small tables whole.

A page is printed as the report prints it (:func:`sudosat.report.export.print_pdf`,
headless Chromium, with the print style sheet :func:`~sudosat.report.export._printable`
adds), and ``pdftotext -bbox-layout`` (poppler-utils) says where each line of text
landed. The page is built like an exported notebook (markdown cells, then code cells
whose output is a small table) with fillers of growing length, so that some heading
falls near the foot of a page whatever the exact line heights are. The same page
printed without the keep-together rules strands a heading: the check has teeth.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from sudosat.report import export

pytestmark = pytest.mark.slow
XHTML = "{http://www.w3.org/1999/xhtml}"
SECTIONS = 14
ROWS = 6
FILLER = (
    "This sentence is filler of the kind a report page holds between its sections, long "
    "enough to wrap onto a second line of the printed A4 page and to move what follows. "
)


def _tools() -> tuple[str, str]:
    chromium = export.find_chromium()
    pdftotext = shutil.which("pdftotext")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed: nothing prints the page")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF cannot be read")
    return chromium, pdftotext


def _cell(kind: str, inner: str) -> str:
    if kind == "markdown":
        return (
            '<div class="jp-Cell jp-MarkdownCell jp-Notebook-cell">'
            '<div class="jp-Cell-inputWrapper">'
            f'<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown">{inner}</div></div></div>'
        )
    return (
        '<div class="jp-Cell jp-CodeCell jp-Notebook-cell jp-mod-noInput">'
        '<div class="jp-Cell-outputWrapper"><div class="jp-Collapser"></div>'
        '<div class="jp-OutputArea"><div class="jp-OutputArea-child">'
        f'<div class="jp-RenderedHTMLCommon jp-RenderedHTML jp-OutputArea-output">{inner}'
        "</div></div></div></div></div>"
    )


def notebook_page() -> str:
    """A page shaped like an exported notebook: sections of heading, introduction, table."""
    cells = []
    for k in range(SECTIONS):
        cells.append(_cell("markdown", "<p>" + FILLER * (k % 5 + 1) + "</p>"))
        cells.append(
            _cell("markdown", f"<h2>Section {k}</h2><p>The table of section {k}, below:</p>")
        )
        rows = "".join(f"<tr><td>S{k} row {r}</td><td>{r * k}</td></tr>" for r in range(ROWS))
        cells.append(_cell("code", f'<table class="sudosat-table">{rows}</table>'))
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
        f'<div class="jp-Notebook">{"".join(cells)}</div></body></html>'
    )


def printed_lines(pdf: Path, pdftotext: str) -> list[list[tuple[float, float, str]]]:
    """Per page, each line of text as (top, bottom, text)."""
    xml = subprocess.run(
        [pdftotext, "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    root = ElementTree.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", xml))
    pages = []
    for page in root.iter(f"{XHTML}page"):
        lines = []
        for line in page.iter(f"{XHTML}line"):
            words = " ".join(w.text or "" for w in line.iter(f"{XHTML}word"))
            lines.append((float(line.get("yMin", 0)), float(line.get("yMax", 0)), words))
        pages.append(lines)
    return pages


def stranded_headings(pages: list[list[tuple[float, float, str]]]) -> list[str]:
    """Headings with at most two lines of text under them at the foot of a page (not the last)."""
    found = []
    for number, lines in enumerate(pages[:-1], 1):
        for _, bottom, text in lines:
            if re.fullmatch(r"Section \d+", text.strip()):
                under = {round(top) for top, _, _ in lines if top > bottom - 0.5}
                if len(under) <= 2:
                    found.append(f"page {number}: {text.strip()} ({len(under)} lines under it)")
    return found


def split_tables(pages: list[list[tuple[float, float, str]]]) -> list[int]:
    """The sections whose table's rows are printed on more than one page."""
    where: dict[int, set[int]] = {}
    for number, lines in enumerate(pages):
        for _, _, text in lines:
            match = re.match(r"S(\d+) row", text.strip())
            if match:
                where.setdefault(int(match.group(1)), set()).add(number)
    return sorted(k for k, found in where.items() if len(found) > 1)


def _print(page: str, folder: Path, chromium: str, pdftotext: str):
    source = folder / "page.html"
    source.write_text(page, encoding="utf-8")
    pdf = export.print_pdf(source, chromium)
    assert pdf is not None, "chromium printed nothing"
    return printed_lines(pdf, pdftotext)


def test_the_print_style_sheet_reaches_the_printed_page():
    page = export._printable(notebook_page())
    css = export.PRINT_CSS.read_text(encoding="utf-8")
    assert css in page and page.index(css) < page.index("</head>")
    for rule in ("break-after: avoid", "break-inside: avoid", ".jp-MarkdownCell"):
        assert rule in css


def test_no_page_ends_with_a_heading_and_small_tables_stay_whole(tmp_path):
    chromium, pdftotext = _tools()
    pages = _print(export._printable(notebook_page()), tmp_path, chromium, pdftotext)
    assert len(pages) >= 3, "the page is too short to test page breaks"
    assert stranded_headings(pages) == []
    assert split_tables(pages) == []
    printed = {text.strip() for lines in pages for _, _, text in lines}
    assert {f"Section {k}" for k in range(SECTIONS)} <= printed  # nothing lost


def test_without_the_keep_rules_a_heading_is_stranded(tmp_path):
    """The control: the checks above find the faults the style sheet prevents."""
    chromium, pdftotext = _tools()
    pages = _print(notebook_page(), tmp_path, chromium, pdftotext)  # no print style sheet
    assert stranded_headings(pages) or split_tables(pages)


# -- pages as the report exports them -------------------------------------------------------


def exported_page(folder: Path, cells: list) -> Path:
    """A notebook of `cells` exported as the report exports its pages: the reader's HTML."""
    import nbformat

    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    source = folder / "page.ipynb"
    nbformat.write(notebook, str(source))
    export.export(source, folder, "page")
    return folder / "page.html"


def long_sections(printed: bool = False) -> list:
    """Sections of a long introduction (a heading and paragraphs) and the table it introduces.

    An introduction stays with its table (the print style sheet's keep rules), so where a
    section does not fit in what is left of a page, the break must fall between the
    paragraphs of its introduction: a markdown cell's, or with `printed` the text a code
    cell printed under its heading.
    """
    import nbformat

    cells = []
    for k in range(SECTIONS):
        paragraphs = "\n\n".join(FILLER * 3 for _ in range(3 + k % 4))
        if printed:
            cells.append(nbformat.v4.new_markdown_cell(f"## Section {k}"))
            printed = nbformat.v4.new_code_cell("display(Markdown(text))")
            printed.outputs = [nbformat.v4.new_output(
                "display_data", data={"text/markdown": paragraphs})]
            cells.append(printed)
        else:
            cells.append(nbformat.v4.new_markdown_cell(f"## Section {k}\n\n{paragraphs}"))
        rows = "".join(f"<tr><td>S{k} row {r}</td><td>{r * k}</td></tr>" for r in range(ROWS))
        table = nbformat.v4.new_code_cell("table")
        table.outputs = [nbformat.v4.new_output(
            "display_data", data={"text/html": f'<table class="sudosat-table">{rows}</table>'}
        )]
        cells.append(table)
    return cells


def page_fill(pdf: Path) -> list[float]:
    """How far down each page of `pdf` something is printed, as a share of the page's height."""
    import numpy as np
    from PIL import Image

    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    prefix = pdf.with_suffix("")
    subprocess.run([pdftoppm, "-r", "24", "-gray", "-png", str(pdf), str(prefix)], check=True)
    fills = []
    for image in sorted(pdf.parent.glob(f"{prefix.name}-*.png")):
        pixels = np.asarray(Image.open(image).convert("L"))
        inked = np.flatnonzero((pixels < 200).any(axis=1))
        fills.append(float(inked[-1] + 1) / len(pixels) if len(inked) else 0.0)
        image.unlink()
    return fills


HALF_EMPTY = 0.75
"""A page whose text ends above this share of its height is left (partly) empty."""


SPLITTING_RULES = {
    False: r"\s*\.jp-(InputArea|MarkdownOutput) \{[^}]*\}",  # a markdown cell's layout
    True: r"\s*\.jp-OutputArea-child:has[^{]*\{[^}]*\}",  # an output kept whole
}
"""The print style sheet's rules that let long text break across pages, by what holds it."""


@pytest.mark.parametrize("printed", [False, True], ids=["markdown cells", "printed markdown"])
def test_long_text_breaks_between_paragraphs_and_fills_each_page(tmp_path, printed):
    chromium, _ = _tools()
    page = exported_page(tmp_path, long_sections(printed))
    pdf = export.print_pdf(page, chromium)
    assert pdf is not None
    fills = page_fill(pdf)
    assert len(fills) >= 3, "the page is too short to test page breaks"
    assert [round(f, 2) for f in fills[:-1] if f < HALF_EMPTY] == []
    # the control: without its rule, the text is kept whole and pages are left half empty
    css = export.PRINT_CSS.read_text(encoding="utf-8")
    unsplit = re.sub(SPLITTING_RULES[printed], "", css)
    assert unsplit != css
    page.write_text(page.read_text(encoding="utf-8").replace(css, unsplit), encoding="utf-8")
    pdf = export.print_pdf(page, chromium)
    assert pdf is not None and min(page_fill(pdf)[:-1]) < HALF_EMPTY


def printed_image_widths(pdf: Path) -> list[float]:
    """The printed width in inches of every image of `pdf` (``pdfimages -list``)."""
    pdfimages = shutil.which("pdfimages")
    if pdfimages is None:
        pytest.skip("pdfimages (poppler-utils) is not installed")
    listing = subprocess.run(
        [pdfimages, "-list", str(pdf)], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    widths = []
    for row in listing:
        fields = row.split()
        widths.append(int(fields[3]) / float(fields[12]))  # pixels / pixels per inch
    return widths


def test_figures_print_at_their_own_size_up_to_the_page_width(tmp_path):
    """What :func:`sudosat.report.plots.printed_scale` assumes, measured on a printed page."""
    import base64

    import nbformat

    from sudosat.report import plots

    cells = []
    for width in (plots.PAGE_WIDTH_IN, 12.0):
        figure, ax = plots.new_figure(width, 2.0)
        ax.plot([1, 2], [1, 2])
        png = base64.b64encode(figure._repr_png_()).decode("ascii")
        cell = nbformat.v4.new_code_cell("figure")
        cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": png})]
        cells.append(cell)
    chromium, _ = _tools()
    pdf = export.print_pdf(exported_page(tmp_path, cells), chromium)
    assert pdf is not None
    fitting, wide = printed_image_widths(pdf)
    assert fitting == pytest.approx(plots.PAGE_WIDTH_IN * plots.PAGE_DPI / 96, abs=0.05)
    assert wide == pytest.approx(plots.PRINTED_WIDTH_IN, abs=0.08)
    assert fitting <= plots.PRINTED_WIDTH_IN + 0.05
