"""PySAT's bundled solvers (``pysat:NAME``) behind our :class:`~sudosat.sat.result.Result`.

Every solver PySAT bundles runs in process, its search cut into slices of a
conflict budget so that the time limit (a deadline on the wall or the CPU
clock) holds even for back ends that ignore ``interrupt()``
(:func:`limited_search`). The back ends that cannot be stopped in process
(Kissat is not incremental, Lingeling has no limited solve) run in a worker
process killed at the deadline (:func:`sudosat.process.wait_within`). The work budgets
``max_conflicts`` and ``max_propagations`` use PySAT's ``conf_budget`` and
``prop_budget``, in process only. The incremental session
(:class:`sudosat.sat.solvers.incremental.PySatSession`) keeps PySAT solvers
loaded and uses the same names, counters and model filling
(:func:`canonical_backend`, :func:`solver_stats`, :func:`full_model`).

Examples
--------
>>> from sudosat.sat.cnf import CNF
>>> solve_pysat(CNF([[1, 2], [-1]]), backend="minisat22").model
[-1, 2]
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import time
from collections.abc import Sequence
from itertools import islice
from typing import Any

from sudosat.errors import MissingExtraError, SolverError, SolverNotFoundError
from sudosat.process import die_with_parent, wait_within
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.adapter import describe_exit, finish, unsat_without_asking
from sudosat.sat.solvers.base import Laps
from sudosat.sat.solvers.budget import (
    Deadline,
    budget_keywords,
    collector_paused,
)

__all__ = [
    "ONE_SHOT_BACKENDS",
    "availability",
    "budget_refusals",
    "canonical_backend",
    "full_model",
    "limited_search",
    "pysat_backends",
    "solve_pysat",
    "solver_stats",
]

# Back ends that cannot be stopped in process, so they run in a worker: Kissat is not
# incremental (a second solve call aborts the whole process), Lingeling has no limited solve.
ONE_SHOT_BACKENDS = frozenset({"kissat404", "lingeling"})
_CHUNK = 20_000  # clauses handed to PySAT between two looks at the clock
_FIRST_BUDGET = 100  # conflicts in the first slice of a limited search
_SLICE_S = 0.04  # aim for slices of about this length, so T is overshot by about as much
_UNLIMITED = 1 << 30  # a conflict slice that never ends first when only budgets bound the call


def _backend_names() -> dict[str, str]:
    """Every name and alias PySAT knows -> its canonical name."""
    from pysat.solvers import SolverNames

    names = {}
    for canonical, aliases in vars(SolverNames).items():
        if canonical.startswith("_") or not isinstance(aliases, tuple):
            continue
        names[canonical] = canonical
        for alias in aliases:
            names.setdefault(alias, canonical)
    return names


@functools.cache
def _probe_backends() -> dict[str, str]:
    """Canonical back-end name -> "" when it solves a tiny formula here, else why not."""
    try:
        from pysat.solvers import Solver

        names = sorted(set(_backend_names().values()))
    except ImportError:
        return {"*": str(MissingExtraError("a PySAT solver", "pysat", "pysat"))}
    verdicts = {}
    for name in names:
        try:
            with Solver(name=name, bootstrap_with=[[1, 2], [-1]]) as solver:
                fine = solver.solve() is True and solver.get_model()[:2] == [-1, 2]
            verdicts[name] = "" if fine else "answers a tiny formula wrongly"
        except Exception as exc:  # any failure means "not usable here", whatever its type
            verdicts[name] = f"PySAT cannot run it here ({type(exc).__name__}: {exc})"
    return verdicts


def pysat_backends() -> list[str]:
    """The canonical names of PySAT's back ends that work on this machine.

    Examples
    --------
    >>> "minisat22" in pysat_backends()
    True
    """
    return [name for name, why in _probe_backends().items() if not why and name != "*"]


def canonical_backend(backend: str) -> str:
    """PySAT's canonical name for `backend` (a name or alias), once it is known to work here.

    Examples
    --------
    >>> canonical_backend("m22")
    'minisat22'

    Raises
    ------
    SolverNotFoundError
        PySAT is missing, knows no such name, or its solver fails here.
    """
    label = f"pysat:{backend}"
    verdicts = _probe_backends()
    if "*" in verdicts:
        raise SolverNotFoundError(f"{label}: {verdicts['*']}")
    canonical = _backend_names().get(backend.lower())
    if canonical is None:
        working = ", ".join(pysat_backends())
        raise SolverNotFoundError(f"{label}: PySAT has no solver of that name; working: {working}")
    if verdicts.get(canonical):
        raise SolverNotFoundError(f"{label}: {verdicts[canonical]}")
    return canonical


# How a back end's budgets are tried (budget_refusals): each at this size, on a formula that
# needs far more of that work. A back end that honours a budget stops at it or a little
# past it, the same every time: MiniSat looks at its budgets only before a decision, so
# conflicts that follow one another without one all run (pysat:minisat22 stops at 13 for
# 10, 102 for 100); Glucose only between restarts (188 for 10).
_BUDGET_TRIAL = {"max_conflicts": ("conf_budget", "conflicts", 10),
                 "max_propagations": ("prop_budget", "propagations", 100)}
_TRIAL_PIGEONS = 7  # into 6 holes: unsatisfiable, over 400 conflicts and 2,000 propagations
# for every back end, solved whole within 10 ms by one that ignores its budget


@functools.cache
def budget_refusals(backend: str) -> dict[str, str]:
    """The work budgets ``pysat:BACKEND`` cannot honour, each with why (``{}``: it honours both).

    A back end in a worker process (:data:`ONE_SHOT_BACKENDS`) honours none.
    The others are tried once per process, each budget on its own on the
    pigeonhole formula of 7 pigeons (a few milliseconds): a back end that has
    no such budget (CaDiCaL's propagations), or that runs to its answer
    regardless (Maple counts no propagations, so their budget never stops
    it), cannot honour it. One that stops past its budget (MiniSat by a few
    conflicts, Glucose by a restart's worth) honours it, reproducibly.

    Raises
    ------
    SolverNotFoundError
        PySAT is missing or has no working solver of that name.

    Examples
    --------
    >>> budget_refusals("minisat22")
    {}
    >>> budget_refusals("cadical195")["max_propagations"]
    'Limit on propagations is currently unsupported by CaDiCaL.'
    """
    canonical = canonical_backend(backend)
    if canonical in ONE_SHOT_BACKENDS:
        why = "it runs in a worker process, which takes no work budget"
        return {"max_conflicts": why, "max_propagations": why}
    from pysat.solvers import Solver

    from sudosat.sat.formulas import pigeonhole

    clauses = [list(clause) for clause in pigeonhole(_TRIAL_PIGEONS, _TRIAL_PIGEONS - 1)]
    refused = {}
    for budget, (method, counter, limit) in _BUDGET_TRIAL.items():
        with Solver(name=canonical, bootstrap_with=clauses) as solver:
            try:
                getattr(solver, method)(limit)
            except NotImplementedError as exc:
                refused[budget] = " ".join(str(exc).split()) or "PySAT offers no such budget"
                continue
            answer = solver.solve_limited()
            spent = int(solver_stats(solver).get(counter, 0))
        if answer is not None:  # the budget did not stop it
            refused[budget] = (f"it counts no {counter}, so their budget never stops it" if not
                               spent else f"asked to stop after {limit} {counter}, it ran to "
                               f"its answer ({spent} {counter})")
    return refused


def solve_pysat(
    cnf: CNF,
    *,
    backend: str,
    deadline: Deadline | None = None,
    seed: int = 0,
    worker: bool | None = None,
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
) -> Result:
    """Solve `cnf` with one of PySAT's bundled solvers.

    Parameters
    ----------
    cnf : CNF
    backend : str
        A PySAT solver name or alias (``minisat22``, ``m22``, ``cadical195``,
        ``kissat404`` ...); :func:`pysat_backends` lists those that work here.
    deadline : Deadline, optional
        When to stop, on the deadline's own clock (wall or CPU). In process,
        the search runs in slices of a conflict budget (``conf_budget`` +
        ``solve_limited``) that adapt to last about 40 ms, and the clock is
        read between slices: PySAT's ``interrupt()`` never reaches CaDiCaL or
        Kissat. Kissat (not incremental) and Lingeling (no limited solve) run
        in a worker process killed at the deadline; under a CPU deadline the
        worker's own CPU time is what is bounded (see
        :func:`sudosat.process.wait_within`).
    seed : int
        Accepted for the common contract; PySAT exposes no seed.
    worker : bool, optional
        Force (True) or forbid (False) the worker process; by default only
        the back ends that need one use it.
    max_conflicts, max_propagations : int, optional
        Work budgets (``conf_budget``, ``prop_budget``); when one runs out the
        result is UNKNOWN, its ``stop`` saying which (CONFLICTS, PROPAGATIONS).
        Only in process: a back end in a worker refuses them, as does one
        without that budget (CaDiCaL has no propagation budget).

    Returns
    -------
    Result
        The back end's counters and, in milliseconds, ``load_cpu_ms``,
        ``load_wall_ms`` (handing the clauses to it) and ``search_cpu_ms``,
        ``search_wall_ms`` (its search), measured in the process that searched.

    Raises
    ------
    SolverNotFoundError
        PySAT is missing or has no working solver of that name.
    SolverError
        The back end crashed, returned a wrong model, or cannot honour a budget.
    """
    del seed  # PySAT's API takes no seed
    started = time.perf_counter()
    deadline = deadline or Deadline(None)
    name, canonical = f"pysat:{backend}", canonical_backend(backend)
    budgets = budget_keywords(max_conflicts, max_propagations)
    in_worker = canonical in ONE_SHOT_BACKENDS if worker is None else worker
    if budgets and in_worker:
        raise SolverError(f"{name} runs in a worker process and cannot honour "
                          f"{' or '.join(budgets)}")
    if cnf.has_empty_clause:
        return unsat_without_asking(started, name)
    if not cnf.num_clauses:  # PySAT's MapleSAT dies of a segmentation fault on it
        answer = Result(Status.SAT, full_model([], cnf.num_vars), stop=Stop.ANSWERED)
        return finish(answer, cnf, started, name, name)
    outcome = None
    if not in_worker:
        try:
            outcome = _solve_in_process(cnf, canonical, deadline, name, budgets)
        except NotImplementedError:
            if worker is False or budgets:
                raise SolverError(f"{name} cannot be stopped in process; allow a worker") from None
    if outcome is None:  # a back end without limited solving, in a process we can kill
        outcome = _solve_in_worker(cnf, canonical, deadline, name)
    status, model, stats, stop = outcome
    return finish(Result(status, model, stats, stop=stop), cnf, started, name, name)


_Outcome = tuple[Status, list[int] | None, dict[str, float], Stop]


def _solve_in_process(
    cnf: CNF, backend: str, deadline: Deadline | None, name: str, budgets: dict[str, int]
) -> _Outcome:
    from pysat.solvers import Solver

    laps = Laps()
    # Handing the clauses over allocates a Python list per clause: a collection falling due
    # meanwhile would scan the caller's whole heap inside this timed call (measured: 190 ms
    # for a heap of 3 million lists). Nothing here makes cycles; passes run after the call.
    with collector_paused(), Solver(name=backend) as solver:
        clauses = iter(cnf)
        while chunk := list(islice(clauses, _CHUNK)):
            if deadline is not None and deadline.expired():
                stats = {**laps.lap("load"), "search_cpu_ms": 0.0, "search_wall_ms": 0.0}
                return Status.UNKNOWN, None, stats, Stop.TIME
            solver.append_formula(chunk)
        load = laps.lap("load")  # copying the clauses into the C++ solver ends here
        answer, stop = limited_search(
            solver, deadline, name=name, max_conflicts=budgets.get("max_conflicts"),
            max_propagations=budgets.get("max_propagations"),
        )
        model = full_model(solver.get_model() or [], cnf.num_vars) if answer else None
        stats = {**solver_stats(solver), **load, **laps.lap("search")}
    status = Status.UNKNOWN if answer is None else Status.SAT if answer else Status.UNSAT
    return status, model, stats, stop


def solver_stats(solver: Any) -> dict[str, float]:
    """The numeric counters a PySAT solver keeps (conflicts, decisions ...); {} for Kissat."""
    try:
        stats = solver.accum_stats() or {}
    except NotImplementedError:  # Kissat keeps its counters to itself
        return {}
    return {key: value for key, value in stats.items() if isinstance(value, int | float)}


def limited_search(
    solver: Any,
    deadline: Deadline | None,
    assumptions: Sequence[int] = (),
    *,
    name: str = "pysat",
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
) -> tuple[bool | None, Stop]:
    """Solve under `assumptions` until an answer, the deadline, or a work budget runs out.

    Without a limit of any kind this is PySAT's ``solve``. With a deadline, the
    search runs in slices of a conflict budget (``conf_budget`` +
    ``solve_limited``), the clock read between slices (PySAT's ``interrupt()``
    never reaches CaDiCaL or Kissat); a slice's budget doubles while slices
    are short and halves when one runs long, so each lasts about ``_SLICE_S``.
    The work budgets cap the slices.

    Parameters
    ----------
    solver : pysat.solvers.Solver
        A loaded solver whose back end has a limited solve (not Lingeling).
    deadline : Deadline or None
    assumptions : sequence of int
        Literals assumed true for this call only.
    name : str
        How an error names the solver.
    max_conflicts, max_propagations : int, optional

    Returns
    -------
    (bool or None, Stop)
        True (SAT), False (UNSAT) or None, and why the search stopped: ANSWERED
        with an answer, else TIME, CONFLICTS or PROPAGATIONS.

    Raises
    ------
    SolverError
        The back end cannot honour a budget that was given (CaDiCaL has no
        propagation budget).
    """
    assumed = list(assumptions)
    timed = deadline is not None and deadline.limited
    if not timed and max_conflicts is None and max_propagations is None:
        return solver.solve(assumptions=assumed), Stop.ANSWERED
    start = _work(solver)
    budget = _FIRST_BUDGET if timed else _UNLIMITED
    while not (timed and deadline is not None and deadline.expired()):
        spent = _work(solver)
        conflicts, propagations = (spent[0] - start[0], spent[1] - start[1])
        if max_conflicts is not None and conflicts >= max_conflicts:
            return None, Stop.CONFLICTS
        if max_propagations is not None and propagations >= max_propagations:
            return None, Stop.PROPAGATIONS
        slice_budget = budget if max_conflicts is None else min(budget, max_conflicts - conflicts)
        left = None if max_propagations is None else max_propagations - propagations
        _set_budgets(solver, name, slice_budget, max_conflicts is not None, left)
        clock = time.monotonic if deadline is None else deadline.now
        began = clock()
        answer = solver.solve_limited(assumptions=assumed)
        if answer is not None:
            return answer, Stop.ANSWERED
        if not timed or deadline is None:
            if _work(solver) == spent:  # a back end that counts nothing (Kissat) stopped
                return None, Stop.CONFLICTS if max_conflicts is not None else Stop.PROPAGATIONS
            continue  # only a budget can have stopped it: the next look says which
        took = clock() - began
        target = min(_SLICE_S, deadline.remaining_ms() / 4000.0)
        if took < target / 2:
            budget *= 2
        elif took > target:
            budget = max(10, budget // 2)
    return None, Stop.TIME


def _set_budgets(
    solver: Any, name: str, conflicts: int, counted: bool, propagations: int | None
) -> None:
    """Give the next ``solve_limited`` its conflict and propagation budgets.

    `counted` says whether the caller asked for a conflict budget (else the conflicts are
    only a slice of a timed search, and a back end without budgets runs in a worker).
    """
    try:
        solver.conf_budget(conflicts)
    except NotImplementedError as exc:
        if not counted:
            raise  # no limited solve at all: the caller runs it in a worker instead
        raise SolverError(f"{name} cannot honour max_conflicts: {exc}") from None
    if propagations is not None:
        try:
            solver.prop_budget(propagations)
        except NotImplementedError as exc:
            raise SolverError(f"{name} cannot honour max_propagations: {exc}") from None


def _work(solver: Any) -> tuple[int, int]:
    """The conflicts and propagations the solver has counted over its life."""
    stats = solver_stats(solver)
    return int(stats.get("conflicts", 0)), int(stats.get("propagations", 0))


def full_model(lits: list[int], num_vars: int) -> list[int]:
    """One literal per variable 1..num_vars; variables the solver never saw are False."""
    model = [-v for v in range(1, num_vars + 1)]
    for lit in lits:
        if 0 < abs(lit) <= num_vars:
            model[abs(lit) - 1] = lit
    return model


def _solve_in_worker(cnf: CNF, backend: str, deadline: Deadline, label: str) -> _Outcome:
    """Solve in a child process (fork where available) killed at the deadline.

    Under a wall-clock deadline the worker is killed when T has passed; under a
    CPU deadline, when the worker's own CPU time reaches what was left of T
    (a wall-clock safety net far above it stops a worker that sleeps); see
    :func:`sudosat.process.wait_within`.
    """
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context: Any = multiprocessing.get_context(method)  # typeshed's BaseContext has no Process
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_worker_main,
        args=(sender, backend, cnf.flat, cnf.num_vars, os.getpid()),
        daemon=True,
    )
    process.start()
    sender.close()
    try:
        if not wait_within(deadline, process.pid, receiver.poll):
            return Status.UNKNOWN, None, {}, Stop.TIME
        try:
            message = receiver.recv()
        except EOFError:
            message = None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    if message is None:
        raise SolverError(f"{label} crashed ({describe_exit(process.exitcode or 0)})")
    if message[0] == "error":
        raise SolverError(f"{label} failed: {message[1]}")
    _, word, model, stats, stop = message
    return Status(word), model, stats, Stop(stop)


def _worker_main(sender, backend: str, flat, num_vars: int, parent: int) -> None:
    """The worker: solve without a limit (the parent kills it at the deadline), send the outcome.

    It dies with its parent, whatever kills the parent (even SIGKILL).
    """
    die_with_parent(signal.SIGKILL, parent)
    try:
        cnf = CNF.from_flat(flat, num_vars)
        status, model, stats, stop = _solve_in_process(cnf, backend, None, f"pysat:{backend}", {})
        sender.send(("ok", status.value, model, stats, stop.value))
    except Exception as exc:  # reported to the parent, which raises SolverError
        sender.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        sender.close()


def availability(name: str, **options: object) -> tuple[bool, str]:
    """Whether ``pysat:NAME`` can run here, and if not, why (the reason is "" when it can).

    Examples
    --------
    >>> availability("pysat:minisat22")
    (True, '')
    """
    del options  # solver options do not decide whether the back end works
    try:
        canonical_backend(name.removeprefix("pysat:"))
    except SolverError as exc:
        return False, exc.reason
    return True, ""
