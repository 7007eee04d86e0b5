"""The studies' pages: the scaling study (order N × fill fraction alpha) and the heuristics
experiment, as figures, tables and sentences.

The measuring lives in :mod:`sudosat.studies.scaling`, :mod:`sudosat.studies.grid` and
:mod:`sudosat.studies.heuristics`; here is what the pages show of it, so that each
notebook cell is a call and a sentence.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.plots import panels, save_figure, styled
from sudosat.report.tables import HTML, table
from sudosat.run.results import Verdict
from sudosat.studies.grid import (
    MEASURE_WORDS,
    SOLVED,
    Fit,
    milliseconds,
    orders_text,
    percent,
)
from sudosat.sudoku.board import Board
from sudosat.words import and_join

STUDY_FIGURE_PREFIX = "scaling-"
"""The file names of :func:`save_study_figures` start with this."""

# -- the measuring study (sudosat.studies.scaling): median time and size against N and alpha ------


def plot_time_against_order(
    table: pd.DataFrame, time: str = "total_ms", encoding: str | None = None
) -> Figure:
    """Median time against N (log scale), one panel per solver, one line per alpha."""
    return _panels(
        _select(table, encoding),
        x="order",
        lines="alpha",
        y=time,
        ylabel=f"median {_label(time)}",
        title="time against the order N",
    )


def plot_time_against_alpha(
    table: pd.DataFrame, time: str = "total_ms", encoding: str | None = None
) -> Figure:
    """Median time against alpha (log scale), one panel per solver, one line per order N."""
    return _panels(
        _select(table, encoding),
        x="alpha",
        lines="order",
        y=time,
        ylabel=f"median {_label(time)}",
        title="time against the fill fraction alpha",
    )


def plot_size_against_order(table: pd.DataFrame, measure: str = "clauses") -> Figure:
    """Median encoding size against N (log scale), one panel per encoding, one line per alpha."""
    sizes = table.drop_duplicates(["encoding", "order", "alpha", "board"])
    return _panels(
        sizes,
        x="order",
        lines="alpha",
        y=measure,
        panel="encoding",
        ylabel=f"median {measure}",
        title=f"encoding size ({measure}) against N",
    )


def plot_size_against_alpha(table: pd.DataFrame, measure: str = "clauses") -> Figure:
    """Median encoding size against alpha (log scale), one panel per encoding, one line per N."""
    sizes = table.drop_duplicates(["encoding", "order", "alpha", "board"])
    return _panels(
        sizes,
        x="alpha",
        lines="order",
        y=measure,
        panel="encoding",
        ylabel=f"median {measure}",
        title=f"encoding size ({measure}) against alpha",
    )


def save_study_figures(table: pd.DataFrame, folder: str | os.PathLike[str]) -> list[Path]:
    """Draw the four figures of a :func:`sudosat.studies.scaling.run_study` table and save them."""
    written: list[Path] = []
    for name, figure in (
        ("time-vs-order", plot_time_against_order(table)),
        ("time-vs-alpha", plot_time_against_alpha(table)),
        ("clauses-vs-order", plot_size_against_order(table)),
        ("clauses-vs-alpha", plot_size_against_alpha(table)),
    ):
        written += save_figure(figure, STUDY_FIGURE_PREFIX + name, folder)
    return written


def _select(table: pd.DataFrame, encoding: str | None) -> pd.DataFrame:
    if encoding is None:
        encoding = table["encoding"].iloc[0]
    return table[(table["encoding"] == encoding) & (table["status"] != Verdict.ERROR)]


def _label(column: str) -> str:
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
    axes[0].set_ylabel(ylabel)
    axes[-1].legend()
    figure.suptitle(title)
    return figure


# -- the scaling page (sudosat.studies.grid) ------------------------------------------------


def scaling_spec(
    *,
    orders: Sequence[int],
    alphas: Sequence[float],
    boards: int,
    seed: int,
    time_limit_ms: float,
    solver: str,
    encodings: Sequence[str],
    reference: str,
    reference_encodings: Sequence[str],
    quick: bool = False,
) -> Any:
    """The grid of the scaling page from its notebook parameters (a ``GridSpec``), shrunk when
    `quick`."""
    from sudosat.studies import grid as gridstudy

    spec = gridstudy.GridSpec(
        orders=tuple(orders),
        alphas=tuple(alphas),
        boards=boards,
        seed=seed,
        time_limit_ms=float(time_limit_ms),
        solver=solver,
        encodings=tuple(encodings),
        reference=reference,
        reference_encodings=tuple(reference_encodings),
    )
    return spec.quick() if quick else spec


def large_grid(
    orders: Sequence[int], alphas: Sequence[float], quick: bool = False
) -> tuple[list[int], list[float]]:
    """The orders and fills of the larger-orders section (the first of each when `quick`)."""
    return (list(orders[:1]), list(alphas[:1])) if quick else (list(orders), list(alphas))


def grid_sentence(spec: Any, distinct: pd.DataFrame | None = None) -> str:
    """What the grid holds: T, boards per cell, orders, fills, runs; then how many of each
    cell's boards differ (`distinct` from :func:`sudosat.studies.grid.distinct_boards`,
    computed when not given)."""
    from sudosat.studies.grid import boards_sentence, distinct_boards, percent

    if distinct is None:
        distinct = distinct_boards(spec)
    seeds = (f"generator seed {spec.seed}" if spec.boards == 1 else
             f"generator seeds {spec.seed}..{spec.seed + spec.boards - 1}")
    return (
        f"T = {spec.time_limit_ms / 1000:g} s for every solver call; {spec.boards} "
        f"{'board' if spec.boards == 1 else 'boards'} per cell ({seeds}); orders "
        f"{', '.join(map(str, spec.orders))}; given {', '.join(percent(a) for a in spec.alphas)};"
        f" runs: {', '.join(f'{e} / {s}' for e, s in spec.runs())}."
        + (" " + boards_sentence(distinct) if spec.boards > 1 else "")
    )


def naive_table(
    spec: Any, alphas: Sequence[float] = (0.2, 0.3, 0.4, 0.5, 0.6), count: int = 10
) -> pd.DataFrame:
    """The original experiment's naive boards (order 3): how many are infeasible or undecided.

    For each fill, `count` boards of the naive method are solved on the
    optimised encoding by the grid's solver under its T.
    """
    from sudosat.run.generate import generate_many
    from sudosat.sat.solvers.registry import solve
    from sudosat.studies.grid import percent
    from sudosat.sudoku.encoding import encode

    rows = []
    for alpha in alphas:
        puzzles = generate_many(3, alpha, count, seed=spec.seed, method="naive")
        answers = [
            solve(encode(p, "optimised").cnf, spec.solver, time_limit_ms=spec.time_limit_ms)
            .status.value
            for p in puzzles
        ]
        rows.append(
            {
                "given": percent(alpha),
                "boards": len(puzzles),
                "infeasible (UNSAT)": answers.count("UNSAT"),
                "undecided within T": answers.count("UNKNOWN"),
                "mean givens": round(sum(p.num_givens for p in puzzles) / len(puzzles), 1),
            }
        )
    return pd.DataFrame(rows).set_index("given")


def invalid_solved_rows(rows: pd.DataFrame) -> list[str]:
    """The SAT rows of a study's table whose decoded board was not valid (empty when all are)."""
    bad = rows[(rows["status"] == "SAT") & ~rows["valid"].astype(bool)]
    return [f"row {index}: {row['solver']} SAT but invalid" for index, row in bad.iterrows()]


