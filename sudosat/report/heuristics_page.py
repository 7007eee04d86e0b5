"""The heuristics page: the experiment of :mod:`sudosat.studies.heuristics` as tables,
figures and the facts its sentences state.

The hypothesis is that MOMS branching needs fewer decisions than DLIS and
than dp. The statistics are :mod:`sudosat.studies.heuristics`' own
(:class:`~sudosat.studies.heuristics.Comparison`, Friedman's test); here are
the rest of the facts the notebook words: how the runs ended and what
stopped those that did not finish (the work budget, the same on every
machine, or the CPU cap behind it, which is not), how busy the machine was,
where the unfinished runs are and what they do to the statistics, and the
verdict, or why there is none.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.formats import p_value, ratio
from sudosat.report.plots import PAGE_WIDTH_IN, ReportFigure, panels, styled, tidy_log_ticks
from sudosat.report.scaling_page import invalid_solved_rows, solve_clock_facts
from sudosat.run.results import DECIDED, Verdict
from sudosat.studies.heuristics import (
    MIN_BOTH_FINISHED,
    RIVALS,
    SUBJECT,
    Comparison,
    ExperimentSpec,
    finished,
    grade_medians,
    wide,
)
from sudosat.studies.scaling import BUDGET_STOP_WORDS

__all__ = [
    "MIN_BOTH_FINISHED",
    "DataFacts",
    "FriedmanFacts",
    "HypothesisFacts",
    "UnfinishedFacts",
    "comparison_table",
    "data_facts",
    "decisions_words",
    "friedman_facts",
    "givens_table",
    "grade_medians",
    "heuristics_spec",
    "hypothesis_facts",
    "identical_runs",
    "invalid_solved_rows",
    "plot_distributions",
    "plot_pairs",
    "solve_clock_facts",
    "unfinished_facts",
]


def heuristics_spec(seed: int, max_propagations: int | None, time_limit_ms: float | None,
                    encoding: str, per_grade: int = 0, quick: bool = False) -> ExperimentSpec:
    """The heuristics experiment of the page's parameters (``per_grade``, ``quick`` shrink it)."""
    spec = ExperimentSpec(
        seed=seed, encoding=encoding,
        max_propagations=None if max_propagations is None else int(max_propagations),
        time_limit_ms=None if time_limit_ms is None else float(time_limit_ms))
    if per_grade:
        spec = spec.shrunk(per_grade)
    if quick:
        spec = spec.shrunk(8)
    return spec


@dataclass(frozen=True)
class DataFacts:
    """How many puzzles and runs, how they ended, and when cached ones were measured.

    ``solved`` counts SAT answers (each checked valid by the page);
    ``budget_stops`` the runs the work budget stopped (the same on every
    machine), ``capped`` those the CPU cap stopped (which depend on the
    machine), ``other`` the runs that did not finish for another reason
    (errors), with their reasons; ``measured_at`` is empty when every run was
    measured now.
    """

    puzzles: int
    runs: int
    solved: int
    budget_stops: int
    capped: int
    measured_at: tuple[str, ...]
    other: tuple[str, ...] = ()


def _stops(results: pd.DataFrame) -> pd.Series:
    """Each run's ``stop`` as a string (empty where the rows have none)."""
    if "stop" not in results:
        return pd.Series("", index=results.index)
    return results["stop"].astype("string").fillna("")


def data_facts(results: pd.DataFrame) -> DataFacts:
    """The :class:`DataFacts` of :func:`~sudosat.studies.heuristics.run_heuristics_experiment`."""
    cached = results.loc[results["computed_at"] != "", "computed_at"]
    status, stop = results["status"], _stops(results)
    budget = stop.isin(BUDGET_STOP_WORDS) & ~status.isin(DECIDED)
    capped = status == Verdict.TIMEOUT
    other = results[~status.isin(DECIDED) & ~budget & ~capped]
    return DataFacts(
        puzzles=int(results["puzzle"].nunique()),
        runs=len(results),
        solved=int((status == Verdict.SAT.value).sum()),
        budget_stops=int(budget.sum()),
        capped=int(capped.sum()),
        measured_at=tuple(sorted(set(cached))),
        other=tuple(f"{row.solver} on puzzle {row.puzzle}: {row.status} "
                    f"(stopped: {getattr(row, 'stop', None) or 'not recorded'})"
                    for row in other.itertuples()),
    )


def givens_table(results: pd.DataFrame) -> pd.DataFrame:
    """Per grade: how many puzzles, and the least, median and most givens."""
    puzzles = results.drop_duplicates("puzzle")
    described = puzzles.groupby("grade", sort=False)["givens"].describe()
    return described[["count", "min", "50%", "max"]].rename(columns={"50%": "median"})


