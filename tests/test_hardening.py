"""A hostile audit's reproductions and faults 8, 9 and 10, one regression test each.

Every test runs the command as a user would (in process, or in a subprocess when a
resource limit must hold) and checks the one line it prints and its exit code.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from sudosat.cli import EXIT_INTERNAL, main, sat_sn_main
from sudosat.errors import DimacsError, InstanceError, ResourceLimitError
from sudosat.lines import split_lines
from sudosat.sat.cnf import CNF, DimacsWarning, parse_dimacs, parse_int_token, parse_solution
from sudosat.sat.solvers import solve
from sudosat.sudoku.board import Board
from tests.clock import child_cpu
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, ROOT

EMPTY_ORDER_2 = "2 " + " ".join(["0"] * 16)


def run(argv, capsys, entry=main):
    """Exit code, stdout and stderr of one in-process run (usage errors included)."""
    try:
        code = entry([str(arg) for arg in argv])
    except SystemExit as stop:
        code = stop.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- the hostile audit: the three reproductions --------------------------------------


def test_audit_billions_of_variables_are_refused_before_allocation(tmp_path, capsys):
    path = write(tmp_path, "h.cnf", "p cnf 2000000000 1\n1 2 0\n")
    code, out, err = run(["-S1", path], capsys, sat_sn_main)
    assert code == 1
    line = one_line(err)
    assert line.startswith(f"SAT: {path}:1: the header declares 2,000,000,000 variables")
    assert "--max-memory" in line
    assert not Path(f"{path}.out").exists()


def test_audit_arabic_indic_digits_are_not_numbers(tmp_path, capsys):
    path = write(tmp_path, "u.cnf", "p cnf 2 1\n\u0661 \u0662 \u0660\n")
    code, out, err = run(["-S3", path], capsys, sat_sn_main)
    assert code == 1
    line = one_line(err)
    assert f"{path}:2: not an integer: '\u0661'" in line
    assert "U+0661" in line
    assert "SATISFIABLE" not in out


def test_audit_negative_number_in_a_numeric_line_is_not_a_separator(tmp_path, capsys):
    path = write(tmp_path, "b.txt", "2 -1 " + " ".join(["0"] * 15) + "\n")
    code, out, err = run(["encode", path], capsys)
    assert code == 1
    line = one_line(err)
    assert f"{path}:1: ' -' before position 1" in line
    assert out == ""


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("2 1--" + "-".join(["0"] * 15), "'--' before position 2"),
        ("2 1,,0" + ",0" * 14, "',,' before position 2: a doubled separator"),
        ("2 1 -0" + " 0" * 14, "' -' before position 2"),
        ("2 1- 0" + " 0" * 14, "'- ' before position 2"),
        ("-2 " + " ".join(["0"] * 16), "'-' at the start of the line is not an order"),
    ],
)
def test_audit_dash_rules_name_the_position(line, fragment):
    with pytest.raises(InstanceError) as caught:
        Board.parse(line, source="in.txt", line=4)
    assert str(caught.value).startswith("in.txt:4: ")
    assert fragment in str(caught.value)


def test_audit_a_dash_between_two_numbers_still_separates():
    board = Board.parse("2 1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0")
    assert board.cells[0] == 1 and board.num_givens == 1
    assert Board.parse("2 1, 0,0 ,0" + ", 0" * 12 + ",").num_givens == 1


@pytest.mark.parametrize(
    ("token", "value"), [("7", 7), ("+7", 7), ("-7", -7), ("007", 7), ("0", 0), ("+0", 0)]
)
def test_parse_int_token_accepts_ascii_integers(token, value):
    assert parse_int_token(token) == value


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("-0", "zero has no sign"),
        ("-00", "zero has no sign"),
        ("\u0661", "U+0661"),
        ("1_000", "'_'"),
        ("--1", "a sign inside it"),
        ("+-1", "a sign inside it"),
        ("1-2", "a sign inside it"),
        ("-", "a sign without digits"),
        ("1" * 19, "too large (19 digits)"),
        ("\x00", "U+0000"),
        ("\ufeff1", "U+FEFF"),
        ("１", "U+FF11"),  # fullwidth digit one
    ],
)
def test_parse_int_token_refuses_and_names_the_token(token, fragment):
    with pytest.raises(DimacsError) as caught:
        parse_int_token(token, source="x.cnf", line=9, what="literal")
    assert str(caught.value).startswith("x.cnf:9: ")
    assert fragment in str(caught.value)


def test_parse_int_token_checks_bounds():
    assert parse_int_token("5", low=1, high=5) == 5
    with pytest.raises(DimacsError, match="literal 6 is outside 1..5"):
        parse_int_token("6", what="literal", low=1, high=5)


# -- fault 8: sizes from lying headers and huge numbers -----------------------
# "Fast" below is CPU time (time.process_time): a refusal before allocating costs little
# CPU whatever else the machine runs, while its wall time grows with the machine's load.


def test_fault8_lying_headers_thirty_million_variables_one_line_fast(tmp_path, capsys):
    path = write(tmp_path, "lie.cnf", "p cnf 30000000 1\n1 2 0\n")
    started = time.process_time()
    code, out, err = run(["sat", path, "-T", 300], capsys)
    assert time.process_time() - started < 2.0
    assert code == 1
    assert "the header declares 30,000,000 variables" in one_line(err)
    assert "raise it with --max-memory" in err


@pytest.mark.parametrize("count", [2**31 - 1, 2**31, 2**32 + 5, 10**12, 10**18 - 1])
def test_fault8_lying_headers_at_and_beyond_two_to_the_31(tmp_path, capsys, count):
    path = write(tmp_path, "big.cnf", f"p cnf {count} 1\n1 2 0\n")
    code, _, err = run(["sat", path], capsys)
    assert code == 1
    assert f"the header declares {count:,} variables" in one_line(err)


def test_fault8_lying_headers_more_digits_than_any_count(tmp_path, capsys):
    path = write(tmp_path, "huge.cnf", "p cnf " + "9" * 5000 + " 1\n1 0\n")
    code, _, err = run(["sat", path], capsys)
    assert code == 1
    assert "too large (5000 digits)" in one_line(err)


def test_fault8_lying_headers_raised_limit_solves_on_used_variables(tmp_path, capsys):
    path = write(tmp_path, "wide.cnf", "p cnf 200000 2\n1 -150000 0\n150000 0\n")
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        code, out, err = run(["sat", path, "--solver", "dpll"], capsys)
    assert code == 10, err
    assert "declares 200,000 variables but its clauses use 2" in err
    model = [int(line.split()[1]) for line in out.splitlines() if line.startswith("v ")]
    assert len(model) == 200_000
    assert model[0] == 1 and model[149_999] == 150_000 and model[1] == -2


@pytest.mark.parametrize("solver", ["cdcl", "dpll", "dp", "walksat"])
def test_fault8_lying_headers_compaction_keeps_every_solver_right(solver):
    cnf = CNF([[3, -150_001], [150_001, 7], [-3, -7]], num_vars=400_000)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = solve(cnf, solver, time_limit_ms=5000)
    assert result.status.value == "SAT"
    assert len(result.model) == 400_000
    assert cnf.is_satisfied_by(result.model)
    assert any(issubclass(w.category, DimacsWarning) for w in caught)


def test_fault8_lying_headers_decode_of_a_trillion_variables(tmp_path, capsys):
    path = write(tmp_path, "t.sol", "s cnf 1 1000000000000\nv 1\n")
    started = time.process_time()
    code, _, err = run(["decode", path, "--order", 3], capsys)
    assert time.process_time() - started < 2.0
    assert code == 1
    assert f"{path}:1: the solution declares 1,000,000,000,000 variables" in one_line(err)


@pytest.mark.parametrize("order", [300, 10**9])
def test_fault8_lying_headers_decode_of_huge_orders(tmp_path, capsys, order):
    path = write(tmp_path, "s.sol", "s cnf 1 1\nv 1\n")
    started = time.process_time()
    code, _, err = run(["decode", path, "--order", order], capsys)
    assert time.process_time() - started < 2.0
    assert code == 1
    assert f"order {order} has {order**4:,} cells" in one_line(err)


def test_fault8_lying_headers_encode_of_order_ten(tmp_path, capsys):
    path = write(tmp_path, "o10.txt", "10 " + " ".join(["0"] * 10**4) + "\n")
    started = time.process_time()
    code, out, err = run(["encode", path], capsys)
    assert time.process_time() - started < 5.0
    assert code == 1 and out == ""
    line = one_line(err)
    assert line.startswith(f"sudosat: {path}:1: order 10 with the course encoding needs")
    assert "--max-memory" in line


def test_fault8_lying_headers_generate_of_order_a_billion(capsys):
    started = time.process_time()
    code, out, err = run(["generate", "--order", 10**9, "--alpha", 0.5], capsys)
    assert time.process_time() - started < 2.0
    assert code == 1 and out == ""
    assert "order 1000000000 has" in one_line(err)


def test_fault8_lying_headers_board_with_a_5000_digit_number():
    with pytest.raises(InstanceError, match="at position 1 is too big for order 2"):
        Board.parse("2 " + "9" * 5000 + " 0" * 15)


# -- fault 9: options -------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["sat", "F", "--max-memory", "inf"], "argument --max-memory: not a size: 'inf'"),
        (["sat", "F", "--max-memory", "nan"], "argument --max-memory: not a size: 'nan'"),
        (["sat", "F", "--max-memory", "1e-9"], "'1e-9' is less than one byte"),
        (["sat", "F", "-T", "nan"], "argument -T/--time-limit: not a number of milliseconds"),
        (["sat", "F", "-T", "inf"], "the time limit must be finite"),
        (["solve", "F", "--scheduler", "not a url"], "not a scheduler address: 'not a url'"),
        (["sat", "F", "--solver", "nosuch"], "unknown solver 'nosuch'"),
        (["solve", "F", "--solver", "exec:"], "unknown solver 'exec:'"),
        (["generate", "--order", "2", "--alpha", "0", "--solver", "x"], "unknown solver 'x'"),
        (["encode", "F", "--encoding", "nosuch"], "unknown encoding 'nosuch'"),
        (["solve", "F", "--encoding", "nosuch"], "unknown encoding 'nosuch'"),
        (["decode", "F", "--order", "3", "--encoding", "no"], "unknown encoding 'no'"),
        (["sat", "F", "--heuristic", "nosuch"], "unknown DPLL heuristic 'nosuch'"),
    ],
)
def test_fault9_options_are_usage_errors_of_one_line(argv, fragment, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2
    line = one_line(err)
    assert fragment in line
    assert out == ""


def test_fault9_options_sat_sn_max_memory_and_time(capsys, tmp_path):
    path = write(tmp_path, "f.cnf", "p cnf 1 1\n1 0\n")
    code, _, err = run(["-S1", path, "-T", "nan"], capsys, sat_sn_main)
    assert code == 2 and "not a number of milliseconds" in one_line(err)
    code, _, err = run(["-S1", path, "--max-memory", "100"], capsys, sat_sn_main)
    assert code == 0, err


def test_fault9_options_solve_reads_standard_input(tmp_path):
    out_path = tmp_path / "out.txt"
    done = subprocess.run(
        [sys.executable, "-m", "sudosat", "solve", "-", "-o", str(out_path), "--no-progress"],
        input=COURSE_EXAMPLE + "\n" + "2 -1" + " 0" * 15 + "\n",
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 1, done.stderr  # line 2 is bad: named, the others answered
    lines = out_path.read_text().splitlines()
    assert lines[0] == COURSE_SOLUTION
    assert lines[1].startswith("ERROR")
    assert "<stdin>:2:" in done.stderr


def test_fault9_options_solve_stdin_without_output_is_usage(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(COURSE_EXAMPLE + "\n"))
    code, _, err = run(["solve", "-"], capsys)
    assert code == 2
    assert "needs -o OUT" in one_line(err)


# -- fault 10: one line reader ------------------------------------------------------


@pytest.mark.parametrize("inside", ["\x0c", "\u2028", "\x0b", "\x1c", "\x85", "\r"])
def test_fault10_line_splitting_only_newlines_split(inside):
    assert split_lines(f"a{inside}b\nc\r\n") == [f"a{inside}b", "c"]


@pytest.mark.parametrize("inside", ["\x0c", "\u2028"])
def test_fault10_line_splitting_check_agrees_with_solve(tmp_path, capsys, inside):
    # A puzzle file whose first line holds a stray form feed / U+2028: every command sees
    # the same two lines, so line 2 is checked against line 2.
    puzzles = write(tmp_path, "p.txt", f"{COURSE_EXAMPLE}{inside}\n{COURSE_EXAMPLE}\n")
    answers = write(tmp_path, "a.txt", f"3 TIMEOUT\n{COURSE_SOLUTION}\n")
    code, out, err = run(["check", puzzles, answers], capsys)
    assert code == 0, err
    assert out.startswith("1 valid, 0 invalid, 1 not solved (of 2 lines)")
    code, out, err = run(["encode", puzzles, "--line", 2], capsys)
    assert code == 0 and "p cnf 729 11772" in out
    code, _, err = run(["encode", puzzles, "--line", 1], capsys)
    assert code == 1
    assert f"{puzzles}:1:" in one_line(err)
    code, _, err = run(["encode", puzzles, "--line", 3], capsys)
    assert code == 1 and "the file has 2 lines" in err


@pytest.mark.parametrize("inside", ["\x0c", "\u2028"])
def test_fault10_line_splitting_encode_to_a_folder_sees_the_same_lines(tmp_path, capsys, inside):
    # `encode -o DIR` split with str.splitlines: a form feed made it write three files (line 2
    # as line 3) where `solve` and `encode --line` see two lines.
    puzzles = write(tmp_path, "p.txt",
                    f"{COURSE_EXAMPLE}{inside}{COURSE_EXAMPLE}\n{COURSE_EXAMPLE}\n")
    folder = tmp_path / "out"
    code, _, err = run(["encode", puzzles, "-o", f"{folder}/"], capsys)
    assert code == 1 and f"{puzzles}:1:" in err
    assert sorted(path.name for path in folder.iterdir()) == ["p-2.cnf"]


def test_fault10_line_splitting_solve_sees_the_same_lines(tmp_path, capsys):
    puzzles = write(tmp_path, "p.txt", f"{COURSE_EXAMPLE}\x0c\n{COURSE_EXAMPLE}\r\n")
    out_path = tmp_path / "out.txt"
    code, _, err = run(["solve", puzzles, "-o", out_path, "--no-progress"], capsys)
    lines = split_lines(out_path.read_text())
    assert len(lines) == 2
    assert lines[0].startswith("ERROR") and lines[1] == COURSE_SOLUTION
    assert code == 1


def test_fault10_line_splitting_dimacs_line_numbers(tmp_path):
    text = "p cnf 2 1\nc comment\x0cstill a comment\n1 x 0\n"
    with pytest.raises(DimacsError, match=r"^f.cnf:3: not an integer: 'x'"):
        parse_dimacs(text, "f.cnf")


# -- one internal-error path ------------------------------------------------------------


def test_internal_error_is_one_line_with_stage_and_exit_3(tmp_path, capsys, monkeypatch):
    import sudosat.sat.solvers.cdcl as cdcl

    def broken(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(cdcl, "solve", broken)
    monkeypatch.delenv("SUDOSAT_DEBUG", raising=False)
    path = write(tmp_path, "f.cnf", "p cnf 1 1\n1 0\n")
    code, _, err = run(["sat", path], capsys)
    assert code == EXIT_INTERNAL == 3
    line = one_line(err)
    assert line.startswith(f"sudosat: internal error while solving {path}: KeyError")
    assert "SUDOSAT_DEBUG=1" in line
    code, _, err = run(["-S3", path], capsys, sat_sn_main)
    assert code == 3
    assert one_line(err).startswith(f"SAT: internal error while solving {path}")


def test_internal_error_names_reading_and_shows_traceback_on_request(
    tmp_path, capsys, monkeypatch
):
    import sudosat.sat.dimacs as dimacs_module

    def broken(*args, **kwargs):
        raise RuntimeError("reader bug")

    monkeypatch.setattr(dimacs_module, "_parse_chunk_fast", broken)
    path = write(tmp_path, "f.cnf", "p cnf 1 1\n1 0\n")
    monkeypatch.delenv("SUDOSAT_DEBUG", raising=False)
    code, _, err = run(["sat", path], capsys)
    assert code == 3
    assert f"internal error while reading {path}: RuntimeError: reader bug" in one_line(err)
    monkeypatch.setenv("SUDOSAT_DEBUG", "1")
    code, _, err = run(["sat", path], capsys)
    assert code == 3
    assert "Traceback (most recent call last)" in err
    assert err.rstrip().splitlines()[-1].startswith("sudosat: internal error while reading")


def test_internal_error_while_encoding(tmp_path, capsys, monkeypatch):
    import sudosat.sudoku.encoding.sizes as sizes

    def broken(*args, **kwargs):
        raise ZeroDivisionError("estimate bug")

    monkeypatch.setattr(sizes, "_full_size", broken)
    monkeypatch.delenv("SUDOSAT_DEBUG", raising=False)
    path = write(tmp_path, "e.txt", COURSE_EXAMPLE + "\n")
    code, out, err = run(["encode", path], capsys)
    assert code == 3 and out == ""
    assert f"internal error while encoding {path}: ZeroDivisionError" in one_line(err)


# -- the bars-style check: a header of 10^12 variables under ulimit -v 2000000 -------------


def _limit_address_space():
    limit = 2_000_000 * 1024  # ulimit -v counts kilobytes
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_sat_s1_on_a_trillion_variable_header_under_ulimit(tmp_path):
    path = write(tmp_path, "t.cnf", "p cnf 1000000000000 1\n1 2 0\n")
    tiny = write(tmp_path, "tiny.cnf", "p cnf 2 1\n1 2 0\n")
    options = {"env": {**os.environ, "PYTHONPATH": str(ROOT)},
               "preexec_fn": _limit_address_space,
               "timeout": 30}  # a hang fails here; the machine may be busy, so no tighter bound
    command = [sys.executable, "-c", "import sys; from sudosat.cli import sat_sn_main; "
               "sys.exit(sat_sn_main())", "-S1"]
    started, start_cpu = child_cpu([*command, str(tiny)], **options)
    assert started.returncode == 0, started.stderr
    done, cpu = child_cpu([*command, str(path)], **options)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1
    assert "the header declares 1,000,000,000,000 variables" in done.stderr
    assert "--max-memory" in done.stderr
    # CPU time, which a busy machine does not inflate, beyond the command's start-up (the
    # same command on a tiny formula, just before: tests/clock.py): sizing tables for the
    # header would take minutes, refusing it takes milliseconds
    assert cpu - start_cpu < 0.5, f"{cpu:.2f} s of CPU, {start_cpu:.2f} s of it to start"


def test_resource_limit_error_is_a_memory_error():
    assert issubclass(ResourceLimitError, MemoryError)


@pytest.mark.parametrize("var", [2**31, 10**15, 10**18 - 1])
def test_fault8_lying_headers_competition_model_naming_a_huge_variable(var):
    started = time.process_time()
    with pytest.raises(DimacsError, match="the model gives no value to variable 1$"):
        parse_solution(f"s SATISFIABLE\nv {var} 0\n", "m.sol")
    assert time.process_time() - started < 1.0
    with pytest.raises(DimacsError, match="the model gives no value to variable 3$"):
        parse_solution("s SATISFIABLE\nv 1 -2 4 0\n", "m.sol")


def test_fault8_lying_headers_generate_of_a_billion_boards(capsys):
    started = time.process_time()
    code, out, err = run(["generate", "--order", 1, "--alpha", 0.5, "--count", 10**9], capsys)
    assert time.process_time() - started < 2.0
    assert code == 1 and out == ""
    assert "1,000,000,000 boards of order 1 have 1,000,000,000 cells" in one_line(err)


@pytest.mark.parametrize("noise", ["nan", "2", "-0.1", "half"])
def test_fault9_options_noise_is_a_probability(tmp_path, capsys, noise):
    path = write(tmp_path, "f.cnf", "p cnf 1 1\n1 0\n")
    code, _, err = run(["sat", path, "--solver", "walksat", "--noise", noise], capsys)
    assert code == 2
    assert "argument --noise" in one_line(err)


def test_dimacs_text_too_long_for_the_memory_limit_is_refused_before_parsing(tmp_path, capsys):
    path = write(tmp_path, "long.cnf", "p cnf 2 1000\n" + "1 -2 0\n" * 1000)
    code, _, err = run(["sat", path, "--max-memory", "50K"], capsys)
    assert code == 1
    assert f"{path}: the file holds at least 7,013 bytes" in one_line(err)
    code, _, err = run(["sat", path, "--max-memory", "1M"], capsys)
    assert code == 10, err


@pytest.mark.parametrize("order", ["\u0663", "1_0", " 3", "3.0", "9" * 10 + "_9"])
def test_fault9_options_whole_numbers_are_ascii_digits(capsys, order):
    code, _, err = run(["generate", "--order", order, "--alpha", "0"], capsys)
    assert code == 2
    assert "not a whole number" in one_line(err)


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["sat", "F", "--max-conflicts", "1" * 19], "--max-conflicts"),
        (["sat", "F", "--max-propagations", "9" * 30], "--max-propagations"),
        (["solve", "F", "--max-conflicts", "+" + "5" * 25], "--max-conflicts"),
        (["generate", "--order", "9" * 19, "--alpha", "0"], "--order"),
        (["sat", "F", "--seed", "-" + "7" * 20], "--seed"),
        (["sat", "F", "-T", "1" * 19 + ".5"], "-T/--time-limit"),
        (["sat", "F", "--max-memory", "1" * 19 + "G"], "--max-memory"),
    ],
)
def test_a_number_with_too_many_digits_is_called_too_large(capsys, argv, option):
    code, _, err = run(argv, capsys)
    assert code == 2
    assert f"argument {option}: too large: " in one_line(err)
    assert "digits (at most 18)" in one_line(err) and "not a" not in one_line(err)


def test_fault10_line_splitting_lone_cr_is_not_a_line_end_in_files_or_stdin(tmp_path, capsys):
    # Found by the slow fuzz run: a file read with universal newlines split at a lone CR,
    # standard input did not; the same text must get the same answer both ways.
    text = "c \r0\np cnf 1 1\n1 0\n"
    path = write(tmp_path, "cr.cnf", text)
    (tmp_path / "cr.cnf").write_bytes(text.encode())
    code, out, err = run(["sat", path], capsys)
    assert code == 10, err
    code, out, err = run(["-S1", path], capsys, sat_sn_main)
    assert code == 0, err
    puzzles = tmp_path / "p.txt"
    puzzles.write_bytes(f"{COURSE_EXAMPLE}\r{COURSE_EXAMPLE}\n".encode())
    code, _, err = run(["encode", puzzles, "--line", 2], capsys)
    assert code == 1 and "the file has 1 lines" in err


def test_solution_clash_names_its_line():
    with pytest.raises(DimacsError, match=r"^m.sol:3: variable 3 is given both values$"):
        parse_solution("s SATISFIABLE\nv 1 2 -3\nv 3 0\n", "m.sol")
    with pytest.raises(DimacsError, match=r"^m.sol:4: variable 1 is given both values$"):
        parse_solution("s cnf 1 2\nv 1\nv 2\nv -1\n", "m.sol")
