"""The heuristics experiment: does MOMS branching need fewer decisions than DLIS and than dp?

The ``SAT -Sn`` assignment asks for two branching heuristics and an experiment
that tests a stated hypothesis. This module builds the puzzle set (9 x 9 boards
from the generator, graded from minimal unique puzzles to well-filled ones,
fixed seeds), runs ``dp``, every ``dpll`` heuristic and ``cdcl`` on each of them
under one time limit, and tests the hypothesis with paired non-parametric
statistics from scipy: Friedman's test over all solvers, then one-sided
Wilcoxon signed-rank tests of MOMS against each other solver (Holm-adjusted),
the matched-pairs rank-biserial correlation as effect size, and bootstrap
confidence intervals (``scipy.stats.bootstrap``) for the median ratio of
decisions.

A run that reaches T enters with the decisions it had made by then, a lower
bound of what it needed that depends on the machine's speed (it is not treated
as censored; :func:`timeout_sentences` counts such runs): where only the rival
of MOMS timed out, the comparison can only understate how many more decisions
the rival needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial

import numpy as np
import pandas as pd

from sudosat.run.generate import generate_many
from sudosat.run.results import Verdict
from sudosat.studies.cache import code_version, load_or_compute
from sudosat.words import and_join

# (label, registered solver, options); MOMS is the hypothesis's subject.
SOLVERS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("dp", "dp", ()),
    ("moms", "dpll", (("heuristic", "moms"),)),
    ("jw", "dpll", (("heuristic", "jw"),)),
    ("jw1", "dpll", (("heuristic", "jw1"),)),
    ("dlis", "dpll", (("heuristic", "dlis"),)),
    ("dlcs", "dpll", (("heuristic", "dlcs"),)),
    ("cdcl", "cdcl", ()),
)
SUBJECT = "moms"
RIVALS = ("dlis", "dp")  # the comparisons the hypothesis names


@dataclass(frozen=True)
class Grade:
    """One difficulty grade: `count` boards of order 3 at fill `alpha`, unique or not."""

    name: str
    alpha: float
    unique: bool
    count: int


# Hardest first. Unique puzzles emptied as far as uniqueness allows (about 24
# givens) are where the heuristics part; boards with half their cells given are
# mostly decided by propagation, the easy end of the scale.
DEFAULT_GRADES = (
    Grade("minimal unique", 0.2, True, 30),
    Grade("unique, 35 % given", 0.35, True, 50),
    Grade("30 % given", 0.3, False, 30),
    Grade("40 % given", 0.4, False, 60),
    Grade("50 % given", 0.5, False, 30),
)


@dataclass(frozen=True)
class ExperimentSpec:
    """Everything that decides the experiment's rows besides the code."""

    grades: tuple[Grade, ...] = DEFAULT_GRADES
    seed: int = 1000
    # Short, because the Jeroslow-Wang family and DLIS reach it on most of the hardest
    # puzzles (each such run costs T); dp and MOMS finish well within it.
    time_limit_ms: float = 300.0
    encoding: str = "course"
    solvers: tuple[str, ...] = tuple(label for label, _, _ in SOLVERS)

    def shrunk(self, count: int) -> ExperimentSpec:
        """The same grades with at most `count` boards each (tests, ``QUICK=1``)."""
        grades = tuple(Grade(g.name, g.alpha, g.unique, min(g.count, count)) for g in self.grades)
        return ExperimentSpec(grades, self.seed, self.time_limit_ms, self.encoding, self.solvers)


def puzzles(spec: ExperimentSpec) -> pd.DataFrame:
    """The puzzle set: one row per board (grade, index, seed, givens, board line)."""
    rows = []
    for number, grade in enumerate(spec.grades):
        first = spec.seed + 1000 * number
        boards = generate_many(3, grade.alpha, grade.count, seed=first, unique=grade.unique)
        for index, board in enumerate(boards):
            rows.append(
                {
                    "grade": grade.name,
                    "puzzle": f"{number}-{index}",
                    "seed": first + index,
                    "givens": board.num_givens,
                    "line": board.to_line(),
                }
            )
    return pd.DataFrame(rows)


def _options(label: str) -> tuple[str, dict]:
    for name, solver, options in SOLVERS:
        if name == label:
            return solver, dict(options)
    raise ValueError(f"unknown solver label {label!r}")


