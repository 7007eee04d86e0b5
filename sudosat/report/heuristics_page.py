"""The heuristics page: the experiment of :mod:`sudosat.studies.heuristics` as tables,
figures and the sentences that branch on its rows (those that do not are the notebook's own).

The hypothesis is that MOMS branching needs fewer decisions than DLIS and than dp. The
statistics are :mod:`sudosat.studies.heuristics`' own; here they are worded with the rest
the page states: how the runs ended and what stopped those that did not finish (the work
budget, the same on every machine, or the CPU cap behind it, which is not), how busy the
machine was, where the unfinished runs are, and the verdict, or why there is none.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.formats import and_join, milliseconds, p_value, plural, ratio
from sudosat.report.plots import PAGE_WIDTH_IN, ReportFigure, panels, styled, tidy_log_ticks
from sudosat.report.scaling_page import clock_words, measured_words, stops
from sudosat.run.results import DECIDED, Verdict
from sudosat.studies.heuristics import (
    MIN_BOTH_FINISHED,
    RIVALS,
    SUBJECT,
    Comparison,
    ExperimentSpec,
    finished,
    friedman,
    wide,
)
from sudosat.studies.scaling import BUDGET_STOP_WORDS


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


def limit_words(spec: ExperimentSpec) -> tuple[str, str]:
    """The budget and the cap of every run as the page's sentences name them (``a budget of
    60,000 propagations``, ``a CPU-time cap of 20,000 ms``), or that there is none."""
    budget = ("no budget" if spec.max_propagations is None else
              f"a budget of {spec.max_propagations:,} propagations")
    cap = ("no CPU-time cap" if spec.time_limit_ms is None else
           f"a CPU-time cap of {milliseconds(spec.time_limit_ms)} ms")
    return budget, cap


def _stopped(results: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Which runs the work budget stopped (the same on every machine), and which the CPU cap
    stopped (they depend on the machine)."""
    budget = stops(results).isin(BUDGET_STOP_WORDS) & ~results["status"].isin(DECIDED)
    return budget, results["status"] == Verdict.TIMEOUT


def data_words(results: pd.DataFrame) -> str:
    """How many puzzles and runs, how they ended (the page checks each SAT answer; stopped by
    the budget, the CPU cap or another reason), and when the cached ones were measured."""
    budget, capped = _stopped(results)
    other = results[~results["status"].isin(DECIDED) & ~budget & ~capped]
    why = "; ".join(f"{row.solver} on puzzle {row.puzzle}: {row.status} "
                    f"(stopped: {getattr(row, 'stop', None) or 'not recorded'})"
                    for row in other.itertuples())
    if why:
        why = f"; not finished for another reason: {why}"
    cached = results.loc[results["computed_at"] != "", "computed_at"]
    when = f" (read from the cache, {measured_words(sorted(set(cached)))})" if len(cached) else ""
    return (f"{results['puzzle'].nunique()} puzzles, {len(results)} runs: "
            f"{int((results['status'] == Verdict.SAT.value).sum())} solved, each checked valid; "
            f"{int(budget.sum())} stopped by the budget, {int(capped.sum())} by the CPU cap"
            f"{why}{when}.")


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


def unfinished_words(results: pd.DataFrame, budget: str, cap: str, subject: str = SUBJECT,
                     rivals: Sequence[str] = RIVALS) -> list[str]:
    """The runs that did not finish: how many, what stopped them (`budget` and `cap` as
    :func:`limit_words` names them), the grades where they are most of a solver's runs, and how
    the comparisons of `subject` with the named `rivals` count them (censored)."""
    out = ~results["status"].isin(DECIDED)
    if not out.any():
        return [f"All {len(results)} runs finished within {budget}: every decision count here "
                "is the one the search needed to finish."]
    stopped, capped = _stopped(results)
    sentences = [f"{int(out.sum())} of the {len(results)} runs did not finish: "
                 f"{int(stopped.sum())} used up {budget}, {int(capped.sum())} reached {cap}."]
    if capped.any():
        sentences.append(
            f"The {plural(int(capped.sum()), 'run')} the CPU cap stopped depend on this machine "
            "and its load (CPU time is not the same on a busy machine): with them, which runs "
            "finished, and the verdict below, could differ on another machine. A longer cap "
            "(the parameter `time_limit_ms`) leaves the budget as the only limit.")
    grouped = results.assign(out=out).groupby(["grade", "solver"], sort=False)["out"]
    share = pd.DataFrame({"out": grouped.sum(), "runs": grouped.size()})
    majority = share[share["out"] * 2 > share["runs"]]
    if majority.empty:
        sentences.append("No solver left most of its runs unfinished in any grade.")
    else:
        sentences.append("Unfinished runs are most of a solver's runs in " + and_join(
            f"“{grade}” ("
            + ", ".join(f"{solver} {int(row.out)}" for (_, solver), row in part.iterrows())
            + f" of {int(part['runs'].iloc[0])})"
            for grade, part in majority.groupby(level="grade", sort=False)) + ".")
    done = finished(results)
    name, mine = subject.upper(), int((~done[subject]).sum())
    pairs = "; ".join(f"against {rival}, "
                      f"{plural(int((~done[rival] & done[subject]).sum()), 'puzzle')} on which "
                      f"only {rival} did not finish (counted in {name}'s favour) and {mine} on "
                      f"which {name} did not (counted against {name}, or a tie where {rival} "
                      "did not finish either)"
                      for rival in rivals)
    sentences.append(
        "They are censored, not counted with the decisions they had made when stopped: in the "
        "medians, the counts and the tests each ranks above every finished run, tied with the "
        "other runs that did not finish, so an unfinished run never counts in its solver's "
        f"favour. For the comparisons the hypothesis names: {pairs}.")
    return sentences


