"""The scaling page: the N x alpha grid of :mod:`sudosat.studies.grid` as tables, figures
and the facts its sentences state.

Every fact is a small frozen record computed from the grid's rows or summary;
the scaling notebook words them. Every run is bounded by a conflict budget,
the limit every conclusion rests on (the same on every machine), with a
CPU-time cap behind it as a safety net (:class:`LimitFacts` says whether it
ever stopped a run). Every time is the solver call's CPU time, a measurement;
an undecided run enters a median with the time it took to be stopped, so a
median of a cell where half or more were undecided is a lower bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.clocks import ClockFacts, clock_facts
from sudosat.report.plots import PAGE_WIDTH_IN, ReportFigure, legend_outside, styled, tidy_log_ticks
from sudosat.report.tables import HTML, table
from sudosat.run.results import DECIDED, Verdict
from sudosat.studies import grid as gridstudy
from sudosat.studies.grid import UNDECIDED, Fit, GridSpec, milliseconds, percent
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


@dataclass(frozen=True)
class BoardFacts:
    """Whether the seeds of every cell give different boards (:func:`distinct_boards`).

    Attributes
    ----------
    seeds : int
        Boards (seeds) per cell.
    cells : int
    distinct_cells : int
        Cells whose seeds all give different boards.
    repeats : tuple of (alpha, distinct boards, orders)
        The cells that repeat a board, grouped by fill and count, orders ascending.
    repeats_are_empty : bool
        Every repeating cell has no givens (every seed leaves the same empty board).
    """

    seeds: int
    cells: int
    distinct_cells: int
    repeats: tuple[tuple[float, int, tuple[int, ...]], ...]
    repeats_are_empty: bool


def board_facts(distinct: pd.DataFrame) -> BoardFacts:
    """The :class:`BoardFacts` of :func:`sudosat.studies.grid.distinct_boards`' table."""
    short = distinct[distinct["distinct"] < distinct["boards"]]
    repeats = []
    for (alpha, count), group in short.groupby([short.index.get_level_values("alpha"),
                                                "distinct"], sort=True):
        orders = tuple(sorted(int(n) for n in group.index.get_level_values("order")))
        repeats.append((float(alpha), int(count), orders))
    return BoardFacts(
        seeds=int(distinct["boards"].max()),
        cells=len(distinct),
        distinct_cells=len(distinct) - len(short),
        repeats=tuple(repeats),
        repeats_are_empty=bool(len(short)) and bool((short["givens"] == 0).all()),
    )


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


@dataclass(frozen=True)
class GridRunFacts:
    """How the grid's runs ended and where they came from.

    Attributes
    ----------
    runs, solved, undecided, refused : int
        Every run; SAT answers (each checked valid); runs a limit stopped
        before an answer; encodings refused.
    cells, cells_from_cache : int
    measured_at : tuple of str
        When the cached cells were measured (distinct times, sorted).
    """

    runs: int
    solved: int
    undecided: int
    refused: int
    cells: int
    cells_from_cache: int
    measured_at: tuple[str, ...]


def grid_run_facts(rows: pd.DataFrame) -> GridRunFacts:
    """The :class:`GridRunFacts` of :func:`sudosat.studies.grid.run_grid`'s rows."""
    reused = rows.loc[rows["computed_at"] != "", "computed_at"]
    return GridRunFacts(
        runs=len(rows),
        solved=int((rows["status"] == Verdict.SAT.value).sum()),
        undecided=int(rows["status"].isin(UNDECIDED).sum()),
        refused=int((rows["status"] == Verdict.ERROR).sum()),
        cells=rows.groupby(["order", "alpha"]).ngroups,
        cells_from_cache=rows.loc[reused.index].groupby(["order", "alpha"]).ngroups,
        measured_at=tuple(sorted(set(reused))),
    )


