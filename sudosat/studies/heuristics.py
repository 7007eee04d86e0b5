"""The heuristics experiment: does MOMS branching need fewer decisions than DLIS and than dp?

The ``SAT -Sn`` assignment asks for two branching heuristics and an experiment
that tests a stated hypothesis. This module builds the puzzle set (9 x 9 boards
from the generator, graded from minimal unique puzzles to well-filled ones,
fixed seeds), runs ``dp``, every ``dpll`` heuristic and ``cdcl`` on each of them
under one work budget, and tests the hypothesis with paired non-parametric
statistics from scipy: Friedman's test over all solvers, then one-sided
Wilcoxon signed-rank tests of MOMS against each other solver (Holm-adjusted),
the matched-pairs rank-biserial correlation as effect size, and bootstrap
confidence intervals (``scipy.stats.bootstrap``) for the median ratio of
decisions.

**The limit is counted work**: a budget of propagations (literals set by unit
propagation, :attr:`ExperimentSpec.max_propagations`) for every run, which
dp, dpll and cdcl all count the same way and honour. It stops the same search
at the same point on every machine and at every load, so which runs finish,
and the verdict, cannot depend on the machine. Propagations rather than
conflicts, because one propagation costs the DPLL solvers about the same CPU
time whatever the heuristic, and one conflict does not: measured over the
finished runs of the default experiment, CPU time per propagation was 10.9 µs
for dp, 11.7 for DLIS, 14.5 for JW and 16.1 for MOMS (1.5 times apart at most),
per conflict 0.35 ms for DLIS, 0.70 for dp and 3.1 for MOMS (9 times apart):
a conflict budget would give MOMS nine times DLIS's allowance. (cdcl spends
2.5 µs per propagation; it finishes every puzzle well within the budget.)
A decision budget would cut the very measure under test.

The default budget, :data:`DEFAULT_MAX_PROPAGATIONS`, was chosen to stop about
as many runs as a 300 ms limit did on a quiet machine: there the four slow
heuristics (JW, JW1, DLIS, DLCS) ran out on 48 to 52 of the 200 puzzles each and
dp, MOMS and cdcl on none; 60,000 propagations stops 46 to 51 runs of each of
those four and none of the others (the most any dp run needs is 50,134).

A CPU-time cap stays behind the budget as a safety net against a runaway
(:attr:`ExperimentSpec.time_limit_ms`), far above what the budget takes (a run
that uses up 60,000 propagations takes about a second of CPU even on a busy
machine); CPU time is not load-invariant (the same work takes 1.5 to 3 times the
CPU time on a busy machine), so a run the cap stopped (``stop`` ``time``) is one
the machine decided, and the page says so.

**Runs that did not finish** (stopped by the budget or the cap, or an error)
are censored, never counted with the decisions they had made when they
stopped (that count only says how far the search got, and a run stopped
before its first decision would count as the best of all): in every median,
count and test, such a run ranks above every finished run of any solver, and
ties with the other runs that did not finish (:func:`censored_decisions`). So
a run stopped by a limit never counts in its solver's favour. The ratio of
decisions is taken over the puzzles both solvers finished.

**Too few finished runs.** A comparison is tested only when both solvers
finished on at least :data:`MIN_BOTH_FINISHED` puzzles; Friedman's test only
when every solver finished on that many. Below that the statistics are not
computed from runs that mostly did not finish, and no verdict is stated.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial

import numpy as np
import pandas as pd

from sudosat.run.generate import generate_many
from sudosat.run.results import DECIDED
from sudosat.studies.cache import Limit, code_version, load_or_compute
from sudosat.studies.scaling import measure, study_limits

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

DEFAULT_MAX_PROPAGATIONS = 60_000
"""Every run's propagation budget (the module's docstring says why propagations, and why
this many)."""

DEFAULT_CPU_CAP_MS = 20_000.0
"""The CPU-time safety net behind the budget, in ms: far above what the budget takes."""

MIN_BOTH_FINISHED = 10
"""The fewest puzzles on which both compared solvers must have finished for a test to run.
Below 6, a one-sided signed-rank test could not reach 0.05 after Holm's adjustment over the
two rivals the hypothesis names even if MOMS won on every puzzle (its smallest p is 2**-n);
10 leaves a margin, so that a verdict never rests on a handful of puzzles."""


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
    # The limit every verdict rests on: propagations per run (None: no budget). Small
    # enough that the Jeroslow-Wang family and DLIS use it up on most of the hardest
    # puzzles (each such run costs the budget); dp and MOMS finish well within it.
    max_propagations: int | None = DEFAULT_MAX_PROPAGATIONS
    # The safety net behind it, in CPU milliseconds: never the limit a verdict rests on.
    time_limit_ms: float | None = DEFAULT_CPU_CAP_MS
    encoding: str = "course"
    solvers: tuple[str, ...] = tuple(label for label, _, _ in SOLVERS)

    def shrunk(self, count: int) -> ExperimentSpec:
        """The same grades with at most `count` boards each (tests, ``QUICK=1``)."""
        grades = tuple(Grade(g.name, g.alpha, g.unique, min(g.count, count)) for g in self.grades)
        return dataclasses.replace(self, grades=grades)

    def limits(self) -> tuple[Limit, ...]:
        """What bounds every run, as the cache records it: the budget, then the CPU cap."""
        return study_limits(self.time_limit_ms, max_propagations=self.max_propagations)


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
    """One solver over the puzzle lines under the spec's budget and CPU cap
    (:func:`~.scaling.measure`): status, why it stopped, decisions, conflicts,
    propagations, and the solver call's CPU and wall times."""
    from sudosat.sudoku.board import Board

    solver, options = _options(label)
    rows = []
    for line in lines:
        done = measure(Board.parse(line), solver, spec.encoding,
                       time_limit_ms=spec.time_limit_ms,
                       max_propagations=spec.max_propagations, **options)
        rows.append({"solver": label, "status": done["status"], "stop": done["stop"],
                     "valid": bool(done["valid"]), "decisions": int(done["decisions"] or 0),
                     "conflicts": int(done["conflicts"] or 0),
                     "propagations": int(done["propagations"] or 0),
                     "solve_cpu_ms": done["solve_cpu_ms"] or 0.0,
                     "solve_wall_ms": done["solve_wall_ms"] or 0.0})
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
        limit=None,  # generating the puzzles runs no solver
        cache_dir=cache_dir,
        version=version,
    )
    boards = pd.DataFrame(board_rows)
    frames = []
    for grade, part in boards.groupby("grade", sort=False):
        lines = part["line"].tolist()
        for label in spec.solvers:
            parameters = {"lines": lines, "solver": label, "encoding": spec.encoding}
            rows, computed_at = load_or_compute(
                "heuristics",
                parameters,
                partial(run_solver, label, lines, spec),
                limit=spec.limits(),
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


def wide(results: pd.DataFrame, column: str = "decisions") -> pd.DataFrame:
    """One row per puzzle, one column per solver (`column` as recorded, finished or not)."""
    table = results.pivot(index="puzzle", columns="solver", values=column)
    labels = [s for s in dict.fromkeys(results["solver"])]
    return table[labels]


def finished(results: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle and solver: whether the run answered (SAT or UNSAT) within the limits."""
    return wide(results, "status").isin(DECIDED)


def censored_decisions(results: pd.DataFrame) -> pd.DataFrame:
    """Decisions per puzzle and solver, a run that did not finish as infinity.

    Infinity ranks above every finished run of any solver and ties with the
    other runs that did not finish: a run stopped by a limit never counts in its
    solver's favour, whatever count it had reached when it was stopped.
    """
    return wide(results, "decisions").astype(float).where(finished(results), math.inf)


def _ranked(values: pd.DataFrame) -> pd.DataFrame:
    """`values` with infinity replaced by one more than the largest finite value: the same
    order and ties, in numbers scipy's tests take."""
    top = values[np.isfinite(values)].max().max()
    return values.replace(math.inf, (0.0 if pd.isna(top) else float(top)) + 1.0)


def _censored_medians(results: pd.DataFrame) -> pd.Series:
    """Median decisions per (grade, solver), infinity where the median run did not finish."""
    done = results["status"].isin(DECIDED)
    decisions = results["decisions"].astype(float).where(done, math.inf)
    return decisions.groupby([results["grade"], results["solver"]], sort=False).median()


def grade_table(results: pd.DataFrame) -> pd.DataFrame:
    """Median decisions and runs that did not finish, per grade and solver.

    A median is missing (NaN) where the grade's median run did not finish
    (:func:`censored_decisions`): its count is not known.
    """
    grouped = results.groupby(["grade", "solver"], sort=False)
    medians = _censored_medians(results)
    out = pd.DataFrame(
        {
            "median decisions": medians.where(np.isfinite(medians)),
            "not finished": grouped["status"].apply(lambda s: int((~s.isin(DECIDED)).sum())),
            "puzzles": grouped.size(),
        }
    )
    table = out.unstack("solver")
    solvers = list(dict.fromkeys(results["solver"]))
    grades = list(dict.fromkeys(results["grade"]))
    return table.reindex(columns=solvers, level=1).loc[grades]


def grade_medians(results: pd.DataFrame, subject: str = SUBJECT,
                  rivals: Sequence[str] = RIVALS) -> list[tuple[str, dict[str, float]]]:
    """Per grade (in the results' order), the median decisions of `subject`, then each rival;
    infinity where the median run did not finish."""
    medians = _censored_medians(results)
    return [
        (str(grade), {name: float(medians[(grade, name)]) for name in (subject, *rivals)})
        for grade in dict.fromkeys(results["grade"])
    ]


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
    """MOMS against one rival on the same puzzles (differences rival - MOMS, censored).

    A puzzle on which one of the two did not finish counts for the other (the
    one that did not finish ranks above every finished run); on which neither
    finished, as a tie. The test statistics, p-values, effect size and ratio
    are NaN when the comparison is not :attr:`tested`.
    """

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
    rival_unfinished: int  # runs of the rival that did not finish (any reason)
    subject_unfinished: int
    # per grade, in the results' order: (grade, subject's median, rival's median) decisions,
    # infinity where the grade's median run did not finish
    grade_medians: tuple[tuple[str, float, float], ...] = ()
    # puzzles on which at least one of the two did not finish
    unfinished_pairs: int = 0

    @property
    def both_finished(self) -> int:
        """The puzzles on which both the subject and the rival finished."""
        return self.puzzles - self.unfinished_pairs

    @property
    def tested(self) -> bool:
        """Enough puzzles finished by both (:data:`MIN_BOTH_FINISHED`) for the test to run."""
        return self.both_finished >= MIN_BOTH_FINISHED

    @property
    def interval_favours(self) -> int:
        """+1 when the ratio's interval lies above 1 (the subject needs fewer decisions),
        -1 when it lies below 1 (the rival needs fewer), 0 when it includes 1 (or is not known)."""
        return 1 if self.ratio_low > 1 else -1 if self.ratio_high < 1 else 0

    @property
    def counts_favour(self) -> int:
        """+1 when the subject made fewer decisions on more puzzles than more, -1 for the
        reverse, 0 when as many."""
        return (self.fewer > self.more) - (self.fewer < self.more)

    def significant(self, level: float = 0.05) -> bool:
        """Whether this rival's part of the hypothesis holds: tested, Holm-adjusted p below
        `level` and a positive effect (the subject ahead)."""
        return self.tested and self.p_holm < level and self.rank_biserial > 0


def compare(results: pd.DataFrame, subject: str = SUBJECT, rivals: Sequence[str] | None = None,
            seed: int = 0) -> list[Comparison]:
    """One-sided Wilcoxon signed-rank tests of "`subject` needs fewer decisions than rival".

    Decisions are censored (:func:`censored_decisions`). The effect size is the
    matched-pairs rank-biserial correlation (share of rank sum favouring
    `subject` minus share against, -1..1); the ratio is the geometric mean over
    the puzzles both finished of (rival + 1) / (subject + 1) decisions (the
    median would be 1 whenever most puzzles are decided by propagation), with a
    95 % percentile bootstrap interval (``scipy.stats.bootstrap``, 2,000
    resamples, seeded). A comparison with fewer than :data:`MIN_BOTH_FINISHED`
    puzzles both finished is not tested; p-values are Holm-adjusted over the
    rivals tested.
    """
    from scipy import stats

    values = censored_decisions(results)
    ranked = _ranked(values)
    done = finished(results)
    medians = _censored_medians(results)
    grades = list(dict.fromkeys(results["grade"]))
    rivals = [r for r in (rivals or values.columns) if r != subject]
    nan = math.nan
    raw = []
    for rival in rivals:
        both = (done[rival] & done[subject]).to_numpy()
        diff = (ranked[rival] - ranked[subject]).to_numpy(dtype=float)
        nonzero = diff[diff != 0]
        tested = int(both.sum()) >= MIN_BOTH_FINISHED
        test, effect, ratio = (nan, nan), nan, (nan, nan, nan)
        if tested:
            test, effect = _signed_rank(ranked[rival], ranked[subject], nonzero)
            logs = np.log2((values[rival].to_numpy(float)[both] + 1)
                           / (values[subject].to_numpy(float)[both] + 1))
            interval = stats.bootstrap((logs,), np.mean, n_resamples=2000,
                                       confidence_level=0.95, method="percentile",
                                       random_state=np.random.default_rng(seed))
            ratio = (float(2 ** np.mean(logs)), float(2 ** interval.confidence_interval.low),
                     float(2 ** interval.confidence_interval.high))
        raw.append((rival, diff, test, effect, ratio, int((~both).sum())))
    tested_p = [item[2][1] for item in raw if not math.isnan(item[2][1])]
    adjusted = iter(holm(tested_p))
    comparisons = []
    for rival, diff, test, effect, ratio, unfinished in raw:
        p_holm = nan if math.isnan(test[1]) else float(next(adjusted))
        comparisons.append(
            Comparison(
                rival=rival,
                puzzles=len(diff),
                fewer=int((diff > 0).sum()),
                more=int((diff < 0).sum()),
                ties=int((diff == 0).sum()),
                statistic=test[0],
                p_value=test[1],
                p_holm=p_holm,
                rank_biserial=float(effect),
                ratio=ratio[0],
                ratio_low=ratio[1],
                ratio_high=ratio[2],
                rival_unfinished=int((~done[rival]).sum()),
                subject_unfinished=int((~done[subject]).sum()),
                grade_medians=tuple(
                    (grade, float(medians[(grade, subject)]), float(medians[(grade, rival)]))
                    for grade in grades
                ),
                unfinished_pairs=unfinished,
            )
        )
    return comparisons


def _signed_rank(rival: pd.Series, subject: pd.Series,
                 nonzero: np.ndarray) -> tuple[tuple[float, float], float]:
    """((W, one-sided p), rank-biserial r) of rival - subject, the nonzero differences given."""
    from scipy import stats

    if not len(nonzero):  # every puzzle a tie: no evidence either way (scipy would divide by 0)
        return (0.0, 1.0), 0.0
    test = stats.wilcoxon(rival, subject, alternative="greater", zero_method="wilcox")
    ranks = stats.rankdata(np.abs(nonzero))
    favour, against = ranks[nonzero > 0].sum(), ranks[nonzero < 0].sum()
    return (float(test.statistic), float(test.pvalue)), float((favour - against)
                                                              / (favour + against))


def friedman(results: pd.DataFrame) -> tuple[float, float, int, int, int]:
    """Friedman's test over every solver on the same puzzles, on censored decisions.

    Returns
    -------
    (statistic, p, solvers, puzzles, finished)
        `finished` counts the puzzles every solver finished (the page runs the
        test only when at least :data:`MIN_BOTH_FINISHED` did); statistic and p
        are NaN when every puzzle ties all solvers (nothing to rank).
    """
    from scipy import stats

    table = _ranked(censored_decisions(results))
    every = int(finished(results).all(axis=1).sum())
    if (table.nunique(axis=1) <= 1).all():
        return math.nan, math.nan, table.shape[1], table.shape[0], every
    test = stats.friedmanchisquare(*(table[c] for c in table.columns))
    return float(test.statistic), float(test.pvalue), table.shape[1], table.shape[0], every
