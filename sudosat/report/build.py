"""``make report``: run the notebooks, export them, write the index, print the PDFs.

Steps, in order:

1. execute every notebook of ``notebooks/`` with papermill (reduction, solvers,
   experiment, report, explore, scaling, heuristics), passing each only the
   parameters its ``parameters`` cell declares; executed copies go to
   ``build/notebooks/``;
2. export each with nbconvert to ``reports/<name>.html`` (the reader's
   version: no code, no progress bars, no live widgets) and
   ``reports/<name>-code.html`` (with the code) (:mod:`sudosat.report.export`);
3. write ``reports/index.html`` linking them, with the experiment's summary;
4. when Debian's ``chromium`` is on PATH, print each reader's page to
   ``reports/<name>.pdf`` (headless; nothing is downloaded), and the whole report,
   a contents page and then every page in reading order, to
   ``reports/report-complete.pdf``.

Figures are saved to ``figures/`` by the notebooks themselves (PNG and SVG),
without dates and with a fixed SVG hash salt, so that a rebuild whose numbers
did not change rewrites them byte for byte. The build prints one line per step
with its time and ends with a summary of what it wrote and where.

Nothing is written to ``reports/`` or ``figures/`` until every step has
succeeded: the notebooks run in a staging folder (:func:`staged`) that shows
the project through links but holds its own copies of those two folders, and
only a build that finished moves its new and changed files into place
(:func:`publish`). A failed or interrupted build leaves them as they were.
Every parameter is checked first, with the command line's own option types
(:mod:`sudosat.run.options`): a wrong value is one line and exit 2; an instance
file that cannot be read or holds a line that does not parse (named as
``file:line``), and a solver that does not run here, one line and exit 1, all
before any notebook runs. The outputs of an earlier run that this run does not
write again (the solutions of a solver no longer compared, a figure a page no
longer draws) are removed with the rest of its outputs' update
(:func:`earlier_outputs`).

The pages, the build's settings and the notebooks' parameters are in
:mod:`sudosat.report.pages`; the exports and PDFs in :mod:`sudosat.report.export`.

Usage::

    sudosat report [--instances FILE] [--time-limit-ms T] [--solvers a,b]
                   [--only NAME ...] [--quick] [--no-pdf]
"""

from __future__ import annotations

import argparse
import base64
import filecmp
import html
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from sudosat.errors import MissingExtraError, SudosatError, open_error_reason
from sudosat.report.export import COMPLETE_PDF, export, find_chromium, print_complete, print_pdf
from sudosat.report.pages import (
    BUILD_PATHS,
    PAGES,
    Page,
    Settings,
    add_build_options,
    declared_parameters,
    parameter_problems,
    parameters_cell,
    parameters_for,
    saved_figures,
    value_problems,
)
from sudosat.run.options import OneLineParser

__all__ = [
    "PAGES",
    "Page",
    "Settings",
    "build",
    "earlier_outputs",
    "execute",
    "index_html",
    "instances_problem",
    "main",
    "parameter_problems",
    "parameters_cell",
    "parameters_for",
    "print_pdf",
    "publish",
    "solvers_problem",
    "staged",
]


def execute(name: str, settings: Settings) -> Path:
    """Run notebook `name` with papermill from the project root; return the executed copy."""
    import papermill

    source = settings.root / "notebooks" / f"{name}.ipynb"
    target = settings.root / settings.build / f"{name}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    declared = declared_parameters(source)
    parameters = {k: v for k, v in parameters_for(name, settings).items() if k in declared}
    problems = parameter_problems(parameters_cell(source)) + value_problems(parameters)
    if problems:
        raise SudosatError(f"notebooks/{name}.ipynb parameters: " + "; ".join(problems))
    with _reproducible_figures(), tempfile.TemporaryDirectory(prefix="sudosat-kernel-") as sockets:
        papermill.execute_notebook(
            str(source),
            str(target),
            parameters=parameters,
            kernel_name="python3",
            cwd=str(settings.root),
            progress_bar=False,
            config=_kernel_config(Path(sockets)),
        )
    return target


