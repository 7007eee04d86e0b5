"""Every figure of the project: one style, one way to make a figure, one :func:`save_figure`.

The style (colours, grid, legend size, the fixed SVG hash salt) lives in one
file, ``sudosat/templates/sudosat/matplotlibrc``: the report build hands it to
every notebook kernel (``MATPLOTLIBRC``), so figures drawn with pyplot inside a
notebook follow it, and every plotting function of this package draws inside
it (:func:`styled`), so its figures look the same wherever they are drawn.

Figures here are :class:`ReportFigure` objects built without pyplot, so
nothing is shown twice and nothing leaks between calls. :func:`save_figure`
writes any figure as PNG and SVG, byte for byte the same when its numbers did
not change. Times are milliseconds everywhere.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import matplotlib
from matplotlib.figure import Figure

from sudosat.report.io import resolve

MATPLOTLIBRC = Path(__file__).resolve().parent.parent / "templates" / "sudosat" / "matplotlibrc"
"""The project's one figure style, read by :func:`styled` and by every kernel of the build."""

STYLE = dict(matplotlib.rc_params_from_file(str(MATPLOTLIBRC), use_default_template=False))
"""The settings of :data:`MATPLOTLIBRC`, as matplotlib reads them."""

COLOURS = tuple(STYLE["axes.prop_cycle"].by_key()["color"])
"""The colour cycle of the style, for code that picks a colour by position."""

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
"""Markers by position, so that solvers stay apart in print without colour."""

_Plot = TypeVar("_Plot", bound=Callable[..., Any])


def styled(plot: _Plot) -> _Plot:
    """Draw `plot`'s figure inside the project's style (a decorator for plotting functions)."""

    @functools.wraps(plot)
    def drawn(*args: Any, **kwargs: Any) -> Any:
        with matplotlib.rc_context(STYLE):
            return plot(*args, **kwargs)

    return drawn  # type: ignore[return-value]


def use_style() -> None:
    """Make the project's style the default of this Python process (figures drawn with pyplot)."""
    matplotlib.rcParams.update(STYLE)


PAGE_DPI = 100
"""Pixels per inch of the figure a notebook shows (:class:`ReportFigure`), hence of the PNG in
an exported page: a browser lays it out at one pixel per CSS pixel (96 to the inch)."""

PRINTED_WIDTH_IN = 7.2
"""The widest a figure is printed on the report's A4 pages: 186 mm between the margins of the
print style sheet, less the cell's padding (measured: ``tests/test_pdf_layout.py``). A wider
figure is scaled down to it, and its text with it."""

PAGE_WIDTH_IN = round(PRINTED_WIDTH_IN * 96 / PAGE_DPI, 2)
"""The widest figure, in inches, that is printed at its own size (6.91): its 8-point text
stays at least 8 points on paper."""

SMALLEST_PRINTED_PT = 8.0
"""The smallest text a printed figure may hold, in points."""


class ReportFigure(Figure):
    """A matplotlib Figure that shows itself as a PNG in a notebook, without pyplot."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        with matplotlib.rc_context(STYLE):  # ticks and their grid lines are made while drawing
            self.savefig(buffer, format="png", dpi=PAGE_DPI, metadata=FIGURE_METADATA["png"])
        return buffer.getvalue()


def printed_scale(figure: Figure) -> float:
    """Printed inches per inch of `figure` on the report's A4 pages.

    The page shows the figure at :data:`PAGE_DPI` pixels per inch, which a
    browser prints at 96 to the inch, unless that is wider than
    :data:`PRINTED_WIDTH_IN`: then it is scaled down to that width.
    """
    width = float(figure.get_figwidth())
    return min(PAGE_DPI / 96, PRINTED_WIDTH_IN / width)


def smallest_printed_text_pt(figure: Figure) -> float:
    """The size in points of the smallest text of `figure` once printed (inf: no text).

    Every visible text counts (tick labels, axis labels, titles, legends,
    annotations), at its font size times :func:`printed_scale`; the figure is
    drawn first, in the project's style, since ticks are made while drawing.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    if not isinstance(figure.canvas, FigureCanvasAgg):
        FigureCanvasAgg(figure)
    with matplotlib.rc_context(STYLE):
        figure.canvas.draw()
    sizes = [
        float(text.get_fontsize())
        for text in figure.findobj(Text)
        if text.get_visible() and text.get_text().strip()
    ]
    return min(sizes, default=float("inf")) * printed_scale(figure)


