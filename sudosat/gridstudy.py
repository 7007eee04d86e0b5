"""The report's N x alpha study: the grid, its summary, its conclusions, its plots.

The generalised-Sudoku assignment asks for boards of order N in {3, 4, 5, 6}
with a fraction alpha in {0, 0.2, 0.4, 0.6} of the cells given, solved, and
conclusions on computational complexity. This module runs that grid (every
cell, several boards, several encodings, our solver and a reference, one
time limit T), caches it (:mod:`sudosat.studycache`), and turns the table into
what the page says: every figure in the prose comes from a function here that
takes the table and returns the sentence.

The boards of cell (N, alpha) are ``sudosat generate --order N --alpha alpha
--count B --seed S``: the same seeds in every cell, so a board of one cell is
the same hidden solution as the board of the same seed in the cells of the
same order, with fewer or more of its cells shown.

A time-out counts as T in every median (the true time is larger), so a median
that reaches T is a lower bound; the tables print it as ``>= T``.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import pandas as pd

from sudosat.board import Board
from sudosat.generate import generate_many
from sudosat.results import Verdict
from sudosat.study import failed_row, measure, prepare_once
from sudosat.studycache import code_version, load_or_compute

SOLVED = ("SAT", "UNSAT")


@dataclass(frozen=True)
class GridSpec:
    """The questions of one grid run (everything that decides its rows besides the code).

    Attributes
    ----------
    orders, alphas : sequences
        The grid: orders N and fill fractions alpha.
    boards : int
        Boards per cell, seeds ``seed .. seed + boards - 1``.
    seed : int
        The first board seed of every cell.
    time_limit_ms : float
        T, the same for every solver call.
    solver : str
        Our solver, run with every encoding.
    encodings : sequence of str
    reference : str or None
        The reference solver, run with `reference_encodings` only.
    reference_encodings : sequence of str
    """

    orders: tuple[int, ...] = (3, 4, 5, 6)
    alphas: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6)
    boards: int = 3
    seed: int = 7
    time_limit_ms: float = 5000.0
    solver: str = "cdcl"
    encodings: tuple[str, ...] = ("course", "extended", "optimised")
    reference: str | None = "pysat:cadical195"
    reference_encodings: tuple[str, ...] = ("optimised",)

    def runs(self) -> list[tuple[str, str]]:
        """(encoding, solver) pairs in the order they run."""
        pairs = [(encoding, self.solver) for encoding in self.encodings]
        if self.reference:
            pairs += [(e, self.reference) for e in self.encodings if e in self.reference_encodings]
        return pairs

    def quick(self) -> GridSpec:
        """A shrunken grid for ``make report QUICK=1``: orders up to 4, T at most 2 s."""
        return GridSpec(
            orders=tuple(n for n in self.orders if n <= 4) or (3,),
            alphas=self.alphas,
            boards=self.boards,
            seed=self.seed,
            time_limit_ms=min(self.time_limit_ms, 2000.0),
            solver=self.solver,
            encodings=self.encodings,
            reference=self.reference,
            reference_encodings=self.reference_encodings,
        )


def run_cell(spec: GridSpec, order: int, alpha: float) -> list[dict]:
    """Every row of one cell: each board, encoded once per encoding, solved by each solver."""
    started = time.perf_counter()
    puzzles = generate_many(order, alpha, spec.boards, seed=spec.seed)
    generate_ms = (time.perf_counter() - started) * 1000.0 / max(spec.boards, 1)
    runs = spec.runs()
    rows = []
    for index, board in enumerate(puzzles):
        for encoding in spec.encodings:
            solvers = [s for e, s in runs if e == encoding]
            prepared, failure = prepare_once(board, encoding)
            for solver in solvers:
                rows.append(_row(board, solver, encoding, spec.time_limit_ms, prepared, failure))
                rows[-1].update(
                    alpha=alpha, board=index, seed=spec.seed + index, generate_ms=generate_ms
                )
            del prepared  # the course encoding of order 6 holds 3 million clauses
    return rows


def _row(board: Board, solver, encoding, time_limit_ms, prepared, failure) -> dict:
    if failure is not None:
        return failed_row(board, solver, encoding, failure)
    return measure(board, solver, encoding, time_limit_ms=time_limit_ms, prepared=prepared)


def run_grid(
    spec: GridSpec,
    *,
    cache_dir: str | None = ".cache/studies",
    on_cell: Callable[[int, float, bool], None] | None = None,
) -> pd.DataFrame:
    """The whole grid, one cached unit per cell; a row per (board, encoding, solver).

    The column ``computed_at`` is empty for rows measured by this call and
    holds the time of measurement for rows read from the cache.
    """
    version = code_version(functions=_measuring())
    frames = []
    for order in spec.orders:
        for alpha in spec.alphas:
            parameters = dict(asdict(spec), orders=None, alphas=None, order=order, alpha=alpha)
            rows, computed_at = load_or_compute(
                "grid", parameters, functools.partial(run_cell, spec, order, alpha),
                cache_dir=cache_dir,
                version=version,
            )
            frame = pd.DataFrame(rows)
            frame["computed_at"] = computed_at or ""
            frames.append(frame)
            if on_cell is not None:
                on_cell(order, alpha, computed_at is not None)
    return pd.concat(frames, ignore_index=True)


def _measuring():
    """The functions whose source decides the grid's rows (see :func:`code_version`)."""
    return (GridSpec, run_cell, _row, run_large)