@dataclass(frozen=True)
class LimitFacts:
    """What stopped a study's undecided runs: the work budget, or the CPU cap behind it.

    Attributes
    ----------
    budget_stops : int
        Runs the work budget stopped (``stop`` ``conflicts`` or ``propagations``): the same
        on every machine.
    cap_stops : tuple of str
        The runs the CPU cap stopped (``stop`` ``time``), one description each: those
        depend on the machine and its load.
    """

    budget_stops: int
    cap_stops: tuple[str, ...]

    @property
    def machine_dependent(self) -> bool:
        """Whether any run was stopped by the CPU cap, so that part depends on the machine."""
        return bool(self.cap_stops)


def limit_facts(rows: pd.DataFrame, what: tuple[str, ...] = ("order", "alpha", "seed")
                ) -> LimitFacts:
    """The :class:`LimitFacts` of a study's rows; `what` names a run for the cap's list
    (with its solver and, when the rows have one, its encoding)."""
    stop = (rows["stop"] if "stop" in rows else pd.Series("", index=rows.index))
    stop = stop.astype("string").fillna("")
    capped = rows[stop == "time"]
    described = []
    for _, row in capped.iterrows():
        name = ", ".join(f"{key} {row[key]}" for key in what if key in row)
        where = f"{row['encoding']} / " if "encoding" in row else ""
        described.append(f"{where}{row['solver']} ({name})")
    return LimitFacts(int(stop.isin(BUDGET_STOP_WORDS).sum()), tuple(described))


def solve_clock_facts(rows: pd.DataFrame) -> ClockFacts:
    """How busy the machine was while a study's solvers ran: the wall-clock against the CPU
    time of every solver call in its rows (``solve_wall_ms``, ``solve_cpu_ms``)."""
    return clock_facts(zip(rows["solve_wall_ms"], rows["solve_cpu_ms"], strict=True))


@dataclass(frozen=True)
class Peak:
    """The hardest fill of one order, as :func:`sudosat.studies.grid.peaks` ranks it.

    Attributes
    ----------
    order : int
    alphas : tuple of float
        The fills tied hardest, ascending (more than one: a tie).
    by : str
        ``"unfinished"`` (median runs undecided: ranked by undecided runs),
        ``"conflicts"`` or ``"time"`` (no conflict counts).
    median_conflicts, median_cpu_ms : tuple of float
        One per tied fill (the CPU time in ms).
    unfinished, boards : int
        Of the first tied fill.
    """

    order: int
    alphas: tuple[float, ...]
    by: str
    median_conflicts: tuple[float, ...]
    median_cpu_ms: tuple[float, ...]
    unfinished: int
    boards: int

    @property
    def tied(self) -> bool:
        """More than one fill is hardest."""
        return len(self.alphas) > 1


def peak_facts(summary: pd.DataFrame, solver: str) -> dict[str, tuple[Peak, ...]]:
    """The hardest fill of each order for `solver`, per encoding in the summary's order."""
    table = gridstudy.peaks(summary, solver)
    out: dict[str, tuple[Peak, ...]] = {}
    for encoding in dict.fromkeys(summary["encoding"]):
        if encoding not in table.index.get_level_values(0):
            continue
        out[str(encoding)] = tuple(
            Peak(int(order), tuple(row["alphas"]), str(row["by"]), tuple(row["median_conflicts"]),
                 tuple(row["median_cpu_ms"]), int(row["unfinished"]), int(row["boards"]))
            for order, row in table.loc[encoding].iterrows()
        )
    return out


def growth_fits(summary: pd.DataFrame, solver: str) -> list[Fit]:
    """The growth fits of clauses, median time and median conflicts against N."""
    return [
        fit
        for measure in ("clauses", "median_cpu_ms", "median_conflicts")
        for fit in gridstudy.fit_growth(summary, solver, measure)
    ]


@dataclass(frozen=True)
class ClosedFormFacts:
    """The course encoding's clause exponent from its closed form, beside the measured one.

    ``orders`` are the grid's; ``theory`` the closed form's exponent fitted over them;
    ``measured`` the fit of the measured clause counts (None without one).
    """

    orders: tuple[int, ...]
    theory: float
    measured: float | None


