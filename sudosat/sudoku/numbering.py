"""Variable numberings: which DIMACS variable stands for "cell (i, j) holds d".

Courses number x(i, j, d) differently, and a model is only meaningful in the
numbering that wrote the formula. Each numbering here is an object with the
map, its inverse and its variable set, so that encoders, decoders and the
encoding workbench use the same one (rows and columns count from 0, symbols
from 1, as in :mod:`sudosat.sudoku.encoding`):

``course`` (the default)
    ``i·N⁴ + j·N² + d``: a bijection onto 1..N⁶.
``rcv`` (the "SAT -Sn" and Dartmouth assignments)
    the digits row, column, value counted from 1: ``100·r + 10·c + v`` for
    orders up to 3 (111..999 for 9×9, 111..444 for 4×4), and for larger
    orders the VU 16×16 rule ``(N²+1)²·r + (N²+1)·c + v`` (289·r + 17·c + v
    for 16×16). Its N⁶ variables are spread over 1..top with gaps (729 of
    1..999 for 9×9): a model over 1..top gives values to names no cell has.

Examples
--------
>>> rcv = get_numbering("rcv", 3)
>>> rcv.variable(0, 0, 1), rcv.variable(8, 8, 9), rcv.top
(111, 999, 999)
>>> rcv.cell_of(532)
(4, 2, 2)
>>> get_numbering("rcv", 4).variable(15, 15, 16)
4912
>>> get_numbering("course", 3).cell_of(729)
(8, 8, 9)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sudosat.errors import EncodingError

NUMBERINGS: dict[str, str] = {
    "course": "i·N⁴ + j·N² + d: 1..N⁶",
    "rcv": "digits row, column, value from 1 (the VU and Dartmouth courses): 111..999 for 9×9",
}
"""Every numbering by name, the default first, with what it is in one line (the
workbench's list of numberings); :func:`get_numbering` makes one for an order."""


@dataclass(frozen=True)
class Numbering:
    """One numbering of the cell variables of an order-N board.

    Attributes
    ----------
    name : str
        ``course`` or ``rcv``.
    order : int
        N.
    base : int
        For ``course`` the board's size N² (the variable is
        ``(i·N² + j)·N² + d``); for ``rcv`` the radix of its three digits
        (10 up to order 3, N²+1 beyond).
    """

    name: str
    order: int
    base: int

    @property
    def size(self) -> int:
        """N², the number of rows, columns and symbols."""
        return self.order * self.order

    @property
    def count(self) -> int:
        """How many cell variables there are: N⁶."""
        return self.size**3

    @property
    def top(self) -> int:
        """The highest cell variable (N⁶ for ``course``, the name of x(N², N², N²) for ``rcv``)."""
        return self.variable(self.size - 1, self.size - 1, self.size)

    def variable(self, i: int, j: int, d: int) -> int:
        """The variable of x(i, j, d): 0 <= i, j < N², 1 <= d <= N²."""
        size = self.size
        if not (0 <= i < size and 0 <= j < size and 1 <= d <= size):
            raise ValueError(f"x({i}, {j}, {d}) is outside an order-{self.order} board")
        if self.name == "course":
            return (i * size + j) * size + d
        base = self.base
        return ((i + 1) * base + j + 1) * base + d

    def cell_of(self, var: int) -> tuple[int, int, int] | None:
        """(i, j, d) of a cell variable; None for a number that names no cell."""
        size = self.size
        if self.name == "course":
            if not 1 <= var <= self.count:
                return None
            cell, d = divmod(var - 1, size)
            i, j = divmod(cell, size)
            return i, j, d + 1
        rest, v = divmod(var, self.base)
        r, c = divmod(rest, self.base)
        if not (1 <= r <= size and 1 <= c <= size and 1 <= v <= size):
            return None
        return r - 1, c - 1, v

    def variables(self) -> Iterator[int]:
        """Every cell variable, in course order (row, column, symbol)."""
        size = self.size
        for i in range(size):
            for j in range(size):
                for d in range(1, size + 1):
                    yield self.variable(i, j, d)

    def from_course(self, var: int) -> int:
        """This numbering's variable for the course variable `var` (1..N⁶)."""
        if self.name == "course":
            return var
        cell, d = divmod(var - 1, self.size)
        i, j = divmod(cell, self.size)
        return self.variable(i, j, d + 1)

    def describe(self) -> str:
        """One line for comments and messages, e.g. ``rcv numbering: 100*r + 10*c + v``."""
        size, base = self.size, self.base
        if self.name == "course":
            return f"course numbering: i*{size * size} + j*{size} + d (i, j from 0)"
        return f"rcv numbering: {base * base}*r + {base}*c + v (r, c, v from 1)"


def get_numbering(name: str, order: int) -> Numbering:
    """The numbering called `name` for boards of order `order`.

    Raises
    ------
    EncodingError
        An unknown name (the message lists the known ones) or an order below 1.
    """
    if order < 1:
        raise EncodingError(f"order {order} is not an order (N >= 1)")
    if name == "course":
        return Numbering("course", order, order * order)
    if name == "rcv":
        return Numbering("rcv", order, 10 if order <= 3 else order * order + 1)
    raise EncodingError(f"unknown numbering {name!r}; choose one of {', '.join(NUMBERINGS)}")
