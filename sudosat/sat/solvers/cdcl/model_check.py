"""An independent check of models against the input clauses, cheap when repeated."""

from __future__ import annotations

from collections.abc import Callable

from sudosat.sat.cnf import CNF, flat_blocks

INDEX_BLOCK = 4096
"""Literals of the formula the index reads between two looks at the clock (about a millisecond)."""


class ModelChecker:
    """Checks many models against one formula, reading far less than all of it each time.

    Built from the input clauses alone (never from the solver's tables), so it
    checks the solver independently. A binary clause {a, b} can only be broken
    when ¬a or ¬b is true: ``implied[¬a]`` holds b, and a check visits the
    lists of the model's true literals only (a Sudoku model makes few cell
    variables true, and those carry the binary clauses). Longer clauses are
    checked whole, each by one set operation in C.

    Indexing costs about as much as one scan of the whole formula (a tenth of
    a second at order 4), so it is done a block at a time under the caller's
    clock (:meth:`catch_up`): a search that answered quickly under a small time
    limit is not followed by an unbounded check, and what was indexed stays
    indexed for the next call.
    """

    def __init__(self) -> None:
        self.num_vars = 0
        self.implied: dict[int, list[int]] = {}
        self.others: list[frozenset[int]] = []
        self.read = 0  # how far into the formula's flat literal array the index has read

    def catch_up(self, cnf: CNF, in_time: Callable[[], bool] | None = None) -> bool:
        """Index the clauses of `cnf` not indexed yet; False when `in_time` said stop first.

        `cnf` is the same formula at every call, grown only by appending clauses.
        """
        implied = self.implied
        for stop, block in flat_blocks(cnf.flat, self.read, INDEX_BLOCK):
            if in_time is not None and not in_time():
                return False
            start = 0
            while start < len(block):
                end = block.index(0, start)
                if end - start == 2:
                    a, b = block[start], block[start + 1]
                    implied.setdefault(-a, []).append(b)
                    implied.setdefault(-b, []).append(a)
                else:
                    self.others.append(frozenset(block[start:end]))
                start = end + 1
            self.read = stop
        self.num_vars = max(self.num_vars, cnf.num_vars)
        return True

    def first_broken(self, model: list[int]) -> str | None:
        """None when `model` (one literal per variable, in order) satisfies every clause
        indexed (:meth:`catch_up` first)."""
        if list(map(abs, model)) != list(range(1, len(model) + 1)) or len(model) < self.num_vars:
            return "the rule that every variable gets exactly one value"
        true = set(model)
        implied = self.implied
        superset = true.issuperset  # one C call per true literal's list
        for p in true.intersection(implied):  # the true literals that imply anything, in C
            others = implied[p]
            if not superset(others):
                q = next(q for q in others if q not in true)
                return f"clause [{-p}, {q}]"
        for clause in self.others:
            if true.isdisjoint(clause):
                return f"clause {sorted(clause, key=abs)}"
        return None
