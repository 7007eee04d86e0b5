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
