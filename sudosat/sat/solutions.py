"""Solution files in the three formats: course (``s cnf R V``), competition, unit clauses.

This layer knows nothing of Sudoku nor of the :class:`~sudosat.sat.cnf.CNF`
container; the ``units`` format is read by :func:`sudosat.sat.dimacs.scan_dimacs`.

Examples
--------
>>> solution = parse_solution("s cnf 1 2\\nv 1\\nv -2\\n")
>>> solution.status, solution.model
(<Status.SAT: 'SAT'>, [1, -2])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sudosat.errors import DimacsError, SudosatError
from sudosat.limits import BYTES_PER_VARIABLE, check_memory
from sudosat.lines import split_lines
from sudosat.sat.dimacs import BLANK_CHARS, Lit, blank_split, parse_int_token, scan_dimacs, shorten
from sudosat.sat.result import Status


@dataclass
class Solution:
    """A solver's answer as read from or written to a solution file."""

    status: Status
    model: list[Lit] | None
    num_vars: int


SOLUTION_STYLES = ("course", "competition", "units")


def format_solution(
    status: Status,
    model: Sequence[Lit] | None,
    num_vars: int,
    style: str = "course",
    comments: Iterable[str] = (),
) -> str:
    """Write an answer in one of the solution formats.

    Parameters
    ----------
    status : Status
    model : sequence of int or None
        One signed literal per variable 1..num_vars when SAT.
    num_vars : int
    style : {'course', 'competition', 'units'}
        ``course``: ``s cnf R V`` then one ``v`` line per variable.
        ``competition``: ``s SATISFIABLE`` and ``v ... 0`` lines.
        ``units``: the ``SAT -Sn`` ``.out`` file, a DIMACS formula with the
        model as unit clauses (no clause when not SAT).
    comments : iterable of str
        Comment lines written first.

    Examples
    --------
    >>> print(format_solution(Status.SAT, [1, -2], 2), end="")
    s cnf 1 2
    v 1
    v -2
    """
    literals: list[Lit] = []
    if status is Status.SAT:
        if model is None:
            raise ValueError("a SAT answer needs its model")
        literals = list(model)
    lines = [f"c {text}".rstrip() for text in comments]
    if style == "course":
        lines.append(f"s cnf {status.course_code} {num_vars}")
        lines.extend(f"v {lit}" for lit in literals)
    elif style == "competition":
        lines.append(
            {
                Status.SAT: "s SATISFIABLE",
                Status.UNSAT: "s UNSATISFIABLE",
                Status.UNKNOWN: "s UNKNOWN",
            }[status]
        )
        if status is Status.SAT:
            tokens = [str(lit) for lit in literals] + ["0"]
            for start in range(0, len(tokens), 20):
                lines.append("v " + " ".join(tokens[start : start + 20]))
    elif style == "units":
        lines.append(f"p cnf {num_vars} {len(literals)}")
        lines.extend(f"{lit} 0" for lit in literals)
    else:
        raise ValueError(
            f"unknown solution style {style!r}; choose one of {', '.join(SOLUTION_STYLES)}"
        )
    return "\n".join(lines) + "\n"


def parse_solution(
    text: str, source: str = "<string>", num_vars: int | None = None, max_bytes: int | None = None
) -> Solution:
    """Read a solution in any of the three formats, recognised by their lines.

    Parameters
    ----------
    text : str
    source : str
        Named in error messages.
    num_vars : int, optional
        Needed only for the ``units`` format when its header is missing.
    max_bytes : int, optional
        The memory limit a declared variable count is checked against.

    Raises
    ------
    DimacsError
        The text is in none of the formats, or contradicts itself; a token
        breaks :func:`parse_int_token`'s rule.
    ResourceLimitError
        The solution declares more variables than fit in `max_bytes`.
    """
    text = text.removeprefix("\ufeff")
    numbered = enumerate(split_lines(text), start=1)
    lines = [(number, raw.strip(BLANK_CHARS)) for number, raw in numbered]
    lines = [(n, line) for n, line in lines if line and not line.startswith("c")]
    if not lines:
        raise DimacsError("empty solution: no 's' or 'p' line", file=source)
    number, first = lines[0]
    if first.startswith("s cnf"):
        return _parse_course_solution(lines, source, max_bytes)
    if first.startswith("s "):
        return _parse_competition_solution(lines, source)
    if first.startswith("p cnf") or num_vars is not None:
        return _parse_units_solution(lines, source, num_vars, max_bytes)
    raise DimacsError(f"not a solution line: {shorten(first)!r}", file=source, line=number)


