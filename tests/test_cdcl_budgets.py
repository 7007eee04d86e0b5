"""cdcl's work budgets (``max_conflicts``, ``max_propagations``): MiniSat's conflict and
propagation budgets, on the one-shot ``solve`` and per call of the incremental ``Solver``.

A budget that runs out gives UNKNOWN (never UNSAT) and says so in the result's ``stop``
as every solver does; the same budget on the same formula stops at the same
point (the counts are work, not time); a budget big enough changes nothing.
"""

from __future__ import annotations

import random

import pysat.solvers as pysat_solvers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole, random_kcnf
from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers import cdcl
from sudosat.sat.solvers.budget import Deadline

# Every test runs on both cdcl cores: the pure-Python reference and its compiled twin.
pytestmark = pytest.mark.usefixtures("cdcl_core")


def reference_sat(cnf: CNF) -> bool:
    """PySAT's Minisat22 verdict."""
    with pysat_solvers.Solver(name="m22", bootstrap_with=cnf.clauses) as oracle:
        return oracle.solve()


def test_a_conflict_budget_that_runs_out_answers_unknown_not_unsat():
    full = cdcl.solve(pigeonhole(7, 6))
    assert full.status is Status.UNSAT and full.stats["conflicts"] > 100
    cut = cdcl.solve(pigeonhole(7, 6), max_conflicts=100)
    assert cut.status is Status.UNKNOWN and cut.stop is Stop.CONFLICTS
    assert cut.stats["conflicts"] == 100
    assert cut.proof is None and cut.model is None


def test_a_propagation_budget_that_runs_out_answers_unknown_not_unsat():
    full = cdcl.solve(pigeonhole(7, 6))
    cut = cdcl.solve(pigeonhole(7, 6), max_propagations=2000)
    assert full.stats["propagations"] > 2000
    assert cut.status is Status.UNKNOWN and cut.stop is Stop.PROPAGATIONS
    # Checked before a decision, after a propagation: it may go past by one propagation's worth.
    assert 2000 <= cut.stats["propagations"] < full.stats["propagations"]
    assert cut.stats["conflicts"] < full.stats["conflicts"]


def test_a_budget_of_zero_conflicts_makes_no_decision():
    result = cdcl.solve(CNF([[1, 2], [-1, 2], [1, -2], [-1, -2]]), max_conflicts=0)
    assert result.status is Status.UNKNOWN and result.stop is Stop.CONFLICTS
    assert result.stats["decisions"] == 0 and result.stats["conflicts"] == 0
    # A conflict of the clauses alone at level 0 still answers: it ends the call at once.
    assert cdcl.solve(CNF([[1], [-1, 2], [-2]]), max_conflicts=0).status is Status.UNSAT
    # The budget is read before the first decision, as MiniSat reads it: even a formula
    # that propagation satisfies stops there (SAT is seen when nothing is left to decide).
    stopped = cdcl.solve(CNF([[1], [-1, 2]]), max_propagations=0)
    assert stopped.status is Status.UNKNOWN and stopped.stop is Stop.PROPAGATIONS


def test_the_same_budget_stops_at_the_same_point():
    cnf = pigeonhole(8, 7)
    for budget in ({"max_conflicts": 250}, {"max_propagations": 5000}):
        first, again = cdcl.solve(cnf, **budget), cdcl.solve(cnf, **budget)
        assert first.status is again.status is Status.UNKNOWN
        counted = ("conflicts", "propagations", "decisions", "learnt", "restarts", "deleted")
        assert [first.stats[k] for k in counted] == [again.stats[k] for k in counted]


def test_a_budget_big_enough_changes_nothing():
    cnf = pigeonhole(7, 6)
    full = cdcl.solve(cnf)
    enough = cdcl.solve(cnf, max_conflicts=full.stats["conflicts"],
                        max_propagations=full.stats["propagations"])
    assert enough.status is Status.UNSAT and enough.stop is Stop.ANSWERED
    assert enough.stats["conflicts"] == full.stats["conflicts"]
    assert enough.stats["propagations"] == full.stats["propagations"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 3000))
def test_budgets_on_random_3sat_never_lie_and_repeat_exactly(seed, conflicts, propagations):
    cnf = random_kcnf(random.Random(seed), 40, 170)
    cut = cdcl.solve(cnf, max_conflicts=conflicts, max_propagations=propagations)
    assert cdcl.solve(cnf, max_conflicts=conflicts, max_propagations=propagations).stats[
        "conflicts"] == cut.stats["conflicts"]
    assert cut.stats["conflicts"] <= conflicts or cut.status is Status.UNSAT
    if cut.status is Status.UNKNOWN:
        assert cut.stop in (Stop.CONFLICTS, Stop.PROPAGATIONS)
    else:
        assert cut.status is (Status.SAT if reference_sat(cnf) else Status.UNSAT)
        full = cdcl.solve(cnf)  # a budget it did not reach left the search as it was
        assert full.status is cut.status and full.stats["conflicts"] == cut.stats["conflicts"]


def test_incremental_budgets_hold_per_call_and_do_not_carry_over():
    cnf = pigeonhole(7, 6)
    solver = cdcl.Solver(cnf)
    first = solver.solve(max_conflicts=50)
    assert first.status is Status.UNKNOWN and first.stop is Stop.CONFLICTS
    assert first.stats["conflicts"] == 50  # stats count this call only
    second = solver.solve(max_conflicts=50)  # a fresh 50, counted from this call's start
    assert second.status is Status.UNKNOWN and second.stats["conflicts"] == 50
    third = solver.solve(max_propagations=1000)
    assert third.status is Status.UNKNOWN and third.stop is Stop.PROPAGATIONS
    last = solver.solve()  # no budget: the learnt clauses so far help, the answer is right
    assert last.status is Status.UNSAT and last.stop is Stop.ANSWERED
    assert solver.get_core() == []


def test_incremental_budgets_with_assumptions_keep_cores_right():
    solver = cdcl.Solver(pigeonhole(6, 5))
    solver.add_clause([100, 101])
    assert solver.solve([-100], max_conflicts=5).status is Status.UNKNOWN
    assert solver.get_core() is None and solver.get_model() is None
    answer = solver.solve([-100, -101], max_conflicts=10_000)
    assert answer.status is Status.UNSAT and set(solver.get_core() or []) <= {-100, -101}


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_budgets_must_be_non_negative_integers(bad):
    with pytest.raises(SolverError, match="max_conflicts"):
        cdcl.solve(CNF([[1]]), max_conflicts=bad)
    with pytest.raises(SolverError, match="max_propagations"):
        cdcl.Solver(CNF([[1]])).solve(max_propagations=bad)


def test_running_out_of_time_says_time():
    result = cdcl.solve(pigeonhole(9, 8), deadline=Deadline(0))
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME  # not a work budget
