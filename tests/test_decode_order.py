"""``decode`` without ``--order``: the order comes from the instance or the model's count.

An rcv model over 111..999 can only be of order 3, a course model over N⁶ variables only of
order N: every variable count belongs to at most one order (V(N) <= count < V(N+1)), so decode
reads the model in that order and checks it as with ``--order``. An answer that names no count
and no variable cannot tell (exit 2: the command lacks --order); a count below every order's
fits no board (exit 1: the file is wrong).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudosat.cli import main, sat_sn_main
from sudosat.errors import DecodeError
from sudosat.run.generate import pattern_solution
from sudosat.sat.cnf import format_solution
from sudosat.sat.result import Status
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import (
    ENCODINGS,
    FORMAT_ENCODINGS,
    check_model_count,
    decode_model,
    model_order,
    model_size,
)
from sudosat.sudoku.numbering import get_numbering
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, vu_rules_file

FULL = [name for name, spec in {**ENCODINGS, **FORMAT_ENCODINGS}.items() if not spec.reduced]


def run(argv, capsys):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def model_of(board: Board, numbering: str) -> list[int]:
    """The cell model of a complete board over 1..top; names no cell has are false."""
    number = get_numbering(numbering, board.order)
    model = []
    for var in range(1, number.top + 1):
        meaning = number.cell_of(var)
        true = meaning is not None and board.value(meaning[0], meaning[1]) == meaning[2]
        model.append(var if true else -var)
    return model


def test_decode_infers_order_3_from_a_vu_out_file(tmp_path, capsys):
    """The acceptance case: ``decode --numbering rcv FILE.out`` on a 9x9 ``SAT -Sn`` answer."""
    example = tmp_path / "example.txt"
    example.write_text(COURSE_EXAMPLE + "\n")
    code, units, err = run(["encode", "--format", "vu", example], capsys)
    assert code == 0, err
    formula = tmp_path / "sudoku.cnf"
    formula.write_text(vu_rules_file().read_text() + units)
    assert sat_sn_main(["-S2", str(formula)]) == 0
    capsys.readouterr()
    code, out, err = run(["decode", "--numbering", "rcv", f"{formula}.out"], capsys)
    assert (code, out) == (0, COURSE_SOLUTION + "\n"), err


@pytest.mark.parametrize("style", ["course", "competition", "units"])
@pytest.mark.parametrize("numbering", ["course", "rcv"])
def test_every_solution_format_tells_its_order(tmp_path, capsys, style, numbering):
    solution = Board.parse(COURSE_SOLUTION)
    model = model_of(solution, numbering)
    path = tmp_path / "answer.sol"
    path.write_text(format_solution(Status.SAT, model, len(model), style))
    code, out, err = run(["decode", path, "--numbering", numbering], capsys)
    assert (code, out) == (0, COURSE_SOLUTION + "\n"), err


def test_the_instance_gives_the_order(tmp_path, capsys):
    example = tmp_path / "example.txt"
    example.write_text(COURSE_EXAMPLE + "\n")
    code, _, err = run(["encode", example, "--encoding", "optimised", "-o", tmp_path / "o.cnf"],
                       capsys)
    assert code == 0, err
    code, _, err = run(["sat", tmp_path / "o.cnf", "-o", tmp_path / "o.sol"], capsys)
    assert code == 10, err
    code, out, err = run(["decode", tmp_path / "o.sol", "--encoding", "optimised",
                          "--instance", example], capsys)
    assert (code, out) == (0, COURSE_SOLUTION + "\n"), err


def test_an_unsat_answer_with_a_count_names_its_order(tmp_path, capsys):
    path = tmp_path / "answer.out"
    path.write_text("p cnf 999 0\n")
    code, out, err = run(["decode", path, "--numbering", "rcv"], capsys)
    assert (code, out) == (0, "3 UNSAT\n"), err


@pytest.mark.parametrize(
    "text", ["s UNSATISFIABLE\n", "s UNKNOWN\n"], ids=["competition unsat", "competition unknown"]
)
def test_an_answer_without_count_or_variables_needs_order_exit_2(tmp_path, capsys, text):
    """Nothing in the file is wrong; the command lacks what the file cannot say: usage, exit 2."""
    path = tmp_path / "answer.sol"
    path.write_text(text)
    code, out, err = run(["decode", path], capsys)
    assert (code, out) == (2, "")
    assert "pass --order N" in err and len(err.splitlines()) == 1, err
    code, out, err = run(["decode", path, "--order", 3], capsys)
    assert code == 0 and out.startswith("3 "), err


def test_a_count_below_every_order_is_bad_input_exit_1(tmp_path, capsys):
    path = tmp_path / "answer.out"
    path.write_text("p cnf 50 0\n")
    code, out, err = run(["decode", path, "--numbering", "rcv"], capsys)
    assert (code, out) == (1, "")
    assert "fewer than any board's" in err and "has 111" in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("model_numbering", "read_as", "reason"),
    [
        ("course", "rcv", "beyond the 444 variables, is true"),  # 729 names read as order 2 rcv
        ("rcv", "course", "beyond the 729 variables, is true"),  # 999 names read as order 3
    ],
)
def test_a_model_of_another_numbering_is_still_refused(tmp_path, capsys, model_numbering,
                                                        read_as, reason):
    model = model_of(Board.parse(COURSE_SOLUTION), model_numbering)
    path = tmp_path / "answer.sol"
    path.write_text(format_solution(Status.SAT, model, len(model)))
    code, out, err = run(["decode", path, "--numbering", read_as], capsys)
    assert (code, out) == (1, "")
    assert reason in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("numbering", ["course", "rcv"])
@pytest.mark.parametrize("encoding", ["course", "course-seq", "course-product"])
def test_each_count_belongs_to_exactly_one_order(numbering, encoding):
    sizes = [model_size(order, encoding, numbering) for order in range(1, 7)]
    assert sizes == sorted(set(sizes))  # strictly growing, so the ranges do not overlap
    for order, (low, high) in enumerate(zip(sizes, sizes[1:], strict=False), start=1):
        for count in (low, low + 1, high - 1):
            assert model_order(count, encoding, numbering) == order
            check_model_count(count, order, encoding, numbering)  # accepted
            for other in {order - 1, order + 1} - {0}:
                with pytest.raises(DecodeError):
                    check_model_count(count, other, encoding, numbering)
    assert model_order(sizes[0] - 1, encoding, numbering) is None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.integers(1, 4), seed=st.integers(0, 2**20),
       numbering=st.sampled_from(["course", "rcv"]), extra=st.integers(0, 50))
def test_without_order_decode_reads_what_the_told_order_reads(order, seed, numbering, extra):
    """Inferring the order never accepts what the one fitting ``--order`` refuses, and back."""
    solution = pattern_solution(order, random.Random(seed))
    model = model_of(solution, numbering)
    model += [-(len(model) + k) for k in range(1, extra + 1)]  # declared, false, no cell's
    count = len(model)
    inferred = model_order(count, "course", numbering)
    assert inferred == order or count >= model_size(order + 1, "course", numbering)
    if inferred == order:
        assert decode_model(model, order, numbering=numbering, num_vars=count) == solution
    else:
        with pytest.raises(DecodeError):
            decode_model(model, order, numbering=numbering, num_vars=count)


@pytest.mark.parametrize("encoding", FULL)
def test_every_full_encoding_has_an_order_for_its_own_size(encoding):
    for order in (1, 2, 3):
        for numbering in ("course", "rcv"):
            assert model_order(model_size(order, encoding, numbering), encoding,
                               numbering) == order