def run_solver(label: str, lines: Sequence[str], spec: ExperimentSpec) -> list[dict]:
    """One solver over the puzzle lines: status, decisions, conflicts, time per puzzle."""
    from sudosat.run.runner import run_instance
    from sudosat.sudoku.board import Board

    solver, options = _options(label)
    rows = []
    for line in lines:
        board = Board.parse(line)
        done = run_instance(
            board, solver, spec.encoding, spec.time_limit_ms, limit_covers="solver", **options
        ).row
        rows.append(
            {
                "solver": label,
                "status": str(done.status),
                "valid": bool(done.valid),
                "decisions": int(done.decisions or 0),
                "conflicts": int(done.conflicts or 0),
                "ms": done.solve_ms or 0.0,
            }
        )
    return rows


def run_experiment(
    spec: ExperimentSpec,
    *,
    cache_dir: str | None = ".cache/studies",
    on_unit: Callable[[str, str, bool], None] | None = None,
) -> pd.DataFrame:
    """Every solver on every puzzle; one row per (puzzle, solver), cached per (grade, solver)."""
    version = code_version(functions=(puzzles, run_solver, _options, Grade))
    version += repr(SOLVERS)
    board_rows, _ = load_or_compute(
        "heuristics-puzzles",
        {"grades": [asdict(g) for g in spec.grades], "seed": spec.seed},
        lambda: puzzles(spec).to_dict("records"),
        cache_dir=cache_dir,
        version=version,
    )
    boards = pd.DataFrame(board_rows)
    frames = []
    for grade, part in boards.groupby("grade", sort=False):
        lines = part["line"].tolist()
        for label in spec.solvers:
            parameters = {
                "lines": lines,
                "solver": label,
                "T": spec.time_limit_ms,
                "encoding": spec.encoding,
            }
            rows, computed_at = load_or_compute(
                "heuristics",
                parameters,
                partial(run_solver, label, lines, spec),
                cache_dir=cache_dir,
                version=version,
            )
            frame = pd.DataFrame(rows)
            frame.insert(0, "puzzle", part["puzzle"].to_numpy())
            frame.insert(1, "grade", grade)
            frame.insert(2, "givens", part["givens"].to_numpy())
            frame["computed_at"] = computed_at or ""
            frames.append(frame)
            if on_unit is not None:
                on_unit(grade, label, computed_at is not None)
    return pd.concat(frames, ignore_index=True)


# ---------------------------------------------------------------------------------------
# summaries and tests


def wide(results: pd.DataFrame, measure: str = "decisions") -> pd.DataFrame:
    """One row per puzzle, one column per solver (`measure`; time-outs as recorded)."""
    table = results.pivot(index="puzzle", columns="solver", values=measure)
    labels = [s for s in dict.fromkeys(results["solver"])]
    return table[labels]


def grade_table(results: pd.DataFrame) -> pd.DataFrame:
    """Median decisions and time-outs per grade and solver."""
    grouped = results.groupby(["grade", "solver"], sort=False)
    out = pd.DataFrame(
        {
            "median decisions": grouped["decisions"].median(),
            "time-outs": grouped["status"].apply(lambda s: int((s == Verdict.TIMEOUT).sum())),
            "puzzles": grouped.size(),
        }
    )
    table = out.unstack("solver")
    solvers = list(dict.fromkeys(results["solver"]))
    grades = list(dict.fromkeys(results["grade"]))
    return table.reindex(columns=solvers, level=1).loc[grades]


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (not in scipy)."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [0.0] * len(pvalues)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[index]))
        adjusted[index] = running
    return adjusted


@dataclass(frozen=True)
class Comparison:
    """MOMS against one rival on the same puzzles (differences rival - MOMS)."""

    rival: str
    puzzles: int
    fewer: int  # puzzles on which MOMS made fewer decisions
    more: int
    ties: int
    statistic: float
    p_value: float
    p_holm: float
    rank_biserial: float
    ratio: float
    ratio_low: float
    ratio_high: float
    rival_timeouts: int
    subject_timeouts: int
    # per grade, in the results' order: (grade, subject's median, rival's median) decisions
    grade_medians: tuple[tuple[str, float, float], ...] = ()