def load_words(results: pd.DataFrame) -> str:
    """How busy the machine was while the experiment's solvers ran, and what that stretches:
    the times, not which runs finished (but for the runs the CPU cap stopped)."""
    capped = ", except the runs the CPU cap stopped." if _stopped(results)[1].any() else "."
    return clock_words(results, "the times above",
                       "which runs finished: those rest on the propagation budget" + capped)


_NEGATIVE_FIRST = frozenset({"jw1", "dlis", "dlcs"})


def alike_words(results: pd.DataFrame, encoding: str) -> list[str]:
    """One sentence per group of solvers whose runs ended alike on every puzzle: finished on
    the same puzzles with the same decisions, stopped on the same ones (their rows of every
    table and test are then the same); and, for the literal-counting heuristics on the course
    encoding, why they choose alike. Empty when no two solvers ran alike."""
    decisions, done = wide(results, "decisions"), finished(results)
    groups: dict[tuple, list[str]] = {}
    for solver in decisions.columns:
        alike = (tuple(done[solver]), tuple(decisions[solver].where(done[solver]).fillna(-1)))
        groups.setdefault(alike, []).append(str(solver))
    said = []
    for group in (group for group in groups.values() if len(group) > 1):
        text = (f"{and_join(group)} ran alike on all {results['puzzle'].nunique()} puzzles: they "
                "finished on the same puzzles, with the same number of decisions on each, so "
                "their rows of the tables and tests above are the same.")
        if encoding == "course" and set(group) <= _NEGATIVE_FIRST:
            text += (
                " In the course encoding a negative literal occurs only in two-literal clauses and "
                "a positive one in a single clause (its cell's), so the literal in the most "
                "active clauses (dlis), the literal of largest Jeroslow-Wang weight (jw1: a "
                "quarter for each two-literal clause) and the heavier polarity of the variable in "
                "the most clauses (dlcs) each pick a negative literal of the most two-literal "
                "clauses: they rank the choices alike.")
        said.append(text)
    return said


def friedman_words(results: pd.DataFrame, level: float = 0.05) -> str:
    """Friedman's test over every solver on the same puzzles, and whether they differ at
    `level`; not run with too few puzzles finished by every solver, or nothing to rank."""
    statistic, p, solvers, puzzles, done = friedman(results)
    if done < MIN_BOTH_FINISHED or math.isnan(p):
        return (f"Friedman's test over the {solvers} solvers is not run: {done} of the "
                f"{puzzles} puzzles were finished by every solver, fewer than the "
                f"{MIN_BOTH_FINISHED} it needs.")
    return (f"Friedman's test over the {solvers} solvers on the same {puzzles} puzzles "
            f"(unfinished runs censored): chi² = {statistic:,.1f}, p = {p_value(p)} — the "
            f"solvers {'do' if p < level else 'do not'} differ in decisions beyond chance.")


def direction_words(c: Comparison) -> str:
    """What the counts and the ratio's interval say together, without going beyond either."""
    if c.interval_favours == 0:
        return "the interval includes 1 (no evidence of a difference either way)"
    said = ("the interval excludes 1 in MOMS's favour" if c.interval_favours > 0 else
            f"the interval excludes 1 in {c.rival}'s favour")
    if c.counts_favour == c.interval_favours == 1:
        return "MOMS needed fewer decisions on more puzzles than more, and the interval excludes 1"
    if c.counts_favour == c.interval_favours == -1:
        return "MOMS needed more decisions on more puzzles than fewer, and the interval excludes 1"
    if c.counts_favour == 0:
        return f"{said}, though MOMS needed fewer decisions on as many puzzles as it needed more"
    side, other = ("fewer", "more") if c.counts_favour == 1 else ("more", "fewer")
    return (f"mixed: {said}, but MOMS needed {side} decisions on more puzzles "
            f"({max(c.fewer, c.more)}) than it needed {other} ({min(c.fewer, c.more)})")


