"""CNF formulas: a compact container, a DIMACS reader and writer, solution formats.

This layer knows nothing of Sudoku. Literals are signed DIMACS integers
(variable ``v`` is ``v``, its negation ``-v``).

The container stores every clause in one flat ``array('i')``, each clause
followed by a ``0`` exactly as in DIMACS. That costs 4 bytes a literal, so the
3.3 million clauses of an order-6 course encoding fit in about 40 MB instead of
the 300 MB that a list of Python lists would take, and writing DIMACS becomes
one ``join`` over the array.

Examples
--------
>>> cnf = CNF([[1, -2], [2, 3]])
>>> cnf.num_vars, len(cnf)
(3, 2)
>>> print(cnf.to_dimacs(), end="")
p cnf 3 2
1 -2 0
2 3 0
>>> CNF.from_string("p cnf 2 1\\n1 -2 0\\n").clauses
[[1, -2]]
"""

from __future__ import annotations

import json
import os
import re
import warnings
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter
from pathlib import Path
from typing import TextIO

from sudosat.errors import DimacsError, SudosatError, open_error_reason
from sudosat.limits import BYTES_PER_DIMACS_CHAR, BYTES_PER_VARIABLE, check_memory
from sudosat.lines import read_text, split_lines
from sudosat.result import Status

Lit = int
Clause = list[Lit]


class DimacsWarning(UserWarning):
    """A DIMACS file is readable but says something untrue (e.g. a wrong clause count)."""


