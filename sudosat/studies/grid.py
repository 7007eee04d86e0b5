"""The report's N x alpha study: the grid, its summary and what the summary shows.

The generalised-Sudoku assignment asks for boards of order N in {3, 4, 5, 6}
with a fraction alpha in {0, 0.2, 0.4, 0.6} of the cells given, solved, and
conclusions on computational complexity. This module runs that grid (every
cell, several boards, several encodings, our solver and a reference, one
conflict budget for every solver call), caches it (:mod:`sudosat.studies.cache`),
summarises it and computes what the conclusions rest on (the hardest fills,
growth fits, where an encoding stops being usable, what the optimised encoding
saves). The page's figures and its sentences that branch are
:mod:`sudosat.report.scaling_page`'s; its fixed sentences are the scaling
notebook's.

The boards of cell (N, alpha) are ``sudosat generate --order N --alpha alpha
--count B --seed S``: the same seeds in every cell, so a board of one cell is
the same hidden solution as the board of the same seed in the cells of the
same order, with fewer or more of its cells shown. With no givens (alpha 0)
every seed gives the same empty board: :func:`distinct_boards` counts the
different boards of each cell, and the page says so.

**The limit is counted work**: a budget of conflicts (:attr:`GridSpec.max_conflicts`),
which our cdcl and PySAT's CaDiCaL both honour, stops the same search after the
same conflicts on every machine and at every load, so which boards are decided,
and every conclusion drawn from that, is the same on a quiet and on a busy
machine. A CPU-time limit stays behind it on our solver as a safety net against
a runaway (:attr:`GridSpec.time_limit_ms`), far above what the budget takes:
CPU time is not load-invariant (the same search took 1.7 s of CPU on a quiet
machine and 5.1 to 5.5 s on a busy one), so a run it stopped would have been
stopped by the machine, and the page says so when one was (``stop`` ``time``).
The reference runs under the budget alone (:func:`~sudosat.studies.scaling.clock_changes_search`).

**Undecided runs** (stopped by the budget, or by the cap) are counted per cell
(``unfinished``). Times are measurements, CPU time of the solver call: an
undecided run enters a median with the time it took to use up its budget, a
lower bound of what deciding would take; a cell where half or more of the runs
are undecided has a median that is a lower bound (``censored``), printed ``>=``.
No conclusion rests on a time alone.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import pandas as pd

from sudosat.run.generate import generate_many
from sudosat.run.results import DECIDED, Verdict
from sudosat.studies.cache import Limit, code_version, load_or_compute
from sudosat.studies.scaling import cell_rows, measure, study_limits

UNDECIDED = (str(Verdict.UNKNOWN), str(Verdict.TIMEOUT))
"""The statuses of a run a limit stopped: UNKNOWN (the conflict budget) and TIMEOUT (the CPU
cap)."""

DEFAULT_MAX_CONFLICTS = 20_000
"""The grid's conflict budget per solver call.

Chosen by measurement on the default grid (conflicts, unlike times, are the same on every
machine): every board that a 5 s limit decided on a quiet machine needs at most 16,207
conflicts (the course encoding at N = 5, 40 % given); with the optimised encoding cdcl
needs at most 8,430 and CaDiCaL 13,695 in one call, the extended encoding at most 7,038.
20,000 decides all of those, and leaves undecided only the course encoding's hardest
boards at N = 6 (23,638 conflicts at 20 % given, more than 70,000 on each board at 40 %),
so the grid still shows where that encoding stops being usable."""

DEFAULT_CPU_CAP_MS = 600_000.0
"""The CPU-time safety net behind the budget, in ms. The costliest call of the scaling page
(20,000 conflicts on an order-8 board at 60 % given, in its larger orders) took 53 s of CPU
on a busy machine, where the grid's costliest (the course encoding at N = 6) took 21 s and
the same searches took about a third of that on a quiet machine; ten minutes stops none of
them however busy the machine, and still ends a runaway."""


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
    max_conflicts : int
        The conflict budget of every solver call: the limit the conclusions rest on.
    time_limit_ms : float or None
        The CPU-time cap of our solver's calls, in ms: a safety net set far above what
        the budget takes, never the limit a conclusion rests on.
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
    max_conflicts: int = DEFAULT_MAX_CONFLICTS
    time_limit_ms: float | None = DEFAULT_CPU_CAP_MS
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
        """A shrunken grid for ``make report QUICK=1``: orders up to 4, the same limits."""
        return dataclasses.replace(self, orders=tuple(n for n in self.orders if n <= 4) or (3,))

    def limits(self) -> tuple[Limit, ...]:
        """What bounds the grid's runs, as the cache records it: the budget, then the cap."""
        return study_limits(self.time_limit_ms, max_conflicts=self.max_conflicts)


