"""The workbench's editable board: one text cell per square, boxes framed, givens bold.

The board is the costliest part of the live workbench: each cell is an
``ipywidgets.Text``, a widget model the browser creates and draws (1,296 at
order 6). So that an order change stays quick, every cell shares one
``Layout`` and one ``TextStyle`` (a widget's default is a model of each per
widget, three models per cell), a new grid is built with its board's values
already in its cells (no message per cell afterwards), and showing a board
sends one message per cell that changes, none for the others. The grid scrolls
sideways inside its own box when it is wider than the page leaves room for.
"""

from __future__ import annotations

from collections.abc import Callable

from sudosat.errors import MissingExtraError
from sudosat.sudoku.board import Board, units
from sudosat.workbench.compute import parse_cell

try:
    import ipywidgets as widgets
    from ipywidgets.widgets.widget_string import TextStyle
except ImportError:
    raise MissingExtraError("the workbench's widgets", "widgets", "ipywidgets") from None

__all__ = ["GRID_CSS", "Grid", "parse_cell"]

GRID_CSS = (
    "<style>"
    ".sudosat-cell input{text-align:center;font-family:monospace;padding:0!important;"
    "font-size:15px}"
    ".sudosat-small .sudosat-cell input{font-size:12px}"
    ".sudosat-cell.sudosat-given input{font-weight:bold}"
    ".sudosat-cell input::placeholder{color:#000;opacity:1;font-weight:normal}"
    ".sudosat-cell.sudosat-badcell input{background:#f99}"
    ".sudosat-box{border:2px solid #000;gap:0!important}"
    ".sudosat-status{font-weight:bold}"
    "</style>"
)
# A cell's width in the font of the page: two digits fit from order 4 on; orders 5
# and 6 get a narrower cell in a smaller font, so that the board stays near a screen's width.
_WIDTH = {1: "2.1em", 2: "2.1em", 3: "2.1em", 4: "2.6em", 5: "2.2em", 6: "2.2em"}
_HEIGHT = {5: "1.8em", 6: "1.8em"}


class Grid:
    """An editable board of order `order`: one text cell per square, boxes framed; givens bold.

    Empty cells show the solver's value as a placeholder (normal weight, as a
    solved cell on the report pages), so what the reader typed stays the only
    input.

    Parameters
    ----------
    order : int
    on_edit : callable
        Called with (cell index, text) when the reader changes a cell.
    board : Board, optional
        The board the cells start with (empty when not given).

    Attributes
    ----------
    cells : list of ipywidgets.Text
        Row-major, one per square.
    widget : ipywidgets.Box
        The board, in a box that scrolls when the board does not fit.
    """

    def __init__(
        self, order: int, on_edit: Callable[[int, str], None], board: Board | None = None
    ) -> None:
        self.order = order
        size = order * order
        width = _WIDTH.get(order, "2.2em")
        layout = widgets.Layout(width=width, height=_HEIGHT.get(order, "2em"), margin="0")
        style = TextStyle(description_width="0")
        values = board.cells if board is not None else [0] * (size * size)
        self.cells = []
        for index, value in enumerate(values):
            classes = ("sudosat-cell", "sudosat-given") if value else ("sudosat-cell",)
            cell = widgets.Text(
                value=_symbol(value),
                placeholder="",  # not the widget's default, a zero-width space
                layout=layout,
                style=style,
                _dom_classes=classes,
            )
            cell.observe(lambda change, k=index: on_edit(k, change["new"]), names="value")
            self.cells.append(cell)
        # ipywidgets boxes scroll (overflow auto), so a flex parent may shrink them to
        # nothing and each box would hide most of its cells: no box here scrolls or
        # shrinks, and the one scroll bar is the grid's own, around the whole board
        box_layout = widgets.Layout(
            grid_template_columns=f"repeat({order}, {width})", overflow="visible", flex="none"
        )
        boxes = []
        for _, _, members in units(order)[2 * size :]:
            boxes.append(
                widgets.GridBox(
                    [self.cells[c] for c in members],
                    layout=box_layout,
                    _dom_classes=("sudosat-box",),
                )
            )
        board_box = widgets.GridBox(
            boxes,
            layout=widgets.Layout(
                grid_template_columns=f"repeat({order}, auto)",
                width="max-content",
                overflow="visible",
                flex="none",
            ),
        )
        # the scroll bars a reader needs when the board is larger than the room left for it
        small = ("sudosat-small",) if order >= 5 else ()
        self.widget = widgets.Box(
            [board_box],
            layout=widgets.Layout(overflow="auto", max_width="100%"),
            _dom_classes=("sudosat-grid-scroll", *small),
        )

    def show(self, board: Board, solution: Board | None) -> None:
        """Put `board` in the cells (givens bold) and `solution`'s values as placeholders."""
        for index, cell in enumerate(self.cells):
            value = board.cells[index]
            text = _symbol(value)
            # a given shows its value: only an empty cell shows the solution's
            hint = _symbol(solution.cells[index]) if solution is not None and not value else ""
            classes = ("sudosat-cell", "sudosat-given") if value else ("sudosat-cell",)
            if (
                cell.value != text
                or cell.placeholder != hint
                or tuple(cell._dom_classes) != classes
            ):
                with cell.hold_sync():  # one message for the three changes
                    cell.value, cell.placeholder = text, hint
                    cell._dom_classes = classes

    def mark(self, index: int, css: str, on: bool) -> None:
        """Add (`on`) or remove the class `css` of cell `index`."""
        (self.cells[index].add_class if on else self.cells[index].remove_class)(css)


def _symbol(value: int) -> str:
    return str(value) if value else ""