def new_figure(width: float = PAGE_WIDTH_IN, height: float = 4.2) -> tuple[Figure, Any]:
    """A :class:`ReportFigure` of `width` × `height` inches with one set of axes."""
    figure = ReportFigure(figsize=(width, height), layout="constrained")
    return figure, figure.add_subplot()


def panels(
    count: int, width: float = 5.0, height: float = 3.8, *, sharey: bool = False
) -> tuple[Figure, list[Any]]:
    """A :class:`ReportFigure` with `count` panels side by side (at least one)."""
    count = max(count, 1)
    figure = ReportFigure(figsize=(width * count, height), layout="constrained")
    axes = figure.subplots(1, count, sharey=sharey, squeeze=False)
    return figure, list(axes[0])


def legend_outside(ax: Any, **options: Any) -> Any:
    """The legend of `ax` to the right of its axes, where it covers no data.

    The figures use ``layout="constrained"``, which makes room for it.
    """
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **options)


def tidy_log_ticks(ax: Any) -> None:
    """Tick labels of `ax`'s log axes that never run into each other.

    Matplotlib labels the minor ticks of a log axis spanning less than a
    decade in scientific notation ("3×10¹4×10¹"). Here only major ticks carry
    a label: the decades, or, below a decade of span, a few plain round numbers
    (30, 40). An axis given fixed ticks keeps them. Call after the data and the
    limits are set.
    """
    from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator, NullFormatter

    for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        if axis.get_scale() != "log":
            continue
        axis.set_minor_formatter(NullFormatter())
        low, high = sorted(limits)
        if isinstance(axis.get_major_locator(), FixedLocator) or low <= 0 or high / low >= 10:
            continue
        axis.set_major_locator(MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]))
        axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))


def note_zeros(ax: Any, what: str, labels: Sequence[str]) -> None:
    """Say in the legend of a log-scale plot which points are zero, so none vanishes silently.

    The note is a legend entry without a mark (the legends stand beside the
    axes, :func:`legend_outside`), so it never sits on the data.
    """
    import textwrap

    if not labels:
        return
    note = textwrap.fill(f"{what}, not drawn on the log scale: " + ", ".join(labels), 36)
    ax.plot([], [], linestyle="none", label=note)


SVG_HASHSALT = STYLE["svg.hashsalt"]
"""Fixed salt of the ids in SVG files (from :data:`MATPLOTLIBRC`): a figure keeps its bytes."""


FIGURE_METADATA = {
    "png": {"Software": None},
    "svg": {"Date": None, "Creator": None},
    "pdf": {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None},
}
"""Metadata left out of saved figures: no date, no tool version (they change with no data)."""


def save_figure(
    figure: Figure, name: str, folder: str | os.PathLike[str] = "figures"
) -> list[Path]:
    """Write `figure` as ``<folder>/<name>.png`` and ``.svg``; return the two paths.

    The files depend on the figure only: SVG ids use :data:`SVG_HASHSALT`
    and no date or version is written (:data:`FIGURE_METADATA`), so
    rebuilding a report whose numbers did not change leaves them byte for
    byte the same. The figure is drawn in the project's style (:data:`STYLE`):
    matplotlib makes ticks and grid lines while drawing, not when plotting.
    """
    target = resolve(folder)
    target.mkdir(parents=True, exist_ok=True)
    paths = [target / f"{name}.png", target / f"{name}.svg"]
    with matplotlib.rc_context(STYLE):
        figure.savefig(paths[0], dpi=110, metadata=FIGURE_METADATA["png"])
        figure.savefig(paths[1], metadata=FIGURE_METADATA["svg"])
    return paths


def save_and_show(figure: Figure, name: str, folder: str | os.PathLike[str] = "figures") -> Figure:
    """Save `figure` (:func:`save_figure`) and return it to be shown once as a cell's value.

    A figure made with pyplot is closed first, so the notebook's inline backend
    does not show it a second time at the end of the cell.
    """
    import matplotlib.pyplot as plt

    save_figure(figure, name, folder)
    plt.close(figure)  # a figure pyplot does not manage is left as it is
    return figure