def _kernel_config(sockets: Path) -> Any:
    """The kernel talks to the build over local sockets (IPC) in `sockets`, and logs only crashes.

    Over TCP ipykernel warns, once per notebook, that the traffic is not
    encrypted; IPC sockets are files only this user can reach. They must live
    in a folder of this build's own: jupyter_client's default names them
    ``kernel-ipc-N`` in the working directory, so two builds (or two test
    workers) running at once in one project folder connected to each other's
    kernels and failed with "Invalid Signature".
    """
    from traitlets.config import Config

    config = Config()
    config.KernelManager.transport = "ipc"
    config.KernelManager.ip = str(sockets / "kernel")
    # jupyter_client interrupts a kernel before shutting it down; ipykernel then sometimes
    # logs "KeyboardInterrupt caught in kernel" on our output. Cell errors still reach us:
    # papermill reads them from the executed notebook, not from the kernel's log.
    config.NotebookClient.extra_arguments = ["--IPKernelApp.log_level=CRITICAL"]
    return config


@contextmanager
def _reproducible_figures() -> Iterator[None]:
    """Kernels started inside see a fixed SVG salt and a fixed date for every figure.

    :func:`sudosat.report.save_figure` already writes no date; these cover any
    other code that saves a figure (matplotlib reads ``MATPLOTLIBRC`` at import
    and ``SOURCE_DATE_EPOCH`` for the dates of SVG and PDF files).
    """
    from sudosat.report.plots import MATPLOTLIBRC  # matplotlib: only once pages are built

    wanted = {"MATPLOTLIBRC": str(MATPLOTLIBRC), "SOURCE_DATE_EPOCH": "0"}
    saved = {key: os.environ.get(key) for key in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


RERUN_COMMAND = (
    ".venv/bin/papermill notebooks/experiment.ipynb runs/experiment.ipynb "
    "-p instances data/course-example.txt -p time_limit_ms 5000"
)
"""A re-run that works as written on a fresh clone after ``make report``, writing only into
``runs/`` (ignored by git): the executed notebook there, the results in ``runs/experiment/``."""


def index_html(
    pages: Sequence[Page],
    settings: Settings,
    pdfs: Mapping[str, Path],
    durations: Mapping[str, float],
) -> str:
    """The report's front page: what it holds, how it was made, links to every page.

    A PDF is linked only when its file is there; nothing on the page depends
    on the day it was built.
    """
    from sudosat.report.comparison import comparisons_html
    from sudosat.report.io import load_results, read_manifest
    from sudosat.report.tables import html_table, summary_table

    results_file = settings.root / settings.reports / "data" / "results.csv"
    manifest = read_manifest(results_file) if results_file.is_file() else {}
    summary = ""
    if results_file.is_file():
        results = load_results(results_file)
        summary = (
            "<h2>Results at a glance</h2>" + html_table(summary_table(results))
            + comparisons_html(results)
        )
    notes = "".join(f"<p class='note'>{html.escape(n)}</p>" for n in manifest.get("notes", []))
    items = []
    for page in pages:
        links = [
            f'<a href="{page.name}.html">read</a>',
            f'<a href="{page.name}-code.html">with code</a>',
        ]
        if page.name in pdfs and pdfs[page.name].is_file():
            links.append(f'<a href="{pdfs[page.name].name}">PDF</a>')
        live = page.name == "explore"  # the live page, published beside the report
        if live:
            links.append(LIVE_LINK)
        took = (
            f" <span class='took'>({durations[page.name]:.0f} s to run)</span>"
            if page.name in durations
            else ""
        )
        items.append(
            f"<li><b>{html.escape(page.title)}</b> &middot; {' &middot; '.join(links)}{took}"
            f"<br><span>{html.escape(page.summary)}</span>{LIVE_ON_FILE if live else ''}</li>"
        )
    figures = _figure_strip(settings)
    solvers = ", ".join(manifest.get("solvers", []) or settings.solvers)
    encoding = str(manifest.get("encoding", settings.encoding))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>sudosat report</title>
<style>{_INDEX_CSS}</style></head><body>
<h1>sudosat: Sudoku reduced to SAT</h1>
<p>Sudoku boards of order N (N² × N² cells) are translated to CNF, solved by our own CDCL solver
and by a reference solver, and translated back. This report was generated by
<code>make report</code>.</p>
<p>The experiment and its results page: instance file
<code>{html.escape(str(manifest.get("instances", settings.instances)))}</code>;
time limit T = {manifest.get("time_limit_ms", settings.time_limit_ms):g} ms for every solver;
solvers: {html.escape(solvers)}; encoding: {html.escape(encoding)}. The other pages run their
own instances with their own settings, described on each page.</p>
{notes}
<h2>Pages</h2><ol>{"".join(items)}</ol>
{_complete_link(settings)}
{summary}
{figures}
<h2>Re-run a page on your own file</h2>
<p>From the project folder, after <code>make report</code> (which creates <code>.venv</code>):</p>
<pre>{html.escape(RERUN_COMMAND)}</pre>
<p>Replace <code>data/course-example.txt</code> by your instance file. The executed notebook
goes to <code>runs/experiment.ipynb</code> and the results table, the solutions and the
manifest to <code>runs/experiment/</code> (the <code>output_dir</code> parameter); the report's
own data in <code>reports/data/</code> is written only by <code>make report</code>.</p>
{LIVE_FILE_SCRIPT}
</body></html>
"""


LIVE_LINK = '<a href="live/" id="live-link">live in your browser</a>'
"""The index's link to the live page, which ``make site`` and ``make serve`` put at ``live/``."""
LIVE_ON_FILE = (
    '<p id="live-file" class="note" hidden>Opened as a file, the live page cannot run: serve it '
    "over http (in the project folder, <code>make live</code>, then <code>make serve</code>, and "
    "open http://127.0.0.1:8000/live/), or open it on the course's published site.</p>"
)
LIVE_FILE_SCRIPT = """<script>
// Opened as a file, a browser cannot run the live page: say so beside its link, at once.
const note = document.getElementById("live-file");
if (location.protocol === "file:" && note) {
  note.hidden = false;
  document.getElementById("live-link").addEventListener("click", (event) => {
    event.preventDefault();
    note.scrollIntoView({ block: "center" });
  });
}
</script>"""


def _complete_link(settings: Settings) -> str:
    """The index's link to the whole report in one PDF, when it was printed."""
    if not (settings.root / settings.reports / COMPLETE_PDF).is_file():
        return ""
    return (f'<p>The whole report in one PDF, every page in reading order after a contents page: '
            f'<a href="{COMPLETE_PDF}">{COMPLETE_PDF}</a>.</p>')


_INDEX_CSS = """
body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45}
body{color:#222} li{margin:0.7em 0} .took{color:#777;font-size:85%}
pre{background:#f6f6f6;padding:0.6em 0.8em;white-space:pre-wrap}
.note{background:#fff6d8;border-left:4px solid #e0b000;padding:0.4em 0.8em}
table.sudosat-table{border-collapse:collapse}
table.sudosat-table td,table.sudosat-table th{border-bottom:1px solid #ddd;padding:0.2em 0.7em}
table.sudosat-table td{text-align:right} .strip img{height:170px;margin:0.3em;border:1px solid #ddd}
"""


# The figures the front page shows, each with the page it comes from (its link).
_STRIP = {
    "report-per-instance": "report",
    "report-scatter": "report",
    "report-scatter-search": "report",
    "report-cactus": "report",
    "reduction-families": "reduction",
}


def _figure_strip(settings: Settings) -> str:
    """Thumbnails of the main figures, embedded in the page, each linking to its page.

    Embedded (about 60 kB each), so that ``reports/`` stands alone:
    published without ``figures/``, the front page still shows them.
    """
    folder = settings.root / settings.figures_dir
    reports = settings.root / settings.reports
    images = []
    for name, page in _STRIP.items():
        png = folder / f"{name}.png"
        if not png.is_file():
            continue
        data = base64.b64encode(png.read_bytes()).decode("ascii")
        image = f'<img src="data:image/png;base64,{data}" alt="{name}" title="{name}">'
        shown = (reports / f"{page}.html").is_file()
        images.append(f'<a href="{page}.html">{image}</a>' if shown else image)
    if not images:
        return ""
    return (
        f"<h2>Figures</h2><div class='strip'>{''.join(images)}</div>"
        "<p>Each opens the page that draws it (end to end on the wall clock, search alone on "
        "CPU time); every figure, PNG and SVG, is in the "
        "repository's <code>figures/</code>.</p>"
    )


def say(message: str) -> None:
    """One line of the build's log, on standard error."""
    print(f"[report] {message}", file=sys.stderr, flush=True)


def pages_in(reports: Path) -> list[Page]:
    """The report's pages exported in `reports`, in reading order: what the index links.

    After ``--only`` this is every page there, not only those the run rebuilt.
    """
    return [page for page in PAGES if (reports / f"{page.name}.html").is_file()]


def build(settings: Settings, only: Sequence[str] = ()) -> int:
    """Run the whole build; return the process exit code.

    Every step runs in a staging folder (:func:`staged`); only when all have
    succeeded are the new and changed files moved into ``reports/`` and
    ``figures/`` (:func:`publish`), so a failing page changes neither.
    Prints one line per step with its time, and a closing summary: the pages,
    the PDFs, the figures and where they are.
    """
    started = time.perf_counter()
    pages = [
        p
        for p in PAGES
        if (settings.root / "notebooks" / f"{p.name}.ipynb").is_file()
        and (not only or p.name in only)
    ]
    figures_before = _figure_files(settings)
    with staged(settings) as stage:
        reports = stage.root / stage.reports
        earlier = earlier_outputs(stage, [page.name for page in pages])
        for path in earlier:
            path.unlink()  # in the stage: the real file goes only if the build succeeds
        durations: dict[str, float] = {}
        for page in pages:
            began = time.perf_counter()
            executed = execute(page.name, stage)
            export(executed, reports, page.name)
            durations[page.name] = time.perf_counter() - began
            say(f"{page.name:<11} ran and exported in {_took(durations[page.name])}")
        pdfs = print_pdfs(pages, reports, stage.pdf)
        listed = pages_in(reports)
        if pdfs:
            print_complete_pdf(listed, reports)
        kept = {p.name: reports / f"{p.name}.pdf" for p in listed}
        index = reports / "index.html"
        index.write_text(index_html(listed, stage, {**kept, **pdfs}, durations), encoding="utf-8")
        figures = _figure_files(stage)
        changed = sum(1 for path, stamp in figures.items()
                      if figures_before.get(_real(path, stage, settings)) != stamp)
        gone = [path for path in earlier if not path.exists()]
        shown = [_relative(_real(path, stage, settings), settings.root) for path in gone]
        written = publish(stage, settings, removed=gone)
    if gone:
        say(f"removed {_count(len(gone), 'output')} of an earlier run that this one did not "
            f"write again: {', '.join(shown)}")
    folder = _shown(settings.root / settings.figures_dir)
    say(
        f"done in {_took(time.perf_counter() - started)}: {_count(len(pages), 'page')} "
        f"({2 * len(pages)} HTML files) and {index.name} in "
        f"{_shown(settings.root / settings.reports)}; {len(pdfs)} PDFs; "
        f"{len(figures)} figure files in {folder}"
        f" ({changed} rewritten with new content); {_count(written, 'file')} new or changed"
    )
    return 0


@contextmanager
def staged(settings: Settings) -> Iterator[Settings]:
    """The settings of a build run in a staging folder, removed afterwards.

    The folder shows the project root through symbolic links, except the
    reports and figures folders (and the folders above them), which are real
    and hold a copy of what they hold now. The notebooks run there with the
    same relative paths as in the project (``reports/data``, ``figures``), so
    nothing they write names the staging folder; an output folder outside
    the project is staged under ``outside/`` and given by its staged path.
    The executed notebooks still go to the project's build folder.
    """
    root = settings.root
    (root / ".cache").mkdir(exist_ok=True)  # the studies' cache is shared, not staged
    stage = Path(tempfile.mkdtemp(prefix="sudosat-report-"))
    try:
        inside: list[tuple[str, ...]] = []
        moved: dict[str, Path] = {}
        for name in ("reports", "figures_dir"):
            real = root / getattr(settings, name)
            try:
                moved[name] = real.resolve().relative_to(root.resolve())
                inside.append(moved[name].parts)
            except ValueError:
                moved[name] = stage / "outside" / name
                _copy_folder(real, moved[name])
        _mirror(root, stage / "root", inside)
        instances = settings.instances
        if not (root / instances).resolve().is_relative_to(root.resolve()):
            instances = str((root / instances).resolve())  # "../x.txt" means the project's
        yield replace(settings, root=stage / "root", build=root / settings.build,
                      reports=moved["reports"], figures_dir=moved["figures_dir"],
                      instances=instances)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _mirror(source: Path, target: Path, outputs: Sequence[tuple[str, ...]]) -> None:
    """`target` shows `source` through links; the `outputs` (paths in parts) are real copies."""
    target.mkdir(parents=True, exist_ok=True)
    heads = {parts[0] for parts in outputs}
    if source.is_dir():
        for entry in source.iterdir():
            if entry.name not in heads:
                (target / entry.name).symlink_to(entry)
    for head in heads:
        inner = [parts[1:] for parts in outputs if parts[0] == head]
        if () in inner:
            _copy_folder(source / head, target / head)
        else:
            _mirror(source / head, target / head, inner)


def _copy_folder(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True)
    else:
        target.mkdir(parents=True)


def earlier_outputs(stage: Settings, pages: Sequence[str]) -> list[Path]:
    """The staged outputs of an earlier run that the pages about to run may not write again.

    The experiment writes one solutions file per solver it compares
    (``reports/data/solutions.<solver>.txt``; ``solutions.txt`` for one), and
    a page saves some figures only in some runs (see
    :func:`~sudosat.report.pages.saved_figures`, which names every figure a
    page's notebook may save). Those of an earlier run are removed from the
    staging folder before the pages run, so that what this run does not write
    again (a solver no longer compared, a figure no longer drawn) does not
    stay beside its results. Figures that no page of this run saves (the
    study command's, another page's) are left alone.
    """
    found: list[Path] = []
    if "experiment" in pages:
        data = stage.root / stage.reports / "data"
        found += data.glob("solutions*.txt")
    figures = stage.root / stage.figures_dir
    for page in pages:
        notebook = stage.root / "notebooks" / f"{page}.ipynb"
        for name in saved_figures(notebook) if notebook.is_file() else ():
            found += (figures / f"{name}{suffix}" for suffix in (".png", ".svg"))
    return sorted(path for path in found if path.is_file())


def publish(stage: Settings, settings: Settings, removed: Sequence[Path] = ()) -> int:
    """Move the staged reports and figures that are new or changed into place; count them.

    Each file replaces its old self in one step (written beside it, then
    renamed over it); files whose bytes did not change are left alone. The
    project's files of the `removed` ones (staged outputs of an earlier run
    that this run did not write again, see :func:`earlier_outputs`) are
    deleted, and counted too.
    """
    written = 0
    for path in removed:
        target = _real(path, stage, settings)
        if target.is_file():
            target.unlink()
            written += 1
    for name in ("reports", "figures_dir"):
        staged_folder = stage.root / getattr(stage, name)
        real_folder = settings.root / getattr(settings, name)
        for path in sorted(staged_folder.rglob("*")):
            if path.is_symlink() or not path.is_file():
                continue
            target = real_folder / path.relative_to(staged_folder)
            if target.is_file() and filecmp.cmp(path, target, shallow=False):
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
            shutil.copyfile(path, temporary)
            os.replace(temporary, target)
            written += 1
    return written


def _real(path: Path, stage: Settings, settings: Settings) -> Path:
    """The project's file (a report or a figure) for a staged one."""
    for name in ("figures_dir", "reports"):
        staged_folder = stage.root / getattr(stage, name)
        if path.is_relative_to(staged_folder):
            return settings.root / getattr(settings, name) / path.relative_to(staged_folder)
    raise ValueError(f"{path} is not a staged output")


def print_pdfs(pages: Sequence[Page], reports: Path, wanted: bool) -> dict[str, Path]:
    """Print each reader's page to PDF when Chromium is here; say what was printed."""
    if not wanted:
        return {}
    chromium = find_chromium()
    if chromium is None:
        say("no PDF: chromium is not installed (Debian: apt-get install chromium)")
        return {}
    began = time.perf_counter()
    pdfs: dict[str, Path] = {}
    for page in pages:
        pdf = print_pdf(reports / f"{page.name}.html", chromium)
        if pdf is None:  # a browser that fails once fails again: do not wait on each page
            say(f"chromium did not print {page.name}.html: no further PDFs")
            break
        pdfs[page.name] = pdf
    if pdfs:
        largest = max(pdfs.values(), key=lambda path: path.stat().st_size)
        size = largest.stat().st_size / 1e6
        heavy = " (over 2 MB: do not commit it)" if size > PDF_COMMIT_LIMIT_MB else ""
        say(
            f"PDFs        {len(pdfs)} printed in {_took(time.perf_counter() - began)}, "
            f"largest {largest.name} {size:.1f} MB{heavy}"
        )
    return pdfs


def print_complete_pdf(pages: Sequence[Page], reports: Path) -> Path | None:
    """Print the whole report, every page in reading order after a contents page, to
    ``reports/report-complete.pdf`` (:func:`sudosat.report.export.print_complete`)."""
    chromium = find_chromium()
    if chromium is None or not pages:
        return None
    began = time.perf_counter()
    intro = (
        "<p>Every page of the report in reading order, as <code>make report</code> built them; "
        "each also stands alone as <code>reports/NAME.html</code> and <code>NAME.pdf</code>, "
        "linked from <code>reports/index.html</code>.</p>")
    pdf = print_complete([(p.name, p.title, p.summary) for p in pages], reports, chromium, intro)
    if pdf is None:
        say("chromium did not print the complete report")
        return None
    say(f"PDF         {pdf.name} printed in {_took(time.perf_counter() - began)}, "
        f"{pdf.stat().st_size / 1e6:.1f} MB")
    return pdf


PDF_COMMIT_LIMIT_MB = 2.0
"""PDFs up to this size are committed beside the HTML."""


def _figure_files(settings: Settings) -> dict[Path, bytes]:
    """The figures folder's files and their contents' digests."""
    import hashlib

    folder = settings.root / settings.figures_dir
    if not folder.is_dir():
        return {}
    return {
        path: hashlib.sha256(path.read_bytes()).digest()
        for path in sorted(folder.iterdir())
        if path.suffix in (".png", ".svg")
    }


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _took(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds // 60:.0f} min {seconds % 60:.0f} s"


def _relative(path: Path, root: Path) -> str:
    """`path` relative to `root` when it lies inside it, else as it is."""
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def _shown(path: Path) -> str:
    """`path` relative to the working directory when it lies inside it."""
    try:
        return f"{path.resolve().relative_to(Path.cwd().resolve())}/"
    except ValueError:
        return f"{path}/"


def instances_problem(path: Path) -> str | None:
    """Why the instance file cannot be used, or None: every line read and parsed first.

    A bad line is named as ``file:line`` with its reason, before any notebook
    runs (the experiment would otherwise run for a minute and fail on it).
    """
    from sudosat.lines import read_text, split_lines
    from sudosat.run.pipeline import parse_line

    try:
        lines = split_lines(read_text(path))
    except OSError as exc:
        return f"{path}: {open_error_reason(exc)}"
    except SudosatError as exc:  # too big for the memory limit
        return str(exc.at(file=str(path)))
    if not lines:
        return f"{path}: holds no instance line"
    for number, line in enumerate(lines, start=1):
        try:
            parse_line(line, source=str(path), line=number)
        except SudosatError as exc:
            return str(exc)
    return None


def solvers_problem(solvers: Sequence[str]) -> str | None:
    """Why a solver asked for cannot run here, or None: each is run on a one-clause formula.

    ``zchaff`` is the exception: without a working zChaff the experiment puts
    PySAT's Minisat22 in its place and says so on its pages.
    """
    from sudosat.run.batch import probe_solver

    for solver in solvers:
        if solver == "zchaff":
            continue
        why = probe_solver(solver)
        if why is not None:
            return f"solver {solver} cannot run here: {why}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; a failing notebook is reported in one line with the cell's error.

    Exit 2 for a wrong parameter, 1 for an instance file that cannot be read
    or holds a bad line and for a solver that cannot run, all before any
    notebook runs; 1 for a failing page, after which ``reports/`` and
    ``figures/`` are as they were.
    """
    parser = OneLineParser(prog="sudosat report", description=__doc__.split("\n")[0])
    add_build_options(parser)
    return run(parser.parse_args(argv))


def _typed_paths(args: argparse.Namespace, root: Path) -> dict[str, Any]:
    """The instance file and the output folders: each one typed, read from where it was
    typed (without ``--root``; with it, from the root); each one not typed (None), the
    project's own (:class:`Settings`' default), read from the root.

    Inside the project a typed path stays relative to the root, so a page names it
    alike from anywhere.
    """
    defaults = {field.name: str(field.default) for field in fields(Settings)}
    paths: dict[str, Any] = {}
    for name in BUILD_PATHS:
        typed = getattr(args, name)
        path = Path(defaults[name] if typed is None else typed)
        if typed is not None and args.root is None and not path.is_absolute():
            path = Path(os.path.abspath(path))
            if path.is_relative_to(root):
                path = path.relative_to(root)
        paths[name] = str(path) if name == "instances" else path
    return paths


def run(args: argparse.Namespace) -> int:
    """Build the report from parsed options (``sudosat report``; see :func:`main`)."""
    missing = [m for m in ("pandas", "matplotlib", "papermill") if not importlib.util.find_spec(m)]
    if missing:  # a light install (no extras): say which extra, not a traceback
        print(f"sudosat report: {MissingExtraError('the report', 'notebooks', missing[0])}",
              file=sys.stderr)
        return 1
    # pandas and matplotlib load only now: a wrong parameter is refused at once
    from sudosat.report.io import project_root
    from sudosat.report.run import timing_workers

    root = (args.root or project_root() or Path.cwd()).resolve()
    paths = _typed_paths(args, root)
    problem = instances_problem(root / paths["instances"]) or solvers_problem(args.solvers)
    if problem:
        print(f"sudosat report: {problem}", file=sys.stderr)
        return 1
    settings = Settings(
        root=root,
        time_limit_ms=args.time_limit_ms,
        solvers=args.solvers,
        encoding=args.encoding,
        **paths,
        jobs=timing_workers(args.jobs),
        quick=args.quick,
        pdf=args.pdf,
    )
    unchanged = f"{settings.reports}/ and {settings.figures_dir}/ are unchanged"
    try:
        return build(settings, args.only)
    except SudosatError as exc:
        print(f"sudosat report: {exc} ({unchanged})", file=sys.stderr)
        return 1
    except Exception as exc:
        if type(exc).__name__ != "PapermillExecutionError":
            raise
        print(
            f"sudosat report: a notebook failed: {getattr(exc, 'ename', '')}: "
            f"{getattr(exc, 'evalue', exc)} "
            f"(see the executed copy in {_shown(root / settings.build)}; {unchanged})",
            file=sys.stderr,
        )
        return 1

