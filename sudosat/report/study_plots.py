"""The figures of the measuring study (:mod:`sudosat.studies.scaling`): median time and
encoding size against the order N and the fill fraction alpha, as
``sudosat study --figures DIR`` draws and saves them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.plots import legend_outside, panels, save_figure, styled, tidy_log_ticks
from sudosat.run.results import Verdict

STUDY_FIGURE_PREFIX = "scaling-"
"""The file names of :func:`save_study_figures` start with this."""

_OTHER = {"order": "alpha", "alpha": "order"}
"""For each x axis (``order`` or ``alpha``), the column drawn as one line per value."""


def plot_time(
    table: pd.DataFrame, x: str = "order", time: str = "total_cpu_ms", encoding: str | None = None
) -> Figure:
    """Median time against `x` (``order`` or ``alpha``; log scale), one panel per solver, one
    line per value of the other."""
    return _panels(
        _select(table, encoding),
        x=x,
        lines=_OTHER[x],
        y=time,
        ylabel=f"median {_label(time)}",
        title=f"time against {'the order N' if x == 'order' else 'the fill fraction alpha'}",
    )


def plot_size(table: pd.DataFrame, x: str = "order", measure: str = "clauses") -> Figure:
    """Median encoding size against `x` (``order`` or ``alpha``; log scale), one panel per
    encoding, one line per value of the other."""
    return _panels(
        table.drop_duplicates(["encoding", "order", "alpha", "board"]),
        x=x,
        lines=_OTHER[x],
        y=measure,
        panel="encoding",
        ylabel=f"median {measure}",
        title=f"encoding size ({measure}) against {'N' if x == 'order' else 'alpha'}",
    )


def save_study_figures(table: pd.DataFrame, folder: str | os.PathLike[str]) -> list[Path]:
    """Draw the four figures of a :func:`sudosat.studies.scaling.run_study` table and save them."""
    written: list[Path] = []
    for name, figure in (
        ("time-vs-order", plot_time(table, "order")),
        ("time-vs-alpha", plot_time(table, "alpha")),
        ("clauses-vs-order", plot_size(table, "order")),
        ("clauses-vs-alpha", plot_size(table, "alpha")),
    ):
        written += save_figure(figure, STUDY_FIGURE_PREFIX + name, folder)
    return written


def _select(table: pd.DataFrame, encoding: str | None) -> pd.DataFrame:
    if encoding is None:
        encoding = table["encoding"].iloc[0]
    return table[(table["encoding"] == encoding) & (table["status"] != Verdict.ERROR)]


def _label(column: str) -> str:
    """A time column in words: ``solve_cpu_ms`` -> ``solve CPU time (ms)``."""
    for clock, words in (("_cpu_ms", " CPU time (ms)"), ("_wall_ms", " wall time (ms)")):
        column = column.replace(clock, words)
    return column.replace("_ms", " time (ms)").replace("_", " ")


@styled
def _panels(
    table: pd.DataFrame, *, x: str, lines: str, y: str, ylabel: str, title: str,
    panel: str = "solver",
) -> Figure:
    """One log-scale panel per value of `panel`; median `y` against `x`, one line per `lines`."""
    names = list(dict.fromkeys(table[panel]))
    figure, axes = panels(len(names), 5.2, 3.8, sharey=True)
    for axis, name in zip(axes, names, strict=False):
        medians = table[table[panel] == name].groupby([lines, x])[y].median()
        for key, series in medians.groupby(level=0):
            values = series.droplevel(0)
            positive = values[values > 0]
            axis.plot(positive.index, positive.values, marker="o", label=f"{lines} = {key}")
        axis.set_yscale("log")
        axis.set_xlabel("order N" if x == "order" else "alpha (fraction of cells given)")
        axis.set_title(str(name))
        axis.grid(True, which="both")
        if x == "order":
            axis.set_xticks(sorted(table[x].unique()))
        tidy_log_ticks(axis)
    axes[0].set_ylabel(ylabel)
    legend_outside(axes[-1])
    figure.suptitle(title)
    return figure