class CNF:
    """A formula in conjunctive normal form.

    Parameters
    ----------
    clauses : iterable of iterables of int, optional
        The clauses, each a sequence of signed DIMACS literals.
    num_vars : int, optional
        The number of variables. It grows when a clause names a higher
        variable, so it is never below the highest variable used.
    comments : iterable of str, optional
        Comment lines (without the leading ``c``) written before the header.

    Attributes
    ----------
    num_vars : int
        Variables are numbered 1..num_vars.
    comments : list of str
        Comment lines kept for the writer.
    warnings : list of str
        What the reader found untrue in the file (e.g. the header's clause count).
    """

    __slots__ = ("num_vars", "comments", "warnings", "_flat", "_num_clauses", "_num_empty")

    def __init__(
        self,
        clauses: Iterable[Iterable[Lit]] = (),
        num_vars: int = 0,
        comments: Iterable[str] = (),
    ) -> None:
        self.num_vars = int(num_vars)
        self.comments = list(comments)
        self.warnings: list[str] = []
        self._flat = array("i")
        self._num_clauses = 0
        self._num_empty = 0
        self.extend(clauses)

    # -- construction -------------------------------------------------------------

    @classmethod
    def from_clauses(cls, clauses: Iterable[Iterable[Lit]], num_vars: int = 0) -> CNF:
        """Build a formula from clauses (lists of signed literals)."""
        return cls(clauses, num_vars=num_vars)

    @classmethod
    def from_flat(cls, flat: array | Sequence[int], num_vars: int) -> CNF:
        """Adopt a zero-terminated flat literal array (DIMACS order) without copying.

        The caller promises every literal is within ``num_vars`` and the array
        ends with ``0`` (or is empty).
        """
        cnf = cls(num_vars=num_vars)
        cnf._flat = flat if isinstance(flat, array) and flat.typecode == "i" else array("i", flat)
        cnf._recount()
        return cnf

    @classmethod
    def from_string(cls, text: str, source: str = "<string>") -> CNF:
        """Read DIMACS text; see :func:`parse_dimacs`."""
        return parse_dimacs(text, source)

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> CNF:
        """Read a DIMACS file; see :func:`read_dimacs`."""
        return read_dimacs(path)

    def _recount(self) -> None:
        flat = self._flat
        if flat and flat[-1] != 0:
            raise ValueError("a flat clause array must end with 0")
        self._num_clauses = flat.count(0)
        self._num_empty = _count_empty_clauses(flat)

    def add_clause(self, clause: Iterable[Lit]) -> None:
        """Append one clause (duplicates and tautologies are kept as given)."""
        lits = array("i", clause)
        if 0 in lits:
            raise ValueError("a clause cannot contain the literal 0")
        if lits:
            top = max(max(lits), -min(lits))
            if top > self.num_vars:
                self.num_vars = top
        else:
            self._num_empty += 1
        self._flat.extend(lits)
        self._flat.append(0)
        self._num_clauses += 1

    def extend(self, clauses: Iterable[Iterable[Lit]]) -> None:
        """Append several clauses."""
        for clause in clauses:
            self.add_clause(clause)

    def copy(self) -> CNF:
        """An independent copy."""
        twin = CNF(num_vars=self.num_vars, comments=self.comments)
        twin._flat = array("i", self._flat)
        twin._num_clauses = self._num_clauses
        twin._num_empty = self._num_empty
        return twin

    # -- reading --------------------------------------------------------------------

    def __len__(self) -> int:
        return self._num_clauses

    @property
    def num_clauses(self) -> int:
        """How many clauses the formula holds."""
        return self._num_clauses

    @property
    def num_literals(self) -> int:
        """How many literal occurrences the formula holds (its size)."""
        return len(self._flat) - self._num_clauses

    @property
    def flat(self) -> array:
        """The zero-terminated literal array (do not modify it)."""
        return self._flat

    @property
    def has_empty_clause(self) -> bool:
        """True when some clause has no literal (the formula is then UNSAT)."""
        return self._num_empty > 0

    def __iter__(self) -> Iterator[Clause]:
        flat = self._flat.tolist()
        start = 0
        index = flat.index
        for _ in range(self._num_clauses):
            end = index(0, start)
            yield flat[start:end]
            start = end + 1

    @property
    def clauses(self) -> list[Clause]:
        """Every clause as a list of signed literals (a new list each call)."""
        return list(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CNF):
            return NotImplemented
        return self.num_vars == other.num_vars and self._flat == other._flat

    def __repr__(self) -> str:
        return f"CNF(num_vars={self.num_vars}, clauses={self._num_clauses})"

    # -- models -----------------------------------------------------------------------

    def first_falsified(self, model: Iterable[Lit]) -> int | None:
        """Index of the first clause no literal of `model` satisfies, or None.

        Variables the model does not mention count as unassigned, so a clause
        made only of them is reported too. The scan runs in C: every literal of
        the flat array is mapped to one byte (true, not true, or the clause
        separator); with the "not true" bytes removed, a clause without a true
        literal is an empty run between two separators.
        """
        n = self.num_vars
        # truth[lit] for 1 <= lit <= n; a negative literal -k indexes 2n+1-k (from the end).
        truth = bytearray(2 * n + 1)
        truth[0] = _SEPARATOR
        for lit in model:
            if 0 < abs(lit) <= n:
                truth[lit] = 1
        runs = b"".join(_gather(truth, self._flat)).replace(b"\x00", b"")
        if runs.startswith(_SEPARATOR_BYTE):
            return 0
        found = runs.find(_SEPARATOR_BYTE * 2)
        if found < 0:
            return None
        return runs.count(_SEPARATOR_BYTE, 0, found + 1)

    def is_satisfied_by(self, model: Iterable[Lit]) -> bool:
        """True when every clause has a literal in `model`."""
        return self.first_falsified(model) is None

    def check_model(self, model: Sequence[Lit]) -> None:
        """Raise ``ValueError`` naming the first broken clause unless `model` is a model.

        A model must give every variable 1..num_vars exactly one value.
        """
        n = self.num_vars
        if len(model) != n or set(map(abs, model)) != set(range(1, n + 1)):
            raise ValueError(f"the model does not assign each of the {n} variables exactly once")
        broken = self.first_falsified(model)
        if broken is not None:
            clause = next(islice(self, broken, None))
            raise ValueError(f"the model falsifies clause {broken + 1}: {clause}")

    # -- writing ----------------------------------------------------------------------

    def to_dimacs(self, comments: Iterable[str] | None = None) -> str:
        """Strict DIMACS text: comments, one header, one clause per line ending in ``0``."""
        lines = [f"c {text}".rstrip() for text in (self.comments if comments is None else comments)]
        lines.append(f"p cnf {self.num_vars} {self._num_clauses}")
        head = "\n".join(lines) + "\n"
        if not self._num_clauses:
            return head
        if self._num_empty:
            body = "".join(" ".join(map(str, clause + [0])) + "\n" for clause in self)
            return head + body
        return head + "".join(_dimacs_chunks(self._flat))

    def write_dimacs(
        self, target: str | os.PathLike | TextIO, comments: Iterable[str] | None = None
    ) -> None:
        """Write strict DIMACS to a path or an open text file."""
        text = self.to_dimacs(comments)
        if hasattr(target, "write"):
            target.write(text)
        else:
            Path(target).write_text(text, encoding="ascii")


