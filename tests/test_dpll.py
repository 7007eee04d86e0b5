"""DP and DPLL: agreement with PySAT, edge cases, depth, Sudoku, options."""

from __future__ import annotations

import itertools
import random
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF, read_dimacs
from sudosat.sat.formulas import random_kcnf
from sudosat.sat.result import Status
from sudosat.sat.solvers import solve
from sudosat.sat.solvers.dpll import HEURISTICS, simplify, solve_dp, solve_dpll
from tests.conftest import COURSE_EXAMPLE, hard_puzzles, vu_rules_file

# Every (registered name, options) pair this file checks.
VARIANTS = [("dp", {})] + [("dpll", {"heuristic": h}) for h in HEURISTICS]
VARIANT_IDS = ["dp"] + [f"dpll-{h}" for h in HEURISTICS]


def random_3cnf(rng: random.Random) -> CNF:
    """A random 3-CNF with 20..60 variables at clause/variable ratio 3.5..5."""
    n = rng.randint(20, 60)
    return random_kcnf(rng, n, int(n * rng.uniform(3.5, 5.0)))


def brute_force_sat(cnf: CNF) -> bool:
    """Decide a tiny formula by trying every assignment."""
    clauses = cnf.clauses
    for bits in itertools.product((False, True), repeat=cnf.num_vars):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            return True
    return False