def compare(results: pd.DataFrame, subject: str = SUBJECT, rivals: Sequence[str] | None = None,
            seed: int = 0) -> list[Comparison]:
    """One-sided Wilcoxon signed-rank tests of "`subject` needs fewer decisions than rival".

    The effect size is the matched-pairs rank-biserial correlation (share of
    rank sum favouring `subject` minus share against, -1..1); the ratio is the
    geometric mean over puzzles of (rival + 1) / (subject + 1) decisions (the
    median would be 1 whenever most puzzles are decided by propagation), with
    a 95 % percentile bootstrap interval (``scipy.stats.bootstrap``, 2,000
    resamples, seeded). p-values are Holm-adjusted over the rivals compared.
    """
    from scipy import stats

    decisions = wide(results, "decisions")
    status = wide(results, "status")
    medians = results.groupby(["grade", "solver"], sort=False)["decisions"].median()
    grades = list(dict.fromkeys(results["grade"]))
    rivals = [r for r in (rivals or decisions.columns) if r != subject]
    raw = []
    for rival in rivals:
        diff = (decisions[rival] - decisions[subject]).to_numpy(dtype=float)
        nonzero = diff[diff != 0]
        if len(nonzero):
            test = stats.wilcoxon(decisions[rival], decisions[subject], alternative="greater",
                                  zero_method="wilcox")
            statistic, p_value = float(test.statistic), float(test.pvalue)
        else:  # every puzzle a tie: no evidence either way (scipy would divide by zero)
            statistic, p_value = 0.0, 1.0
        ranks = stats.rankdata(np.abs(nonzero))
        favour = ranks[nonzero > 0].sum()
        against = ranks[nonzero < 0].sum()
        effect = (favour - against) / (favour + against) if len(nonzero) else 0.0
        logs = np.log2((decisions[rival].to_numpy(float) + 1) / (decisions[subject] + 1))
        interval = stats.bootstrap((logs,), np.mean, n_resamples=2000, confidence_level=0.95,
                                   method="percentile", random_state=np.random.default_rng(seed))
        raw.append((rival, diff, (statistic, p_value), effect, logs, interval))
    adjusted = holm([item[2][1] for item in raw])
    comparisons = []
    for (rival, diff, test, effect, logs, interval), p_holm in zip(raw, adjusted, strict=True):
        comparisons.append(
            Comparison(
                rival=rival,
                puzzles=len(diff),
                fewer=int((diff > 0).sum()),
                more=int((diff < 0).sum()),
                ties=int((diff == 0).sum()),
                statistic=test[0],
                p_value=test[1],
                p_holm=float(p_holm),
                rank_biserial=float(effect),
                ratio=float(2 ** np.mean(logs)),
                ratio_low=float(2 ** interval.confidence_interval.low),
                ratio_high=float(2 ** interval.confidence_interval.high),
                rival_timeouts=int((status[rival] == Verdict.TIMEOUT).sum()),
                subject_timeouts=int((status[subject] == Verdict.TIMEOUT).sum()),
                grade_medians=tuple(
                    (grade, float(medians[(grade, subject)]), float(medians[(grade, rival)]))
                    for grade in grades
                ),
            )
        )
    return comparisons


def grade_sentences(results: pd.DataFrame, subject: str = SUBJECT,
                    rivals: Sequence[str] = RIVALS) -> list[str]:
    """Per grade, the median decisions of `subject` and of each rival: where the gap lies."""
    medians = results.groupby(["grade", "solver"], sort=False)["decisions"].median()
    sentences = []
    for grade in dict.fromkeys(results["grade"]):
        parts = [f"{subject} {medians[(grade, subject)]:g}"]
        parts += [f"{rival} {medians[(grade, rival)]:g}" for rival in rivals]
        sentences.append(f"{grade}: median decisions " + ", ".join(parts) + ".")
    return sentences


def friedman(results: pd.DataFrame, measure: str = "decisions") -> tuple[float, float, int, int]:
    """Friedman's test over every solver on the same puzzles: (statistic, p, solvers, puzzles)."""
    from scipy import stats

    table = wide(results, measure).astype(float)
    test = stats.friedmanchisquare(*(table[c] for c in table.columns))
    return float(test.statistic), float(test.pvalue), table.shape[1], table.shape[0]


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
                "p (one-sided)": p_text(c.p_value),
                "p (Holm)": p_text(c.p_holm),
                "rank-biserial r": f"{c.rank_biserial:+.2f}",
                "ratio (geo. mean)": ratio_text(c.ratio),
                "95 % CI": f"{ratio_text(c.ratio_low)} to {ratio_text(c.ratio_high)}",
                "rival time-outs": c.rival_timeouts,
            }
        )
    return pd.DataFrame(rows).set_index("MOMS vs")


