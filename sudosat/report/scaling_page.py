"""The scaling page: the N x alpha grid of :mod:`sudosat.studies.grid` as tables, figures
and the sentences that branch on its rows (those that do not are the notebook's own).

Every run is bounded by a conflict budget, the limit every conclusion rests on (the same on
every machine), with a CPU-time cap behind it as a safety net. Every time is the solver
call's CPU time, a measurement; an undecided run enters a median with the time it took to
be stopped, so a median of a cell where half or more were undecided is a lower bound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.clocks import clock_facts
from sudosat.report.formats import and_join, count, fills, milliseconds, orders, percent, plural
from sudosat.report.plots import PAGE_WIDTH_IN, ReportFigure, legend_outside, styled, tidy_log_ticks
from sudosat.report.tables import HTML, table
from sudosat.run.results import DECIDED, Verdict
from sudosat.studies import grid as gridstudy
from sudosat.studies.grid import UNDECIDED, Fit, GridSpec
from sudosat.studies.scaling import BUDGET_STOP_WORDS
from sudosat.sudoku.board import Board

MEASURE_WORDS = {
    "clauses": "the clauses",
    "median_cpu_ms": "the median solve CPU time",
    "median_conflicts": "the median number of conflicts",
}
"""What the figures call each measure of the summary."""


def scaling_spec(
    *,
    orders: Sequence[int],
    alphas: Sequence[float],
    boards: int,
    seed: int,
    max_conflicts: int,
    time_limit_ms: float | None,
    solver: str,
    encodings: Sequence[str],
    reference: str,
    reference_encodings: Sequence[str],
    quick: bool = False,
) -> GridSpec:
    """The grid of the scaling page from its notebook parameters, shrunk when `quick`."""
    spec = GridSpec(
        orders=tuple(orders),
        alphas=tuple(alphas),
        boards=boards,
        seed=seed,
        max_conflicts=int(max_conflicts),
        time_limit_ms=None if time_limit_ms is None else float(time_limit_ms),
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


def grid_words(spec: GridSpec, distinct: pd.DataFrame) -> str:
    """The grid as its parameters set it: the limits, boards and seeds, orders, fills and runs,
    and whether the seeds of each cell give different boards (`distinct`:
    :func:`sudosat.studies.grid.distinct_boards`)."""
    cap = ("no CPU-time cap" if spec.time_limit_ms is None else
           f"a CPU-time cap of {spec.time_limit_ms / 1000:g} s on {spec.solver}'s calls")
    seeds = (f"generator seed {spec.seed}" if spec.boards == 1 else
             f"generator seeds {spec.seed}..{spec.seed + spec.boards - 1}")
    text = (f"Budget: {spec.max_conflicts:,} conflicts for every solver call; behind it {cap}, "
            f"a safety net only. {plural(spec.boards, 'board').capitalize()} per cell ({seeds}); "
            f"orders {', '.join(map(str, spec.orders))}; given "
            f"{', '.join(percent(a) for a in spec.alphas)}; runs: "
            f"{', '.join(f'{e} / {s}' for e, s in spec.runs())}.")
    per_cell = int(distinct["boards"].max())
    short = distinct[distinct["distinct"] < distinct["boards"]]
    if per_cell > 1 and short.empty:
        return text + f" In every cell the {per_cell} seeds give {per_cell} different boards."
    if per_cell > 1:
        # the cells that repeat a board, grouped by fill and count, orders ascending
        repeats = short.groupby([short.index.get_level_values("alpha"), "distinct"], sort=True)
        text += (f" The {per_cell} seeds give {per_cell} different boards in "
                 f"{len(distinct) - len(short)} of {len(distinct)} cells; " + "; ".join(
                     f"at {percent(float(alpha))} given "
                     f"({orders(sorted(int(n) for n in group.index.get_level_values('order')))})"
                     f" they give {plural(int(number), 'distinct board')}"
                     for (alpha, number), group in repeats))
        if (short["givens"] == 0).all():
            text += (", since with no givens every seed leaves the same empty board: the runs of "
                     "those cells repeat one board, and their medians and undecided counts are "
                     "that board's, counted once per run")
        text += "."
    return text


def naive_table(
    spec: GridSpec, alphas: Sequence[float] = (0.2, 0.3, 0.4, 0.5, 0.6), count: int = 10
) -> pd.DataFrame:
    """The original experiment's naive boards (order 3): how many are infeasible or undecided.

    For each fill, `count` boards of the naive method are solved on the
    optimised encoding by the grid's solver under its limits (its conflict
    budget, and its CPU cap behind it).
    """
    from sudosat.run.generate import generate_many
    from sudosat.studies.scaling import measure

    rows = []
    for alpha in alphas:
        puzzles = generate_many(3, alpha, count, seed=spec.seed, method="naive")
        answers = [
            measure(p, spec.solver, "optimised", time_limit_ms=spec.time_limit_ms,
                    max_conflicts=spec.max_conflicts)["status"]
            for p in puzzles
        ]
        rows.append(
            {
                "given": percent(alpha),
                "boards": len(puzzles),
                "infeasible (UNSAT)": answers.count(Verdict.UNSAT),
                "undecided": sum(answer in UNDECIDED for answer in answers),
                "mean givens": round(sum(p.num_givens for p in puzzles) / len(puzzles), 1),
            }
        )
    return pd.DataFrame(rows).set_index("given")


def invalid_solved_rows(rows: pd.DataFrame) -> list[str]:
    """The SAT rows of a study's table whose decoded board was not valid (empty when all are)."""
    bad = rows[(rows["status"] == Verdict.SAT.value) & ~rows["valid"].astype(bool)]
    return [f"row {index}: {row['solver']} SAT but invalid" for index, row in bad.iterrows()]


