"""Solvers kept loaded between calls, each call under its own assumptions.

The registry (:mod:`sudosat.sat.solvers.registry`) names every solver once and
says how it opens incrementally; this module holds the adapters it opens:

:class:`CdclSession`
    cdcl's :class:`~sudosat.sat.solvers.cdcl.Solver` (assumptions, cores,
    learnt clauses kept between calls).
:class:`PySatSession`
    a PySAT solver kept loaded (``solve(assumptions=...)``, ``get_core()``).
:class:`OneShot`
    every other solver (``zchaff``, ``exec:``, ``dpll`` ...): the clauses plus
    the assumptions as unit clauses, solved from scratch on every call
    (``native`` is False).

Every adapter has ``solve(assumptions=(), *, deadline=None,
max_conflicts=None, max_propagations=None) -> Result`` (a SAT answer's model
checked against the clauses and the assumptions; ``stop`` set where the
search stopped; ``search_cpu_ms`` and ``search_wall_ms`` in the stats),
``get_core()``, ``add_clause(clause)``, ``close()`` and ``native``. Budgets
given when the session is opened hold for every call that gives none of its
own.

This layer knows nothing of Sudoku.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.base import Laps, make_result, verify_result
from sudosat.sat.solvers.budget import Deadline, budget_keywords

__all__ = ["CdclSession", "OneShot", "PySatSession", "verify_with_assumptions"]


class _Budgets:
    """The work budgets a session was opened with, and the merge with one call's own."""

    def __init__(self, max_conflicts: int | None, max_propagations: int | None) -> None:
        self.defaults = (max_conflicts, max_propagations)

    def for_call(self, max_conflicts: int | None, max_propagations: int | None) -> dict[str, int]:
        conflicts = self.defaults[0] if max_conflicts is None else max_conflicts
        propagations = self.defaults[1] if max_propagations is None else max_propagations
        return budget_keywords(conflicts, propagations)


class CdclSession:
    """cdcl's Solver with the adapters' ``close`` and ``native``."""

    native = True

    def __init__(
        self,
        cnf: CNF,
        *,
        seed: int = 0,
        max_conflicts: int | None = None,
        max_propagations: int | None = None,
        **options: Any,
    ) -> None:
        from sudosat.sat.solvers.cdcl import Solver

        self.solver = Solver(cnf, seed=seed, **options)
        self.budgets = _Budgets(max_conflicts, max_propagations)

    def solve(
        self,
        assumptions: Sequence[int] = (),
        *,
        deadline: Deadline | None = None,
        max_conflicts: int | None = None,
        max_propagations: int | None = None,
    ) -> Result:
        budgets = self.budgets.for_call(max_conflicts, max_propagations)
        # Passed only when set: cdcl's Solver.solve takes them as keywords of its own.
        return self.solver.solve(assumptions, deadline=deadline, **budgets)

    @property
    def num_vars(self) -> int:
        """The highest variable any clause or assumption so far has named."""
        return self.solver.num_vars

    def get_core(self) -> list[int] | None:
        return self.solver.get_core()

    def add_clause(self, clause: Iterable[int]) -> None:
        self.solver.add_clause(list(clause))

    def append_formula(self, cnf: CNF) -> None:
        """Load more clauses (the rules in chunks, between looks at a deadline)."""
        self.solver.append_formula(cnf)

    def next_question(self) -> None:
        """Drop what the last question taught (see :meth:`Solver.next_question`)."""
        self.solver.next_question()

    def close(self) -> None:
        self.solver.delete()


class _KeepsFormula:
    """What PySatSession and OneShot share: the clauses so far and the last call's core."""

    formula: CNF
    core: list[int] | None

    @property
    def num_vars(self) -> int:
        """The highest variable any clause (or, for PySAT, assumption) so far has named."""
        return self.formula.num_vars

    def get_core(self) -> list[int] | None:
        return self.core


