"""Our solver against the reference on the same instances, like with like, clock with clock.

Each comparison (:data:`MEASURES`) sets a time column of the results table
(:data:`sudosat.run.results.COLUMNS`) of one solver against the other's, on the instances
both decided: *search* on CPU time, as our solvers measure it and a program reports it
(never a search against a whole process); *the solver alone* and *around the solver* on CPU
time, its own work (a program's whole process, as the operating system counts it) and what
this process spent around it (:func:`sudosat.report.io.with_own_times`); *end to end*, what
each course orchestration pays per instance, and *overhead*, the rest of the total, on both
clocks (overhead on the wall clock only where the search's wall-clock time is known).

:func:`wall_cpu_facts` gives each solver's wall-clock over CPU time, which tells a busy
machine (:func:`machine_busy`): that affects the wall-clock comparisons, not those on CPU
time. The experiment page says so at length (:func:`wall_cpu_words`), the other pages refer
to it (:func:`busy_reference`). The results page words the comparisons
(:func:`sudosat.report.results_page.comparison_words`).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sudosat.report.clocks import BUSY_RATIO, CPU, WALL
from sudosat.report.formats import and_join, ratio
from sudosat.report.io import AROUND_CPU, OWN_CPU, in_process, solver_order
from sudosat.report.run import REFERENCE_FALLBACK
from sudosat.report.tables import html_table
from sudosat.run.results import DECIDED


@dataclass(frozen=True)
class Measure:
    """One compared time: what it covers (`name`), its `clock` and its results-table `column`."""

    name: str
    clock: str
    column: str


MEASURES = (
    Measure("search", CPU, "search_cpu_ms"),
    Measure("solver alone", CPU, OWN_CPU),
    Measure("around the solver", CPU, AROUND_CPU),
    Measure("end to end", WALL, "total_wall_ms"),
    Measure("end to end", CPU, "total_cpu_ms"),
    Measure("overhead", WALL, "overhead_wall_ms"),
    Measure("overhead", CPU, "overhead_cpu_ms"),
)
"""The compared times, in the order the pages give them: search alone, the solver alone and
around it (on CPU time only), end to end and overhead on both clocks."""

END_TO_END_WORDS = (
    "*End to end* is an instance from its line to its checked board: encoding it, handing the "
    "formula to the solver (loading it in this process, or writing it to a file and starting "
    "the program), the solver's own work, reading its answer back, decoding and checking. "
    "*The solver alone* is, for a program, its process's CPU time as the operating system "
    "counts it (starting, reading the formula, searching, printing the answer) and, for a "
    "solver in this process, loading the clauses and searching; *around the solver* is the "
    "rest of end to end, what this process spent on its side of the call."
)
"""What the compared times cover, as every page that compares them says it (once a page)."""


def own_and_reference(solvers: Sequence[str]) -> tuple[str, str | None]:
    """Our solver (``cdcl`` if it ran, else the first) and the reference it is compared with."""
    own = "cdcl" if "cdcl" in solvers else solvers[0]
    others = [s for s in solvers if s != own]
    preferred = [s for s in others if s == "zchaff" or s == REFERENCE_FALLBACK]
    return own, (preferred or others or [None])[0]  # type: ignore[list-item]


def scatter_facts(results: pd.DataFrame, own: str, reference: str, column: str) -> dict[str, Any]:
    """`own` against `reference` on the instances both decided with a time in `column` (what a
    scatter plot shows): how many (``both``), where `own`'s time was lower (``own_faster``),
    higher (``reference_faster``) or equal (``ties``), and the median over them of `own`'s
    time over `reference`'s (``median_ratio``; None: no instance, or every time of
    `reference` is 0).

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
    return {"both": len(both), "own_faster": int((both["y"] < both["x"]).sum()),
            "reference_faster": int((both["y"] > both["x"]).sum()),
            "ties": int((both["y"] == both["x"]).sum()),
            "median_ratio": None if math.isnan(ratio) else ratio}