def stops(rows: pd.DataFrame) -> pd.Series:
    """Each run's ``stop`` as a string (empty where the rows have none): ``time`` where the
    CPU cap stopped it, one of ``BUDGET_STOP_WORDS`` where the work budget did."""
    if "stop" not in rows:
        return pd.Series("", index=rows.index)
    return rows["stop"].astype("string").fillna("")


def measured_words(times: Sequence[str]) -> str:
    """When cached results were measured: the one time, or the first and the last of several
    (the times sorted)."""
    if len(times) == 1:
        return f"measured {times[0]}"
    return f"measured at {len(times)} times between {times[0]} and {times[-1]}"


def clock_words(rows: pd.DataFrame, times: str, rest: str) -> str:
    """How busy the machine was while a study's solvers ran (both study pages), from the
    wall-clock and CPU time of every solver call in its `rows`. `times` names the times a busy
    machine stretches (``the times above``), `rest` ends the sentence with what it does not
    change (``which runs finished: ...``)."""
    busy = clock_facts(zip(rows["solve_wall_ms"], rows["solve_cpu_ms"], strict=True))
    if busy.ratio is None:
        return "No run recorded a CPU time, so how busy the machine was is not known."
    mixed = ""
    if (rows["computed_at"] != "").any():
        mixed = ", some or all of them measured by an earlier build (read from the cache)"
    said = (f"Over the {busy.calls} solver calls{mixed}, wall time was {busy.ratio:.2f} times "
            f"CPU time (all calls together): ")
    if busy.busy:
        return said + (f"above {busy.threshold:g}, so the machine was busy. That stretches "
                       f"{times} (wall time, and CPU time too where processors share hardware), "
                       f"not {rest}")
    return said + (f"not above {busy.threshold:g}, so the machine was not busy and other "
                   f"programs did not stretch {times}. Had it been busy, they would have "
                   f"stretched them (wall time, and CPU time too where processors share "
                   f"hardware), not {rest}")


