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
from typing import NamedTuple

from sudosat.errors import DimacsError
from sudosat.limits import BYTES_PER_DIMACS_CHAR, BYTES_PER_VARIABLE, check_memory
from sudosat.lines import split_lines

Lit = int
"""A signed DIMACS literal: variable ``v`` is ``v``, its negation ``-v`` (never 0)."""

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
BLANK_CHARS = " \t\r\v\f"  # the same blanks as characters, for str.strip
_INTEGER = re.compile(r"[+-]?[0-9]+")
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
    text: str, source: str = "<string>", max_bytes: int | None = None
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
    return ScannedDimacs(flat, num_vars, declared, header_line)


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


def _parse_body_fast(body: str, num_vars: int) -> array | None:
    """All tokens at once; None when anything needs the careful line-by-line path."""
    if not _plain_tokens(body):
        return None
    if not any(byte in body for byte in _NOT_JSON_BLANKS):
        values = _parse_body_json(body)
        if values is not None:
            # Bounds on the list, before the array: min and max read a list's ints as
            # they are, an array's by making an int object of each (3x slower).
            if values and (max(values) > num_vars or -min(values) > num_vars):
                return None
            try:
                return array("i", values)
            except OverflowError:
                return None
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


def shorten(text: str, limit: int = 40) -> str:
    """`text`, cut to `limit` characters with ``...`` when longer (for messages)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
