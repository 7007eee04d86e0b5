"""The heuristics page: the experiment of :mod:`sudosat.studies.heuristics` as tables,
figures and the facts its sentences state.

The hypothesis is that MOMS branching needs fewer decisions than DLIS and
than dp. The statistics are :mod:`sudosat.studies.heuristics`' own
(:class:`~sudosat.studies.heuristics.Comparison`, Friedman's test); here are
the rest of the facts the notebook words: how the runs ended, where the
time-outs are and what they do to the statistics, and the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.formats import p_value, ratio
from sudosat.report.plots import legend_outside, panels, styled, tidy_log_ticks
from sudosat.report.scaling_page import invalid_solved_rows
from sudosat.run.results import Verdict
from sudosat.studies.heuristics import (
    RIVALS,
    SUBJECT,
    Comparison,
    ExperimentSpec,
    wide,
)

__all__ = [
    "DataFacts",
    "FriedmanFacts",
    "HypothesisFacts",
    "TimeoutFacts",
    "comparison_table",
    "data_facts",
    "friedman_facts",
    "givens_table",
    "grade_medians",
    "heuristics_spec",
    "hypothesis_facts",
    "invalid_solved_rows",
    "plot_distributions",
    "plot_pairs",
    "timeout_facts",
]


def heuristics_spec(seed: int, time_limit_ms: float, encoding: str, per_grade: int = 0,
                    quick: bool = False) -> ExperimentSpec:
    """The heuristics experiment of the page's parameters (``per_grade``, ``quick`` shrink it)."""
    spec = ExperimentSpec(seed=seed, time_limit_ms=float(time_limit_ms), encoding=encoding)
    if per_grade:
        spec = spec.shrunk(per_grade)
    if quick:
        spec = spec.shrunk(8)
    return spec


@dataclass(frozen=True)
class DataFacts:
    """How many puzzles and runs, how they ended, and when cached ones were measured.

    ``solved`` counts SAT answers (each checked valid by the page);
    ``measured_at`` is empty when every run was measured now.
    """

    puzzles: int
    runs: int
    solved: int
    timeouts: int
    measured_at: tuple[str, ...]