def run_words(rows: pd.DataFrame) -> str:
    """How the grid's runs ended, what stopped the undecided ones (the budget, or the CPU cap
    behind it), which cells came from the cache, and how busy the machine was."""
    status, stop = rows["status"], stops(rows)
    reused = rows.loc[rows["computed_at"] != "", "computed_at"]
    when = f" ({measured_words(sorted(set(reused)))})" if len(reused) else ""
    budget_stops = int(stop.isin(BUDGET_STOP_WORDS).sum())
    capped = [f"{row['encoding']} / {row['solver']} (order {row['order']}, alpha {row['alpha']}, "
              f"seed {row['seed']})" for _, row in rows[stop == "time"].iterrows()]
    if not capped:
        limits = ((f"The budget stopped all {budget_stops} undecided runs; " if budget_stops
                   else "No run was stopped by a limit; ")
                  + "the CPU cap stopped none, so every status on this page is the same on any "
                  "machine.")
    else:
        limits = (f"The CPU cap stopped {plural(len(capped), 'run')} before the budget "
                  f"did ({'; '.join(capped)}): those statuses, and every conclusion "
                  "that counts them, depend on this machine and its load; the other "
                  f"{budget_stops} undecided runs were stopped by the budget.")
    load = clock_words(rows, "the times on this page",
                       "which boards were decided: those rest on the conflict budget.")
    cells = rows.groupby(["order", "alpha"]).ngroups
    from_cache = rows.loc[reused.index].groupby(["order", "alpha"]).ngroups
    return (f"{len(rows)} runs: {int((status == Verdict.SAT.value).sum())} solved, each checked "
            f"valid; {int(status.isin(UNDECIDED).sum())} undecided, "
            f"{int((status == Verdict.ERROR).sum())} refused. {limits} Cells read from the "
            f"cache: {from_cache} of {cells}{when}. {load}")


def peak_words(peak: Mapping[str, Any]) -> str:
    """The hardest fill of one order, a row of :func:`sudosat.studies.grid.peaks`; tied fills
    are named together, never one alone."""
    where, tied = fills(peak["alphas"]), len(peak["alphas"]) > 1
    if peak["by"] == "unfinished":
        return (f"{where}{' tie' if tied else ''} (median undecided: {peak['unfinished']} of "
                f"{peak['boards']} stopped by the budget{' in each' if tied else ''})")
    if peak["by"] == "time":
        times = ", ".join(milliseconds(m) for m in peak["median_cpu_ms"])
        return f"{where} (median {times} ms of CPU; no conflict counts)"
    conflicts = peak["median_conflicts"][0]
    if conflicts == 0:
        return "no fill's median board met a conflict"
    if tied:
        return f"{where} tie (median {count(conflicts)} conflicts each)"
    return (f"{where} (median {count(conflicts)} conflicts, "
            f"{milliseconds(peak['median_cpu_ms'][0])} ms of CPU)")


def hardest_table(summary: pd.DataFrame, solver: str) -> pd.DataFrame:
    """One row per encoding (in the summary's order), one column per order: each cell names
    that order's hardest fill for `solver` (:func:`peak_words`)."""
    peaks = gridstudy.peaks(summary, solver)
    hardest = pd.DataFrame({
        str(encoding): {f"N = {order}": peak_words(row)
                        for order, row in peaks.loc[encoding].iterrows()}
        for encoding in dict.fromkeys(summary["encoding"])
        if encoding in peaks.index.get_level_values(0)
    }).T
    hardest.index.name = "encoding"
    return hardest


def growth_fits(summary: pd.DataFrame, solver: str) -> list[Fit]:
    """The growth fits of clauses, median time and median conflicts against N."""
    return [
        fit
        for measure in ("clauses", "median_cpu_ms", "median_conflicts")
        for fit in gridstudy.fit_growth(summary, solver, measure)
    ]


