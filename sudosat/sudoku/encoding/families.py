"""Every clause family, declared once: its clauses, their counts and its readable name.

A family is a rule over groups of literals. The rule is "at least one of the
group is true" (one clause) or "at most one is true" (:func:`sudosat.sat.amo.amo`);
the groups have one of three shapes:

``cells``
    one group per cell: the variables of its N² symbols;
``units``
    one group per unit (of the kinds the family names: rows, columns, boxes)
    and symbol: the variables of that symbol in the unit's N² cells;
``givens``
    one group per given: its one variable.

Everything else follows from the declaration. :func:`write` appends a family's
clauses to a :class:`Writer` from a grid of variables: every cell variable in
some numbering (:class:`FullGrid`, the full encodings and the workbench), or
only the candidates the givens leave open (:class:`OpenGrid`, the reduced
encodings), where a group a given satisfies is dropped and two givens of one
symbol in a unit leave an empty clause. :func:`family_size` counts the same
clauses from a :class:`Tally` of group lengths, taken from a closed formula
(:meth:`Tally.full`), from candidate counts (:meth:`Tally.counted`, no list of
candidates) or from a grid (:meth:`Tally.of`).

A new family is one more entry of :data:`DECLARED`; the encodings name the
families they write (:data:`sudosat.sudoku.encoding.core.ENCODINGS`), and the
encoding workbench offers a switch for each family they write, labelled from its
declaration (:func:`sudosat.workbench.switches.family_switches`).

Examples
--------
>>> from sudosat.sudoku.board import Board
>>> board = Board.parse("2 1000000000000000")
>>> full_family_size("validity", board, "pairwise")
(0, 288, 576)
>>> writer = Writer(top=64)
>>> write(DECLARED["givens"], FullGrid.course(board), writer, "pairwise")
>>> writer.flat.tolist(), writer.counts
([1, 0], {'givens': 1})
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import repeat

from sudosat.sat.amo import amo, amo_size
from sudosat.sat.cnf import CNF
from sudosat.sudoku.board import Board, units
from sudosat.sudoku.encoding.candidates import Candidates
from sudosat.sudoku.encoding.counts import CandidateCounts

Lit = int
Group = tuple[Sequence[Lit], bool]
"""A group's open literals, and whether a given already satisfies it."""
Block = tuple[int, list[Group]]
"""Groups written together, after the empty clauses of pairs of givens that clash in them."""

KINDS = ("row", "column", "box")
"""The unit kinds, in the order :func:`sudosat.sudoku.board.units` lists them."""


class Rule(StrEnum):
    """What a family says of each of its groups."""

    AT_LEAST_ONE = "at least one"
    AT_MOST_ONE = "at most one"


class Shape(StrEnum):
    """Which groups a family's rule is about."""

    CELLS = "cells"
    UNITS = "units"
    GIVENS = "givens"


@dataclass(frozen=True)
class Family:
    """One clause family.

    Attributes
    ----------
    name : str
        Its key in ``Encoded.family_counts`` and in the workbench.
    label : str
        What it says, in words (the workbench's titles).
    rule : Rule
    shape : Shape
    kinds : tuple of str
        For the ``units`` shape, the unit kinds it covers (a subset of :data:`KINDS`).
    switch : str
        Its words beside the workbench's switch; by default `label` up to its colon.
    """

    name: str
    label: str
    rule: Rule
    shape: Shape
    kinds: tuple[str, ...] = ()
    switch: str = ""

    @property
    def switch_label(self) -> str:
        """The words beside its switch in the workbench: `switch`, or `label` up to its colon."""
        return self.switch or self.label.split(":")[0]

    def group_length(self, size: int) -> int:
        """How many literals each group holds over every cell variable (N² = `size`)."""
        return 1 if self.shape is Shape.GIVENS else size


def _declare(*families: Family) -> dict[str, Family]:
    return {family.name: family for family in families}