# ---------------------------------------------------------------------------------------
# the summary: one line per (order, alpha, encoding, solver)


def summarise(table: pd.DataFrame, time_limit_ms: float) -> pd.DataFrame:
    """Boards, decided, time-outs and medians per (order, alpha, encoding, solver).

    Time-outs enter the median solve time as T (``solve_ms`` capped at T);
    ``censored`` marks a median that is T, i.e. a lower bound.

    Returns
    -------
    pandas.DataFrame
        Columns order, alpha, encoding, solver, boards, solved, timeouts,
        errors, median_ms, max_ms, censored, median_conflicts,
        median_decisions, clauses, variables, encode_ms.
    """
    frame = table.copy()
    timed_out = frame["status"] == Verdict.TIMEOUT
    frame["capped_ms"] = frame["solve_ms"].astype(float).clip(upper=time_limit_ms)
    frame.loc[timed_out, "capped_ms"] = time_limit_ms
    frame["solved_flag"] = frame["status"].isin(SOLVED)
    frame["timeout_flag"] = timed_out
    frame["error_flag"] = frame["status"] == Verdict.ERROR
    keys = ["order", "alpha", "encoding", "solver"]
    grouped = frame.groupby(keys, sort=False)
    summary = pd.DataFrame(
        {
            "boards": grouped.size(),
            "solved": grouped["solved_flag"].sum().astype(int),
            "timeouts": grouped["timeout_flag"].sum().astype(int),
            "errors": grouped["error_flag"].sum().astype(int),
            "median_ms": grouped["capped_ms"].median(),
            "median_solved_ms": frame[frame["solved_flag"]].groupby(keys)["solve_ms"].median(),
            "max_ms": grouped["capped_ms"].max(),
            "median_conflicts": grouped["conflicts"].median(),
            "median_decisions": grouped["decisions"].median(),
            "clauses": grouped["clauses"].median(),
            "variables": grouped["variables"].median(),
            "encode_ms": grouped["encode_ms"].median(),
        }
    ).reset_index()
    summary["censored"] = summary["timeouts"] * 2 >= summary["boards"]
    return summary


def percent(alpha: float) -> str:
    """Alpha as a percentage: ``0.4`` -> ``'40 %'``."""
    value = round(alpha * 100, 1)
    return f"{value:g} %"


