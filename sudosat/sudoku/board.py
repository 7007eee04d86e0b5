"""Sudoku boards of any order: the model, the line formats, the rules checks.

A board of order N has N² rows, N² columns and N² boxes of N×N cells; a cell
holds 0 (empty) or a symbol 1..N². Cells are stored row-major in one tuple of
length N⁴, so cell (i, j) is ``cells[i * N² + j]``.

Numbering
---------
The API counts from 0, like the encodings: ``value(i, j)``, ``givens()`` and
``with_value(i, j, d)`` take rows and columns 0..N²-1. Messages meant for
people count from 1: "row 3", "column 5", "box 2", "cell (4, 7)" (row 4,
column 7), "position 12" (the 12th symbol or number of a line). Boxes are
numbered row by row: box 1 is the top left, box N the top right.

Formats
-------
Three line formats are read by :meth:`Board.parse`, which tells them apart:

course line ``N T``
    The order N (1..6), one blank, then N⁴ symbols: ``0`` empty, ``1``-``9``,
    ``A``-``Z`` = 10..35 (either case), ``.`` = 36.
numeric line ``N v v v ...``
    The order, then N⁴ decimal numbers separated by blanks, commas or dashes
    (``3 0-4-0-0-...``). Needed beyond order 6. A dash separates only when it
    touches a digit on each side; a leading, doubled or spaced dash (``2 -1``)
    and a doubled comma are refused, naming the position.
grid string
    N⁴ symbols without the order: ``.`` or ``0`` empty, ``1``-``9``,
    ``A``-``Z`` = 10..35 (either case). The 81-character ``.sdk``/top95 format
    and its 256- and 625-character cousins (``G`` = 16 in a 16×16 grid).

Examples
--------
>>> board = Board.parse("1.23" + "." * 12)
>>> board.order, board.num_givens
(2, 3)
>>> board.to_course()
'2 1023000000000000'
>>> print(board.to_text())
1 . | 2 3
. . | . .
----+----
. . | . .
. . | . .
>>> Board.parse("2 1100000000000000").first_conflict()
'row 1 holds 1 twice, in cells (1, 1) and (1, 2)'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache

from sudosat.errors import InstanceError
from sudosat.lines import misplaced_mark
from sudosat.sudoku.board_view import EMPTY, board_table
from sudosat.words import and_join

Cell = tuple[int, int]
Given = tuple[int, int, int]
Unit = tuple[str, int, tuple[int, ...]]

COURSE_MAX_ORDER = 6
"""The highest order the course format ``N T`` can write (symbols reach 36)."""

GRID_MAX_VALUE = 35
"""The highest value a grid string can write (``Z``; ``.`` is an empty cell there)."""

COURSE_EXAMPLE = (
    "3 000400009020980030093000840000000000200008067160300002049000650600003000000059010"
)
"""The course's own example instance, the one definition every module, test and
notebook uses; ``data/course-example.txt`` holds the same line for the command line."""

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ."
_COURSE_SYMBOLS = _ALPHABET
_GRID_SYMBOLS = "." + _ALPHABET[1:-1]

_BAD = 255  # the byte an unknown symbol translates to (no value reaches it)

# Numbers of a numeric line are separated by ASCII blanks, a comma (blanks
# around it allowed) or one dash with a digit on each side (``3 0-4-0``). A
# leading, doubled or spaced dash (``2 -1 0``, ``1--2``, ``1 -2``) or a doubled
# comma is refused: a dash there reads like a minus sign, and guessing would
# turn ``-1`` into a given 1.
_SEPARATORS = re.compile(r"([ \t,\-]+)")
_GOOD_SEPARATOR = re.compile(r"[ \t]+|[ \t]*,[ \t]*|-")
_LINE_BLANKS = " \t\r\n"
_DIGITS_AND_BLANKS = str.maketrans("", "", "0123456789 \t")  # deletes what a plain line holds
_MAX_NUMBER_DIGITS = 18  # longer numbers are refused before int() (which stops at 4300 digits)
_LONG_NUMBER = re.compile(rf"[0-9]{{{_MAX_NUMBER_DIGITS + 1}}}")

_MAX_ORDER_DIGITS = 9  # a longer order could never come with its N⁴ cells on one line


def _translation(pairs: dict[str, int]) -> bytes:
    """A 256-byte table for ``bytes.translate``: symbol byte -> value, others -> _BAD."""
    table = bytearray([_BAD]) * 256
    for symbol, value in pairs.items():
        table[ord(symbol)] = value
        table[ord(symbol.lower())] = value
    return bytes(table)


# Symbol tables, built once: translating the ASCII bytes of a line gives the
# cell values in one C-level pass, which keeps parsing at a few microseconds.
_COURSE_TABLE = _translation({s: v for v, s in enumerate(_COURSE_SYMBOLS)})
_GRID_TABLE = _translation({s: v for v, s in enumerate(_GRID_SYMBOLS)} | {"0": 0})


class Board:
    """A Sudoku board of order N with its givens (0 = empty cell).

    Boards are immutable values: equal when order and cells are equal, hashable,
    and every "change" (:meth:`with_value`) returns a new board.

    Parameters
    ----------
    order : int
        N >= 1; the board has N² rows, columns and boxes.
    cells : sequence of int
        N⁴ values in 0..N², row-major; 0 is an empty cell.

    Attributes
    ----------
    order : int
        N.
    size : int
        N², the number of rows (and columns, boxes, symbols).
    cells : tuple of int
        The N⁴ cell values, row-major.

    Raises
    ------
    InstanceError
        When the order is not a positive integer, the number of cells is not
        N⁴, or a value lies outside 0..N².

    Examples
    --------
    >>> Board(1, [1]).is_complete()
    True
    >>> Board(2, [0] * 15)
    Traceback (most recent call last):
    ...
    sudosat.errors.InstanceError: order 2 needs 16 cells, got 15
    """

    __slots__ = ("order", "size", "cells")

    order: int
    size: int
    cells: tuple[int, ...]

    def __init__(self, order: int, cells: Sequence[int]) -> None:
        if isinstance(order, bool) or not isinstance(order, int) or order < 1:
            raise InstanceError(f"order {order!r} is not an order (N >= 1)")
        values = tuple(map(operator.index, cells))
        size = order * order
        if len(values) != size * size:
            raise InstanceError(f"order {order} needs {size * size} cells, got {len(values)}")
        if min(values) < 0 or max(values) > size:  # two C passes; search only on failure
            position = next(k for k, v in enumerate(values) if not 0 <= v <= size)
            raise InstanceError(
                f"value {values[position]} in cell {_human_cell(position, size)} is outside"
                f" 0..{size} for order {order}"
            )
        self.order = order
        self.size = size
        self.cells = values

    @classmethod
    def _trusted(cls, order: int, cells: tuple[int, ...]) -> Board:
        """Build a board from cells already checked (the parsers' fast path)."""
        board = object.__new__(cls)
        board.order = order
        board.size = order * order
        board.cells = cells
        return board

    @classmethod
    def empty(cls, order: int) -> Board:
        """The board of order `order` with every cell empty."""
        if isinstance(order, bool) or not isinstance(order, int) or order < 1:
            raise InstanceError(f"order {order!r} is not an order (N >= 1)")
        return cls._trusted(order, (0,) * order**4)

    # -- reading ----------------------------------------------------------------

    @classmethod
    def parse(
        cls,
        text: str,
        source: str | None = None,
        line: int | None = None,
        check: Callable[[], object] | None = None,
    ) -> Board:
        """Read one board line in any of the three formats (see the module notes).

        The format is told apart by shape: a single token of k⁴ symbols is a grid
        string; the order and one token is a course line ``N T``; the order and
        several numbers (separated by blanks, commas or dashes) is a numeric line.
        Surrounding blanks and line ends (``\\n``, ``\\r\\n``) are ignored.

        Parameters
        ----------
        text : str
            The line.
        source : str, optional
            The file the line comes from, named in errors.
        line : int, optional
            The 1-based line number, named in errors.
        check : callable, optional
            Called between pieces of a long numeric line; it stops the reading by
            raising (a time limit's ``Deadline.check``): an order-50 line of
            12 MB or more takes about a second to read.

        Returns
        -------
        Board
            The board; its givens may clash (see :meth:`first_conflict`).

        Raises
        ------
        InstanceError
            With the reason, e.g. ``order 3 needs 81 symbols, got 80`` or
            ``'#' at position 12 is not a symbol``, and `source`/`line`.

        Examples
        --------
        >>> Board.parse("1 1").cells
        (1,)
        >>> Board.parse("1, 0").order
        1
        >>> Board.parse("3 12", source="in.txt", line=4)
        Traceback (most recent call last):
        ...
        sudosat.errors.InstanceError: in.txt:4: order 3 needs 81 symbols, got 2
        """
        misplaced = misplaced_mark(text, line)
        if misplaced:
            raise InstanceError(misplaced, file=source, line=line)
        try:
            return _parse(text, check)
        except InstanceError as error:
            raise InstanceError(error.reason, file=source, line=line) from None

    # -- writing ----------------------------------------------------------------

    def to_line(self) -> str:
        """The course line ``N T`` for orders up to 6, else the numeric line."""
        if self.order <= COURSE_MAX_ORDER:
            return self.to_course()
        return self.to_numbers()

    def to_course(self) -> str:
        """The course line ``N T`` (``0`` empty, ``1``-``9``, ``A``-``Z``, ``.`` = 36).

        Raises
        ------
        InstanceError
            For orders above 6, whose symbols the course format cannot write.
        """
        if self.order > COURSE_MAX_ORDER:
            raise InstanceError(_beyond_course(self.order))
        symbols = _COURSE_SYMBOLS
        return f"{self.order} " + "".join([symbols[v] for v in self.cells])

    def to_numbers(self, sep: str = " ") -> str:
        """The numeric line: the order, then every cell value, joined by `sep`.

        `sep` may be any of the separators the reader accepts (blank, comma,
        dash, or a mix such as ``", "``).
        """
        return sep.join(map(str, (self.order, *self.cells)))

    def to_grid(self, empty: str = ".") -> str:
        """The grid string without the order (``.sdk`` for order 3).

        Parameters
        ----------
        empty : {'.', '0'}
            The symbol written for an empty cell.

        Raises
        ------
        InstanceError
            When a value exceeds 35, the last symbol a grid string has (order 6
            boards holding 36 need the course or numeric format).
        """
        if empty not in (".", "0"):
            raise ValueError(f"an empty cell is written '.' or '0', not {empty!r}")
        if self.size > GRID_MAX_VALUE and max(self.cells) > GRID_MAX_VALUE:
            raise InstanceError(
                f"a grid string writes values up to {GRID_MAX_VALUE}; this order"
                f" {self.order} board holds {max(self.cells)} (use the course or numeric format)"
            )
        symbols = empty + _GRID_SYMBOLS[1:]
        return "".join([symbols[v] for v in self.cells])

    def to_text(self, empty: str = ".") -> str:
        """The board as a matrix of numbers with box rules, one row per line.

        Values are right-aligned decimal numbers (so ``10`` rather than ``A``
        from order 4 on), which reads the same at every order.

        Parameters
        ----------
        empty : str
            What an empty cell shows.

        Examples
        --------
        >>> print(Board.parse("2 1234341221434321").to_text())
        1 2 | 3 4
        3 4 | 1 2
        ----+----
        2 1 | 4 3
        4 3 | 2 1
        """
        n, size = self.order, self.size
        width = max(len(str(size)), len(empty))
        shown = [str(v).rjust(width) if v else empty.rjust(width) for v in self.cells]
        segment = n * width + n - 1
        rule = "+".join("-" * (segment + (k > 0) + (k < n - 1)) for k in range(n))
        lines = []
        for i in range(size):
            if i and i % n == 0:
                lines.append(rule)
            row = shown[i * size : (i + 1) * size]
            lines.append(" | ".join(" ".join(row[b : b + n]) for b in range(0, size, n)))
        return "\n".join(lines)

    def to_html(self, puzzle: Board | None = None) -> str:
        """The board as an HTML table with box rules, for notebooks and reports.

        Parameters
        ----------
        puzzle : Board, optional
            The puzzle this board solves: its givens are shown in bold, and a
            cell that changes a given is shown in red (class ``changed``).

        Returns
        -------
        str
            A ``<style>`` block and a ``<table class="sudosat-board">``
            (:func:`sudosat.sudoku.board_view.board_table`).
        """
        if puzzle is not None and puzzle.order != self.order:
            raise ValueError(
                f"a puzzle of order {puzzle.order} cannot mark an order {self.order} board"
            )
        texts = [str(value) if value else EMPTY for value in self.cells]
        if puzzle is None:
            return board_table(self.order, texts)
        marks = [
            [] if not given else ["given"] if given == value else ["changed"]
            for given, value in zip(puzzle.cells, self.cells, strict=True)
        ]
        return board_table(self.order, texts, marks)

    def _repr_html_(self) -> str:
        return self.to_html()

    # -- queries ----------------------------------------------------------------

    def value(self, i: int, j: int) -> int:
        """The value of the cell in row `i`, column `j` (0-based; 0 = empty)."""
        size = self.size
        if not (0 <= i < size and 0 <= j < size):
            raise IndexError(f"cell ({i}, {j}) is outside a {size}x{size} board (0-based)")
        return self.cells[i * size + j]

    def givens(self) -> list[Given]:
        """Every filled cell as ``(i, j, d)``, 0-based row and column, row-major."""
        size = self.size
        return [(*divmod(k, size), v) for k, v in enumerate(self.cells) if v]

    @property
    def num_givens(self) -> int:
        """How many cells are filled."""
        return len(self.cells) - self.cells.count(0)

    def is_complete(self) -> bool:
        """True when no cell is empty (the values may still clash)."""
        return 0 not in self.cells

    def first_conflict(self) -> str | None:
        """Name the first unit holding a symbol twice, or None when there is none.

        Rows are searched first (top to bottom), then columns, then boxes.

        Examples
        --------
        >>> Board.parse("2 1000000010000000").first_conflict()
        'column 1 holds 1 twice, in cells (1, 1) and (3, 1)'
        """
        return _first_conflict(self.order, self.cells)

    def clashes(self) -> list[str]:
        """Every symbol a unit holds more than once, each with every cell holding it.

        Units in the order of :meth:`first_conflict` (rows, columns, boxes),
        symbols in the order of their first repeat, so the first phrase is
        :meth:`first_conflict`'s; empty when the givens are consistent.

        Examples
        --------
        >>> for clash in Board.parse("2 1100000010000000").clashes():
        ...     print(clash)
        row 1 holds 1 twice, in cells (1, 1) and (1, 2)
        column 1 holds 1 twice, in cells (1, 1) and (3, 1)
        box 1 holds 1 twice, in cells (1, 1) and (1, 2)
        """
        return _all_clashes(self.order, self.cells)

    def is_consistent(self) -> bool:
        """True when no row, column or box holds a symbol twice."""
        return _first_conflict(self.order, self.cells) is None

    def with_value(self, i: int, j: int, d: int) -> Board:
        """A new board with cell (`i`, `j`) (0-based) set to `d` (0 empties it)."""
        size = self.size
        if not (0 <= i < size and 0 <= j < size):
            raise IndexError(f"cell ({i}, {j}) is outside a {size}x{size} board (0-based)")
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= size:
            raise InstanceError(f"value {d!r} is outside 0..{size} for order {self.order}")
        cells = list(self.cells)
        cells[i * size + j] = d
        return Board._trusted(self.order, tuple(cells))

    def rows(self) -> Iterator[tuple[int, ...]]:
        """The rows, top to bottom, each a tuple of N² values."""
        size, cells = self.size, self.cells
        return (cells[k : k + size] for k in range(0, len(cells), size))

    # -- value semantics --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.order == other.order and self.cells == other.cells

    def __hash__(self) -> int:
        return hash((self.order, self.cells))

    def __repr__(self) -> str:
        return f"Board.parse({self.to_line()!r})"

    def __str__(self) -> str:
        return self.to_text()


# -- the rules -----------------------------------------------------------------


def units(order: int) -> tuple[Unit, ...]:
    """Every unit of an order-N board as ``(kind, number, cell indices)``.

    `kind` is ``"row"``, ``"column"`` or ``"box"``, `number` is 1-based, and the
    indices point into ``Board.cells`` in reading order. Rows come first, then
    columns, then boxes. The table is computed once per order.
    """
    return _unit_table(order)


@cache
def _unit_table(order: int) -> tuple[Unit, ...]:
    n, size = order, order * order
    rows = [("row", i + 1, tuple(range(i * size, (i + 1) * size))) for i in range(size)]
    columns = [("column", j + 1, tuple(range(j, size * size, size))) for j in range(size)]
    boxes = []
    for b in range(size):
        top, left = (b // n) * n, (b % n) * n
        cells = tuple((top + r) * size + left + c for r in range(n) for c in range(n))
        boxes.append(("box", b + 1, cells))
    return tuple(rows + columns + boxes)


@cache
def _unit_getters(order: int) -> tuple[tuple[str, int, tuple[int, ...], Callable], ...]:
    """The unit table with an itemgetter per unit (one C call reads a unit's values)."""
    return tuple(
        (kind, number, cells, operator.itemgetter(*cells))
        for kind, number, cells in _unit_table(order)
    )


def _first_conflict(order: int, cells: tuple[int, ...]) -> str | None:
    """The first clash in reading order of units (rows, columns, boxes), or None."""
    if order == 1:
        return None  # one cell per unit: nothing can clash (and itemgetter would not give a tuple)
    size = order * order
    for kind, number, indices, get in _unit_getters(order):
        values = get(cells)
        filled = size - values.count(0)
        # The distinct symbols are the distinct values less the 0 (present when
        # the unit is not full); fewer than the filled cells means a repeat.
        if filled > 1 and len(set(values)) - (filled < size) < filled:
            return _unit_clashes(kind, number, indices, values, size)[0]
    return None


def _all_clashes(order: int, cells: tuple[int, ...]) -> list[str]:
    """Every (unit, repeated symbol), units in reading order (so the first is
    :func:`_first_conflict`'s)."""
    if order == 1:
        return []
    size = order * order
    found = []
    for kind, number, indices, get in _unit_getters(order):
        found += _unit_clashes(kind, number, indices, get(cells), size)
    return found


def _unit_clashes(
    kind: str, number: int, indices: tuple[int, ...], values: tuple[int, ...], size: int
) -> list[str]:
    """Each symbol the unit repeats, in the order of its first repeat, with every cell
    holding it: "row 1 holds 5 three times, in cells (1, 1), (1, 4) and (1, 6)"."""
    seen: set[int] = set()
    repeated: dict[int, None] = {}
    for value in values:
        if value in seen:
            repeated[value] = None
        elif value:
            seen.add(value)
    phrases = []
    for value in repeated:
        held = [_human_cell(index, size)
                for index, there in zip(indices, values, strict=True) if there == value]
        times = _TIMES.get(len(held), f"{len(held)} times")
        phrases.append(f"{kind} {number} holds {value} {times}, in cells {and_join(held)}")
    return phrases


_TIMES = {2: "twice"} | {
    count: f"{word} times"
    for count, word in enumerate(("three", "four", "five", "six", "seven", "eight", "nine"), 3)
}


def _human_cell(index: int, size: int) -> str:
    i, j = divmod(index, size)
    return f"({i + 1}, {j + 1})"


def check_solution(puzzle: Board, solution: Board) -> str | None:
    """Check that `solution` solves `puzzle`; name the first fault, or return None.

    The checks run in this order: same order; every cell filled; every row,
    then column, then box holds each symbol once; every given kept.

    Examples
    --------
    >>> puzzle = Board.parse("2 1000000000000000")
    >>> check_solution(puzzle, Board.parse("2 1234341221434321")) is None
    True
    >>> check_solution(puzzle, Board.parse("2 2143341212344321"))
    'cell (1, 1) changes the given 1 to 2'
    """
    if solution.order != puzzle.order:
        return f"the solution has order {solution.order}, the puzzle order {puzzle.order}"
    size, cells = solution.size, solution.cells
    if 0 in cells:
        return f"cell {_human_cell(cells.index(0), size)} is empty"
    clash = _first_conflict(solution.order, cells)
    if clash is not None:
        return clash
    for index, (given, value) in enumerate(zip(puzzle.cells, cells, strict=True)):
        if given and given != value:
            return f"cell {_human_cell(index, size)} changes the given {given} to {value}"
    return None


# -- parsing -------------------------------------------------------------------


def _parse(text: str, check: Callable[[], object] | None = None) -> Board:
    """Parse one line (no file/line context: Board.parse adds it)."""
    # A byte-order mark can lead a file's first line. Only ASCII blanks and line
    # ends are trimmed: a form feed or U+2028 is a character the message names.
    stripped = text.strip(_LINE_BLANKS).lstrip("\ufeff").strip(_LINE_BLANKS)
    if not stripped:
        raise InstanceError("empty line")
    board = _parse_plain_numbers(stripped, check)
    if board is not None:
        return board
    parts = _SEPARATORS.split(stripped)
    if len(parts) == 1:
        return _parse_grid(stripped)
    tokens = parts[::2]
    head, rest = tokens[0], tokens[1:]
    if not head:  # the line starts with a comma or a dash
        raise InstanceError(f"{stripped[0]!r} at the start of the line is not an order")
    _check_separators(parts)
    if not (head.isascii() and head.isdecimal()):
        raise InstanceError(
            f"{head!r} is not an order (a line is 'N T', 'N v v ...' or a grid string)"
        )
    if len(head) > _MAX_ORDER_DIGITS:  # int() refuses very long digit strings anyway
        raise InstanceError(f"order {head[:_MAX_ORDER_DIGITS]}... is too large")
    order = int(head)
    if rest[-1] == "":  # a trailing separator, as in "1, 2, 3,"
        rest.pop()
    # "N T" is one token after the order; order 1 is the exception where a
    # lone multi-digit number ("1 10") is a numeric line, so its error names a value.
    if len(rest) == 1 and not (order == 1 and len(rest[0]) > 1 and rest[0].isdecimal()):
        return _parse_course(order, rest[0])
    return _parse_numbers(order, rest)


def _parse_plain_numbers(
    stripped: str, check: Callable[[], object] | None = None
) -> Board | None:
    """The common numeric line (ASCII digits and blanks, canonical values) at C speed, else None.

    An order-50 line holds 6.25 million numbers: splitting it with the separator
    pattern and calling ``int`` on each took about a second. Here ``str.split``
    and one look-up per token in a table of the order's own values do the work,
    a piece of the line at a time with `check` called before each; any other
    line (commas, dashes, a leading zero, a bad value, a wrong count) returns
    None and goes through the general parser, which names its fault.
    """
    first = stripped.split(None, 1)[:1]  # nothing when it is all blanks of other kinds
    if not first or not stripped.isascii():
        return None
    head = first[0]
    if len(head) > _MAX_ORDER_DIGITS or not head.isdecimal():
        return None
    order = int(head)
    # Order 1 and "N T" lines (a token of N⁴ symbols) take the general path, and so does
    # a line too short for N⁴ numbers, before a table of the order's values is made.
    if order < 2 or 2 * order**4 > len(stripped):
        return None
    values = {str(value): value for value in range(order * order + 1)}
    cells: list[int | None] = []
    for piece in _pieces(stripped[len(head):], _PARSE_PIECE):
        if check is not None:
            check()
        if piece.translate(_DIGITS_AND_BLANKS):
            return None
        cells += map(values.get, piece.split())
        if len(cells) > order**4:
            return None
    if len(cells) != order**4 or None in cells:
        return None
    return Board._trusted(order, tuple(cells))  # type: ignore[arg-type]  # no None: above


_PARSE_PIECE = 1 << 20  # characters of a numeric line read between two looks at the deadline
_BLANK = re.compile(r"[ \t]")


def _pieces(text: str, size: int) -> Iterator[str]:
    """`text` in pieces of about `size` characters, each cut at a blank (no number is split).

    Examples
    --------
    >>> list(_pieces("12 34 5 678", 4))
    ['12 34', ' 5 678']
    """
    start = 0
    while start < len(text):
        blank = _BLANK.search(text, start + size) if start + size < len(text) else None
        stop = blank.start() if blank else len(text)
        yield text[start:stop]
        start = stop


def _check_separators(parts: list[str]) -> None:
    """Refuse a separator run other than blanks, one comma, or one dash between digits.

    `parts` alternates tokens and separator runs (``re.split`` with a group);
    a run after the last token may only be a trailing comma.
    """
    separators = parts[1::2]
    for run in set(separators):  # usually one distinct run: checked once
        if _GOOD_SEPARATOR.fullmatch(run):
            continue
        if parts[-1] == "" and run == separators[-1] and run.strip(" \t") == ",":
            continue  # "1, 2, 3," : one trailing comma
        position = separators.index(run) + 1
        what = "a doubled separator" if "-" not in run else (
            "a dash separates two numbers only when it touches both (no blank beside it, "
            "not doubled, not first)"
        )
        raise InstanceError(f"{run!r} before position {position}: {what}")


def _parse_grid(token: str) -> Board:
    length = len(token)
    order = _fourth_root(length)
    if order is None:
        near = max(1, round(length**0.25))
        raise InstanceError(
            f"a grid string needs N⁴ symbols (order {near} needs {near**4}), got {length}"
        )
    cells = _translate(token, _GRID_TABLE)
    return _checked(order, cells, token)


def _parse_course(order: int, token: str) -> Board:
    if not 1 <= order <= COURSE_MAX_ORDER:
        raise InstanceError(_beyond_course(order))
    need = order**4
    if len(token) != need:
        raise InstanceError(f"order {order} needs {need} symbols, got {len(token)}")
    cells = _translate(token, _COURSE_TABLE)
    return _checked(order, cells, token)


def _parse_numbers(order: int, tokens: list[str]) -> Board:
    if order < 1:
        raise InstanceError(f"order {order} is not an order (N >= 1)")
    need = order**4
    if len(tokens) != need:
        raise InstanceError(f"order {order} needs {need} numbers, got {len(tokens)}")
    joined = "".join(tokens)  # one check at C speed; the loop only to name a bad token
    if not (joined.isascii() and joined.isdecimal() and all(tokens)):
        for position, token in enumerate(tokens, 1):
            if not (token.isascii() and token.isdecimal()):
                raise InstanceError(f"{_shorten(token)!r} at position {position} is not a number")
    if _LONG_NUMBER.search(" ".join(tokens)):  # a regex scan: max(map(len)) is 10 times slower
        position = next(k for k, t in enumerate(tokens, 1) if len(t) > _MAX_NUMBER_DIGITS)
        raise InstanceError(
            f"value {_shorten(tokens[position - 1])} at position {position} is too big for order"
            f" {order} (max {order * order})"
        )
    cells = tuple(map(int, tokens))
    size = order * order
    if max(cells) > size:
        position = next(k for k, v in enumerate(cells, 1) if v > size)
        raise InstanceError(
            f"value {cells[position - 1]} at position {position} is too big for order {order}"
            f" (max {size})"
        )
    return Board._trusted(order, cells)


def _translate(token: str, table: bytes) -> tuple[int, ...]:
    """Map every symbol of `token` to its value, or name the first unknown one."""
    try:
        values = token.encode("ascii").translate(table)
    except UnicodeEncodeError:
        values = None
    if values is None or _BAD in values:
        position, symbol = next(
            (position, symbol)
            for position, symbol in enumerate(token, 1)
            if not symbol.isascii() or table[ord(symbol)] == _BAD
        )
        raise InstanceError(f"{symbol!r} at position {position} is not a symbol") from None
    return tuple(values)


def _checked(order: int, cells: tuple[int, ...], token: str) -> Board:
    """A board from translated symbols, once every value fits the order."""
    size = order * order
    if max(cells) > size:
        position = next(k for k, v in enumerate(cells, 1) if v > size)
        symbol = token[position - 1]
        hint = (
            " ('.' is 36 in the course format; write 0 for an empty cell)" if symbol == "." else ""
        )
        raise InstanceError(
            f"symbol {symbol!r} ({cells[position - 1]}) at position {position} is too big"
            f" for order {order} (max {size}){hint}"
        )
    return Board._trusted(order, cells)


def _shorten(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _fourth_root(length: int) -> int | None:
    """k with k⁴ == length, or None."""
    k = round(length**0.25)
    return k if k >= 1 and k**4 == length else None


def _beyond_course(order: int) -> str:
    if order < 1:
        return f"order {order} is not an order (the course format takes 1..{COURSE_MAX_ORDER})"
    return (
        f"order {order} is beyond the course format (1..{COURSE_MAX_ORDER}); use the numeric format"
    )
