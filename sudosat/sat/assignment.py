"""Truth assignments as solution files hold them, complete or not.

:func:`sudosat.sat.cnf.parse_solution` reads the three solution formats as one
solver's answer: a model over every variable 1..V. Files from other courses'
tools hold less: the ``SAT -Sn`` assignment's ``.out`` lists only the
variables the formula uses (729 of the rules file's 999 names), and a
Dartmouth solution is one literal per line. :func:`read_assignment` reads all
of them as a status and a ``{variable: value}`` map, which the decoder then
checks against the numbering it is told. Like :mod:`sudosat.sat.cnf` this layer
knows nothing of Sudoku.

Examples
--------
>>> read_assignment("p cnf 999 2\\n111 0\\n-112 0\\n").values
{111: True, 112: False}
>>> read_assignment("s cnf 1 2\\nv 1\\nv -2\\n").num_vars
2
>>> read_assignment("111\\n-112\\n", fmt="dartmouth").values
{111: True, 112: False}
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

from sudosat.errors import DimacsError
from sudosat.lines import split_lines
from sudosat.sat.cnf import CNF, DimacsWarning, parse_dimacs, parse_solution
from sudosat.sat.dartmouth import parse_dartmouth
from sudosat.sat.result import Status

ASSIGNMENT_FORMATS = ("auto", "dartmouth")


@dataclass
class Assignment:
    """A solution file's answer.

    Attributes
    ----------
    status : Status
    values : dict of int to bool
        The value of every variable the file names (empty unless SAT).
    num_vars : int or None
        The variable count the file declares (``s cnf R V``, ``p cnf V C``);
        None when its format declares none.
    """

    status: Status
    values: dict[int, bool] = field(default_factory=dict)
    num_vars: int | None = None


def read_assignment(
    text: str, source: str = "<string>", fmt: str = "auto", max_bytes: int | None = None
) -> Assignment:
    """Read a solution in any format sudosat knows.

    Parameters
    ----------
    text : str
    source : str
        Named in error messages.
    fmt : {'auto', 'dartmouth'}
        ``auto`` tells apart the course format (``s cnf R V``), the SAT
        competition's (``s SATISFIABLE``) and a DIMACS file of unit clauses
        (``p cnf V C``, the ``SAT -Sn`` ``.out``; no clause means UNSAT, and
        it may name only some variables). ``dartmouth``: one literal per line.
    max_bytes : int, optional
        The memory limit the readers check a header against before allocating.

    Raises
    ------
    DimacsError
        Malformed text, a clause that is not a unit, a variable given both values.
    """
    if fmt == "dartmouth":
        return _from_units(parse_dartmouth(text, source), source, declared=False)
    if fmt != "auto":
        raise ValueError(f"unknown assignment format {fmt!r}; one of {ASSIGNMENT_FORMATS}")
    first = next((line.strip() for line in split_lines(text)
                  if line.strip() and not line.strip().startswith("c")), "")
    if first.startswith("p"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DimacsWarning)  # the count of units is no matter
            cnf = parse_dimacs(text, source, max_bytes=max_bytes)
        return _from_units(cnf, source, declared=True)
    solution = parse_solution(text, source, max_bytes=max_bytes)
    values = {abs(lit): lit > 0 for lit in solution.model or ()}
    declared = solution.num_vars if first.startswith("s cnf") else None
    return Assignment(solution.status, values, declared)


def _from_units(cnf: CNF, source: str, declared: bool) -> Assignment:
    """The assignment a formula of unit clauses states; no clause at all means UNSAT."""
    num_vars = cnf.num_vars if declared else None
    if not cnf.num_clauses:
        return Assignment(Status.UNSAT, {}, num_vars)
    values: dict[int, bool] = {}
    for number, clause in enumerate(cnf, start=1):
        if len(clause) != 1:
            raise DimacsError(f"clause {number} is not a unit clause: {clause}", file=source)
        lit = clause[0]
        if values.setdefault(abs(lit), lit > 0) != (lit > 0):
            raise DimacsError(f"variable {abs(lit)} is given both values", file=source)
    return Assignment(Status.SAT, values, num_vars)
