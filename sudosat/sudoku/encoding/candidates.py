"""What the givens leave open: candidates per cell and unit (the reduced encodings' input)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sudosat.sudoku.board import Board, units


@dataclass
class Candidates:
    """What the givens leave open: the input of the reduced encodings.

    ``open_cells[k]`` is a cell index and ``symbols[k]`` its candidate symbols;
    ``given_masks[u]`` has bit d set when unit u (rows, columns, boxes) holds a
    given d; ``clashes[u]`` counts pairs of givens with one symbol in unit u.
    """

    open_cells: list[int]
    symbols: list[list[int]]
    given_masks: list[int]
    clashes: list[int]


def _units_of(cell: int, order: int, size: int) -> tuple[int, int, int]:
    """The row, column and box of `cell`, as indices into ``units(order)``."""
    i, j = divmod(cell, size)
    return i, size + j, 2 * size + (i // order) * order + j // order


def _nothing() -> None:
    """The `check` of a build without a deadline."""


def list_candidates(board: Board, check: Callable[[], None] | None = None) -> Candidates:
    """Candidates of every open cell: the symbols no peer holds as a given.

    `check` is called once per row (N² cells, N⁴ candidates at most) and stops
    the work by raising.
    """
    check = check or _nothing
    order, size, cells = board.order, board.size, board.cells
    table = units(order)
    masks = [0] * len(table)
    clashes = [0] * len(table)
    for u, (_, _, members) in enumerate(table):
        seen: dict[int, int] = {}
        for cell in members:
            value = cells[cell]
            if value:
                clashes[u] += seen.get(value, 0)
                seen[value] = seen.get(value, 0) + 1
                masks[u] |= 1 << value
    everything = ((1 << size) - 1) << 1
    open_cells, symbols = [], []
    for cell, value in enumerate(cells):
        if not cell % size:
            check()
        if value:
            continue
        row, column, box = _units_of(cell, order, size)
        free = everything & ~(masks[row] | masks[column] | masks[box])
        open_cells.append(cell)
        symbols.append([d for d in range(1, size + 1) if free >> d & 1])
    return Candidates(open_cells, symbols, masks, clashes)


def unit_groups(
    board: Board, cand: Candidates, check: Callable[[], None] | None = None
) -> list[list[list[int]]]:
    """``groups[u][d - 1]``: the compact variables of symbol d in unit u, in cell order.

    `check` is called every N² open cells and stops the work by raising.
    """
    order, size = board.order, board.size
    check = check or _nothing
    groups: list[list[list[int]]] = [[[] for _ in range(size)] for _ in range(3 * size)]
    var = 0
    for k, (cell, symbols) in enumerate(zip(cand.open_cells, cand.symbols, strict=True)):
        if not k % size:
            check()
        row, column, box = (groups[u] for u in _units_of(cell, order, size))
        for d in symbols:
            var += 1
            row[d - 1].append(var)
            column[d - 1].append(var)
            box[d - 1].append(var)
    return groups
