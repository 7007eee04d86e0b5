"""The encodings' registry, the course numbering and :class:`Encoded` (what every build returns).

Nothing here builds clauses: the families are declared in
:mod:`sudosat.sudoku.encoding.families` and written by :mod:`sudosat.sudoku.encoding.build`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field

from sudosat.errors import EncodingError
from sudosat.sat.cnf import CNF
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding.families import DECLARED

Lit = int

DEFAULT_MAX_BYTES = 1_000_000_000
"""Default limit for :func:`check_resources`: 1 GB of clauses.

The flat clause array is the smallest form a formula takes here; a pure-Python
solver holds it as lists of ints, about ten times as much. One gigabyte of
clauses thus means roughly ten in the solver: most of a 24 GB machine, which
leaves room for a second worker. It admits every course encoding up to order 8
(33 million clauses, about 0.9 GB to build) and refuses order 9 (85 million
clauses, about 2 GB), whose optimised encoding needs far less.
"""


@dataclass(frozen=True)
class EncodingSpec:
    """One registered encoding.

    Attributes
    ----------
    name : str
    description : str
        One line for ``sudosat encode --list`` and the report.
    families : tuple of str
        The clause families it writes, in order.
    amo : str
        How at-most-one groups are written: a key of ``sudosat.sat.amo.AMO_METHODS``.
    reduced : bool
        True for Kwon and Jain's reduction (only open candidates remain).
    """

    name: str
    description: str
    families: tuple[str, ...]
    amo: str = "pairwise"
    reduced: bool = False


_COURSE = ("completeness", "uniqueness", "validity", "givens")
_MINIMAL = ("completeness", "validity", "givens")
_EXTENDED = ("completeness", "uniqueness", "validity", "coverage", "givens")

ENCODINGS: dict[str, EncodingSpec] = {
    spec.name: spec
    for spec in (
        EncodingSpec(
            "course",
            "the course's reduction: completeness, uniqueness, "
            "validity, givens; pairwise at-most-one",
            _COURSE,
        ),
        EncodingSpec(
            "minimal", "course without the uniqueness family (implied by the rest)", _MINIMAL
        ),
        EncodingSpec(
            "extended",
            "course plus coverage: every symbol at least once per row, column and box",
            _EXTENDED,
        ),
        EncodingSpec(
            "optimised",
            "Kwon & Jain: extended reduced by the givens; only open "
            "candidates remain, renumbered 1..K",
            _EXTENDED,
            reduced=True,
        ),
        EncodingSpec(
            "course-seq",
            "course with sequential-counter at-most-one "
            "(O(N^6) clauses, auxiliary variables after the cells)",
            _COURSE,
            "seq",
        ),
        EncodingSpec(
            "course-product",
            "course with product at-most-one (O(N^6) clauses, auxiliary variables after the cells)",
            _COURSE,
            "product",
        ),
        EncodingSpec(
            "optimised-seq",
            "optimised with sequential-counter at-most-one: the smallest for large orders",
            _EXTENDED,
            "seq",
            reduced=True,
        ),
        EncodingSpec(
            "optimised-product",
            "optimised with product at-most-one",
            _EXTENDED,
            "product",
            reduced=True,
        ),
    )
}
"""Every encoding by name; :func:`encode` takes these names."""

FORMAT_ENCODINGS: dict[str, EncodingSpec] = {
    "dartmouth": EncodingSpec(
        "dartmouth",
        "Dartmouth's rules.cnf (encode --format dartmouth): completeness, uniqueness, "
        "coverage; no validity, so unit propagation is weak and cdcl slow on it",
        ("completeness", "uniqueness", "coverage", "givens"),
    ),
}
"""Encodings kept for another course's file format, not for study: :func:`encode` takes
their names, but they are not in :data:`ENCODINGS` (which the experiments sweep). The
Dartmouth rules leave out the validity family (every symbol at least once per unit, with
one symbol per cell, makes it exactly once); without its binary clauses unit propagation
fixes far fewer cells, and cdcl needs many more conflicts a puzzle than with ``extended``."""


def written_families() -> tuple[str, ...]:
    """Every clause family some registered encoding writes, as the registries hold them now.

    In the order the encodings write them: the order of
    :data:`sudosat.sudoku.encoding.families.DECLARED`. The encoding workbench
    reads it on each use, so a family registered after import is offered too.

    Examples
    --------
    >>> written_families()
    ('completeness', 'uniqueness', 'validity', 'coverage', 'givens')
    """
    specs = (*ENCODINGS.values(), *FORMAT_ENCODINGS.values())
    return tuple(name for name in DECLARED if any(name in spec.families for spec in specs))


FAMILIES = written_families()
"""Every clause family some registered encoding writes, at import (:func:`written_families`)."""

_UNDECLARED = {name for spec in (*ENCODINGS.values(), *FORMAT_ENCODINGS.values())
               for name in spec.families} - set(DECLARED)
if _UNDECLARED:  # a typo in a registration fails at import, not in the middle of a build
    raise ImportError(f"encodings name undeclared clause families: {sorted(_UNDECLARED)}")

_ALIASES = {
    name.replace("optimised", "optimized"): name for name in ENCODINGS if "optimised" in name
}


def get_encoding(name: str) -> EncodingSpec:
    """The registered encoding called `name` (``optimized`` spellings accepted).

    Raises
    ------
    EncodingError
        When no encoding has that name; the message lists the names.
    """
    spec = ENCODINGS.get(_ALIASES.get(name, name)) or FORMAT_ENCODINGS.get(name)
    if spec is None:
        names = ", ".join([*ENCODINGS, *FORMAT_ENCODINGS])
        raise EncodingError(f"unknown encoding {name!r}; choose one of {names}")
    return spec


# -- the course numbering --------------------------------------------------------


def variable(i: int, j: int, d: int, order: int) -> int:
    """The course number of x(i, j, d): ``i·N⁴ + j·N² + d``.

    Rows and columns count from 0, symbols from 1.

    Examples
    --------
    >>> variable(0, 0, 1, 3), variable(8, 8, 9, 3)
    (1, 729)
    """
    size = order * order
    if not (0 <= i < size and 0 <= j < size and 1 <= d <= size):
        raise ValueError(f"x({i}, {j}, {d}) is outside an order-{order} board")
    return (i * size + j) * size + d


def cell_of(var: int, order: int) -> tuple[int, int, int]:
    """The inverse of :func:`variable`: course variable -> (i, j, d).

    Examples
    --------
    >>> cell_of(1, 3), cell_of(729, 3)
    ((0, 0, 1), (8, 8, 9))
    """
    size = order * order
    if not 1 <= var <= size**3:
        raise ValueError(f"variable {var} is outside 1..{size**3} (order {order})")
    cell, d = divmod(var - 1, size)
    i, j = divmod(cell, size)
    return i, j, d + 1


def decode_course(model: Iterable[Lit], order: int) -> Board:
    """The board a model of any course-numbered encoding describes.

    True literals 1..N⁶ fill their cells (the smallest symbol wins if a model
    sets two); false literals, auxiliary variables beyond N⁶ and literals out
    of range are ignored. A cell no true literal names stays empty.
    """
    size = order * order
    return Board(order, _fill([0] * size**2, model, size, size**3, None))


def _fill(
    cells: list[int], model: Iterable[Lit], size: int, limit: int, origin: array | None
) -> list[int]:
    """Write the symbols of `model`'s true cell variables into the empty `cells`."""
    for lit in sorted(lit for lit in model if 0 < lit <= limit):
        var = lit if origin is None else origin[lit - 1]
        cell, d = divmod(var - 1, size)
        if not cells[cell]:
            cells[cell] = d + 1
    return cells


