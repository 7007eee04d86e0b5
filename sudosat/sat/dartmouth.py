"""The Dartmouth CNF format: one clause per line, no header, no closing ``0``.

Dartmouth's logic assignment writes a formula as plain lines: each
line is one clause, its literals are variable names separated by blanks, ``-``
negates, and there is no ``p`` header, no terminating ``0`` and no comment.
Its Sudoku files name variables by the digits row, column, value
(``111``..``999``), which are also their numbers here: this layer, like
:mod:`sudosat.sat.cnf`, knows nothing of Sudoku and reads any positive integer
name. An assignment (a solution) in this format is a list of unit clauses,
one literal per line.

Examples
--------
>>> cnf = parse_dartmouth("111 112\\n-111 -112\\n")
>>> cnf.clauses, cnf.num_vars
(((111, 112), (-111, -112)), 112)
>>> print(to_dartmouth(cnf), end="")
111 112
-111 -112
>>> looks_like_dartmouth("111 112\\n-111 -112\\n"), looks_like_dartmouth("p cnf 1 1\\n1 0\\n")
(True, False)
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Callable
from pathlib import Path

from sudosat.errors import DimacsError, open_error_reason
from sudosat.lines import split_lines
from sudosat.sat.cnf import CNF
from sudosat.sat.dimacs import DARTMOUTH_HINT, looks_like_dartmouth, parse_int_token

__all__ = [
    "DARTMOUTH_HINT",
    "looks_like_dartmouth",
    "parse_dartmouth",
    "read_dartmouth",
    "to_dartmouth",
]

_LITERAL = re.compile(r"-?[1-9][0-9]*")
_LINES_BETWEEN_CHECKS = 1 << 14


def parse_dartmouth(
    text: str, source: str = "<string>", *, check: Callable[[], object] | None = None
) -> CNF:
    """Read Dartmouth CNF text: each non-blank line is one clause.

    `check` is called every some thousands of lines; it stops the reading by
    raising (a time limit's ``Deadline.check``).

    Raises
    ------
    DimacsError
        A token that is not a literal (``0``, a ``p`` header, a comment, a
        word), or a text without any clause; the message names `source`, the
        line and the token.
    """
    flat = array("i")
    top = 0
    for number, raw in enumerate(split_lines(text), start=1):
        if check is not None and not number % _LINES_BETWEEN_CHECKS:
            check()
        tokens = raw.split()
        if not tokens:
            continue
        for token in tokens:
            if not _LITERAL.fullmatch(token):
                raise DimacsError(_why_not_a_literal(token, tokens), file=source, line=number)
            lit = parse_int_token(token, source=source, line=number, what="literal")
            flat.append(lit)
            top = max(top, abs(lit))
        flat.append(0)
    if not flat:
        raise DimacsError("empty file: no clause (Dartmouth format)", file=source)
    return CNF.from_flat(flat, top)


def _why_not_a_literal(token: str, tokens: list[str]) -> str:
    if token == "0":
        return ("'0' is not a literal: in the Dartmouth format a clause ends at the end of its "
                "line (for DIMACS, leave out --format dartmouth)")
    if tokens[0] in ("p", "c"):
        return (f"{tokens[0]!r} line: the Dartmouth format has no header and no comments "
                "(for DIMACS, leave out --format dartmouth)")
    shown = token if len(token) <= 40 else token[:37] + "..."
    return f"not a literal: {shown!r} (expected a variable name like 111 or -111)"


def read_dartmouth(path: str | os.PathLike) -> CNF:
    """Read a Dartmouth CNF file; see :func:`parse_dartmouth`."""
    name = os.fspath(path)
    try:
        text = Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise DimacsError(open_error_reason(exc), file=name) from None
    return parse_dartmouth(text, name)


def to_dartmouth(cnf: CNF) -> str:
    """The formula as Dartmouth CNF text: one line per clause, nothing else.

    Raises
    ------
    ValueError
        The formula holds an empty clause, which this format cannot write
        (a blank line is no clause).
    """
    if cnf.has_empty_clause:
        raise ValueError("the Dartmouth format cannot write an empty clause")
    return "".join(" ".join(map(str, clause)) + "\n" for clause in cnf)
