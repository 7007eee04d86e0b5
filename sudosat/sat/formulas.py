"""Classic CNF families for tests, benchmarks and the notebooks (no Sudoku here).

>>> php = pigeonhole(3, 2)
>>> php.num_vars, php.num_clauses
(6, 9)
>>> random_kcnf(random.Random(1), 20, 85).num_clauses
85
"""

from __future__ import annotations

import itertools
import random

from sudosat.sat.cnf import CNF


def pigeonhole(pigeons: int, holes: int | None = None) -> CNF:
    """`pigeons` pigeons, each in some hole, no hole holding two.

    Unsatisfiable when ``pigeons > holes`` (default ``holes = pigeons - 1``) and
    exponentially hard for resolution, hence for DPLL and CDCL: the standard way
    to make a solver run into its time limit. Variable ``p * holes + h + 1`` says
    pigeon p sits in hole h.
    """
    holes = pigeons - 1 if holes is None else holes

    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    cnf = CNF(num_vars=pigeons * holes)
    cnf.extend([var(p, h) for h in range(holes)] for p in range(pigeons))
    cnf.extend(
        [-var(p, h), -var(q, h)]
        for h in range(holes)
        for p, q in itertools.combinations(range(pigeons), 2)
    )
    return cnf


def random_kcnf(rng: random.Random, num_vars: int, num_clauses: int, width: int = 3) -> CNF:
    """Uniform random `width`-CNF: distinct variables in each clause, fair random signs.

    At ``num_clauses / num_vars`` near 4.26 (for width 3) about half of the
    formulas are satisfiable, and they are the hardest for their size.
    """
    variables = range(1, num_vars + 1)
    clauses = (
        [v if rng.random() < 0.5 else -v for v in rng.sample(variables, width)]
        for _ in range(num_clauses)
    )
    return CNF(clauses, num_vars=num_vars)