@styled
def plot_pairs(
    results: pd.DataFrame, subject: str | None = None, rivals: Sequence[str] | None = None
) -> Figure:
    """Per-puzzle decisions of each rival against `subject` (log-log, +1), one panel each.

    Points above the diagonal are puzzles on which the rival needed more
    decisions. Crosses mark the puzzles on which either did not finish, at the
    counts they had reached when stopped (not what they needed). By default the
    subject and rivals are those the heuristics hypothesis names.
    """
    from matplotlib.lines import Line2D

    subject = subject or SUBJECT
    rivals = tuple(rivals or RIVALS)
    decisions = wide(results, "decisions") + 1
    done = finished(results)
    grades = results.drop_duplicates("puzzle").set_index("puzzle")["grade"]
    names = list(dict.fromkeys(grades))
    # At the page's width, so that its text prints at its own size (8 points and more).
    figure, axes = panels(len(rivals), PAGE_WIDTH_IN / max(len(rivals), 1), 3.9)
    for axis, rival in zip(axes, rivals, strict=True):
        for name in names:
            chosen = grades[grades == name].index
            out = ~(done.loc[chosen, rival] & done.loc[chosen, subject])
            axis.scatter(decisions.loc[chosen, subject][~out], decisions.loc[chosen, rival][~out],
                         s=14, alpha=0.7, label=name)
            axis.scatter(decisions.loc[chosen, subject][out], decisions.loc[chosen, rival][out],
                         s=22, marker="x", color="black")
        top = float(decisions[[subject, rival]].max().max()) * 1.5
        axis.plot([1, top], [1, top], color="grey", linewidth=1)
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel(f"{subject} decisions + 1")
        axis.set_ylabel(f"{rival} decisions + 1")
        axis.set_title(f"{rival} against {subject}")
        axis.grid(True, which="both")
        tidy_log_ticks(axis)
    handles, labels = axes[-1].get_legend_handles_labels()
    handles.append(Line2D([], [], color="black", marker="x", linestyle="none"))
    labels.append("one of the two did not finish")
    figure.legend(handles, labels, loc="outside lower center", ncols=3)
    return figure


@styled
def plot_distributions(results: pd.DataFrame) -> Figure:
    """Decisions of the finished runs (symlog) and CPU time of every run (log) per solver, as
    box plots, one above the other at the page's width; a run that did not finish is drawn at
    the CPU time it had used when stopped."""
    decisions = wide(results, "decisions")
    done = finished(results)
    times = wide(results, "solve_cpu_ms")
    labels = list(decisions.columns)
    figure = ReportFigure(figsize=(PAGE_WIDTH_IN, 5.6), layout="constrained")
    top, bottom = figure.subplots(2, 1)
    top.boxplot([decisions[c][done[c]] for c in labels], tick_labels=labels, showfliers=True)
    top.set_yscale("symlog", linthresh=1.0)
    top.set_ylabel("decisions of\nfinished runs (symlog)")
    bottom.boxplot([times[c].dropna() for c in labels], tick_labels=labels, showfliers=True)
    bottom.set_yscale("log")
    bottom.set_ylabel("CPU time of every run (ms;\nunfinished: when stopped)")
    bottom.set_xlabel("solver")
    for axis in (top, bottom):
        axis.grid(True, axis="y", which="both")
        tidy_log_ticks(axis)
    figure.suptitle("distributions over every puzzle")
    return figure


def identical_runs(results: pd.DataFrame) -> tuple[tuple[str, ...], ...]:
    """Groups of two or more solvers whose runs ended alike on every puzzle: finished on the
    same puzzles with the same decisions, stopped on the same ones (their rows of every table
    and test are then the same)."""
    decisions = wide(results, "decisions")
    done = finished(results)
    signature = {s: (tuple(done[s]), tuple(decisions[s].where(done[s]).fillna(-1)))
                 for s in decisions.columns}
    groups: dict[tuple, list[str]] = {}
    for solver, key in signature.items():
        groups.setdefault(key, []).append(str(solver))
    return tuple(tuple(group) for group in groups.values() if len(group) > 1)


def comparison_table(comparisons: Sequence[Comparison]) -> pd.DataFrame:
    """The comparisons as a table for the page (p-values in scientific notation; a dash for
    what a comparison with too few puzzles finished by both does not compute)."""
    rows = []
    for c in comparisons:
        tested = {
            "W": f"{c.statistic:,.0f}",
            "p (one-sided)": p_value(c.p_value),
            "p (Holm)": p_value(c.p_holm),
            "rank-biserial r": f"{c.rank_biserial:+.2f}",
            "ratio (geo. mean)": ratio(c.ratio),
            "95 % CI": f"{ratio(c.ratio_low)} to {ratio(c.ratio_high)}",
        }
        rows.append(
            {
                "MOMS vs": c.rival,
                "both finished": f"{c.both_finished} of {c.puzzles}",
                "MOMS fewer": c.fewer,
                "MOMS more": c.more,
                "ties": c.ties,
                **{key: value if c.tested else "–" for key, value in tested.items()},
                "rival not finished": c.rival_unfinished,
            }
        )
    return pd.DataFrame(rows).set_index("MOMS vs")


def decisions_words(median: float) -> str:
    """A median count of decisions for a sentence; "not finished" where the median run did
    not finish (an infinite censored median)."""
    return "not finished" if math.isinf(median) else f"{median:g}"