def bound_words(fit: Fit) -> str:
    """What the undecided runs do to a fit's exponent, in parentheses (empty without any)."""
    if not fit.censored:
        return ""
    where = orders(fit.affected)
    why = ("some medians are runs the budget stopped" if fit.measure == "median_cpu_ms" else
           "some runs were undecided, and their conflicts stopped counting at the budget")
    if fit.lower_bound:
        return f" (a lower bound: at {where} {why})"
    return (f" (not a bound either way: at {where} {why}, and not all of those orders lie "
            "above the fit's centre)")


def growth_words(fits: Sequence[Fit], solver: str) -> list[str]:
    """One sentence per growth fit (its exponent, interval, R² and orders), or why there is
    none."""
    if not fits:
        return ["The grid has fewer than three orders: no growth is fitted."]
    return [
        f"With the {f.encoding} encoding, {MEASURE_WORDS[f.measure]}"
        + ("" if f.measure == "clauses" else f" of {solver}")
        + (" grow" if f.measure == "clauses" else " grows")
        + f" like N^{f.exponent:.1f} (95 % CI {f.low:.1f} to {f.high:.1f}, "
        f"R² = {f.r_squared:.2f}, {f.points} orders){bound_words(f)}."
        for f in fits
    ]


def closed_form_words(grid_orders: Sequence[int], fits: Sequence[Fit]) -> str:
    """The course encoding's clause exponent from its closed form, fitted over `grid_orders`,
    beside that of its measured clause counts in `fits` (when there is one)."""
    ascending = sorted(grid_orders)
    text = (f"The closed form N⁴ + 2(N⁸ − N⁶) of the course encoding, fitted the same way over "
            f"N = {', '.join(map(str, ascending))}, gives an exponent of "
            f"{gridstudy.closed_form_exponent(ascending):.2f}")
    measured = [f for f in fits if f.encoding == "course" and f.measure == "clauses"]
    if measured:
        text += f"; the measured clause counts give {measured[0].exponent:.2f}"
    return text + " (the leading term alone would give 8)."


def usable_words(summary: pd.DataFrame, spec: GridSpec, limit: str) -> list[str]:
    """Per (encoding, solver) the grid ran, where it stops being usable within `limit` (``the
    budget of 20,000 conflicts``: :func:`sudosat.studies.grid.unusable_order`), or that it
    stayed usable."""
    said = []
    for encoding, solver in spec.runs():
        order, cells = gridstudy.unusable_order(summary, encoding, solver)
        rows = summary[(summary["encoding"] == encoding) & (summary["solver"] == solver)]
        who = f"With {solver}, the {encoding} encoding"
        if order is None:
            said.append(f"{who} stayed usable up to N = {int(rows['order'].max())}: no cell had "
                        f"half or more of its boards left undecided within {limit}.")
            continue
        where = ", ".join(f"{percent(float(c.alpha))} given ({int(c.unfinished)} of "
                          f"{int(c.boards)})" for c in cells.itertuples())
        at = rows[rows["order"] == order]
        beyond = "".join(f"; at N = {int(n)}, {int(part['unfinished'].sum())} of "
                         f"{int(part['boards'].sum())}"
                         for n, part in rows[rows["order"] > order].groupby("order"))
        said.append(f"{who} stops being usable at N = {order}: within {limit}, half or more of "
                    f"the boards of a cell were undecided at {where}; over the whole order, "
                    f"{int(at['unfinished'].sum())} of the {encoding} encoding's "
                    f"{int(at['boards'].sum())} runs were undecided{beyond}.")
    return said


