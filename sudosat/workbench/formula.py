"""A Sudoku encoding built from switches: one clause family at a time.

The encoding workbench (:mod:`sudosat.workbench.widgets`) lets a reader switch each
clause family of the registered encodings on or off, choose how at-most-one groups
are written and how the givens enter, and see what the solver then returns.
This module builds that formula and reads the answer back; it knows nothing of
widgets or solvers. The switches (:class:`~sudosat.workbench.switches.Switches`)
follow the family declarations and the registered encodings
(:mod:`sudosat.workbench.switches`); with the course's declarations the families
are, in writing order:

completeness
    every cell holds some symbol (one clause of N² literals per cell);
uniqueness
    no cell holds two symbols (an at-most-one group per cell);
rows, columns, boxes
    validity, unit kind by unit kind: no symbol twice in a row, a column, a box
    (an at-most-one group per unit and symbol);
coverage
    every symbol at least once in every row, column and box;
givens
    one unit clause per filled cell, or, with ``givens="simplify"``, no clause:
    the givens' literals are substituted into the other families (clauses they
    satisfy are dropped, literals they falsify are cut). Substitution only, not
    propagation: the registered ``optimised`` encoding goes further.

With the switches of a registered full encoding
(:func:`~sudosat.workbench.switches.preset`) the formula is, clause for clause,
``encode(board, name)``; the tests check it for every registered encoding.

Variable numbering is a choice (:data:`sudosat.sudoku.numbering.NUMBERINGS`);
auxiliary variables of the sequential and product at-most-one encodings are
numbered after the highest cell variable.

Examples
--------
>>> from sudosat.sudoku.board import Board
>>> built = build(Board.parse("2 1000000000000000"), Switches(uniqueness=False))
>>> [(f.name, f.clauses) for f in built.families]
[('completeness', 16), ('rows', 96), ('columns', 96), ('boxes', 96), ('givens', 1)]
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from sudosat.errors import EncodingError
from sudosat.sat.cnf import CNF
from sudosat.sudoku.board import Board, units
from sudosat.sudoku.encoding import (
    DEFAULT_MAX_BYTES,
    check_resources,
    encode,
    estimate,
)
from sudosat.sudoku.encoding.families import DECLARED, FullGrid, Writer, full_family_size, write
from sudosat.sudoku.numbering import get_numbering
from sudosat.workbench.switches import Switches, matching_encoding, preset

Lit = int
CellSets = list[tuple[int, ...]]


# -- building ----------------------------------------------------------------------


@dataclass
class Family:
    """One family of a built formula: its size and its first clauses."""

    name: str
    clauses: int = 0
    literals: int = 0
    auxiliary: int = 0
    first: list[list[Lit]] = field(default_factory=list)


@dataclass(eq=False)
class Built:
    """A formula built by the workbench, with what a reader needs to read it.

    Attributes
    ----------
    cnf : CNF
    board : Board
    label : str
        The registered encoding it equals, or ``custom``.
    families : list of Family
        In writing order; their clauses sum to the CNF's.
    num_cell_vars : int
        Variables 1..num_cell_vars may name cells; higher ones are auxiliary.
    meaning : callable
        ``meaning(var) -> (i, j, d)`` or None for an auxiliary variable.
    start_from_givens : bool
        True when the CNF does not hold the givens (simplified or reduced):
        decoding starts from them.
    numbering : str
        The numbering its cell variables follow (:func:`sudosat.sudoku.numbering.get_numbering`).
    """

    cnf: CNF
    board: Board
    label: str
    families: list[Family]
    num_cell_vars: int
    meaning: Callable[[int], tuple[int, int, int] | None]
    start_from_givens: bool = False
    numbering: str = "course"

    @property
    def auxiliary(self) -> int:
        """Auxiliary variables (sequential or product at-most-one)."""
        return sum(f.auxiliary for f in self.families)

    @property
    def encoding(self) -> str:
        """The formula's name (its :attr:`label`), as :func:`~.runner.run_instance` asks."""
        return self.label

    def decode(self, model: Iterable[Lit]) -> Board:
        """The board `model` describes; a cell holding no symbol or several stays empty.

        Such a board fails :func:`sudosat.sudoku.board.check_solution`; :func:`read_model`
        says what exactly it breaks.
        """
        cells = [held[0] if len(held) == 1 else 0 for held in self.cell_sets(model)]
        return Board(self.board.order, cells)

    def name(self, lit: Lit) -> str:
        """``x(r,c,d)`` with 1-based row and column (``¬`` for a negative literal)."""
        sign = "¬" if lit < 0 else ""
        found = self.meaning(abs(lit))
        if found is None:
            return f"{sign}aux{abs(lit)}"
        i, j, d = found
        return f"{sign}x({i + 1},{j + 1},{d})"

    def cell_sets(self, model: Iterable[Lit]) -> CellSets:
        """The symbols each cell holds in `model` (row-major), givens included."""
        size = self.board.size
        sets: list[set[int]] = [set() for _ in range(size * size)]
        if self.start_from_givens:
            for cell, value in enumerate(self.board.cells):
                if value:
                    sets[cell].add(value)
        for lit in model:
            if 0 < lit <= self.num_cell_vars:
                found = self.meaning(lit)
                if found is not None:
                    i, j, d = found
                    sets[i * size + j].add(d)
        return [tuple(sorted(s)) for s in sets]


