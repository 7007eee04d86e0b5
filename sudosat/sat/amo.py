"""At-most-one constraints in CNF: pairwise, sequential counter, product.

This layer knows nothing of Sudoku: it turns "at most one of these literals is
true" into clauses, written straight into a zero-terminated flat
``array('i')`` (the layout of :meth:`sudosat.sat.cnf.CNF.from_flat`).

Sizes for a group of n literals (``amo_size`` gives them exactly):

========== ============== =========================== ==========================
method     auxiliary vars clauses                     reference idea
========== ============== =========================== ==========================
pairwise   0              n(n-1)/2                    one binary clause per pair
sequential n-1            3n-4                        Sinz's counter: s_i = "one of
                                                      x_1..x_i is true"
product    about 2√n      about 2n + 4√n              Chen's grid: x at (r, c)
                                                      implies u_r and v_c, then
                                                      at-most-one over u and v
========== ============== =========================== ==========================

Small groups stay pairwise: below a per-method threshold the pairwise clauses
are no more than the scalable ones, and they need no auxiliary variable.

Examples
--------
>>> from array import array
>>> flat = array("i")
>>> amo(flat, [1, 2, 3], "pairwise", top=3)
(3, 3)
>>> flat.tolist()
[-1, -2, 0, -1, -3, 0, -2, -3, 0]
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache
from itertools import chain, combinations, repeat
from operator import add

Lit = int

AMO_METHODS: dict[str, str] = {
    "pairwise": "one binary clause per pair: n(n-1)/2 clauses, no auxiliary variable",
    "seq": "Sinz's sequential counter: 3n-4 clauses, n-1 auxiliary variables",
    "product": "Chen's product encoding: about 2n + 4 sqrt(n) clauses, about 2 sqrt(n) auxiliaries",
}
"""The at-most-one encodings by name, with what each costs for n literals."""

# Largest group each method leaves pairwise: up to there pairwise is no bigger
# (sequential: 10 vs 11 clauses at n=5; product: 15 vs 16 at n=6).
PAIRWISE_MAX = {"pairwise": 1 << 62, "seq": 5, "product": 6}

_END = (0,)


def amo(flat: array, lits: Sequence[Lit], method: str, top: int) -> tuple[int, int]:
    """Append "at most one of `lits` is true" to `flat`.

    Parameters
    ----------
    flat : array('i')
        Zero-terminated clause array; clauses are appended.
    lits : sequence of int
        Signed DIMACS literals (usually positive variables).
    method : {'pairwise', 'seq', 'product'}
    top : int
        The highest variable in use; auxiliary variables are numbered from
        ``top + 1``.

    Returns
    -------
    (clauses, top) : tuple of int
        How many clauses were appended and the new highest variable.
    """
    if len(lits) <= PAIRWISE_MAX[method]:
        return _pairwise(flat, lits), top
    if method == "seq":
        return _sequential(flat, lits, top)
    return _product(flat, lits, top)


def _pairwise(flat: array, lits: Sequence[Lit]) -> int:
    n = len(lits)
    if n > 1:
        # C-level: combinations -> (a, b) + (0,) -> flattened into the array.
        negated = [-lit for lit in lits]
        flat.extend(chain.from_iterable(map(add, combinations(negated, 2), repeat(_END))))
    return n * (n - 1) // 2


def _sequential(flat: array, lits: Sequence[Lit], top: int) -> tuple[int, int]:
    """Sinz's counter; s_k (k = 1..n-1, variable top + k) means "some of x_1..x_k is true"."""
    n = len(lits)
    flat.extend((-lits[0], top + 1, 0))
    # For 1 < k < n: x_k -> s_k, s_{k-1} -> s_k, not both x_k and s_{k-1}.
    flat.extend(
        chain.from_iterable(
            (-x, s, 0, 1 - s, s, 0, -x, 1 - s, 0)
            for x, s in zip(lits[1:-1], range(top + 2, top + n), strict=True)
        )
    )
    flat.extend((-lits[-1], -(top + n - 1), 0))
    return 3 * n - 4, top + n - 1


def _product(flat: array, lits: Sequence[Lit], top: int) -> tuple[int, int]:
    """Chen's product encoding over a grid of ``rows x cols`` >= n cells."""
    n = len(lits)
    cols = _ceil_sqrt(n)
    rows = -(-n // cols)
    row_vars = range(top + 1, top + rows + 1)
    col_vars = range(top + rows + 1, top + rows + cols + 1)
    top += rows + cols
    # Literal k sits at row k // cols and column k % cols: it implies both.
    flat.extend(
        chain.from_iterable(
            (-x, row_vars[k // cols], 0, -x, col_vars[k % cols], 0) for k, x in enumerate(lits)
        )
    )
    row_clauses, top = amo(flat, row_vars, "product", top)
    col_clauses, top = amo(flat, col_vars, "product", top)
    return 2 * n + row_clauses + col_clauses, top


def _ceil_sqrt(n: int) -> int:
    root = int(n**0.5)
    while root * root < n:
        root += 1
    while root > 1 and (root - 1) * (root - 1) >= n:
        root -= 1
    return root


@cache
def amo_size(method: str, n: int) -> tuple[int, int, int]:
    """Exact size of :func:`amo` over `n` literals, without building it.

    Returns
    -------
    (auxiliary_vars, clauses, literals) : tuple of int

    Examples
    --------
    >>> amo_size("pairwise", 4), amo_size("seq", 9), amo_size("product", 9)
    ((0, 6, 12), (8, 23, 46), (6, 24, 48))
    """
    if method not in AMO_METHODS:
        choices = ", ".join(AMO_METHODS)
        raise ValueError(f"unknown at-most-one method {method!r}; choose one of {choices}")
    if n <= PAIRWISE_MAX[method]:
        pairs = n * (n - 1) // 2
        return 0, pairs, 2 * pairs
    if method == "seq":
        return n - 1, 3 * n - 4, 6 * n - 8
    cols = _ceil_sqrt(n)
    rows = -(-n // cols)
    row_aux, row_clauses, _ = amo_size("product", rows)
    col_aux, col_clauses, _ = amo_size("product", cols)
    clauses = 2 * n + row_clauses + col_clauses
    return rows + cols + row_aux + col_aux, clauses, 2 * clauses