def run_cell(spec: GridSpec, order: int, alpha: float) -> list[dict]:
    """Every row of one cell: each board, encoded once per encoding, solved by each solver
    (:func:`sudosat.studies.scaling.cell_rows`, the same seeds in every cell)."""
    runs = spec.runs()
    solvers = [(e, [s for encoding, s in runs if encoding == e]) for e in spec.encodings]
    return list(cell_rows(order, alpha, spec.boards, spec.seed, solvers,
                          time_limit_ms=spec.time_limit_ms, max_conflicts=spec.max_conflicts))


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
                limit=spec.limits(),
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
    return (GridSpec, run_cell, run_large)


# ---------------------------------------------------------------------------------------
# the summary: one line per (order, alpha, encoding, solver)


def summarise(table: pd.DataFrame) -> pd.DataFrame:
    """Boards, decided, undecided and medians per (order, alpha, encoding, solver).

    Every time is the solver call's CPU time (``solve_cpu_ms``), as measured:
    an undecided run (:data:`UNDECIDED`) enters the median with the time it
    took to be stopped, a lower bound of what deciding would take, and its
    conflicts with those it had made, at most the budget. ``censored`` marks a
    cell where half or more of the runs are undecided: its medians are lower
    bounds.

    Returns
    -------
    pandas.DataFrame
        Columns order, alpha, encoding, solver, boards, solved, unfinished (runs
        a limit stopped), capped (of those, runs the CPU cap stopped), errors,
        median_cpu_ms, median_solved_cpu_ms, max_cpu_ms, censored,
        median_conflicts, median_decisions, clauses, variables, encode_cpu_ms.
    """
    frame = table.copy()
    frame["solved_flag"] = frame["status"].isin(DECIDED)
    frame["unfinished_flag"] = frame["status"].isin(UNDECIDED)
    frame["capped_flag"] = frame["status"] == Verdict.TIMEOUT
    frame["error_flag"] = frame["status"] == Verdict.ERROR
    frame["cpu_ms"] = frame["solve_cpu_ms"].astype(float).where(~frame["error_flag"])
    keys = ["order", "alpha", "encoding", "solver"]
    grouped = frame.groupby(keys, sort=False)
    solved = frame[frame["solved_flag"]]
    summary = pd.DataFrame(
        {
            "boards": grouped.size(),
            "solved": grouped["solved_flag"].sum().astype(int),
            "unfinished": grouped["unfinished_flag"].sum().astype(int),
            "capped": grouped["capped_flag"].sum().astype(int),
            "errors": grouped["error_flag"].sum().astype(int),
            "median_cpu_ms": grouped["cpu_ms"].median(),
            "median_solved_cpu_ms": solved.groupby(keys)["solve_cpu_ms"].median(),
            "max_cpu_ms": grouped["cpu_ms"].max(),
            "median_conflicts": grouped["conflicts"].median(),
            "median_decisions": grouped["decisions"].median(),
            "clauses": grouped["clauses"].median(),
            "variables": grouped["variables"].median(),
            "encode_cpu_ms": grouped["encode_cpu_ms"].median(),
        }
    ).reset_index()
    summary["censored"] = summary["unfinished"] * 2 >= summary["boards"]
    return summary


def percent(alpha: float) -> str:
    """Alpha as a percentage: ``0.4`` -> ``'40 %'``."""
    value = round(alpha * 100, 1)
    return f"{value:g} %"


