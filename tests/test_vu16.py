"""The VU "SAT -Sn" assignment at 16x16: its rules file, our units, ``SAT -S3``, decode.

The assignment's ``sudoku-rules-16x16.txt`` names "cell (r, c) holds v" (r, c, v from 1 to 16)
as variable 289·r + 17·c + v, so its largest name is 4912, and declares ``p cnf 5832 N`` in its
header (5832 = 18³): more variables than it uses. The rules file here is made from the rules'
definition, written as the assignment writes them; a student's round trip is our
``encode --format vu`` units appended to it, ``SAT -S3`` (which writes ``FILE.out``), and
``decode FILE.out --numbering rcv``.
"""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import pytest

from sudosat.cli import main, sat_sn_main
from sudosat.sat.cnf import parse_dimacs
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import encode_numbered

ROOT = Path(__file__).resolve().parent.parent
VU16_DECLARED = 5832  # 18³, the variable count the assignment's 16x16 header declares
VU16_LARGEST = 289 * 16 + 17 * 16 + 16  # 4912, the largest name its rules use


def vu16_rules() -> list[list[int]]:
    """The 16x16 rules from their definition, in the names 289·r + 17·c + v.

    Every cell holds a value and no two; every row, column and 4x4 box holds every value and
    none twice (the same families as the assignment's 9x9 file, one size up).
    """
    digits = range(1, 17)

    def name(r: int, c: int, v: int) -> int:
        return 289 * r + 17 * c + v

    rows = [[(r, c) for c in digits] for r in digits]
    columns = [[(r, c) for r in digits] for c in digits]
    boxes = [[(4 * (b // 4) + i // 4 + 1, 4 * (b % 4) + i % 4 + 1) for i in range(16)]
             for b in range(16)]
    clauses = []
    for r, c in itertools.product(digits, digits):
        clauses.append([name(r, c, v) for v in digits])
        clauses += [[-name(r, c, v), -name(r, c, w)] for v, w in itertools.combinations(digits, 2)]
    for unit in rows + columns + boxes:
        for v in digits:
            clauses.append([name(r, c, v) for r, c in unit])
            clauses += [[-name(r, c, v), -name(s, d, v)]
                        for (r, c), (s, d) in itertools.combinations(unit, 2)]
    return clauses


def write_vu16_rules(path: Path) -> Path:
    """The rules file with the assignment's header: 5832 variables declared, 4912 used."""
    clauses = vu16_rules()
    lines = [f"p cnf {VU16_DECLARED} {len(clauses)}"]
    lines += [" ".join(map(str, clause)) + " 0" for clause in clauses]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(argv, capsys):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def rules_file(tmp_path_factory) -> Path:
    return write_vu16_rules(tmp_path_factory.mktemp("vu16") / "sudoku-rules-16x16.txt")


def test_the_made_rules_are_the_extended_encoding_in_our_rcv_numbering(rules_file):
    """The generator writes the rules the 16x16 numbering means: our own rcv rules, as a set."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the header's clause count is exact
        theirs = parse_dimacs(rules_file.read_text())
    assert theirs.num_vars == VU16_DECLARED
    assert max(abs(lit) for clause in theirs for lit in clause) == VU16_LARGEST
    ours = encode_numbered(Board.empty(4), "extended", "rcv")
    assert ours.num_vars == VU16_LARGEST
    assert {frozenset(c) for c in ours} == {frozenset(c) for c in theirs}


@pytest.mark.parametrize("given_order", [True, False], ids=["with --order", "order inferred"])
def test_vu_16x16_round_trip_with_the_assignments_rules(rules_file, tmp_path, capsys,
                                                        given_order):
    puzzle_line = (ROOT / "data" / "instances.txt").read_text().splitlines()[49]
    puzzle = Board.parse(puzzle_line)
    assert puzzle.order == 4
    instance = tmp_path / "puzzle.txt"
    instance.write_text(puzzle_line + "\n")
    code, units, err = run(["encode", "--format", "vu", instance], capsys)
    assert code == 0, err
    assert len(units.splitlines()) == puzzle.num_givens
    formula = tmp_path / "sudoku16.cnf"
    formula.write_text(rules_file.read_text() + units)
    assert sat_sn_main(["-S3", str(formula)]) == 0
    assert capsys.readouterr().out.startswith("s SATISFIABLE")
    out_file = tmp_path / "sudoku16.cnf.out"
    assert out_file.read_text().startswith(f"p cnf {VU16_DECLARED} ")
    order = ["--order", 4] if given_order else []
    code, line, err = run(["decode", out_file, "--numbering", "rcv", *order], capsys)
    assert code == 0, err
    solution = Board.parse(line.strip())
    assert solution.order == 4
    assert check_solution(puzzle, solution) is None  # every rule holds, every given is kept
    # decode's own check against the instance agrees
    code, checked, err = run(["decode", out_file, "--numbering", "rcv", *order,
                              "--instance", instance], capsys)
    assert (code, checked) == (0, line), err


def out_file_text(solution: Board, declared: int, extra: dict[int, bool]) -> str:
    """A units .out over the 16x16 rcv names of `solution` and `extra`, up to `declared`."""
    values = {289 * (r + 1) + 17 * (c + 1) + v: solution.value(r, c) == v
              for r in range(16) for c in range(16) for v in range(1, 17)}
    values.update(extra)
    values = {var: value for var, value in values.items() if var <= declared}
    return f"p cnf {declared} {len(values)}\n" + "".join(
        f"{var if value else -var} 0\n" for var, value in sorted(values.items()))


@pytest.fixture(scope="module")
def solution16() -> Board:
    from sudosat.sat.solvers import solve
    from sudosat.sudoku.encoding import encode

    puzzle = Board.parse((ROOT / "data" / "instances.txt").read_text().splitlines()[49])
    encoded = encode(puzzle, "course")
    return encoded.decode(solve(encoded.cnf, "cdcl").model)


@pytest.mark.parametrize(
    ("declared", "extra", "refusal"),
    [
        (VU16_DECLARED, {}, None),  # the assignment's header, only the names it uses
        (VU16_DECLARED, {5000: False, 5832: False}, None),  # declared and false: nothing said
        (VU16_DECLARED, {5000: True}, "variable 5000, beyond the 4912 variables, is true"),
        (4911, {}, "over 4911 variables; an order-4 course encoding in the rcv numbering has "
         "4912"),
        (17575, {}, "17575 or more are an order-5 model's"),  # an order-5 rcv model's count
    ],
    ids=["used names only", "false extras", "a true extra", "too few", "a larger board's"],
)
def test_decode_takes_declared_extra_variables_only_when_they_say_nothing(
        solution16, tmp_path, capsys, declared, extra, refusal):
    path = tmp_path / "answer.out"
    path.write_text(out_file_text(solution16, declared, extra))
    code, out, err = run(["decode", path, "--numbering", "rcv", "--order", 4], capsys)
    if refusal is None:
        assert (code, out) == (0, solution16.to_line() + "\n"), err
    else:
        assert (code, out) == (1, "")
        assert refusal in err and len(err.splitlines()) == 1, err


def test_an_unsatisfiable_16x16_out_decodes_with_the_assignments_header(tmp_path, capsys):
    path = tmp_path / "answer.out"
    path.write_text(f"p cnf {VU16_DECLARED} 0\n")
    code, out, err = run(["decode", path, "--numbering", "rcv"], capsys)
    assert (code, out) == (0, "4 UNSAT\n"), err
    code, out, err = run(["decode", path, "--numbering", "rcv", "--order", 3], capsys)
    assert code == 1 and "4912 or more are an order-4 model's" in err
