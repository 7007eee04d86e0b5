"""Our solver against the reference on the same instances, like with like.

Three comparisons, each of one time column of the results table
(:data:`sudosat.run.results.COLUMNS`) on the instances both solvers decided:

*end to end* (``total_ms``)
    What each course orchestration pays per instance: encode, hand the
    formula over, search, read the answer back, decode.
*search* (``search_ms``)
    The solver's own search time against the other's: its own clock, or the
    time it reports for itself (zChaff's ``Total Run Time``). Not compared when
    a solver reports none: a search is never set against a whole process.
*overhead* (``overhead_ms``)
    The rest of the total: loading the clauses, writing and reading files,
    starting a program, parsing its output, checking the model.

:func:`wall_cpu_facts` says whether wall-clock and CPU times of the solver
calls disagree, as they do on a busy machine. Both the experiment page and the
results page read these facts; each words them itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from sudosat.report.io import DECIDED
from sudosat.report.run import REFERENCE_FALLBACK

COMPARED = {"end to end": "total_ms", "search": "search_ms", "overhead": "overhead_ms"}
"""The three comparisons and the column each compares."""

BUSY_RATIO = 1.5
"""A median wall time of the solver calls above this many times their CPU time means the
machine was busy (an in-process search uses the CPU the whole time it runs)."""


def own_and_reference(solvers: Sequence[str]) -> tuple[str, str | None]:
    """Our solver (``cdcl`` if it ran, else the first) and the reference it is compared with."""
    own = "cdcl" if "cdcl" in solvers else solvers[0]
    others = [s for s in solvers if s != own]
    preferred = [s for s in others if s == "zchaff" or s == REFERENCE_FALLBACK]
    return own, (preferred or others or [None])[0]  # type: ignore[list-item]


def in_process(solver: str) -> bool:
    """Whether `solver` searches inside this Python process (not zChaff, not ``exec:``)."""
    return solver != "zchaff" and not solver.startswith("exec:")


def reports_its_own_time(solver: str) -> bool:
    """Whether `solver`'s ``search_ms`` is a time it reports (zChaff, ``exec:``, DPLL, local
    search: CPU seconds) rather than a clock around its search (``cdcl``, ``pysat:*``)."""
    return not (solver == "cdcl" or solver.startswith("pysat:"))


@dataclass(frozen=True)
class ScatterFacts:
    """One time column of two solvers on the instances both decided (what a scatter plot shows).

    Attributes
    ----------
    own, reference : str
    column : str
        The time compared (``total_ms``, ``search_ms``, ``overhead_ms``).
    both : int
        Instances both solvers decided with a time in `column`.
    own_faster, reference_faster, ties : int
        Of those, where `own`'s time was lower, higher, equal.
    median_ratio : float or None
        The median of `own`'s time over `reference`'s (None when `both` is 0, or
        every time of `reference` is 0).
    """

    own: str
    reference: str
    column: str
    both: int
    own_faster: int
    reference_faster: int
    ties: int
    median_ratio: float | None

    @property
    def winner(self) -> str | None:
        """The solver faster on more of the instances (None: as many each, or none)."""
        if self.own_faster == self.reference_faster:
            return None
        return self.own if self.own_faster > self.reference_faster else self.reference


def scatter_facts(
    results: pd.DataFrame, own: str, reference: str, column: str = "total_ms"
) -> ScatterFacts:
    """The :class:`ScatterFacts` of `column` for `own` against `reference`.

    The times are compared as recorded (the scatter plot draws times below 0.01 ms
    at 0.01 ms; a reported search of 1 microsecond still beats one of 5).
    """

    def side(solver: str) -> pd.DataFrame:
        mine = results[results["solver"] == solver].drop_duplicates("line").set_index("line")
        return pd.DataFrame({"t": mine[column], "ok": mine["status"].isin(DECIDED)})

    pair = side(reference).add_suffix("_x").join(side(own).add_suffix("_y"), how="inner")
    pair = pair.rename(columns={"t_x": "x", "t_y": "y"})
    both = pair[pair["ok_x"] & pair["ok_y"]].dropna(subset=["x", "y"])
    positive = both[both["x"] > 0]
    ratio = float((positive["y"] / positive["x"]).median()) if len(positive) else math.nan
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
class ComparisonFacts:
    """The three comparisons of a run: end to end, search alone, overhead.

    Attributes
    ----------
    own : str
    reference : str or None
        None when only one solver ran (then nothing else is set).
    end_to_end : ScatterFacts or None
        ``total_ms``: what a user waits for per instance.
    search : ScatterFacts or None
        ``search_ms``, each solver's own; None when `no_search_time` names a solver.
    overhead : ScatterFacts or None
        ``overhead_ms``, the rest of the total; None as `search`.
    no_search_time : tuple of str
        The solvers of the two that report no search time of their own on some answer.
    reported : tuple of str
        The solvers of the two whose search time is one they report themselves (CPU
        seconds, see :func:`reports_its_own_time`) rather than a clock around their search.
    """

    own: str
    reference: str | None
    end_to_end: ScatterFacts | None = None
    search: ScatterFacts | None = None
    overhead: ScatterFacts | None = None
    no_search_time: tuple[str, ...] = ()
    reported: tuple[str, ...] = ()


def comparison_facts(results: pd.DataFrame, own: str, reference: str | None) -> ComparisonFacts:
    """The :class:`ComparisonFacts` of `own` against `reference` in a results table."""
    if reference is None:
        return ComparisonFacts(own, None)
    pair = (own, reference)
    answered = results[results["status"].isin(DECIDED)]
    missing = tuple(
        solver for solver in pair
        if answered[answered["solver"] == solver]["search_ms"].isna().any()
    )
    split = {
        name: None if missing else scatter_facts(results, own, reference, COMPARED[name])
        for name in ("search", "overhead")
    }
    return ComparisonFacts(
        own,
        reference,
        end_to_end=scatter_facts(results, own, reference, COMPARED["end to end"]),
        search=split["search"],
        overhead=split["overhead"],
        no_search_time=missing,
        reported=tuple(solver for solver in pair if reports_its_own_time(solver)),
    )


def comparison_table(results: pd.DataFrame, solvers: Sequence[str]) -> pd.DataFrame:
    """Per solver, medians over its decided instances of what each comparison compares.

    Columns: instances decided, median total, search and overhead ms, the
    median solve call in wall and CPU ms, and the median wall/CPU ratio of the
    solve calls (see :func:`wall_cpu_facts`).
    """
    rows = []
    for solver in solvers:
        mine = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
        rows.append({
            "solver": solver,
            "decided": len(mine),
            "median total ms": mine["total_ms"].median(),
            "median search ms": mine["search_ms"].median(),
            "median overhead ms": mine["overhead_ms"].median(),
            "median solve ms": mine["solve_ms"].median(),
            "median solve CPU ms": mine["solve_cpu_ms"].median(),
            "wall / CPU": _wall_cpu_ratio(mine),
        })
    return pd.DataFrame(rows).set_index("solver")


def _wall_cpu_ratio(rows: pd.DataFrame) -> float:
    """The median of ``solve_ms / solve_cpu_ms`` over rows with some CPU time (NaN: none)."""
    timed = rows[(rows["solve_cpu_ms"] > 0) & rows["solve_ms"].notna()]
    return float((timed["solve_ms"] / timed["solve_cpu_ms"]).median()) if len(timed) else math.nan


@dataclass(frozen=True)
class WallCpuFacts:
    """Whether the wall-clock times of a run can be trusted: wall against CPU time.

    An in-process search uses the CPU the whole time it runs, so on an idle
    machine its solve call's wall time is about its CPU time; far above it,
    other programs had the CPU. A separate program may also wait (for its
    start, its files), so its ratio is shown, not judged.

    Attributes
    ----------
    ratios : tuple of (solver, float)
        Each solver's median ``solve_ms / solve_cpu_ms`` over its decided instances
        (solvers without CPU times, as in a table written before the column, left out).
    judged : tuple of str
        The solvers whose ratio decides `busy` (those that search in process).
    busy : bool or None
        Whether a judged solver's median ratio exceeds `threshold` (None: none judged).
    threshold : float
        :data:`BUSY_RATIO`.
    """

    ratios: tuple[tuple[str, float], ...]
    judged: tuple[str, ...]
    busy: bool | None
    threshold: float = BUSY_RATIO


def wall_cpu_facts(results: pd.DataFrame, solvers: Sequence[str]) -> WallCpuFacts:
    """The :class:`WallCpuFacts` of `solvers` in a results table."""
    decided = results[results["status"].isin(DECIDED)]
    ratios = []
    for solver in solvers:
        ratio = _wall_cpu_ratio(decided[decided["solver"] == solver])
        if not math.isnan(ratio):
            ratios.append((solver, ratio))
    judged = tuple(solver for solver, _ in ratios if in_process(solver))
    busy = None if not judged else any(
        ratio > BUSY_RATIO for solver, ratio in ratios if solver in judged
    )
    return WallCpuFacts(tuple(ratios), judged, busy)
