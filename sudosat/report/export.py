"""The report's pages as files: executed notebooks exported to HTML, printed to PDF.

Each notebook becomes the reader's page (``NAME.html``: no code, no progress
bars, no live widgets) and the page with code (``NAME-code.html``), both with
a bar back to the index and a print style sheet; the large style sheets
nbconvert inlines go to one shared ``notebook.css``. Headless Chromium, when
installed, prints each reader's page to an A4 PDF.
"""

from __future__ import annotations

import html
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudosat.errors import SolverError
from sudosat.process import run_program
from sudosat.sat.solvers.budget import Deadline

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
LIVE_TAG = "live"  # cells that display live widgets: removed from the exports
CHROMIUM_LIMIT_MS = 60_000  # one page takes 2-3 s
PDF_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-pdf-header-footer",
    # untagged: the accessibility tree of a tagged PDF holds an object per table cell, and
    # made the results page's PDF (57 boards) 5.5 MB instead of under 1 MB
    "--disable-pdf-tagging",
    "--virtual-time-budget=10000",
)


def export(executed: Path, folder: Path, name: str) -> list[Path]:
    """Export an executed notebook as the reader's HTML and the HTML with code."""
    import nbformat
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    notebook = nbformat.read(str(executed), as_version=4)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for suffix, with_code in (("", False), ("-code", True)):
        config = Config()
        config.TagRemovePreprocessor.enabled = True
        config.TagRemovePreprocessor.remove_cell_tags = {LIVE_TAG} if not with_code else set()
        config.TagRemovePreprocessor.remove_all_outputs_tags = {LIVE_TAG} if with_code else set()
        config.TagRemovePreprocessor.remove_input_tags = {"hide-input"}
        exporter = HTMLExporter(
            config=config,
            extra_template_basedirs=[str(TEMPLATES)],
            template_name="sudosat",
            exclude_input=not with_code,
            exclude_input_prompt=not with_code,
            exclude_output_prompt=True,
        )
        static = _without_noise(notebook, reader=not with_code)
        body, _ = exporter.from_notebook_node(static, resources={"metadata": {"name": name}})
        path = folder / f"{name}{suffix}.html"
        body = _shared_styles(body, folder)
        path.write_text(_printable(_titled(body, name, with_code)), encoding="utf-8")
        written.append(path)
    return written


SHARED_CSS = "notebook.css"
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
_STYLE_BLOCK = re.compile(r"<style[^>]*>(.*?)</style>", re.S)


def _shared_styles(page: str, folder: Path) -> str:
    """Move the large style sheets nbconvert inlines (the same on every page) to one file.

    Each page then links ``notebook.css`` instead of carrying about 280 kB of
    CSS; small, page-specific style blocks stay where they are.
    """
    head_end = page.find("</head>")
    if head_end < 0:
        return page
    head = page[:head_end]
    large = [m for m in _STYLE_BLOCK.finditer(head) if len(m.group(1)) > 4000]
    if not large:
        return page
    css = "\n".join(m.group(1) for m in large)
    target = folder / SHARED_CSS
    if not target.is_file() or target.read_text(encoding="utf-8") != css:
        target.write_text(css, encoding="utf-8")
    for match in reversed(large):
        head = head[: match.start()] + head[match.end() :]
    link = f'<link rel="stylesheet" href="{SHARED_CSS}">'
    return head + link + page[head_end:]


def _without_noise(notebook: Any, reader: bool) -> Any:
    """A copy fit for a static page.

    Widget views (a progress bar, the explorer) cannot render without a
    kernel: they are replaced by their plain-text form. The reader's version
    also loses standard-error streams (progress text, warnings) and the cell
    papermill injects with the run's parameters (the page states them).
    """
    import copy

    clean = copy.deepcopy(notebook)
    if reader:
        clean.cells = [
            c for c in clean.cells if "injected-parameters" not in c.metadata.get("tags", [])
        ]
    for cell in clean.cells:
        if cell.cell_type != "code":
            continue
        kept = []
        for output in cell.outputs:
            if reader and output.get("output_type") == "stream" and output.get("name") == "stderr":
                continue
            data = output.get("data", {})
            if WIDGET_MIME in data:
                data.pop(WIDGET_MIME)
                if not data:
                    continue
            kept.append(output)
        cell.outputs = kept
    clean.metadata.pop("widgets", None)
    return clean


def _titled(body: str, name: str, with_code: bool) -> str:
    """Add a link back to the index, and a link to the other version, at the top of the page."""
    other = f"{name}.html" if with_code else f"{name}-code.html"
    label = "reader's version (no code)" if with_code else "version with code"
    bar = (
        '<div class="sudosat-nav" '
        'style="font-family:sans-serif;font-size:90%;padding:0.5em 1em;background:#f4f4f4">'
        f'<a href="index.html">&larr; index</a> &middot; <a href="{other}">{label}</a></div>'
    )
    return _after_body(body, bar) if "<body" in body else bar + body


