"""The memory limit every command checks before it allocates.

A size read from a user's file (a DIMACS header, a solution's variable count,
a board's order) is a promise, not a measurement: a header may declare a
billion variables for a formula that uses three. Everything that would size an
array from such a number first asks :func:`check_memory`, which refuses, with
the numbers and the option that raises the limit, work that cannot fit.

This module imports nothing of sudosat but the errors, so every layer
(boards, CNF, solvers, the command line) can use it.
"""

from __future__ import annotations

from sudosat.errors import ResourceLimitError

DEFAULT_MAX_BYTES = 1_000_000_000
"""The default of ``--max-memory`` (the same as ``sudosat.sudoku.encoding.DEFAULT_MAX_BYTES``)."""

BYTES_PER_VARIABLE = 160
"""What one declared variable costs once a formula is answered: its literal in
the model (a Python int in a list), its byte pair in the model check, its line
in the printed answer and that line's string. Measured: ``SAT -S1`` on a header
of 10 million variables (two used) peaks at 1.4 GB, 140 bytes a variable."""

BYTES_PER_DIMACS_CHAR = 12
"""Peak memory of reading DIMACS text, per character: the text, its joined copy,
the parsed integers and the flat clause array. Measured: an 11 MB order-5 course
encoding grows the reader by 118 MB (11 bytes a character)."""

BYTES_PER_CELL = 100
"""What one cell of a board costs while it is generated or decoded (its value
in a tuple and a list, the value objects, the printed symbol), rounded up."""


def format_bytes(number: float) -> str:
    """A size as people read it: ``1.0 GB``, ``512 MB``, ``3 kB``, ``12 bytes``.

    Examples
    --------
    >>> format_bytes(2_500_000_000)
    '2.5 GB'
    """
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if number >= scale:
            digits = ".3g" if unit == "TB" else ".1f"  # TB: 64 TB, not 64000.0 TB
            return f"{number / scale:{digits}} {unit}"
    return f"{int(number)} bytes"


def check_memory(
    count: int,
    per_item: int,
    what: str,
    max_bytes: int | None = None,
    *,
    file: str | None = None,
    line: int | None = None,
) -> None:
    """Refuse `count` items of `per_item` bytes each when they exceed `max_bytes`.

    Parameters
    ----------
    count : int
        How many items the input declares (variables, cells ...).
    per_item : int
        Bytes one of them costs.
    what : str
        The phrase the message starts with, e.g. ``"the header declares 5 variables"``.
    max_bytes : int, optional
        The limit (default :data:`DEFAULT_MAX_BYTES`).
    file, line : optional
        Where the number was read, named in the message.

    Raises
    ------
    ResourceLimitError
        ``what; that needs about X, at most N fit in the memory limit of Y
        (raise it with --max-memory)``.

    Examples
    --------
    >>> check_memory(10, 64, "ten variables")
    >>> check_memory(10**12, 160, "the header declares 10^12 variables", 10**9)
    Traceback (most recent call last):
    ...
    sudosat.errors.ResourceLimitError: the header declares 10^12 variables; that needs about \
160 TB, at most 6,250,000 fit in the memory limit of 1.0 GB (raise it with --max-memory)
    """
    limit = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    need = count * per_item
    if need <= limit:
        return
    raise ResourceLimitError(
        f"{what}; that needs about {format_bytes(need)}, at most {limit // per_item:,} fit in "
        f"the memory limit of {format_bytes(limit)} (raise it with --max-memory)",
        file=file,
        line=line,
    )