_CHUNK_CLAUSES = 1 << 18
_CHUNK_CHARS = 1 << 22
# The bytes each fast path may meet, checked by deleting them with bytes.translate
# (C speed, 20 times faster than a regex search). Anything else (a comment, a
# Unicode digit, '_' that int() would take, a separator str.split() would take
# such as U+2028) sends the body to the careful path, which names it.
_TOKEN_BYTES = b"-+0123456789 \t\n\r\v\f"
_NOT_JSON_BLANKS = ("+", "\t", "\r", "\v", "\f")  # JSON takes none of them (nor does "-0")
_MINUS_ZERO = re.compile(rb"-0")
_NEGATIVE_ZERO = re.compile(rb"(?<![0-9])-0+(?![0-9])")
_BLANKS = re.compile(r"[ \t\r\v\f]+")  # ASCII blanks, as MiniSat's isspace (line ends aside)
_BLANK_CHARS = " \t\r\v\f"
_INTEGER = re.compile(r"[+-]?[0-9]+")
_MAX_DIGITS = 18  # every count or literal sudosat can hold has fewer digits; int() stays cheap
_SEPARATOR = 2  # the byte that stands for a clause's closing 0 in first_falsified
_SEPARATOR_BYTE = bytes([_SEPARATOR])
_GATHER_CHUNK = 1 << 14  # literals per itemgetter: bounds the temporary tuples


def _gather(table: bytearray, flat: array) -> Iterator[bytes]:
    """``table[x]`` for every x of `flat`, as bytes, chunk by chunk.

    An :func:`operator.itemgetter` over a chunk reads all its entries in one C
    call, about twice as fast as mapping ``table.__getitem__``.
    """
    for start in range(0, len(flat), _GATHER_CHUNK):
        part = flat[start : start + _GATHER_CHUNK]
        if len(part) > 1:
            yield bytes(itemgetter(*part)(table))
        else:  # itemgetter of one index returns a bare value, not a tuple
            yield bytes(map(table.__getitem__, part))


def _dimacs_chunks(flat: array) -> Iterator[str]:
    """The clause lines of a flat array free of empty clauses, a slice at a time.

    Every 0 ends a non-empty clause, so " 0 " marks exactly the clause ends and
    one ``join`` per slice writes the lines at C speed. Slicing at clause ends
    bounds the temporary strings, so the peak memory stays near the text's size.
    """
    start = 0
    total = len(flat)
    while start < total:
        stop = min(total, start + 4 * _CHUNK_CLAUSES)
        if stop < total:
            stop = flat.index(0, stop - 1) + 1
        text = " ".join(map(str, flat[start:stop])).replace(" 0 ", " 0\n")
        yield text + "\n"
        start = stop