def comparison_facts(
    results: pd.DataFrame, own: str, reference: str | None
) -> dict[tuple[str, str], dict[str, Any]]:
    """`own` against `reference` on every time of :data:`MEASURES`, by (name, clock) in that
    order: the solvers of the two that lack the time on some answer (``lacking``; a program
    that reports no search time, a program's search on the wall clock), and where none does,
    the comparison's :func:`scatter_facts`. Empty when only one solver ran."""
    if reference is None:
        return {}
    answered = results[results["status"].isin(DECIDED)]
    versus = {}
    for measure in MEASURES:
        lacking = tuple(
            solver for solver in (own, reference)
            if answered[answered["solver"] == solver][measure.column].isna().any()
        )
        facts = {} if lacking else scatter_facts(results, own, reference, measure.column)
        versus[(measure.name, measure.clock)] = {"lacking": lacking, **facts}
    return versus


def compared(
    versus: Mapping[tuple[str, str], dict[str, Any]], name: str, clock: str
) -> dict[str, Any] | None:
    """The facts of the comparison of `name` on `clock` in :func:`comparison_facts` (None: not
    made)."""
    facts = versus.get((name, clock))
    return None if facts is None or facts["lacking"] else facts


def decided_by_both(versus: Mapping[tuple[str, str], dict[str, Any]]) -> int:
    """Instances both solvers decided (0 with one solver), as end to end counts them."""
    facts = compared(versus, "end to end", WALL) or compared(versus, "end to end", CPU)
    return facts["both"] if facts else 0


def comparison_table(results: pd.DataFrame, solvers: Sequence[str]) -> pd.DataFrame:
    """Per solver: the instances it decided, the median over them of every time of
    :data:`MEASURES` (each header names its clock), and the median over its solver calls of
    each one's wall-clock over CPU time (:func:`wall_cpu_facts`)."""
    rows = []
    for solver in solvers:
        mine = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
        rows.append({
            "solver": solver, "decided": len(mine),
            **{f"median {m.name} {m.clock} ms": mine[m.column].median() for m in MEASURES},
            "median wall / CPU": _wall_cpu_ratio(mine),
        })
    return pd.DataFrame(rows).set_index("solver")


def _wall_cpu_ratio(rows: pd.DataFrame) -> float:
    """The median over rows with some CPU time of each row's ``solve_wall_ms / solve_cpu_ms``
    (NaN: none): a median of per-call ratios, as the pages label it."""
    wall = pd.to_numeric(rows["solve_wall_ms"], errors="coerce")
    cpu = pd.to_numeric(rows["solve_cpu_ms"], errors="coerce")
    kept = wall.notna() & (cpu > 0)
    return float((wall[kept] / cpu[kept]).median()) if kept.any() else math.nan


def wall_cpu_facts(results: pd.DataFrame, solvers: Sequence[str]) -> dict[str, float]:
    """Each of `solvers`' median ``solve_wall_ms / solve_cpu_ms`` over its decided instances
    (solvers without CPU times, as in a table written before the column, left out)."""
    decided = results[results["status"].isin(DECIDED)]
    ratios = {}
    for solver in solvers:
        ratio = _wall_cpu_ratio(decided[decided["solver"] == solver])
        if not math.isnan(ratio):
            ratios[solver] = ratio
    return ratios


def machine_busy(ratios: Mapping[str, float]) -> bool | None:
    """Whether the machine was busy: the median ratio (:func:`wall_cpu_facts`) of a solver that
    searches in this process exceeds :data:`~sudosat.report.clocks.BUSY_RATIO` (None: no such
    solver).

    An in-process search uses the CPU the whole time it runs, so on an idle machine its
    solve call's wall time is about its CPU time; far above it, other programs had the CPU.
    A separate program may also wait (for its start, its files): its ratio is not judged.
    """
    judged = [solver for solver in ratios if in_process(solver)]
    return None if not judged else any(ratios[solver] > BUSY_RATIO for solver in judged)


