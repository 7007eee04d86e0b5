"""Sudoku -> CNF: the course encoding, its relatives, and the variable numbering.

Variable x(i, j, d) says "cell (i, j) holds d" (0 <= i, j < N², 1 <= d <= N²).
The course encoding numbers it ``i·N⁴ + j·N² + d`` (SPEC §3), a bijection onto
1..N⁶; :func:`variable` and :func:`cell_of` are that numbering and its inverse.
Every encoding is built by :func:`encode`, which returns an :class:`Encoded`
holding the CNF and its decoder, so only this module knows the numbering.

Clause families (their names are the keys of ``Encoded.family_counts``):

completeness
    every cell holds some symbol (one clause of N² literals per cell);
uniqueness
    no cell holds two symbols (at most one symbol per cell);
validity
    no symbol twice in a row, a column or a box (rows, then columns, then boxes);
coverage
    every symbol at least once in every row, column and box;
givens
    one unit clause per filled cell.

The encodings (:data:`ENCODINGS`):

``course``
    completeness, uniqueness, validity, givens, in that order, with pairwise
    at-most-one clauses: N⁴ + (N⁸−N⁶)/2 + 3(N⁸−N⁶)/2 + givens clauses.
``minimal``
    the course encoding without uniqueness (it follows from the rest: N² cells
    of a row hold N² distinct symbols, so each holds exactly one).
``extended``
    the course encoding plus coverage (redundant, but it lets unit propagation
    see "this symbol has one place left in the row").
``optimised``
    Kwon and Jain's reduction of the extended encoding: the givens decide every
    variable of a filled cell and every x(s, d) where a peer of s holds d; each
    clause they satisfy is dropped and each literal they falsify is removed.
    Only the candidates of open cells remain, renumbered 1..K in row-major
    cell order, then by symbol. It is built from the candidates directly, so
    time and memory follow the open cells, never N⁶.
``course-seq``, ``course-product``, ``optimised-seq``, ``optimised-product``
    the same families with every at-most-one group (uniqueness and validity)
    written as a sequential counter or a product encoding
    (:mod:`sudosat.amo`): clauses grow as N⁶ instead of N⁸. Auxiliary variables
    are numbered after the cell variables and ignored by the decoder.

Clauses are written straight into one zero-terminated ``array('i')`` with
C-level helpers (``itertools.combinations`` / ``chain``, ``array.extend``), so
the 3.3 million clauses of an order-6 course encoding take about a second and
40 MB.

Examples
--------
>>> from sudosat.board import Board
>>> encoded = encode(Board.parse("2 1000000000000000"), "course")
>>> encoded.num_vars, encoded.num_clauses
(64, 401)
>>> encoded.family_counts
{'completeness': 16, 'uniqueness': 96, 'validity': 288, 'givens': 1}
>>> variable(0, 0, 1, 2), cell_of(64, 2)
(1, (3, 3, 4))
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import dataclass, field
from itertools import chain, repeat

from sudosat.amo import amo, amo_size
from sudosat.board import Board, check_solution, units
from sudosat.cnf import CNF
from sudosat.errors import DecodeError, EncodingError, ResourceLimitError
from sudosat.numbering import get_numbering

Lit = int

FAMILIES = ("completeness", "uniqueness", "validity", "coverage", "givens")
"""Every clause family, in the order the encodings write them."""

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
        How at-most-one groups are written: a key of ``sudosat.amo.AMO_METHODS``.
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
            "the course's reduction (SPEC 3): completeness, uniqueness, "
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
one symbol per cell, makes it exactly once); without its binary clauses our cdcl took
about 1.4 s a puzzle on the 300-puzzle test set against 6 ms for ``extended`` (issue 12)."""

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
            :func:`sudosat.board.check_solution` rather than an exception.
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


# -- building --------------------------------------------------------------------


def encode(
    board: Board, encoding: str = "course", *, check: Callable[[], None] | None = None
) -> Encoded:
    """Encode `board` as CNF with the named encoding.

    `check`, when given, is called before each at-most-one group is written
    (N^2 literals at most); whatever it raises stops the build (a caller's
    deadline, say: big orders take seconds to encode).

    Inconsistent givens are encoded too: the formula is then unsatisfiable
    (the course encoding's unit clauses contradict its validity clauses; a
    reduced encoding holds an empty clause).

    Raises
    ------
    EncodingError
        When `encoding` is not a registered name.

    Examples
    --------
    >>> from sudosat.board import Board
    >>> encode(Board.parse("1 0"), "course").cnf.clauses
    [[1]]
    """
    spec = get_encoding(encoding)
    if spec.reduced:
        return _encode_reduced(board, spec, check)
    return _encode_full(board, spec, check)