def build(
    board: Board,
    switches: Switches | None = None,
    *,
    encoding: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    first: int = 3,
) -> Built:
    """Build the formula the switches describe (or a registered encoding by name).

    Parameters
    ----------
    board : Board
    switches : Switches, optional
        Used when `encoding` is None (default: the course encoding's switches).
    encoding : str, optional
        A registered encoding, built by :func:`sudosat.sudoku.encoding.encode`; the
        reduced ones (``optimised``...) exist only this way.
    max_bytes : int
        Refuse before building a formula whose estimate exceeds it.
    first : int
        How many clauses of each family to keep for the excerpt.

    Raises
    ------
    ResourceLimitError
        The formula would not fit in `max_bytes`.
    """
    if encoding is not None:
        switches = preset(encoding)
        if switches is None:
            check_resources(board, encoding, max_bytes)
            return _registered(board, encoding, first)
    switches = switches or Switches()
    check_resources(board, _bigger_registered(switches), max_bytes)
    return _switched(board, switches, first)


def _bigger_registered(switches: Switches) -> str:
    """A registered full encoding at least as large as the switched one, for the memory guard.

    Pairwise: ``extended`` holds every family. Sequential or product: their
    course encoding lacks only coverage, whose 3N⁴ clauses of N² literals are a
    tenth of its validity family, within the estimate's twofold slack.
    """
    return "extended" if switches.amo == "pairwise" else f"course-{switches.amo}"


def family_size(board: Board, switches: Switches) -> dict[str, tuple[int, int, int]]:
    """(auxiliary, clauses, literals) of every family switched on, without building.

    The givens family is sized as unit clauses; simplified givens change sizes
    only once they are substituted (see :func:`build`).
    """
    return {name: full_family_size(name, board, switches.amo) for name in switches.families()}


def _switched(board: Board, switches: Switches, first: int) -> Built:
    order, size = board.order, board.size
    numbering = get_numbering(switches.numbering, order)
    var = numbering.variable
    cells = [
        [var(i, j, d) for d in range(1, size + 1)] for i in range(size) for j in range(size)
    ]
    grid = FullGrid(board, cells)
    writer = Writer(top=numbering.top)
    families = []
    for name in switches.families():
        start, top_before = len(writer.flat), writer.top
        write(DECLARED[name], grid, writer, switches.amo)
        families.append(_family(name, writer.flat, start, writer.top - top_before, first))
    flat, top = writer.flat, writer.top
    if switches.givens == "simplify":
        true = {cells[c][v - 1] for c, v in enumerate(board.cells) if v}
        flat, families = _substitute(flat, families, true, first)
    label = matching_encoding(switches) or "custom"
    cnf = CNF.from_flat(flat, top)
    cnf.comments = [
        f"sudosat workbench ({label}), order {order}: {', '.join(switches.families())}; "
        f"at-most-one {switches.amo}; givens {switches.givens}; numbering {numbering.name}"
    ]
    return Built(
        cnf,
        board,
        label,
        families,
        numbering.top,
        numbering.cell_of,
        start_from_givens=switches.givens == "simplify",
        numbering=numbering.name,
    )