PRINT_CSS = TEMPLATES / "sudosat" / "print.css"


def _printable(page: str) -> str:
    """Add the print style sheet (A4, no navigation, nothing cut in two) to the page's head."""
    style = f"<style>\n{PRINT_CSS.read_text(encoding='utf-8')}</style>"
    end = page.find("</head>")
    return page[:end] + style + page[end:] if end >= 0 else style + page


def _after_body(body: str, insert: str) -> str:
    start = body.index("<body")
    end = body.index(">", start) + 1
    return body[:end] + insert + body[end:]


def print_pdf(
    page: Path, chromium: str, target: Path | None = None, limit_ms: float = CHROMIUM_LIMIT_MS
) -> Path | None:
    """Print an HTML page to PDF with headless Chromium; None when it fails.

    The PDF is `target` (default: the page's name with ``.pdf``). Chromium
    starts helper processes that outlive a killed parent; it runs in its own
    process group, which is killed as a whole when it exits or after
    `limit_ms` (default ``CHROMIUM_LIMIT_MS``), so a stuck browser can neither
    hang the build nor linger.
    """
    target = target or page.with_suffix(".pdf")
    with tempfile.TemporaryDirectory(prefix="sudosat-chromium-") as profile:
        command = [
            chromium,
            *PDF_FLAGS,
            f"--user-data-dir={profile}",
            f"--print-to-pdf={target}",
            page.resolve().as_uri(),
        ]
        try:
            done = run_program(command, Path(profile), Deadline(limit_ms), "chromium")
        except SolverError:  # it could not be started
            return None
    if done.timed_out or not target.is_file() or target.stat().st_size == 0:
        return None
    return target


def find_chromium() -> str | None:
    """Debian's Chromium (``chromium`` or ``chromium-browser``) on PATH, if installed."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


# -- the whole report in one PDF ---------------------------------------------------------

COMPLETE_PDF = "report-complete.pdf"
"""The one PDF of the whole report: a contents page, then every page in reading order."""
COMPLETE_LIMIT_MS = 300_000  # every page at once: about 75 printed pages
_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S)


def complete_html(parts: Sequence[tuple[str, str, str]], folder: Path, intro: str = "") -> str:
    """The reader's pages of `parts` (file stem, title, summary) in `folder` as one HTML document.

    A contents page comes first (each part's title, linked to where it starts,
    and its summary; `intro`, HTML, under the title), then each page's body in
    the order given, each starting on a new printed page. The head (styles, the
    print style sheet) is the first page's: every page is exported alike.
    """
    texts = [(stem, (folder / f"{stem}.html").read_text(encoding="utf-8")) for stem, _, _ in parts]
    first = texts[0][1]
    head = first[: first.index("</head>")]
    head = re.sub(r"<title>.*?</title>", "<title>sudosat: the complete report</title>", head,
                  flags=re.S)
    opening = re.search(r"<body[^>]*>", first)
    items = "".join(
        f'<li><a href="#part-{stem}"><b>{html.escape(title)}</b></a><br>'
        f"<span>{html.escape(summary)}</span></li>" for stem, title, summary in parts)
    contents = (
        '<div class="sudosat-contents jp-RenderedHTMLCommon" style="padding:0 1em">'
        "<h1>sudosat: Sudoku reduced to SAT</h1>"
        f"{intro}<h2>Contents</h2><ol>{items}</ol></div>"
    )
    stems = [stem for stem, _ in texts]
    sections = []
    for stem, text in texts:
        found = _BODY.search(text)
        body = found.group(1) if found else text
        # Each page's anchors stay its own; links between the pages point inside the document.
        body = re.sub(r'(?<=\s)id="', f'id="{stem}-', body)
        body = re.sub(r'href="#', f'href="#{stem}-', body)
        for other in stems:
            body = body.replace(f'href="{other}.html#', f'href="#{other}-')
            body = body.replace(f'href="{other}.html"', f'href="#part-{other}"')
        sections.append(f'<section class="sudosat-part" id="part-{stem}">{body}</section>')
    style = ("<style>.sudosat-part{break-before:page;page-break-before:always}"
             ".sudosat-contents li{margin:0.6em 0}</style>")
    return (f"{head}{style}</head>{opening.group(0) if opening else '<body>'}{contents}"
            f"{''.join(sections)}</body></html>")


def print_complete(
    parts: Sequence[tuple[str, str, str]], folder: Path, chromium: str, intro: str = ""
) -> Path | None:
    """Print :func:`complete_html` of `parts` to ``folder/report-complete.pdf``; None on failure.

    The document is written beside the pages (it links their style sheet) for
    the time of the printing only.
    """
    source = folder / ".report-complete.html"
    source.write_text(complete_html(parts, folder, intro), encoding="utf-8")
    try:
        return print_pdf(source, chromium, folder / COMPLETE_PDF, COMPLETE_LIMIT_MS)
    finally:
        source.unlink(missing_ok=True)