def reference_words(rows: pd.DataFrame, summary: pd.DataFrame, solver: str, reference: str,
                    limit: str, encoding: str = "optimised") -> list[str]:
    """Our solver against the reference on the same formulas of `encoding` within `limit`, then
    the boards ours decided and the reference did not (`rows`), each with what stopped the
    reference; or that the reference did not run with `encoding`."""
    cells = summary[summary["encoding"] == encoding]
    ours = cells[cells["solver"] == solver].set_index(["order", "alpha"])
    theirs = cells[cells["solver"] == reference].set_index(["order", "alpha"])
    common = ours.index.intersection(theirs.index)
    if common.empty:
        return [f"{reference} was not run with the {encoding} encoding."]
    ours, theirs = ours.loc[common], theirs.loc[common]
    lower = int((ours["median_cpu_ms"] < theirs["median_cpu_ms"]).sum())
    said = [f"With the {encoding} encoding, {solver} decided {int(ours['solved'].sum())} and "
            f"{reference} {int(theirs['solved'].sum())} of the same {int(ours['boards'].sum())} "
            f"runs within {limit}; {solver}'s median CPU time was the lower in {lower} of "
            f"{len(common)} cells (a measurement of this machine; the reference's includes "
            "loading the formula)."]
    keys = ["order", "alpha", "seed"]
    runs = rows[rows["encoding"] == encoding]
    our_runs = runs[runs["solver"] == solver].set_index(keys)
    their_runs = runs[runs["solver"] == reference].set_index(keys)
    missed = []
    for order, alpha, seed in sorted(our_runs.index.intersection(their_runs.index)):
        run, ref = our_runs.loc[(order, alpha, seed)], their_runs.loc[(order, alpha, seed)]
        if run["status"] not in DECIDED or ref["status"] in DECIDED:
            continue
        # the reference's CPU time includes handing it the clauses, named when recorded
        load = ref.get("load_cpu_ms")
        missed.append(
            f"N = {int(order)}, {percent(float(alpha))} given, seed {int(seed)}: it stopped "
            f"({ref['status']}, {ref.get('stop')})"
            + ("" if pd.isna(ref["conflicts"]) else f" after {int(ref['conflicts']):,} conflicts")
            + f" and {milliseconds(float(ref['solve_cpu_ms']))} ms of CPU"
            + ("" if pd.isna(load) else
               f", {milliseconds(float(load))} of them loading the clauses")
            + f", where {solver} needed"
            + ("" if pd.isna(run["conflicts"]) else f" {int(run['conflicts']):,} conflicts and")
            + f" {milliseconds(float(run['solve_cpu_ms']))} ms")
    if missed:
        said.append(
            f"{reference} did not decide {plural(len(missed), 'board')} that {solver} decided, "
            f"on the same formula under the same budget: {'; '.join(missed)}. A budget counts "
            "the same dead ends in both solvers, but the two search differently, so one may "
            "need more of them on a given board.")
    return said


def _cell(frame: pd.DataFrame, order: int, alpha: float) -> pd.DataFrame:
    return frame[(frame["order"] == order) & (frame["alpha"].round(6) == round(alpha, 6))]


def cell_words(summary: pd.DataFrame, order: int, alpha: float, solver: str,
               max_conflicts: int, base: str = "course", better: str = "optimised") -> str:
    """One cell of the grid up close: every run's boards solved and undecided (with the median
    CPU time of the solved ones), then what `better` did against `base` with `solver` on the
    same boards; or that the grid has no such cell."""
    cell = _cell(summary, order, alpha)
    if cell.empty:
        return f"The grid has no cell N = {order}, {percent(alpha)} given."
    parts = []
    for _, run in cell.iterrows():
        words = (f"{run['encoding']} with {run['solver']}: {int(run['solved'])} of "
                 f"{int(run['boards'])} solved")
        if run["unfinished"]:
            words += f", {int(run['unfinished'])} undecided"
        if run["solved"]:
            words += (f" (median of the solved {milliseconds(float(run['median_solved_cpu_ms']))}"
                      " ms of CPU)")
        parts.append(words)
    text = (f"At N = {order} with {percent(alpha)} given, within {max_conflicts:,} "
            "conflicts: " + "; ".join(parts) + ".")
    mine = cell[cell["solver"] == solver]
    solved = {e: int(mine.loc[mine["encoding"] == e, "solved"].sum()) for e in (base, better)}
    boards = {e: int(mine.loc[mine["encoding"] == e, "boards"].sum()) for e in (base, better)}
    if solved[better] > solved[base]:
        return text + (
            f" Same boards, same solver ({solver}), same budget: with the {better} "
            f"encoding it decided {solved[better]} of {boards[better]} boards, with the "
            f"{base} encoding {solved[base]} of {boards[base]}: here the encoding "
            "decides whether the board is solved at all.")
    if solved[better] == solved[base]:
        return text + (f" With {solver}, both encodings decided {solved[base]} of "
                       f"{boards[base]} boards: in this cell the encoding made no difference "
                       "within the budget.")
    return text + (f" With {solver}, the {base} encoding decided more boards "
                   f"({solved[base]}) than the {better} encoding ({solved[better]}).")


