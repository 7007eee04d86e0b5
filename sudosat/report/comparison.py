"""Our solver against the reference on the same instances, like with like, clock with clock.

Three comparisons, each of time columns of the results table
(:data:`sudosat.run.results.COLUMNS`) on the instances both solvers decided
(:data:`MEASURES`):

*search* on CPU time (``search_cpu_ms``)
    The solver's own search against the other's, both on CPU time: our
    solvers measure their own, a program reports its own (zChaff's ``Total
    Run Time``, MiniSat's ``CPU time``). Not compared when a solver reports
    none: a search is never set against a whole process.
*solver alone* and *around the solver* on CPU time (``own_cpu_ms``, ``around_cpu_ms``)
    The solver's own work, reading the formula included (a program's whole
    process as the operating system counts it; in this process, loading the
    clauses and searching), and what this process spent around it (the rest of
    end to end): a program's own time set against ours, and our side of each
    call against the other's (:func:`sudosat.report.io.with_own_times`).
*end to end* on the wall clock and on CPU time (``total_wall_ms``, ``total_cpu_ms``)
    What each course orchestration pays per instance: encode, hand the
    formula over, the solver's own work, read the answer back, decode and check.
*overhead* on both clocks (``overhead_wall_ms``, ``overhead_cpu_ms``)
    The rest of the total: loading the clauses, writing and reading files,
    starting a program, parsing its output, checking the model. On the wall
    clock only where the search's wall-clock time is known (a solver in this
    process).

:func:`wall_cpu_facts` gives each solver's wall-clock over CPU time, which tells a busy
machine (:func:`machine_busy`): that affects the wall-clock comparisons, not those on CPU
time. The experiment page says so at length (:func:`wall_cpu_words`), the other pages refer
to it (:func:`busy_reference`). The results page's account of the comparisons branches on
every count, so its sentences are written here (:func:`comparison_words`).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sudosat.report.clocks import BUSY_RATIO, CPU, WALL, clock_of
from sudosat.report.formats import and_join, plural, ratio
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


@dataclass(frozen=True)
class ScatterFacts:
    """One time column of two solvers on the instances both decided (what a scatter plot shows).

    Attributes
    ----------
    own, reference : str
    column : str
        The time compared (a results-table column that names its clock, ``total_wall_ms``).
    both : int
        Instances both solvers decided with a time in `column`.
    own_faster, reference_faster, ties : int
        Of those, where `own`'s time was lower, higher, equal.
    median_ratio : float or None
        The median over those instances of `own`'s time over `reference`'s (None when
        `both` is 0, or every time of `reference` is 0).
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
    def clock(self) -> str:
        """The clock of `column`: ``"wall"`` or ``"CPU"``."""
        return clock_of(self.column)

    @property
    def name(self) -> str:
        """What `column` measures, as :data:`MEASURES` names it (``"search"``); else `column`."""
        return next((m.name for m in MEASURES if m.column == self.column), self.column)

    @property
    def winner(self) -> str | None:
        """The solver faster on more of the instances (None: as many each, or none)."""
        if self.own_faster == self.reference_faster:
            return None
        return self.own if self.own_faster > self.reference_faster else self.reference

    @property
    def wins(self) -> tuple[int, int]:
        """(instances the :attr:`winner` was faster on, those the other was): the winner's
        first; (`own_faster`, `reference_faster`) when neither won."""
        if self.winner == self.reference:
            return self.reference_faster, self.own_faster
        return self.own_faster, self.reference_faster