def _parse_course_solution(
    lines: list[tuple[int, str]], source: str, max_bytes: int | None
) -> Solution:
    number, header = lines[0]
    parts = blank_split(header)
    codes = {"1": Status.SAT, "0": Status.UNSAT, "-1": Status.UNKNOWN}
    if len(parts) != 4 or parts[1] != "cnf" or parts[2] not in codes:
        raise DimacsError(
            f"malformed status line {shorten(header)!r}: expected 's cnf R V'",
            file=source,
            line=number,
        )
    status = codes[parts[2]]
    num_vars = parse_int_token(parts[3], source=source, line=number, what="variable count", low=0)
    check_memory(
        num_vars,
        BYTES_PER_VARIABLE,
        f"the solution declares {num_vars:,} variables",
        max_bytes,
        file=source,
        line=number,
    )
    model = []
    where: list[int] = []  # the line of each literal, for a clash's message
    for number, line in lines[1:]:
        parts = blank_split(line)
        if len(parts) != 2 or parts[0] != "v":
            raise DimacsError(
                f"expected 'v LITERAL', got {shorten(line)!r}", file=source, line=number
            )
        model.append(_literal(parts[1], num_vars, source, number))
        where.append(number)
    return _finish_solution(status, model, num_vars, source, where)


def _parse_competition_solution(lines: list[tuple[int, str]], source: str) -> Solution:
    number, header = lines[0]
    statuses = {"SATISFIABLE": Status.SAT, "UNSATISFIABLE": Status.UNSAT, "UNKNOWN": Status.UNKNOWN}
    word = header[2:].strip(BLANK_CHARS)
    if word not in statuses:
        raise DimacsError(f"unknown status {word!r}", file=source, line=number)
    model: list[Lit] = []
    where: list[int] = []
    for number, line in lines[1:]:
        if not line.startswith("v"):
            raise DimacsError(
                f"expected a 'v' line, got {shorten(line)!r}", file=source, line=number
            )
        if line[1:2] not in ("", " ", "\t"):
            raise DimacsError(
                f"expected a 'v' line, got {shorten(line)!r}", file=source, line=number
            )
        for token in blank_split(line[1:]):
            lit = _literal(token, None, source, number)
            if lit:
                model.append(lit)
                where.append(number)
    num_vars = max((abs(lit) for lit in model), default=0)
    return _finish_solution(statuses[word], model, num_vars, source, where)


def _parse_units_solution(
    lines: list[tuple[int, str]], source: str, num_vars: int | None, max_bytes: int | None
) -> Solution:
    first = lines[0][0]
    # Keep the file's line numbers in errors: blank and comment lines become empty lines.
    by_number = dict(lines)
    text = "\n".join(by_number.get(n, "") for n in range(first, lines[-1][0] + 1))
    if not text.startswith("p"):
        text = f"p cnf {num_vars} 0\n" + text
        first -= 1
    try:
        scanned = scan_dimacs(text, source, max_bytes=max_bytes)
    except SudosatError as exc:
        if exc.line is not None:
            exc.line += first - 1
            exc.args = (exc.message,)
        raise
    flat = scanned.flat.tolist()
    # Unit clauses only: every second entry is the 0 that closes one literal.
    if flat[1::2] != [0] * (len(flat) // 2) or 0 in flat[0::2]:
        clause = _first_non_unit(flat)
        raise DimacsError(f"expected unit clauses only, got {clause}", file=source)
    model = flat[0::2]
    if not model:
        return Solution(Status.UNSAT, None, scanned.num_vars)
    return _finish_solution(Status.SAT, model, scanned.num_vars, source)


def _first_non_unit(flat: list[int]) -> list[int]:
    """The first clause of a zero-terminated literal list that is not a unit clause."""
    start = 0
    while start < len(flat):
        end = flat.index(0, start)
        if end - start != 1:
            return flat[start:end]
        start = end + 1
    raise ValueError("every clause is a unit clause")


def _literal(token: str, num_vars: int | None, source: str, number: int) -> int:
    lit = parse_int_token(token, source=source, line=number, what="literal")
    if num_vars is not None and (lit == 0 or abs(lit) > num_vars):
        raise DimacsError(f"literal {lit} is outside 1..{num_vars}", file=source, line=number)
    return lit


def _finish_solution(
    status: Status,
    model: list[Lit],
    num_vars: int,
    source: str,
    where: list[int] | None = None,
) -> Solution:
    if status is not Status.SAT:
        return Solution(status, None, num_vars)
    by_var: dict[int, int] = {}
    for index, lit in enumerate(model):
        if by_var.setdefault(abs(lit), lit) != lit:
            raise DimacsError(
                f"variable {abs(lit)} is given both values",
                file=source,
                line=where[index] if where else None,
            )
    if len(by_var) < num_vars:
        # Found from the variables present, never by walking 1..num_vars: a competition
        # model naming variable 10^15 would otherwise loop for days.
        present = sorted(by_var)
        missing = next((v for v, w in enumerate(present, start=1) if v != w), len(present) + 1)
        raise DimacsError(f"the model gives no value to variable {missing}", file=source)
    return Solution(status, [by_var[v] for v in range(1, num_vars + 1)], num_vars)
