"""Tests of the puzzle generator: feasible, unique, naive, deterministic."""

from __future__ import annotations

import random

import pysat.solvers as pysat_solvers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.cli import main
from sudosat.errors import InstanceError
from sudosat.run.generate import generate, generate_many, pattern_solution
from sudosat.sudoku.board import Board

# ---------------------------------------------------------------------------------------
# an independent checker: our own small course encoding fed to PySAT's MiniSat


def _independent_clauses(board: Board) -> list[list[int]]:
    """The course encoding written again here, so the check shares no code with sudosat."""
    n, s = board.order, board.size

    def var(i: int, j: int, d: int) -> int:
        return i * s * s + j * s + d

    units = [[(i, j) for j in range(s)] for i in range(s)]
    units += [[(i, j) for i in range(s)] for j in range(s)]
    units += [[(bi * n + r, bj * n + c) for r in range(n) for c in range(n)]
              for bi in range(n) for bj in range(n)]
    clauses = []
    for i in range(s):
        for j in range(s):
            clauses.append([var(i, j, d) for d in range(1, s + 1)])
            symbols = range(1, s + 1)
            clauses += [[-var(i, j, d), -var(i, j, e)] for d in symbols for e in symbols if d < e]
    for unit in units:
        for d in range(1, s + 1):
            cells = [var(i, j, d) for i, j in unit]
            clauses += [[-a, -b] for k, a in enumerate(cells) for b in cells[k + 1:]]
    clauses += [[var(i, j, d)] for i, j, d in board.givens()]
    return clauses


def count_solutions(board: Board, limit: int = 2) -> int:
    """Number of solutions of `board`, counted up to `limit` with PySAT (blocking each one)."""
    clauses = _independent_clauses(board)
    with pysat_solvers.Solver(name="minisat22", bootstrap_with=clauses) as solver:
        found = 0
        while found < limit and solver.solve():
            found += 1
            solver.add_clause([-lit for lit in solver.get_model() if lit > 0])
        return found


# ---------------------------------------------------------------------------------------
# the pattern base and the emptying


@pytest.mark.parametrize("order", range(1, 10))
def test_pattern_solution_is_a_complete_valid_board(order):
    board = pattern_solution(order, random.Random(order))
    assert board.is_complete()
    assert board.first_conflict() is None


def test_pattern_solution_depends_on_the_seed():
    assert pattern_solution(3, random.Random(1)) != pattern_solution(3, random.Random(2))


@pytest.mark.parametrize(
    "order, alpha", [(2, 0.5), (3, 0.0), (3, 0.2), (3, 0.6), (4, 0.4), (5, 0.75)]
)
def test_pattern_boards_have_the_asked_givens_and_a_solution(order, alpha):
    board = generate(order, alpha, seed=3, base="pattern")
    assert board.num_givens == int(alpha * order**4 + 0.5)
    assert board.is_consistent()
    if order <= 4:
        assert count_solutions(board, limit=1) == 1


def test_alpha_one_gives_the_complete_solution_and_zero_the_empty_board():
    assert generate(3, 1.0, seed=5, base="pattern").is_complete()
    assert generate(3, 0.0, seed=5, base="pattern") == Board.empty(3)


def test_half_is_rounded_up():
    assert generate(1, 0.5, seed=0, base="pattern").num_givens == 1


@settings(max_examples=40, deadline=None)
@given(order=st.integers(1, 5), alpha=st.floats(0.0, 1.0), seed=st.integers(0, 2**32))
def test_property_pattern_boards_keep_a_solution(order, alpha, seed):
    board = generate(order, alpha, seed=seed, base="pattern")
    full = generate(order, 1.0, seed=seed, base="pattern")
    assert board.num_givens == int(alpha * order**4 + 0.5)
    # the emptying only removes cells: every given is the base solution's symbol
    assert all(value in (0, full.cells[k]) for k, value in enumerate(board.cells))
    assert full.first_conflict() is None


# ---------------------------------------------------------------------------------------
# determinism


def test_same_seed_same_board_and_another_seed_another():
    assert generate(4, 0.3, seed=11, base="pattern") == generate(4, 0.3, seed=11, base="pattern")
    assert generate(4, 0.3, seed=11, base="pattern") != generate(4, 0.3, seed=12, base="pattern")
    assert generate(4, 0.3, seed=11, method="naive") == generate(4, 0.3, seed=11, method="naive")


def test_generate_many_uses_consecutive_seeds():
    boards = generate_many(3, 0.4, 3, seed=20, base="pattern")
    assert boards == [generate(3, 0.4, seed=20 + k, base="pattern") for k in range(3)]
    assert generate_many(3, 0.4, 0) == []


