"""Our SAT solvers and the adapters to external ones, behind one :class:`Result`.

>>> from sudosat.cnf import CNF
>>> from sudosat.solvers import solve
>>> solve(CNF([[1, 2], [-1]]), "cdcl").model
[-1, 2]
"""

from sudosat.result import Result, Status
from sudosat.solvers.base import verify_result
from sudosat.solvers.budget import Deadline
from sudosat.solvers.registry import (
    SolverInfo,
    availability,
    builtin_solver_names,
    get_solver,
    list_solvers,
    solve,
)

__all__ = [
    "Deadline",
    "Result",
    "SolverInfo",
    "Status",
    "availability",
    "builtin_solver_names",
    "get_solver",
    "list_solvers",
    "solve",
    "verify_result",
]