def ratio_text(ratio: float) -> str:
    """A ratio with two decimals, three when two would round it to 1.00 (but it is not 1)."""
    text = f"{ratio:.2f}"
    return f"{ratio:.3f}" if text == "1.00" and ratio != 1.0 else text


def p_text(p: float) -> str:
    """A p-value for prose: ``p = 0.031``, ``p = 2.1e-12``, never ``0.000000``."""
    if p >= 0.001:
        return f"{p:.3f}"
    if p <= 0:
        return "< 1e-300"
    return f"{p:.1e}"


def hypothesis_sentences(comparisons: Sequence[Comparison], rivals: Sequence[str] = RIVALS,
                         level: float = 0.05) -> list[str]:
    """The verdict on the hypothesis, one sentence per named rival and one overall."""
    named = [c for c in comparisons if c.rival in rivals]
    sentences = []
    for c in named:
        direction = _direction(c)
        grades = _grade_medians_text(c)
        sentences.append(
            f"Against {c.rival}: MOMS made fewer decisions on {c.fewer} of {c.puzzles} puzzles, "
            f"more on {c.more}, as many on {c.ties};{grades} Wilcoxon signed-rank (one-sided) "
            f"p = {p_text(c.p_value)}, Holm-adjusted p = {p_text(c.p_holm)}; rank-biserial "
            f"r = {c.rank_biserial:+.2f}; {c.rival} needed {ratio_text(c.ratio)} times MOMS's "
            f"decisions (geometric mean of the ratios of decisions + 1; 95 % CI "
            f"{ratio_text(c.ratio_low)} to {ratio_text(c.ratio_high)}): {direction}; "
            f"time-outs: MOMS {c.subject_timeouts}, {c.rival} {c.rival_timeouts}."
        )
    holds = all(c.p_holm < level and c.rank_biserial > 0 for c in named) and bool(named)
    failed = [c.rival for c in named if not (c.p_holm < level and c.rank_biserial > 0)]
    if holds:
        sentences.append(
            f"The hypothesis holds at the {level:g} level (Holm-adjusted): MOMS needs fewer "
            f"decisions than {' and than '.join(c.rival for c in named)} on these puzzles."
        )
    else:
        sentences.append(
            f"The hypothesis does not hold at the {level:g} level (Holm-adjusted): the data do "
            f"not show MOMS needing fewer decisions than {' or '.join(failed)}."
        )
        for c in named:
            if c.rival in failed and c.ratio_low > 1:
                sentences.append(
                    f"Against {c.rival} the geometric mean of the ratios is above 1 (its interval "
                    f"excludes 1), while MOMS made fewer decisions on {c.fewer} puzzles and more "
                    f"on {c.more}; the signed-rank test, which weighs every puzzle's rank and not "
                    f"its ratio, does not reach significance: the evidence is too weak to accept "
                    f"that part of the hypothesis."
                )
    return sentences


def _direction(c: Comparison) -> str:
    """What the counts and the ratio's interval say together, without going beyond either."""
    if c.ratio_low > 1:
        ratio = "the interval excludes 1 in MOMS's favour"
        leans = 1
    elif c.ratio_high < 1:
        ratio = f"the interval excludes 1 in {c.rival}'s favour"
        leans = -1
    else:
        return "the interval includes 1 (no evidence of a difference either way)"
    counts = (c.fewer > c.more) - (c.fewer < c.more)
    if counts == leans == 1:
        return "MOMS needed fewer decisions on more puzzles than more, and the interval excludes 1"
    if counts == leans == -1:
        return "MOMS needed more decisions on more puzzles than fewer, and the interval excludes 1"
    if counts == 0:
        return f"{ratio}, though MOMS needed fewer decisions on as many puzzles as it needed more"
    side = "fewer" if counts == 1 else "more"
    other = "more" if counts == 1 else "fewer"
    return (
        f"mixed: {ratio}, but MOMS needed {side} decisions on more puzzles "
        f"({max(c.fewer, c.more)}) than it needed {other} ({min(c.fewer, c.more)})"
    )