def grid_run_sentence(rows: pd.DataFrame) -> str:
    """How many runs the grid made, how they ended, and which cells came from the cache."""
    reused = rows.loc[rows["computed_at"] != "", "computed_at"]
    solved = int((rows["status"] == "SAT").sum())
    cells = rows.groupby(["order", "alpha"]).ngroups
    from_cache = rows.loc[reused.index].groupby(["order", "alpha"]).ngroups
    when = f" (measured {', '.join(sorted(set(reused)))})" if len(reused) else ""
    return (
        f"{len(rows)} runs: {solved} solved, each checked valid; "
        f"{int((rows['status'] == Verdict.TIMEOUT).sum())} time-outs, "
        f"{int((rows['status'] == Verdict.ERROR).sum())} refused. Cells read from the cache: "
        f"{from_cache} of {cells}{when}."
    )


def growth_fits(summary: pd.DataFrame, solver: str, time_limit_ms: float) -> list[Any]:
    """The growth fits of clauses, median time and median conflicts against N."""
    from sudosat.studies.grid import fit_growth

    return [
        fit
        for measure in ("clauses", "median_ms", "median_conflicts")
        for fit in fit_growth(summary, solver, measure, time_limit_ms)
    ]


def usability_sentences(summary: pd.DataFrame, spec: Any) -> list[str]:
    """Where each encoding stops being usable, what the optimised one removes, the reference."""
    from sudosat.studies import grid as gridstudy

    limit = spec.time_limit_ms
    sentences = [
        gridstudy.usability_sentence(summary, encoding, who, limit)
        for encoding, who in spec.runs()
    ]
    sentences += gridstudy.savings_sentences(summary, spec.solver)
    if spec.reference:
        sentences.append(
            gridstudy.reference_sentence(summary, spec.solver, spec.reference, limit)
        )
    return sentences


