"""One-shot :func:`solve`: one fresh :class:`Solver`, one call, tables freed within T."""

from __future__ import annotations

import time

from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status
from sudosat.sat.solvers.budget import Deadline, OutOfTime, collector_paused, load_reserve
from sudosat.sat.solvers.cdcl import state
from sudosat.sat.solvers.cdcl.loader import RunCache
from sudosat.sat.solvers.cdcl.solver import Solver, _checked_budgets

#: The runs of binary clauses this module's calls share (see :class:`RunCache`):
#: a process solving puzzle after puzzle loads each set of rules from it.
ONE_SHOT_RUNS = RunCache()


def solve(
    cnf: CNF,
    *,
    time_limit_ms: float | None = None,
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
    seed: int = 0,
    proof: bool = False,
    **tunables: float,
) -> Result:
    """Decide `cnf` with our CDCL solver (one :class:`Solver`, one call).

    Parameters
    ----------
    cnf : CNF
        Any formula; unused variables get the value false.
    time_limit_ms : float, optional
        Wall-clock bound for the call (loading included); on expiry the result is UNKNOWN.
    max_conflicts, max_propagations : int, optional
        Work budgets (MiniSat's ``setConfBudget`` and ``setPropBudget``): stop
        after that many conflicts, or at the first decision once that many
        literals were propagated, and answer UNKNOWN (never UNSAT), with the
        stats naming the budget (``out_of_conflicts`` or ``out_of_propagations``,
        read by :func:`~sudosat.sat.solvers.budget.budget_stop`). Reproducible: the same budgets
        on the same formula stop after the same conflicts on any machine.
    seed : int
        Seeds the solver's only random source (0: no jitter, fully deterministic).
    proof : bool
        For an UNSAT answer, fill ``Result.proof`` with a DRAT proof (text).
    **tunables
        Any name of :data:`TUNABLES`.

    Returns
    -------
    Result
        ``solver="cdcl"``; stats: decisions, propagations, conflicts, restarts,
        learnt, deleted, backjumped (literals unassigned by conflicts' backjumps),
        levels_jumped (the decision levels they undid), solver_cpu_s, load_ms,
        search_ms, and for an UNKNOWN stopped by a work budget its flag
        (``out_of_time`` is set for time).

    Raises
    ------
    SolverError
        An unknown or out-of-range tunable, a negative budget, or (a bug) a
        model that fails the check.

    Examples
    --------
    >>> solve(CNF([[1, -2], [2]])).status
    <Status.SAT: 'SAT'>
    """
    started = time.perf_counter()
    cpu_started = time.process_time()
    budgets = _checked_budgets(max_conflicts, max_propagations)
    # The collector stays paused until the solver is gone: re-enabled earlier, its
    # next pass would scan every clause list just loaded.
    with collector_paused():
        result = _one_shot(cnf, time_limit_ms, budgets, seed, proof, tunables, cpu_started)
    result.elapsed_ms = (time.perf_counter() - started) * 1000.0
    return result


def _one_shot(
    cnf: CNF,
    time_limit_ms: float | None,
    budgets: tuple[int | None, int | None],
    seed: int,
    proof: bool,
    tunables: dict,
    cpu_started: float,
) -> Result:
    """The body of :func:`solve`: one Solver, loaded under the deadline, one call.

    Loading and searching are timed apart, as for PySAT: the report compares
    them separately (``load_ms``, ``search_ms``). The solver's tables are
    freed before the answer returns, so the engine stops early enough for that
    to fit in T too: by a share of the time this very load took
    (:data:`~sudosat.sat.solvers.cdcl.state.FREE_SHARE`), while loading and after.
    """
    solver = Solver(seed=seed, proof=proof, **tunables)
    engine = solver._live_engine()
    engine.runs = ONE_SHOT_RUNS
    deadline = Deadline(time_limit_ms)
    engine.deadline = deadline  # the loader reads it too
    began = time.perf_counter()
    engine.load_began = deadline.now()
    try:
        solver._append(cnf, adopt=True)  # the solver lives for this call only
    except OutOfTime:
        stats = engine.stats(cpu_started)
        result = Result(Status.UNKNOWN, None, stats, 0.0, "cdcl", out_of_time=True)
        result.stats.update(load_ms=(time.perf_counter() - began) * 1000.0, search_ms=0.0)
        return result
    loaded = time.perf_counter()
    engine.load_began = None
    reserve = deadline.sooner(load_reserve(loaded - began, state.FREE_SHARE))
    # solver_cpu_s includes loading
    result = solver._solve((), reserve, cpu_started, *budgets)
    result.stats.update(
        load_ms=(loaded - began) * 1000.0, search_ms=(time.perf_counter() - loaded) * 1000.0
    )
    return result