def wall_cpu_words(ratios: Mapping[str, float]) -> str:
    """The experiment page's paragraph on wall against CPU time, the one the other pages refer
    to (:func:`busy_reference`): each solver's median ratio (:func:`wall_cpu_facts`), what it
    says, what it affects."""
    busy = machine_busy(ratios)
    if busy is None:
        return ("No CPU time was recorded for a solver that searches in this process, so whether "
                "the machine was busy cannot be told from the times.")
    judged = [solver for solver in ratios if in_process(solver)]
    bound = (f"Above {BUSY_RATIO:g} for {and_join([s for s in judged if ratios[s] > BUSY_RATIO])}"
             if busy else f"At most {BUSY_RATIO:g} for {and_join(judged)}")
    waits = ("" if len(judged) == len(ratios) else
             " A program started for each instance also waits for its start and its files, "
             "so its ratio is shown, not judged.")
    state = ("the machine was busy, and the wall-clock times below and on the results page "
             "are inflated" if busy else "the machine was quiet, and the wall-clock "
             "times below and on the results page are not inflated")
    shown = and_join([f"{ratio(r)} for {s}" for s, r in ratios.items()])
    return (f"The median wall-clock time of a solver call over its CPU time was {shown}. "
            f"{bound}, in this process: {state}.{waits} A busy machine inflates the "
            "wall-clock times and comparisons, not those on CPU time (search alone, the solver "
            "alone and around it, and end to end and overhead on CPU time).")


def busy_reference(ratios: Mapping[str, float], figures: str = "the wall-clock figures") -> str:
    """One sentence on whether the machine was busy, for a page that refers to the experiment
    page's paragraph on wall against CPU time instead of repeating it; `figures` names what a
    busy machine would inflate on that page."""
    where = "the experiment page's *Wall against CPU time* gives each solver's ratio"
    busy = machine_busy(ratios)
    if busy is None:
        return (f"Whether the machine was busy cannot be told from the times ({where}: no CPU "
                "time was recorded for a solver in this process).")
    if busy:
        return (f"The machine was busy while the run was timed ({where}): {figures} are "
                "inflated, those on CPU time far less.")
    return f"The machine was quiet while the run was timed ({where}): {figures} are not inflated."


# -- the index's summary of the comparisons ------------------------------------------------


def comparisons_html(results: pd.DataFrame) -> str:
    """The index's summary of the comparisons: what each covers and whether the machine was busy
    (referring to the experiment page), then search alone, the solver alone and around it on CPU
    time, end to end and overhead on both clocks, as one table (empty: one solver)."""
    solvers = solver_order(results)
    own, reference = own_and_reference(solvers)
    versus = comparison_facts(results, own, reference)
    shared = decided_by_both(versus)
    if reference is None or not shared:
        return ""
    columns = ["comparison", "clock", "instances", f"{own} faster", f"{reference} faster",
               f"median {own} ÷ {reference}", "not compared"]
    rows = []
    for (name, clock), facts in versus.items():
        row: dict[str, Any] = {"comparison": name, "clock": clock}
        if facts["lacking"]:
            row["not compared"] = f"no such time for {' and '.join(facts['lacking'])}"
        else:
            row.update({"instances": facts["both"], f"{own} faster": facts["own_faster"],
                        f"{reference} faster": facts["reference_faster"],
                        f"median {own} ÷ {reference}": facts["median_ratio"]})
        rows.append(row)
    table = pd.DataFrame(rows, columns=columns).dropna(axis=1, how="all")
    counts = [c for c in columns[2:5] if c in table]
    table[counts] = table[counts].astype("Int64")
    clocks = wall_cpu_facts(results, solvers)
    state = busy_reference(clocks, "the rows on the wall clock")
    return (
        f"<h3>{html.escape(own)} against {html.escape(reference)}</h3>"
        f"<p>Search alone, the solver alone and around it are compared on CPU time; end to end "
        f"and overhead on both clocks, on the {shared} instances both decided. A median "
        f"ratio above 1: {html.escape(own)} took longer. {_markdown_html(END_TO_END_WORDS)} "
        f"{_markdown_html(state)}</p>"
        + html_table(table, decimals=2)
    )


def _markdown_html(text: str) -> str:
    """A sentence written for a notebook's Markdown (``*emphasis*`` only) as HTML."""
    return re.sub(r"\*([^*]+)\*", r"<i>\1</i>", html.escape(text))