class _Writer:
    """A flat clause array with its family counts and its highest variable."""

    def __init__(self, top: int, check: Callable[[], None] | None = None) -> None:
        self.flat = array("i")
        self.counts: dict[str, int] = {}
        self.top = top
        self.check = check

    def at_least_one(self, family: str, lits: Sequence[Lit]) -> None:
        self.flat.extend(lits)
        self.flat.append(0)
        self.counts[family] += 1

    def at_most_one(self, family: str, lits: Sequence[Lit], method: str) -> None:
        if self.check is not None:  # the families of pairs are where the time goes
            self.check()
        clauses, self.top = amo(self.flat, lits, method, self.top)
        self.counts[family] += clauses

    def finish(self, comment: str) -> CNF:
        cnf = CNF.from_flat(self.flat, self.top)
        cnf.comments = [comment]
        return cnf


def _unit_bases(order: int, size: int) -> list[list[int]]:
    """For rows, columns, boxes: the course number of x(s, 0) for each cell s."""
    return [[cell * size for cell in cells] for _, _, cells in units(order)]


def _encode_full(board: Board, spec: EncodingSpec, check=None) -> Encoded:
    order, size = board.order, board.size
    writer = _Writer(top=size**3, check=check)
    for family in spec.families:
        writer.counts[family] = 0
        _write_full_family(writer, family, board, spec.amo)
    comment = (
        f"sudosat {spec.name} encoding, order {order}: "
        f"variable i*{size * size} + j*{size} + d is 'cell (i,j) holds d'"
    )
    return Encoded(writer.finish(comment), board, spec.name, writer.counts, size**3)


def _write_full_family(writer: _Writer, family: str, board: Board, method: str) -> None:
    """Append one family over every cell variable (course numbering)."""
    size = board.size
    cell_bases = range(0, size**3, size)
    if family == "completeness":
        for base in cell_bases:
            writer.at_least_one(family, range(base + 1, base + size + 1))
    elif family == "uniqueness":
        for base in cell_bases:
            writer.at_most_one(family, range(base + 1, base + size + 1), method)
    elif family in ("validity", "coverage"):
        for bases in _unit_bases(board.order, size):
            for d in range(1, size + 1):
                lits = [base + d for base in bases]
                if family == "validity":
                    writer.at_most_one(family, lits, method)
                else:
                    writer.at_least_one(family, lits)
    else:
        givens = [cell * size + value for cell, value in enumerate(board.cells) if value]
        writer.flat.extend(chain.from_iterable(zip(givens, repeat(0))))
        writer.counts[family] = len(givens)


@dataclass
class _Candidates:
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


def _candidates(board: Board) -> _Candidates:
    """Candidates of every open cell: the symbols no peer holds as a given."""
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
        if value:
            continue
        row, column, box = _units_of(cell, order, size)
        free = everything & ~(masks[row] | masks[column] | masks[box])
        open_cells.append(cell)
        symbols.append([d for d in range(1, size + 1) if free >> d & 1])
    return _Candidates(open_cells, symbols, masks, clashes)


def _unit_groups(board: Board, cand: _Candidates) -> list[list[list[int]]]:
    """``groups[u][d - 1]``: the compact variables of symbol d in unit u, in cell order."""
    order, size = board.order, board.size
    groups = [[[] for _ in range(size)] for _ in range(3 * size)]
    var = 0
    for cell, symbols in zip(cand.open_cells, cand.symbols, strict=True):
        row, column, box = (groups[u] for u in _units_of(cell, order, size))
        for d in symbols:
            var += 1
            row[d - 1].append(var)
            column[d - 1].append(var)
            box[d - 1].append(var)
    return groups