def focus_tables(rows: pd.DataFrame, order: int, alpha: float) -> tuple[HTML, HTML] | None:
    """The boards of one grid cell, one line each: every run's status, and its solve CPU time
    (ms).

    None when the grid has no such cell.
    """
    cell = _cell(rows, order, alpha)
    if cell.empty:
        return None
    shapes = {"index": ["seed", "givens"], "columns": ["encoding", "solver"], "aggfunc": "first"}
    status = cell.pivot_table(values="status", **shapes)
    times = cell.pivot_table(values="solve_cpu_ms", **shapes)
    return table(status), table(times, 0)


def large_intro_words(large_orders: Sequence[int], grid_orders: Sequence[int],
                      alphas: Sequence[float], solver: str, max_conflicts: int,
                      base: str = "course") -> str:
    """Which larger orders, why one encoding only (the clauses of `base` on an empty board of
    each, counted by :func:`sudosat.sudoku.encoding.estimate` as in the page's size table),
    and which fills are tried, down to the first `solver` does not decide."""
    from sudosat.sudoku.encoding import estimate

    sizes = sorted((int(n), int(estimate(Board.empty(int(n)), base)["clauses"]))
                   for n in large_orders)
    counts = [f"{clauses:,} at N = {n}" for n, clauses in sizes]
    counts[0] = counts[0].replace(" at", " clauses at", 1)
    largest = max(clauses for _, clauses in sizes)
    if largest >= 1e6:
        counts[-1] += f" (about {largest / 1e6:.3g} million)"
    if len(alphas) == 1:
        steps = f"One board per order, at {percent(alphas[0])} given."
    else:
        steps = (f"For each order, one board per fill from {percent(alphas[0])} given down "
                 f"({', '.join(percent(a) for a in alphas)}), stopping at the first fill that "
                 f"{solver} does not decide within the grid's budget of {max_conflicts:,} "
                 "conflicts.")
    return (f"At {orders([n for n, _ in sizes])} (the grid stops at N = "
            f"{max(grid_orders)}), the {base} encoding of an empty board would have "
            f"{and_join(counts)}, counted by `sudosat.sudoku.encoding.estimate` as in the size "
            f"table of §7; so only the optimised encoding is tried. {steps}")


def large_words(large: pd.DataFrame, solver: str) -> list[str]:
    """How far down each order of :func:`sudosat.studies.grid.run_large` went (the lowest fill
    decided, its clauses and CPU time) and where it stopped, and whether the CPU cap, so the
    machine, had a say."""
    stopped_by: dict[str, str] = {
        Verdict.UNKNOWN: "was stopped by the budget",
        Verdict.TIMEOUT: "was stopped by the CPU cap (this machine's doing, not the budget's)",
    }
    sentences = []
    for order, part in large.groupby("order"):
        solved = part[part["status"].isin(DECIDED)]
        failed = part[~part["status"].isin(DECIDED)]
        if solved.empty:
            sentences.append(f"N = {int(order)}: {solver} decided no board within the budget.")
            continue
        low = solved.loc[solved["alpha"].idxmin()]
        text = (f"N = {int(order)}: down to {percent(float(low['alpha']))} given, {solver} "
                f"decided the board within the budget ({int(low['clauses']):,} clauses, "
                f"{milliseconds(float(low['solve_cpu_ms']))} ms of CPU)")
        if not failed.empty:
            stop = failed.iloc[0]
            how = stopped_by.get(str(stop["status"]), f"failed ({stop['status']})")
            text += f", and {how} at {percent(float(stop['alpha']))}"
        sentences.append(text + ".")
    if (stops(large) == "time").any():
        sentences.append("Where the CPU cap stopped a board, how far that order went depends on "
                         "this machine and its load.")
    return sentences