def scatter_facts(results: pd.DataFrame, own: str, reference: str, column: str) -> ScatterFacts:
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
    """The comparisons of a run (:data:`MEASURES`): search on CPU, end to end and overhead on
    both clocks.

    Attributes
    ----------
    own : str
    reference : str or None
        None when only one solver ran (then nothing else is set).
    compared : tuple of ScatterFacts
        The comparisons made, in the order of :data:`MEASURES`.
    not_compared : tuple of (Measure, tuple of str)
        The comparisons not made, each with the solvers of the two that lack its time on
        some answer (a program that reports no search time; a program's search on the wall
        clock, which is not known).
    """

    own: str
    reference: str | None
    compared: tuple[ScatterFacts, ...] = ()
    not_compared: tuple[tuple[Measure, tuple[str, ...]], ...] = ()

    def get(self, name: str, clock: str) -> ScatterFacts | None:
        """The comparison of `name` on `clock` (None: not made)."""
        column = _column(name, clock)
        return next((facts for facts in self.compared if facts.column == column), None)

    @property
    def search(self) -> ScatterFacts | None:
        """Search alone, on CPU time."""
        return self.get("search", CPU)

    @property
    def end_to_end(self) -> ScatterFacts | None:
        """End to end on the wall clock: what a user waits for per instance."""
        return self.get("end to end", WALL)

    @property
    def both(self) -> int:
        """Instances both solvers decided (0 with one solver)."""
        facts = self.get("end to end", WALL) or self.get("end to end", CPU)
        return facts.both if facts else 0


def _column(name: str, clock: str) -> str:
    found = [m.column for m in MEASURES if (m.name, m.clock) == (name, clock)]
    if not found:
        raise ValueError(f"no comparison of {name!r} on the {clock} clock")
    return found[0]


def comparison_facts(results: pd.DataFrame, own: str, reference: str | None) -> ComparisonFacts:
    """The :class:`ComparisonFacts` of `own` against `reference` in a results table."""
    if reference is None:
        return ComparisonFacts(own, None)
    answered = results[results["status"].isin(DECIDED)]
    compared, missing = [], []
    for measure in MEASURES:
        lacking = tuple(
            solver for solver in (own, reference)
            if answered[answered["solver"] == solver][measure.column].isna().any()
        )
        if lacking:
            missing.append((measure, lacking))
        else:
            compared.append(scatter_facts(results, own, reference, measure.column))
    return ComparisonFacts(own, reference, tuple(compared), tuple(missing))