def milliseconds(value: float | None, lower_bound: bool = False) -> str:
    """A time for prose and tables: whole ms, two significant figures below 10; ``>=`` before a
    lower bound; a dash for a missing time (None or NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    text = f"{value:.2g}" if value < 10 else f"{value:,.0f}"
    return f">= {text}" if lower_bound else text


def grid_table(summary: pd.DataFrame, distinct: pd.DataFrame | None = None) -> pd.DataFrame:
    """The page's main table: median solve CPU ms and undecided runs per cell, a column per run.

    Rows (N, alpha as a percentage); columns ``<encoding> / <solver>``, each a
    string ``median ms`` (``>= median`` where half or more of the runs are
    undecided: a lower bound) followed by ``(k/B undecided)`` when any was,
    ``k by the CPU cap`` among them when the cap stopped some. With `distinct`
    (from :func:`distinct_boards`), a first column ``distinct boards`` says how
    many different boards the cell's runs were made on.
    """
    def cell(row) -> str:
        text = milliseconds(row["median_cpu_ms"], bool(row["censored"]))
        if row["unfinished"]:
            capped = f", {row['capped']} by the CPU cap" if row["capped"] else ""
            text += f" ({row['unfinished']}/{row['boards']} undecided{capped})"
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
    fill is the cell with the most median conflicts. A cell whose median run
    is undecided (``censored``) is harder than every decided cell, but its
    conflicts stopped counting at the budget: when an order has such cells, the
    hardest are those with the most undecided runs, and conflicts do not rank
    them (``by`` is then ``"unfinished"``). Cells equal on the deciding measure
    are tied, and all of them are returned. Without conflict counts (all
    missing) the median time decides (``by == "time"``).

    Returns
    -------
    pandas.DataFrame
        Index (encoding, order); columns ``alphas`` (the tied fills, ascending),
        ``by`` (``"unfinished"``, ``"conflicts"`` or ``"time"``),
        ``median_conflicts`` and ``median_cpu_ms`` (one per tied fill),
        ``unfinished`` and ``boards`` (of the first tied fill).
    """
    rows = summary[summary["solver"] == solver]
    out = []
    for (encoding, order), part in rows.groupby(["encoding", "order"], sort=True):
        part = part.sort_values("alpha")
        censored = part[part["censored"]]
        if not censored.empty:
            most = censored["unfinished"].max()
            by, hardest = "unfinished", censored[censored["unfinished"] == most]
        elif part["median_conflicts"].notna().any():
            most = part["median_conflicts"].max()
            by, hardest = "conflicts", part[part["median_conflicts"] == most]
        else:
            by, hardest = "time", part[part["median_cpu_ms"] == part["median_cpu_ms"].max()]
        out.append(
            {
                "encoding": encoding,
                "order": order,
                "alphas": tuple(float(a) for a in hardest["alpha"]),
                "by": by,
                "median_conflicts": tuple(float(c) for c in hardest["median_conflicts"]),
                "median_cpu_ms": tuple(float(m) for m in hardest["median_cpu_ms"]),
                "unfinished": int(hardest["unfinished"].iloc[0]),
                "boards": int(hardest["boards"].iloc[0]),
            }
        )
    columns = ["encoding", "order", "alphas", "by", "median_conflicts", "median_cpu_ms",
               "unfinished", "boards"]
    return pd.DataFrame(out, columns=columns).set_index(["encoding", "order"])


