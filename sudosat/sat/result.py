"""The one answer every solver gives: :class:`Status` and :class:`Result`.

This module knows nothing of Sudoku; it sits below the CNF layer's solution
formats and the solvers, which all speak it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Status(StrEnum):
    """What a solver decided about a formula.

    ``UNKNOWN`` means no decision: the time limit ran out, or an incomplete
    method (local search) gave up. It is a result, not an error.
    """

    SAT = "SAT"
    UNSAT = "UNSAT"
    UNKNOWN = "UNKNOWN"

    def __str__(self) -> str:
        return self.value

    @property
    def course_code(self) -> int:
        """The ``R`` of the course's ``s cnf R V`` line: 1, 0 or -1."""
        return {Status.SAT: 1, Status.UNSAT: 0, Status.UNKNOWN: -1}[self]

    @property
    def exit_code(self) -> int:
        """The SAT-competition exit code: 10 SAT, 20 UNSAT, 0 unknown."""
        return {Status.SAT: 10, Status.UNSAT: 20, Status.UNKNOWN: 0}[self]


@dataclass
class Result:
    """The answer of one solver call.

    Attributes
    ----------
    status : Status
        SAT, UNSAT or UNKNOWN.
    model : list of int or None
        For SAT, one signed DIMACS literal per variable 1..V, in order
        (``model[v - 1]`` is ``v`` or ``-v``); None otherwise.
    stats : dict
        Counters the solver keeps: ``decisions``, ``conflicts``,
        ``propagations``, ``restarts``, ``learnt`` ... (whatever applies).
    elapsed_ms : float
        Wall-clock time of the call in milliseconds.
    solver : str
        The solver's registered name (``cdcl``, ``zchaff``, ``pysat:minisat22`` ...).
    proof : str or None
        For UNSAT with proof logging on, the DRAT proof text.
    model_checked : bool
        Set by :func:`sudosat.sat.solvers.verify_result` once the model has passed
        :meth:`CNF.check_model` against the formula, so that a second call
        (the solver's own, then the registry's) does not scan it again.
    out_of_time : bool
        UNKNOWN because the time limit ran out, as the solver itself says. Our
        own solvers stop a little before the limit, to free their tables within
        it, so the caller's clock may not have run out yet when they answer;
        False for a solver that gave up (local search after ``max_tries``) and
        for external solvers, whose time-outs the caller's clock tells.
    """

    status: Status
    model: list[int] | None = None
    stats: dict[str, float] = field(default_factory=dict)
    elapsed_ms: float = 0.0
    solver: str = ""
    proof: str | None = None
    model_checked: bool = False
    out_of_time: bool = False

    @property
    def is_sat(self) -> bool:
        return self.status is Status.SAT

    @property
    def is_unsat(self) -> bool:
        return self.status is Status.UNSAT

    @property
    def is_unknown(self) -> bool:
        return self.status is Status.UNKNOWN