def focus_tables(rows: pd.DataFrame, order: int, alpha: float) -> HTML:
    """The boards of one grid cell, one line each: every run's status, then its solve time.

    Each table is introduced by the cell it shows, so the page names the cell
    its parameters chose; a cell the grid lacks is said to be missing.
    """
    from sudosat.studies.grid import percent

    name = f"N = {order}, {percent(alpha)} given"
    cell = rows[(rows["order"] == order) & (rows["alpha"].round(6) == round(alpha, 6))]
    if cell.empty:
        return HTML(f"<p>The grid has no cell {name}: nothing to show.</p>")
    shapes = {"index": ["seed", "givens"], "columns": ["encoding", "solver"], "aggfunc": "first"}
    status = cell.pivot_table(values="status", **shapes)
    times = cell.pivot_table(values="solve_ms", **shapes)
    return HTML(f"<p>{name}: the status of every run</p>" + str(table(status))
                + f"<p>{name}: solve time (ms)</p>" + str(table(times, 0)))


def estimate_table(orders: Sequence[int] = range(2, 10), alphas: Sequence[float] = (0.0, 0.5),
                   seed: int = 0) -> pd.DataFrame:
    """Clauses of every registered encoding (:func:`~sudosat.sudoku.encoding.estimate`), none built.

    One generated board (pattern solution) per order and fill.
    """
    from sudosat.run.generate import generate
    from sudosat.studies.grid import percent
    from sudosat.sudoku.encoding import ENCODINGS, estimate

    rows = []
    for order in orders:
        for alpha in alphas:
            board = generate(order, alpha, seed=seed, base="pattern")
            row: dict[str, Any] = {"N": order, "given": percent(alpha)}
            row.update({name: estimate(board, name)["clauses"] for name in ENCODINGS})
            rows.append(row)
    return pd.DataFrame(rows).set_index(["N", "given"])


# -- the heuristics page (sudosat.studies.heuristics) --------------------------------------------


def heuristics_spec(seed: int, time_limit_ms: float, encoding: str, per_grade: int = 0,
                    quick: bool = False) -> Any:
    """The heuristics experiment of the page's parameters (``per_grade``, ``quick`` shrink it)."""
    from sudosat.studies.heuristics import ExperimentSpec

    spec = ExperimentSpec(seed=seed, time_limit_ms=float(time_limit_ms), encoding=encoding)
    if per_grade:
        spec = spec.shrunk(per_grade)
    if quick:
        spec = spec.shrunk(8)
    return spec