def closed_form_facts(orders: Sequence[int], fits: Sequence[Fit]) -> ClosedFormFacts:
    """The :class:`ClosedFormFacts` over `orders` (sorted), with the course clause fit of `fits`."""
    measured = [f for f in fits if f.encoding == "course" and f.measure == "clauses"]
    return ClosedFormFacts(tuple(sorted(orders)), gridstudy.closed_form_exponent(sorted(orders)),
                           measured[0].exponent if measured else None)


@dataclass(frozen=True)
class UsabilityFacts:
    """Where one encoding with one solver stops being usable within the conflict budget.

    Attributes
    ----------
    encoding, solver : str
    largest_order : int
        The largest order of the grid.
    order : int or None
        The smallest order with a cell where half or more of the boards were
        undecided (None: no such cell).
    fills : tuple of float
        That order's cells where half or more were undecided.
    cells : tuple of (fill, undecided, runs)
        Those cells' undecided runs and runs, one entry per fill of `fills`.
    unfinished, runs : int
        Undecided runs and runs of that whole order.
    beyond : tuple of (order, unfinished, runs)
        The same for every larger order.
    """

    encoding: str
    solver: str
    largest_order: int
    order: int | None
    fills: tuple[float, ...] = ()
    cells: tuple[tuple[float, int, int], ...] = ()
    unfinished: int = 0
    runs: int = 0
    beyond: tuple[tuple[int, int, int], ...] = ()


def usability_facts(summary: pd.DataFrame, spec: GridSpec) -> list[UsabilityFacts]:
    """The :class:`UsabilityFacts` of every (encoding, solver) the grid ran."""
    facts = []
    for encoding, solver in spec.runs():
        order, cells = gridstudy.unusable_order(summary, encoding, solver)
        rows = summary[(summary["encoding"] == encoding) & (summary["solver"] == solver)]
        largest = int(rows["order"].max())
        if order is None:
            facts.append(UsabilityFacts(encoding, solver, largest, None))
            continue
        at = rows[rows["order"] == order]
        beyond = tuple((int(n), int(part["unfinished"].sum()), int(part["boards"].sum()))
                       for n, part in rows[rows["order"] > order].groupby("order"))
        facts.append(UsabilityFacts(
            encoding, solver, largest, order, tuple(float(a) for a in cells["alpha"]),
            tuple((float(c.alpha), int(c.unfinished), int(c.boards))
                  for c in cells.itertuples()),
            int(at["unfinished"].sum()), int(at["boards"].sum()), beyond))
    return facts


@dataclass(frozen=True)
class SavingsFacts:
    """What the optimised encoding removes against the course encoding, with `solver`.

    Attributes
    ----------
    base, better, solver : str
    removed : tuple of (order, share 0..1)
        Per order (the median over its cells of each cell's median clause
        count), the share of `base`'s clauses `better` removes.
    base_unfinished, better_unfinished : int
        Undecided runs of each over the whole grid.
    runs : int
        Runs of each encoding over the grid (the same boards).
    """

    base: str
    better: str
    solver: str
    removed: tuple[tuple[int, float], ...]
    base_unfinished: int
    better_unfinished: int
    runs: int


def savings_facts(summary: pd.DataFrame, solver: str, base: str = "course",
                  better: str = "optimised") -> SavingsFacts:
    """The :class:`SavingsFacts` of :func:`sudosat.studies.grid.savings`."""
    table = gridstudy.savings(summary, solver, base, better)
    return SavingsFacts(
        base, better, solver,
        tuple((int(order), float(row["removed"])) for order, row in table.iterrows()),
        int(table[f"{base} unfinished"].sum()), int(table[f"{better} unfinished"].sum()),
        int(table["runs"].sum()),
    )