def _encode_reduced(board: Board, spec: EncodingSpec, check=None) -> Encoded:
    size = board.size
    cand = _candidates(board)
    pairs = zip(cand.open_cells, cand.symbols, strict=True)
    # origin[k - 1] is the course number of compact variable k.
    origin = array("i", chain.from_iterable((cell * size + d for d in ds) for cell, ds in pairs))
    num_open = len(origin)
    groups = _unit_groups(board, cand)
    cell_groups = []
    first = 1
    for symbols in cand.symbols:
        cell_groups.append(range(first, first + len(symbols)))
        first += len(symbols)
    writer = _Writer(top=num_open, check=check)
    for family in spec.families:
        writer.counts[family] = 0
        _write_reduced_family(writer, family, cell_groups, groups, cand, spec.amo)
    cnf = writer.finish(f"sudosat {spec.name} encoding, order {board.order}: "
                        f"{num_open} open candidates numbered 1..{num_open}")
    reduction = _reduction(board, cand, groups, num_open)
    decided = not cand.open_cells and not cnf.has_empty_clause
    return Encoded(cnf, board, spec.name, writer.counts, num_open, decided, reduction, origin)


def _write_reduced_family(writer: _Writer, family: str, cell_groups: list[range],
                          groups: list[list[list[int]]], cand: _Candidates, method: str) -> None:
    """Append one family as the givens leave it (the givens family: nothing remains)."""
    if family == "completeness":
        for lits in cell_groups:
            writer.at_least_one(family, lits)  # empty when no candidate is left
    elif family == "uniqueness":
        for lits in cell_groups:
            writer.at_most_one(family, lits, method)
    elif family == "validity":
        for u, unit_groups in enumerate(groups):
            # Two givens with one symbol in a unit falsify both literals of their clause.
            writer.flat.extend(repeat(0, cand.clashes[u]))
            writer.counts[family] += cand.clashes[u]
            for lits in unit_groups:
                writer.at_most_one(family, lits, method)
    elif family == "coverage":
        for u, unit_groups in enumerate(groups):
            mask = cand.given_masks[u]
            for d, lits in enumerate(unit_groups, start=1):
                if not mask >> d & 1:  # a given d satisfies the clause
                    writer.at_least_one(family, lits)


def _reduction(
    board: Board, cand: _Candidates, groups: Sequence[Sequence[Sized]], num_open: int
) -> dict[str, int]:
    """What the givens removed from the extended encoding (pairwise counts)."""
    size = board.size
    before = _full_size(board, ENCODINGS["extended"])
    kept = falsified = 0
    for symbols in cand.symbols:
        n = len(symbols)
        kept += 1 + n * (n - 1) // 2
        falsified += size - n
    for u, unit_groups in enumerate(groups):
        kept += cand.clashes[u]
        falsified += 2 * cand.clashes[u]
        mask = cand.given_masks[u]
        for d, lits in enumerate(unit_groups, start=1):
            n = len(lits)
            kept += n * (n - 1) // 2
            if not mask >> d & 1:
                kept += 1
                falsified += size - n
    return {
        "variables_decided": size**3 - num_open,
        "variables_open": num_open,
        "clauses_before": before["clauses"],
        "clauses_satisfied": before["clauses"] - kept,
        "clauses_kept": kept,
        "literals_falsified": falsified,
    }


# -- sizes without building ---------------------------------------------------------

_BYTES_PER_ENTRY = 4  # one int32 per literal and per clause-ending 0
# Measured peak of a build over the final array (benchmarks/encoding.py, orders 4-6):
# about 2, from array growth and the CNF container's one-time scan of the array.
_ARRAY_SLACK = 2.0
_BYTES_PER_CANDIDATE = 64  # a reduced build's per-candidate tables (origin, group lists)


def _full_size(board: Board, spec: EncodingSpec) -> dict[str, int]:
    """Closed formulas for an encoding over every cell variable."""
    size = board.size
    cells, groups = size * size, 3 * size * size
    aux = clauses = literals = 0

    def add(count: int, size_of: tuple[int, int, int]) -> None:
        nonlocal aux, clauses, literals
        aux += count * size_of[0]
        clauses += count * size_of[1]
        literals += count * size_of[2]

    for family in spec.families:
        if family == "completeness":
            add(cells, (0, 1, size))
        elif family == "uniqueness":
            add(cells, amo_size(spec.amo, size))
        elif family == "validity":
            add(groups, amo_size(spec.amo, size))
        elif family == "coverage":
            add(groups, (0, 1, size))
        else:
            add(board.num_givens, (0, 1, 1))
    return {"variables": size**3 + aux, "clauses": clauses, "literals": literals}


