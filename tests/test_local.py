"""GSAT and WalkSAT: models check, SAT/UNKNOWN only, counters, Sudoku, options."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status
from sudosat.sat.solvers import solve
from sudosat.sat.solvers.local import _compact, _State, solve_gsat
from tests.conftest import COURSE_EXAMPLE, graded_puzzles
from tests.test_dpll import brute_force_sat, course_encoding, random_3cnf

SOLVERS = ["walksat", "gsat"]
SMALL_BUDGET = {"max_flips": 5_000, "max_tries": 2}


@pytest.mark.parametrize("name", SOLVERS)
def test_finds_models_of_most_satisfiable_random_3cnf(name: str) -> None:
    from pysat.solvers import Solver

    rng = random.Random(99)
    satisfiable = found = 0
    while satisfiable < 100:
        cnf = random_3cnf(rng)
        with Solver(name="minisat22", bootstrap_with=cnf.clauses) as reference:
            if not reference.solve():
                continue
        satisfiable += 1
        result = solve(cnf, name, seed=satisfiable, max_flips=20_000, max_tries=3)
        assert result.status in (Status.SAT, Status.UNKNOWN)  # solve() checks the model
        found += result.status is Status.SAT
    assert found >= 90, f"{name} found {found} models of 100 satisfiable formulas"


@pytest.mark.parametrize("name", SOLVERS)
def test_never_answers_unsat_by_searching(name: str) -> None:
    # Pigeonhole 4 -> 3 is UNSAT but unit propagation does not refute it.
    result = solve(pigeonhole(4), name, **SMALL_BUDGET)
    assert result.status is Status.UNKNOWN
    assert result.stats["tries"] == 2 and result.stats["flips"] == 10_000
    assert result.stats["unsat_at_end"] >= 1


@pytest.mark.parametrize("name", SOLVERS)
def test_empty_clause_is_answered_unsat(name: str) -> None:
    assert solve(CNF([[1, 2], []]), name).status is Status.UNSAT
    assert solve(CNF([[1, 2], []]), name, simplify=False).status is Status.UNSAT


@pytest.mark.parametrize("name", SOLVERS)
def test_refutation_by_unit_propagation_is_unsat(name: str) -> None:
    cnf = CNF([[1], [-1, 2], [-2, 3], [-3, -1]])
    assert solve(cnf, name).status is Status.UNSAT
    assert solve(cnf, name, simplify=False, **SMALL_BUDGET).status is Status.UNKNOWN


@pytest.mark.parametrize("name", SOLVERS)
def test_empty_formula_is_sat_with_every_variable_false(name: str) -> None:
    result = solve(CNF(num_vars=2), name)
    assert result.status is Status.SAT and result.model == [-1, -2]


literals = st.integers(1, 5).flatmap(lambda v: st.sampled_from([v, -v]))
formulas = st.lists(st.lists(literals, min_size=0, max_size=4), max_size=10)


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("use_simplify", [True, False])
@given(clauses=formulas, extra_vars=st.integers(0, 3), seed=st.integers(0, 1000))
def test_tiny_formulas_answer_soundly(
    name: str, use_simplify: bool, clauses: list, extra_vars: int, seed: int
) -> None:
    # Empty clauses, repeated and complementary literals and unused variables all occur here.
    cnf = CNF(clauses, num_vars=max([abs(x) for c in clauses for x in c], default=0) + extra_vars)
    result = solve(cnf, name, seed=seed, simplify=use_simplify, max_flips=2_000, max_tries=2)
    satisfiable = brute_force_sat(cnf)
    if result.status is Status.UNSAT:
        assert not satisfiable
    elif satisfiable:
        assert result.status is Status.SAT  # tiny satisfiable formulas are always found
        assert len(result.model) == cnf.num_vars
    else:
        assert result.status is Status.UNKNOWN


@pytest.mark.parametrize("gsat", [False, True])
def test_incremental_counters_match_a_recount(gsat: bool) -> None:
    rng = random.Random(5)
    for _ in range(30):
        cnf = random_3cnf(rng)
        coded, names = _compact(cnf.clauses)
        state = _State(coded, len(names), gsat)
        state.reset(rng, math.inf)
        for _ in range(50):
            state.flip(rng.randrange(len(names)))
        truth = state.truth
        breaks, score, unsat = [0] * len(names), [0] * len(names), set()
        for c, clause in enumerate(coded):
            true_lits = [lit for lit in clause if truth[lit]]
            if len(true_lits) == 1:
                breaks[true_lits[0] >> 1] += 1
                score[true_lits[0] >> 1] -= 1
            elif not true_lits:
                unsat.add(c)
                for lit in clause:
                    score[lit >> 1] += 1
        assert state.breaks == breaks and set(state.unsat) == unsat
        assert all(state.where[c] == k for k, c in enumerate(state.unsat))
        if gsat:
            assert state.score == score


def planted_3cnf(rng: random.Random, num_vars: int, num_clauses: int) -> CNF:
    """A random 3-CNF satisfied by a hidden assignment (so surely satisfiable)."""
    hidden = [rng.choice((-1, 1)) * v for v in range(num_vars + 1)]
    clauses: list[list[int]] = []
    while len(clauses) < num_clauses:
        clause = [v * rng.choice((-1, 1)) for v in rng.sample(range(1, num_vars + 1), 3)]
        if any(lit == hidden[abs(lit)] for lit in clause):
            clauses.append(clause)
    return CNF(clauses, num_vars)


@pytest.mark.parametrize("name", SOLVERS)
def test_same_seed_same_run(name: str) -> None:
    cnf = planted_3cnf(random.Random(3), 50, 200)
    first, again = solve(cnf, name, seed=4), solve(cnf, name, seed=4)
    assert first.status is Status.SAT
    assert first.model == again.model and first.stats["flips"] == again.stats["flips"]


@pytest.mark.parametrize(
    ("options", "message"),
    [({"noise": 1.5}, "noise"), ({"max_flips": -1}, "max_flips"), ({"max_tries": 0}, "max_tries")],
)
def test_options_out_of_range_are_solver_errors(options: dict, message: str) -> None:
    with pytest.raises(SolverError, match=message):
        solve_gsat(CNF([[1]]), **options)


def test_plain_gsat_without_noise_still_works() -> None:
    result = solve_gsat(CNF([[1, 2], [-1, 2], [1, -2], [3, 4], [-3]]), noise=0.0, simplify=False)
    assert result.status is Status.SAT and result.model[:3] == [1, 2, -3]


# -- Sudoku ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SOLVERS)
def test_solves_the_course_example(name: str) -> None:
    cnf, check = course_encoding(COURSE_EXAMPLE)
    result = solve(cnf, name)  # seeded, no time limit: the same search on any machine
    assert result.status is Status.SAT
    check(result.model)


@pytest.mark.slow
@pytest.mark.parametrize("name", SOLVERS)
def test_solves_hard_puzzles_with_a_generous_budget(name: str) -> None:
    # Local search is incomplete: on hard puzzles it needs 10^4..10^6 flips; we ask for
    # most of a small set within a generous budget of flips (see the module docstring of
    # local.py). A budget of work, not of time: seeded, it gives the same search on a busy
    # machine. The set is the five hardest minimal puzzles of data/instances.txt (each took
    # at most 729,461 flips, in one try); the famous hardest-known puzzles of HARD_9X9 are
    # hard for backtracking and harder still for GSAT, whose greedy moves stall on them for
    # millions of flips.
    solved = 0
    puzzles = graded_puzzles(5)
    for seed, puzzle in enumerate(puzzles):
        cnf, check = course_encoding(puzzle)
        result = solve(cnf, name, seed=seed, max_flips=10**6, max_tries=2)
        if result.status is Status.SAT:
            check(result.model)
            solved += 1
    assert solved >= len(puzzles) - 1
