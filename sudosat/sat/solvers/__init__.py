"""Our SAT solvers and the adapters to external ones, behind one :class:`Result`.

One registry names them all (:mod:`sudosat.sat.solvers.registry`): :func:`solve`
runs one once, :func:`open_solver` keeps one loaded for calls under assumptions,
and both take a :class:`Deadline` (``deadline=``) and the work budgets
``max_conflicts`` and ``max_propagations``; every answer's :class:`Stop` says why
it ended.

>>> from sudosat.sat.cnf import CNF
>>> from sudosat.sat.solvers import solve
>>> solve(CNF([[1, 2], [-1]]), "cdcl").model
[-1, 2]
"""

from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.base import verify_result
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.registry import (
    SolverInfo,
    availability,
    builtin_solver_names,
    check_budgets,
    get_solver,
    incremental_support,
    list_solvers,
    open_solver,
    solve,
)

__all__ = [
    "Deadline",
    "Result",
    "SolverInfo",
    "Status",
    "Stop",
    "availability",
    "builtin_solver_names",
    "check_budgets",
    "get_solver",
    "incremental_support",
    "list_solvers",
    "open_solver",
    "solve",
    "verify_result",
]