def _group_sizes(board: Board, cand: _Candidates) -> list[list[int]]:
    """``sizes[u][d - 1]``: how many open cells of unit u have candidate d."""
    order, size = board.order, board.size
    sizes = [[0] * size for _ in range(3 * size)]
    for cell, symbols in zip(cand.open_cells, cand.symbols, strict=True):
        for unit in (sizes[u] for u in _units_of(cell, order, size)):
            for d in symbols:
                unit[d - 1] += 1
    return sizes


def _reduced_size(board: Board, spec: EncodingSpec) -> dict[str, int]:
    """Candidate counting: the size of a reduced encoding without building it."""
    cand = _candidates(board)
    sizes = _group_sizes(board, cand)
    num_open = sum(map(len, cand.symbols))
    aux = clauses = literals = 0
    for symbols in cand.symbols:
        extra, amo_clauses, amo_literals = amo_size(spec.amo, len(symbols))
        aux += extra
        clauses += 1 + amo_clauses
        literals += len(symbols) + amo_literals
    for u, unit_sizes in enumerate(sizes):
        clauses += cand.clashes[u]
        mask = cand.given_masks[u]
        for d, n in enumerate(unit_sizes, start=1):
            extra, amo_clauses, amo_literals = amo_size(spec.amo, n)
            aux += extra
            clauses += amo_clauses
            literals += amo_literals
            if not mask >> d & 1:
                clauses += 1
                literals += n
    return {
        "variables": num_open + aux,
        "clauses": clauses,
        "literals": literals,
        "candidates": num_open,
    }


def estimate(board: Board, encoding: str = "course") -> dict[str, int]:
    """Size of ``encode(board, encoding)`` computed without building it.

    Variables, clauses and literals are exact; ``bytes`` estimates the peak
    memory of the build (twice the flat clause array, as measured, plus a
    reduced encoding's per-candidate tables). Full encodings use closed formulas
    (constant time); reduced ones count candidates (time linear in the cells
    and their candidates).

    Returns
    -------
    dict
        ``variables``, ``clauses``, ``literals``, ``bytes``.

    Examples
    --------
    >>> from sudosat.board import Board
    >>> estimate(Board.empty(9), "course")["clauses"]
    85037121
    """
    spec = get_encoding(encoding)
    size = _reduced_size(board, spec) if spec.reduced else _full_size(board, spec)
    entries = size["literals"] + size["clauses"]
    memory = _BYTES_PER_ENTRY * entries * _ARRAY_SLACK
    memory += _BYTES_PER_CANDIDATE * size.pop("candidates", 0)
    size["bytes"] = math.ceil(memory)
    return size


def check_resources(
    board: Board, encoding: str = "course", max_bytes: int = DEFAULT_MAX_BYTES
) -> dict[str, int]:
    """Refuse, before building, an encoding that would need more than `max_bytes`.

    Returns
    -------
    dict
        The :func:`estimate` when it fits.

    Raises
    ------
    ResourceLimitError
        When it does not fit; the message names the size, the limit and a way out.
    """
    size = estimate(board, encoding)
    if size["bytes"] <= max_bytes:
        return size
    name = get_encoding(encoding).name
    advice = [f"use --encoding {better}" for better in _smaller_encodings(board, name, max_bytes)]
    advice.append("raise --max-memory")
    raise ResourceLimitError(
        f"order {board.order} with the {name} encoding needs about {_count(size['clauses'])} "
        f"clauses (~{_gigabytes(size['bytes'])}); the limit is {_gigabytes(max_bytes)}; "
        + " or ".join(advice)
    )


def _smaller_encodings(board: Board, name: str, max_bytes: int) -> list[str]:
    """The first reduced encoding that fits, if any (pairwise before sequential)."""
    for better in ("optimised", "optimised-seq"):
        if better != name and estimate(board, better)["bytes"] <= max_bytes:
            return [better]
    return []


def _count(number: int) -> str:
    if number >= 10**9:
        return f"{number / 1e9:.3g} billion"
    if number >= 10**6:
        return f"{number / 1e6:.3g} million"
    return f"{number:,}"


def _gigabytes(number: float) -> str:
    if number >= 1e9:
        return f"{number / 1e9:.1f} GB"
    return f"{number / 1e6:.0f} MB"


# -- other numberings and the checked decoder (issue 12) ---------------------------------