def milliseconds(value: float, time_limit_ms: float | None = None) -> str:
    """A time for prose and tables: whole ms, three significant figures below 10."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if time_limit_ms is not None and value >= time_limit_ms:
        return f">= {time_limit_ms:,.0f}"
    if value < 10:
        return f"{value:.2g}"
    return f"{value:,.0f}"


def grid_table(summary: pd.DataFrame, time_limit_ms: float) -> pd.DataFrame:
    """The page's main table: median solve ms and time-outs per cell, a column per run.

    Rows (N, alpha as a percentage); columns ``<encoding> / <solver>``, each a
    string ``median ms`` followed by ``(k of B timed out)`` when any did.
    """
    def cell(row) -> str:
        text = milliseconds(row["median_ms"], time_limit_ms)
        if row["timeouts"]:
            text += f" ({row['timeouts']}/{row['boards']} TO)"
        if row["errors"]:
            text += f" ({row['errors']}/{row['boards']} refused)"
        return text

    shown = summary.assign(
        run=summary["encoding"] + " / " + summary["solver"],
        value=summary.apply(cell, axis=1),
        fill=summary["alpha"].map(percent),
    )
    wide = shown.pivot(index=["order", "fill"], columns="run", values="value")
    order = list(dict.fromkeys(shown["run"]))
    wide = wide[order]
    wide.index.names = ["N", "given"]
    wide.columns.name = None
    return wide


def size_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Median clauses per (N, alpha as a percentage) and encoding, as integers."""
    sizes = summary.drop_duplicates(["order", "alpha", "encoding"])
    wide = sizes.pivot(index=["order", "alpha"], columns="encoding", values="clauses")
    wide.index = pd.MultiIndex.from_tuples(
        [(n, percent(a)) for n, a in wide.index], names=["N", "given"]
    )
    wide.columns.name = None
    return wide.round().astype("Int64")


# ---------------------------------------------------------------------------------------
# conclusions: functions of the summary that return the sentences of the page


def peaks(summary: pd.DataFrame, solver: str) -> pd.DataFrame:
    """The hardest fill per (encoding, order) for `solver`.

    Hardest = largest median solve time; ties (medians censored at T) are
    broken by more time-outs, then more median conflicts.

    Returns
    -------
    pandas.DataFrame
        Index (encoding, order); columns alpha, median_ms, timeouts, boards, censored.
    """
    rows = summary[summary["solver"] == solver].copy()
    rows["_conflicts"] = rows["median_conflicts"].fillna(-1)
    rows = rows.sort_values(
        ["encoding", "order", "median_ms", "timeouts", "_conflicts"],
        ascending=[True, True, False, False, False],
        kind="stable",
    )
    worst = rows.groupby(["encoding", "order"], sort=False).head(1)
    columns = ["encoding", "order", "alpha", "median_ms", "timeouts", "boards", "censored"]
    return worst[columns].set_index(["encoding", "order"]).sort_index()


def peak_sentences(summary: pd.DataFrame, solver: str, time_limit_ms: float) -> list[str]:
    """One sentence per encoding: where the hardest fill lies at each order."""
    table = peaks(summary, solver)
    sentences = []
    for encoding in dict.fromkeys(summary["encoding"]):
        if encoding not in table.index.get_level_values(0):
            continue
        parts = []
        for order, row in table.loc[encoding].iterrows():
            where = percent(row["alpha"])
            if row["censored"]:
                where += f" (median >= T, {row['timeouts']} of {row['boards']} timed out)"
            else:
                where += f" (median {milliseconds(row['median_ms'])} ms)"
            parts.append(f"N = {order}: {where}")
        sentences.append(f"With the {encoding} encoding, {solver} found the hardest fill at "
                         + "; ".join(parts) + ".")
    return sentences


@dataclass(frozen=True)
class Fit:
    """A straight line through log10(y) against log10(N): y grows like N**exponent."""

    encoding: str
    measure: str
    exponent: float
    low: float
    high: float
    intercept: float
    r_squared: float
    points: int
    censored: bool

    def predict(self, order: float) -> float:
        """The fitted y at order N."""
        return 10 ** (self.intercept + self.exponent * math.log10(order))


