"""The Dartmouth CNF format: read, write, detect; its Sudoku files solve and decode."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudosat.cli import main
from sudosat.errors import DimacsError
from sudosat.sat.cnf import CNF, parse_dimacs
from sudosat.sat.dartmouth import (
    DARTMOUTH_HINT,
    looks_like_dartmouth,
    parse_dartmouth,
    read_dartmouth,
    to_dartmouth,
)
from sudosat.sudoku.board import Board
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION


def run(argv, capsys):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def dartmouth_rules(size: int = 4, order: int = 2) -> list[str]:
    """Rules written by hand from the assignment's description (not by our encoder).

    Cells: at least one value, pairwise at most one; rows, columns, boxes: every
    value at least once. Names are the digits row, column, value.
    """
    digits = range(1, size + 1)
    lines = []
    for r in digits:
        for c in digits:
            lines.append(" ".join(f"{r}{c}{v}" for v in digits))
            lines += [f"-{r}{c}{a} -{r}{c}{b}" for a, b in combinations(digits, 2)]
    for v in digits:
        for k in digits:
            lines.append(" ".join(f"{k}{c}{v}" for c in digits))  # row k
            lines.append(" ".join(f"{r}{k}{v}" for r in digits))  # column k
            top, left = (k - 1) // order * order, (k - 1) % order * order
            box = [f"{top + a + 1}{left + b + 1}{v}" for a in range(order) for b in range(order)]
            lines.append(" ".join(box))
    return lines


clauses = st.lists(
    st.lists(st.integers(1, 999).flatmap(lambda v: st.sampled_from([v, -v])), min_size=1,
             max_size=6),
    min_size=1, max_size=30,
)


@given(clauses)
def test_write_then_read_is_the_same_formula(clause_list):
    cnf = CNF(clause_list)
    back = parse_dartmouth(to_dartmouth(cnf))
    assert back.clauses == cnf.clauses and back.num_vars == cnf.num_vars


def test_the_format_has_no_header_no_zero_no_comment():
    text = to_dartmouth(CNF([[111, -112], [113]]))
    assert text == "111 -112\n113\n"


@pytest.mark.parametrize(("text", "line", "words"), [
    ("111 112\n111 0\n", 2, "'0' is not a literal"),
    ("p cnf 3 1\n1 2 3 0\n", 1, "no header and no comments"),
    ("111\nc a comment\n", 2, "no header and no comments"),
    ("111 x12\n", 1, "not a literal: 'x12'"),
])
def test_malformed_text_is_named_by_line_and_token(text, line, words):
    with pytest.raises(DimacsError) as error:
        parse_dartmouth(text, "f.cnf")
    assert error.value.line == line and words in str(error.value)
    assert str(error.value).startswith(f"f.cnf:{line}: ")


def test_empty_clause_cannot_be_written():
    with pytest.raises(ValueError, match="empty clause"):
        to_dartmouth(CNF([[1], []]))


def test_read_dartmouth_reads_a_file_and_names_it_in_its_errors(tmp_path):
    rules = tmp_path / "rules.cnf"
    rules.write_text("111 112\n-111 -112\n")
    assert read_dartmouth(rules) == parse_dartmouth(rules.read_text())
    assert read_dartmouth(str(rules)).clauses == ((111, 112), (-111, -112))
    rules.write_text("111 112\n-111 0\n")
    with pytest.raises(DimacsError, match="rules.cnf"):
        read_dartmouth(rules)
    with pytest.raises(DimacsError, match="nothing.cnf: no such file"):
        read_dartmouth(tmp_path / "nothing.cnf")


def test_detection_and_the_dimacs_readers_hint():
    rules = "\n".join(dartmouth_rules()) + "\n"
    assert looks_like_dartmouth(rules)
    assert not looks_like_dartmouth("1 -2\n3\n")  # not rcv names
    assert not looks_like_dartmouth("p cnf 999 1\n111 0\n")
    with pytest.raises(DimacsError, match=DARTMOUTH_HINT):
        parse_dimacs(rules, "rules.cnf")
    with pytest.raises(DimacsError) as error:
        parse_dimacs("1 2 0\n", "plain.cnf")
    assert "Dartmouth" not in str(error.value)


def test_a_handwritten_4x4_puzzle_solves_with_format_dartmouth(tmp_path, capsys):
    puzzle = Board.parse("2 1000003000200004")
    givens = [f"{i + 1}{j + 1}{d}" for i, j, d in puzzle.givens()]
    path = tmp_path / "puzzle.cnf"
    path.write_text("\n".join(dartmouth_rules() + givens) + "\n")
    code, _, err = run(["sat", path], capsys)
    assert code == 1 and DARTMOUTH_HINT in err and f"{path}:1:" in err
    solution = tmp_path / "puzzle.sol"
    code, _, err = run(["sat", path, "--format", "dartmouth", "-o", solution], capsys)
    assert code == 10, err
    code, out, err = run(["decode", solution, "--order", 2, "--numbering", "rcv"], capsys)
    assert code == 0, err
    board = Board.parse(out)
    assert board.is_complete() and board.is_consistent()
    assert all(board.value(i, j) == d for i, j, d in puzzle.givens())


def test_a_handwritten_unsat_file_answers_unsat(tmp_path, capsys):
    path = tmp_path / "clash.cnf"
    path.write_text("\n".join(dartmouth_rules() + ["111", "121"]) + "\n")  # two 1s in row 1
    code, out, err = run(["sat", path, "--format", "dartmouth"], capsys)
    assert code == 20, err
    assert "s cnf 0 444" in out


def test_encode_format_dartmouth_is_the_assignments_rules_plus_givens(tmp_path, capsys):
    instance = tmp_path / "example.txt"
    instance.write_text(COURSE_EXAMPLE + "\n")
    code, out, err = run(["encode", "--format", "dartmouth", instance], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 3240 + 27  # rules.cnf holds 3,240 clauses
    assert not any(token == "0" for line in lines for token in line.split())
    ours = {frozenset(map(int, line.split())) for line in lines}
    by_hand = {frozenset(map(int, line.split())) for line in dartmouth_rules(9, 3)}
    assert by_hand <= ours and len(ours - by_hand) == 27


def test_encoded_dartmouth_file_round_trips_to_the_solution(tmp_path, capsys):
    # The course example with all but 6 cells given keeps the test fast.
    solution = Board.parse(COURSE_SOLUTION)
    puzzle = Board(3, [0 if k % 13 == 0 else v for k, v in enumerate(solution.cells)])
    instance = tmp_path / "nearly.txt"
    instance.write_text(puzzle.to_line() + "\n")
    cnf, sol = tmp_path / "nearly.cnf", tmp_path / "nearly.sol"
    assert run(["encode", "--format", "dartmouth", instance, "-o", cnf], capsys)[0] == 0
    assert run(["sat", cnf, "--format", "dartmouth", "-o", sol], capsys)[0] == 10
    code, out, err = run(["decode", sol, "--order", 3, "--numbering", "rcv",
                          "--encoding", "dartmouth", "--instance", instance], capsys)
    assert (code, out) == (0, COURSE_SOLUTION + "\n"), err


def test_decode_reads_a_dartmouth_assignment(tmp_path, capsys):
    solution = Board.parse(COURSE_SOLUTION)
    lines = [f"{'' if solution.value(r, c) == v else '-'}{r + 1}{c + 1}{v}"
             for r in range(9) for c in range(9) for v in range(1, 10)]
    path = tmp_path / "example.sol"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(["decode", path, "--order", 3, "--format", "dartmouth"], capsys)
    assert (code, out) == (0, COURSE_SOLUTION + "\n"), err
    code, _, err = run(["decode", path, "--order", 2, "--format", "dartmouth"], capsys)
    assert code == 1 and "beyond the 444 variables" in err