def heuristics_sentence(spec: Any) -> str:
    """T, the encoding and the solvers of the heuristics experiment, in one sentence."""
    return (
        f"T = {spec.time_limit_ms:g} ms for every run; encoding: {spec.encoding}; solvers: "
        + ", ".join(spec.solvers)
        + "."
    )


def heuristics_data_sentence(results: pd.DataFrame) -> str:
    """How many puzzles and runs, how they ended, and whether they came from the cache."""
    cached = results.loc[results["computed_at"] != "", "computed_at"]
    solved = int((results["status"] == "SAT").sum())
    measured = ", ".join(sorted(set(cached)))
    when = f" (read from the cache, measured {measured})" if len(cached) else ""
    return (
        f"{results['puzzle'].nunique()} puzzles, {len(results)} runs: {solved} solved, each "
        f"checked valid; {int((results['status'] == Verdict.TIMEOUT).sum())} time-outs{when}."
    )


def givens_table(results: pd.DataFrame) -> pd.DataFrame:
    """Per grade: how many puzzles, and the least, median and most givens."""
    puzzles = results.drop_duplicates("puzzle")
    described = puzzles.groupby("grade", sort=False)["givens"].describe()
    return described[["count", "min", "50%", "max"]].rename(columns={"50%": "median"})


@styled
def plot_pairs(
    results: pd.DataFrame, subject: str | None = None, rivals: Sequence[str] | None = None
) -> Figure:
    """Per-puzzle decisions of each rival against `subject` (log-log, +1), one panel each.

    Points above the diagonal are puzzles on which the rival needed more
    decisions; crosses mark the rival's time-outs (a lower bound). By default
    the subject and rivals are those the heuristics hypothesis names.
    """
    from sudosat.studies.heuristics import RIVALS, SUBJECT, wide

    subject = subject or SUBJECT
    rivals = tuple(rivals or RIVALS)
    decisions = wide(results, "decisions") + 1
    status = wide(results, "status")
    grades = results.drop_duplicates("puzzle").set_index("puzzle")["grade"]
    names = list(dict.fromkeys(grades))
    figure, axes = panels(len(rivals), 4.8, 4.4)
    for axis, rival in zip(axes, rivals, strict=True):
        for name in names:
            chosen = grades[grades == name].index
            out = status.loc[chosen, rival] == Verdict.TIMEOUT
            axis.scatter(decisions.loc[chosen, subject][~out], decisions.loc[chosen, rival][~out],
                         s=14, alpha=0.7, label=name)
            axis.scatter(decisions.loc[chosen, subject][out], decisions.loc[chosen, rival][out],
                         s=22, marker="x", color="black")
        top = float(decisions[[subject, rival]].max().max()) * 1.5
        axis.plot([1, top], [1, top], color="grey", linewidth=1)
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel(f"{subject} decisions + 1")
        axis.set_ylabel(f"{rival} decisions + 1")
        axis.set_title(f"{rival} against {subject} (x: {rival} timed out)")
        axis.grid(True, which="both")
    axes[0].legend(fontsize="x-small")
    return figure


@styled
def plot_distributions(results: pd.DataFrame, time_limit_ms: float) -> Figure:
    """Decisions (symlog) and time (log, time-outs at T) per solver, as box plots."""
    from sudosat.studies.heuristics import wide

    decisions = wide(results, "decisions")
    times = wide(results, "ms").clip(upper=time_limit_ms)
    labels = list(decisions.columns)
    figure, (left, right) = panels(2, 5.5, 4.0)
    left.boxplot([decisions[c] for c in labels], tick_labels=labels, showfliers=True)
    left.set_yscale("symlog", linthresh=1.0)
    left.set_ylabel("decisions (symlog: 0 shown)")
    right.boxplot([times[c] for c in labels], tick_labels=labels, showfliers=True)
    right.axhline(time_limit_ms, color="grey", linestyle="--", linewidth=1)
    right.set_yscale("log")
    right.set_ylabel("time (ms; time-outs at T, dashed)")
    for axis in (left, right):
        axis.grid(True, axis="y", which="both")
    figure.suptitle("distributions over every puzzle")
    return figure