@dataclass(frozen=True)
class ReferenceFacts:
    """Our solver against the reference on the same formulas of one encoding.

    Attributes
    ----------
    encoding, solver, reference : str
    ran : bool
        Whether the reference ran with `encoding` (nothing else is set otherwise).
    solver_decided, reference_decided, runs : int
        Runs each decided of the same `runs`.
    solver_lower, cells : int
        Cells where our solver's median CPU time was the lower, of the cells both
        ran (the reference's time includes loading the formula).
    """

    encoding: str
    solver: str
    reference: str
    ran: bool
    solver_decided: int = 0
    reference_decided: int = 0
    runs: int = 0
    solver_lower: int = 0
    cells: int = 0


def reference_facts(summary: pd.DataFrame, solver: str, reference: str,
                    encoding: str = "optimised") -> ReferenceFacts:
    """The :class:`ReferenceFacts` of `solver` against `reference` with `encoding`."""
    rows = summary[summary["encoding"] == encoding]
    ours = rows[rows["solver"] == solver].set_index(["order", "alpha"])
    theirs = rows[rows["solver"] == reference].set_index(["order", "alpha"])
    common = ours.index.intersection(theirs.index)
    if common.empty:
        return ReferenceFacts(encoding, solver, reference, False)
    ours, theirs = ours.loc[common], theirs.loc[common]
    return ReferenceFacts(
        encoding, solver, reference, True,
        int(ours["solved"].sum()), int(theirs["solved"].sum()), int(ours["boards"].sum()),
        int((ours["median_cpu_ms"] < theirs["median_cpu_ms"]).sum()), len(common),
    )


@dataclass(frozen=True)
class MissedBoard:
    """One board our solver decided and the reference did not, on the same formula and budget.

    Times are CPU milliseconds of the solver call; the reference's `load_cpu_ms`
    (handing it the clauses) is part of its `cpu_ms` (None when not recorded).
    `stop` says what stopped the reference (``conflicts``: the budget).
    """

    order: int
    alpha: float
    seed: int
    status: str
    stop: str
    cpu_ms: float
    load_cpu_ms: float | None
    conflicts: int | None
    solver_cpu_ms: float
    solver_conflicts: int | None


def reference_misses(rows: pd.DataFrame, solver: str, reference: str,
                     encoding: str = "optimised") -> tuple[MissedBoard, ...]:
    """The boards `solver` decided and `reference` did not, with `encoding` (grid rows)."""
    keys = ["order", "alpha", "seed"]
    mine = rows[(rows["encoding"] == encoding) & (rows["solver"] == solver)].set_index(keys)
    theirs = rows[(rows["encoding"] == encoding) & (rows["solver"] == reference)]
    theirs = theirs.set_index(keys)
    common = mine.index.intersection(theirs.index)
    missed = []
    for key in common:
        ours, ref = mine.loc[key], theirs.loc[key]
        if ours["status"] in DECIDED and ref["status"] not in DECIDED:
            missed.append(MissedBoard(
                int(key[0]), float(key[1]), int(key[2]), str(ref["status"]), str(ref.get("stop")),
                float(ref["solve_cpu_ms"]), _optional(ref.get("load_cpu_ms"), float),
                _optional(ref["conflicts"], int), float(ours["solve_cpu_ms"]),
                _optional(ours["conflicts"], int)))
    return tuple(sorted(missed, key=lambda m: (m.order, m.alpha, m.seed)))


def _optional(value: Any, kind: type) -> Any:
    """`value` as `kind`, or None when missing."""
    return None if value is None or pd.isna(value) else kind(value)


@dataclass(frozen=True)
class CellRun:
    """One run of a grid cell: its encoding and solver, boards solved and undecided, and the
    median CPU time of the solved ones (None when none was solved)."""

    encoding: str
    solver: str
    boards: int
    solved: int
    unfinished: int
    median_solved_cpu_ms: float | None


@dataclass(frozen=True)
class CellFacts:
    """One cell of the grid: every run, then `solver` with the two encodings on the same boards.

    Attributes
    ----------
    order : int
    alpha : float
    found : bool
        Whether the grid has the cell (nothing else is set otherwise).
    runs : tuple of CellRun
    solver, base, better : str
    base_solved, base_boards, better_solved, better_boards : int
        `solver`'s boards decided with each encoding, of its boards.
    """

    order: int
    alpha: float
    found: bool
    runs: tuple[CellRun, ...] = ()
    solver: str = ""
    base: str = "course"
    better: str = "optimised"
    base_solved: int = 0
    base_boards: int = 0
    better_solved: int = 0
    better_boards: int = 0


