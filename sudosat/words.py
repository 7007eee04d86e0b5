"""English for messages and pages: one way to list words in a sentence.

Knows nothing of sudosat; every layer may use it.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["and_join"]


def and_join(words: Iterable[object]) -> str:
    """The words (each shown with ``str``) as an English list: ``a``, ``a and b``, ``a, b and c``.

    Examples
    --------
    >>> and_join(["row 1", "column 2", "box 3"])
    'row 1, column 2 and box 3'
    >>> and_join(["alone"])
    'alone'
    """
    shown = [str(word) for word in words]
    if not shown:
        raise ValueError("and_join needs at least one word")
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