def large_table(large: pd.DataFrame, time_limit_ms: float) -> pd.DataFrame:
    """The second table: one line per (N, alpha) tried, its size, time and status."""
    out = pd.DataFrame(
        {
            "N": large["order"],
            "given": large["alpha"].map(percent),
            "cells": large["size"] ** 2,
            "givens": large["givens"],
            "variables": large["variables"],
            "clauses": large["clauses"],
            "status": large["status"],
            "encode ms": large["encode_ms"].map(milliseconds),
            "solve ms": large["solve_ms"].map(lambda v: milliseconds(v, time_limit_ms)),
            "conflicts": large["conflicts"],
        }
    )
    return out.set_index(["N", "given"])


def large_sentences(large: pd.DataFrame, solver: str, time_limit_ms: float) -> list[str]:
    """Per order: the lowest fill decided within T and the largest formula solved."""
    sentences = []
    for order, part in large.groupby("order"):
        solved = part[part["status"].isin(SOLVED)]
        failed = part[~part["status"].isin(SOLVED)]
        if solved.empty:
            sentences.append(f"N = {order}: {solver} decided no board within T.")
            continue
        low = solved.loc[solved["alpha"].idxmin()]
        text = (
            f"N = {order}: down to {percent(low['alpha'])} given, {solver} decided the board "
            f"within T ({int(low['clauses']):,} clauses, {milliseconds(low['solve_ms'])} ms)"
        )
        if not failed.empty:
            stop = failed.iloc[0]
            text += f"; at {percent(stop['alpha'])} it {_stop_word(stop['status'])}"
        sentences.append(text + ".")
    return sentences


def large_intro_sentence(
    orders: Sequence[int],
    alphas: Sequence[float],
    grid_orders: Sequence[int],
    solver: str,
    encoding: str = "optimised",
    base: str = "course",
) -> str:
    """Why the larger orders run `encoding` only (the size of `base` on an empty board, counted
    by :func:`sudosat.sudoku.encoding.estimate` like the page's size table) and how they are run."""
    from sudosat.sudoku.encoding import estimate

    sizes = {int(n): int(estimate(Board.empty(int(n)), base)["clauses"]) for n in orders}
    largest = max(sizes.values())
    counts = [f"{clauses:,} at N = {n}" for n, clauses in sizes.items()]
    counts[0] = counts[0].replace(" at", " clauses at", 1)
    if largest >= 1e6:
        counts[-1] += f" (about {largest / 1e6:.3g} million)"
    return (
        f"At {orders_text(sorted(sizes))} (the grid stops at N = {max(grid_orders)}), the "
        f"{base} encoding of an empty board would have {and_join(counts)}, counted by "
        f"`sudosat.sudoku.encoding.estimate` as in the size table of §7; so only the {encoding} "
        f"encoding is tried. " + _large_steps(alphas, solver)
    )


def _large_steps(alphas: Sequence[float], solver: str) -> str:
    if len(alphas) == 1:
        return f"One board per order, at {percent(alphas[0])} given."
    return (
        f"For each order, one board per fill from {percent(alphas[0])} given down "
        f"({', '.join(percent(a) for a in alphas)}), stopping at the first fill that {solver} "
        f"does not decide within T."
    )


def _stop_word(status: str) -> str:
    return "timed out" if status == Verdict.TIMEOUT else "failed (" + status + ")"