def fit_growth(
    summary: pd.DataFrame, solver: str, measure: str, time_limit_ms: float
) -> list[Fit]:
    """Fit ``log10(y) = a + k log10(N)`` per encoding with ``scipy.stats.linregress``.

    y is, per order, the median of `measure` over every cell of that order
    (``median_ms``, ``median_conflicts`` or ``clauses``). Counts get +1 first so
    that a zero (a board decided by propagation alone) has a logarithm. The
    95 % interval of k uses Student's t with points - 2 degrees of freedom.
    ``censored`` says some cell's median was T: the time exponent is then a
    lower bound.
    """
    from scipy import stats

    fits = []
    rows = summary[summary["solver"] == solver]
    for encoding, part in rows.groupby("encoding", sort=False):
        per_order = part.groupby("order")[measure].median().dropna()
        if len(per_order) < 3:
            continue
        values = per_order.to_numpy(dtype=float) + (0.0 if measure == "median_ms" else 1.0)
        x = [math.log10(n) for n in per_order.index]
        y = [math.log10(max(v, 1e-3)) for v in values]
        result = stats.linregress(x, y)
        spread = stats.t.ppf(0.975, len(x) - 2) * result.stderr
        censored = measure == "median_ms" and bool(part["censored"].any())
        fits.append(
            Fit(
                encoding,
                measure,
                float(result.slope),
                float(result.slope - spread),
                float(result.slope + spread),
                float(result.intercept),
                float(result.rvalue**2),
                len(x),
                censored,
            )
        )
    return fits


_MEASURE_WORDS = {
    "clauses": "the clauses",
    "median_ms": "the median solve time",
    "median_conflicts": "the median conflicts",
}


def growth_sentences(fits: Sequence[Fit], solver: str) -> list[str]:
    """One sentence per fit: 'grows like N^k (95 % CI a to b, R² = r)'."""
    if not fits:
        return ["The grid has fewer than three orders: no growth is fitted."]
    sentences = []
    for fit in fits:
        what = _MEASURE_WORDS.get(fit.measure, fit.measure)
        who = "" if fit.measure == "clauses" else f" of {solver}"
        bound = " (a lower bound: some medians are time-outs counted as T)" if fit.censored else ""
        verb = "grow" if fit.measure == "clauses" else "grows"
        sentences.append(
            f"With the {fit.encoding} encoding, {what}{who} {verb} like N^{fit.exponent:.1f} "
            f"(95 % CI {fit.low:.1f} to {fit.high:.1f}, R² = {fit.r_squared:.2f}, "
            f"{fit.points} orders){bound}."
        )
    return sentences


def course_clauses(order: int) -> int:
    """Clauses of the course encoding of an empty board: N**4 + 2 (N**8 - N**6) (SPEC §3)."""
    return order**4 + 2 * (order**8 - order**6)


def closed_form_sentence(orders: Sequence[int], fits: Sequence[Fit]) -> str:
    """The course encoding's exponent from its closed form over `orders`, beside the fit."""
    from scipy import stats

    x = [math.log10(n) for n in orders]
    y = [math.log10(course_clauses(n)) for n in orders]
    theory = stats.linregress(x, y).slope
    measured = [f for f in fits if f.encoding == "course" and f.measure == "clauses"]
    text = (
        f"The closed form N⁴ + 2(N⁸ − N⁶) of the course encoding, fitted the same way over "
        f"N = {', '.join(str(n) for n in orders)}, gives an exponent of {theory:.2f}"
    )
    if measured:
        text += f"; the measured clause counts give {measured[0].exponent:.2f}"
    return text + " (the leading term alone would give 8)."


def unusable_order(
    summary: pd.DataFrame, encoding: str, solver: str
) -> tuple[int | None, pd.DataFrame]:
    """The smallest order at which some cell of `encoding` + `solver` mostly timed out.

    Returns
    -------
    (order or None, the cells of that order that mostly timed out)
    """
    rows = summary[(summary["encoding"] == encoding) & (summary["solver"] == solver)]
    failing = rows[rows["censored"]]
    if failing.empty:
        return None, failing
    order = int(failing["order"].min())
    return order, failing[failing["order"] == order]