def _count_empty_clauses(flat: array) -> int:
    """How many clauses of a zero-terminated array are empty (a 0 first or right after a 0).

    Searches the raw bytes for two zero words in a row, at C speed: formulas with
    millions of clauses are checked in milliseconds. Hits that straddle word
    boundaries are skipped.
    """
    if not flat:
        return 0
    raw = flat.tobytes()
    width = flat.itemsize
    pair = bytes(2 * width)
    count = 1 if flat[0] == 0 else 0
    position = raw.find(pair)
    while position >= 0:
        if position % width == 0:
            count += 1
            position = raw.find(pair, position + width)
        else:
            position = raw.find(pair, position + 1)
    return count


# ---------------------------------------------------------------------------------------
# Strict integer tokens


def parse_int_token(
    token: str,
    *,
    source: str | None = "<string>",
    line: int | None = None,
    what: str = "number",
    low: int | None = None,
    high: int | None = None,
) -> int:
    """Read one integer token strictly, or raise a ``file:line`` error naming it.

    Accepted: ASCII digits with one optional leading ``-`` or ``+`` (MiniSat
    reads ``+3``). Refused: any other character (Unicode digits, ``_``, which
    Python's ``int`` would take), a sign alone or doubled, a negative zero
    (``-0``), and more than 18 digits. Every reader of numbers in sudosat
    (DIMACS, solutions, board lines, the Dartmouth format) uses this rule.

    Parameters
    ----------
    token : str
        One blank-free token.
    source, line : optional
        Where the token was read, named in the error.
    what : str
        What the number is, for the message (``literal``, ``order`` ...).
    low, high : int, optional
        Inclusive bounds; a value outside them is refused.

    Raises
    ------
    DimacsError
        ``file:line: reason`` naming the token (and its first bad character).

    Examples
    --------
    >>> parse_int_token("+12"), parse_int_token("-7")
    (12, -7)
    >>> parse_int_token("\\u0661", source="f.cnf", line=3, what="literal")
    Traceback (most recent call last):
    ...
    sudosat.errors.DimacsError: f.cnf:3: not an integer: '١' (character '١', U+0661, is not \
an ASCII digit; expected a literal)
    """
    if _INTEGER.fullmatch(token) is None:
        raise DimacsError(_not_integer(token, what), file=source, line=line)
    digits = len(token) - (token[0] in "+-")
    if digits > _MAX_DIGITS:
        raise DimacsError(
            f"{what} {_shorten(token)!r} is too large ({digits} digits)", file=source, line=line
        )
    value = int(token)
    if value == 0 and token[0] == "-":
        raise DimacsError(f"{what} {token!r}: zero has no sign", file=source, line=line)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
        raise DimacsError(f"{what} {value} is outside {bounds}", file=source, line=line)
    return value


def _not_integer(token: str, what: str) -> str:
    """Why `token` is not an integer, naming its first offending character."""
    shown = _shorten(token)
    body = token[1:] if token[:1] in "+-" else token
    if not body:
        return f"not an integer: {shown!r} (a sign without digits; expected a {what})"
    for char in body:
        if not ("0" <= char <= "9"):
            if char in "+-":
                return f"not an integer: {shown!r} (a sign inside it; expected a {what})"
            return (
                f"not an integer: {shown!r} (character {char!r}, U+{ord(char):04X}, is not an "
                f"ASCII digit; expected a {what})"
            )
    return f"not an integer: {shown!r} (expected a {what})"


def _blank_split(line: str) -> list[str]:
    """The tokens of a line separated by ASCII blanks only (not U+2028 and the like)."""
    return [token for token in _BLANKS.split(line) if token]


# ---------------------------------------------------------------------------------------
# DIMACS reader


