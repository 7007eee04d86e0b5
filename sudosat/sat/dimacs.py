"""DIMACS text read into flat literal arrays, and the strict rule for integer tokens.

This layer knows nothing of Sudoku, nor of the :class:`~sudosat.sat.cnf.CNF`
container: :func:`scan_dimacs` returns the clauses as one zero-terminated
``array('i')`` with the header's counts, and :func:`sudosat.sat.cnf.parse_dimacs`
wraps them in a formula. :func:`parse_int_token` is the one rule every reader
of numbers in sudosat (DIMACS, solutions, board lines, the Dartmouth format)
applies to a token.

Examples
--------
>>> scanned = scan_dimacs("p cnf 2 1\\n1 -2 0\\n")
>>> scanned.flat.tolist(), scanned.num_vars, scanned.declared
([1, -2, 0], 2, 1)
>>> looks_like_dartmouth("111 112\\n-111 -112\\n"), looks_like_dartmouth("p cnf 1 1\\n1 0\\n")
(True, False)
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Callable
from typing import NamedTuple

from sudosat.errors import DimacsError
from sudosat.limits import BYTES_PER_DIMACS_CHAR, BYTES_PER_VARIABLE, check_memory
from sudosat.lines import lines_from

Lit = int
"""A signed DIMACS literal: variable ``v`` is ``v``, its negation ``-v`` (never 0)."""

_CHUNK_CHARS = 1 << 18
"""Characters of a formula's body parsed at a time: each chunk is parsed in a few C calls
(about 14 ms of CPU on the machine that measured it: 55 ms a MiB of random 3-SAT), and a
time limit is looked at between two."""
# The bytes each fast path may meet, checked by deleting them with bytes.translate
# (C speed, 20 times faster than a regex search). Anything else (a comment, a
# Unicode digit, '_' that int() would take, a separator str.split() would take
# such as U+2028) sends the body to the careful path, which names it.
_TOKEN_BYTES = b"-+0123456789 \t\n\r\v\f"
_NOT_JSON_BLANKS = ("+", "\t", "\r", "\v", "\f")  # JSON takes none of them (nor does "-0")
_MINUS_ZERO = re.compile(rb"-0")
_NEGATIVE_ZERO = re.compile(rb"(?<![0-9])-0+(?![0-9])")
_BLANKS = re.compile(r"[ \t\r\v\f]+")  # ASCII blanks, as MiniSat's isspace (line ends aside)
BLANK_CHARS = " \t\r\v\f"  # the same blanks as characters, for str.strip
_INTEGER = re.compile(r"[+-]?[0-9]+")
_BLANK_REST = re.compile(r"\s*\Z")  # nothing but white space from here on (str.isspace's)
_MAX_DIGITS = 18  # every count or literal sudosat can hold has fewer digits; int() stays cheap

DARTMOUTH_HINT = "looks like the Dartmouth rcv format: pass --format dartmouth"
"""What a failed DIMACS read adds when the text has the Dartmouth format's shape."""

_RCV_NAME = re.compile(r"-?[1-9]{3}")


class ScannedDimacs(NamedTuple):
    """What :func:`scan_dimacs` read: the clauses and the header's claims."""

    flat: array
    """Every clause's literals followed by ``0``, in file order."""
    num_vars: int
    """The variable count the header declares."""
    declared: int
    """The clause count the header declares (real files may lie about it)."""
    header_line: int
    """The line number of the ``p cnf`` header."""
    clauses: int
    """The clauses read (the zeros of `flat`)."""
    empty: int
    """The empty clauses among them."""


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
            f"{what} {shorten(token)!r} is too large ({digits} digits)", file=source, line=line
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
    shown = shorten(token)
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


def blank_split(line: str) -> list[str]:
    """The tokens of a line separated by ASCII blanks only (not U+2028 and the like)."""
    return [token for token in _BLANKS.split(line) if token]


# ---------------------------------------------------------------------------------------
# DIMACS reader

# ---------------------------------------------------------------------------------------
# DIMACS reader


