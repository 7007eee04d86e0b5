"""Our SAT solvers and the adapters to external ones, behind one :class:`Result`.

>>> from sudosat.sat.cnf import CNF
>>> from sudosat.sat.solvers import solve
>>> solve(CNF([[1, 2], [-1]]), "cdcl").model
[-1, 2]
"""

from sudosat.sat.result import Result, Status
from sudosat.sat.solvers.base import verify_result
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.registry import (
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
