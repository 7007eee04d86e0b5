"""One HTML view of a board: the report's boards and the workbench's answers.

:func:`board_table` draws the grid, its box rules and its sizes; the caller
says what each cell shows and how it is marked, by class names that
:data:`BOARD_STYLE` styles:

``given`` bold (a given of the puzzle); ``changed`` red on pink (a cell that
changes its given); ``broken`` shaded (a cell of a unit that breaks a rule);
``bad`` red (a cell that holds no symbol, several, or not its given); ``clash``
a red symbol (repeated in a unit); ``many`` small print (several symbols);
``differs`` blue, underlined, on blue (a cell where another solution differs).

Examples
--------
>>> html = board_table(1, ["1"], [["given"]])
>>> html.split("</style>")[1]  # doctest: +NORMALIZE_WHITESPACE
'<table class="sudosat-board sudosat-order-1" style="border-collapse:collapse;border:2px solid
#000;table-layout:fixed;font-family:monospace;font-size:16px;margin:0.5em 0"><tr><td
class="given">1</td></tr></table>'
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

_BASE_RULES = (
    "table.sudosat-board td{border:1px solid #999;padding:0;text-align:center;"
    "vertical-align:middle;background:#fff;color:#000;font-weight:normal}"
    "table.sudosat-board td.bt{border-top:2px solid #000}"
    "table.sudosat-board td.bl{border-left:2px solid #000}"
)
MARK_RULES = {
    "given": "font-weight:bold",
    "changed": "color:#c00;background:#fdd",
    "broken": "background:#ffe0b3",
    "bad": "background:#f99;color:#700",
    "clash": "color:#c00;font-weight:bold",
    "many": "font-size:60%;line-height:1",
    "differs": "background:#d6e4ff;color:#0645ad;text-decoration:underline",
}
"""How each mark looks (a CSS declaration per class)."""


def _rules(marks: Iterable[str]) -> str:
    """The board's rules with those of `marks`, in the order of :data:`MARK_RULES`."""
    used = set(marks)
    return _BASE_RULES + "".join(
        f"table.sudosat-board td.{mark}{{{rule}}}" for mark, rule in MARK_RULES.items()
        if mark in used
    )


BOARD_STYLE = _rules(MARK_RULES)
"""The rules of a board and of every mark (CSS, without the ``<style>`` element), for a page
that states them once; each :func:`board_table` carries those of the marks it uses."""

EMPTY = "&nbsp;"
"""What an empty cell shows."""


def board_sizes(order: int) -> tuple[int, int]:
    """(font, cell) sizes in pixels: they shrink with the order, so that order 5 stays
    readable and larger orders still fit a page, and a cell holds its widest symbol."""
    font = {1: 16, 2: 16, 3: 16, 4: 14, 5: 12}.get(order, 9)
    digits = len(str(order * order))
    return font, max(round(font * 1.75), round(font * 0.62 * digits) + 6)


def board_table(
    order: int,
    texts: Sequence[str],
    marks: Sequence[Sequence[str]] | None = None,
    units: Mapping[int, str] | None = None,
) -> str:
    """A ``<style>`` block and the ``<table class="sudosat-board">`` of a board.

    Parameters
    ----------
    order : int
    texts : sequence of str
        What each cell shows, row by row (HTML; :data:`EMPTY` for nothing).
    marks : sequence of sequences of str, optional
        The classes of each cell (see the module docstring).
    units : mapping of int to str, optional
        For some cells, the broken units they lie in (``box 1, row 2``), written
        as their ``data-units`` attribute.
    """
    size = order * order
    font, cell_px = board_sizes(order)
    units = units or {}
    rows = []
    for i in range(size):
        cells = []
        for j in range(size):
            cell = i * size + j
            classes = ["bt"] * (i > 0 and i % order == 0) + ["bl"] * (j > 0 and j % order == 0)
            if marks is not None:
                classes += marks[cell]
            attrs = f' class="{" ".join(classes)}"' if classes else ""
            if cell in units:
                attrs += f' data-units="{html.escape(units[cell])}"'
            cells.append(f"<td{attrs}>{texts[cell]}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    size_rule = (
        f"table.sudosat-board.sudosat-order-{order} td{{width:{cell_px}px;height:{cell_px}px}}"
    )
    used = _rules(mark for classes in marks or () for mark in classes)
    return (
        f"<style>{used}{size_rule}</style>"
        f'<table class="sudosat-board sudosat-order-{order}" style="border-collapse:collapse;'
        "border:2px solid #000;table-layout:fixed;font-family:monospace;"
        f'font-size:{font}px;margin:0.5em 0">{"".join(rows)}</table>'
    )
