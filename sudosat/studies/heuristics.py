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
as censored; the heuristics page counts such runs): where only the rival of MOMS
timed out, the comparison can only understate how many more decisions the rival
needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial

import numpy as np
import pandas as pd

from sudosat.run.generate import generate_many
from sudosat.run.results import Verdict
from sudosat.studies.cache import code_version, load_or_compute

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


def run_heuristics_experiment(
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

    @property
    def interval_favours(self) -> int:
        """+1 when the ratio's interval lies above 1 (the subject needs fewer decisions),
        -1 when it lies below 1 (the rival needs fewer), 0 when it includes 1."""
        return 1 if self.ratio_low > 1 else -1 if self.ratio_high < 1 else 0

    @property
    def counts_favour(self) -> int:
        """+1 when the subject made fewer decisions on more puzzles than more, -1 for the
        reverse, 0 when as many."""
        return (self.fewer > self.more) - (self.fewer < self.more)

    def significant(self, level: float = 0.05) -> bool:
        """Whether this rival's part of the hypothesis holds: Holm-adjusted p below `level`
        and a positive effect (the subject ahead)."""
        return self.p_holm < level and self.rank_biserial > 0


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


def friedman(results: pd.DataFrame, measure: str = "decisions") -> tuple[float, float, int, int]:
    """Friedman's test over every solver on the same puzzles: (statistic, p, solvers, puzzles)."""
    from scipy import stats

    table = wide(results, measure).astype(float)
    test = stats.friedmanchisquare(*(table[c] for c in table.columns))
    return float(test.statistic), float(test.pvalue), table.shape[1], table.shape[0]
