"""Building the clauses: :func:`encode`, over every cell variable or reduced by the givens."""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain

from sudosat.sat.cnf import CNF
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding.candidates import list_candidates, unit_groups
from sudosat.sudoku.encoding.core import Encoded, EncodingSpec, get_encoding
from sudosat.sudoku.encoding.families import DECLARED, FullGrid, OpenGrid, Writer, write
from sudosat.sudoku.encoding.sizes import reduction


def encode(
    board: Board,
    encoding: str = "course",
    *,
    check: Callable[[], None] | None = None,
    cache: bool = True,
) -> Encoded:
    """Encode `board` as CNF with the named encoding.

    `check`, when given, is called before each at-most-one group is written
    (N^2 literals at most); whatever it raises stops the build (a caller's
    deadline, say: big orders take seconds to encode).

    The rule clauses of a full encoding (every family but the givens) are the
    same for every board of an order: they are built once per process and
    kept (up to :data:`RULES_CACHE_ENTRIES` literals in all), and each call
    copies them and appends its givens, which gives the same clauses in the
    same order as a fresh build. The returned CNF is the caller's own.
    ``cache=False`` builds everything afresh and keeps nothing (for
    comparisons).

    Inconsistent givens are encoded too: the formula is then unsatisfiable
    (the course encoding's unit clauses contradict its validity clauses; a
    reduced encoding holds an empty clause).

    Raises
    ------
    EncodingError
        When `encoding` is not a registered name.

    Examples
    --------
    >>> from sudosat.sudoku.board import Board
    >>> encode(Board.parse("1 0"), "course").cnf.clauses
    ((1,),)
    """
    spec = get_encoding(encoding)
    if spec.reduced:
        return _encode_reduced(board, spec, check)
    if cache and spec.families[-1] == "givens":
        return _encode_from_rules(board, spec, check)
    return _encode_full(board, spec, check)


# -- the rule clauses, built once per process -------------------------------------

RULES_CACHE_ENTRIES = 6_000_000
"""Most int32 entries (literals and clause ends) the rules cache keeps, over all
its (order, encoding) pairs: 24 MB. It holds every encoding of orders up to 4
(order 4: 0.4 million entries each) and one order-5 encoding (2.3 million);
rules beyond it (order 6: 10 million) are built for each board, as before."""


@dataclass(frozen=True)
class _Rules:
    """The rule clauses of one full encoding at one order, and their family counts."""

    cnf: CNF  # never handed out while cached: callers get copies
    counts: tuple[tuple[str, int], ...]


_RULES: OrderedDict[tuple[int, str], _Rules] = OrderedDict()


def _encode_from_rules(board: Board, spec: EncodingSpec, check) -> Encoded:
    """A full encoding as its (cached) rules plus the givens, the same clauses in the same order."""
    rules, cached = _rules(board.order, spec, check)
    # Copying the flat array keeps the clause counts: no rescan of the rules (CNF.from_flat's).
    cnf = rules.cnf.copy() if cached else rules.cnf
    size = board.size
    givens = [cell * size + value for cell, value in enumerate(board.cells) if value]
    cnf.extend([lit] for lit in givens)
    counts = dict(rules.counts)
    counts["givens"] = len(givens)
    return Encoded(cnf, board, spec.name, counts, size**3)


def _rules(order: int, spec: EncodingSpec, check) -> tuple[_Rules, bool]:
    """The rules of `spec` at `order`, and whether the cache keeps them (then do not alter them)."""
    key = (order, spec.name)
    rules = _RULES.get(key)
    if rules is not None:
        _RULES.move_to_end(key)
        return rules, True
    encoded = _encode_full(Board(order, [0] * order**4), spec, check)  # givens: no clause
    del encoded.family_counts["givens"]
    rules = _Rules(encoded.cnf, tuple(encoded.family_counts.items()))
    entries = len(rules.cnf.flat)
    if entries > RULES_CACHE_ENTRIES:
        return rules, False
    while sum(len(kept.cnf.flat) for kept in _RULES.values()) + entries > RULES_CACHE_ENTRIES:
        _RULES.popitem(last=False)
    _RULES[key] = rules
    return rules, True


def clear_rules_cache() -> None:
    """Forget every cached set of rule clauses (the next :func:`encode` builds them again)."""
    _RULES.clear()


# -- building from scratch ---------------------------------------------------------


def _encode_full(board: Board, spec: EncodingSpec, check=None) -> Encoded:
    order, size = board.order, board.size
    writer = Writer(top=size**3, check=check)
    grid = FullGrid.course(board)
    for family in spec.families:
        write(DECLARED[family], grid, writer, spec.amo)
    comment = (
        f"sudosat {spec.name} encoding, order {order}: "
        f"variable i*{size * size} + j*{size} + d is 'cell (i,j) holds d'"
    )
    return Encoded(writer.finish(comment), board, spec.name, writer.counts, size**3)


def _encode_reduced(board: Board, spec: EncodingSpec, check=None) -> Encoded:
    size = board.size
    cand = list_candidates(board, check)
    # origin[k - 1] is the course number of compact variable k.
    origin = array("i")
    for start in range(0, len(cand.open_cells), size):  # a row's worth between deadline looks
        if check is not None:
            check()
        pairs = zip(cand.open_cells[start:start + size], cand.symbols[start:start + size],
                    strict=True)
        origin.extend(chain.from_iterable((cell * size + d for d in ds) for cell, ds in pairs))
    num_open = len(origin)
    grid = OpenGrid(cand, unit_groups(board, cand, check))
    writer = Writer(top=num_open, check=check)
    for family in spec.families:
        write(DECLARED[family], grid, writer, spec.amo)
    cnf = writer.finish(f"sudosat {spec.name} encoding, order {board.order}: "
                        f"{num_open} open candidates numbered 1..{num_open}")
    removed = reduction(board, grid, num_open)
    decided = not cand.open_cells and not cnf.has_empty_clause
    return Encoded(cnf, board, spec.name, writer.counts, num_open, decided, removed, origin)
