"""The heuristics page's longer paragraphs, worded from the facts of
:mod:`sudosat.report.heuristics_page`.

The notebook keeps its short sentences; the paragraphs that branch on the
data live here, where the tests and mypy see them: what the unfinished runs
are and what the statistics do with them (:func:`unfinished_words`), how busy
the machine was (:func:`load_words`), and the conclusion, one sentence per
comparison the hypothesis names and the verdict or why there is none
(:func:`conclusion_words`). Each function only words its facts; the verdict
itself is :func:`~sudosat.report.heuristics_page.hypothesis_facts`'.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudosat.report.clocks import ClockFacts
from sudosat.report.formats import and_join, p_value, plural, ratio
from sudosat.report.heuristics_page import (
    MIN_BOTH_FINISHED,
    DataFacts,
    HypothesisFacts,
    UnfinishedFacts,
    decisions_words,
)
from sudosat.report.scaling_words import clock_words
from sudosat.studies.heuristics import Comparison

__all__ = [
    "alike_words",
    "comparison_words",
    "conclusion_words",
    "direction_words",
    "grade_words",
    "load_words",
    "unfinished_words",
    "verdict_words",
]


def unfinished_words(cut: UnfinishedFacts, budget: str, cap: str) -> list[str]:
    """The sentences on the runs that did not finish: how many, what stopped them, where they
    are most of a solver's runs, and how the comparisons the hypothesis names count them.

    `budget` and `cap` name the limits as the page words them (``a budget of 60,000
    propagations``, ``a CPU-time cap of 20,000 ms``).
    """
    subject = cut.subject.upper()
    if not cut.unfinished:
        return [f"All {cut.runs} runs finished within {budget}: every decision count here is "
                "the one the search needed to finish."]
    sentences = [f"{cut.unfinished} of the {cut.runs} runs did not finish: {cut.budget_stops} "
                 f"used up {budget}, {cut.capped} reached {cap}."]
    if cut.capped:
        sentences.append(
            f"The {plural(cut.capped, 'run')} the CPU cap stopped depend on this machine and "
            "its load (CPU time is not the same on a busy machine): with them, which runs "
            "finished, and the verdict below, could differ on another machine. A longer cap "
            "(the parameter `time_limit_ms`) leaves the budget as the only limit.")
    if cut.majority:
        sentences.append("Unfinished runs are most of a solver's runs in " + and_join(
            f"“{grade}” ({', '.join(f'{solver} {n}' for solver, n in solvers)} of {runs})"
            for grade, solvers, runs in cut.majority) + ".")
    else:
        sentences.append("No solver left most of its runs unfinished in any grade.")
    pairs = "; ".join(f"against {rival}, {plural(only, 'puzzle')} on which only {rival} "
                      f"did not finish (counted in {subject}'s favour) and {mine} on which "
                      f"{subject} did not (counted against {subject}, or a tie where {rival} did "
                      "not finish either)"
                      for rival, only, mine in cut.pairs)
    sentences.append(
        "They are censored, not counted with the decisions they had made when stopped: in the "
        "medians, the counts and the tests each ranks above every finished run, tied with the "
        "other runs that did not finish, so an unfinished run never counts in its solver's "
        f"favour. For the comparisons the hypothesis names: {pairs}.")
    return sentences


def load_words(busy: ClockFacts, data: DataFacts) -> str:
    """How busy the machine was while the experiment's solvers ran, and what that stretches:
    the times, not which runs finished (but for the runs the CPU cap stopped)."""
    capped = ", except the runs the CPU cap stopped." if data.capped else "."
    return clock_words(busy, bool(data.measured_at), "the times above",
                       "which runs finished: those rest on the propagation budget" + capped)


_NEGATIVE_FIRST = frozenset({"jw1", "dlis", "dlcs"})


def alike_words(groups: Sequence[Sequence[str]], puzzles: int, encoding: str) -> list[str]:
    """Why some solvers' rows are the same: they ran alike on every puzzle (from
    :func:`~sudosat.report.heuristics_page.identical_runs`), and, for the literal-counting
    heuristics on the course encoding, why they choose alike."""
    said = []
    for group in groups:
        text = (f"{and_join(group)} ran alike on all {puzzles} puzzles: they finished on the "
                "same puzzles, with the same number of decisions on each, so their rows of the "
                "tables and tests above are the same.")
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


def verdict_words(verdict: HypothesisFacts, data: DataFacts, limits: str) -> list[str]:
    """The verdict on the hypothesis, or why there is none, and whether it depends on the
    machine; `limits` names the budget and the cap as the page words them."""
    if not verdict.decided and data.puzzles < MIN_BOTH_FINISHED:
        return [
            f"Too few runs finished for a verdict: the experiment has {data.puzzles} puzzles, "
            f"fewer than the {MIN_BOTH_FINISHED} a test needs even if every run finished, so "
            "this page states no verdict on H. More puzzles (the parameter `per_grade`) give a "
            "test."]
    if not verdict.decided:
        return [
            f"Too few runs finished for a verdict: the comparison with "
            f"{' and with '.join(verdict.untested)} could not be tested within {limits}, so "
            "this page states no verdict on H. A larger budget (the parameter "
            "`max_propagations`) lets more runs finish"
            + (", and a longer cap (`time_limit_ms`) keeps the cap from stopping them first."
               if data.capped else ".")]
    if verdict.holds:
        sentences = [
            f"The hypothesis holds at the {verdict.level:g} level (Holm-adjusted): MOMS needs "
            f"fewer decisions than {' and than '.join(c.rival for c in verdict.comparisons)} on "
            "these puzzles."]
    else:
        sentences = [
            f"The hypothesis does not hold at the {verdict.level:g} level (Holm-adjusted): the "
            f"data do not show MOMS needing fewer decisions than {' or '.join(verdict.failed)}."]
        sentences += [
            f"Against {c.rival} the geometric mean of the ratios is above 1 (its interval "
            f"excludes 1), while MOMS made fewer decisions on {c.fewer} puzzles and more on "
            f"{c.more}; the signed-rank test, which weighs every puzzle's rank and not its "
            "ratio, does not reach significance: the evidence is too weak to accept that part "
            "of the hypothesis."
            for c in verdict.comparisons if c.rival in verdict.failed and c.interval_favours > 0
        ]
    sentences.append(
        "Every run that did not finish was stopped by the budget, so this verdict is the same "
        "on any machine and at any load." if not data.capped else
        f"The CPU cap stopped {plural(data.capped, 'run')}: which runs finished, and so this "
        "verdict, depend on this machine and its load.")
    return sentences


def conclusion_words(verdict: HypothesisFacts, data: DataFacts, budget: str,
                     cap: str) -> list[str]:
    """The conclusion: one sentence per comparison the hypothesis names
    (:func:`comparison_words`), then :func:`verdict_words` within `budget` and `cap`."""
    return ([comparison_words(c) for c in verdict.comparisons]
            + verdict_words(verdict, data, f"{budget} and {cap}"))
