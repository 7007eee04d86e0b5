"""The one answer every solver gives: :class:`Status`, :class:`Stop` and :class:`Result`.

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

    @property
    def course_code(self) -> int:
        """The ``R`` of the course's ``s cnf R V`` line: 1, 0 or -1."""
        return {Status.SAT: 1, Status.UNSAT: 0, Status.UNKNOWN: -1}[self]

    @property
    def exit_code(self) -> int:
        """The SAT-competition exit code: 10 SAT, 20 UNSAT, 0 unknown."""
        return {Status.SAT: 10, Status.UNSAT: 20, Status.UNKNOWN: 0}[self]


class Stop(StrEnum):
    """Why a solver call ended: the one record of it, from the solver's loop to the results row.

    Set where the loop stops (cdcl's and dpll's engines, local search's
    tries, PySAT's limited search, an external program's time-out) and
    carried unchanged through :class:`Result` to the row's ``stop`` column and
    the output word: ``ANSWERED`` is SAT or UNSAT, ``TIME`` is TIMEOUT,
    ``CONFLICTS``, ``PROPAGATIONS`` and ``GAVE_UP`` are UNKNOWN, ``ERROR`` is
    ERROR (a row only: a solver that fails raises instead of answering).
    """

    ANSWERED = "answered"
    TIME = "time"
    CONFLICTS = "conflicts"
    PROPAGATIONS = "propagations"
    GAVE_UP = "gave up"
    ERROR = "error"


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
    stop : Stop
        Why the call ended, as the solver's loop recorded it; every
        construction names it (keyword only, no default). ``ANSWERED`` goes
        with SAT and UNSAT, and only with them.
    core : str
        Which implementation of the solver ran, where it has two (``cdcl``:
        ``"compiled"`` or ``"python"``, see :mod:`sudosat.sat.solvers.cdcl.cores`);
        empty for the others.

    Raises
    ------
    ValueError
        A stop that does not fit the status (an answer that says it ran out,
        no answer that says it answered, or ``ERROR``).

    Examples
    --------
    >>> Result(Status.UNKNOWN, stop=Stop.CONFLICTS).stop
    <Stop.CONFLICTS: 'conflicts'>
    """

    status: Status
    model: list[int] | None = None
    stats: dict[str, float] = field(default_factory=dict)
    elapsed_ms: float = 0.0
    solver: str = ""
    proof: str | None = None
    model_checked: bool = False
    stop: Stop = field(kw_only=True)
    core: str = field(default="", kw_only=True)

    def __post_init__(self) -> None:
        self.stop = Stop(self.stop)
        answered = self.status is not Status.UNKNOWN
        if self.stop is Stop.ERROR or answered != (self.stop is Stop.ANSWERED):
            raise ValueError(f"a {self.status} result cannot stop for {self.stop!r}")

    @property
    def is_sat(self) -> bool:
        return self.status is Status.SAT

    @property
    def is_unsat(self) -> bool:
        return self.status is Status.UNSAT

    @property
    def is_unknown(self) -> bool:
        return self.status is Status.UNKNOWN
