"""Incremental solving (issue 14): cdcl's Solver object, assumptions, cores, proofs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.cnf import CNF
from sudosat.errors import SolverError
from sudosat.formulas import pigeonhole
from sudosat.result import Status
from sudosat.solvers import cdcl
from sudosat.solvers.cdcl import Solver, certify

pysat_solvers = pytest.importorskip("pysat.solvers")


def reference(clauses: list[list[int]], assumptions: list[int]) -> bool:
    """PySAT's Minisat22 verdict on the clauses plus the assumptions as unit clauses."""
    with pysat_solvers.Solver(name="m22", bootstrap_with=clauses) as oracle:
        for lit in assumptions:
            oracle.add_clause([lit])
        return oracle.solve()


def literals(num_vars: int):
    return st.integers(1, num_vars).flatmap(lambda v: st.sampled_from([v, -v]))


def formulas(num_vars: int):
    return st.lists(st.lists(literals(num_vars), min_size=1, max_size=4), max_size=30)


def check_answer(clauses, assumptions, result, solver) -> None:
    """The answer agrees with the reference; a model keeps the assumptions; a core is UNSAT."""
    expected = reference(clauses, assumptions)
    assert result.status is (Status.SAT if expected else Status.UNSAT)
    if expected:
        model = set(solver.get_model())
        assert set(assumptions) <= model
        assert all(any(q in model for q in clause) for clause in clauses)
        assert solver.get_core() is None
    else:
        core = solver.get_core()
        assert set(core) <= set(assumptions)
        assert not reference(clauses, core)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(formulas(n), st.lists(literals(n), max_size=6))
    )
)
def test_assumptions_agree_with_units_and_cores_are_unsat(case):
    clauses, assumptions = case
    with Solver(CNF(clauses)) as solver:
        check_answer(clauses, assumptions, solver.solve(assumptions), solver)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(3, 12).flatmap(
        lambda n: st.lists(
            st.one_of(
                st.tuples(st.just("add"), st.lists(literals(n), min_size=1, max_size=4)),
                st.tuples(st.just("solve"), st.lists(literals(n), max_size=5)),
            ),
            min_size=1,
            max_size=25,
        )
    )
)
def test_many_calls_on_one_solver_interleaved_with_add_clause(steps):
    clauses: list[list[int]] = []
    solver = Solver()
    for kind, lits in steps:
        if kind == "add":
            solver.add_clause(lits)
            clauses.append(lits)
        else:
            check_answer(clauses, lits, solver.solve(lits), solver)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(20, 45))
def test_calls_on_random_3sat_keep_agreeing(seed, num_clauses):
    """Bigger formulas (learnt clauses, restarts) and several assumption sets in a row."""
    import random

    rng = random.Random(seed)
    n = 12
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)]
               for _ in range(num_clauses)]
    solver = Solver(CNF(clauses), restart_first=2, reduce_first=10)
    for _ in range(6):
        assumptions = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), rng.randint(0, 4))]
        check_answer(clauses, assumptions, solver.solve(assumptions), solver)
        extra = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)]
        solver.add_clause(extra)
        clauses.append(extra)


def test_clashing_assumptions_form_the_core():
    solver = Solver(CNF([[1, 2]]))
    assert solver.solve([3, -1, -3]).is_unsat
    assert solver.get_core() == [3, -3]
    assert solver.solve([-1, -2]).is_unsat
    assert solver.get_core() == [-1, -2]
    assert solver.solve([-1]).is_sat  # the failed calls left nothing behind
    assert solver.get_model()[:2] == [-1, 2]


def test_unsat_clauses_give_an_empty_core_for_good():
    solver = Solver(CNF([[1, 2], [-1, 2], [1, -2], [-1, -2]]))
    assert solver.solve([1]).is_unsat
    assert solver.get_core() == []
    assert solver.solve().is_unsat


def test_assumptions_on_variables_no_clause_names():
    solver = Solver(CNF([[1]]))
    result = solver.solve([-7])
    assert result.is_sat
    assert result.model == [1, -2, -3, -4, -5, -6, -7]


def test_learnt_clauses_and_activities_carry_over():
    solver = Solver(pigeonhole(6, 5))
    first = solver.solve()
    assert first.is_unsat and first.stats["conflicts"] > 0
    second = solver.solve()
    assert second.is_unsat and second.stats["conflicts"] == 0  # the empty clause is known


def test_a_timed_out_call_leaves_a_usable_solver():
    solver = Solver(pigeonhole(10, 9))
    assert solver.solve(time_limit_ms=100).is_unknown
    assert solver.solve([1, -1]).is_unsat  # level 0 again: the assumptions clash at once
    assert set(solver.get_core()) == {1, -1}


def test_a_bad_assumption_is_refused():
    with pytest.raises(SolverError, match="non-zero integer"):
        Solver(CNF([[1]])).solve([0])


def test_one_shot_solve_and_the_object_agree_on_stats():
    cnf = pigeonhole(6, 5)
    assert cdcl.solve(cnf).stats["conflicts"] == Solver(cnf).solve().stats["conflicts"]


# -- proofs across calls --------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_drat_proofs_after_several_calls_verify(seed):
    import random

    rng = random.Random(seed)
    n = 10
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)] for _ in range(30)]
    solver = Solver(CNF(clauses), proof=True, restart_first=2, reduce_first=10)
    checked = 0
    for _ in range(8):
        assumptions = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), rng.randint(0, 4))]
        result = solver.solve(assumptions)
        if result.is_unsat:
            ok, why = certify(solver.proof_formula(), result.proof)
            assert ok, why
            checked += 1
        extra = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)]
        solver.add_clause(extra)
    assert solver.solve([]).status in (Status.SAT, Status.UNSAT)


def test_drat_proof_of_pigeonhole_after_earlier_calls_verifies():
    cnf = pigeonhole(6, 5)
    solver = Solver(CNF(cnf.clauses[:-3]), proof=True)
    assert solver.solve([1]).is_sat
    assert solver.solve([-1, -2]).status is not Status.UNKNOWN
    solver.append_formula(cnf.clauses[-3:])
    result = solver.solve()
    assert result.is_unsat
    ok, why = certify(solver.proof_formula(), result.proof)
    assert ok, why


def test_proof_text_needs_proof_logging():
    with pytest.raises(SolverError, match="proof=True"):
        Solver(CNF([[1]])).proof_text()


# -- issue 17, fault 8: one clause of 100,000 literals -------------------------------------


def test_fault8_long_clause():
    """The loader is linear in a clause's length and reads the clock inside a huge one."""
    import time

    n = 100_000
    clause = [v if v % 2 else -v for v in range(1, n + 1)]
    cnf = CNF([clause, [-1], [2]], n)
    started = time.monotonic()
    result = cdcl.solve(cnf, time_limit_ms=300)
    assert time.monotonic() - started < 2.0
    assert result.status in (Status.SAT, Status.UNKNOWN)
    result = cdcl.solve(cnf)
    assert result.is_sat
    assert time.monotonic() - started < 4.0
    tautology = CNF([[*clause, -clause[-1]]], n)
    assert cdcl.solve(tautology).is_sat