def usability_sentence(summary: pd.DataFrame, encoding: str, solver: str, time_limit_ms) -> str:
    """Where `encoding` stops being usable with `solver` within T, from the time-outs."""
    order, cells = unusable_order(summary, encoding, solver)
    rows = summary[(summary["encoding"] == encoding) & (summary["solver"] == solver)]
    limit = f"T = {time_limit_ms / 1000:g} s"
    if order is None:
        largest = int(rows["order"].max())
        return (
            f"With {solver}, the {encoding} encoding stayed usable up to N = {largest}: "
            f"no cell had half or more of its boards time out within {limit}."
        )
    at = rows[rows["order"] == order]
    fills = ", ".join(percent(a) for a in cells["alpha"])
    text = (
        f"With {solver}, the {encoding} encoding stops being usable at N = {order}: "
        f"within {limit}, half or more of the boards timed out at {fills} given "
        f"({int(at['timeouts'].sum())} of {int(at['boards'].sum())} runs of that order)"
    )
    beyond = rows[rows["order"] > order]
    for later, part in beyond.groupby("order"):
        text += f"; at N = {later}, {int(part['timeouts'].sum())} of {int(part['boards'].sum())}"
    return text + "."


def savings(summary: pd.DataFrame, solver: str, base: str = "course",
            better: str = "optimised") -> pd.DataFrame:
    """Per order: median clauses of both encodings, the share removed, time-outs of each.

    Returns
    -------
    pandas.DataFrame
        Index order; columns ``<base> clauses``, ``<better> clauses``,
        ``removed`` (share of clauses, 0..1), ``<base> timeouts``,
        ``<better> timeouts``, ``runs``.
    """
    rows = summary[summary["solver"] == solver]
    by = rows.groupby(["encoding", "order"])
    clauses = by["clauses"].median()
    timeouts = by["timeouts"].sum()
    runs = by["boards"].sum()
    out = pd.DataFrame(
        {
            f"{base} clauses": clauses.loc[base],
            f"{better} clauses": clauses.loc[better],
            f"{base} timeouts": timeouts.loc[base],
            f"{better} timeouts": timeouts.loc[better],
            "runs": runs.loc[base],
        }
    )
    out["removed"] = 1.0 - out[f"{better} clauses"] / out[f"{base} clauses"]
    return out


def savings_sentences(summary: pd.DataFrame, solver: str, base: str = "course",
                      better: str = "optimised") -> list[str]:
    """What the optimised encoding removes, per order, in clauses and in time-outs."""
    table = savings(summary, solver, base, better)
    parts = [
        f"N = {order}: {row['removed'] * 100:.0f} %" for order, row in table.iterrows()
    ]
    first = (
        f"Over the median board of each order, the {better} encoding removes this share of "
        f"the {base} encoding's clauses: " + "; ".join(parts) + "."
    )
    base_out = int(table[f"{base} timeouts"].sum())
    better_out = int(table[f"{better} timeouts"].sum())
    runs = int(table["runs"].sum())
    second = (
        f"With {solver}, the {base} encoding timed out on {base_out} of {runs} runs of the grid, "
        f"the {better} encoding on {better_out} of the same {runs} boards."
    )
    return [first, second]


def reference_sentence(summary: pd.DataFrame, solver: str, reference: str, time_limit_ms: float,
                       encoding: str = "optimised") -> str:
    """Our solver against the reference on the same formulas: runs decided, cells won."""
    rows = summary[summary["encoding"] == encoding]
    ours = rows[rows["solver"] == solver].set_index(["order", "alpha"])
    theirs = rows[rows["solver"] == reference].set_index(["order", "alpha"])
    common = ours.index.intersection(theirs.index)
    if common.empty:
        return f"{reference} was not run with the {encoding} encoding."
    ours, theirs = ours.loc[common], theirs.loc[common]
    faster = int((ours["median_ms"] < theirs["median_ms"]).sum())
    return (
        f"With the {encoding} encoding, {solver} decided {int(ours['solved'].sum())} and "
        f"{reference} {int(theirs['solved'].sum())} of the same {int(ours['boards'].sum())} "
        f"boards within T = {time_limit_ms / 1000:g} s; {solver}'s median time was the lower "
        f"in {faster} of {len(common)} cells (the reference's includes loading the formula)."
    )


