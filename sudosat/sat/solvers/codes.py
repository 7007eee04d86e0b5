"""Literal codes: the one conversion between signed DIMACS literals and our solvers' codes.

At every public boundary a literal is a signed DIMACS integer (``Lit``: ``v``
or ``-v``). Inside our solvers it is a *code* (``Code``), MiniSat's way:
variable ``v`` has codes ``2v`` (positive) and ``2v + 1`` (negative), so the
negation is ``code ^ 1``, the variable is ``code >> 1`` and every
per-literal table is a flat list indexed by the code (codes 0 and 1 unused).

Hot loops may inline these one-liners (a call costs more than the
arithmetic); each such place says so in a comment.

Examples
--------
>>> to_codes([3, -3, 1])
[6, 7, 2]
>>> to_dimacs_list([6, 7, 2])
[3, -3, 1]
>>> table = code_table(3)
>>> [table[lit] for lit in (1, -1, 3, -3)]
[2, 3, 6, 7]
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "Code",
    "Lit",
    "code_table",
    "signed_model",
    "to_code",
    "to_codes",
    "to_dimacs",
    "to_dimacs_list",
]

Lit = int  # a signed DIMACS literal: v or -v, v >= 1
Code = int  # a literal code: 2v for v, 2v + 1 for -v


def to_code(lit: Lit) -> Code:
    """Signed DIMACS literal -> literal code.

    >>> to_code(5), to_code(-5)
    (10, 11)
    """
    return 2 * lit if lit > 0 else 1 - 2 * lit


def to_dimacs(code: Code) -> Lit:
    """Literal code -> signed DIMACS literal.

    >>> to_dimacs(10), to_dimacs(11)
    (5, -5)
    """
    return -(code >> 1) if code & 1 else code >> 1


def to_codes(lits: Iterable[Lit]) -> list[Code]:
    """Every literal of `lits` as a code, in order."""
    return [2 * lit if lit > 0 else 1 - 2 * lit for lit in lits]


def to_dimacs_list(codes: Iterable[Code]) -> list[Lit]:
    """Every code of `codes` as a signed DIMACS literal, in order."""
    return [-(code >> 1) if code & 1 else code >> 1 for code in codes]


def code_table(num_vars: int) -> list[Code]:
    """A table from signed DIMACS literal to code over variables 1..num_vars.

    ``table[lit]`` is ``to_code(lit)`` for ``-num_vars <= lit <= num_vars``
    (negative indices wrap around, so they land on the negative literals) and
    ``table[0] == 0``, so a zero-terminated literal array maps in one
    ``map(table.__getitem__, flat)``, in C.
    """
    table = [0] * (2 * num_vars + 1)
    table[1 : num_vars + 1] = range(2, 2 * num_vars + 2, 2)
    table[num_vars + 1 :] = range(2 * num_vars + 1, 1, -2)
    return table


def signed_model(values: list[int], num_vars: int) -> list[Lit]:
    """One signed literal per variable 1..num_vars from a per-code value table.

    ``values[2v] == 1`` means variable ``v`` is true; any other value (false,
    or unassigned because the variable occurs in no clause left) reads as false.

    >>> signed_model([0, 0, 1, 0, 0, 1], 2)
    [1, -2]
    """
    return [v if values[2 * v] == 1 else -v for v in range(1, num_vars + 1)]
