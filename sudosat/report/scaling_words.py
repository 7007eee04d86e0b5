"""The scaling page's longer paragraphs, worded from the facts of
:mod:`sudosat.report.scaling_page`.

The notebook keeps its short sentences; the paragraphs that branch on the
data live here, where the tests and mypy see them, one function per section
of the page: the grid as its parameters set it (:func:`grid_words`), how its
runs ended and how busy the machine was (:func:`run_words`), the hardest fill
of each order (:func:`hardest_table`), the growth exponents
(:func:`growth_words`), where an encoding stops being usable and what the
optimised one removes (:func:`usable_words`, :func:`savings_words`,
:func:`reference_words`, :func:`missed_words`), one cell up close
(:func:`cell_words`) and the larger orders (:func:`large_intro_words`,
:func:`large_words`). Each function only words its facts; every conclusion is
computed by :mod:`sudosat.studies.grid` and :mod:`sudosat.report.scaling_page`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from sudosat.report.clocks import ClockFacts
from sudosat.report.formats import and_join, count, fills, milliseconds, orders, percent, plural
from sudosat.report.scaling_page import (
    MEASURE_WORDS,
    BoardFacts,
    CellFacts,
    GridRunFacts,
    LargeFacts,
    LargeIntroFacts,
    LimitFacts,
    MissedBoard,
    Peak,
    ReferenceFacts,
    SavingsFacts,
    UsabilityFacts,
    peak_facts,
)
from sudosat.run.results import Verdict
from sudosat.studies.grid import Fit, GridSpec

__all__ = [
    "bound_words",
    "cell_words",
    "clock_words",
    "grid_words",
    "growth_words",
    "hardest_table",
    "large_intro_words",
    "large_words",
    "measured_words",
    "missed_words",
    "peak_words",
    "reference_words",
    "run_words",
    "savings_words",
    "usable_words",
]


def clock_words(busy: ClockFacts, from_cache: bool, times: str, rest: str) -> str:
    """How busy the machine was while a study's solvers ran (both study pages).

    `from_cache` says some calls were measured by an earlier build; `times` names the
    times a busy machine stretches (``the times above``), `rest` ends the
    sentence with what it does not change (``which runs finished: ...``).
    """
    if busy.ratio is None:
        return "No run recorded a CPU time, so how busy the machine was is not known."
    mixed = ""
    if from_cache:
        mixed = ", some or all of them measured by an earlier build (read from the cache)"
    said = (f"Over the {busy.calls} solver calls{mixed}, wall time was {busy.ratio:.2f} times "
            f"CPU time (all calls together): ")
    if busy.busy:
        return said + (f"above {busy.threshold:g}, so the machine was busy. That stretches "
                       f"{times} (wall time, and CPU time too where processors share hardware), "
                       f"not {rest}")
    return said + (f"not above {busy.threshold:g}, so the machine was not busy and other "
                   f"programs did not stretch {times}. Had it been busy, they would have "
                   f"stretched them (wall time, and CPU time too where processors share "
                   f"hardware), not {rest}")


def measured_words(times: Sequence[str]) -> str:
    """When cached results were measured: the one time, or the first and the last of several
    (the times sorted, as :class:`~sudosat.report.scaling_page.GridRunFacts` keeps them)."""
    if len(times) == 1:
        return f"measured {times[0]}"
    return f"measured at {len(times)} times between {times[0]} and {times[-1]}"


def grid_words(spec: GridSpec, same: BoardFacts) -> str:
    """The grid as its parameters set it: the limits, boards and seeds, orders, fills and runs,
    and whether each cell's seeds give different boards."""
    cap = ("no CPU-time cap" if spec.time_limit_ms is None else
           f"a CPU-time cap of {spec.time_limit_ms / 1000:g} s on {spec.solver}'s calls")
    seeds = (f"generator seed {spec.seed}" if spec.boards == 1 else
             f"generator seeds {spec.seed}..{spec.seed + spec.boards - 1}")
    text = (f"Budget: {spec.max_conflicts:,} conflicts for every solver call; behind it {cap}, "
            f"a safety net only. {plural(spec.boards, 'board').capitalize()} per cell ({seeds}); "
            f"orders {', '.join(map(str, spec.orders))}; given "
            f"{', '.join(percent(a) for a in spec.alphas)}; runs: "
            f"{', '.join(f'{e} / {s}' for e, s in spec.runs())}.")
    if same.seeds > 1 and not same.repeats:
        return text + f" In every cell the {same.seeds} seeds give {same.seeds} different boards."
    if same.seeds > 1:
        text += (f" The {same.seeds} seeds give {same.seeds} different boards in "
                 f"{same.distinct_cells} of {same.cells} cells; " + "; ".join(
                     f"at {percent(alpha)} given ({orders(at)}) they give "
                     f"{plural(number, 'distinct board')}" for alpha, number, at in same.repeats))
        if same.repeats_are_empty:
            text += (", since with no givens every seed leaves the same empty board: the runs of "
                     "those cells repeat one board, and their medians and undecided counts are "
                     "that board's, counted once per run")
        text += "."
    return text


