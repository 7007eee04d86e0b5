"""What every solver shares: the deadline, the registry of names, the model check.

A solver is a function ``solve(cnf, *, time_limit_ms=None, seed=0, **options)
-> Result``. It never raises for UNSAT or for a time-out (those are results);
it raises :class:`~sudosat.errors.SolverError` when it cannot run at all.

This layer knows nothing of Sudoku.
"""

from __future__ import annotations

import importlib
import time
import warnings
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from sudosat.cnf import CNF, DimacsWarning
from sudosat.errors import SolverError
from sudosat.result import Result, Status

SolveFunction = Callable[..., Result]


@dataclass(frozen=True)
class SolverInfo:
    """A solver name and whether it can run on this machine."""

    name: str
    description: str
    available: bool
    why_not: str = ""


# name -> (module, function, one-line description). Imported on first use, so
# that asking for `cdcl` never pays for importing PySAT or subprocess machinery.
_BUILTIN: dict[str, tuple[str, str, str]] = {
    "cdcl": (
        "sudosat.solvers.cdcl",
        "solve",
        "our CDCL solver (watched literals, 1UIP, VSIDS, restarts)",
    ),
    "dpll": ("sudosat.solvers.dpll", "solve_dpll", "our DPLL with a branching heuristic"),
    "dp": ("sudosat.solvers.dpll", "solve_dp", "our basic DPLL (first unassigned variable)"),
    "walksat": (
        "sudosat.solvers.local",
        "solve_walksat",
        "our WalkSAT local search (SAT or UNKNOWN)",
    ),
    "gsat": ("sudosat.solvers.local", "solve_gsat", "our GSAT local search (SAT or UNKNOWN)"),
    "zchaff": (
        "sudosat.solvers.external",
        "solve_zchaff",
        "zChaff, the course's reference (your binary)",
    ),
}
# prefix -> (module, function, keyword that receives the rest of the name)
_PREFIXED: dict[str, tuple[str, str, str]] = {
    "pysat:": ("sudosat.solvers.external", "solve_pysat", "backend"),
    "exec:": ("sudosat.solvers.external", "solve_exec", "program"),
}


def builtin_solver_names() -> list[str]:
    """The plain solver names, our own first."""
    return list(_BUILTIN)


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
    known = ", ".join([*_BUILTIN, "pysat:NAME", "exec:PROGRAM"])
    raise SolverError(f"unknown solver {name!r}; known solvers: {known}")


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


# A formula is solved on its used variables only when its header declares far
# more than its literals could use: then the solvers' per-variable arrays are
# sized from what is there, not from a header that may lie by millions.
_COMPACT_MIN_UNUSED = 100_000


class Compaction:
    """A formula renumbered onto the variables its clauses use, and the way back.

    Attributes
    ----------
    cnf : CNF
        The same clauses over variables 1..k, in the order of the originals.
    origin : array
        ``origin[i - 1]`` is the original number of compact variable ``i``.
    num_vars : int
        The original formula's variable count.
    """

    __slots__ = ("cnf", "origin", "num_vars")

    def __init__(self, cnf: CNF, origin: array, num_vars: int) -> None:
        self.cnf, self.origin, self.num_vars = cnf, origin, num_vars

    @classmethod
    def of(cls, cnf: CNF) -> Compaction | None:
        """The compaction of `cnf` when its header is far larger than its clauses need, else None.

        The test costs O(1): a formula with L literal occurrences uses at most L
        variables, so only a header above ``2 L + 100,000`` is worth renumbering.
        A :class:`~sudosat.cnf.DimacsWarning` says what was done.
        """
        if cnf.num_vars <= 2 * cnf.num_literals + _COMPACT_MIN_UNUSED:
            return None
        used = sorted(set(map(abs, cnf.flat)) - {0})
        number = {var: index for index, var in enumerate(used, start=1)}
        flat = array(
            "i", [number[lit] if lit > 0 else -number[-lit] if lit else 0 for lit in cnf.flat]
        )
        warnings.warn(
            f"the formula declares {cnf.num_vars:,} variables but its clauses use "
            f"{len(used):,}: the solver works on those, and the model sets the other "
            f"{cnf.num_vars - len(used):,} false",
            DimacsWarning,
            stacklevel=3,
        )
        return cls(CNF.from_flat(flat, len(used)), array("q", used), cnf.num_vars)

    def extend(self, model: list[int]) -> list[int]:
        """A model of the compact formula as a model of the original (unused variables false)."""
        full = list(range(-1, -self.num_vars - 1, -1))
        origin = self.origin
        for lit in model:
            var = origin[abs(lit) - 1]
            full[var - 1] = var if lit > 0 else -var
        return full


def verify_result(cnf: CNF, result: Result, who: str | None = None) -> None:
    """Fail loudly when a SAT answer's model does not satisfy `cnf`; else mark it checked.

    Every solver's answer goes through here once: a solver that checks its own
    model calls it, and :func:`solve` calls it again, which then costs nothing
    (``result.model_checked`` is set after the first successful check).

    Parameters
    ----------
    who : str, optional
        How the error names the solver (default: ``solver 'NAME'``).

    Raises
    ------
    SolverError
        An unknown status, or a model that is missing, incomplete, or falsifies a clause.
    """
    who = who or f"solver {result.solver!r}"
    if result.status is not Status.SAT:
        if result.status is Status.UNSAT or result.status is Status.UNKNOWN:
            return
        raise SolverError(f"{who} returned an unknown status {result.status!r}")
    if result.model is None:
        raise SolverError(f"{who} answered SAT without a model")
    if result.model_checked:
        return
    try:
        cnf.check_model(result.model)
    except ValueError as exc:
        raise SolverError(f"{who} returned a wrong model: {exc}") from None
    result.model_checked = True


def list_solvers(extra: list[str] | None = None) -> list[SolverInfo]:
    """Every built-in solver, PySAT's back ends and the given extra names, with availability."""
    infos = []
    for name, (module, _, description) in _BUILTIN.items():
        available, why = _availability(module, name)
        infos.append(SolverInfo(name, description, available, why))
    try:
        from sudosat.solvers.external import pysat_backends

        backends = pysat_backends()
    except ImportError as exc:
        infos.append(
            SolverInfo(
                "pysat:NAME", "PySAT's bundled solvers", False, f"cannot import PySAT: {exc}"
            )
        )
        backends = []
    for backend in backends:
        infos.append(SolverInfo(f"pysat:{backend}", f"PySAT's {backend}, in process", True))
    for name in extra or []:
        if name.startswith("exec:"):
            available, why = _availability("sudosat.solvers.external", name)
            infos.append(SolverInfo(name, "an external SAT-competition binary", available, why))
    return infos


def _availability(module: str, name: str) -> tuple[bool, str]:
    try:
        loaded = importlib.import_module(module)
    except ImportError as exc:
        return False, f"cannot import {module}: {exc}"
    check = getattr(loaded, "availability", None)
    return (True, "") if check is None else check(name)


def make_result(
    status: Status, model: list[int] | None, stats: dict, started: float, solver: str
) -> Result:
    """Build a Result whose ``elapsed_ms`` runs from `started` (a ``time.perf_counter()``)."""
    return Result(status, model, stats, (time.perf_counter() - started) * 1000.0, solver)