def read_dimacs(path: str | os.PathLike, max_bytes: int | None = None) -> CNF:
    """Read a DIMACS CNF file.

    Raises
    ------
    DimacsError
        The file is missing, unreadable or malformed; the message names the
        file, the line and the reason.
    ResourceLimitError
        The header declares more variables than fit in `max_bytes`.
    """
    name = os.fspath(path)
    try:
        text = read_text(name)
    except OSError as exc:
        raise DimacsError(open_error_reason(exc, expected="a DIMACS file"), file=name) from None
    return parse_dimacs(text, name, max_bytes=max_bytes)


def parse_dimacs(text: str, source: str = "<string>", max_bytes: int | None = None) -> CNF:
    """Parse DIMACS CNF text.

    What is accepted: comment lines (``c`` first) anywhere, one ``p cnf V C``
    header before any clause, clauses that span lines or share a line (only
    ``0`` ends a clause), a last clause without its ``0``, and SATLIB's ``%``
    line that ends the data. A header whose clause count is wrong is accepted
    with a :class:`DimacsWarning` (real files lie about it). Lines end at
    ``\\n`` (see :mod:`sudosat.lines`); tokens are separated by ASCII blanks
    and read by :func:`parse_int_token`'s rule. A byte-order mark before the
    first line is skipped.

    Parameters
    ----------
    max_bytes : int, optional
        The memory limit (``--max-memory``; default 1 GB) the declared
        variables are checked against before anything is sized from them.

    Raises
    ------
    DimacsError
        No header, a malformed header, a second header, a token that is not an
        integer, or a literal beyond the declared variables; the message names
        `source`, the line and the reason.
    ResourceLimitError
        The header declares more variables than fit in `max_bytes`, or the
        text is too long to read within it.
    """
    text = text.removeprefix("\ufeff")
    check_memory(
        len(text),
        BYTES_PER_DIMACS_CHAR,
        f"the formula's text holds {len(text):,} characters",
        max_bytes,
        file=source,
    )
    if not text.strip():
        raise DimacsError("empty file: no 'p cnf' header", file=source)
    header_line, num_vars, declared, body_start = _find_header(text, source)
    check_memory(
        num_vars,
        BYTES_PER_VARIABLE,
        f"the header declares {num_vars:,} variables",
        max_bytes,
        file=source,
        line=header_line,
    )
    body = text[body_start:]
    flat = _parse_body_fast(body, num_vars)
    if flat is None:
        flat = _parse_body_slow(body, num_vars, source, first_line=header_line + 1)
    if flat and flat[-1] != 0:
        flat.append(0)
    cnf = CNF.from_flat(flat, num_vars)
    if cnf.num_clauses != declared:
        message = f"header declares {declared} clauses but the file holds {cnf.num_clauses}"
        cnf.warnings.append(f"{source}:{header_line}: {message}")
        warnings.warn(f"{source}:{header_line}: {message}", DimacsWarning, stacklevel=2)
    return cnf


def _find_header(text: str, source: str) -> tuple[int, int, int, int]:
    """Locate the ``p cnf`` line: (its line number, V, C, offset of the next line)."""
    offset = 0
    number = 0
    length = len(text)
    while offset < length:
        end = text.find("\n", offset)
        if end < 0:
            end = length
        number += 1
        line = text[offset:end].strip(_BLANK_CHARS)
        next_offset = end + 1
        if not line or line.startswith("c"):
            offset = next_offset
            continue
        if line.startswith("p"):
            return (number, *_parse_header(line, source, number), next_offset)
        if line.startswith("%"):
            break
        raise DimacsError(
            f"clause before the 'p cnf' header: {_shorten(line)!r}{_format_hint(text)}",
            file=source,
            line=number,
        )
    raise DimacsError("no 'p cnf' header", file=source, line=None)


def _format_hint(text: str) -> str:
    """'; looks like ...' when headerless text is in the Dartmouth format (issue 12)."""
    from sudosat.dartmouth import DARTMOUTH_HINT, looks_like_dartmouth  # imports this module

    return f"; {DARTMOUTH_HINT}" if looks_like_dartmouth(text) else ""