def _family(name: str, flat: array, start: int, auxiliary: int, first: int) -> Family:
    """Count the clauses and literals a family appended at ``flat[start:]``."""
    segment = flat[start:]
    clauses = segment.count(0)
    family = Family(name, clauses, len(segment) - clauses, auxiliary)
    family.first = list(_clauses(segment, first))
    return family


def _clauses(flat: Sequence[int], limit: int | None = None) -> Iterator[list[Lit]]:
    clause: list[Lit] = []
    taken = 0
    for lit in flat:
        if limit is not None and taken >= limit:
            return
        if lit:
            clause.append(lit)
        else:
            yield clause
            clause = []
            taken += 1


def _substitute(
    flat: array, families: list[Family], true: set[int], first: int
) -> tuple[array, list[Family]]:
    """Make the givens true: drop the clauses they satisfy, cut the literals they falsify."""
    out = array("i")
    kept_families = []
    position = 0
    for family in families:
        start = len(out)
        end = _skip_clauses(flat, position, family.clauses)
        for clause in _clauses(flat[position:end]):
            if any(lit in true for lit in clause):
                continue
            out.extend(lit for lit in clause if -lit not in true)
            out.append(0)
        position = end
        kept_families.append(_family(family.name, out, start, family.auxiliary, first))
    return out, kept_families


def _skip_clauses(flat: array, position: int, count: int) -> int:
    """The index just past `count` clauses that start at `position`."""
    for _ in range(count):
        position = flat.index(0, position) + 1
    return position


def _registered(board: Board, name: str, first: int) -> Built:
    """A registered encoding (a reduced one) with its families split out of its CNF."""
    encoded = encode(board, name)
    flat, cell_vars = encoded.cnf.flat, encoded.num_cell_vars
    families, position = [], 0
    for family, count in encoded.family_counts.items():
        end = _skip_clauses(flat, position, count)
        segment = flat[position:end]
        # each auxiliary variable serves one group, so one family
        auxiliary = len({abs(lit) for lit in segment if abs(lit) > cell_vars})
        first_clauses = list(_clauses(segment, first))
        families.append(Family(family, count, len(segment) - count, auxiliary, first_clauses))
        position = end
    return Built(
        encoded.cnf,
        board,
        encoded.encoding,
        families,
        cell_vars,
        encoded.meaning,
        start_from_givens=True,
    )


def reuses_rules(switches: Switches) -> bool:
    """True when the formula of every puzzle is the empty board's plus one unit per given.

    That holds when the givens are unit clauses (not substituted): the rules
    can then be built and loaded into a solver once, and each puzzle's givens
    passed as assumptions (see :func:`with_givens`).
    """
    return switches.givens == "units"