def run_words(ran: GridRunFacts, stops: LimitFacts, busy: ClockFacts) -> str:
    """How the grid's runs ended, what stopped the undecided ones, which cells came from the
    cache, and how busy the machine was."""
    when = f" ({measured_words(ran.measured_at)})" if ran.measured_at else ""
    load = clock_words(busy, bool(ran.measured_at), "the times on this page",
                       "which boards were decided: those rest on the conflict budget.")
    if not stops.machine_dependent:
        limits = ((f"The budget stopped all {stops.budget_stops} undecided runs; " if
                   stops.budget_stops else "No run was stopped by a limit; ")
                  + "the CPU cap stopped none, so every status on this page is the same on any "
                  "machine.")
    else:
        limits = (f"The CPU cap stopped {plural(len(stops.cap_stops), 'run')} before the budget "
                  f"did ({'; '.join(stops.cap_stops)}): those statuses, and every conclusion "
                  "that counts them, depend on this machine and its load; the other "
                  f"{stops.budget_stops} undecided runs were stopped by the budget.")
    return (f"{ran.runs} runs: {ran.solved} solved, each checked valid; {ran.undecided} "
            f"undecided, {ran.refused} refused. {limits} Cells read from the cache: "
            f"{ran.cells_from_cache} of {ran.cells}{when}. {load}")


def peak_words(p: Peak) -> str:
    """The hardest fill of one order; tied fills are named together, never one alone."""
    where = fills(p.alphas)
    if p.by == "unfinished":
        return (f"{where}{' tie' if p.tied else ''} (median undecided: {p.unfinished} of "
                f"{p.boards} stopped by the budget{' in each' if p.tied else ''})")
    if p.by == "time":
        times = ", ".join(milliseconds(m) for m in p.median_cpu_ms)
        return f"{where} (median {times} ms of CPU; no conflict counts)"
    if p.median_conflicts[0] == 0:
        return "no fill's median board met a conflict"
    if p.tied:
        return f"{where} tie (median {count(p.median_conflicts[0])} conflicts each)"
    return (f"{where} (median {count(p.median_conflicts[0])} conflicts, "
            f"{milliseconds(p.median_cpu_ms[0])} ms of CPU)")


def hardest_table(summary: pd.DataFrame, solver: str) -> pd.DataFrame:
    """One row per encoding, one column per order: each cell names that order's hardest fill
    for `solver` (:func:`peak_words`)."""
    hardest = pd.DataFrame({
        name: {f"N = {p.order}": peak_words(p) for p in peaks}
        for name, peaks in peak_facts(summary, solver).items()
    }).T
    hardest.index.name = "encoding"
    return hardest


def bound_words(fit: Fit) -> str:
    """What the undecided runs do to a fit's exponent, in parentheses (empty without any)."""
    if not fit.censored:
        return ""
    where = orders(fit.affected)
    why = ("some medians are runs the budget stopped" if fit.measure == "median_cpu_ms" else
           "some runs were undecided, and their conflicts stopped counting at the budget")
    if fit.lower_bound:
        return f" (a lower bound: at {where} {why})"
    return (f" (not a bound either way: at {where} {why}, and not all of those orders lie "
            "above the fit's centre)")


