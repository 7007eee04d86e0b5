"""Our solver against the reference on the same instances: which two solvers are compared,
which time column compares their procedures, and what the comparison shows.

Both the experiment page and the results page read these facts; each words them itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from sudosat.report.io import DECIDED
from sudosat.report.plots import paired
from sudosat.report.run import REFERENCE_FALLBACK


def own_and_reference(solvers: Sequence[str]) -> tuple[str, str | None]:
    """Our solver (``cdcl`` if it ran, else the first) and the reference it is compared with."""
    own = "cdcl" if "cdcl" in solvers else solvers[0]
    others = [s for s in solvers if s != own]
    preferred = [s for s in others if s == "zchaff" or s == REFERENCE_FALLBACK]
    return own, (preferred or others or [None])[0]  # type: ignore[list-item]


def search_column(results: pd.DataFrame, solvers: Sequence[str]) -> str:
    """``search_ms`` when every one of `solvers` has it on its answers, else ``solve_ms``."""
    answered = results[results["status"].isin(DECIDED) & results["solver"].isin(solvers)]
    if len(answered) and answered["search_ms"].notna().all():
        return "search_ms"
    return "solve_ms"


@dataclass(frozen=True)
class ScatterFacts:
    """One time column of two solvers on the instances both decided (what a scatter plot shows).

    Attributes
    ----------
    own, reference : str
    column : str
        The time compared (``total_ms``, ``search_ms``, ``solve_ms``).
    both : int
        Instances both solvers decided with a time in `column`.
    own_faster, reference_faster, ties : int
        Of those, where `own`'s time was lower, higher, equal.
    median_ratio : float or None
        The median of `own`'s time over `reference`'s (None when `both` is 0).
    """

    own: str
    reference: str
    column: str
    both: int
    own_faster: int
    reference_faster: int
    ties: int
    median_ratio: float | None


def scatter_facts(
    results: pd.DataFrame, own: str, reference: str, column: str = "total_ms"
) -> ScatterFacts:
    """The :class:`ScatterFacts` of `column` for `own` against `reference`."""
    pair = paired(results, own, reference, column)
    both = pair[pair["answered_x"] & pair["answered_y"]].dropna(subset=["x", "y"])
    ratio = float((both["y"] / both["x"]).median()) if len(both) else math.nan
    return ScatterFacts(
        own=own,
        reference=reference,
        column=column,
        both=len(both),
        own_faster=int((both["y"] < both["x"]).sum()),
        reference_faster=int((both["y"] > both["x"]).sum()),
        ties=int((both["y"] == both["x"]).sum()),
        median_ratio=None if math.isnan(ratio) else ratio,
    )


@dataclass(frozen=True)
class LoadingFacts:
    """Where loading the formula weighs most in the reference's total time.

    Attributes
    ----------
    order : int
        The order where the median share of load in total is the largest.
    share : float
        That median share, 0..1.
    clauses : int
        The median clauses of the reference's decided formulas of that order.
    """

    order: int
    share: float
    clauses: int


@dataclass(frozen=True)
class ComparisonFacts:
    """The two comparisons of a run: total time, then the procedures alone.

    Attributes
    ----------
    own : str
    reference : str or None
        None when only one solver ran (then nothing else is set).
    total : ScatterFacts or None
        Total time (encode + solve + decode), what a user waits for.
    procedure : ScatterFacts or None
        :func:`search_column`'s time: search alone when both solvers' load is
        split off, else the whole solve.
    loading : LoadingFacts or None
        Set when the reference reports its load time.
    """

    own: str
    reference: str | None
    total: ScatterFacts | None = None
    procedure: ScatterFacts | None = None
    loading: LoadingFacts | None = None


def comparison_facts(results: pd.DataFrame, own: str, reference: str | None) -> ComparisonFacts:
    """The :class:`ComparisonFacts` of `own` against `reference` in a results table."""
    if reference is None:
        return ComparisonFacts(own, None)
    column = search_column(results, [own, reference])
    loading = None
    mine = results[(results["solver"] == reference) & results["status"].isin(DECIDED)]
    if len(mine) and mine["load_ms"].notna().any():
        share = (mine["load_ms"] / mine["total_ms"]).groupby(mine["order"]).median()
        order = int(share.idxmax())
        clauses = int(mine[mine["order"] == order]["clauses"].median())
        loading = LoadingFacts(order, float(share.max()), clauses)
    return ComparisonFacts(
        own,
        reference,
        scatter_facts(results, own, reference, "total_ms"),
        scatter_facts(results, own, reference, column),
        loading,
    )
