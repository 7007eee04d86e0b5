"""Each of our solvers solves generated 9x9 puzzles; every decoded board checks."""

from __future__ import annotations

import pytest

from sudosat.run.generate import generate_many
from sudosat.sat.solvers import solve
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import encode
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

OUR_SOLVERS = ["cdcl", "dpll", "dp", "walksat", "gsat"]


@pytest.mark.parametrize("solver", OUR_SOLVERS)
def test_course_example_decodes_to_its_known_solution(solver):
    puzzle = Board.parse(COURSE_EXAMPLE)
    encoded = encode(puzzle, "course")
    result = solve(encoded.cnf, solver, time_limit_ms=60_000, seed=1)
    assert result.is_sat, result.stats
    assert encoded.decode(result.model).to_line() == COURSE_SOLUTION


@pytest.mark.slow
@pytest.mark.parametrize("solver", OUR_SOLVERS)
def test_a_hundred_generated_puzzles_all_solved_and_checked(solver):
    # Boards of the project's generator with 30 % of the cells given (about 24 givens),
    # feasible by construction; local search gets them too, where hard minimal puzzles
    # would be beyond it (tests/test_local.py measures those separately).
    puzzles = generate_many(3, 0.3, 100, seed=11)
    failures = []
    for number, puzzle in enumerate(puzzles, start=1):
        encoded = encode(puzzle, "course")
        result = solve(encoded.cnf, solver, time_limit_ms=30_000, seed=number)
        problem = (
            "not solved"
            if not result.is_sat
            else check_solution(puzzle, encoded.decode(result.model))
        )
        if problem:
            failures.append(f"puzzle {number}: {problem}")
    assert failures == []
