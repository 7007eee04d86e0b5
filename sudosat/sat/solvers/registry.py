"""The solvers by name: one registry for ours, zChaff, ``exec:PROGRAM`` and ``pysat:NAME``.

One table names every solver and says how it runs: one-shot (a function
``solve(cnf, **options) -> Result``), incrementally (an opener of a solver
kept loaded, whose calls take assumptions; see
:mod:`sudosat.sat.solvers.incremental`), and which work budgets it honours
(``max_conflicts``, ``max_propagations``). A solver registered here is
available both ways: :func:`solve` runs it once and checks its answer,
:func:`open_solver` keeps it loaded (natively, or re-solving from scratch on
every call when it has no incremental interface). :func:`get_solver` gives
the bare function; :func:`list_solvers` and :func:`availability` say what
runs on this machine and why not. The solvers and adapters are imported on
first use, so asking for ``cdcl`` never pays for importing PySAT or the
process machinery; no solver imports this module.

Examples
--------
>>> from sudosat.sat.cnf import CNF
>>> solve(CNF([[1, 2], [-1]]), "cdcl").model
[-1, 2]
>>> availability("exec:no-such-solver-here")
(False, "exec:no-such-solver-here: no program 'no-such-solver-here' on PATH")
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result
from sudosat.sat.solvers.base import Compaction, verify_result
from sudosat.sat.solvers.budget import BUDGETS, Deadline, budget_keywords, one_deadline

__all__ = [
    "SolveFunction",
    "SolverEntry",
    "SolverInfo",
    "availability",
    "builtin_solver_names",
    "check_budgets",
    "get_solver",
    "incremental_support",
    "list_solvers",
    "open_solver",
    "refused_budgets",
    "solve",
    "solver_entry",
]

SolveFunction = Callable[..., Result]


@dataclass(frozen=True)
class SolverInfo:
    """A solver name and whether it can run on this machine."""

    name: str
    description: str
    available: bool
    why_not: str = ""


@dataclass(frozen=True)
class SolverEntry:
    """How one solver (or family of solvers) runs: the registry's one row for it.

    Attributes
    ----------
    module, function : str
        Where its one-shot ``solve(cnf, **options) -> Result`` lives (imported on first use).
    description : str
        One line for ``sudosat solvers``.
    session : str or None
        The class in :mod:`sudosat.sat.solvers.incremental` that keeps it
        loaded and solves under assumptions; None for a solver without
        assumptions (each incremental call then runs it one-shot).
    budgets : frozenset of str
        The work budgets it honours (of :data:`~sudosat.sat.solvers.budget.BUDGETS`).
    keyword : str or None
        For a family (``pysat:``, ``exec:``), the keyword that receives the
        rest of the name (``backend``, ``program``).
    refusals : str or None
        For a family whose members differ, the function of `module` that
        takes the rest of the name and returns the budgets that member cannot
        honour, each with why (``{"max_propagations": "..."}``).
    """

    module: str
    function: str
    description: str
    session: str | None = None
    budgets: frozenset[str] = frozenset()
    keyword: str | None = None
    refusals: str | None = None


_BOTH = frozenset(BUDGETS)

# name -> entry. Imported on first use.
_BUILTIN: dict[str, SolverEntry] = {
    "cdcl": SolverEntry(
        "sudosat.sat.solvers.cdcl",
        "solve",
        "our CDCL solver (watched literals, 1UIP, VSIDS, restarts)",
        session="CdclSession",
        budgets=_BOTH,
    ),
    "dpll": SolverEntry(
        "sudosat.sat.solvers.dpll", "solve_dpll", "our DPLL with a branching heuristic",
        budgets=_BOTH,
    ),
    "dp": SolverEntry(
        "sudosat.sat.solvers.dpll", "solve_dp", "our basic DPLL (first unassigned variable)",
        budgets=_BOTH,
    ),
    "walksat": SolverEntry(
        "sudosat.sat.solvers.local",
        "solve_walksat",
        "our WalkSAT local search (SAT or UNKNOWN)",
    ),
    "gsat": SolverEntry(
        "sudosat.sat.solvers.local", "solve_gsat", "our GSAT local search (SAT or UNKNOWN)"
    ),
    "zchaff": SolverEntry(
        "sudosat.sat.solvers.zchaff",
        "solve_zchaff",
        "zChaff, the course's reference (your binary)",
    ),
}
# prefix -> entry of the family; the rest of the name goes to the entry's keyword
_PREFIXED: dict[str, SolverEntry] = {
    "pysat:": SolverEntry(
        "sudosat.sat.solvers.pysat",
        "solve_pysat",
        "PySAT's bundled solvers, in process",
        session="PySatSession",
        budgets=_BOTH,
        keyword="backend",
        refusals="budget_refusals",
    ),
    "exec:": SolverEntry(
        "sudosat.sat.solvers.competition",
        "solve_exec",
        "an external SAT-competition binary",
        keyword="program",
    ),
}


def builtin_solver_names() -> list[str]:
    """The plain solver names, our own first."""
    return list(_BUILTIN)


def _unknown_name(name: str) -> SolverError:
    known = ", ".join([*_BUILTIN, "pysat:NAME", "exec:PROGRAM"])
    return SolverError(f"unknown solver {name!r}; known solvers: {known}")


def solver_entry(name: str) -> tuple[SolverEntry, dict[str, str]]:
    """The registry's entry for `name`, and the keyword its family binds (``{}`` for none).

    Raises
    ------
    SolverError
        The name is unknown.

    Examples
    --------
    >>> entry, bound = solver_entry("pysat:minisat22")
    >>> entry.session, bound
    ('PySatSession', {'backend': 'minisat22'})
    """
    if name in _BUILTIN:
        return _BUILTIN[name], {}
    for prefix, entry in _PREFIXED.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            return entry, {str(entry.keyword): name[len(prefix) :]}
    raise _unknown_name(name)


def _module_of(name: str) -> str | None:
    """The module that holds solver `name`, or None for a name the registry does not know."""
    try:
        return solver_entry(name)[0].module
    except SolverError:
        return None


def refused_budgets(name: str, budgets: Iterable[str]) -> dict[str, str]:
    """Each of `budgets` (names of :data:`BUDGETS`) that solver `name` cannot honour, with why.

    The why is "" when the solver takes no such budget at all, else the detail
    (PySAT's CaDiCaL: no propagation budget). Asking costs nothing for our own
    solvers; for a family member (``pysat:NAME``) it asks the family once.

    Raises
    ------
    SolverError
        The name is unknown (or its family cannot run it).

    Examples
    --------
    >>> refused_budgets("walksat", ["max_conflicts"]), refused_budgets("cdcl", BUDGETS)
    ({'max_conflicts': ''}, {})
    """
    entry, bound = solver_entry(name)
    wanted = list(budgets)
    refused = {budget: "" for budget in wanted if budget not in entry.budgets}
    rest = [budget for budget in wanted if budget not in refused]
    if rest and entry.refusals is not None:
        member = getattr(importlib.import_module(entry.module), entry.refusals)
        theirs = member(*bound.values())
        refused.update({budget: theirs[budget] for budget in rest if budget in theirs})
    return refused


def check_budgets(
    name: str, max_conflicts: int | None = None, max_propagations: int | None = None
) -> dict[str, int]:
    """The budgets that are set, after checking that solver `name` can honour them.

    Raises
    ------
    SolverError
        A budget is not a positive integer, or the solver cannot honour it (one
        line naming the solver: a budget is never silently ignored).

    Examples
    --------
    >>> check_budgets("dpll", max_conflicts=10)
    {'max_conflicts': 10}
    >>> check_budgets("walksat", max_conflicts=10)
    Traceback (most recent call last):
    ...
    sudosat.errors.SolverError: solver 'walksat' cannot honour max_conflicts
    """
    budgets = budget_keywords(max_conflicts, max_propagations)
    refused = refused_budgets(name, budgets)
    if refused:
        details = "; ".join(why for why in refused.values() if why)
        raise SolverError(f"solver {name!r} cannot honour {' or '.join(refused)}"
                          + (f": {details}" if details else ""))
    return budgets


def get_solver(name: str) -> SolveFunction:
    """The solve function registered under `name`.

    ``pysat:NAME`` and ``exec:PROGRAM`` name families; the part after the colon
    is bound to the function's ``backend`` or ``program`` keyword.

    Raises
    ------
    SolverError
        The name is unknown.
    """
    entry, bound = solver_entry(name)
    target = getattr(importlib.import_module(entry.module), entry.function)
    if not bound:
        return target

    def bound_solve(cnf: CNF, _target=target, _bound=bound, **options) -> Result:
        return _target(cnf, **_bound, **options)

    return bound_solve


def solve(
    cnf: CNF,
    solver: str = "cdcl",
    *,
    deadline: Deadline | None = None,
    time_limit_ms: float | None = None,
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
    **options,
) -> Result:
    """Solve `cnf` with the named solver and check the answer before returning it.

    Parameters
    ----------
    cnf : CNF
    solver : str
        A registered name (see :func:`get_solver`).
    deadline : Deadline, optional
        When to stop (wall or CPU clock); passed as it is to the solver, whose
        loop reads it. The result is UNKNOWN, ``stop`` TIME, when it passes.
    time_limit_ms : float, optional
        A convenience for `deadline`: a wall-clock limit from now, made into a
        :class:`~sudosat.sat.solvers.budget.Deadline` here, once. Give one or the other.
    max_conflicts, max_propagations : int, optional
        Work budgets: the result is UNKNOWN when one runs out, its ``stop``
        saying which (``CONFLICTS``, ``PROPAGATIONS``). The same budget stops
        the same search at the same point on any machine.
    **options
        Passed to the solver (``seed``, ``heuristic``, ``proof``, ``zchaff`` ...).

    Raises
    ------
    SolverError
        The solver cannot run, cannot honour a budget that was given, or
        returned a model that falsifies the formula.
    ValueError
        Both `deadline` and `time_limit_ms` were given.
    """
    started = time.perf_counter()
    deadline = one_deadline(deadline, time_limit_ms)
    budgets = check_budgets(solver, max_conflicts, max_propagations)
    function = get_solver(solver)
    # A proof is logged over the compact numbers and mapped back below, so the same
    # step serves a formula with or without --proof.
    compact = Compaction.of(cnf)
    target = cnf if compact is None else compact.cnf
    # Budgets are passed only when set: a solver takes them as keywords of its own.
    result = function(target, deadline=deadline, **budgets, **options)
    result.solver = result.solver or solver
    if not result.elapsed_ms:
        result.elapsed_ms = (time.perf_counter() - started) * 1000.0
    verify_result(target, result)
    return result if compact is None else compact.restore(result)


def availability(name: str, **options: object) -> tuple[bool, str]:
    """Whether solver `name` can run here, and if not, why (the reason is "" when it can).

    Parameters
    ----------
    name : str
        A registered name (see :func:`get_solver`).
    **options
        Solver options that decide it, e.g. ``zchaff=PATH`` (``--zchaff``).

    Examples
    --------
    >>> availability("cdcl")
    (True, '')
    >>> availability("pysat:minisat22")
    (True, '')
    """
    module = _module_of(name)
    if module is None:
        return False, _unknown_name(name).reason
    try:
        loaded = importlib.import_module(module)
    except ImportError as exc:
        return False, f"cannot import {module}: {exc}"
    check = getattr(loaded, "availability", None)  # our own solvers run wherever Python does
    return (True, "") if check is None else check(name, **options)


def list_solvers(extra: list[str] | None = None, **options: object) -> list[SolverInfo]:
    """Every built-in solver, PySAT's back ends and the given extra names, with availability.

    Parameters
    ----------
    extra : list of str, optional
        More names to check, e.g. ``exec:minisat``.
    **options
        Passed to every check (see :func:`availability`), e.g. ``zchaff=PATH``.
    """
    infos = []
    for name, entry in _BUILTIN.items():
        infos.append(SolverInfo(name, entry.description, *availability(name, **options)))
    from sudosat.sat.solvers.pysat import pysat_backends

    backends = pysat_backends()
    if not backends:  # PySAT is missing, or none of its solvers works here: say why
        infos.append(
            SolverInfo("pysat:NAME", "PySAT's bundled solvers", *availability("pysat:NAME"))
        )
    for backend in backends:
        infos.append(SolverInfo(f"pysat:{backend}", f"PySAT's {backend}, in process", True))
    for name in extra or []:
        if name.startswith("exec:"):
            available, why = availability(name, **options)
            infos.append(SolverInfo(name, "an external SAT-competition binary", available, why))
    return infos


def incremental_support(solver: str) -> tuple[bool, str]:
    """Whether `solver` solves under assumptions natively, and if not, why.

    Examples
    --------
    >>> incremental_support("cdcl")
    (True, '')
    >>> incremental_support("zchaff")[0]
    False
    """
    entry, bound = solver_entry(solver)
    if entry.session is None:
        return False, f"{solver} has no incremental interface; each call runs one-shot"
    if "backend" in bound:
        from sudosat.sat.solvers.pysat import ONE_SHOT_BACKENDS, canonical_backend

        try:
            backend = canonical_backend(bound["backend"])
        except SolverError as exc:
            return False, exc.reason
        if backend in ONE_SHOT_BACKENDS:
            return False, f"{solver} is not incremental in PySAT; each call runs one-shot"
    return True, ""


def open_solver(
    solver: str,
    cnf: CNF,
    *,
    seed: int = 0,
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
    **options: Any,
) -> Any:
    """An incremental solver loaded with `cnf`, whatever its registered name.

    The object has ``solve(assumptions=(), *, deadline=None,
    max_conflicts=None, max_propagations=None) -> Result`` (answers checked: a
    model satisfies the clauses and the assumptions), ``get_core()``,
    ``add_clause(clause)``, ``close()``, and ``native`` (False for the
    one-shot fallback, :class:`~sudosat.sat.solvers.incremental.OneShot`,
    which :func:`incremental_support` explains).

    Parameters
    ----------
    solver : str
        A registered solver name.
    cnf : CNF
        The clauses to load.
    seed : int
    max_conflicts, max_propagations : int, optional
        Work budgets for every call that gives none of its own.
    **options
        The solver's own options (cdcl's tunables, ``zchaff=PATH`` ...).

    Raises
    ------
    SolverError
        The name is unknown, or the solver cannot honour a budget given.

    Examples
    --------
    >>> loaded = open_solver("dpll", CNF([[1, 2]]))
    >>> loaded.native, loaded.solve([-1]).model
    (False, [-1, 2])
    """
    from sudosat.sat.solvers import incremental

    budgets = check_budgets(solver, max_conflicts, max_propagations)
    entry, bound = solver_entry(solver)
    if entry.session is not None and incremental_support(solver)[0]:
        session = getattr(incremental, entry.session)
        return session(cnf, seed=seed, **bound, **budgets, **options)
    return incremental.OneShot(solver, solve, cnf, seed=seed, **budgets, **options)