def encode_numbered(board: Board, encoding: str = "course", numbering: str = "course") -> CNF:
    """The CNF of ``encode(board, encoding)`` with its cell variables in another numbering.

    Cell variables take their number in `numbering` (see :mod:`sudosat.numbering`);
    auxiliary variables of the ``-seq``/``-product`` encodings follow its highest
    cell variable. The ``rcv`` numbering of the ``extended`` encoding's rules is
    the "SAT -Sn" assignment's ``sudoku-rules-9x9.txt`` (as a set of clauses).

    Raises
    ------
    EncodingError
        An unknown encoding or numbering, or a reduced encoding (it numbers its
        own variables) with a numbering other than ``course``.

    Examples
    --------
    >>> encode_numbered(Board.parse("1 0"), "course", "rcv").clauses
    [[111]]
    """
    encoded = encode(board, encoding)
    number = get_numbering(numbering, board.order)
    if number.name == "course":
        return encoded.cnf
    if get_encoding(encoding).reduced:
        raise EncodingError(
            f"the {encoded.encoding} encoding numbers the open candidates itself; "
            f"it has no {numbering} numbering (use course, minimal or extended)"
        )
    cells = encoded.num_cell_vars
    shift = number.top - cells
    table = array("i", chain((0,), map(number.from_course, range(1, cells + 1))))
    table.extend(range(cells + 1 + shift, encoded.num_vars + 1 + shift))
    flat = array("i", (table[lit] if lit > 0 else -table[-lit] for lit in encoded.cnf.flat))
    cnf = CNF.from_flat(flat, encoded.num_vars + shift)
    cnf.comments = [f"sudosat {encoded.encoding} encoding, order {board.order}, "
                    + number.describe()]
    return cnf


def _values(model: Iterable[Lit] | dict[int, bool]) -> dict[int, bool]:
    """A model as {variable: value}; a variable given both values is an error."""
    if isinstance(model, dict):
        return model
    values: dict[int, bool] = {}
    for lit in model:
        if values.setdefault(abs(lit), lit > 0) != (lit > 0):
            raise DecodeError(f"the model gives variable {abs(lit)} both values")
    return values


def decode_model(
    model: Iterable[Lit] | dict[int, bool],
    order: int,
    *,
    encoding: str = "course",
    numbering: str = "course",
    instance: Board | None = None,
    num_vars: int | None = None,
) -> Board:
    """The board a model describes, or an error: never a board the model does not mean.

    Unlike :meth:`Encoded.decode` (lenient, for models our own solvers just
    checked against the formula), this reads models from files and refuses
    what does not fit the order, encoding and numbering it is told:

    * a model over another number of variables than the encoding's
      (`num_vars`, the model's declared count, when known), or one that
      gives no value to a variable of the encoding, or assigns one beyond it;
    * a cell that holds no symbol or two;
    * a board that breaks a rule, or a given of `instance`.

    Parameters
    ----------
    model : iterable of int or dict
        Signed literals, or ``{variable: value}`` (a partial assignment such
        as a ``SAT -Sn`` ``.out``: every variable of the encoding must appear).
    order : int
    encoding : str
        A registered name. The reduced (``optimised``) encodings number the
        candidates the givens leave open, so they need `instance`.
    numbering : str
        ``course`` or ``rcv`` (full encodings only).
    instance : Board, optional
        The puzzle the formula encodes; its givens are checked.
    num_vars : int, optional
        The variable count the solution file declares.

    Raises
    ------
    DecodeError
        With the reason. EncodingError for an unknown encoding or numbering.

    Examples
    --------
    >>> decode_model([1], 1).to_line()
    '1 1'
    >>> decode_model([1, 2], 1)
    Traceback (most recent call last):
    ...
    sudosat.errors.DecodeError: the model assigns variable 2, beyond the 1 variables \
of an order-1 course encoding in the course numbering (wrong --order, --numbering or --encoding?)
    """
    spec = get_encoding(encoding)
    values = _values(model)
    if num_vars is not None and num_vars != model_size(order, encoding, numbering, instance):
        what = _model_name(order, spec.name, numbering, instance)
        total = model_size(order, encoding, numbering, instance)
        raise DecodeError(f"the model is over {num_vars} variables; {what} has {total} {_HINT}")
    if instance is not None and instance.order != order:
        raise DecodeError(f"the instance has order {instance.order}, not {order}")
    if spec.reduced:
        if instance is None:
            raise DecodeError(_NEEDS_INSTANCE.format(spec.name))
        if numbering != "course":
            raise DecodeError(f"the {spec.name} encoding has no {numbering} numbering")
        encoded = encode(instance, spec.name)
        what = _model_name(order, spec.name, numbering, instance)
        _check_variables(values, range(1, encoded.num_vars + 1), encoded.num_vars, what)
        cells = _reduced_cells(encoded, values)
    else:
        number = get_numbering(numbering, order)
        total = model_size(order, encoding, numbering)
        what = _model_name(order, spec.name, numbering, instance)
        _check_variables(values, chain(number.variables(), range(number.top + 1, total + 1)),
                         total, what)
        cells = _full_cells(number, values)
    board = _board_of(order, cells)
    problem = check_solution(instance or Board.empty(order), board)
    if problem:
        against = "a solution of the instance" if instance is not None else "a solved board"
        raise DecodeError(f"the decoded board is not {against}: {problem}")
    return board