@dataclass(frozen=True)
class Fit:
    """A straight line through log10(y) against log10(N): y grows like N**exponent.

    ``censored`` says some y are lower bounds because of undecided runs, at the
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


def fit_growth(summary: pd.DataFrame, solver: str, measure: str) -> list[Fit]:
    """Fit ``log10(y) = a + k log10(N)`` per encoding with ``scipy.stats.linregress``.

    y is, per order, the median of `measure` over every cell of that order
    (``median_cpu_ms``, ``median_conflicts`` or ``clauses``). Counts get +1 first so
    that a zero (a board decided by propagation alone) has a logarithm. The
    95 % interval of k uses Student's t with points - 2 degrees of freedom.

    Undecided runs make some y lower bounds: for ``median_cpu_ms`` the orders
    with a cell whose median run was undecided (one below the median does not
    move it); for ``median_conflicts`` the orders with any undecided run (its
    conflicts stopped counting at the budget, and may move the median). Those
    orders are the fit's ``affected``; the exponent is a lower bound when they
    all lie at or above the mean log N (``lower_bound``). Clause counts have
    none.
    """
    from scipy import stats

    fits = []
    rows = summary[summary["solver"] == solver]
    for encoding, part in rows.groupby("encoding", sort=False):
        per_order = part.groupby("order")[measure].median().dropna()
        if len(per_order) < 3:
            continue
        shift = 0.0 if measure == "median_cpu_ms" else 1.0
        values = per_order.to_numpy(dtype=float) + shift
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
    """The orders whose y in a growth fit of `measure` is a lower bound through undecided runs."""
    if measure == "median_cpu_ms":
        hit = part[part["censored"]]
    elif measure == "median_conflicts":
        hit = part[part["unfinished"] > 0]
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
    """The smallest order at which half or more of the runs of some cell of `encoding` +
    `solver` were undecided (``censored``).

    Returns
    -------
    (order or None, the cells of that order where half or more were undecided)
    """
    rows = summary[(summary["encoding"] == encoding) & (summary["solver"] == solver)]
    failing = rows[rows["censored"]]
    if failing.empty:
        return None, failing
    order = int(failing["order"].min())
    return order, failing[failing["order"] == order]


def savings(summary: pd.DataFrame, solver: str, base: str = "course",
            better: str = "optimised") -> pd.DataFrame:
    """Per order: clauses of both encodings, the share removed, undecided runs of each.

    The clauses of an order are the median over its cells (one per fill) of
    each cell's median clause count: with an even number of fills, the mean of
    the middle two, which need not be a whole number.

    Returns
    -------
    pandas.DataFrame
        Index order; columns ``<base> clauses``, ``<better> clauses``,
        ``removed`` (share of clauses, 0..1), ``<base> unfinished``,
        ``<better> unfinished``, ``runs`` (runs of each encoding at that order).
    """
    rows = summary[summary["solver"] == solver]
    by = rows.groupby(["encoding", "order"])
    clauses = by["clauses"].median()
    unfinished = by["unfinished"].sum()
    runs = by["boards"].sum()
    out = pd.DataFrame(
        {
            f"{base} clauses": clauses.loc[base],
            f"{better} clauses": clauses.loc[better],
            f"{base} unfinished": unfinished.loc[base],
            f"{better} unfinished": unfinished.loc[better],
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
        ``<base> undecided``, ``<better> undecided``, ``runs per encoding``.
    """
    table = savings(summary, solver, base, better)

    def whole(values: pd.Series) -> pd.Series:  # halves round up, as a reader rounds them
        return (values + 0.5).apply(math.floor).astype("Int64")

    out = pd.DataFrame(
        {
            f"{base} clauses": whole(table[f"{base} clauses"]),
            f"{better} clauses": whole(table[f"{better} clauses"]),
            "removed": table["removed"].map(lambda share: f"{share * 100:.0f} %"),
            f"{base} undecided": table[f"{base} unfinished"].astype(int),
            f"{better} undecided": table[f"{better} unfinished"].astype(int),
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
    max_conflicts: int = DEFAULT_MAX_CONFLICTS,
    time_limit_ms: float | None = DEFAULT_CPU_CAP_MS,
    solver: str = "cdcl",
    encoding: str = "optimised",
    cache_dir: str | None = ".cache/studies",
) -> pd.DataFrame:
    """Orders beyond the grid: for each order, alphas from the first down, stopping at the
    first board `solver` does not decide within the budget (or the cap). One board per step."""
    version = code_version(functions=_measuring())
    limits = study_limits(time_limit_ms, max_conflicts=max_conflicts)
    rows = []
    for order in orders:
        for alpha in alphas:
            parameters = dict(order=order, alpha=alpha, seed=seed, solver=solver,
                              encoding=encoding)

            def compute(order=order, alpha=alpha) -> list[dict]:
                board = generate_many(order, alpha, 1, seed=seed)[0]
                row = measure(board, solver, encoding, time_limit_ms=time_limit_ms,
                              max_conflicts=max_conflicts)
                row.update(alpha=alpha, board=0, seed=seed)
                return [row]

            cell, _ = load_or_compute("large", parameters, compute, limit=limits,
                                      cache_dir=cache_dir, version=version)
            rows.extend(cell)
            if cell[0]["status"] not in DECIDED:
                break
    return pd.DataFrame(rows)
