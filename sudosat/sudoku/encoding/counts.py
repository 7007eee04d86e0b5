"""How many candidates the givens leave, counted without listing them.

The reduced encodings' size depends only on how many candidates each open cell
has and how many open cells of each unit (row, column, box) can still hold each
symbol. :func:`count_candidates` computes those counts as histograms with bit
sets: one integer per unit and symbol instead of a list of N² candidates per
cell, so a board of order N costs O(N⁴) integer operations, the deadline looked
at once per row and per symbol, and nothing grows with the candidates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress


@dataclass(frozen=True)
class CandidateCounts:
    """The counts the reduced encodings' sizes follow from.

    Attributes
    ----------
    candidates : int
        Open (cell, symbol) pairs: the reduced encodings' cell variables.
    open_cells : int
        Cells without a given.
    per_cell : list of int
        ``per_cell[n]``: how many open cells have n candidates.
    per_group : tuple of three lists of int
        For rows, columns and boxes: ``per_group[k][n]`` is how many (unit, symbol)
        pairs of kind k have n open cells that can hold the symbol, over the N²
        units of the kind and N² symbols.
    covered : tuple of three int
        For rows, columns and boxes: (unit, symbol) pairs whose symbol is given in
        the unit (their groups hold no open cell).
    clashes : tuple of three int
        For rows, columns and boxes: pairs of givens with one symbol in one unit,
        summed over the units.
    """

    candidates: int
    open_cells: int
    per_cell: list[int]
    per_group: tuple[list[int], list[int], list[int]]
    covered: tuple[int, int, int]
    clashes: tuple[int, int, int]


Check = Callable[[], None]


def _nothing() -> None:
    """The `check` of a call without a deadline."""


def count_candidates(
    order: int, cells: tuple[int, ...], check: Check | None = None
) -> CandidateCounts:
    """Count the candidates of a board of `order` with `cells`, without listing them.

    Parameters
    ----------
    order : int
    cells : tuple of int
        Row by row, 0 for an open cell.
    check : callable, optional
        Called once per row of each pass over the cells (the givens', the open
        cells', their units') and once per symbol; raises to stop (a deadline's
        ``check``): no pass runs over the whole board unwatched.

    Examples
    --------
    >>> counts = count_candidates(2, (1,) + (0,) * 15)
    >>> counts.candidates, counts.open_cells, counts.per_cell
    (53, 15, [0, 0, 0, 7, 8])
    """
    check = check or _nothing
    size = order * order
    rows, cols, boxes = ([0] * size for _ in range(3))  # bit d: symbol d given in the unit
    rows_with, cols_with, boxes_with = ([0] * (size + 1) for _ in range(3))  # bit u: unit u
    # A given whose symbol its unit already holds clashes with each earlier one: only
    # those repeats are counted one by one (a sound board has none).
    repeats: dict[tuple[int, int, int], int] = {}
    clashes = [0, 0, 0]
    for i in range(size):
        # Row by row, the deadline looked at each time: the givens of an order-20
        # board alone took 0.3-0.9 s of CPU, longer than a -T 500 it had to honour.
        check()
        row = cells[i * size:(i + 1) * size]
        for j in compress(range(size), row):
            d = row[j]
            bit = 1 << d
            b = (i // order) * order + j // order
            for kind, masks, unit in ((0, rows, i), (1, cols, j), (2, boxes, b)):
                if masks[unit] & bit:
                    key = (kind, unit, d)
                    repeats[key] = repeats.get(key, 0) + 1
                    clashes[kind] += repeats[key]
                else:
                    masks[unit] |= bit
            rows_with[d] |= 1 << i
            cols_with[d] |= 1 << j
            boxes_with[d] |= 1 << b
    per_cell, candidates, open_rows = _per_cell(order, cells, (rows, cols, boxes), check)
    per_group = ([0] * (size + 1), [0] * (size + 1), [0] * (size + 1))
    _count_groups(order, open_rows, (rows_with, cols_with, boxes_with), per_group, check)
    row_pairs, col_pairs, box_pairs = (sum(mask.bit_count() for mask in unit)
                                       for unit in (rows, cols, boxes))
    return CandidateCounts(
        candidates=candidates,
        open_cells=cells.count(0),
        per_cell=per_cell,
        per_group=per_group,
        covered=(row_pairs, col_pairs, box_pairs),
        clashes=(clashes[0], clashes[1], clashes[2]),
    )


def _per_cell(
    order: int, cells: tuple[int, ...], masks: tuple[list[int], list[int], list[int]], check: Check
) -> tuple[list[int], int, list[int]]:
    """The histogram of candidates per open cell, their sum, and each row's open columns."""
    rows, cols, boxes = masks
    size = order * order
    per_cell = [0] * (size + 1)
    open_rows = []
    for i in range(size):
        check()
        row = cells[i * size:(i + 1) * size]
        open_row = 0
        for j in compress(range(size), [not value for value in row]):
            open_row |= 1 << j
            blocked = rows[i] | cols[j] | boxes[(i // order) * order + j // order]
            per_cell[size - blocked.bit_count()] += 1
        open_rows.append(open_row)
    candidates = sum(n * count for n, count in enumerate(per_cell))
    return per_cell, candidates, open_rows


def _spread(bits: int, order: int, block: int) -> int:
    """Bit k of `bits` (k < order) becomes `order` bits from k * `block` on: a box's lines."""
    spread = 0
    while bits:
        low = bits & -bits
        spread |= block << (low.bit_length() - 1) * order
        bits ^= low
    return spread


def _count_groups(
    order: int,
    open_rows: list[int],
    units_with: tuple[list[int], list[int], list[int]],
    per_group: tuple[list[int], list[int], list[int]],
    check: Check,
) -> None:
    """Add to `per_group` (rows, columns, boxes) how many open cells can hold each symbol."""
    row_groups, col_groups, box_groups = per_group
    size = order * order
    rows_with, cols_with, boxes_with = units_with
    line = (1 << order) - 1  # `order` consecutive bits: a box's columns, or rows, in a band
    # Cell (i, j) of box (t, s) sits at bit (i % order) * order + j % order of the box's set;
    # `comb` has one bit per row of a box, at that row's first position.
    comb = sum(1 << (r * order) for r in range(order))
    open_cols = [0] * size
    open_boxes = [0] * size
    for i, open_row in enumerate(open_rows):
        check()
        bits = open_row
        while bits:
            low = bits & -bits
            j = low.bit_length() - 1
            open_cols[j] |= 1 << i
            b = (i // order) * order + j // order
            open_boxes[b] |= 1 << ((i % order) * order + j % order)
            bits ^= low
    for d in range(1, size + 1):
        check()
        row_d, col_d, box_d = rows_with[d], cols_with[d], boxes_with[d]
        for t in range(order):  # band t: rows and boxes t * order ...
            band_boxes = box_d >> (t * order) & line
            cols_free = ~(col_d | _spread(band_boxes, order, line))
            band_rows = row_d >> (t * order) & line
            for r in range(order):
                i = t * order + r
                row_groups[0 if band_rows >> r & 1 else (open_rows[i] & cols_free).bit_count()] += 1
            for s in range(order):  # box (t, s)
                b = t * order + s
                if band_boxes >> s & 1:
                    box_groups[0] += 1
                    continue
                blocked = _spread(band_rows, order, line) | (col_d >> (s * order) & line) * comb
                box_groups[(open_boxes[b] & ~blocked).bit_count()] += 1
        for s in range(order):  # stack s: columns and boxes s, order + s, ...
            stack_boxes = sum(1 << t for t in range(order) if box_d >> (t * order + s) & 1)
            rows_free = ~(row_d | _spread(stack_boxes, order, line))
            for c in range(order):
                j = s * order + c
                col_groups[0 if col_d >> j & 1 else (open_cols[j] & rows_free).bit_count()] += 1
