"""The one line reader of every command: lines end at ``\\n`` (or ``\\r\\n``), nothing else.

Python's ``str.splitlines`` also splits at form feeds, vertical tabs, the
ASCII separators ``\\x1c``-``\\x1e``, ``\\x85``, U+2028 and U+2029, so a stray
form feed would make one command see one more line than another. Every
command that numbers lines (``check``, ``encode --line``, ``solve``, the
DIMACS and solution readers) uses :func:`split_lines`, so line K is the same
line everywhere; a character that is not a line end stays inside its line and
the line's reader names it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import BinaryIO

from sudosat.limits import check_memory

BYTES_PER_TEXT_CHAR = 4
"""Peak memory of reading a text file and splitting it into lines, per byte of the file:
the bytes read, their decoded text and its lines, rounded up. Measured: tracemalloc's
peak over ``split_lines(read_text(path))`` for 100,000 lines of 81 symbols is 3.7
bytes a byte of the file."""


def split_lines(text: str) -> list[str]:
    """The lines of `text`: split at ``\\n``, one ``\\r`` before it dropped.

    A final line end does not start another line, and an empty text has no
    line. A lone ``\\r`` is not a line end.

    Examples
    --------
    >>> split_lines("a\\r\\nb\\x0cc\\n")
    ['a', 'b\\x0cc']
    >>> split_lines("")
    []
    """
    if not text:
        return []
    lines = text.removesuffix("\n").split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def lines_from(text: str, start: int = 0) -> Iterator[str]:
    """The lines :func:`split_lines` gives for ``text[start:]``, one at a time.

    Neither the rest of the text nor the list of its lines is built: for a
    reader that may stop early in a huge text.

    Examples
    --------
    >>> list(lines_from("x\\na\\r\\nb\\n\\n", 2))
    ['a', 'b', '']
    """
    total = len(text)
    while start < total:
        end = text.find("\n", start)
        stop = total if end < 0 else end
        line = text[start:stop]
        yield line[:-1] if line.endswith("\r") else line
        start = stop + 1


_CHUNK = 1 << 20  # bytes read at a time, so a limit stops an endless stream early


def misplaced_mark(text: str, line: int | None) -> str | None:
    """Why line `line` of a file, `text`, may not hold its byte-order mark; None when it may.

    A byte-order mark (U+FEFF) may lead a file, so its first line; at the start
    of any other line it is a stray character, refused like any other.

    Examples
    --------
    >>> misplaced_mark("\\ufeff3 0", 1) is None, misplaced_mark("\\ufeff3 0", 2)
    (True, 'a byte-order mark (U+FEFF) starts the line: it may only start a file')
    """
    if line is None or line == 1 or not text.lstrip(" \t").startswith("\ufeff"):
        return None
    return "a byte-order mark (U+FEFF) starts the line: it may only start a file"


def read_text(
    path: str | os.PathLike,
    max_bytes: int | None = None,
    per_char: int | None = None,
    *,
    check: Callable[[float], object] | None = None,
) -> str:
    """The text of the file at `path`, exactly as written: UTF-8, no newline translation.

    ``Path.read_text`` and ``open()`` turn a lone ``\\r`` into a line end, which
    would make a file read here split where :func:`split_lines` does not (and
    where standard input does not). Invalid UTF-8 becomes U+FFFD, so the
    reader that meets it names it. Reading stops as soon as the text would
    need more than `max_bytes`, or when `check` raises (see :func:`read_stream`).

    Raises
    ------
    OSError
        As ``open`` does (the caller turns it into a user-facing error).
    ResourceLimitError
        The file is too large for `max_bytes`.
    """
    with open(path, "rb") as stream:
        return read_stream(stream, os.fspath(path), max_bytes, per_char, check=check)


def read_stream(
    stream: BinaryIO,
    source: str,
    max_bytes: int | None = None,
    per_char: int | None = None,
    *,
    check: Callable[[float], object] | None = None,
) -> str:
    """Read `stream` to its end in chunks, refusing it once it outgrows the memory limit.

    Parameters
    ----------
    stream : binary file
        What to read (a file, standard input's buffer, a device).
    source : str
        Its name, for the message.
    max_bytes : int, optional
        The memory limit (``--max-memory``; default
        :data:`sudosat.limits.DEFAULT_MAX_BYTES`).
    per_char : int, optional
        What one character costs once read (default
        :data:`sudosat.limits.BYTES_PER_TEXT_CHAR`); a reader that needs more
        (DIMACS) passes its own, so that it refuses here what it would refuse
        after reading.
    check : callable, optional
        Called after each chunk (1 MiB) with the CPU seconds the reading has
        cost so far; it stops the reading by raising (a time limit's
        ``Deadline.check``) when fewer are left: decoding the bytes read, one
        more pass over them, costs about as much again. A huge file is read
        only as far as its time allows; waiting for a slow pipe costs no CPU,
        so it reserves nothing.

    Raises
    ------
    ResourceLimitError
        After at most one chunk past the limit: ``/dev/zero`` is refused, not
        read until memory runs out.
    """
    cost = BYTES_PER_TEXT_CHAR if per_char is None else per_char
    data = bytearray()
    began = time.process_time()
    while chunk := stream.read(_CHUNK):
        data += chunk
        check_memory(
            len(data), cost, f"the file holds at least {len(data):,} bytes", max_bytes,
            file=source,
        )
        if check is not None:
            check(time.process_time() - began)
    return data.decode("utf-8", errors="replace")
