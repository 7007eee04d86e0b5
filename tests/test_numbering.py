"""Numberings as objects: course and rcv, their inverses and variable sets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudosat.errors import EncodingError
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import cell_of, encode, encode_numbered, variable
from sudosat.sudoku.numbering import NUMBERINGS, get_numbering


@given(order=st.integers(1, 6), name=st.sampled_from(list(NUMBERINGS)), data=st.data())
def test_variable_and_cell_of_are_inverse(order, name, data):
    number = get_numbering(name, order)
    size = order * order
    i, j = data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size - 1))
    d = data.draw(st.integers(1, size))
    var = number.variable(i, j, d)
    assert number.cell_of(var) == (i, j, d)
    assert 1 <= var <= number.top


@pytest.mark.parametrize("name", list(NUMBERINGS))
@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_the_variable_set_has_n6_distinct_members_and_nothing_else_names_a_cell(name, order):
    number = get_numbering(name, order)
    members = list(number.variables())
    assert len(members) == len(set(members)) == number.count == order**6
    assert max(members) == number.top
    named = {var for var in range(1, number.top + 1) if number.cell_of(var) is not None}
    assert named == set(members)
    assert number.cell_of(0) is None and number.cell_of(number.top + 1) is None


def test_rcv_is_the_decimal_digits_up_to_order_3():
    rcv = get_numbering("rcv", 3)
    assert rcv.variable(0, 0, 1) == 111 and rcv.variable(8, 8, 9) == 999
    assert rcv.variable(4, 2, 7) == 537
    assert min(get_numbering("rcv", 2).variables()) == 111
    assert get_numbering("rcv", 2).top == 444
    assert rcv.cell_of(110) is None and rcv.cell_of(190) is None  # digit 0 names no cell


def test_rcv_from_order_4_is_the_vu_16x16_rule():
    rcv = get_numbering("rcv", 4)
    for r, c, v in [(1, 1, 1), (16, 16, 16), (3, 9, 12)]:
        assert rcv.variable(r - 1, c - 1, v) == 289 * r + 17 * c + v
    assert rcv.top == 4912


@pytest.mark.parametrize("order", [1, 2, 3])
def test_course_numbering_is_the_encoding_modules(order):
    number = get_numbering("course", order)
    for var in range(1, order**6 + 1):
        assert number.cell_of(var) == cell_of(var, order)
        assert variable(*number.cell_of(var), order) == var


def test_unknown_numbering_names_the_known_ones():
    with pytest.raises(EncodingError, match="course, rcv"):
        get_numbering("vu", 3)


@pytest.mark.parametrize("encoding", ["course", "extended", "course-seq", "dartmouth"])
def test_an_rcv_encoding_is_the_course_one_renamed(encoding):
    board = Board.parse("2 1000000000000200")
    course = encode(board, encoding)
    rcv = encode_numbered(board, encoding, "rcv")
    number = get_numbering("rcv", 2)
    aux_shift = number.top - 64

    def renamed(lit):
        var = abs(lit)
        new = number.from_course(var) if var <= 64 else var + aux_shift
        return new if lit > 0 else -new

    assert list(rcv) == [[renamed(lit) for lit in clause] for clause in course.cnf]
    assert rcv.num_vars == course.num_vars + aux_shift


def test_reduced_encodings_have_no_rcv_numbering():
    with pytest.raises(EncodingError, match="no rcv numbering"):
        encode_numbered(Board.empty(2), "optimised", "rcv")


def test_cli_encode_numbering_rcv_names_cells_by_digits(tmp_path, capsys):
    from sudosat.cli import main
    from sudosat.sat.cnf import parse_dimacs

    instance = tmp_path / "one.txt"
    instance.write_text("2 1000000000000000\n")
    assert main(["encode", str(instance), "--numbering", "rcv"]) == 0
    cnf = parse_dimacs(capsys.readouterr().out)
    assert cnf.num_vars == 444
    assert (111,) in cnf.clauses  # the given: row 1, column 1, value 1
    assert (111, 112, 113, 114) in cnf.clauses
