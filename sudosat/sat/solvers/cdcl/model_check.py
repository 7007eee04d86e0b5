"""An independent check of models against the input clauses, cheap when repeated."""

from __future__ import annotations

from sudosat.sat.cnf import CNF


class ModelChecker:
    """Checks many models against one formula, reading far less than all of it each time.

    Built from the input clauses alone (never from the solver's tables), so it
    checks the solver independently. A binary clause {a, b} can only be broken
    when ¬a or ¬b is true: ``implied[¬a]`` holds b, and a check visits the
    lists of the model's true literals only (a Sudoku model makes few cell
    variables true, and those carry the binary clauses). Longer clauses are
    checked whole, each by one set operation in C.
    """

    def __init__(self, cnf: CNF) -> None:
        self.num_vars = 0
        self.implied: dict[int, list[int]] = {}
        self.others: list[frozenset[int]] = []
        self.extend(cnf)

    def extend(self, cnf: CNF) -> None:
        """Index more clauses."""
        implied = self.implied
        for clause in cnf:
            if len(clause) == 2:
                a, b = clause
                implied.setdefault(-a, []).append(b)
                implied.setdefault(-b, []).append(a)
            else:
                self.others.append(frozenset(clause))
        self.num_vars = max(self.num_vars, cnf.num_vars)

    def first_broken(self, model: list[int]) -> str | None:
        """None when `model` (one literal per variable, in order) satisfies every clause."""
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