def cell_sentence(summary: pd.DataFrame, order: int, alpha: float, time_limit_ms: float,
                  solver: str = "cdcl", base: str = "course", better: str = "optimised") -> str:
    """The named cell in words: each run's decided boards and time-outs, then the verdict
    (`solver` with the two encodings: the same boards, the same solver, the same T)."""
    cell = summary[(summary["order"] == order) & (summary["alpha"].round(6) == round(alpha, 6))]
    if cell.empty:
        return f"The grid has no cell N = {order}, {percent(alpha)} given."
    parts = []
    for _, row in cell.iterrows():
        text = f"{row['encoding']} with {row['solver']}: {row['solved']} of {row['boards']} solved"
        if row["timeouts"]:
            text += f", {row['timeouts']} timed out"
        if row["solved"]:
            text += f" (median of the solved {milliseconds(row['median_solved_ms'])} ms)"
        parts.append(text)
    head = (
        f"At N = {order} with {percent(alpha)} given, T = {time_limit_ms / 1000:g} s: "
        + "; ".join(parts) + "."
    )
    mine = cell[cell["solver"] == solver]
    base_solved = int(mine.loc[mine["encoding"] == base, "solved"].sum())
    better_solved = int(mine.loc[mine["encoding"] == better, "solved"].sum())
    base_runs = int(mine.loc[mine["encoding"] == base, "boards"].sum())
    better_runs = int(mine.loc[mine["encoding"] == better, "boards"].sum())
    if better_solved > base_solved:
        verdict = (
            f" Same boards, same solver ({solver}), same T: with the {better} encoding it "
            f"decided {better_solved} of {better_runs} boards, with the {base} encoding "
            f"{base_solved} of {base_runs}: here the encoding decides whether the board is "
            f"solved at all."
        )
    elif better_solved == base_solved:
        verdict = (
            f" With {solver}, both encodings decided {base_solved} of {base_runs} boards: in "
            f"this cell the encoding made no difference within T."
        )
    else:
        verdict = (
            f" With {solver}, the {base} encoding decided more boards ({base_solved}) than the "
            f"{better} encoding ({better_solved})."
        )
    return head + verdict


# ---------------------------------------------------------------------------------------
# larger orders


def run_large(
    orders: Sequence[int],
    alphas: Sequence[float],
    *,
    seed: int = 7,
    time_limit_ms: float = 5000.0,
    solver: str = "cdcl",
    encoding: str = "optimised",
    cache_dir: str | None = ".cache/studies",
) -> pd.DataFrame:
    """Orders beyond the grid: for each order, alphas from the first down, stopping at the
    first time-out (the fill where `solver` stops deciding within T). One board per step."""
    version = code_version(functions=_measuring())
    rows = []
    for order in orders:
        for alpha in alphas:
            parameters = dict(order=order, alpha=alpha, seed=seed, T=time_limit_ms,
                              solver=solver, encoding=encoding)

            def compute(order=order, alpha=alpha) -> list[dict]:
                board = generate_many(order, alpha, 1, seed=seed)[0]
                row = measure(board, solver, encoding, time_limit_ms=time_limit_ms)
                row.update(alpha=alpha, board=0, seed=seed)
                return [row]

            cell, _ = load_or_compute("large", parameters, compute, cache_dir=cache_dir,
                                      version=version)
            rows.extend(cell)
            if cell[0]["status"] not in SOLVED:
                break
    return pd.DataFrame(rows)


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


def _stop_word(status: str) -> str:
    return "timed out" if status == Verdict.TIMEOUT else "failed (" + status + ")"


# ---------------------------------------------------------------------------------------
# plots


def plot_cells(summary: pd.DataFrame, solver: str, time_limit_ms: float,
               measure: str = "median_ms"):
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
    axes[0][0].set_ylabel(_MEASURE_WORDS.get(measure, measure).replace("the ", "")
                          + (" (ms)" if measure == "median_ms" else ""))
    axes[0][-1].legend(fontsize="small")
    figure.suptitle(f"{solver}: {_MEASURE_WORDS.get(measure, measure)} per cell "
                    "(symlog axis: zero is shown at 0)")
    figure.tight_layout()
    return figure


def plot_growth(summary: pd.DataFrame, fits: Sequence[Fit], solver: str):
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
        label = _MEASURE_WORDS.get(quantity, quantity).replace("the ", "")
        axis.set_ylabel(label + (" (ms)" if quantity == "median_ms" else
                                 "" if quantity == "clauses" else " + 1"))
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize="x-small")
    figure.suptitle("growth with N, fitted on log-log scales (scipy.stats.linregress)")
    figure.tight_layout()
    return figure