def _parse_header(line: str, source: str, number: int) -> tuple[int, int]:
    parts = _blank_split(line)
    usage = "malformed header {!r}: expected 'p cnf VARIABLES CLAUSES'"
    if len(parts) != 4 or parts[0] != "p" or parts[1] != "cnf":
        raise DimacsError(usage.format(_shorten(line)), file=source, line=number)
    for token in parts[2:]:
        if token.startswith("-") and _INTEGER.fullmatch(token):
            raise DimacsError(
                f"negative count in header {_shorten(line)!r}", file=source, line=number
            )
    try:
        num_vars = parse_int_token(parts[2], what="variable count")
        num_clauses = parse_int_token(parts[3], what="clause count")
    except DimacsError as exc:
        raise DimacsError(
            f"malformed header {_shorten(line)!r}: {exc.reason}", file=source, line=number
        ) from None
    return num_vars, num_clauses


def _parse_body_fast(body: str, num_vars: int) -> array | None:
    """All tokens at once; None when anything needs the careful line-by-line path."""
    if not _plain_tokens(body):
        return None
    flat = None
    if not any(byte in body for byte in _NOT_JSON_BLANKS):
        flat = _parse_body_json(body)
    if flat is None:
        flat = _parse_body_tokens(body)
    if flat is None:
        return None
    if flat and (max(flat) > num_vars or -min(flat) > num_vars):
        return None
    return flat


def _plain_tokens(text: str) -> bool:
    """True when `text` holds only ASCII signs, digits and blanks, and no ``-0``.

    ``int()`` would also take Unicode digits, ``_`` and ``-0``; text with any of
    them goes to the careful path, which names the token.
    """
    if not text.isascii():
        return False
    raw = text.encode("ascii")
    if raw.translate(None, _TOKEN_BYTES):
        return False
    return _MINUS_ZERO.search(raw) is None or _NEGATIVE_ZERO.search(raw) is None


def _parse_body_json(body: str) -> array | None:
    """Integers separated by single blanks or line ends (what strict writers produce).

    ``json`` parses them three times faster than ``int()`` per token. The
    caller has checked the characters (:func:`_plain_tokens`, no ``+``, tab or
    CR); a doubled blank makes invalid JSON and None.
    """
    text = body.strip().replace("\n", " ").replace(" ", ",")
    try:
        return array("i", json.loads(f"[{text}]"))
    except (ValueError, TypeError, OverflowError):
        return None


def _parse_body_tokens(body: str) -> array | None:
    """Whitespace-separated integers in slices; None when a token is not an integer."""
    flat = array("i")
    start, total = 0, len(body)
    try:
        # Slices cut at line ends keep the temporary token lists small.
        while start < total:
            stop = body.find("\n", start + _CHUNK_CHARS)
            stop = total if stop < 0 else stop + 1
            flat.extend(map(int, body[start:stop].split()))
            start = stop
    except (ValueError, OverflowError):
        return None
    return flat


def _parse_body_slow(body: str, num_vars: int, source: str, first_line: int) -> array:
    flat = array("i")
    for number, raw in enumerate(split_lines(body), start=first_line):
        line = raw.strip(_BLANK_CHARS)
        if not line or line.startswith("c"):
            continue
        if line.startswith("%"):
            break  # SATLIB: '%' then '0' end the data
        if line.startswith("p"):
            raise DimacsError("a second 'p' header", file=source, line=number)
        lits = _plain_line(line, num_vars)
        if lits is None:
            tokens = _blank_split(line)
            lits = [_strict_literal(token, num_vars, source, number) for token in tokens]
        flat.extend(lits)
    return flat


def _plain_line(line: str, num_vars: int) -> list[int] | None:
    """The line's literals when it is plain and in range (the common case), else None."""
    if not _plain_tokens(line):
        return None
    try:
        lits = list(map(int, line.split()))
    except ValueError:  # '+-1', '1-2': the strict reading names the token
        return None
    if lits and (max(lits) > num_vars or -min(lits) > num_vars):
        return None
    return lits