def comparison_table(results: pd.DataFrame, solvers: Sequence[str]) -> pd.DataFrame:
    """Per solver, medians over its decided instances of what each comparison compares.

    Columns: instances decided, then the median of every time of
    :data:`MEASURES` (each header names its clock), and the median over the
    solver calls of each one's wall-clock over CPU time (see :func:`wall_cpu_facts`).
    """
    rows = []
    for solver in solvers:
        mine = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
        rows.append({
            "solver": solver,
            "decided": len(mine),
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
    A separate program may also wait (for its start, its files), so its ratio is shown, not
    judged. A busy machine inflates the comparisons on the wall clock, not those on CPU time.
    """
    judged = [solver for solver in ratios if in_process(solver)]
    return None if not judged else any(ratios[solver] > BUSY_RATIO for solver in judged)


# -- words: what the pages say of these facts -----------------------------------------------

CLOCK_WORDS = {WALL: "on the wall clock", CPU: "on CPU time"}
"""How a sentence names each clock."""

LEADS = {"search": "Search alone", "solver alone": "The solver alone",
         "around the solver": "Around the solver", "end to end": "End to end",
         "overhead": "Overhead"}
"""How a sentence opens on each compared time."""

_WHY_NOT = {
    ("search", CPU): "no search time of its own (a search is never set against a whole process)",
    ("solver alone", CPU): "no CPU time of its own work (a program's, from the operating "
                           "system; in this process, its search)",
    ("around the solver", CPU): "no CPU time of its own work, so what surrounds it cannot be "
                                "told apart",
    ("overhead", WALL): "its search on CPU time only, so its wall-clock hand-over cannot be told "
                        "apart",
    ("overhead", CPU): "no search time, so its hand-over cannot be told apart",
}


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


def _who(s: ScatterFacts) -> str:
    """Which solver was faster on how many of the instances both decided."""
    n = s.both
    everyone = "it" if n == 1 else f"all {n}"
    if s.winner is None:
        return (f"they tied on {everyone}" if s.ties == n else
                f"each was faster on {s.own_faster} of the {n}"
                + (f", and they tied on {s.ties}" if s.ties else ""))
    won, lost = s.wins
    if won == n:
        return f"{s.winner} was faster on {everyone}"
    other = s.reference if s.winner == s.own else s.own
    return (f"{s.winner} was faster on {won} of the {n}" + (f", {other} on {lost}" if lost else "")
            + (f", and they tied on {s.ties}" if s.ties else ""))


def comparison_words(versus: ComparisonFacts) -> list[str]:
    """The results page's paragraphs on the comparisons: each made, and why any other is not.

    Which solver was faster, on how many instances, and the median ratio, for every
    comparison of :data:`MEASURES`; the wording branches on the counts (ties, one
    instance, a clean sweep), so it is written here, where the tests read it.
    """
    if versus.reference is None:
        return ["Only one solver ran: there is nothing to compare it with."]
    if not versus.both:
        return ["No instance was decided by both solvers: there is nothing to compare."]
    said = [f"Each comparison is made on the {plural(versus.both, 'instance')} both solvers "
            f"decided; a ratio above 1 means {versus.own} took longer. {END_TO_END_WORDS}"]
    for s in versus.compared:
        lead, clock = LEADS[s.name], CLOCK_WORDS[s.clock]
        # The ratio's clause names its measure too: two measures may share a ratio, and the
        # clause must still say which one it is about when read alone.
        share = ("" if s.median_ratio is None else f"; the median ratio of {s.own}'s time to "
                 f"{s.reference}'s ({lead.lower()} {clock}) is {ratio(s.median_ratio)}")
        said.append(f"**{lead} {clock}**: {_who(s)}{share}.")
    for m, lacking in versus.not_compared:
        has = "has" if len(lacking) == 1 else "have"
        said.append(f"{LEADS[m.name]} {CLOCK_WORDS[m.clock]} is not compared: "
                    f"{and_join(lacking)} {has} {_WHY_NOT[(m.name, m.clock)]}.")
    pair = (versus.own, versus.reference)
    reported = [s for s in pair if not in_process(s)]
    timed = [s for s in pair if in_process(s)]
    if versus.search is not None:
        how = ([f"{and_join(reported)} {'reports' if len(reported) == 1 else 'report'} it"]
               if reported else []) + ([f"the search of {and_join(timed)} is timed in this "
                                        "process"] if timed else [])
        said.append(f"Every search time is CPU time: {'; '.join(how)}.")
    return said


# -- the index's summary of the comparisons ------------------------------------------------


def comparisons_html(results: pd.DataFrame) -> str:
    """The index's summary of the comparisons: what each covers and whether the machine was busy
    (referring to the experiment page), then search alone, the solver alone and around it on CPU
    time, end to end and overhead on both clocks, as one table (empty: one solver)."""
    solvers = solver_order(results)
    own, reference = own_and_reference(solvers)
    versus = comparison_facts(results, own, reference)
    if reference is None or not versus.both:
        return ""
    lacking = {measure: solvers for measure, solvers in versus.not_compared}
    columns = ["comparison", "clock", "instances", f"{own} faster", f"{reference} faster",
               f"median {own} ÷ {reference}", "not compared"]
    rows = []
    for measure in MEASURES:
        facts = versus.get(measure.name, measure.clock)
        row: dict[str, Any] = {"comparison": measure.name, "clock": measure.clock}
        if facts is None:
            row["not compared"] = f"no such time for {' and '.join(lacking[measure])}"
        else:
            row.update({"instances": facts.both, f"{own} faster": facts.own_faster,
                        f"{reference} faster": facts.reference_faster,
                        f"median {own} ÷ {reference}": facts.median_ratio})
        rows.append(row)
    table = pd.DataFrame(rows, columns=columns).dropna(axis=1, how="all")
    counts = [c for c in columns[2:5] if c in table]
    table[counts] = table[counts].astype("Int64")
    clocks = wall_cpu_facts(results, solvers)
    state = busy_reference(clocks, "the rows on the wall clock")
    return (
        f"<h3>{html.escape(own)} against {html.escape(reference)}</h3>"
        f"<p>Search alone, the solver alone and around it are compared on CPU time; end to end "
        f"and overhead on both clocks, on the {versus.both} instances both decided. A median "
        f"ratio above 1: {html.escape(own)} took longer. {_markdown_html(END_TO_END_WORDS)} "
        f"{_markdown_html(state)}</p>"
        + html_table(table, decimals=2)
    )


def _markdown_html(text: str) -> str:
    """A sentence written for a notebook's Markdown (``*emphasis*`` only) as HTML."""
    return re.sub(r"\*([^*]+)\*", r"<i>\1</i>", html.escape(text))
