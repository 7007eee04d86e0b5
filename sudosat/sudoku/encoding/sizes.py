"""Sizes without building: :func:`estimate`, the memory guard :func:`check_resources`.

Also :func:`reduction`, the counts of what the givens removed from the
extended encoding. Every count comes from the families' declarations
(:func:`~sudosat.sudoku.encoding.families.family_size`).
"""

from __future__ import annotations

import math

from sudosat.errors import ResourceLimitError
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding.core import DEFAULT_MAX_BYTES, ENCODINGS, EncodingSpec, get_encoding
from sudosat.sudoku.encoding.counts import Check, count_candidates
from sudosat.sudoku.encoding.families import (
    DECLARED,
    OpenGrid,
    Tally,
    cut_literals,
    family_size,
    full_family_size,
    total_size,
)

_BYTES_PER_ENTRY = 4  # one int32 per literal and per clause-ending 0
# Measured peak of a build over the final array (benchmarks/encoding.py, orders 4-6):
# about 2, from array growth and the CNF container's one-time scan of the array.
_ARRAY_SLACK = 2.0
_BYTES_PER_CANDIDATE = 64  # a reduced build's per-candidate tables (origin, group lists)


def _full_size(board: Board, spec: EncodingSpec) -> dict[str, int]:
    """Closed formulas for an encoding over every cell variable."""
    aux, clauses, literals = total_size(
        full_family_size(name, board, spec.amo) for name in spec.families
    )
    return {"variables": board.size**3 + aux, "clauses": clauses, "literals": literals}


def _reduced_size(board: Board, spec: EncodingSpec, check: Check | None = None) -> dict[str, int]:
    """Candidate counting: the size of a reduced encoding without building it."""
    counts = count_candidates(board.order, board.cells, check)
    aux, clauses, literals = total_size(
        family_size(DECLARED[name], Tally.counted(DECLARED[name], counts), spec.amo)
        for name in spec.families
    )
    return {
        "variables": counts.candidates + aux,
        "clauses": clauses,
        "literals": literals,
        "candidates": counts.candidates,
    }


def _bytes(size: dict[str, int]) -> int:
    """The peak memory of building an encoding of `size` (see :func:`estimate`)."""
    entries = size["literals"] + size["clauses"]
    memory = _BYTES_PER_ENTRY * entries * _ARRAY_SLACK
    memory += _BYTES_PER_CANDIDATE * size.get("candidates", 0)
    return math.ceil(memory)


def _reduced_floor(board: Board) -> dict[str, int]:
    """A lower bound on any reduced encoding's size, in constant time after counting givens.

    Every given takes its symbol from at most 3N² cells (its row, column and box),
    so at least ``open·N² - givens·3N²`` candidates remain; each is in its cell's
    completeness clause and in three coverage clauses, and each open cell has a
    completeness clause.
    """
    size = board.size
    givens = len(board.cells) - board.cells.count(0)
    open_cells = len(board.cells) - givens
    candidates = max(0, open_cells * size - givens * 3 * size)
    return {"variables": candidates, "clauses": open_cells, "literals": 4 * candidates,
            "candidates": candidates}


def estimate(board: Board, encoding: str = "course", check: Check | None = None) -> dict[str, int]:
    """Size of ``encode(board, encoding)`` computed without building it.

    Variables, clauses and literals are exact; ``bytes`` estimates the peak
    memory of the build (twice the flat clause array, as measured, plus a
    reduced encoding's per-candidate tables). Full encodings use closed formulas
    (constant time); reduced ones count candidates with bit sets
    (:func:`~sudosat.sudoku.encoding.counts.count_candidates`: O(N⁴) integer
    operations for order N, no list of candidates).

    Parameters
    ----------
    board : Board
    encoding : str
    check : callable, optional
        Called as the counting goes; raises to stop it (a deadline's ``check``).

    Returns
    -------
    dict
        ``variables``, ``clauses``, ``literals``, ``bytes``.

    Examples
    --------
    >>> from sudosat.sudoku.board import Board
    >>> estimate(Board.empty(9), "course")["clauses"]
    85037121
    """
    spec = get_encoding(encoding)
    size = _reduced_size(board, spec, check) if spec.reduced else _full_size(board, spec)
    size["bytes"] = _bytes(size)
    size.pop("candidates", None)
    return size


def check_resources(
    board: Board,
    encoding: str = "course",
    max_bytes: int = DEFAULT_MAX_BYTES,
    check: Check | None = None,
) -> dict[str, int]:
    """Refuse, before building, an encoding that would need more than `max_bytes`.

    A reduced encoding whose lower bound (:func:`_reduced_floor`) is already over
    the limit is refused without counting its candidates, so a refusal costs
    constant time after counting the givens, whatever the order.

    Parameters
    ----------
    board, encoding, max_bytes
    check : callable, optional
        Called while candidates are counted; raises to stop (a deadline's ``check``).

    Returns
    -------
    dict
        The :func:`estimate` when it fits.

    Raises
    ------
    ResourceLimitError
        When it does not fit; the message names the size, the limit and a way out.
    """
    spec = get_encoding(encoding)
    floor = _reduced_floor(board) if spec.reduced else None
    if floor is not None and _bytes(floor) > max_bytes:
        size = floor
    else:
        size = estimate(board, encoding, check)
    size["bytes"] = _bytes(size)
    if size["bytes"] <= max_bytes:
        return size
    advice = [f"use --encoding {better}"
              for better in _smaller_encodings(board, spec.name, max_bytes, check)]
    advice.append("raise --max-memory")
    what = (f"about {_count(size['clauses'])} clauses" if floor is None or size is not floor
            else f"at least {_count(size['variables'])} variables")
    raise ResourceLimitError(
        f"order {board.order} with the {spec.name} encoding needs {what} "
        f"(~{_gigabytes(size['bytes'])}); the limit is {_gigabytes(max_bytes)}; "
        + " or ".join(advice)
    )


def _smaller_encodings(
    board: Board, name: str, max_bytes: int, check: Check | None = None
) -> list[str]:
    """The first reduced encoding that fits, if any (pairwise before sequential).

    The lower bound rules out most of them at once; only an encoding it leaves
    possible has its candidates counted.
    """
    if _bytes(_reduced_floor(board)) > max_bytes:
        return []
    for better in ("optimised", "optimised-seq"):
        if better != name and estimate(board, better, check)["bytes"] <= max_bytes:
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



def reduction(board: Board, grid: OpenGrid, num_open: int) -> dict[str, int]:
    """What the givens removed from the extended encoding (pairwise counts), from the built
    `grid` of its open candidates (see ``Encoded.reduction``)."""
    size = board.size
    before = _full_size(board, ENCODINGS["extended"])
    kept = cut = 0
    for name in ENCODINGS["extended"].families:
        family = DECLARED[name]
        sized = family_size(family, Tally.of(family, grid), "pairwise")
        kept += sized[1]
        cut += cut_literals(family, size, sized)
    return {
        "variables_decided": size**3 - num_open,
        "variables_open": num_open,
        "clauses_before": before["clauses"],
        "clauses_satisfied": before["clauses"] - kept,
        "clauses_kept": kept,
        "literals_falsified": cut,
    }
