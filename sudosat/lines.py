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


def read_text(path: str | os.PathLike) -> str:
    """The text of the file at `path`, exactly as written: UTF-8, no newline translation.

    ``Path.read_text`` and ``open()`` turn a lone ``\\r`` into a line end, which
    would make a file read here split where :func:`split_lines` does not (and
    where standard input does not). Invalid UTF-8 becomes U+FFFD, so the
    reader that meets it names it.

    Raises
    ------
    OSError
        As ``open`` does (the caller turns it into a user-facing error).
    """
    with open(path, "rb") as stream:
        return stream.read().decode("utf-8", errors="replace")