# -- the result ------------------------------------------------------------------


@dataclass(eq=False)
class Encoded:
    """A board encoded as CNF, with the decoder of its numbering.

    Attributes
    ----------
    cnf : CNF
    board : Board
        The board that was encoded.
    encoding : str
        The registered name of the encoding.
    family_counts : dict of str to int
        Clauses per family, in the order they were written; they sum to the
        number of clauses.
    num_cell_vars : int
        Variables 1..num_cell_vars stand for cells; any above are auxiliary.
    decided_by_givens : bool
        True when the givens leave no cell open (a reduced encoding of a full,
        consistent board): the CNF is then empty and ``decode([])`` is the board.
    reduction : dict of str to int
        For the optimised encodings, what the givens removed from the extended
        encoding: ``variables_decided``, ``variables_open``, ``clauses_before``,
        ``clauses_satisfied``, ``clauses_kept``, ``literals_falsified`` (literals
        cut from kept clauses). The counts are those of pairwise at-most-one,
        whatever at-most-one the encoding then uses. Empty for other encodings.
    """

    cnf: CNF
    board: Board
    encoding: str
    family_counts: dict[str, int]
    num_cell_vars: int
    decided_by_givens: bool = False
    reduction: dict[str, int] = field(default_factory=dict)
    _origin: array | None = field(default=None, repr=False)
    _index: dict[int, int] | None = field(default=None, init=False, repr=False)

    @property
    def num_vars(self) -> int:
        """Variables of the CNF (cell variables and auxiliary ones)."""
        return self.cnf.num_vars

    @property
    def num_clauses(self) -> int:
        """Clauses of the CNF."""
        return self.cnf.num_clauses

    def decode(self, model: Iterable[Lit]) -> Board:
        """The full board a model describes, givens included.

        Parameters
        ----------
        model : iterable of int
            Signed literals (a solver's ``Result.model``). Auxiliary variables
            and unknown literals are ignored; a cell no true literal fills
            stays empty, so a wrong model gives a board that fails
            :func:`sudosat.sudoku.board.check_solution` rather than an exception.
        """
        size = self.board.size
        # A reduced CNF does not hold the givens: start from them.
        cells = [0] * (size * size) if self._origin is None else list(self.board.cells)
        return Board(self.board.order, _fill(cells, model, size, self.num_cell_vars, self._origin))

    def variable(self, i: int, j: int, d: int) -> int | None:
        """This encoding's variable for x(i, j, d); None when the givens decided it."""
        course = variable(i, j, d, self.board.order)
        if self._origin is None:
            return course
        if self._index is None:  # built on first use: decoding never needs it
            self._index = {var: k for k, var in enumerate(self._origin, start=1)}
        return self._index.get(course)

    def meaning(self, var: int) -> tuple[int, int, int] | None:
        """(i, j, d) for a cell variable of this encoding; None for an auxiliary one."""
        if not 1 <= var <= self.num_cell_vars:
            return None
        course = var if self._origin is None else self._origin[var - 1]
        return cell_of(course, self.board.order)
