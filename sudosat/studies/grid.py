"""The report's N x alpha study: the grid, its summary and what the summary shows.

The generalised-Sudoku assignment asks for boards of order N in {3, 4, 5, 6}
with a fraction alpha in {0, 0.2, 0.4, 0.6} of the cells given, solved, and
conclusions on computational complexity. This module runs that grid (every
cell, several boards, several encodings, our solver and a reference, one
time limit T), caches it (:mod:`sudosat.studies.cache`), summarises it and
computes what the conclusions rest on (the hardest fills, growth fits, where
an encoding stops being usable, what the optimised encoding saves). The page's
facts and figures are :mod:`sudosat.report.scaling_page`'s; its sentences are
the scaling notebook's.

The boards of cell (N, alpha) are ``sudosat generate --order N --alpha alpha
--count B --seed S``: the same seeds in every cell, so a board of one cell is
the same hidden solution as the board of the same seed in the cells of the
same order, with fewer or more of its cells shown. With no givens (alpha 0)
every seed gives the same empty board: :func:`distinct_boards` counts the
different boards of each cell, and the page says so.

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

from sudosat.run.generate import generate_many
from sudosat.run.results import Verdict
from sudosat.studies.cache import code_version, load_or_compute
from sudosat.studies.scaling import failed_row, measure, prepare_once
from sudosat.sudoku.board import Board

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


def grid_table(
    summary: pd.DataFrame, time_limit_ms: float, distinct: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The page's main table: median solve ms and time-outs per cell, a column per run.

    Rows (N, alpha as a percentage); columns ``<encoding> / <solver>``, each a
    string ``median ms`` followed by ``(k/B TO)`` when any timed out. With
    `distinct` (from :func:`distinct_boards`), a first column ``distinct boards``
    says how many different boards the cell's runs were made on.
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
    if distinct is not None:
        counts = {(n, percent(a)): d for (n, a), d in distinct["distinct"].items()}
        wide.insert(0, "distinct boards",
                    [counts.get(key, pd.NA) for key in wide.index])
        wide["distinct boards"] = wide["distinct boards"].astype("Int64")
    return wide


def distinct_boards(spec: GridSpec) -> pd.DataFrame:
    """How many different boards each cell's seeds give (regenerated; no solver runs).

    With no givens (alpha 0) every seed gives the same empty board, so such a
    cell's `spec.boards` runs are one board run several times.

    Returns
    -------
    pandas.DataFrame
        Index (order, alpha); columns ``boards`` (seeds), ``distinct`` and
        ``givens`` (the givens of the cell's first board).
    """
    rows = []
    for order in spec.orders:
        for alpha in spec.alphas:
            puzzles = generate_many(order, alpha, spec.boards, seed=spec.seed)
            rows.append({"order": order, "alpha": alpha, "boards": len(puzzles),
                         "distinct": len(set(puzzles)), "givens": puzzles[0].num_givens})
    return pd.DataFrame(rows).set_index(["order", "alpha"])


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
# conclusions: what the summary shows, for the page to state


def peaks(summary: pd.DataFrame, solver: str) -> pd.DataFrame:
    """The hardest fill per (encoding, order) for `solver`, by median conflicts.

    Conflicts measure the search whatever the machine's speed, so the hardest
    fill is the cell with the most median conflicts. A cell whose median is a
    time-out (``censored``) is harder than every decided cell, but its conflicts
    stopped counting at T: when an order has such cells, the hardest are those
    with the most time-outs, and conflicts do not rank them (``by`` is then
    ``"timeouts"``). Cells equal on the deciding measure are tied, and all of
    them are returned. Without conflict counts (all missing) the median time
    decides (``by == "time"``).

    Returns
    -------
    pandas.DataFrame
        Index (encoding, order); columns ``alphas`` (the tied fills, ascending),
        ``by`` (``"timeouts"``, ``"conflicts"`` or ``"time"``),
        ``median_conflicts`` and ``median_ms`` (one per tied fill),
        ``timeouts`` and ``boards`` (of the first tied fill).
    """
    rows = summary[summary["solver"] == solver]
    out = []
    for (encoding, order), part in rows.groupby(["encoding", "order"], sort=True):
        part = part.sort_values("alpha")
        censored = part[part["censored"]]
        if not censored.empty:
            by, hardest = "timeouts", censored[censored["timeouts"] == censored["timeouts"].max()]
        elif part["median_conflicts"].notna().any():
            most = part["median_conflicts"].max()
            by, hardest = "conflicts", part[part["median_conflicts"] == most]
        else:
            by, hardest = "time", part[part["median_ms"] == part["median_ms"].max()]
        out.append(
            {
                "encoding": encoding,
                "order": order,
                "alphas": tuple(float(a) for a in hardest["alpha"]),
                "by": by,
                "median_conflicts": tuple(float(c) for c in hardest["median_conflicts"]),
                "median_ms": tuple(float(m) for m in hardest["median_ms"]),
                "timeouts": int(hardest["timeouts"].iloc[0]),
                "boards": int(hardest["boards"].iloc[0]),
            }
        )
    columns = ["encoding", "order", "alphas", "by", "median_conflicts", "median_ms", "timeouts",
               "boards"]
    return pd.DataFrame(out, columns=columns).set_index(["encoding", "order"])


@dataclass(frozen=True)
class Fit:
    """A straight line through log10(y) against log10(N): y grows like N**exponent.

    ``censored`` says some y are lower bounds because of time-outs, at the
    orders ``affected``; ``lower_bound`` says the exponent is then a lower bound
    too (every affected order lies at or above the mean log N of the fit, where
    raising y can only steepen the line).
    """

    encoding: str
    measure: str
    exponent: float
    low: float
    high: float
    intercept: float
    r_squared: float
    points: int
    censored: bool
    affected: tuple[int, ...] = ()
    lower_bound: bool = False

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

    Time-outs make some y lower bounds: for ``median_ms`` the orders with a
    cell whose median was T (a time-out below the median does not move it); for
    ``median_conflicts`` the orders with any time-out (a time-out's conflicts
    stop counting at T, and may move the median). Those orders are the fit's
    ``affected``; the exponent is a lower bound when they all lie at or above
    the mean log N (``lower_bound``). Clause counts have none.
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
        affected = _affected_orders(part, measure, per_order.index)
        centre = sum(x) / len(x)
        lower_bound = bool(affected) and all(math.log10(n) >= centre for n in affected)
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
                bool(affected),
                affected,
                lower_bound,
            )
        )
    return fits


def _affected_orders(part: pd.DataFrame, measure: str, orders) -> tuple[int, ...]:
    """The orders whose y in a growth fit of `measure` is a lower bound through time-outs."""
    if measure == "median_ms":
        hit = part[part["censored"]]
    elif measure == "median_conflicts":
        hit = part[part["timeouts"] > 0]
    else:
        return ()
    return tuple(int(n) for n in sorted(set(hit["order"]) & set(orders)))


def course_clauses(order: int) -> int:
    """Clauses of the course encoding of an empty board: N**4 + 2 (N**8 - N**6).

    N**4 completeness clauses, and (N**2 choose 2) pairs in each of the 4 N**4
    at-most-one groups (one per cell, one per symbol in each row, column and box).
    """
    return order**4 + 2 * (order**8 - order**6)


def closed_form_exponent(orders: Sequence[int]) -> float:
    """The exponent of :func:`course_clauses` fitted over `orders` as :func:`fit_growth` fits
    (a straight line through log10(clauses) against log10(N))."""
    from scipy import stats

    x = [math.log10(n) for n in orders]
    y = [math.log10(course_clauses(n)) for n in orders]
    return float(stats.linregress(x, y).slope)


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


def savings(summary: pd.DataFrame, solver: str, base: str = "course",
            better: str = "optimised") -> pd.DataFrame:
    """Per order: clauses of both encodings, the share removed, time-outs of each.

    The clauses of an order are the median over its cells (one per fill) of
    each cell's median clause count: with an even number of fills, the mean of
    the middle two, which need not be a whole number.

    Returns
    -------
    pandas.DataFrame
        Index order; columns ``<base> clauses``, ``<better> clauses``,
        ``removed`` (share of clauses, 0..1), ``<base> timeouts``,
        ``<better> timeouts``, ``runs`` (runs of each encoding at that order).
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


def savings_table(summary: pd.DataFrame, solver: str, base: str = "course",
                  better: str = "optimised") -> pd.DataFrame:
    """:func:`savings` for the page: one row per order N, whole clause counts, shares in %.

    Returns
    -------
    pandas.DataFrame
        Index N; columns ``<base> clauses`` and ``<better> clauses`` (rounded to
        whole clauses, halves up; nullable integers), ``removed`` (a string like ``'77 %'``),
        ``<base> time-outs``, ``<better> time-outs``, ``runs per encoding``.
    """
    table = savings(summary, solver, base, better)

    def whole(values: pd.Series) -> pd.Series:  # halves round up, as a reader rounds them
        return (values + 0.5).apply(math.floor).astype("Int64")

    out = pd.DataFrame(
        {
            f"{base} clauses": whole(table[f"{base} clauses"]),
            f"{better} clauses": whole(table[f"{better} clauses"]),
            "removed": table["removed"].map(lambda share: f"{share * 100:.0f} %"),
            f"{base} time-outs": table[f"{base} timeouts"].astype(int),
            f"{better} time-outs": table[f"{better} timeouts"].astype(int),
            "runs per encoding": table["runs"].astype(int),
        }
    )
    out.index.name = "N"
    return out


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