def test_cli_same_seed_gives_the_same_file(tmp_path, capsys):
    first, second, other = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    for path, seed in ((first, "4"), (second, "4"), (other, "5")):
        argv = ["generate", "--order", "3", "--alpha", "0.4", "--count", "5", "--seed", seed,
                "--base", "pattern", "-o", str(path)]
        assert main(argv) == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    lines = first.read_text().splitlines()
    assert len(lines) == 5
    assert all(line.startswith("3 ") and len(line) == 83 for line in lines)


def test_cli_writes_numeric_lines_beyond_order_six(capsys):
    assert main(["generate", "--order", "7", "--alpha", "0.5", "--seed", "1"]) == 0
    line = capsys.readouterr().out.strip()
    board = Board.parse(line)
    assert board.order == 7 and board.num_givens == int(0.5 * 7**4 + 0.5)
    assert board.is_consistent()


@pytest.mark.parametrize("argv", [
    ["generate", "--order", "3", "--alpha", "1.5"],
    ["generate", "--order", "0", "--alpha", "0.5"],
    ["generate", "--order", "3", "--alpha", "0.5", "--method", "random"],
])
def test_cli_rejects_bad_usage(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_unique_with_naive_is_a_one_line_error(capsys):
    argv = ["generate", "--order", "2", "--alpha", "0.5", "--unique", "--method", "naive"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("sudosat: ") and "unique" in err and err.count("\n") == 1


@pytest.mark.parametrize("kwargs, words", [
    ({"order": 3, "alpha": -0.1}, "alpha"),
    ({"order": 3, "alpha": 1.01}, "alpha"),
    ({"order": 0, "alpha": 0.5}, "order"),
    ({"order": 3, "alpha": 0.5, "method": "other"}, "method"),
    ({"order": 3, "alpha": 0.5, "base": "other"}, "base"),
    ({"order": 3, "alpha": 0.5, "method": "naive", "unique": True}, "unique"),
])
def test_bad_arguments_raise_instance_error(kwargs, words):
    with pytest.raises(InstanceError, match=words):
        generate(**kwargs)


# ---------------------------------------------------------------------------------------
# the naive method


@pytest.mark.parametrize("order, alpha", [(2, 0.6), (3, 0.3), (3, 0.8), (4, 0.5)])
def test_naive_boards_are_consistent_with_at_most_the_asked_givens(order, alpha):
    for board in generate_many(order, alpha, 10, seed=1, method="naive"):
        assert board.is_consistent()
        assert board.num_givens <= int(alpha * order**4 + 0.5)


def test_naive_fill_can_be_infeasible_which_the_solution_method_never_is():
    boards = generate_many(3, 0.5, 20, seed=0, method="naive")
    feasible = [count_solutions(board, limit=1) for board in boards]
    assert 0 in feasible, "a naive fill of half a 9x9 board is expected to be infeasible sometimes"
    solution_boards = generate_many(3, 0.5, 20, seed=0, base="pattern")
    assert all(count_solutions(board, 1) == 1 for board in solution_boards)


# ---------------------------------------------------------------------------------------
# the solver base and unique puzzles (our own solver)


@pytest.mark.parametrize("order", [1, 2, 3])
def test_solver_base_gives_feasible_boards(order):
    for board in generate_many(order, 0.4, 3, seed=2, base="solver"):
        assert board.num_givens == int(0.4 * order**4 + 0.5)
        assert count_solutions(board, limit=1) == 1


def test_solver_base_is_deterministic():
    assert generate(3, 1.0, seed=9, base="solver") == generate(3, 1.0, seed=9, base="solver")
    assert generate(3, 1.0, seed=9, base="solver") != generate(3, 1.0, seed=10, base="solver")


@pytest.mark.parametrize("order, alpha, seed", [(2, 0.0, 1), (3, 0.3, 1), (3, 0.0, 4)])
def test_unique_boards_have_exactly_one_solution(order, alpha, seed):
    board = generate(order, alpha, seed=seed, unique=True)
    assert board.num_givens >= int(alpha * order**4 + 0.5)
    assert count_solutions(board, limit=2) == 1


def test_unique_boards_stop_at_the_asked_givens_when_possible():
    board = generate(3, 0.5, seed=3, unique=True)
    assert board.num_givens == 41
    assert count_solutions(board, limit=2) == 1


@pytest.mark.slow
def test_unique_order_four_board_has_one_solution():
    board = generate(4, 0.5, seed=1, unique=True)
    assert board.num_givens == 128
    assert count_solutions(board, limit=2) == 1


# ---------------------------------------------------------------------------------------
# minimal puzzles: unique, and no given can go


@pytest.mark.parametrize("order, seed", [(2, 3), (3, 5), (3, 6)])
def test_minimal_boards_are_unique_and_lose_uniqueness_without_any_given(order, seed):
    board = generate(order, 0.9, seed=seed, minimal=True)  # alpha is ignored
    assert count_solutions(board, limit=2) == 1
    for i, j, _ in board.givens():
        assert count_solutions(board.with_value(i, j, 0), limit=2) == 2, (i, j)


def test_minimal_is_unique_with_every_cell_tried():
    assert generate(3, 0.0, seed=2, minimal=True) == generate(3, 0.0, seed=2, unique=True)


def test_boards_made_one_after_another_on_the_shared_solver_match_fresh_ones():
    """The uniqueness checker keeps one loaded solver for every board; a board's clause retires."""
    from sudosat.sudoku.incremental import forget_loaded

    forget_loaded()
    batch = generate_many(3, 0.0, 4, seed=20, minimal=True)
    for k, board in enumerate(batch):
        forget_loaded()
        assert generate(3, 0.0, seed=20 + k, minimal=True) == board
    assert count_solutions(batch[-1], limit=2) == 1


def test_uniqueness_checks_on_pysat_give_the_same_boards():
    # the pattern base: the complete solution does not depend on the solver
    ours = generate(3, 0.3, seed=8, unique=True, base="pattern")
    assert generate(3, 0.3, seed=8, unique=True, base="pattern", solver="pysat:minisat22") == ours


def test_uniqueness_checks_through_the_one_shot_fallback_give_the_same_boards():
    ours = generate(2, 0.0, seed=4, minimal=True, base="pattern")
    assert generate(2, 0.0, seed=4, minimal=True, base="pattern", solver="dpll") == ours


def test_cli_minimal_needs_no_alpha_and_alpha_is_needed_otherwise(capsys):
    assert main(["generate", "--order", "2", "--minimal", "--count", "2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.split()
    boards = [Board.parse(f"2 {cells}") for cells in lines[1::2]]
    assert len(boards) == 2 and all(count_solutions(b, limit=2) == 1 for b in boards)
    assert main(["generate", "--order", "2"]) == 2
    assert "--alpha is required" in capsys.readouterr().err


# The boards of a seed, recorded when the generator's cdcl settings were pinned: a change
# of cdcl's default search (its phases, restarts, clause keeping) must not change them.
PINNED_BOARDS = {
    (3, 0.4, 1): "3 078100430001000000900000006459000001030071004087900003805016000360085102000"
                 "009050",
    (4, 0.5, 2): "4 DC80092F657G30B101040C0800ABE600A0B0706120C08009600003008910005A0801GA000D00"
                 "09CE500G003EC200AF0800206010A000G00000A0F09004G05200060D810000000C350B0900AD"
                 "00000802000000539B0640A70A0C9F0001080B60000005D6G000100480063700D09020GB92DA"
                 "0GC4B605038003050080002F6000",
}


@pytest.mark.parametrize(("order", "alpha", "seed"), list(PINNED_BOARDS))
def test_a_seed_gives_the_same_board_whatever_cdcls_default_search(order, alpha, seed):
    assert generate(order, alpha, seed=seed).to_line() == PINNED_BOARDS[(order, alpha, seed)]


@pytest.mark.parametrize("limit_ms", [None, 60_000])
def test_a_uniqueness_check_without_an_answer_is_never_read_as_unique(monkeypatch, limit_ms):
    # A solver that gives up (UNKNOWN, with time left or no limit at all) settles nothing:
    # reading its silence as "unique" would hand out a puzzle with several solutions.
    from sudosat.errors import SolverError
    from sudosat.sat.result import Result, Status, Stop
    from sudosat.sudoku import incremental

    real = incremental.loaded_rules

    class GivesUp:
        def __init__(self, solver):
            self.solver = solver

        def solve(self, *args, **kwargs):
            return Result(Status.UNKNOWN, None, {}, 0.0, "cdcl", stop=Stop.GAVE_UP)

        def __getattr__(self, name):
            return getattr(self.solver, name)

    def loaded(*args, **kwargs):
        solver, encoded = real(*args, **kwargs)
        return GivesUp(solver), encoded

    monkeypatch.setattr(incremental, "loaded_rules", loaded)
    with pytest.raises(SolverError, match="gave no answer on a uniqueness check"):
        generate(3, 0.0, seed=2, minimal=True, time_limit_ms=limit_ms)


def test_local_search_cannot_vouch_for_uniqueness():
    # walksat cannot prove that a puzzle has no second solution: it gives up (UNKNOWN),
    # which used to read as "unique" and hand out a board nobody had checked.
    from sudosat.errors import SolverError

    with pytest.raises(SolverError, match="walksat gave no answer on a uniqueness check"):
        generate(3, 0.3, seed=8, unique=True, base="pattern", solver="walksat")
