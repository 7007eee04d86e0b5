"""The solvers by name: one registry for ours, zChaff, ``exec:PROGRAM`` and ``pysat:NAME``.

:func:`solve` runs a named solver and checks its answer; :func:`get_solver`
gives the bare function; :func:`list_solvers` and :func:`availability` say
what runs on this machine and why not. The solvers and adapters are imported
on first use, so asking for ``cdcl`` never pays for importing PySAT or the
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
from collections.abc import Callable
from dataclasses import dataclass

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result
from sudosat.sat.solvers.base import Compaction, verify_result

__all__ = [
    "SolveFunction",
    "SolverInfo",
    "availability",
    "builtin_solver_names",
    "get_solver",
    "list_solvers",
    "solve",
]

SolveFunction = Callable[..., Result]


@dataclass(frozen=True)
class SolverInfo:
    """A solver name and whether it can run on this machine."""

    name: str
    description: str
    available: bool
    why_not: str = ""


# name -> (module, function, one-line description). Imported on first use.
_BUILTIN: dict[str, tuple[str, str, str]] = {
    "cdcl": (
        "sudosat.sat.solvers.cdcl",
        "solve",
        "our CDCL solver (watched literals, 1UIP, VSIDS, restarts)",
    ),
    "dpll": ("sudosat.sat.solvers.dpll", "solve_dpll", "our DPLL with a branching heuristic"),
    "dp": ("sudosat.sat.solvers.dpll", "solve_dp", "our basic DPLL (first unassigned variable)"),
    "walksat": (
        "sudosat.sat.solvers.local",
        "solve_walksat",
        "our WalkSAT local search (SAT or UNKNOWN)",
    ),
    "gsat": ("sudosat.sat.solvers.local", "solve_gsat", "our GSAT local search (SAT or UNKNOWN)"),
    "zchaff": (
        "sudosat.sat.solvers.zchaff",
        "solve_zchaff",
        "zChaff, the course's reference (your binary)",
    ),
}
# prefix -> (module, function, keyword that receives the rest of the name)
_PREFIXED: dict[str, tuple[str, str, str]] = {
    "pysat:": ("sudosat.sat.solvers.pysat", "solve_pysat", "backend"),
    "exec:": ("sudosat.sat.solvers.competition", "solve_exec", "program"),
}


def builtin_solver_names() -> list[str]:
    """The plain solver names, our own first."""
    return list(_BUILTIN)


def _unknown_name(name: str) -> SolverError:
    known = ", ".join([*_BUILTIN, "pysat:NAME", "exec:PROGRAM"])
    return SolverError(f"unknown solver {name!r}; known solvers: {known}")


def _module_of(name: str) -> str | None:
    """The module that holds solver `name`, or None for a name the registry does not know."""
    if name in _BUILTIN:
        return _BUILTIN[name][0]
    for prefix, (module, _, _) in _PREFIXED.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            return module
    return None


def get_solver(name: str) -> SolveFunction:
    """The solve function registered under `name`.

    ``pysat:NAME`` and ``exec:PROGRAM`` name families; the part after the colon
    is bound to the function's ``backend`` or ``program`` keyword.

    Raises
    ------
    SolverError
        The name is unknown.
    """
    if name in _BUILTIN:
        module, function, _ = _BUILTIN[name]
        return getattr(importlib.import_module(module), function)
    for prefix, (module, function, keyword) in _PREFIXED.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            target = getattr(importlib.import_module(module), function)
            rest = name[len(prefix) :]

            def bound(cnf: CNF, _target=target, _keyword=keyword, _rest=rest, **options) -> Result:
                return _target(cnf, **{_keyword: _rest}, **options)

            return bound
    raise _unknown_name(name)


def solve(
    cnf: CNF, solver: str = "cdcl", *, time_limit_ms: float | None = None, **options
) -> Result:
    """Solve `cnf` with the named solver and check the answer before returning it.

    Parameters
    ----------
    cnf : CNF
    solver : str
        A registered name (see :func:`get_solver`).
    time_limit_ms : float, optional
        Wall-clock limit for the whole call; the result is UNKNOWN when it runs out.
    **options
        Passed to the solver (``seed``, ``heuristic``, ``proof``, ``zchaff`` ...).

    Raises
    ------
    SolverError
        The solver cannot run, or returned a model that falsifies the formula.
    """
    started = time.perf_counter()
    function = get_solver(solver)
    compact = None if options.get("proof") else Compaction.of(cnf)
    target = cnf if compact is None else compact.cnf
    result = function(target, time_limit_ms=time_limit_ms, **options)
    result.solver = result.solver or solver
    if not result.elapsed_ms:
        result.elapsed_ms = (time.perf_counter() - started) * 1000.0
    verify_result(target, result)
    if compact is not None and result.model is not None:
        # The unused variables occur in no clause, so the extended model satisfies
        # `cnf` exactly when the compact one satisfies the compact formula.
        result.model = compact.extend(result.model)
    return result


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
    for name, (_, _, description) in _BUILTIN.items():
        infos.append(SolverInfo(name, description, *availability(name, **options)))
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