def _cell(frame: pd.DataFrame, order: int, alpha: float) -> pd.DataFrame:
    return frame[(frame["order"] == order) & (frame["alpha"].round(6) == round(alpha, 6))]


def cell_facts(summary: pd.DataFrame, order: int, alpha: float, solver: str = "cdcl",
               base: str = "course", better: str = "optimised") -> CellFacts:
    """The :class:`CellFacts` of the cell (`order`, `alpha`) of the grid's summary."""
    cell = _cell(summary, order, alpha)
    if cell.empty:
        return CellFacts(order, alpha, False)
    runs = tuple(
        CellRun(str(row["encoding"]), str(row["solver"]), int(row["boards"]), int(row["solved"]),
                int(row["unfinished"]),
                float(row["median_solved_cpu_ms"]) if row["solved"] else None)
        for _, row in cell.iterrows()
    )
    mine = cell[cell["solver"] == solver]

    def total(encoding: str, column: str) -> int:
        return int(mine.loc[mine["encoding"] == encoding, column].sum())

    return CellFacts(order, alpha, True, runs, solver, base, better,
                     total(base, "solved"), total(base, "boards"),
                     total(better, "solved"), total(better, "boards"))


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


@dataclass(frozen=True)
class LargeIntroFacts:
    """Why the larger orders run one encoding only: `base`'s clauses on an empty board.

    ``sizes`` is (order, clauses) per larger order, counted by
    :func:`sudosat.sudoku.encoding.estimate` as in the page's size table;
    ``grid_largest`` the largest order of the grid.
    """

    sizes: tuple[tuple[int, int], ...]
    grid_largest: int
    base: str = "course"


def large_intro_facts(orders: Sequence[int], grid_orders: Sequence[int],
                      base: str = "course") -> LargeIntroFacts:
    """The :class:`LargeIntroFacts` of the larger `orders` beyond `grid_orders`."""
    from sudosat.sudoku.encoding import estimate

    sizes = tuple(sorted((int(n), int(estimate(Board.empty(int(n)), base)["clauses"]))
                         for n in orders))
    return LargeIntroFacts(sizes, max(grid_orders), base)


@dataclass(frozen=True)
class LargeFacts:
    """One larger order: the lowest fill decided within the limits, and where the descent
    stopped.

    Attributes
    ----------
    order : int
    lowest : float or None
        The lowest fill decided (None: no board decided).
    clauses : int or None
        The clauses of that board's formula.
    solve_cpu_ms : float or None
        Its solve CPU time.
    stopped_at : float or None
        The fill of the first board not decided (None: every fill tried was decided).
    stop_status : str or None
        How that board ended (``UNKNOWN``: the budget ran out; ``TIMEOUT``: the CPU cap;
        ``ERROR``, ...).
    """

    order: int
    lowest: float | None
    clauses: int | None = None
    solve_cpu_ms: float | None = None
    stopped_at: float | None = None
    stop_status: str | None = None


def large_facts(large: pd.DataFrame) -> list[LargeFacts]:
    """The :class:`LargeFacts` of each order of :func:`sudosat.studies.grid.run_large`."""
    facts = []
    for order, part in large.groupby("order"):
        solved = part[part["status"].isin(DECIDED)]
        failed = part[~part["status"].isin(DECIDED)]
        if solved.empty:
            facts.append(LargeFacts(int(order), None))
            continue
        low = solved.loc[solved["alpha"].idxmin()]
        stop = failed.iloc[0] if not failed.empty else None
        facts.append(LargeFacts(
            int(order), float(low["alpha"]), int(low["clauses"]), float(low["solve_cpu_ms"]),
            None if stop is None else float(stop["alpha"]),
            None if stop is None else str(stop["status"]),
        ))
    return facts


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