def growth_words(fits: Sequence[Fit], solver: str) -> list[str]:
    """One sentence per growth fit (its exponent, interval, R² and orders), or why there is
    none."""
    if not fits:
        return ["The grid has fewer than three orders: no growth is fitted."]
    return [
        f"With the {f.encoding} encoding, {MEASURE_WORDS[f.measure]}"
        + ("" if f.measure == "clauses" else f" of {solver}")
        + (" grow" if f.measure == "clauses" else " grows")
        + f" like N^{f.exponent:.1f} (95 % CI {f.low:.1f} to {f.high:.1f}, "
        f"R² = {f.r_squared:.2f}, {f.points} orders){bound_words(f)}."
        for f in fits
    ]


def usable_words(usable: UsabilityFacts, limit: str) -> str:
    """Where one encoding with one solver stops being usable within `limit` (``the budget of
    20,000 conflicts``), or that it stayed usable."""
    who = f"With {usable.solver}, the {usable.encoding} encoding"
    if usable.order is None:
        return (f"{who} stayed usable up to N = {usable.largest_order}: no cell had half or "
                f"more of its boards left undecided within {limit}.")
    where = ", ".join(f"{percent(a)} given ({out} of {runs})" for a, out, runs in usable.cells)
    return (f"{who} stops being usable at N = {usable.order}: within {limit}, half or more of "
            f"the boards of a cell were undecided at {where}; over the whole order, "
            f"{usable.unfinished} of the {usable.encoding} encoding's {usable.runs} runs were "
            "undecided"
            + "".join(f"; at N = {n}, {out} of {runs}" for n, out, runs in usable.beyond) + ".")


def savings_words(saved: SavingsFacts) -> list[str]:
    """The share of the base encoding's clauses the better one removes per order, and the
    undecided runs of each over the grid."""
    return [
        "Per order (the median over its cells of each cell's median clause count), the "
        f"{saved.better} encoding removes this share of the {saved.base} encoding's clauses: "
        + "; ".join(f"N = {n}: {share * 100:.0f} %" for n, share in saved.removed) + ".",
        f"With {saved.solver}, the {saved.base} encoding left {saved.base_unfinished} of "
        f"{saved.runs} runs of the grid undecided, the {saved.better} encoding "
        f"{saved.better_unfinished} of the same {saved.runs} runs.",
    ]


def reference_words(ref: ReferenceFacts, limit: str) -> str:
    """Our solver against the reference on the same formulas within `limit`, or that the
    reference did not run with that encoding."""
    if not ref.ran:
        return f"{ref.reference} was not run with the {ref.encoding} encoding."
    return (f"With the {ref.encoding} encoding, {ref.solver} decided {ref.solver_decided} and "
            f"{ref.reference} {ref.reference_decided} of the same {ref.runs} runs within "
            f"{limit}; {ref.solver}'s median CPU time was the lower in {ref.solver_lower} of "
            f"{ref.cells} cells (a measurement of this machine; the reference's includes "
            "loading the formula).")


def missed_words(missed: Sequence[MissedBoard], solver: str, reference: str) -> str:
    """The boards `solver` decided and `reference` did not, each with what stopped the
    reference and what `solver` needed (``missed`` not empty)."""
    boards = "; ".join(
        f"N = {m.order}, {percent(m.alpha)} given, seed {m.seed}: it stopped "
        f"({m.status}, {m.stop})"
        + ("" if m.conflicts is None else f" after {m.conflicts:,} conflicts")
        + f" and {milliseconds(m.cpu_ms)} ms of CPU"
        + ("" if m.load_cpu_ms is None else
           f", {milliseconds(m.load_cpu_ms)} of them loading the clauses")
        + f", where {solver} needed"
        + ("" if m.solver_conflicts is None else f" {m.solver_conflicts:,} conflicts and")
        + f" {milliseconds(m.solver_cpu_ms)} ms"
        for m in missed)
    return (f"{reference} did not decide {plural(len(missed), 'board')} that {solver} decided, "
            f"on the same formula under the same budget: {boards}. A budget counts the same "
            "dead ends in both solvers, but the two search differently, so one may need more of "
            "them on a given board.")