def sudoku_units(puzzle: str) -> list[list[int]]:
    """Unit clauses of an 81-character puzzle with the rules file's numbering rcv."""
    return [[100 * (k // 9 + 1) + 10 * (k % 9 + 1) + int(ch)]
            for k, ch in enumerate(puzzle) if ch not in ".0"]


def rules_cnf() -> CNF:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its header lies about the clause count
        return read_dimacs(vu_rules_file())


def check_sudoku_model(model: list[int], puzzle: str) -> None:
    """Every cell gets exactly one digit, every unit holds 1..9, every given is kept."""
    true = {lit for lit in model if lit > 0 and 111 <= lit <= 999 and lit % 10 and lit // 10 % 10}
    grid = {(lit // 100, lit // 10 % 10): lit % 10 for lit in true}
    assert len(true) == 81 and len(grid) == 81
    digits = set(range(1, 10))
    for k in range(1, 10):
        assert {grid[k, c] for c in range(1, 10)} == digits
        assert {grid[r, k] for r in range(1, 10)} == digits
        r0, c0 = 3 * ((k - 1) // 3) + 1, 3 * ((k - 1) % 3) + 1
        assert {grid[r0 + i, c0 + j] for i in range(3) for j in range(3)} == digits
    for k, ch in enumerate(puzzle):
        if ch not in ".0":
            assert grid[k // 9 + 1, k % 9 + 1] == int(ch)


# -- agreement with a reference solver ------------------------------------------------

@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=VARIANT_IDS)
def test_agrees_with_pysat_on_random_3cnf(name: str, options: dict) -> None:
    from pysat.solvers import Solver

    rng = random.Random(2024)
    answers = {True: 0, False: 0}
    for _ in range(200):
        cnf = random_3cnf(rng)
        with Solver(name="minisat22", bootstrap_with=cnf.clauses) as reference:
            expected = reference.solve()
        answers[expected] += 1
        result = solve(cnf, name, **options)  # solve() also checks every SAT model
        assert result.status is (Status.SAT if expected else Status.UNSAT), cnf.clauses
    assert min(answers.values()) >= 40, answers  # both answers well represented


# -- property tests on tiny formulas -----------------------------------------------------

literals = st.integers(1, 5).flatmap(lambda v: st.sampled_from([v, -v]))
formulas = st.lists(st.lists(literals, min_size=0, max_size=5), max_size=12)


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=VARIANT_IDS)
@given(clauses=formulas, extra_vars=st.integers(0, 3))
def test_matches_brute_force_on_tiny_formulas(
    name: str, options: dict, clauses: list, extra_vars: int
) -> None:
    # Empty clauses, repeated and complementary literals and unused variables all occur here.
    cnf = CNF(clauses, num_vars=max([abs(x) for c in clauses for x in c], default=0) + extra_vars)
    result = solve(cnf, name, **options)
    expected = brute_force_sat(cnf)
    assert result.status is (Status.SAT if expected else Status.UNSAT)
    if expected:
        assert len(result.model) == cnf.num_vars


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=VARIANT_IDS)
def test_empty_formula_is_sat_with_every_variable_false(name: str, options: dict) -> None:
    result = solve(CNF(num_vars=3), name, **options)
    assert result.status is Status.SAT
    assert result.model == [-1, -2, -3]


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=VARIANT_IDS)
def test_empty_clause_is_unsat(name: str, options: dict) -> None:
    assert solve(CNF([[1, 2], []]), name, **options).status is Status.UNSAT


def test_tautologies_and_duplicates_are_harmless() -> None:
    cnf = CNF([[1, -1], [2, 2, 2], [-2, 3, -2]])
    assert solve_dp(cnf).model == [-1, 2, 3]


def test_stats_and_name() -> None:
    result = solve_dpll(CNF([[1, 2], [-1, 2], [1, -2], [-1, -2, 3]]))
    assert result.solver == "dpll"
    assert {"decisions", "propagations", "conflicts", "load_cpu_ms", "search_cpu_ms",
            "search_wall_ms"} <= set(result.stats)
    assert solve_dp(CNF([[1]])).solver == "dp"


def test_dp_branches_on_the_first_variable_true_first() -> None:
    # No units and no pure literals: the first decision is variable 1 = True.
    result = solve_dp(CNF([[1, 2], [-1, -2], [2, 3], [-2, -3]]))
    assert result.model == [1, -2, 3]
    assert result.stats["decisions"] == 1


def test_pure_literals_are_assigned_without_deciding() -> None:
    result = solve_dp(CNF([[1, 2], [1, -3], [2, 3]]))
    assert result.stats["decisions"] == 0 and result.stats["pure_literals"] >= 1


def test_deep_search_needs_no_recursion() -> None:
    # 3000 independent exclusive-or pairs: no unit, no pure literal, one decision per pair,
    # so the search reaches 3000 levels, beyond Python's default recursion limit.
    clauses = []
    for i in range(3000):
        x, y = 2 * i + 1, 2 * i + 2
        clauses += [[x, y], [-x, -y]]
    result = solve_dp(CNF(clauses))
    assert result.status is Status.SAT and result.stats["decisions"] == 3000


def test_deep_unsat_backtracks_through_every_level() -> None:
    # Pigeonhole 5 -> 4 is UNSAT and needs real backtracking.
    from sudosat.sat.formulas import pigeonhole

    for name, options in VARIANTS:
        result = solve(pigeonhole(5), name, **options)
        assert result.status is Status.UNSAT and result.stats["conflicts"] > 1


def test_unknown_heuristic_is_a_solver_error() -> None:
    with pytest.raises(SolverError, match="unknown DPLL heuristic 'vsids'"):
        solve_dpll(CNF([[1]]), heuristic="vsids")


def test_seed_changes_tie_breaking_not_answers() -> None:
    rng = random.Random(7)
    for _ in range(20):
        cnf = random_3cnf(rng)
        answers = {solve_dpll(cnf, seed=seed).status for seed in (0, 1, 2)}
        assert len(answers) == 1


def test_simplify_reports_forced_literals_and_the_rest() -> None:
    reduced = simplify(CNF([[1], [-1, 2, 3], [-2, -3, 4], [-4, 3]]))
    assert not reduced.refuted and reduced.fixed == [1]
    assert reduced.clauses == [[2, 3], [-2, -3, 4], [-4, 3]]
    assert simplify(CNF([[1], [-1, 2], [-2]])).refuted
    assert simplify(CNF([[1], []])).refuted


# -- Sudoku ------------------------------------------------------------------------------

def course_encoding(puzzle: str) -> tuple[CNF, object]:
    """The course encoding of `puzzle`, and a checker taking a model."""
    from sudosat.sudoku.board import Board, check_solution
    from sudosat.sudoku.encoding import encode

    board = Board.parse(puzzle)
    encoded = encode(board, "course")

    def check(model: list[int]) -> None:
        assert check_solution(board, encoded.decode(model)) is None

    return encoded.cnf, check


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=VARIANT_IDS)
def test_solves_the_course_example(name: str, options: dict) -> None:
    cnf, check = course_encoding(COURSE_EXAMPLE)
    result = solve(cnf, name, **options)  # complete: no time limit to miss on a busy machine
    assert result.status is Status.SAT
    check(result.model)


@pytest.mark.parametrize("name", ["dp", "dpll"])
def test_sat_sn_input_rules_file_plus_units(name: str) -> None:
    # The "SAT -Sn" assignment's input: the rules file (999 variables, many unused) + units.
    puzzle = hard_puzzles(1)[0]
    cnf = rules_cnf()
    cnf.extend(sudoku_units(puzzle))
    result = solve(cnf, name)
    assert result.status is Status.SAT and len(result.model) == 999
    check_sudoku_model(result.model, puzzle)


def top_puzzles(count: int) -> list[str]:
    return hard_puzzles(count)


@pytest.mark.parametrize("name", ["dp", "dpll"])
def test_solves_five_hard_puzzles(name: str) -> None:
    for puzzle in top_puzzles(5):
        cnf, check = course_encoding(puzzle)
        result = solve(cnf, name)
        assert result.status is Status.SAT
        check(result.model)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["dp", "dpll"])
def test_solves_a_hundred_hard_puzzles(name: str) -> None:
    for puzzle in top_puzzles(100):
        cnf, check = course_encoding(puzzle)
        result = solve(cnf, name)
        assert result.status is Status.SAT
        check(result.model)
