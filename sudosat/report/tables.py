"""Tables for readers: the HTML table every page shows, and the results table's summary.

:func:`table` turns any DataFrame into a plain table (index as columns, one
header row, no ``<NA>``); :func:`summary_table` counts and times the results table per
solver, for the experiment page, the results page and the index. Times are milliseconds.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from sudosat.report.io import solver_order
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
    """A DataFrame as a reader's table (HTML; ``str()`` gives the markup): index as ordinary
    columns, one header row, no ``<NA>``.

    Row labels (the index, named or not) become the first columns; a default
    0..n index is dropped. Missing values show as an en dash, whole numbers
    with thousands separators and floats with `decimals` places (a mapping
    gives them per column).
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
    return HTML(f'{_TABLE_STYLE}<table class="sudosat-table"><thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(rows)}</tbody></table>")


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
    """One row per solver (the index) of the results table: its instances, how many it solved
    (SAT, solution checked), proved unsat, ran out of time on, failed on, then over the
    instances it decided the median total time on both clocks, and the 90th percentile and
    maximum wall-clock total, in milliseconds."""
    rows = []
    for solver in solver_order(results):
        mine = results[results["solver"] == solver]
        decided = mine[mine["status"].isin(DECIDED)]
        wall = decided["total_wall_ms"].dropna()
        rows.append({
            "solver": solver, "instances": len(mine),
            "solved": int(((mine["status"] == Verdict.SAT) & mine["valid"]).sum()),
            "unsat": int((mine["status"] == Verdict.UNSAT).sum()),
            "timeouts": int((mine["status"] == Verdict.TIMEOUT).sum()),
            "errors": int((mine["status"] == Verdict.ERROR).sum()),
            "median wall ms": _quantile(wall, 0.5),
            "median CPU ms": _quantile(decided["total_cpu_ms"].dropna(), 0.5),
            "p90 wall ms": _quantile(wall, 0.9),
            "max wall ms": float(wall.max()) if len(wall) else math.nan,
        })
    return pd.DataFrame(rows).set_index("solver")


def _quantile(values: pd.Series, q: float) -> float:
    return float(values.quantile(q)) if len(values) else math.nan
