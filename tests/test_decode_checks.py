"""A decoder that checks what it is given: wrong inputs are refused, never printed."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudosat.cli import main
from sudosat.errors import DecodeError
from sudosat.run.generate import pattern_solution
from sudosat.sat.cnf import CNF, format_solution
from sudosat.sat.result import Status
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import (
    ENCODINGS,
    FORMAT_ENCODINGS,
    decode_model,
    encode,
    encode_numbered,
    get_encoding,
)
from sudosat.sudoku.numbering import get_numbering
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION
from tests.test_decode_order import model_of

SOLUTION = Board.parse(COURSE_SOLUTION)
PUZZLE = Board.parse(COURSE_EXAMPLE)


def run(argv, capsys):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def course_model(board: Board) -> list[int]:
    """The course-numbered model (course encoding) of a complete board."""
    number = get_numbering("course", board.order)
    return [var if board.value(*number.cell_of(var)[:2]) == number.cell_of(var)[2] else -var
            for var in range(1, number.count + 1)]


def rcv_model(board: Board) -> list[int]:
    """A model over 1..top in the rcv numbering; names no cell has are false."""
    return model_of(board, "rcv")


def with_flips(model: list[int], *flips: int) -> list[int]:
    return [-lit if abs(lit) in flips else lit for lit in model]


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return path


def course_solution_text(model: list[int]) -> str:
    return format_solution(Status.SAT, model, len(model), "course")


def competition_text(model: list[int]) -> str:
    return format_solution(Status.SAT, model, len(model), "competition")


# Each case: (what, solution text, extra decode arguments, expected words of the reason).
# Cell (1, 1) of the course solution holds 8: course variable 8; symbol 2 there is variable 2.
WRONG_INPUTS = [
    ("order too large", course_solution_text(course_model(SOLUTION)), ["--order", 4],
     "over 729 variables; an order-4 course encoding in the course numbering has 4096"),
    ("order too small", course_solution_text(course_model(SOLUTION)), ["--order", 2],
     "over 729 variables"),
    ("rcv model read in the course numbering", course_solution_text(rcv_model(SOLUTION)),
     ["--order", 3], "over 999 variables; an order-3 course encoding in the course numbering"),
    ("course model read in the rcv numbering", course_solution_text(course_model(SOLUTION)),
     ["--order", 3, "--numbering", "rcv"], "has 999"),
    ("model too short", competition_text(course_model(SOLUTION)[:700]), ["--order", 3],
     "gives no value to variable 701"),
    ("model too long", competition_text(course_model(SOLUTION) + [730]), ["--order", 3],
     "variable 730, beyond the 729 variables, is true"),
    ("units .out missing a variable",
     "p cnf 999 728\n" + "".join(f"{lit} 0\n" for lit in rcv_model(SOLUTION)
                                 if abs(lit) != 111 and get_numbering("rcv", 3).cell_of(abs(lit))),
     ["--order", 3, "--numbering", "rcv"], "gives no value to variable 111"),
    ("two symbols in a cell", course_solution_text(with_flips(course_model(SOLUTION), 2)),
     ["--order", 3], "cell (1, 1) holds two symbols, 2 and 8"),
    ("no symbol in a cell", course_solution_text(with_flips(course_model(SOLUTION), 8)),
     ["--order", 3], "cell (1, 1) holds no symbol"),
    ("board breaks a rule",  # cells (1, 1) = 8 and (1, 2) = 1 swapped: columns 1, 2 break
     course_solution_text(with_flips(course_model(SOLUTION), 8, 1, 9 + 1, 9 + 8)),
     ["--order", 3], "not a solved board: column 1 holds"),
    ("unsat answer of another order", "s cnf 0 729\n", ["--order", 4],
     "over 729 variables"),
]


@pytest.mark.parametrize(("what", "text", "extra", "reason"), WRONG_INPUTS,
                         ids=[case[0] for case in WRONG_INPUTS])
def test_wrong_decoder_input_is_refused_with_its_reason(what, text, extra, reason, tmp_path,
                                                         capsys):
    path = write(tmp_path, "answer.sol", text)
    code, out, err = run(["decode", path, *extra], capsys)
    assert code == 1, what
    assert out == ""
    assert err.startswith(f"sudosat: {path}: ")
    assert reason in err, err
    assert len(err.splitlines()) == 1


def test_a_board_against_the_wrong_instance_is_refused(tmp_path, capsys):
    other = PUZZLE.with_value(0, 0, 5)  # the solution has 8 in cell (1, 1)
    instance = write(tmp_path, "other.txt", other.to_line() + "\n")
    path = write(tmp_path, "answer.sol", course_solution_text(course_model(SOLUTION)))
    code, out, err = run(["decode", path, "--order", 3, "--instance", instance], capsys)
    assert (code, out) == (1, "")
    assert "not a solution of the instance: cell (1, 1) changes the given 5 to 8" in err


def test_encoding_that_needs_the_instance_is_a_usage_error_saying_why(tmp_path, capsys):
    path = write(tmp_path, "answer.sol", course_solution_text(course_model(SOLUTION)))
    code, out, err = run(["decode", path, "--order", 3, "--encoding", "optimised"], capsys)
    assert (code, out) == (2, "")
    assert "needs --instance" in err and "givens" in err


def test_a_full_encoding_decodes_without_the_instance(tmp_path, capsys):
    path = write(tmp_path, "answer.sol", course_solution_text(course_model(SOLUTION)))
    code, out, err = run(["decode", path, "--order", 3, "--encoding", "extended"], capsys)
    assert (code, out) == (0, COURSE_SOLUTION + "\n"), err


def test_an_unknown_answer_decodes_as_timeout_never_unsat(tmp_path, capsys):
    path = write(tmp_path, "answer.sol", "s cnf -1 729\n")
    code, out, _ = run(["decode", path, "--order", 3], capsys)
    assert (code, out) == (0, "3 TIMEOUT\n")


# -- every encoding, orders 1..4: the solution comes back, every other reading is refused -----


def solved_model(cnf: CNF, fixed: list[int]) -> list[int]:
    """A model of `cnf` that makes the literals `fixed` true (MiniSat through PySAT)."""
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve(assumptions=fixed)
        values = {abs(lit): lit for lit in solver.get_model()}
    return [values.get(var, -var) for var in range(1, cnf.num_vars + 1)]


def puzzles(order_range=(1, 4)):
    @st.composite
    def build(draw):
        order = draw(st.integers(*order_range))
        solution = pattern_solution(order, random.Random(draw(st.integers(0, 2**20))))
        keep = draw(st.lists(st.booleans(), min_size=order**4, max_size=order**4))
        puzzle = Board(order, [v if k else 0 for v, k in zip(solution.cells, keep, strict=True)])
        return solution, puzzle

    return build()


def refused(model: list[int], order: int, **options) -> bool:
    try:
        decode_model(model, order, **options)
    except DecodeError:
        return True
    return False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=puzzles(), encoding=st.sampled_from([*ENCODINGS, *FORMAT_ENCODINGS]))
def test_decode_of_every_encoding_is_the_solution_and_other_readings_are_refused(case, encoding):
    solution, puzzle = case
    order = puzzle.order
    encoded = encode(puzzle, encoding)
    fixed = [var for i, j, d in solution.givens()
             if (var := encoded.variable(i, j, d)) is not None]
    model = solved_model(encoded.cnf, fixed)
    reduced = get_encoding(encoding).reduced
    instance = puzzle if reduced else None
    options = {"encoding": encoding, "instance": instance}
    assert decode_model(model, order, **options) == solution
    assert decode_model(model, order, encoding=encoding, instance=puzzle) == solution
    for other in range(1, 6):
        if other != order:
            other_instance = None if not reduced else Board.empty(other)
            assert refused(model, other, encoding=encoding, instance=other_instance)
            assert refused(model, other, encoding=encoding, instance=other_instance,
                           num_vars=len(model))
    assert refused(model, order, numbering="rcv", **options)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=puzzles(), encoding=st.sampled_from(
    [name for name, spec in {**ENCODINGS, **FORMAT_ENCODINGS}.items() if not spec.reduced]))
def test_rcv_models_decode_only_in_the_rcv_numbering_and_order(case, encoding):
    solution, puzzle = case
    order = puzzle.order
    number = get_numbering("rcv", order)
    cnf = encode_numbered(puzzle, encoding, "rcv")
    model = solved_model(cnf, [number.variable(i, j, d) for i, j, d in solution.givens()])
    assert decode_model(model, order, encoding=encoding, numbering="rcv") == solution
    assert refused(model, order, encoding=encoding, numbering="course")
    for other in range(1, 6):
        if other != order:
            assert refused(model, other, encoding=encoding, numbering="rcv")
            assert refused(model, other, encoding=encoding, numbering="course")


def test_a_partial_assignment_of_exactly_the_cell_variables_decodes():
    number = get_numbering("rcv", 3)
    values = {var: number.cell_of(var)[2] == SOLUTION.value(*number.cell_of(var)[:2])
              for var in number.variables()}
    assert decode_model(values, 3, numbering="rcv", num_vars=999) == SOLUTION
    del values[532]
    with pytest.raises(DecodeError, match="no value to variable 532"):
        decode_model(values, 3, numbering="rcv")


def test_unknown_encoding_is_a_usage_error(tmp_path, capsys):
    """An unknown --encoding is a mistake in the command, not in the file: exit 2, one line."""
    path = tmp_path / "answer.sol"
    path.write_text(course_solution_text(course_model(SOLUTION)))
    with pytest.raises(SystemExit) as stop:
        main(["decode", str(path), "--order", "3", "--encoding", "nonsense"])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert "unknown encoding 'nonsense'" in err
    assert len(err.splitlines()) == 1