def _grade_medians_text(c: Comparison) -> str:
    """Where MOMS's median decisions per grade are lower, higher or equal to the rival's."""
    if not c.grade_medians:
        return ""
    groups: dict[str, list[str]] = {"lower": [], "higher": [], "equal": []}
    for grade, mine, theirs in c.grade_medians:
        if mine < theirs:
            groups["lower"].append(f"“{grade}” ({mine:g} vs {theirs:g})")
        elif mine > theirs:
            groups["higher"].append(f"“{grade}” ({mine:g} vs {theirs:g})")
        else:
            groups["equal"].append(f"“{grade}” ({mine:g})")
    parts = [f"{word} in {and_join(grades)}" for word, grades in groups.items() if grades]
    return f" MOMS's median decisions per grade, against {c.rival}'s: " + "; ".join(parts) + ";"


def timeout_sentences(results: pd.DataFrame, time_limit_ms: float, subject: str = SUBJECT,
                      rivals: Sequence[str] = RIVALS) -> list[str]:
    """How many runs reached T, where they are, and how the statistics treat them.

    A run cut at the wall-clock limit T stops at a number of decisions that
    depends on the machine's speed. The statistics here (:func:`compare`,
    :func:`friedman`, :func:`grade_table`) do not treat such a run as censored:
    it enters with the decisions it had made by T, a lower bound of its count.
    The sentences count the time-outs, name the grades where they are the
    majority of a solver's runs, and say, for `subject` against each of
    `rivals`, on how many puzzles the bound can only understate the rival
    (only the rival timed out) and on how many the direction is unknown
    (`subject` timed out).

    Parameters
    ----------
    results : DataFrame
        :func:`run_experiment` rows (puzzle, grade, solver, status, decisions).
    time_limit_ms : float
        The limit T of the runs.
    subject : str
    rivals : sequence of str

    Returns
    -------
    list of str
    """
    timeout = results["status"] == Verdict.TIMEOUT
    total = int(timeout.sum())
    head = f"{total} of the {len(results)} runs reached T = {time_limit_ms:g} ms (wall clock)"
    if not total:
        return [head.replace(f"{total} of the", "None of the", 1) + ": every decision count "
                "here is the one the search needed to finish, which does not depend on the "
                "machine's speed."]
    sentences = [
        head + ". Their decision counts are those made when the clock stopped them, so they "
        "depend on the machine's speed, not only on the search."
    ]
    grouped = results.assign(timeout=timeout).groupby(["grade", "solver"], sort=False)["timeout"]
    share = pd.DataFrame({"out": grouped.sum(), "runs": grouped.size()})
    majority = share[share["out"] * 2 > share["runs"]]
    if len(majority):
        where = []
        for grade, part in majority.groupby(level="grade", sort=False):
            runs = ", ".join(f"{solver} {int(row.out)}"
                             for (_, solver), row in part.iterrows())
            where.append(f"“{grade}” ({runs} of {int(part['runs'].iloc[0])})")
        sentences.append("Time-outs are most of a solver's runs in " + and_join(where) + ".")
    else:
        sentences.append("No solver timed out on most of its runs in any grade.")
    status = wide(results, "status")
    name = subject.upper() if subject == SUBJECT else subject
    pairs = []
    for rival in rivals:
        only_rival = int(((status[rival] == Verdict.TIMEOUT)
                          & (status[subject] != Verdict.TIMEOUT)).sum())
        mine = int((status[subject] == Verdict.TIMEOUT).sum())
        pairs.append(f"against {rival}, {only_rival} puzzle{'s' if only_rival != 1 else ''} on "
                     f"which only {rival} timed out and {mine} on which {name} did")
    sentences.append(
        "The statistics do not treat time-outs as censored values: each enters the medians, "
        "Friedman's test, the signed-rank tests and the ratios with the decisions it had made "
        f"by T, a lower bound of its count. Where only the rival timed out, its true count "
        f"could only be higher, which would widen the difference in {name}'s favour; where "
        f"{name} timed out, the direction is not known. For the comparisons the hypothesis "
        f"names: " + "; ".join(pairs) + "."
    )
    return sentences


def friedman_sentence(statistic: float, p: float, solvers: int, puzzles: int) -> str:
    """Friedman's omnibus test in words."""
    return (
        f"Friedman's test over the {solvers} solvers on the same {puzzles} puzzles: "
        f"chi² = {statistic:,.1f}, p = {p_text(p)} — the solvers "
        + ("do" if p < 0.05 else "do not")
        + " differ in decisions beyond chance."
    )


def median_decisions(results: pd.DataFrame) -> dict[str, float]:
    """Median decisions per solver (for prose)."""
    return {k: float(v) for k, v in results.groupby("solver", sort=False)["decisions"].median()
            .items() if not math.isnan(v)}