DECLARED: dict[str, Family] = _declare(
    Family("completeness", "completeness: every cell holds some symbol",
           Rule.AT_LEAST_ONE, Shape.CELLS),
    Family("uniqueness", "uniqueness: no cell holds two symbols", Rule.AT_MOST_ONE, Shape.CELLS),
    Family("validity", "validity: no symbol twice in a row, a column or a box",
           Rule.AT_MOST_ONE, Shape.UNITS, KINDS),
    Family("rows", "validity in rows: no symbol twice in a row",
           Rule.AT_MOST_ONE, Shape.UNITS, ("row",), switch="validity: rows"),
    Family("columns", "validity in columns: no symbol twice in a column",
           Rule.AT_MOST_ONE, Shape.UNITS, ("column",), switch="validity: columns"),
    Family("boxes", "validity in boxes: no symbol twice in a box",
           Rule.AT_MOST_ONE, Shape.UNITS, ("box",), switch="validity: boxes"),
    Family("coverage", "at least once: every symbol in every row, column and box",
           Rule.AT_LEAST_ONE, Shape.UNITS, KINDS, switch="at least once per unit"),
    Family("givens", "givens", Rule.AT_LEAST_ONE, Shape.GIVENS),
)
"""Every clause family by name; ``rows``, ``columns`` and ``boxes`` split ``validity`` by kind."""


# -- grids: the groups of a family over some variables ------------------------------------


class FullGrid:
    """Every cell variable of a board in some numbering: ``table[cell][d - 1]`` is x(cell, d).

    No given is substituted: the givens family holds them as unit clauses.
    """

    def __init__(self, board: Board, table: Sequence[Sequence[Lit]]) -> None:
        self.board = board
        self.table = table

    @classmethod
    def course(cls, board: Board) -> FullGrid:
        """The course numbering: x(cell, d) is ``cell·N² + d``."""
        size = board.size
        return cls(board, [range(base + 1, base + size + 1) for base in range(0, size**3, size)])

    def blocks(self, family: Family) -> Iterator[Block]:
        """The groups of `family` over every cell variable (no clash: nothing is substituted)."""
        table, size = self.table, self.board.size
        if family.shape is Shape.CELLS:
            yield 0, [(lits, False) for lits in table]
        elif family.shape is Shape.GIVENS:
            cells = self.board.cells
            yield 0, [((table[c][v - 1],), False) for c, v in enumerate(cells) if v]
        else:
            for kind, _, members in units(self.board.order):
                if kind in family.kinds:
                    yield 0, [([table[c][d] for c in members], False) for d in range(size)]