def _strict_literal(token: str, num_vars: int, source: str, number: int) -> int:
    lit = parse_int_token(token, source=source, line=number, what="literal")
    if abs(lit) > num_vars:
        raise DimacsError(
            f"literal {lit} is beyond the {num_vars} declared variables", file=source, line=number
        )
    return lit


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------
# Solution formats


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
        ``course``: ``s cnf R V`` then one ``v`` line per variable (SPEC 2.2).
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
    lines = [f"c {text}".rstrip() for text in comments]
    if style == "course":
        lines.append(f"s cnf {status.course_code} {num_vars}")
        if status is Status.SAT:
            lines.extend(f"v {lit}" for lit in model)
    elif style == "competition":
        lines.append(
            {
                Status.SAT: "s SATISFIABLE",
                Status.UNSAT: "s UNSATISFIABLE",
                Status.UNKNOWN: "s UNKNOWN",
            }[status]
        )
        if status is Status.SAT:
            tokens = [str(lit) for lit in model] + ["0"]
            for start in range(0, len(tokens), 20):
                lines.append("v " + " ".join(tokens[start : start + 20]))
    elif style == "units":
        units = list(model) if status is Status.SAT else []
        lines.append(f"p cnf {num_vars} {len(units)}")
        lines.extend(f"{lit} 0" for lit in units)
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
    lines = [(number, raw.strip(_BLANK_CHARS)) for number, raw in numbered]
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
    raise DimacsError(f"not a solution line: {_shorten(first)!r}", file=source, line=number)


def _parse_course_solution(
    lines: list[tuple[int, str]], source: str, max_bytes: int | None
) -> Solution:
    number, header = lines[0]
    parts = _blank_split(header)
    codes = {"1": Status.SAT, "0": Status.UNSAT, "-1": Status.UNKNOWN}
    if len(parts) != 4 or parts[1] != "cnf" or parts[2] not in codes:
        raise DimacsError(
            f"malformed status line {_shorten(header)!r}: expected 's cnf R V'",
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
        parts = _blank_split(line)
        if len(parts) != 2 or parts[0] != "v":
            raise DimacsError(
                f"expected 'v LITERAL', got {_shorten(line)!r}", file=source, line=number
            )
        model.append(_literal(parts[1], num_vars, source, number))
        where.append(number)
    return _finish_solution(status, model, num_vars, source, where)


def _parse_competition_solution(lines: list[tuple[int, str]], source: str) -> Solution:
    number, header = lines[0]
    statuses = {"SATISFIABLE": Status.SAT, "UNSATISFIABLE": Status.UNSAT, "UNKNOWN": Status.UNKNOWN}
    word = header[2:].strip(_BLANK_CHARS)
    if word not in statuses:
        raise DimacsError(f"unknown status {word!r}", file=source, line=number)
    model: list[Lit] = []
    where: list[int] = []
    for number, line in lines[1:]:
        if not line.startswith("v"):
            raise DimacsError(
                f"expected a 'v' line, got {_shorten(line)!r}", file=source, line=number
            )
        if line[1:2] not in ("", " ", "\t"):
            raise DimacsError(
                f"expected a 'v' line, got {_shorten(line)!r}", file=source, line=number
            )
        for token in _blank_split(line[1:]):
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DimacsWarning)
        try:
            cnf = parse_dimacs(text, source, max_bytes=max_bytes)
        except SudosatError as exc:
            if exc.line is not None:
                exc.line += first - 1
                exc.args = (exc.message,)
            raise
    model = []
    for clause in cnf:
        if len(clause) != 1:
            raise DimacsError(f"expected unit clauses only, got {clause}", file=source)
        model.append(clause[0])
    if not model:
        return Solution(Status.UNSAT, None, cnf.num_vars)
    return _finish_solution(Status.SAT, model, cnf.num_vars, source)


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