def large_table(large: pd.DataFrame) -> pd.DataFrame:
    """The second table: one line per (N, alpha) tried, its size, status, why it stopped,
    conflicts and CPU times."""
    out = pd.DataFrame(
        {
            "N": large["order"],
            "given": large["alpha"].map(percent),
            "cells": large["size"] ** 2,
            "givens": large["givens"],
            "variables": large["variables"],
            "clauses": large["clauses"],
            "status": large["status"],
            "stopped by": large["stop"],
            "conflicts": large["conflicts"],
            "encode CPU ms": large["encode_cpu_ms"].map(milliseconds),
            "solve CPU ms": large["solve_cpu_ms"].map(milliseconds),
        }
    )
    return out.set_index(["N", "given"])


def estimate_table(orders: Sequence[int] = range(2, 10), alphas: Sequence[float] = (0.0, 0.5),
                   seed: int = 0) -> pd.DataFrame:
    """Clauses of every registered encoding (:func:`~sudosat.sudoku.encoding.estimate`), none built.

    One generated board (pattern solution) per order and fill.
    """
    from sudosat.run.generate import generate
    from sudosat.sudoku.encoding import ENCODINGS, estimate

    rows = []
    for order in orders:
        for alpha in alphas:
            board = generate(order, alpha, seed=seed, base="pattern")
            row: dict[str, Any] = {"N": order, "given": percent(alpha)}
            row.update({name: estimate(board, name)["clauses"] for name in ENCODINGS})
            rows.append(row)
    return pd.DataFrame(rows).set_index(["N", "given"])


