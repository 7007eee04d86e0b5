"""Numbers and lists as a page's sentences print them.

The notebooks write their own sentences from the facts the page modules
compute; these helpers only decide how one number or one list reads, so that
every page rounds and lists alike. None of them decides what a sentence says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sudosat.studies.grid import milliseconds, percent
from sudosat.words import and_join

__all__ = [
    "and_join",
    "count",
    "fills",
    "line_ranges",
    "milliseconds",
    "orders",
    "p_value",
    "percent",
    "plural",
    "ratio",
]


def count(value: float) -> str:
    """A median count: whole with thousands separators, or one decimal for a half.

    Examples
    --------
    >>> count(1500.0), count(2.5)
    ('1,500', '2.5')
    """
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def ratio(value: float) -> str:
    """A ratio with two decimals, three when two would round it to 1.00 (but it is not 1).

    Examples
    --------
    >>> ratio(2.345), ratio(1.004), ratio(1.0)
    ('2.35', '1.004', '1.00')
    """
    text = f"{value:.2f}"
    return f"{value:.3f}" if text == "1.00" and value != 1.0 else text


def p_value(p: float) -> str:
    """A p-value: ``0.031``, ``2.1e-12``, never ``0.000000``.

    Examples
    --------
    >>> p_value(0.0312), p_value(2.1e-12), p_value(0.0)
    ('0.031', '2.1e-12', '< 1e-300')
    """
    if p >= 0.001:
        return f"{p:.3f}"
    if p <= 0 or math.isnan(p):
        return "< 1e-300" if p <= 0 else "nan"
    return f"{p:.1e}"


def plural(number: int, noun: str, nouns: str | None = None) -> str:
    """``1 instance``, ``2 instances`` (`nouns` when the plural is not `noun` + s)."""
    return f"{number:,} {noun if number == 1 else (nouns or noun + 's')}"


def orders(values: Sequence[int]) -> str:
    """Orders in words: ``(5, 6)`` -> ``'N = 5 and 6'``."""
    return "N = " + and_join([str(n) for n in values])


def fills(alphas: Sequence[float]) -> str:
    """Fills as percentages in words: ``(0, 0.2, 0.4)`` -> ``'0 %, 20 % and 40 %'``."""
    return and_join([percent(a) for a in alphas])


def line_ranges(lines: Sequence[int]) -> str:
    """Sorted line numbers as words: ``lines 2–49 and 57``, ``line 5``.

    Examples
    --------
    >>> line_ranges([2, 3, 4, 57])
    'lines 2–4 and 57'
    """
    spans: list[list[int]] = []
    for line in lines:
        if spans and line == spans[-1][1] + 1:
            spans[-1][1] = line
        else:
            spans.append([line, line])
    words = [f"{a}" if a == b else f"{a}–{b}" for a, b in spans]
    return ("line " if len(lines) == 1 else "lines ") + and_join(words)
