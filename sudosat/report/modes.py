"""The experiment page's two ways of running our solver on the same instances: a fresh CNF
per instance (the course's mode, what every solver of the experiment gets) and the rules
loaded once with each instance's givens as assumptions (``sudosat solve --incremental``)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd

from sudosat.report.clocks import ClockFacts, clock_facts
from sudosat.report.io import read_instances
from sudosat.run.results import DECIDED

MODES = ("fresh CNF", "rules loaded once")
"""The two ways the experiment page runs our solver on the same instances."""

TIMES = ("encode_cpu_ms", "solve_cpu_ms", "total_cpu_ms", "total_wall_ms")
"""The results row's times that :func:`mode_comparison` keeps: the modes are compared on CPU
time, which a busy machine inflates far less than wall time; the wall-clock total shows whether
it was busy."""

AS_FAST = 1.1
"""Two medians within this factor of each other count as equally fast (:attr:`ModeFacts.even`):
closer than that, a rerun may well order them the other way."""


def mode_comparison(
    instances: str | os.PathLike[str],
    time_limit_ms: float,
    encoding: str = "course",
    solver: str = "cdcl",
) -> pd.DataFrame:
    """Each instance solved both ways, alternately, under the same T: one row per instance and mode.

    *fresh CNF* is the course's mode (the whole formula built and loaded for
    every instance); *rules loaded once* keeps one solver loaded with the rules
    of each order and gives each instance's givens as assumptions. The two runs
    of one instance follow each other, so a busy machine slows both alike. The
    first instance of each order in incremental mode pays for building and
    loading the rules, as a batch would. An encoding built from the givens (the
    optimised ones) cannot be loaded once: ``course`` stands in for it, and the
    ``encoding`` column says so.

    Returns
    -------
    DataFrame
        Columns ``line``, ``mode``, ``encoding``, ``status``, ``output``, then
        the row's :data:`TIMES` (CPU times of encoding, the solver call and the
        whole instance, and its wall-clock total).
    """
    from sudosat.errors import EncodingError
    from sudosat.run.runner import run_instance
    from sudosat.sudoku.incremental import check_encoding, forget_loaded

    try:
        check_encoding(encoding)
    except EncodingError:
        encoding = "course"

    forget_loaded()  # the first puzzle of each order loads the rules, as in a fresh batch
    rows = []
    for line, board in read_instances(instances).items():
        for mode, incremental in zip(MODES, (False, True), strict=True):
            done = run_instance(board, solver, encoding, time_limit_ms, incremental=incremental)
            row = done.row
            rows.append({"line": line, "mode": mode, "encoding": encoding,
                         "status": str(row.status), "output": done.output_line,
                         **{column: row[column] for column in TIMES}})
    forget_loaded()
    return pd.DataFrame(rows)


def mode_table(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per mode: instances, answers, and the median CPU milliseconds of each part, the
    90th-percentile CPU total and the median wall-clock total."""
    table = comparison.groupby("mode", sort=False).agg(
        instances=("line", "size"),
        decided=("status", lambda status: int(status.isin(DECIDED).sum())),
        encode=("encode_cpu_ms", "median"),
        solve=("solve_cpu_ms", "median"),
        total=("total_cpu_ms", "median"),
        p90=("total_cpu_ms", lambda total: total.quantile(0.9)),
        wall=("total_wall_ms", "median"),
    )
    table = table.rename(columns={"encode": "median encode CPU ms",
                                  "solve": "median solve CPU ms",
                                  "total": "median total CPU ms", "p90": "p90 total CPU ms",
                                  "wall": "median total wall ms"})
    return table.reindex([mode for mode in MODES if mode in table.index])


@dataclass(frozen=True)
class ModeFacts:
    """What the two modes' runs show, from :func:`mode_comparison`.

    Attributes
    ----------
    encoding : str
        The encoding both modes used.
    instances : int
        Instances run in both modes.
    same_output : int
        Instances on which both modes printed the same output line.
    no_answer : int
        Differing instances with no answer in one mode (a time-out or an error).
    several_solutions : int
        Differing instances both modes decided alike, each printing a checked
        solution of its own: the puzzle has several solutions.
    sat_and_unsat : int
        Differing instances that were SAT in one mode and UNSAT in the other.
    fresh_ms, loaded_ms : float
        The median total CPU time per instance of each mode.
    fresh_wall_ms, loaded_wall_ms : float
        The same on the wall clock.
    clocks : ClockFacts
        Wall-clock against CPU time of the runs' totals.
    """

    encoding: str
    instances: int
    same_output: int
    no_answer: int
    several_solutions: int
    sat_and_unsat: int
    fresh_ms: float
    loaded_ms: float
    fresh_wall_ms: float
    loaded_wall_ms: float
    clocks: ClockFacts

    @property
    def loaded_faster(self) -> bool:
        """Loading the rules once was at least as fast on CPU (``0 < loaded_ms <= fresh_ms``)."""
        return self.loaded_ms > 0 and self.fresh_ms >= self.loaded_ms

    @property
    def factor(self) -> float:
        """How many times faster (``fresh_ms / loaded_ms``) or, when not
        :attr:`loaded_faster`, slower (``loaded_ms / fresh_ms``): at least 1."""
        if self.loaded_faster:
            return self.fresh_ms / self.loaded_ms
        return self.loaded_ms / self.fresh_ms if self.fresh_ms > 0 else float("inf")

    @property
    def even(self) -> bool:
        """Whether the two modes were about as fast: :attr:`factor` below :data:`AS_FAST`."""
        return self.factor < AS_FAST


def mode_facts(comparison: pd.DataFrame) -> ModeFacts:
    """The :class:`ModeFacts` of a :func:`mode_comparison` table."""
    cpu = comparison.groupby("mode")["total_cpu_ms"].median()
    wall = comparison.groupby("mode")["total_wall_ms"].median()
    wide = comparison.pivot(index="line", columns="mode", values=["output", "status"])
    output, status = wide["output"], wide["status"]
    differ = output[MODES[0]] != output[MODES[1]]
    both_decided = status[MODES[0]].isin(DECIDED) & status[MODES[1]].isin(DECIDED)
    same_status = status[MODES[0]] == status[MODES[1]]
    return ModeFacts(
        encoding=str(comparison["encoding"].iloc[0]),
        instances=len(differ),
        same_output=int((~differ).sum()),
        no_answer=int((differ & ~both_decided).sum()),
        several_solutions=int((differ & both_decided & same_status).sum()),
        sat_and_unsat=int((differ & both_decided & ~same_status).sum()),
        fresh_ms=float(cpu[MODES[0]]),
        loaded_ms=float(cpu[MODES[1]]),
        fresh_wall_ms=float(wall[MODES[0]]),
        loaded_wall_ms=float(wall[MODES[1]]),
        clocks=clock_facts(zip(comparison["total_wall_ms"], comparison["total_cpu_ms"],
                               strict=True)),
    )
