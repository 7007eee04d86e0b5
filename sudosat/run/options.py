"""Option types that ``sudosat`` and the report builder share, and their one-line parser.

A time limit, a count, a solver or an encoding means the same on the command
line (:mod:`sudosat.cli`) and in ``make report`` (:mod:`sudosat.report.build`):
each type below turns the text into the value or raises
:class:`argparse.ArgumentTypeError` with the reason, which
:class:`OneLineParser` prints in one line before exiting with status 2, before
any work starts.

Examples
--------
>>> positive_ms("2500")
2500.0
>>> positive_ms("-5")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: the time limit must be positive (milliseconds)
"""

from __future__ import annotations

import argparse
import math
import re

EXIT_USAGE = 2
"""The exit status of bad usage (an unknown option, a value of the wrong kind)."""


# ASCII digits only: int() and float() would also take '١٠٠٠', '1_000', ' 5 ' and '5\n'.
MAX_DIGITS = 18
"""The most digits a number on the command line may have (10^18 exceeds every count and
limit sudosat can hold, and keeps int() cheap)."""
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,18}(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_LONG = re.compile(r"[+-]?0*([1-9][0-9]{18,})(?:\.[0-9]*)?")  # well formed, but too many digits


def strict_number(text: str, *, integer: bool = False) -> float | None:
    """`text` as a number when it is written as the numbers in files are, else None.

    ASCII digits, an optional sign, and (unless `integer`) a decimal point and
    an exponent; no underscores, no other digits, nothing around it.

    Examples
    --------
    >>> strict_number("2.5e3"), strict_number("1_000"), strict_number("\u0661")
    (2500.0, None, None)
    """
    pattern = _INTEGER if integer else _DECIMAL
    if not pattern.fullmatch(text):
        return None
    return int(text) if integer else float(text)


def too_large(text: str) -> argparse.ArgumentTypeError | None:
    """The error for a number written correctly but with more than :data:`MAX_DIGITS` digits.

    None when `text` is not such a number: then it is simply not a number.

    Examples
    --------
    >>> str(too_large("1" * 19))
    'too large: 1111111111111111111 has 19 digits (at most 18)'
    >>> too_large("1_000") is None
    True
    """
    long = _LONG.fullmatch(text)
    if long is None:
        return None
    shown = text if len(text) <= 40 else f"{text[:20]}...{text[-8:]}"
    return argparse.ArgumentTypeError(
        f"too large: {shown} has {len(long.group(1))} digits (at most {MAX_DIGITS})"
    )


def positive_ms(text: str) -> float:
    """A time limit in milliseconds: a finite number above 0, in ASCII digits."""
    value = strict_number(text)
    if text.strip().lower().lstrip("+") in ("inf", "infinity"):
        value = math.inf
    if value is None:
        raise too_large(text) or argparse.ArgumentTypeError(
            f"not a number of milliseconds: {text!r}"
        )
    if math.isinf(value):
        raise argparse.ArgumentTypeError(
            f"the time limit must be finite, not {text!r} (leave -T out for no limit)"
        )
    if value <= 0:
        raise argparse.ArgumentTypeError("the time limit must be positive (milliseconds)")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1, in ASCII digits.

    ``int()`` would also take ``'٣'``, ``'1_000'`` and blanks around the
    number, none of which any file sudosat reads may hold.
    """
    value = strict_number(text, integer=True)
    if value is None:
        raise too_large(text) or argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return int(value)


def solver_name(text: str) -> str:
    """A solver name as ``--solver`` takes it: built in, ``pysat:NAME`` or ``exec:PROGRAM``."""
    from sudosat.sat.solvers.registry import builtin_solver_names

    if text in builtin_solver_names():
        return text
    for prefix in ("pysat:", "exec:"):
        if text.startswith(prefix) and len(text) > len(prefix):
            return text
    known = ", ".join([*builtin_solver_names(), "pysat:NAME", "exec:PROGRAM"])
    raise argparse.ArgumentTypeError(f"unknown solver {text!r}; known solvers: {known}")


def encoding_name(text: str) -> str:
    """A registered encoding name (aliases accepted)."""
    from sudosat.errors import EncodingError
    from sudosat.sudoku.encoding import get_encoding

    try:
        get_encoding(text)
    except EncodingError as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None
    return text


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (then exit 2).

    argparse prints the whole usage before the error; one line that names the
    command and points at ``--help`` is easier to read and to test.
    """

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