def cell_words(cell: CellFacts, max_conflicts: int) -> str:
    """One cell up close: every run's boards solved and undecided, then what the encoding did
    with the same solver on the same boards."""
    if not cell.found:
        return f"The grid has no cell N = {cell.order}, {percent(cell.alpha)} given."
    parts = []
    for run in cell.runs:
        words = f"{run.encoding} with {run.solver}: {run.solved} of {run.boards} solved"
        if run.unfinished:
            words += f", {run.unfinished} undecided"
        if run.median_solved_cpu_ms is not None:
            words += f" (median of the solved {milliseconds(run.median_solved_cpu_ms)} ms of CPU)"
        parts.append(words)
    text = (f"At N = {cell.order} with {percent(cell.alpha)} given, within {max_conflicts:,} "
            "conflicts: " + "; ".join(parts) + ".")
    if cell.better_solved > cell.base_solved:
        return text + (
            f" Same boards, same solver ({cell.solver}), same budget: with the {cell.better} "
            f"encoding it decided {cell.better_solved} of {cell.better_boards} boards, with the "
            f"{cell.base} encoding {cell.base_solved} of {cell.base_boards}: here the encoding "
            "decides whether the board is solved at all.")
    if cell.better_solved == cell.base_solved:
        return text + (f" With {cell.solver}, both encodings decided {cell.base_solved} of "
                       f"{cell.base_boards} boards: in this cell the encoding made no difference "
                       "within the budget.")
    return text + (f" With {cell.solver}, the {cell.base} encoding decided more boards "
                   f"({cell.base_solved}) than the {cell.better} encoding ({cell.better_solved}).")


def large_intro_words(intro: LargeIntroFacts, alphas: Sequence[float], solver: str,
                      max_conflicts: int) -> str:
    """Which larger orders, why one encoding only (the base encoding's size at each), and which
    fills are tried, down to the first `solver` does not decide."""
    counts = [f"{clauses:,} at N = {n}" for n, clauses in intro.sizes]
    counts[0] = counts[0].replace(" at", " clauses at", 1)
    largest = max(clauses for _, clauses in intro.sizes)
    if largest >= 1e6:
        counts[-1] += f" (about {largest / 1e6:.3g} million)"
    if len(alphas) == 1:
        steps = f"One board per order, at {percent(alphas[0])} given."
    else:
        steps = (f"For each order, one board per fill from {percent(alphas[0])} given down "
                 f"({', '.join(percent(a) for a in alphas)}), stopping at the first fill that "
                 f"{solver} does not decide within the grid's budget of {max_conflicts:,} "
                 "conflicts.")
    return (f"At {orders([n for n, _ in intro.sizes])} (the grid stops at N = "
            f"{intro.grid_largest}), the {intro.base} encoding of an empty board would have "
            f"{and_join(counts)}, counted by `sudosat.sudoku.encoding.estimate` as in the size "
            f"table of §7; so only the optimised encoding is tried. {steps}")


STOP_WORDS: dict[str, str] = {
    Verdict.UNKNOWN: "was stopped by the budget",
    Verdict.TIMEOUT: "was stopped by the CPU cap (this machine's doing, not the budget's)",
}
"""How the larger orders' section words the status of the first board not decided."""


def large_words(steps: Sequence[LargeFacts], stopped: LimitFacts, solver: str) -> list[str]:
    """How far down each larger order went, at what size and time, and where it stopped (and
    whether the CPU cap, so the machine, had a say)."""
    sentences = []
    for step in steps:
        if step.lowest is None:
            sentences.append(f"N = {step.order}: {solver} decided no board within the budget.")
            continue
        text = (f"N = {step.order}: down to {percent(step.lowest)} given, {solver} decided "
                f"the board within the budget ({step.clauses:,} clauses, "
                f"{milliseconds(step.solve_cpu_ms)} ms of CPU)")
        if step.stopped_at is not None:
            how = STOP_WORDS.get(str(step.stop_status), f"failed ({step.stop_status})")
            text += f", and {how} at {percent(step.stopped_at)}"
        sentences.append(text + ".")
    if stopped.machine_dependent:
        sentences.append("Where the CPU cap stopped a board, how far that order went depends on "
                         "this machine and its load.")
    return sentences