class PySatSession(_KeepsFormula):
    """A PySAT solver kept loaded; assumptions and cores are PySAT's own."""

    native = True

    def __init__(
        self,
        cnf: CNF,
        *,
        backend: str,
        seed: int = 0,
        max_conflicts: int | None = None,
        max_propagations: int | None = None,
    ) -> None:
        from pysat.solvers import Solver

        from sudosat.sat.solvers.pysat import canonical_backend

        del seed  # PySAT's API takes no seed
        self.name = f"pysat:{backend}"
        self.formula = cnf.copy()
        self.solver = Solver(name=canonical_backend(backend))
        self.empty = cnf.has_empty_clause
        self.solver.append_formula([clause for clause in cnf if clause])
        self.core: list[int] | None = None
        self.budgets = _Budgets(max_conflicts, max_propagations)

    def add_clause(self, clause: Iterable[int]) -> None:
        lits = list(clause)
        self.formula.add_clause(lits)
        self.empty = self.empty or not lits
        if lits:
            self.solver.add_clause(lits)

    def solve(
        self,
        assumptions: Sequence[int] = (),
        *,
        deadline: Deadline | None = None,
        max_conflicts: int | None = None,
        max_propagations: int | None = None,
    ) -> Result:
        from sudosat.sat.solvers.pysat import full_model, limited_search, solver_stats

        started, laps = time.perf_counter(), Laps()
        assumptions = list(assumptions)
        self.formula.num_vars = max(self.formula.num_vars, *map(abs, assumptions), 0)
        self.core = None
        if self.empty:
            self.core = []
            return make_result(Status.UNSAT, None, laps.lap("search"), started, self.name,
                               Stop.ANSWERED)
        budgets = self.budgets.for_call(max_conflicts, max_propagations)
        before = solver_stats(self.solver)
        answer, stop = limited_search(
            self.solver, deadline, assumptions, name=self.name,
            max_conflicts=budgets.get("max_conflicts"),
            max_propagations=budgets.get("max_propagations"),
        )
        after = solver_stats(self.solver)
        # PySAT's counters run over the solver's life: this call's are the difference.
        stats: dict[str, Any] = {key: value - before.get(key, 0) for key, value in after.items()}
        stats.update(laps.lap("search"))
        if answer is None:
            return make_result(Status.UNKNOWN, None, stats, started, self.name, stop)
        if not answer:
            failed = set(self.solver.get_core() or [])
            self.core = [q for q in assumptions if q in failed]
            return make_result(Status.UNSAT, None, stats, started, self.name, stop)
        model = full_model(self.solver.get_model() or [], self.formula.num_vars)
        result = make_result(Status.SAT, model, stats, started, self.name, stop)
        verify_with_assumptions(self.formula, result, assumptions)
        return result

    def close(self) -> None:
        self.solver.delete()


class OneShot(_KeepsFormula):
    """The fallback for solvers without assumptions: clauses + assumptions as units, each call.

    The core it reports is every assumption (true, not minimal): a one-shot
    run says nothing about which of them failed.

    Parameters
    ----------
    name : str
        The solver's registered name.
    solve : callable
        The registry's checked one-shot solve, ``solve(cnf, name, **options)``.
    cnf : CNF
    **options
        Passed to every call (``seed``, budgets, ``zchaff=PATH`` ...).
    """

    native = False

    def __init__(
        self, name: str, solve: Callable[..., Result], cnf: CNF, **options: Any
    ) -> None:
        self.name = name
        self.run = solve
        self.formula = cnf.copy()
        self.options = dict(options)
        self.core: list[int] | None = None

    def add_clause(self, clause: Iterable[int]) -> None:
        self.formula.add_clause(list(clause))

    def solve(
        self,
        assumptions: Sequence[int] = (),
        *,
        deadline: Deadline | None = None,
        max_conflicts: int | None = None,
        max_propagations: int | None = None,
    ) -> Result:
        cnf = self.formula.copy()
        for lit in assumptions:
            cnf.add_clause([lit])
        options = {**self.options, **budget_keywords(max_conflicts, max_propagations)}
        result = self.run(cnf, self.name, deadline=deadline, **options)
        self.core = list(assumptions) if result.is_unsat else None
        return result

    def close(self) -> None:
        self.formula = CNF()


def verify_with_assumptions(cnf: CNF, result: Result, assumptions: Sequence[int]) -> None:
    """A SAT answer satisfies every clause and every assumption, or SolverError."""
    verify_result(cnf, result)
    model = result.model or []
    for lit in assumptions:
        if model[abs(lit) - 1] != lit:
            raise SolverError(f"{result.solver} returned a model that breaks the assumption {lit}")
