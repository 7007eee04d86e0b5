"""Tables for readers: the HTML table every page shows, and the results table's summaries.

:func:`table` turns any DataFrame into a plain table (index as columns, one
header row, no ``<NA>``); the summaries count and time the results table per
solver, per instance, per stage and per order. Times are milliseconds.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from sudosat.report.clocks import CPU, WALL, clock_of
from sudosat.report.io import AROUND_CPU, OWN_CPU, solver_order
from sudosat.run.results import DECIDED, Verdict

# -- rich output without IPython -------------------------------------------------------


class HTML:
    """Rich HTML for notebooks without importing IPython here (``_repr_html_``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _repr_html_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


class Markdown:
    """Markdown a notebook renders (``_repr_markdown_``), without importing IPython here."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _repr_markdown_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def bullets(sentences: Iterable[str]) -> Markdown:
    """The sentences as a Markdown bullet list (one ``* `` line each)."""
    return Markdown("\n".join(f"* {sentence}" for sentence in sentences))


# -- the reader's table ----------------------------------------------------------------


def table(frame: pd.DataFrame, decimals: int | Mapping[str, int] = 1) -> HTML:
    """A DataFrame as a reader's table: index as ordinary columns, one header row, no ``<NA>``.

    Row labels (the index, named or not) become the first columns; a default
    0..n index is dropped. Missing values show as an en dash, whole numbers
    with thousands separators and floats with `decimals` places (a mapping
    gives them per column).

    Parameters
    ----------
    frame : DataFrame
    decimals : int or mapping of column -> int

    Returns
    -------
    HTML
        Shown as a table in a notebook; ``str()`` gives the markup.
    """
    flat = _flat(frame)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in flat.columns)
    rows = []
    for values in flat.itertuples(index=False):
        cells = []
        for column, value in zip(flat.columns, values, strict=True):
            places = decimals.get(column, 1) if isinstance(decimals, Mapping) else decimals
            text, numeric = _cell_text(value, places)
            align = ' class="num"' if numeric else ""
            cells.append(f"<td{align}>{html.escape(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return HTML(
        f'{_TABLE_STYLE}<table class="sudosat-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


_TABLE_STYLE = (
    "<style>table.sudosat-table{border-collapse:collapse;margin:0.4em 0 1em 0;font-size:90%}"
    "table.sudosat-table th{border-bottom:2px solid #999;padding:0.25em 0.7em;text-align:left}"
    "table.sudosat-table td{border-bottom:1px solid #ddd;padding:0.2em 0.7em;text-align:left}"
    "table.sudosat-table td.num{text-align:right;font-variant-numeric:tabular-nums}</style>"
)


def _flat(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its index as columns (a plain 0..n index dropped) and one header row."""
    flat = frame.copy()
    if isinstance(flat.columns, pd.MultiIndex):
        flat.columns = [" ".join(str(p) for p in c if str(p)) for c in flat.columns]
    plain = isinstance(flat.index, pd.RangeIndex) and all(n is None for n in flat.index.names)
    return flat.reset_index(drop=plain)


def _cell_text(value: Any, decimals: int) -> tuple[str, bool]:
    """How one table cell reads, and whether it is a number (right-aligned)."""
    if pd.api.types.is_scalar(value) and pd.isna(value):
        return "–", False
    if pd.api.types.is_bool(value):
        return ("yes" if value else "no"), False
    if pd.api.types.is_integer(value):
        return f"{int(value):,}", True
    if pd.api.types.is_float(value):
        return f"{float(value):,.{decimals}f}", True
    return str(value), False


def html_table(frame: pd.DataFrame, decimals: int = 1) -> str:
    """The markup of :func:`table` (for pages written without a notebook, as the index)."""
    return str(table(frame, decimals))


# -- summaries of the results table ----------------------------------------------------


def summary_table(results: pd.DataFrame) -> pd.DataFrame:
    """One row per solver: how many instances it solved, refuted, ran out of time on.

    Parameters
    ----------
    results : DataFrame
        The results table.

    Returns
    -------
    DataFrame
        Index ``solver``; columns instances, solved (SAT, solution checked),
        unsat, timeouts, errors, then over the instances the solver decided
        (SAT or UNSAT) the median total time on the wall clock and on CPU time,
        and the 90th percentile and maximum wall-clock total, in milliseconds.
    """
    rows = []
    for solver in solver_order(results):
        mine = results[results["solver"] == solver]
        decided = mine[mine["status"].isin(DECIDED)]
        wall = decided["total_wall_ms"].dropna()
        rows.append(
            {
                "solver": solver,
                "instances": len(mine),
                "solved": int(((mine["status"] == Verdict.SAT) & mine["valid"]).sum()),
                "unsat": int((mine["status"] == Verdict.UNSAT).sum()),
                "timeouts": int((mine["status"] == Verdict.TIMEOUT).sum()),
                "errors": int((mine["status"] == Verdict.ERROR).sum()),
                "median wall ms": _quantile(wall, 0.5),
                "median CPU ms": _quantile(decided["total_cpu_ms"].dropna(), 0.5),
                "p90 wall ms": _quantile(wall, 0.9),
                "max wall ms": float(wall.max()) if len(wall) else math.nan,
            }
        )
    return pd.DataFrame(rows).set_index("solver")


def _quantile(values: pd.Series, q: float) -> float:
    return float(values.quantile(q)) if len(values) else math.nan


TOTALS = ("total_wall_ms", "total_cpu_ms")
"""The total times of an instance, one per clock, as :func:`times_table` shows them."""


def times_table(results: pd.DataFrame) -> pd.DataFrame:
    """Per-instance times: one row per input line, the total on both clocks for every solver.

    A time is shown for every status; the ``<solver> status`` column says
    whether it is an answer (SAT, UNSAT) or a time-out/error. For a solver
    program whose own CPU time is known (``process_cpu_ms``), the CPU total is
    split too: ``<solver> own CPU ms``, the program's process as the operating
    system counts it, and ``<solver> around CPU ms``, what this process spent
    around it (see :func:`sudosat.report.io.with_own_times`).

    Returns
    -------
    DataFrame
        Index ``line``; columns order, givens, then ``<solver> wall ms``,
        ``<solver> CPU ms`` (and for a program the two parts of the CPU total)
        and ``<solver> status`` for every solver.
    """
    solvers = solver_order(results)
    base = results.drop_duplicates("line").set_index("line")[["order", "givens"]]
    table = base.copy()
    for solver in solvers:
        mine = results[results["solver"] == solver].drop_duplicates("line").set_index("line")
        for column in TOTALS:
            table[f"{solver} {clock_of(column)} ms"] = mine[column].round(1)
        if "process_cpu_ms" in mine and mine["process_cpu_ms"].notna().any():
            table[f"{solver} own CPU ms"] = mine[OWN_CPU].round(1)
            table[f"{solver} around CPU ms"] = mine[AROUND_CPU].round(1)
        table[f"{solver} status"] = mine["status"]
    table = table.sort_index()
    table["order"] = table["order"].astype("Int64")
    table["givens"] = table["givens"].astype("Int64")
    return table


def style_times(table: pd.DataFrame) -> Any:
    """A pandas Styler of :func:`times_table` output: times formatted, non-answers highlighted."""
    time_columns = [c for c in table.columns if c.endswith(" ms")]
    status_columns = [c for c in table.columns if c.endswith(" status")]

    def colour(value: Any) -> str:
        return {
            Verdict.UNSAT.value: "background:#eef",
            Verdict.TIMEOUT.value: "background:#fed",
            Verdict.ERROR.value: "background:#fcc",
        }.get(str(value), "")

    styler = table.style.format("{:.1f}", subset=time_columns, na_rep="-")
    return styler.map(colour, subset=status_columns)


SPLIT_COLUMNS = (
    "encode_cpu_ms",
    "load_cpu_ms",
    "search_cpu_ms",
    "process_cpu_ms",
    "overhead_cpu_ms",
    "solve_cpu_ms",
    "decode_cpu_ms",
    "total_cpu_ms",
    "total_wall_ms",
)
"""The times :func:`time_split_table` takes medians of: the parts on CPU time, and the total
on both clocks."""


def time_split_table(results: pd.DataFrame) -> pd.DataFrame:
    """Median ms of each part of the time, per solver and order, over decided instances.

    Columns: instances, then the medians of :data:`SPLIT_COLUMNS`, each named
    with its clock: encode, load (into a solver in this process), search (the
    solver's own), process (a solver program's whole process, from the
    operating system), overhead (the rest of the total: the hand-over), solve
    (the solver call), decode and total on CPU time, and the total on the wall
    clock. Load is empty for solvers that run as a separate program, process
    for the solvers in this process, search and overhead for a program that
    reports no time of its own; a column empty for every solver is left out.
    Medians taken apart do not add up to the median total.
    """
    answered = results[results["status"].isin(DECIDED)]
    grouped = answered.groupby(["solver", "order"], sort=False)
    columns = [c for c in SPLIT_COLUMNS if c != "process_cpu_ms" or answered[c].notna().any()]
    table = grouped[columns].median()
    table.insert(0, "instances", grouped.size())
    table.columns = ["instances", *(column_words(c) for c in columns)]
    table = table.reset_index()
    table["order"] = table["order"].astype(int)
    return table


def column_words(column: str) -> str:
    """A time column as a table header names it: ``search_cpu_ms`` is ``search CPU ms``."""
    return f"{column.split('_')[0]} {clock_of(column)} ms"


HARD_CONFLICTS = 30
"""A puzzle needing more conflicts than this counts as hard in the difficulty figures."""


def difficulty_table(results: pd.DataFrame) -> pd.DataFrame:
    """Conflicts per solver and order over the decided instances: least, median, most.

    Conflicts are a solver's own counter: unlike times, they do not depend on
    the machine or its load (empty for a solver that does not report them).
    """
    answered = results[results["status"].isin(DECIDED)]
    grouped = answered.groupby(["solver", "order"], sort=False)["conflicts"]
    table = pd.DataFrame(
        {
            "instances": grouped.size(),
            "least conflicts": grouped.min(),
            "median conflicts": grouped.median(),
            "most conflicts": grouped.max(),
            f"more than {HARD_CONFLICTS}": grouped.apply(_above_hard),
        }
    ).reset_index()
    for column in ("order", "least conflicts", "most conflicts", f"more than {HARD_CONFLICTS}"):
        table[column] = table[column].astype("Int64")
    return table


def _above_hard(conflicts: pd.Series) -> float:
    """How many counts exceed HARD_CONFLICTS (NaN when the solver reports no conflicts)."""
    return float((conflicts > HARD_CONFLICTS).sum()) if conflicts.notna().any() else math.nan


_TIME_WORDS = {
    "total": "total time",
    "solve": "solve time",
    "encode": "encode time",
    "decode": "decode time",
    "load": "load time",
    "search": "own search time",
    "overhead": "overhead (hand-over) time",
    "process": "program's own time",
    "own": "solver's own time",
    "around": "time around the solver",
}


def time_name(column: str) -> str:
    """A time column in words, with its clock: ``search_cpu_ms`` is "own search CPU time".

    Examples
    --------
    >>> time_name("total_wall_ms"), time_name("overhead_cpu_ms")
    ('total wall-clock time', 'overhead (hand-over) CPU time')
    """
    words = _TIME_WORDS.get(column.split("_")[0], column)
    clock = "wall-clock" if clock_of(column) == WALL else CPU
    return words.replace(" time", f" {clock} time")