def with_givens(rules: Built, board: Board, first: int = 3) -> tuple[Built, list[Lit]]:
    """The formula of `board` from the formula of the empty board, and the givens' literals.

    Clause for clause what :func:`build` gives for `board` with the same
    switches (when :func:`reuses_rules`), at the cost of copying the rules'
    clause array instead of writing every family again.

    Examples
    --------
    >>> empty = build(Board.empty(2), Switches())
    >>> puzzle = Board.parse("2 1000000000000000")
    >>> built, givens = with_givens(empty, puzzle)
    >>> list(built.cnf) == list(build(puzzle, Switches()).cnf), givens
    (True, [1])
    """
    if board.order != rules.board.order or rules.board.num_givens:
        raise EncodingError("with_givens needs the rules of the empty board of the same order")
    size, variable = board.size, get_numbering(rules.numbering, board.order).variable
    givens = [
        variable(cell // size, cell % size, value)
        for cell, value in enumerate(board.cells)
        if value
    ]
    cnf = rules.cnf.copy()
    for lit in givens:
        cnf.add_clause([lit])
    units_family = Family("givens", len(givens), len(givens), 0, [[lit] for lit in givens[:first]])
    families = [f for f in rules.families if f.name != "givens"] + [units_family]
    built = Built(cnf, board, rules.label, families, rules.num_cell_vars, rules.meaning,
                  rules.start_from_givens, rules.numbering)
    return built, givens


# -- reading an answer -----------------------------------------------------------


@dataclass
class Reading:
    """What a model says about the board, and which rules it breaks.

    Attributes
    ----------
    cells : list of tuple of int
        The symbols each cell holds (row-major).
    board : Board or None
        The board, when every cell holds exactly one symbol.
    problems : list of str
        Each broken rule in words (1-based rows and columns).
    broken_units : list of (kind, number)
        Units where some symbol is missing or repeated (kind row/column/box, 1-based).
    bad_cells : set of int
        Cells holding no symbol or several, or not keeping their given.
    clash_cells : set of int
        Cells holding a symbol that a unit of theirs holds more than once.
    """

    cells: CellSets
    board: Board | None
    problems: list[str]
    broken_units: list[tuple[str, int]]
    bad_cells: set[int]
    clash_cells: set[int] = field(default_factory=set)

    @property
    def valid(self) -> bool:
        """True when the model is a solution of the puzzle."""
        return not self.problems


def read_model(built: Built, model: Iterable[Lit]) -> Reading:
    """Decode `model` cell by cell and list every rule the board breaks."""
    puzzle = built.board
    size = puzzle.size
    cells = built.cell_sets(model)
    problems, bad = [], set()
    for index, held in enumerate(cells):
        where = f"cell ({index // size + 1}, {index % size + 1})"
        given = puzzle.cells[index]
        if len(held) != 1:
            bad.add(index)
            problems.append(
                f"{where} is empty"
                if not held
                else f"{where} holds {len(held)} symbols: {', '.join(map(str, held))}"
            )
        if given and given not in held:
            bad.add(index)
            problems.append(f"{where} drops the given {given}")
    broken: list[tuple[str, int]] = []
    clash: set[int] = set()
    for kind, number, members in units(puzzle.order):
        counts = [0] * (size + 1)
        for c in members:
            for d in cells[c]:
                counts[d] += 1
        twice = [d for d in range(1, size + 1) if counts[d] > 1]
        absent = [d for d in range(1, size + 1) if counts[d] == 0]
        clash.update(c for c in members if any(counts[d] > 1 for d in cells[c]))
        if twice or absent:
            broken.append((kind, number))
            said = []
            if twice:
                said.append(f"holds {', '.join(map(str, twice))} more than once")
            if absent:
                said.append(f"lacks {', '.join(map(str, absent))}")
            problems.append(f"{kind} {number} {' and '.join(said)}")
    exact = all(len(held) == 1 for held in cells)
    board = Board(puzzle.order, [held[0] for held in cells]) if exact else None
    return Reading(cells, board, problems, broken, bad, clash)


def cnf_excerpt(built: Built) -> list[tuple[str, int, list[tuple[str, str]]]]:
    """For each family: its name, its clause count, and its first clauses read and in DIMACS."""
    return [
        (
            f.name,
            f.clauses,
            [
                (
                    " ∨ ".join(map(built.name, clause)) or "(empty clause)",
                    " ".join(map(str, clause)) + " 0",
                )
                for clause in f.first
            ],
        )
        for f in built.families
    ]


def empty_board_clauses(order: int, encoding: str) -> int:
    """Clauses of the registered `encoding` for an empty board of `order` (counted, not built).

    Examples
    --------
    >>> empty_board_clauses(3, "course") - empty_board_clauses(3, "minimal")  # uniqueness
    2916
    """
    return estimate(Board.empty(order), encoding)["clauses"]