@dataclass(frozen=True)
class UnfinishedFacts:
    """How many runs did not finish, what stopped them, where they are, and what that does to
    the comparisons.

    A run that did not finish is censored
    (:func:`~sudosat.studies.heuristics.censored_decisions`): it ranks above
    every finished run, whatever count it had reached.

    Attributes
    ----------
    unfinished, runs : int
    budget_stops : int
        Of the unfinished runs, those the work budget stopped (the same on every machine).
    capped : int
        Those the CPU cap stopped (machine-dependent; none in a run as intended).
    majority : tuple of (grade, ((solver, unfinished), ...), runs per solver)
        The grades where unfinished runs are most of some solver's runs, with those solvers.
    subject : str
    pairs : tuple of (rival, only the rival did not finish, the subject did not finish)
        Per rival the hypothesis names: puzzles counted in the subject's favour
        for the rival's unfinished run alone, and puzzles counted against the
        subject (or a tie, where the rival did not finish either).
    """

    unfinished: int
    runs: int
    budget_stops: int
    capped: int
    majority: tuple[tuple[str, tuple[tuple[str, int], ...], int], ...]
    subject: str
    pairs: tuple[tuple[str, int, int], ...]


def unfinished_facts(results: pd.DataFrame, subject: str = SUBJECT,
                     rivals: Sequence[str] = RIVALS) -> UnfinishedFacts:
    """The :class:`UnfinishedFacts` of the experiment's rows."""
    out = ~results["status"].isin(DECIDED)
    grouped = results.assign(out=out).groupby(["grade", "solver"], sort=False)["out"]
    share = pd.DataFrame({"out": grouped.sum(), "runs": grouped.size()})
    majority = share[share["out"] * 2 > share["runs"]]
    where = tuple(
        (str(grade), tuple((str(solver), int(row.out)) for (_, solver), row in part.iterrows()),
         int(part["runs"].iloc[0]))
        for grade, part in majority.groupby(level="grade", sort=False)
    )
    done = finished(results)
    mine = ~done[subject]
    pairs = tuple((rival, int((~done[rival] & ~mine).sum()), int(mine.sum())) for rival in rivals)
    facts = data_facts(results.assign(computed_at=""))
    return UnfinishedFacts(int(out.sum()), len(results), facts.budget_stops, facts.capped, where,
                           subject, pairs)


@dataclass(frozen=True)
class FriedmanFacts:
    """Friedman's test over every solver on the same puzzles, and whether p < `level`.

    ``finished`` counts the puzzles every solver finished; the test counts
    (:attr:`tested`) only with at least :data:`MIN_BOTH_FINISHED` of them.
    """

    statistic: float
    p: float
    solvers: int
    puzzles: int
    level: float = 0.05
    finished: int = 0

    @property
    def tested(self) -> bool:
        """Enough puzzles finished by every solver, and something to rank."""
        return self.finished >= MIN_BOTH_FINISHED and not math.isnan(self.p)

    @property
    def differ(self) -> bool:
        """The solvers differ in decisions beyond chance at `level` (tested only)."""
        return self.tested and self.p < self.level


def friedman_facts(omnibus: tuple[float, float, int, int, int],
                   level: float = 0.05) -> FriedmanFacts:
    """:func:`~sudosat.studies.heuristics.friedman`'s result as :class:`FriedmanFacts`."""
    statistic, p, solvers, puzzles, done = omnibus
    return FriedmanFacts(statistic, p, solvers, puzzles, level, done)


@dataclass(frozen=True)
class HypothesisFacts:
    """The verdict on the hypothesis over the rivals it names, or why there is none.

    Attributes
    ----------
    comparisons : tuple of Comparison
        The named rivals' comparisons, in the order compared.
    level : float
    failed : tuple of str
        The tested rivals whose part does not hold (:meth:`Comparison.significant`).
    untested : tuple of str
        The rivals with too few puzzles finished by both MOMS and them
        (:attr:`Comparison.tested`): with any, no verdict is stated.
    """

    comparisons: tuple[Comparison, ...]
    level: float
    failed: tuple[str, ...]
    untested: tuple[str, ...] = ()

    @property
    def decided(self) -> bool:
        """A verdict can be stated: every named rival was tested, and there is one."""
        return bool(self.comparisons) and not self.untested

    @property
    def holds(self) -> bool:
        """A verdict is stated and every named rival's part holds."""
        return self.decided and not self.failed


def hypothesis_facts(comparisons: Sequence[Comparison], rivals: Sequence[str] = RIVALS,
                     level: float = 0.05) -> HypothesisFacts:
    """The :class:`HypothesisFacts` of :func:`~sudosat.studies.heuristics.compare`'s output."""
    named = tuple(c for c in comparisons if c.rival in rivals)
    untested = tuple(c.rival for c in named if not c.tested)
    failed = tuple(c.rival for c in named if c.tested and not c.significant(level))
    return HypothesisFacts(named, level, failed, untested)