def grade_words(c: Comparison) -> str:
    """Where MOMS's median decisions per grade are lower, higher or equal to the rival's (a
    clause that starts with a space and ends with a semicolon; empty without grades)."""
    groups: dict[str, list[str]] = {"lower": [], "higher": [], "equal": []}
    for grade, mine, theirs in c.grade_medians:
        word = "lower" if mine < theirs else "higher" if mine > theirs else "equal"
        ours, their = decisions_words(mine), decisions_words(theirs)
        groups[word].append(f"“{grade}” ({ours})" if word == "equal" else
                            f"“{grade}” ({ours} vs {their})")
    # the rival named in the tie too: the same grade can tie against every rival
    said = {"lower": "lower in", "higher": "higher in", "equal": f"the same as {c.rival}'s in"}
    parts = [f"{said[word]} {and_join(grades)}" for word, grades in groups.items() if grades]
    return (f" MOMS's median decisions per grade, against {c.rival}'s: " + "; ".join(parts) + ";"
            if parts else "")


def comparison_words(c: Comparison) -> str:
    """MOMS against one rival: the counts, the test and its effect sizes, or why it was not
    tested, with the runs of each that did not finish."""
    if not c.tested:
        return (f"Against {c.rival}: MOMS and {c.rival} both finished on {c.both_finished} of "
                f"{c.puzzles} puzzles, fewer than the {MIN_BOTH_FINISHED} a test needs, so it "
                f"is not tested (runs not finished: MOMS {c.subject_unfinished}, {c.rival} "
                f"{c.rival_unfinished}).")
    return (f"Against {c.rival}: MOMS made fewer decisions on {c.fewer} of {c.puzzles} puzzles, "
            f"more on {c.more}, as many on {c.ties};{grade_words(c)} Wilcoxon signed-rank "
            f"(one-sided) p = {p_value(c.p_value)}, Holm-adjusted p = {p_value(c.p_holm)}; "
            f"rank-biserial r = {c.rank_biserial:+.2f}; {c.rival} needed {ratio(c.ratio)} "
            "times MOMS's decisions (geometric mean of the ratios of decisions + 1 over the "
            f"{c.both_finished} puzzles both finished; 95 % CI {ratio(c.ratio_low)} to "
            f"{ratio(c.ratio_high)}): {direction_words(c)}; runs not finished: MOMS "
            f"{c.subject_unfinished}, {c.rival} {c.rival_unfinished}.")


def verdict_words(comparisons: Sequence[Comparison], puzzles: int, capped: int, limits: str,
                  rivals: Sequence[str] = RIVALS, level: float = 0.05) -> list[str]:
    """The verdict on the hypothesis over the `rivals` it names (stated only when each was
    tested; it holds when each part is significant at `level`), or why there is none, and
    whether it depends on the machine (`capped`: the runs the CPU cap stopped); `limits` names
    the budget and the cap as the page words them."""
    named = [c for c in comparisons if c.rival in rivals]
    untested = [c.rival for c in named if not c.tested]
    failed = [c.rival for c in named if c.tested and not c.significant(level)]
    if (untested or not named) and puzzles < MIN_BOTH_FINISHED:
        return [
            f"Too few runs finished for a verdict: the experiment has {puzzles} puzzles, "
            f"fewer than the {MIN_BOTH_FINISHED} a test needs even if every run finished, so "
            "this page states no verdict on H. More puzzles (the parameter `per_grade`) give a "
            "test."]
    if untested or not named:
        return [
            f"Too few runs finished for a verdict: the comparison with "
            f"{' and with '.join(untested)} could not be tested within {limits}, so "
            "this page states no verdict on H. A larger budget (the parameter "
            "`max_propagations`) lets more runs finish"
            + (", and a longer cap (`time_limit_ms`) keeps the cap from stopping them first."
               if capped else ".")]
    if not failed:
        sentences = [
            f"The hypothesis holds at the {level:g} level (Holm-adjusted): MOMS needs "
            f"fewer decisions than {' and than '.join(c.rival for c in named)} on "
            "these puzzles."]
    else:
        sentences = [
            f"The hypothesis does not hold at the {level:g} level (Holm-adjusted): the "
            f"data do not show MOMS needing fewer decisions than {' or '.join(failed)}."]
        sentences += [
            f"Against {c.rival} the geometric mean of the ratios is above 1 (its interval "
            f"excludes 1), while MOMS made fewer decisions on {c.fewer} puzzles and more on "
            f"{c.more}; the signed-rank test, which weighs every puzzle's rank and not its "
            "ratio, does not reach significance: the evidence is too weak to accept that part "
            "of the hypothesis."
            for c in named if c.rival in failed and c.interval_favours > 0
        ]
    sentences.append(
        "Every run that did not finish was stopped by the budget, so this verdict is the same "
        "on any machine and at any load." if not capped else
        f"The CPU cap stopped {plural(capped, 'run')}: which runs finished, and so this "
        "verdict, depend on this machine and its load.")
    return sentences


def conclusion_words(comparisons: Sequence[Comparison], results: pd.DataFrame, budget: str,
                     cap: str) -> list[str]:
    """The conclusion: one sentence per comparison the hypothesis names
    (:func:`comparison_words`), then :func:`verdict_words` within `budget` and `cap`."""
    capped = int(_stopped(results)[1].sum())
    return ([comparison_words(c) for c in comparisons if c.rival in RIVALS]
            + verdict_words(comparisons, results["puzzle"].nunique(), capped,
                            f"{budget} and {cap}"))
