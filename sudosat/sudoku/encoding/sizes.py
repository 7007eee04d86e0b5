"""Sizes without building: :func:`estimate`, the memory guard :func:`check_resources`.

Also :func:`_reduction`, the counts of what the givens removed from the
extended encoding (they use the same closed formulas).
"""

from __future__ import annotations

import math
from collections.abc import Sequence, Sized

from sudosat.errors import ResourceLimitError
from sudosat.sat.amo import amo_size
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding.candidates import _Candidates, _candidates, _group_sizes
from sudosat.sudoku.encoding.core import DEFAULT_MAX_BYTES, ENCODINGS, EncodingSpec, get_encoding

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
    >>> from sudosat.sudoku.board import Board
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

