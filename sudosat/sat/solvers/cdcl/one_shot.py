"""One-shot :func:`solve`: one fresh :class:`Solver`, one call, tables freed within T."""

from __future__ import annotations

import time
from typing import Any

from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.base import Compaction, Laps
from sudosat.sat.solvers.budget import (
    Deadline,
    budget_keywords,
    collector_paused,
    load_reserve,
)
from sudosat.sat.solvers.cdcl import state
from sudosat.sat.solvers.cdcl.loader import RunCache
from sudosat.sat.solvers.cdcl.solver import Solver

#: The runs of binary clauses this module's calls share (see :class:`RunCache`):
#: a process solving puzzle after puzzle loads each set of rules from it.
ONE_SHOT_RUNS = RunCache()


def solve(
    cnf: CNF,
    *,
    deadline: Deadline | None = None,
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
    seed: int = 0,
    proof: bool = False,
    core: str | None = None,
    **tunables: float,
) -> Result:
    """Decide `cnf` with our CDCL solver (one :class:`Solver`, one call).

    Parameters
    ----------
    cnf : CNF
        Any formula; unused variables get the value false. One whose header
        declares far more variables than its clauses use is solved over those
        it uses (:class:`~sudosat.sat.solvers.base.Compaction`); the model
        still lists every declared variable.
    deadline : Deadline, optional
        When the call stops, loading included, on the deadline's own clock
        (wall or CPU); on expiry the result is UNKNOWN, ``stop`` TIME.
    max_conflicts, max_propagations : int, optional
        Work budgets (MiniSat's ``setConfBudget`` and ``setPropBudget``): stop
        after that many conflicts, or at the first decision once that many
        literals were propagated, and answer UNKNOWN (never UNSAT), ``stop``
        CONFLICTS or PROPAGATIONS. Reproducible: the same budgets on the same
        formula stop after the same conflicts on any machine.
    seed : int
        Seeds the solver's only random source (0: no jitter, fully deterministic).
    proof : bool
        For an UNSAT answer, fill ``Result.proof`` with a DRAT proof (text).
    core : str, optional
        ``"auto"``, ``"python"`` or ``"compiled"`` (None: ``SUDOSAT_CORE``, else
        auto); ``Result.core`` names the core that ran (see :class:`Solver`).
    **tunables
        Any name of :data:`TUNABLES`.

    Returns
    -------
    Result
        ``solver="cdcl"``; stats: decisions, propagations, conflicts, restarts,
        learnt, deleted, backjumped (literals unassigned by conflicts' backjumps),
        levels_jumped (the decision levels they undid), and the times of the
        two parts, in milliseconds: ``load_cpu_ms`` and ``load_wall_ms``
        (loading the clauses), ``search_cpu_ms`` and ``search_wall_ms`` (the
        search).

    Raises
    ------
    SolverError
        An unknown or out-of-range tunable, a negative budget, or (a bug) a
        model that fails the check.

    Examples
    --------
    >>> solve(CNF([[1, -2], [2]])).status
    <Status.SAT: 'SAT'>
    >>> solve(CNF([[1, 2], [-1, 2], [1, -2], [-1, -2]]), max_conflicts=0).stop
    <Stop.CONFLICTS: 'conflicts'>
    """
    started = time.perf_counter()
    budget_keywords(max_conflicts, max_propagations)  # a bad budget costs no loading
    settings: dict[str, Any] = dict(tunables)
    solver = Solver(seed=seed, proof=proof, runs=ONE_SHOT_RUNS, core=core, **settings)
    deadline = deadline or Deadline(None)
    # The tables are sized by the variables the clauses use, not by a header that may
    # declare millions more (the registry's solve has renumbered such a formula already).
    compact = Compaction.of(cnf)
    # The collector stays paused until the solver is gone: re-enabled earlier, its
    # next pass would scan every clause list just loaded.
    with collector_paused():
        result = _one_shot(solver, cnf if compact is None else compact.cnf, deadline,
                           max_conflicts, max_propagations)
        solver.delete()
    if compact is not None:
        compact.restore(result)
    result.elapsed_ms = (time.perf_counter() - started) * 1000.0
    return result


def _one_shot(
    solver: Solver,
    cnf: CNF,
    deadline: Deadline,
    max_conflicts: int | None,
    max_propagations: int | None,
) -> Result:
    """The body of :func:`solve`: the formula loaded under the deadline, then one call.

    Loading and searching are timed apart, each on both clocks (the report
    compares the searches on CPU time). The solver's tables are freed before
    the answer returns, so the search stops early enough for that to fit
    before the deadline too: by a share of the time, on the deadline's own
    clock, that this very load took (:data:`~sudosat.sat.solvers.cdcl.state.FREE_SHARE`).
    """
    laps, clock = Laps(), deadline.now()
    loaded = solver.load(cnf, deadline)
    load = laps.lap("load")
    if not loaded:
        stats = {key: value for key, value in solver.stats().items()
                 if isinstance(value, float | int) and key != "cpu_ms"}
        stats.update(load, search_cpu_ms=0.0, search_wall_ms=0.0)
        return Result(Status.UNKNOWN, None, stats, 0.0, "cdcl", stop=Stop.TIME,
                      core=solver.core.name)
    reserve = deadline.sooner(load_reserve(deadline.now() - clock, state.FREE_SHARE))
    result = solver.solve(deadline=reserve, max_conflicts=max_conflicts,
                          max_propagations=max_propagations)
    result.stats.update(load)
    return result