def data_facts(results: pd.DataFrame) -> DataFacts:
    """The :class:`DataFacts` of :func:`~sudosat.studies.heuristics.run_heuristics_experiment`."""
    cached = results.loc[results["computed_at"] != "", "computed_at"]
    return DataFacts(
        puzzles=int(results["puzzle"].nunique()),
        runs=len(results),
        solved=int((results["status"] == "SAT").sum()),
        timeouts=int((results["status"] == Verdict.TIMEOUT).sum()),
        measured_at=tuple(sorted(set(cached))),
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
    decisions; crosses mark the rival's time-outs (a lower bound). By default
    the subject and rivals are those the heuristics hypothesis names.
    """
    subject = subject or SUBJECT
    rivals = tuple(rivals or RIVALS)
    decisions = wide(results, "decisions") + 1
    status = wide(results, "status")
    grades = results.drop_duplicates("puzzle").set_index("puzzle")["grade"]
    names = list(dict.fromkeys(grades))
    figure, axes = panels(len(rivals), 4.8, 4.4)
    for axis, rival in zip(axes, rivals, strict=True):
        for name in names:
            chosen = grades[grades == name].index
            out = status.loc[chosen, rival] == Verdict.TIMEOUT
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
        axis.set_title(f"{rival} against {subject} (x: {rival} timed out)")
        axis.grid(True, which="both")
        tidy_log_ticks(axis)
    legend_outside(axes[-1], fontsize="x-small")
    return figure


@styled
def plot_distributions(results: pd.DataFrame, time_limit_ms: float) -> Figure:
    """Decisions (symlog) and time (log, time-outs at T) per solver, as box plots."""
    decisions = wide(results, "decisions")
    times = wide(results, "ms").clip(upper=time_limit_ms)
    labels = list(decisions.columns)
    figure, (left, right) = panels(2, 5.5, 4.0)
    left.boxplot([decisions[c] for c in labels], tick_labels=labels, showfliers=True)
    left.set_yscale("symlog", linthresh=1.0)
    left.set_ylabel("decisions (symlog: 0 shown)")
    right.boxplot([times[c] for c in labels], tick_labels=labels, showfliers=True)
    right.axhline(time_limit_ms, color="grey", linestyle="--", linewidth=1)
    right.set_yscale("log")
    right.set_ylabel("time (ms; time-outs at T, dashed)")
    for axis in (left, right):
        axis.grid(True, axis="y", which="both")
        tidy_log_ticks(axis)
    figure.suptitle("distributions over every puzzle")
    return figure


def comparison_table(comparisons: Sequence[Comparison]) -> pd.DataFrame:
    """The comparisons as a table for the page (p-values in scientific notation)."""
    rows = []
    for c in comparisons:
        rows.append(
            {
                "MOMS vs": c.rival,
                "puzzles": c.puzzles,
                "MOMS fewer": c.fewer,
                "MOMS more": c.more,
                "ties": c.ties,
                "W": f"{c.statistic:,.0f}",
                "p (one-sided)": p_value(c.p_value),
                "p (Holm)": p_value(c.p_holm),
                "rank-biserial r": f"{c.rank_biserial:+.2f}",
                "ratio (geo. mean)": ratio(c.ratio),
                "95 % CI": f"{ratio(c.ratio_low)} to {ratio(c.ratio_high)}",
                "rival time-outs": c.rival_timeouts,
            }
        )
    return pd.DataFrame(rows).set_index("MOMS vs")


def grade_medians(results: pd.DataFrame, subject: str = SUBJECT,
                  rivals: Sequence[str] = RIVALS) -> list[tuple[str, dict[str, float]]]:
    """Per grade (in the results' order), the median decisions of `subject`, then each rival."""
    medians = results.groupby(["grade", "solver"], sort=False)["decisions"].median()
    return [
        (str(grade), {name: float(medians[(grade, name)]) for name in (subject, *rivals)})
        for grade in dict.fromkeys(results["grade"])
    ]


@dataclass(frozen=True)
class TimeoutFacts:
    """How many runs reached T, where they are, and what that does to the comparisons.

    A run cut at the wall-clock limit T stops at a number of decisions that
    depends on the machine's speed; the statistics do not treat it as
    censored: it enters with the decisions made by T, a lower bound.

    Attributes
    ----------
    timeouts, runs : int
    time_limit_ms : float
    majority : tuple of (grade, ((solver, time-outs), ...), runs per solver)
        The grades where time-outs are most of some solver's runs, with those solvers.
    subject : str
    pairs : tuple of (rival, only the rival timed out, the subject timed out)
        Per rival the hypothesis names: puzzles on which the bound can only
        understate the rival, and puzzles on which the direction is unknown.
    """

    timeouts: int
    runs: int
    time_limit_ms: float
    majority: tuple[tuple[str, tuple[tuple[str, int], ...], int], ...]
    subject: str
    pairs: tuple[tuple[str, int, int], ...]


def timeout_facts(results: pd.DataFrame, time_limit_ms: float, subject: str = SUBJECT,
                  rivals: Sequence[str] = RIVALS) -> TimeoutFacts:
    """The :class:`TimeoutFacts` of the experiment's rows under the limit `time_limit_ms`."""
    timeout = results["status"] == Verdict.TIMEOUT
    grouped = results.assign(timeout=timeout).groupby(["grade", "solver"], sort=False)["timeout"]
    share = pd.DataFrame({"out": grouped.sum(), "runs": grouped.size()})
    majority = share[share["out"] * 2 > share["runs"]]
    where = tuple(
        (str(grade), tuple((str(solver), int(row.out)) for (_, solver), row in part.iterrows()),
         int(part["runs"].iloc[0]))
        for grade, part in majority.groupby(level="grade", sort=False)
    )
    status = wide(results, "status")
    mine = status[subject] == Verdict.TIMEOUT
    pairs = tuple(
        (rival, int(((status[rival] == Verdict.TIMEOUT) & ~mine).sum()), int(mine.sum()))
        for rival in rivals
    )
    return TimeoutFacts(int(timeout.sum()), len(results), float(time_limit_ms), where, subject,
                        pairs)


@dataclass(frozen=True)
class FriedmanFacts:
    """Friedman's test over every solver on the same puzzles, and whether p < `level`."""

    statistic: float
    p: float
    solvers: int
    puzzles: int
    level: float = 0.05

    @property
    def differ(self) -> bool:
        """The solvers differ in decisions beyond chance at `level`."""
        return self.p < self.level


def friedman_facts(omnibus: tuple[float, float, int, int], level: float = 0.05) -> FriedmanFacts:
    """:func:`~sudosat.studies.heuristics.friedman`'s result as :class:`FriedmanFacts`."""
    statistic, p, solvers, puzzles = omnibus
    return FriedmanFacts(statistic, p, solvers, puzzles, level)


@dataclass(frozen=True)
class HypothesisFacts:
    """The verdict on the hypothesis over the rivals it names.

    Attributes
    ----------
    comparisons : tuple of Comparison
        The named rivals' comparisons, in the order compared.
    level : float
    failed : tuple of str
        The rivals whose part does not hold (:meth:`Comparison.significant`).
    """

    comparisons: tuple[Comparison, ...]
    level: float
    failed: tuple[str, ...]

    @property
    def holds(self) -> bool:
        """Every named rival's part holds, and there is one."""
        return bool(self.comparisons) and not self.failed


def hypothesis_facts(comparisons: Sequence[Comparison], rivals: Sequence[str] = RIVALS,
                     level: float = 0.05) -> HypothesisFacts:
    """The :class:`HypothesisFacts` of :func:`~sudosat.studies.heuristics.compare`'s output."""
    named = tuple(c for c in comparisons if c.rival in rivals)
    failed = tuple(c.rival for c in named if not c.significant(level))
    return HypothesisFacts(named, level, failed)