def scan_dimacs(
    text: str,
    source: str = "<string>",
    max_bytes: int | None = None,
    *,
    check: Callable[[], object] | None = None,
) -> ScannedDimacs:
    """Read DIMACS CNF text into a flat literal array and the header's counts.

    What is accepted: comment lines (``c`` first) anywhere, one ``p cnf V C``
    header before any clause, clauses that span lines or share a line (only
    ``0`` ends a clause), a last clause without its ``0``, and SATLIB's ``%``
    line that ends the data. Lines end at ``\\n`` (see :mod:`sudosat.lines`);
    tokens are separated by ASCII blanks and read by :func:`parse_int_token`'s
    rule. A byte-order mark before the first line is skipped. Whether the
    header's clause count is true is the caller's to check
    (:func:`sudosat.sat.cnf.parse_dimacs` warns).

    Parameters
    ----------
    max_bytes : int, optional
        The memory limit (``--max-memory``; default 1 GB) the declared
        variables are checked against before anything is sized from them.
    check : callable, optional
        Called between chunks of the body (:data:`_CHUNK_CHARS` characters,
        or some thousands of lines on the careful path); it stops the reading
        by raising (a time limit's ``Deadline.check``).

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
    start = 1 if text.startswith("\ufeff") else 0  # an offset: a copy of a huge text costs
    check_memory(
        len(text) - start,
        BYTES_PER_DIMACS_CHAR,
        f"the formula's text holds {len(text) - start:,} characters",
        max_bytes,
        file=source,
    )
    if _BLANK_REST.match(text, start):
        raise DimacsError("empty file: no 'p cnf' header", file=source)
    header_line, num_vars, declared, body_start = _find_header(text, source, start)
    check_memory(
        num_vars,
        BYTES_PER_VARIABLE,
        f"the header declares {num_vars:,} variables",
        max_bytes,
        file=source,
        line=header_line,
    )
    flat, clauses, empty = _parse_body(text, body_start, num_vars, (source, header_line + 1),
                                       check)
    if flat and flat[-1] != 0:
        flat.append(0)
        clauses += 1
    return ScannedDimacs(flat, num_vars, declared, header_line, clauses, empty)


def _parse_body(
    text: str,
    start: int,
    num_vars: int,
    where: tuple[str, int],
    check: Callable[[], object] | None,
) -> tuple[array, int, int]:
    """The literals of ``text[start:]``, the clauses they close and the empty ones among them.

    Read a chunk at a time. `where` is the source's name and the line number
    at `start`. Each chunk ends at a line end and is read at C speed when it
    is plain; from the first chunk that is not (a comment, a bad token), the
    careful path reads the rest line by line and names the problem. Nothing
    copies the whole text or the whole array.
    """
    flat, zeros, empty, body, total = array("i"), 0, 0, start, len(text)
    while start < total:
        stop = text.find("\n", start + _CHUNK_CHARS)
        stop = total if stop < 0 else stop + 1
        chunk = _parse_chunk_fast(text[start:stop], num_vars)
        if chunk is None:
            line = where[1] + text.count("\n", body, start)
            rest, closed = _parse_body_slow(text, start, num_vars, (where[0], line), check)
            empty += count_empty_clauses(rest, not flat or flat[-1] == 0)
            flat += rest
            return flat, zeros + closed, empty
        empty += count_empty_clauses(chunk[0], not flat or flat[-1] == 0)
        flat += chunk[0]
        zeros += chunk[1]
        start = stop
        if check is not None:
            check()
    return flat, zeros, empty


def count_empty_clauses(flat: array, after_clause: bool = True) -> int:
    """How many clauses of a zero-terminated array are empty (a 0 first or right after a 0).

    Searches the raw bytes for two zero words in a row, at C speed: formulas with
    millions of clauses are checked in milliseconds. Hits that straddle word
    boundaries are skipped. `after_clause` says whether `flat` starts a clause
    (False: it continues one whose literals came before, so a 0 first closes that one).

    Examples
    --------
    >>> count_empty_clauses(array("i", [0, 1, 0, 0])), count_empty_clauses(array("i", [0]), False)
    (2, 0)
    """
    if not flat:
        return 0
    raw = flat.tobytes()
    width = flat.itemsize
    pair = bytes(2 * width)
    count = 1 if flat[0] == 0 and after_clause else 0
    position = raw.find(pair)
    while position >= 0:
        if position % width == 0:
            count += 1
            position = raw.find(pair, position + width)
        else:
            position = raw.find(pair, position + 1)
    return count


def declared_variables(text: str) -> int | None:
    """The variable count of the ``p cnf`` header at the start of `text`, or None.

    For an answer that must name it when the rest was not read (a time limit
    ran out); `text` may be the file's first part only.

    Examples
    --------
    >>> declared_variables("c made by hand\\np cnf 729 12\\n1 2"), declared_variables("1 2 0")
    (729, None)
    """
    try:
        return _find_header(text, "<string>", 1 if text.startswith("\ufeff") else 0)[1]
    except DimacsError:
        return None


def _find_header(text: str, source: str, offset: int = 0) -> tuple[int, int, int, int]:
    """Locate the ``p cnf`` line from `offset` on: (its line number, V, C, offset of the next
    line)."""
    number = 0
    length = len(text)
    while offset < length:
        end = text.find("\n", offset)
        if end < 0:
            end = length
        number += 1
        line = text[offset:end].strip(BLANK_CHARS)
        next_offset = end + 1
        if not line or line.startswith("c"):
            offset = next_offset
            continue
        if line.startswith("p"):
            return (number, *_parse_header(line, source, number), next_offset)
        if line.startswith("%"):
            break
        raise DimacsError(
            f"clause before the 'p cnf' header: {shorten(line)!r}{_format_hint(text)}",
            file=source,
            line=number,
        )
    raise DimacsError("no 'p cnf' header", file=source, line=None)


def _format_hint(text: str) -> str:
    """'; looks like ...' when headerless text is in the Dartmouth format."""
    return f"; {DARTMOUTH_HINT}" if looks_like_dartmouth(text) else ""


def looks_like_dartmouth(text: str) -> bool:
    """True when `text` has no header and every token is an rcv name (``111``, ``-532``).

    A failed DIMACS read asks this to suggest ``--format dartmouth``; it lives
    here, below :mod:`sudosat.sat.dartmouth`, because that reader builds on the
    formula container, which builds on this module.
    """
    tokens = text.split()
    return bool(tokens) and all(_RCV_NAME.fullmatch(token) for token in tokens)


def _parse_header(line: str, source: str, number: int) -> tuple[int, int]:
    parts = blank_split(line)
    usage = "malformed header {!r}: expected 'p cnf VARIABLES CLAUSES'"
    if len(parts) != 4 or parts[0] != "p" or parts[1] != "cnf":
        raise DimacsError(usage.format(shorten(line)), file=source, line=number)
    for token in parts[2:]:
        if token.startswith("-") and _INTEGER.fullmatch(token):
            raise DimacsError(
                f"negative count in header {shorten(line)!r}", file=source, line=number
            )
    try:
        num_vars = parse_int_token(parts[2], what="variable count")
        num_clauses = parse_int_token(parts[3], what="clause count")
    except DimacsError as exc:
        raise DimacsError(
            f"malformed header {shorten(line)!r}: {exc.reason}", file=source, line=number
        ) from None
    return num_vars, num_clauses


def _parse_chunk_fast(body: str, num_vars: int) -> tuple[array, int] | None:
    """All tokens of a chunk at once, and its zeros; None when anything needs the careful
    line-by-line path."""
    if not _plain_tokens(body):
        return None
    values = None
    if not any(byte in body for byte in _NOT_JSON_BLANKS):
        values = _parse_body_json(body)
    if values is None:
        values = _parse_body_tokens(body)
    # Bounds and zeros on the list, before the array: a list's ints are read as they are,
    # an array's by making an int object of each (3x slower).
    if values is None or (values and (max(values) > num_vars or -min(values) > num_vars)):
        return None
    try:
        return array("i", values), values.count(0)
    except OverflowError:
        return None


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


def _parse_body_json(body: str) -> list[int] | None:
    """Integers separated by single blanks or line ends (what strict writers produce).

    ``json`` parses them three times faster than ``int()`` per token. The
    caller has checked the characters (:func:`_plain_tokens`, no ``+``, tab or
    CR); a doubled blank makes invalid JSON and None.
    """
    text = body.strip().replace("\n", " ").replace(" ", ",")
    try:
        values = json.loads(f"[{text}]")
    except ValueError:
        return None
    return values if isinstance(values, list) else None


def _parse_body_tokens(body: str) -> list[int] | None:
    """Whitespace-separated integers; None when a token is not an integer."""
    try:
        return list(map(int, body.split()))
    except ValueError:
        return None


def _parse_body_slow(
    text: str, start: int, num_vars: int, where: tuple[str, int],
    check: Callable[[], object] | None = None,
) -> tuple[array, int]:
    """The careful path over ``text[start:]``, line by line, every bad token named.

    `where` is the source's name and the line number at `start`. Returns the
    literals and the clauses they close.
    """
    source = where[0]
    flat, zeros = array("i"), 0
    for number, raw in enumerate(lines_from(text, start), start=where[1]):
        if check is not None and not number % _LINES_BETWEEN_CHECKS:
            check()
        line = raw.strip(BLANK_CHARS)
        if not line or line.startswith("c"):
            continue
        if line.startswith("%"):
            break  # SATLIB: '%' then '0' end the data
        if line.startswith("p"):
            raise DimacsError("a second 'p' header", file=source, line=number)
        lits = _plain_line(line, num_vars)
        if lits is None:
            tokens = blank_split(line)
            lits = [_strict_literal(token, num_vars, source, number) for token in tokens]
        flat.extend(lits)
        zeros += lits.count(0)
    return flat, zeros


_LINES_BETWEEN_CHECKS = 1 << 14


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


def shorten(text: str, limit: int = 40) -> str:
    """`text`, cut to `limit` characters with ``...`` when longer (for messages)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
