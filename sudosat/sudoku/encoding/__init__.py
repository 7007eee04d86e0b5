"""Sudoku -> CNF: the course encoding, its relatives, and the variable numbering.

Variable x(i, j, d) says "cell (i, j) holds d" (0 <= i, j < N², 1 <= d <= N²).
The course encoding numbers it ``i·N⁴ + j·N² + d``, a bijection onto
1..N⁶; :func:`variable` and :func:`cell_of` are that numbering and its inverse.
Every encoding is built by :func:`encode`, which returns an :class:`Encoded`
holding the CNF and its decoder, so only this package knows the numbering.

Clause families (their names are the keys of ``Encoded.family_counts``; each is
declared once in :mod:`~sudosat.sudoku.encoding.families`, which the encoder, the
size estimates and the workbench all read):

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
    (:mod:`sudosat.sat.amo`): clauses grow as N⁶ instead of N⁸. Auxiliary variables
    are numbered after the cell variables and ignored by the decoder.

Clauses are written straight into one zero-terminated ``array('i')`` with
C-level helpers (``itertools.combinations`` / ``chain``, ``array.extend``), so
the 3.3 million clauses of an order-6 course encoding take about a second and
40 MB. The rule clauses of a full encoding (all but the givens) are built once
per process and order: a 9×9 course CNF then costs a copy and its givens
(0.1 ms against 5 ms for a fresh build).

The package's modules, from the bottom up: :mod:`~sudosat.sudoku.encoding.core` (the
registry of encodings, the course numbering, :class:`Encoded`),
:mod:`~sudosat.sudoku.encoding.counts` (candidates counted without listing them),
:mod:`~sudosat.sudoku.encoding.candidates` (what the givens leave open),
:mod:`~sudosat.sudoku.encoding.families` (every clause family: its clauses and counts),
:mod:`~sudosat.sudoku.encoding.sizes` (sizes without building, the memory guard),
:mod:`~sudosat.sudoku.encoding.build` (:func:`encode` and the rules cache),
:mod:`~sudosat.sudoku.encoding.decode` (other numberings, the checked decoder). Every
public name is importable from ``sudosat.sudoku.encoding`` itself.

Examples
--------
>>> from sudosat.sudoku.board import Board
>>> encoded = encode(Board.parse("2 1000000000000000"), "course")
>>> encoded.num_vars, encoded.num_clauses
(64, 401)
>>> encoded.family_counts
{'completeness': 16, 'uniqueness': 96, 'validity': 288, 'givens': 1}
>>> variable(0, 0, 1, 2), cell_of(64, 2)
(1, (3, 3, 4))
"""


from __future__ import annotations

from sudosat.errors import DecodeError, EncodingError, ResourceLimitError
from sudosat.sudoku.encoding.build import RULES_CACHE_ENTRIES, clear_rules_cache, encode
from sudosat.sudoku.encoding.core import (
    DEFAULT_MAX_BYTES,
    ENCODINGS,
    FAMILIES,
    FORMAT_ENCODINGS,
    Encoded,
    EncodingSpec,
    cell_of,
    decode_course,
    get_encoding,
    variable,
    written_families,
)
from sudosat.sudoku.encoding.decode import (
    check_model_count,
    decode_model,
    encode_numbered,
    model_order,
    model_size,
)
from sudosat.sudoku.encoding.sizes import check_resources, estimate

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ENCODINGS",
    "FAMILIES",
    "FORMAT_ENCODINGS",
    "RULES_CACHE_ENTRIES",
    "DecodeError",
    "Encoded",
    "EncodingError",
    "EncodingSpec",
    "ResourceLimitError",
    "cell_of",
    "check_model_count",
    "check_resources",
    "clear_rules_cache",
    "decode_course",
    "decode_model",
    "encode",
    "encode_numbered",
    "estimate",
    "get_encoding",
    "model_order",
    "model_size",
    "variable",
    "written_families",
]
