"""cdcl's search state keeps its invariants: watches, trail, levels, reasons.

cdclkit-style checkers (:func:`tests.cdcl_checks.invariant_violations`) run
after random sequences of solve / backtrack / add_clause calls, and at every
decision of the searches in between (through the public observer hook).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole, random_kcnf
from sudosat.sat.result import Status
from sudosat.sat.solvers import cdcl
from sudosat.sat.solvers.codes import to_code
from tests.cdcl_checks import invariant_violations

# These tests read the pure-Python engine's own tables: that core runs them.
pytestmark = pytest.mark.usefixtures("python_core")


class Checking:
    """An observer that checks the invariants at each decision (a propagated state)."""

    def __init__(self) -> None:
        self.solver: cdcl.Solver | None = None
        self.decisions = 0
        self.learnt_clauses: list[tuple[list[int], int, int]] = []

    def decided(self, literal: int, level: int, trail_size: int) -> None:
        engine = self.solver._engine
        assert level == len(engine.trail_lim) + 1 and trail_size == len(engine.trail)
        assert engine.val[to_code(literal)] == 0
        problems = invariant_violations(engine, propagated=True)
        assert not problems, problems
        self.decisions += 1

    def learnt(self, clause: list[int], backjump_level: int, level: int) -> None:
        engine = self.solver._engine
        assert level == len(engine.trail_lim) and 0 <= backjump_level < level
        assert all(engine.val[to_code(lit)] == -1 for lit in clause)  # before the backjump
        self.learnt_clauses.append((clause, backjump_level, level))


def _observed(cnf: CNF, **tunables) -> tuple[cdcl.Solver, Checking]:
    observer = Checking()
    solver = cdcl.Solver(observer=observer, **tunables)
    observer.solver = solver
    solver.append_formula(cnf)
    return solver, observer


def _check(solver: cdcl.Solver, propagated: bool = False) -> None:
    problems = invariant_violations(solver._engine, propagated)
    assert not problems, problems


literal = st.integers(1, 12).flatmap(lambda v: st.sampled_from([v, -v]))
clause = st.lists(literal, min_size=1, max_size=5)
operation = st.one_of(
    st.tuples(st.just("solve"), st.lists(literal, max_size=4)),
    st.tuples(st.just("add"), clause),
    st.tuples(st.just("backtrack"), st.integers(0, 4)),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(clause, min_size=1, max_size=60),
    st.lists(operation, min_size=1, max_size=12),
    st.integers(0, 3),
    st.sampled_from([0, 1, 2]),
    st.sampled_from([0, 1]),
)
def test_invariants_hold_after_random_solve_backtrack_add_clause(clauses, operations, seed,
                                                                   chrono, shrink):
    solver, _ = _observed(CNF(clauses), seed=seed, reduce_first=10, restart_first=2,
                          chrono=chrono, shrink=shrink)
    _check(solver)
    engine = solver._engine
    for kind, argument in operations:
        if kind == "solve":
            result = solver.solve(argument)
            assert result.status is not Status.UNKNOWN
            _check(solver, propagated=result.status is Status.SAT)
        elif kind == "add":
            solver.add_clause(argument)
            _check(solver)
        else:
            engine.cancel_until(min(argument, len(engine.trail_lim)))
            _check(solver, propagated=engine.ok)


@pytest.mark.parametrize("chrono", [0, 1, 2])
@pytest.mark.parametrize("seed", range(4))
def test_invariants_hold_at_every_decision_of_a_search_with_deletions(seed, chrono):
    # Enough conflicts for restarts, learnt-clause reduction and level-0 simplification.
    rng = random.Random(seed)
    cnf = random_kcnf(rng, 60, 258)
    solver, observer = _observed(cnf, reduce_first=10, reduce_inc=5, restart_first=5,
                                 chrono=chrono)
    result = solver.solve()
    assert result.status is not Status.UNKNOWN and observer.decisions > 0
    assert result.stats["deleted"] > 0 or result.stats["conflicts"] < 10
    _check(solver, propagated=result.status is Status.SAT)


def test_the_checkers_notice_broken_watches_trail_and_reasons():
    solver = cdcl.Solver(CNF([[1, 2, 3, 5], [-1, 2, 4, 5], [-2, -3]]))
    engine = solver._engine
    engine.propagate()
    assert invariant_violations(engine, propagated=True) == []
    clause = engine.clauses[0]
    engine.watches[clause[0]].remove(clause)
    assert any("watch" in p for p in invariant_violations(engine))
    engine.watches[clause[0]].append(clause)
    engine.watches[clause[2]].append(clause)  # watched a third time
    assert any("watch" in p for p in invariant_violations(engine))
    engine.watches[clause[2]].remove(clause)
    engine.trail_lim.append(len(engine.trail))
    engine.assign(to_code(-1), None)
    engine.assign(to_code(2), to_code(3))  # {2, 3} is no reason for 2: 3 is not false
    assert any("reason" in p for p in invariant_violations(engine))
    engine.trail.append(engine.trail[-1])
    assert any("twice" in p for p in invariant_violations(engine))


def test_the_checkers_notice_a_missed_implication_and_a_level_out_of_place():
    solver = cdcl.Solver(CNF([[3, 1, 2, 4]]))
    engine = solver._engine
    for decision in (-1, -2, -4):  # one level each: {3, 1, 2, 4} is left unit, 3 unpropagated
        engine.trail_lim.append(len(engine.trail))
        engine.assign(to_code(decision), None)
    engine.qhead = len(engine.trail)
    assert any("is unit" in p for p in invariant_violations(engine, propagated=True))
    clause = engine.clauses[0]
    assert clause[0] == to_code(3)  # the implied literal first, as a reason has it
    engine.assign(to_code(3), clause)
    assert invariant_violations(engine) == []
    engine.level[3] = 2  # below level 3, the highest of its reason's other literals
    assert any("trail_lim says" in p for p in invariant_violations(engine))
    engine.out_of_order = True  # out of order, a level below its part of the trail is allowed
    assert [p for p in invariant_violations(engine) if "its reason's" not in p] == []
    assert any("its reason's" in p for p in invariant_violations(engine))


def test_a_ternary_implication_names_the_clause_tuple_its_entries_share():
    solver = cdcl.Solver(CNF([[1, 2, 3], [-3, 4, 5]]))
    engine = solver._engine
    shared = {id(tern) for entries in engine.terns for _, _, tern in entries}
    assert len(shared) == 2  # one tuple per clause, whatever list its entries sit in
    engine.trail_lim.append(len(engine.trail))
    engine.assign(to_code(-1), None)
    engine.trail_lim.append(len(engine.trail))
    engine.assign(to_code(-2), None)
    assert engine.propagate() is None
    implied = engine.reason[3]
    assert engine.val[to_code(3)] == 1 and implied == (to_code(1), to_code(2), to_code(3))
    assert id(implied) in shared  # the clause's own tuple, 3 last in it: nothing was built
    assert invariant_violations(engine, propagated=True) == []
    engine.reason[3] = (to_code(1), to_code(2), to_code(4))  # a clause without 3
    assert any("does not hold it" in p for p in invariant_violations(engine))


def test_observer_sees_every_decision_and_learnt_clause_in_dimacs():
    solver, observer = _observed(pigeonhole(5, 4))
    result = solver.solve()
    assert result.status is Status.UNSAT
    assert observer.decisions == result.stats["decisions"]
    assert len(observer.learnt_clauses) == result.stats["conflicts"] - 1  # the last is at level 0
    assert all(0 < abs(lit) <= 20 for c, _, _ in observer.learnt_clauses for lit in c)


def test_observer_changes_nothing_in_the_search():
    cnf = random_kcnf(random.Random(5), 80, 340)
    plain = cdcl.Solver(cnf).solve()

    class Silent:
        def decided(self, literal: int, level: int, trail_size: int) -> None:
            pass

    watched = cdcl.Solver(cnf, observer=Silent()).solve()
    assert (plain.status, plain.model, plain.stats["conflicts"]) == (
        watched.status, watched.model, watched.stats["conflicts"])


def test_observer_without_either_method_and_none_cost_nothing():
    assert type(cdcl.Solver(CNF([[1]]))._engine) is cdcl.Engine
    assert cdcl.Solver(CNF([[1, 2], [-1, 2]]), observer=object()).solve().is_sat


@pytest.mark.parametrize(
    "modes",
    [
        {"restart_mode": 2, "mode_first": 4, "target_phase": 2, "rephase_first": 3},
        {"restart_mode": 1, "restart_margin": 1.0, "tier2_lbd": 6, "rephase_first": 1},
        {"chrono": 1, "restart_mode": 2, "mode_first": 4, "target_phase": 2},
        {"chrono": 2, "chrono_levels": 2, "tier2_lbd": 6, "rephase_first": 3},
        {"shrink": 0, "tier2_lbd": 6},
        {"shrink": 1, "minimize": 1, "chrono": 1, "restart_mode": 2, "mode_first": 4},
        {"vivify": 1, "vivify_interval": 4, "vivify_effort": 2.0},
        {"vivify": 1, "vivify_interval": 2, "vivify_effort": 5.0, "chrono": 2, "tier2_lbd": 6},
    ],
)
def test_invariants_hold_in_every_search_mode(modes):
    # Mode switches, focused restarts, target decisions, rephasing and the tiered
    # reduction all happen within these searches.
    restarts = 0
    for seed in range(3):
        cnf = random_kcnf(random.Random(seed), 60, 258)
        solver, observer = _observed(cnf, reduce_first=10, reduce_inc=5, restart_first=5, **modes)
        result = solver.solve()
        assert result.status is not Status.UNKNOWN and observer.decisions > 0
        restarts += result.stats["restarts"]
    assert restarts > 0
