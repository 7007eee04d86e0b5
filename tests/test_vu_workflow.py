"""The VU "SAT -Sn" assignment end to end: its rules, our rcv units, .out, decode."""

from __future__ import annotations

import itertools
import warnings

import pytest

from sudosat.cli import main, sat_sn_main
from sudosat.sat.assignment import read_assignment
from sudosat.sat.cnf import parse_dimacs
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import encode_numbered
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, hard_puzzles, vu_rules_file


def run(argv, capsys):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def clause_set(cnf) -> set[frozenset[int]]:
    return {frozenset(clause) for clause in cnf}


def assignment_rules() -> list[list[int]]:
    """The assignment's 9x9 rules from their definition, in its rcv names 100r + 10c + v.

    Every cell holds a value and no two; every row, column and box holds every value, and
    none twice. Its ``sudoku-rules-9x9.txt`` lists these clauses (11,988 of them, a pair of
    cells in one row and one box written twice) under the header ``p cnf 999 12016``.
    """
    digits = range(1, 10)
    rows = [[(r, c) for c in digits] for r in digits]
    columns = [[(r, c) for r in digits] for c in digits]
    boxes = [[(3 * (b // 3) + i // 3 + 1, 3 * (b % 3) + i % 3 + 1) for i in range(9)]
             for b in range(9)]
    clauses = []
    for r, c in (cell for row in rows for cell in row):
        clauses.append([100 * r + 10 * c + v for v in digits])
        clauses += [[-(100 * r + 10 * c + v), -(100 * r + 10 * c + w)]
                    for v, w in itertools.combinations(digits, 2)]
    for unit in rows + columns + boxes:
        for v in digits:
            clauses.append([100 * r + 10 * c + v for r, c in unit])
            clauses += [[-(100 * r + 10 * c + v), -(100 * s + 10 * d + v)]
                        for (r, c), (s, d) in itertools.combinations(unit, 2)]
    return clauses


@pytest.fixture
def example_file(tmp_path):
    path = tmp_path / "example.txt"
    path.write_text(COURSE_EXAMPLE + "\n")
    return path


def test_vu_units_are_the_givens_in_rcv_without_header(example_file, capsys):
    code, out, err = run(["encode", "--format", "vu", example_file], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == Board.parse(COURSE_EXAMPLE).num_givens == 27
    # The example's first given is 4 in row 1, column 4; the last 1 in row 9, column 8.
    assert lines[0] == "144 0" and lines[-1] == "981 0"
    assert not any(line.startswith(("p", "c")) for line in lines)


@pytest.mark.parametrize("strategy", [1, 2, 3])
def test_assignment_rules_plus_our_units_solve_and_decode(example_file, tmp_path, capsys,
                                                          strategy):
    rules = vu_rules_file().read_text()
    code, units, err = run(["encode", "--format", "vu", example_file], capsys)
    assert code == 0, err
    formula = tmp_path / "sudoku.cnf"
    formula.write_text(rules + units)
    assert sat_sn_main([f"-S{strategy}", str(formula)]) == 0
    assert capsys.readouterr().out.startswith("s SATISFIABLE")
    out_file = tmp_path / "sudoku.cnf.out"
    answer = read_assignment(out_file.read_text())
    assert answer.status is Status.SAT
    assert len(answer.values) == 729  # the variables that exist, not the header's 999
    assert sum(answer.values.values()) == 81
    code, board, err = run(["decode", "--numbering", "rcv", "--order", 3, out_file], capsys)
    assert code == 0, err
    assert board == COURSE_SOLUTION + "\n"


def test_our_rcv_rules_equal_the_assignment_rules_as_a_set(example_file, capsys):
    defined = assignment_rules()
    theirs = {frozenset(clause) for clause in defined}
    ours = encode_numbered(Board.empty(3), "extended", "rcv")
    assert ours.num_vars == 999 and ours.num_clauses == len(defined) == 11988
    assert clause_set(ours) == theirs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the assignment's header: 12016 clauses declared
        assert clause_set(parse_dimacs(vu_rules_file().read_text())) == theirs
    # The CLI's --with-rules is the same rules plus the givens' units.
    code, out, err = run(["encode", "--format", "vu", "--with-rules", example_file], capsys)
    assert code == 0, err
    written = parse_dimacs(out)
    units = {frozenset([lit]) for lit in (144, 199, 222)}
    assert clause_set(written) - theirs >= units
    assert clause_set(written) - theirs == {
        clause for clause in clause_set(written) if len(clause) == 1
    }
    assert len(clause_set(written)) == len(theirs) + 27


def test_with_rules_alone_solves_with_sat_sn(example_file, tmp_path, capsys):
    target = tmp_path / "whole.cnf"
    code, _, err = run(["encode", "--format", "vu", "--with-rules", example_file, "-o", target],
                       capsys)
    assert code == 0, err
    assert sat_sn_main(["-S3", str(target)]) == 0
    capsys.readouterr()
    code, out, err = run(["decode", "--numbering", "rcv", "--order", 3, f"{target}.out"], capsys)
    assert (code, out) == (0, COURSE_SOLUTION + "\n"), err


def test_a_time_out_writes_no_out_file_and_says_so(tmp_path, capsys):
    formula = tmp_path / "php.cnf"
    formula.write_text(pigeonhole(9).to_dimacs())
    stale = tmp_path / "php.cnf.out"
    stale.write_text("p cnf 90 0\n")  # an earlier answer must not pass for this one
    assert sat_sn_main(["-S1", str(formula), "-T", "50"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("s UNKNOWN")
    assert "no answer within the time limit" in err and "not written" in err
    assert not stale.exists()


def test_unsat_still_writes_an_empty_assignment(tmp_path, capsys):
    formula = tmp_path / "u.cnf"
    formula.write_text("p cnf 2 3\n1 0\n-1 2 0\n-2 0\n")
    assert sat_sn_main(["-S2", str(formula)]) == 0
    assert (tmp_path / "u.cnf.out").read_text() == "p cnf 2 0\n"
    code, out, _ = run(["decode", "--order", 1, "--numbering", "rcv", tmp_path / "u.cnf.out"],
                       capsys)
    assert code == 1  # 2 variables are no order-1 rcv model (111), even an unsatisfiable one


def test_an_sdk_file_of_many_lines_gives_one_cnf_per_puzzle(tmp_path, capsys):
    puzzles = hard_puzzles(4)
    source = tmp_path / "four.sdk"
    source.write_text("\n".join(puzzles[:2] + ["not a puzzle"] + puzzles[2:]) + "\n")
    out_dir = tmp_path / "cnfs"
    out_dir.mkdir()
    code, _, err = run(["encode", "--format", "vu", source, "-o", out_dir], capsys)
    assert code == 1  # one bad line: named, and the others still written
    assert f"{source}:3:" in err
    assert sorted(path.name for path in out_dir.iterdir()) == [
        "four-1.cnf", "four-2.cnf", "four-4.cnf", "four-5.cnf"
    ]
    givens = sum(ch not in ".0" for ch in puzzles[3])
    assert len((out_dir / "four-5.cnf").read_text().splitlines()) == givens


def test_vu_format_refuses_the_course_numbering(example_file, capsys):
    code, _, err = run(["encode", "--format", "vu", "--numbering", "course", example_file],
                       capsys)
    assert code == 2 and "rcv" in err


def test_output_ending_in_a_slash_is_a_directory_made_on_demand(example_file, tmp_path, capsys):
    target = tmp_path / "new" / "cnfs"
    code, _, err = run(["encode", example_file, "--numbering", "rcv", "-o", f"{target}/"], capsys)
    assert code == 0, err
    assert "1 file written" in err
    assert parse_dimacs((target / "example-1.cnf").read_text()).num_vars == 999
