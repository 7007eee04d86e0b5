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
bound of what it needed: the comparison can only understate how many more
decisions the slower heuristic needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial

import numpy as np
import pandas as pd

from sudosat.generate import generate_many
from sudosat.results import Verdict
from sudosat.studycache import code_version, load_or_compute

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
    from sudosat.board import Board
    from sudosat.runner import run_instance

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
        sentences.append(
            f"Against {c.rival}: MOMS made fewer decisions on {c.fewer} of {c.puzzles} puzzles, "
            f"more on {c.more}, as many on {c.ties}; Wilcoxon signed-rank (one-sided) "
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
        leaning = [c.rival for c in named if c.rival in failed and c.ratio_low > 1]
        if leaning:
            sentences.append(
                f"Against {' and '.join(leaning)} the sizes of the differences lean MOMS's way "
                f"(the ratio's interval excludes 1), but the signed-rank test, which weighs "
                f"every puzzle's rank and not its ratio, does not reach significance: the "
                f"evidence is too weak to accept that part of the hypothesis."
            )
    return sentences


def _direction(c: Comparison) -> str:
    if c.ratio_low > 1:
        return "MOMS needed fewer, and the interval excludes 1"
    if c.ratio_high < 1:
        return "MOMS needed more, and the interval excludes 1"
    return "the interval includes 1 (no difference either way)"


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