def plot_grid_cells(summary: pd.DataFrame, solver: str, time_limit_ms: float,
                    measure: str = "median_ms") -> Figure:
    """Median `measure` against alpha, one panel per encoding, one line per order.

    The y axis is symmetric-log, so zero counts stay on the plot (at 0) instead
    of vanishing; medians censored at T are drawn as open markers on the T line.
    """
    import matplotlib.pyplot as plt

    rows = summary[summary["solver"] == solver]
    encodings = list(dict.fromkeys(rows["encoding"]))
    figure, axes = plt.subplots(1, len(encodings), figsize=(4.6 * len(encodings), 3.8),
                                sharey=True, squeeze=False)
    for axis, encoding in zip(axes[0], encodings, strict=True):
        part = rows[rows["encoding"] == encoding]
        for order, line in part.groupby("order"):
            line = line.sort_values("alpha")
            x = line["alpha"] * 100
            drawn = axis.plot(x, line[measure], marker="o", label=f"N = {order}")[0]
            if measure == "median_ms":
                out = line[line["censored"]]
                axis.plot(out["alpha"] * 100, out[measure], linestyle="none", marker="o",
                          markersize=11, markerfacecolor="none", color=drawn.get_color())
        if measure == "median_ms":
            axis.axhline(time_limit_ms, color="grey", linestyle="--", linewidth=1)
            axis.text(0, time_limit_ms * 1.15, "T (time-outs counted as T)", fontsize=8)
        axis.set_yscale("symlog", linthresh=1.0)
        axis.set_xlabel("cells given (%)")
        axis.set_title(encoding)
        axis.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel(MEASURE_WORDS.get(measure, measure).replace("the ", "")
                          + (" (ms)" if measure == "median_ms" else ""))
    axes[0][-1].legend(fontsize="small")
    figure.suptitle(f"{solver}: {MEASURE_WORDS.get(measure, measure)} per cell "
                    "(symlog axis: zero is shown at 0)")
    figure.tight_layout()
    return figure


def plot_grid_growth(summary: pd.DataFrame, fits: Sequence[Fit], solver: str) -> Figure:
    """Per-order medians against N on log-log axes, with the fitted lines of `fits`."""
    import matplotlib.pyplot as plt

    quantities = list(dict.fromkeys(f.measure for f in fits))
    if not quantities:  # fewer than three orders: nothing to fit
        figure, axis = plt.subplots(figsize=(4.6, 1.2))
        axis.axis("off")
        axis.text(0.5, 0.5, "fewer than three orders: no growth fit", ha="center")
        return figure
    figure, axes = plt.subplots(1, len(quantities), figsize=(4.6 * len(quantities), 3.8),
                                squeeze=False)
    rows = summary[summary["solver"] == solver]
    for axis, quantity in zip(axes[0], quantities, strict=True):
        for fit in (f for f in fits if f.measure == quantity):
            part = rows[rows["encoding"] == fit.encoding]
            per_order = part.groupby("order")[quantity].median()
            shift = 0.0 if quantity == "median_ms" else 1.0
            points = axis.plot(per_order.index, per_order.to_numpy(dtype=float) + shift,
                               marker="o", linestyle="none", label=fit.encoding)[0]
            span = [min(per_order.index), max(per_order.index)]
            axis.plot(span, [fit.predict(n) for n in span], color=points.get_color(),
                      label=f"fit N^{fit.exponent:.1f}")
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xticks(sorted(rows["order"].unique()))
        axis.set_xticklabels([str(n) for n in sorted(rows["order"].unique())])
        axis.minorticks_off()
        axis.set_xlabel("order N (log)")
        label = MEASURE_WORDS.get(quantity, quantity).replace("the ", "")
        axis.set_ylabel(label + (" (ms)" if quantity == "median_ms" else
                                 "" if quantity == "clauses" else " + 1"))
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize="x-small")
    figure.suptitle("growth with N, fitted on log-log scales (scipy.stats.linregress)")
    figure.tight_layout()
    return figure