@styled
def plot_grid_cells(summary: pd.DataFrame, solver: str, max_conflicts: int,
                    measure: str = "median_cpu_ms") -> Figure:
    """Median `measure` against alpha, one panel per encoding, one line per order.

    The y axis is symmetric-log, so zero counts stay on the plot (at 0) instead
    of vanishing; the title says so only when a zero is drawn. A median that is
    a lower bound (half or more of the cell's runs undecided) is an open
    circle; for conflicts the budget `max_conflicts` is the dashed line, where
    those medians sit. The legend, beside the panels, names both, so no label
    sits on the data.
    """
    from matplotlib.lines import Line2D

    rows = summary[summary["solver"] == solver]
    encodings = list(dict.fromkeys(rows["encoding"]))
    # At the page's width (two panels a row), so that its text prints at its own size.
    columns = min(2, max(len(encodings), 1))
    lines = -(-max(len(encodings), 1) // columns)
    figure = ReportFigure(figsize=(PAGE_WIDTH_IN, 0.9 + 2.7 * lines), layout="constrained")
    grid = figure.subplots(lines, columns, sharey=True, squeeze=False)
    every = list(grid.flat)
    for spare in every[len(encodings):]:
        spare.set_visible(False)
    timed = measure == "median_cpu_ms"
    counted = measure == "median_conflicts"
    bounded = bool(rows["censored"].any())
    for axis, encoding in zip(every, encodings, strict=False):
        part = rows[rows["encoding"] == encoding]
        for order, line in part.groupby("order"):
            line = line.sort_values("alpha")
            drawn = axis.plot(line["alpha"] * 100, line[measure], marker="o",
                              label=f"N = {order}")[0]
            out = line[line["censored"]]
            axis.plot(out["alpha"] * 100, out[measure], linestyle="none", marker="o",
                      markersize=11, markerfacecolor="none", color=drawn.get_color())
        if counted:
            axis.axhline(max_conflicts, color="grey", linestyle="--", linewidth=1)
        axis.set_yscale("symlog", linthresh=1.0)
        axis.set_xlabel("cells given (%)")
        axis.set_title(encoding)
        axis.grid(True, which="both", alpha=0.3)
        tidy_log_ticks(axis)
    words = MEASURE_WORDS.get(measure, measure)
    for axis in grid[:, 0]:
        axis.set_ylabel(words.replace("the ", "") + (" (ms)" if timed else ""))
    handles, labels = every[0].get_legend_handles_labels()
    if counted:
        handles.append(Line2D([], [], color="grey", linestyle="--", linewidth=1))
        labels.append(f"budget: {max_conflicts:,} conflicts")
    if bounded:
        handles.append(Line2D([], [], color="grey", linestyle="none", marker="o", markersize=9,
                              markerfacecolor="none"))
        labels.append("half or more undecided: the median is a lower bound")
    figure.legend(handles, labels, loc="outside lower center", ncols=3)
    zero_drawn = bool((rows[measure] == 0).any())
    figure.suptitle(f"{solver}: {words} per cell"
                    + (" (symlog axis: zero is drawn at 0)" if zero_drawn else ""))
    return figure


@styled
def plot_grid_growth(summary: pd.DataFrame, fits: Sequence[Fit], solver: str) -> Figure:
    """Per-order medians against N on log-log axes, with the fitted lines of `fits`."""
    quantities = list(dict.fromkeys(f.measure for f in fits))
    if not quantities:  # fewer than three orders: nothing to fit
        figure = ReportFigure(figsize=(4.6, 1.2))
        axis = figure.subplots()
        axis.axis("off")
        axis.text(0.5, 0.5, "fewer than three orders: no growth fit", ha="center")
        return figure
    # One panel a row at the page's width, so that its text prints at its own size; short
    # enough that the three fit on a page under their section's introduction.
    figure = ReportFigure(figsize=(PAGE_WIDTH_IN, 0.5 + 1.95 * len(quantities)),
                          layout="constrained")
    axes = figure.subplots(len(quantities), 1, squeeze=False)
    rows = summary[summary["solver"] == solver]
    for axis, quantity in zip(axes[:, 0], quantities, strict=True):
        for fit in (f for f in fits if f.measure == quantity):
            part = rows[rows["encoding"] == fit.encoding]
            per_order = part.groupby("order")[quantity].median()
            shift = 0.0 if quantity == "median_cpu_ms" else 1.0
            points = axis.plot(per_order.index, per_order.to_numpy(dtype=float) + shift,
                               marker="o", linestyle="none", label=fit.encoding)[0]
            span = [min(per_order.index), max(per_order.index)]
            axis.plot(span, [fit.predict(n) for n in span], color=points.get_color(),
                      label=f"{fit.encoding}: fit N^{fit.exponent:.1f}")
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xticks(sorted(rows["order"].unique()))
        axis.set_xticklabels([str(n) for n in sorted(rows["order"].unique())])
        axis.minorticks_off()
        axis.set_xlabel("order N (log)")
        label = MEASURE_WORDS.get(quantity, quantity).replace("the ", "")
        axis.set_ylabel(label + (" (ms)" if quantity == "median_cpu_ms" else
                                 "" if quantity == "clauses" else " + 1"))
        axis.grid(True, which="both", alpha=0.3)
        tidy_log_ticks(axis)
        legend_outside(axis)
    figure.suptitle("growth with N, fitted on log-log scales (scipy.stats.linregress)")
    return figure