class OpenGrid:
    """The open candidates of a board, numbered 1..K in cell order, then by symbol.

    ``unit_groups[u][d - 1]`` holds the candidates of symbol d in unit u. A group
    a given satisfies is marked so; the givens themselves are decided, so no
    group of the ``givens`` shape remains.
    """

    def __init__(self, candidates: Candidates, unit_groups: list[list[list[int]]]) -> None:
        self.candidates = candidates
        self.unit_groups = unit_groups
        self.cell_groups: list[range] = []
        first = 1
        for symbols in candidates.symbols:
            self.cell_groups.append(range(first, first + len(symbols)))
            first += len(symbols)

    def blocks(self, family: Family) -> Iterator[Block]:
        """The groups of `family` over the open candidates, a block per unit for ``units``."""
        cand = self.candidates
        if family.shape is Shape.CELLS:
            yield 0, [(lits, False) for lits in self.cell_groups]
        elif family.shape is Shape.UNITS:
            size = len(self.unit_groups) // 3
            for u, groups in enumerate(self.unit_groups):
                if KINDS[u // size] in family.kinds:
                    mask = cand.given_masks[u]
                    yield cand.clashes[u], [
                        (lits, bool(mask >> d & 1)) for d, lits in enumerate(groups, start=1)
                    ]


Grid = FullGrid | OpenGrid


# -- writing ------------------------------------------------------------------------------


class Writer:
    """A flat clause array with its family counts, its empty clauses and its highest variable.

    Every clause is written through a method that counts it, so :meth:`finish`
    hands the CNF its clause count instead of letting it rescan the array: at
    order 7 (34 million entries) the rescan took 0.7 s after the last look at
    the caller's deadline. `check`, when given, is called before each
    at-most-one group (the families of pairs are where the time goes).
    """

    def __init__(self, top: int, check: Callable[[], None] | None = None) -> None:
        self.flat = array("i")
        self.counts: dict[str, int] = {}
        self.empty = 0
        self.top = top
        self.check = check

    def at_least_one(self, family: str, lits: Sequence[Lit]) -> None:
        """One clause of `lits` (an empty clause when there are none)."""
        self.flat.extend(lits)
        self.flat.append(0)
        self.counts[family] += 1
        if not lits:
            self.empty += 1

    def at_most_one(self, family: str, lits: Sequence[Lit], method: str) -> None:
        """At most one of `lits`, written by `method` (never an empty clause)."""
        if self.check is not None:
            self.check()
        clauses, self.top = amo(self.flat, lits, method, self.top)
        self.counts[family] += clauses

    def empty_clauses(self, family: str, count: int) -> None:
        """`count` empty clauses."""
        self.flat.extend(repeat(0, count))
        self.counts[family] += count
        self.empty += count

    def finish(self, comment: str) -> CNF:
        """The CNF of every clause written, with `comment`."""
        if self.check is not None:
            self.check()
        cnf = CNF.from_counted_flat(self.flat, self.top, sum(self.counts.values()), self.empty)
        cnf.comments = [comment]
        return cnf


def write(family: Family, grid: Grid, writer: Writer, method: str) -> None:
    """Append `family`'s clauses over `grid` to `writer` (at-most-one groups by `method`)."""
    name = family.name
    writer.counts[name] = 0
    for clashes, groups in grid.blocks(family):
        if family.rule is Rule.AT_MOST_ONE:
            writer.empty_clauses(name, clashes)  # two true givens falsify both literals
            for lits, _ in groups:
                writer.at_most_one(name, lits, method)
        else:
            for lits, satisfied in groups:
                if not satisfied:
                    writer.at_least_one(name, lits)


# -- counting -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """A family's groups by length, without their literals.

    Attributes
    ----------
    lengths : dict of int to int
        For each length n, how many groups no given satisfies hold n open literals.
    clashes : int
        Pairs of givens with one symbol in one group (empty clauses of at-most-one).
    """

    lengths: dict[int, int]
    clashes: int = 0

    @classmethod
    def full(cls, family: Family, board: Board) -> Tally:
        """Over every cell variable: closed formulas."""
        size = board.size
        if family.shape is Shape.GIVENS:
            return cls({1: board.num_givens})
        groups = size * size * (len(family.kinds) if family.shape is Shape.UNITS else 1)
        return cls({size: groups})

    @classmethod
    def counted(cls, family: Family, counts: CandidateCounts) -> Tally:
        """Over the open candidates, from their counts (no candidate is listed)."""
        if family.shape is Shape.CELLS:
            return cls(dict(enumerate(counts.per_cell)))
        if family.shape is Shape.GIVENS:
            return cls({})
        lengths: dict[int, int] = {}
        clashes = 0
        for kind in family.kinds:
            k = KINDS.index(kind)
            for n, groups in enumerate(counts.per_group[k]):
                lengths[n] = lengths.get(n, 0) + groups
            # A (unit, symbol) with that symbol given has no open cell: those groups are at 0.
            lengths[0] -= counts.covered[k]
            clashes += counts.clashes[k]
        return cls(lengths, clashes)

    @classmethod
    def of(cls, family: Family, grid: Grid) -> Tally:
        """Over the groups of a built `grid`."""
        lengths: dict[int, int] = {}
        clashes = 0
        for block_clashes, groups in grid.blocks(family):
            clashes += block_clashes
            for lits, satisfied in groups:
                if not satisfied:
                    lengths[len(lits)] = lengths.get(len(lits), 0) + 1
        return cls(lengths, clashes)


def family_size(family: Family, tally: Tally, method: str) -> tuple[int, int, int]:
    """(auxiliary variables, clauses, literals) that :func:`write` appends for `tally`'s groups."""
    if family.rule is Rule.AT_LEAST_ONE:
        return (0, sum(tally.lengths.values()),
                sum(n * groups for n, groups in tally.lengths.items()))
    aux, clauses, literals = 0, tally.clashes, 0
    for n, groups in tally.lengths.items():
        extra, amo_clauses, amo_literals = amo_size(method, n)
        aux += groups * extra
        clauses += groups * amo_clauses
        literals += groups * amo_literals
    return aux, clauses, literals


def full_family_size(name: str, board: Board, method: str) -> tuple[int, int, int]:
    """:func:`family_size` of the family called `name` over every cell variable of `board`."""
    family = DECLARED[name]
    return family_size(family, Tally.full(family, board), method)


def total_size(sizes: Iterable[tuple[int, int, int]]) -> tuple[int, int, int]:
    """The sum of several (auxiliary, clauses, literals) sizes."""
    aux = clauses = literals = 0
    for extra, more_clauses, more_literals in sizes:
        aux += extra
        clauses += more_clauses
        literals += more_literals
    return aux, clauses, literals


def cut_literals(family: Family, size: int, kept: tuple[int, int, int]) -> int:
    """The literals the givens cut from the `kept` clauses of `family` written pairwise.

    An at-least-one clause held N² literals over every cell variable (a given's
    one); a pairwise at-most-one clause held two.
    """
    _, clauses, literals = kept
    width = family.group_length(size) if family.rule is Rule.AT_LEAST_ONE else 2
    return clauses * width - literals