_NEEDS_INSTANCE = (
    "the {} encoding numbers only the candidates the givens leave open, so its model "
    "can be decoded only with the instance (pass --instance FILE --line K)"
)
_HINT = "(wrong --order, --numbering or --encoding?)"


def model_size(order: int, encoding: str = "course", numbering: str = "course",
               instance: Board | None = None) -> int:
    """The variable count V of a model of this encoding (its highest variable).

    For the ``rcv`` numbering that is the highest cell name plus any auxiliary
    variables (999 for a 9×9 course encoding), not the number of cells.

    Raises
    ------
    DecodeError
        A reduced encoding without `instance`, or with a numbering other than course.

    Examples
    --------
    >>> model_size(3), model_size(3, "course", "rcv"), model_size(3, "course-seq", "rcv")
    (729, 999, 3591)
    """
    spec = get_encoding(encoding)
    if spec.reduced:
        if instance is None:
            raise DecodeError(_NEEDS_INSTANCE.format(spec.name))
        if numbering != "course":
            raise DecodeError(f"the {spec.name} encoding has no {numbering} numbering")
        return estimate(instance, spec.name)["variables"]
    number = get_numbering(numbering, order)
    return _full_size(Board.empty(order), spec)["variables"] - number.count + number.top


def _model_name(order: int, encoding: str, numbering: str, instance: Board | None) -> str:
    if get_encoding(encoding).reduced:
        return f"the {encoding} encoding of this instance"
    return f"an order-{order} {encoding} encoding in the {numbering} numbering"


def _check_variables(values: dict[int, bool], needed: Iterable[int], total: int,
                     what: str) -> None:
    """Refuse a model whose variables are not those of the encoding."""
    beyond = max(values, default=0)
    if beyond > total:
        raise DecodeError(
            f"the model assigns variable {beyond}, beyond the {total} variables of {what} {_HINT}"
        )
    for var in needed:
        if var not in values:
            raise DecodeError(f"the model gives no value to variable {var} of {what} {_HINT}")


def _full_cells(number, values: dict[int, bool]) -> list[list[int]]:
    """The true symbols of every cell, cell variables in `number`'s numbering."""
    size = number.size
    cells: list[list[int]] = [[] for _ in range(size * size)]
    for var, value in values.items():
        if value:
            meaning = number.cell_of(var)
            if meaning is not None:
                i, j, d = meaning
                cells[i * size + j].append(d)
    return cells


def _reduced_cells(encoded: Encoded, values: dict[int, bool]) -> list[list[int]]:
    """True symbols per cell of a reduced encoding; a given counts as its cell's one symbol."""
    size = encoded.board.size
    cells: list[list[int]] = [[value] if value else [] for value in encoded.board.cells]
    for var in range(1, encoded.num_cell_vars + 1):
        meaning = encoded.meaning(var)
        if values[var] and meaning is not None:
            i, j, d = meaning
            cells[i * size + j].append(d)
    return cells


def _board_of(order: int, cells: list[list[int]]) -> Board:
    """The board whose cells each hold exactly one symbol; DecodeError naming a cell otherwise."""
    size = order * order
    for index, symbols in enumerate(cells):
        where = f"cell ({index // size + 1}, {index % size + 1})"
        if not symbols:
            raise DecodeError(f"in the model, {where} holds no symbol")
        if len(symbols) > 1:
            shown = " and ".join(map(str, sorted(symbols)[:2]))
            raise DecodeError(f"in the model, {where} holds two symbols, {shown}")
    return Board(order, [symbols[0] for symbols in cells])
