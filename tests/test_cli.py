"""The command line as a user runs it: encode, sat, decode, check, solvers and SAT -Sn."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudosat.cli import main, sat_sn_main
from sudosat.sat.assignment import read_assignment
from sudosat.sat.cnf import parse_dimacs
from sudosat.sat.result import Status
from sudosat.sat.solvers.cdcl.cores import compiled_built
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, vu_rules_file


@pytest.fixture
def example_file(tmp_path):
    path = tmp_path / "example.txt"
    path.write_text(COURSE_EXAMPLE + "\n")
    return path


def run(argv, capsys):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_encode_course_example_writes_the_spec_header(example_file, capsys):
    code, out, err = run(["encode", example_file], capsys)
    assert code == 0, err
    assert "p cnf 729 11772" in out.splitlines()
    assert parse_dimacs(out).num_clauses == 11772


def test_encode_line_and_output_file(tmp_path, capsys):
    instances = tmp_path / "two.txt"
    instances.write_text(COURSE_SOLUTION + "\n" + COURSE_EXAMPLE + "\n")
    target = tmp_path / "second.cnf"
    code, out, err = run(["encode", instances, "--line", 2, "-o", target], capsys)
    assert code == 0, err
    assert out == ""
    assert "p cnf 729 11772" in target.read_text()


def test_encode_lists_encodings(capsys):
    code, out, _ = run(["encode", "-", "--list"], capsys)
    assert code == 0
    assert out.split()[0] == "course"
    assert "optimised" in out


def test_full_round_trip_through_the_command_line(example_file, tmp_path, capsys):
    cnf_path, sol_path, board_path = tmp_path / "e.cnf", tmp_path / "e.sol", tmp_path / "e.board"
    assert run(["encode", example_file, "-o", cnf_path], capsys)[0] == 0
    code, _, err = run(["sat", cnf_path, "-o", sol_path], capsys)
    assert code == 10, err
    assert [line for line in sol_path.read_text().splitlines() if line.startswith("s ")] == [
        "s cnf 1 729"
    ]
    code, _, err = run(["decode", sol_path, "--order", 3, "-o", board_path], capsys)
    assert code == 0, err
    assert board_path.read_text() == COURSE_SOLUTION + "\n"
    code, out, err = run(["check", example_file, board_path], capsys)
    assert code == 0, err
    assert out.startswith("1 valid, 0 invalid")


def test_decode_with_the_optimised_encoding_needs_the_instance(example_file, tmp_path, capsys):
    cnf_path, sol_path = tmp_path / "o.cnf", tmp_path / "o.sol"
    run(["encode", example_file, "--encoding", "optimised", "-o", cnf_path], capsys)
    assert run(["sat", cnf_path, "-o", sol_path], capsys)[0] == 10
    code, out, err = run(
        ["decode", sol_path, "--order", 3, "--instance", example_file, "--encoding", "optimised"],
        capsys,
    )
    assert code == 0, err
    assert out == COURSE_SOLUTION + "\n"


def test_check_names_the_broken_unit(example_file, tmp_path, capsys):
    wrong = list(COURSE_SOLUTION)
    wrong[2] = "7" if wrong[2] != "7" else "8"  # first cell of the board changed
    answers = tmp_path / "answers.txt"
    answers.write_text("".join(wrong) + "\n")
    code, out, err = run(["check", example_file, answers], capsys)
    assert code == 1
    assert f"{answers}:1:" in err
    assert any(word in err for word in ("row", "column", "box"))
    assert out.startswith("0 valid, 1 invalid")


def test_check_counts_unsolved_lines_and_line_mismatch(example_file, tmp_path, capsys):
    answers = tmp_path / "answers.txt"
    answers.write_text("3 TIMEOUT\nERROR extra\n")
    code, out, err = run(["check", example_file, answers], capsys)
    assert code == 1
    assert "has 2 lines" in err
    assert "1 not solved" in out


@pytest.mark.parametrize(
    ("fmt", "first"), [("course", "s cnf 0 1"), ("competition", "s UNSATISFIABLE")]
)
def test_sat_unsat_exit_code_and_formats(tmp_path, capsys, fmt, first):
    path = tmp_path / "u.cnf"
    path.write_text("p cnf 1 2\n1 0\n-1 0\n")
    code, out, _ = run(["sat", path, "--format", fmt], capsys)
    assert code == 20
    assert out.splitlines()[-1] == first


def test_sat_time_limit_gives_unknown_and_exit_zero(tmp_path, capsys):
    from sudosat.sat.formulas import pigeonhole

    path = tmp_path / "php.cnf"
    pigeonhole(10, 9).write_dimacs(path)
    code, out, _ = run(["sat", path, "-T", 300], capsys)
    assert code == 0
    assert out.splitlines()[-1] == f"s cnf -1 {pigeonhole(10, 9).num_vars}"


def test_sat_certifies_an_unsat_answer(tmp_path, capsys):
    from sudosat.sat.formulas import pigeonhole

    cnf_path, proof_path = tmp_path / "php.cnf", tmp_path / "php.drat"
    pigeonhole(4).write_dimacs(cnf_path)
    code, out, err = run(["sat", cnf_path, "--proof", proof_path, "--certify"], capsys)
    assert code == 20, err
    assert "verified" in out
    assert proof_path.read_text().strip()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("p cnf 2 1\n1 3 0\n", "bad.cnf:2: literal 3 is beyond the 2 declared variables"),
        ("p cnf 2 1\n1 x 0\n", "bad.cnf:2: not an integer: 'x'"),
        ("1 2 0\n", "bad.cnf:1: clause before the 'p cnf' header"),
        ("", "bad.cnf: empty file"),
    ],
)
def test_sat_bad_input_is_one_line_and_exit_one(tmp_path, capsys, content, message):
    path = tmp_path / "bad.cnf"
    path.write_text(content)
    code, out, err = run(["sat", path], capsys)
    assert code == 1
    assert out == ""
    assert err.startswith(f"sudosat: {tmp_path / message}")
    assert err.count("\n") == 1


def test_missing_file_is_named(tmp_path, capsys):
    code, _, err = run(["encode", tmp_path / "none.txt"], capsys)
    assert code == 1
    assert err == f"sudosat: {tmp_path / 'none.txt'}: no such file\n"


def test_bad_instance_line_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(COURSE_EXAMPLE + "\n3 12\n")
    code, _, err = run(["encode", path, "--line", 2], capsys)
    assert code == 1
    assert err.startswith(f"sudosat: {path}:2: ")
    code, _, err = run(["encode", path, "--line", 5], capsys)
    assert code == 1
    assert "there is no line 5: the file has 2 lines" in err


def test_unknown_solver_is_a_clear_error(example_file, tmp_path, capsys):
    cnf_path = tmp_path / "e.cnf"
    run(["encode", example_file, "-o", cnf_path], capsys)
    with pytest.raises(SystemExit) as caught:  # bad usage: exit 2
        run(["sat", cnf_path, "--solver", "nosuch"], capsys)
    assert caught.value.code == 2
    assert "unknown solver 'nosuch'" in capsys.readouterr().err


def test_bad_usage_exits_two(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["sat"])
    assert caught.value.code == 2
    assert main([]) == 2


def test_solvers_lists_every_builtin_and_says_why_zchaff_is_absent(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("ZCHAFF", raising=False)
    code, out, _ = run(["solvers"], capsys)
    assert code == 0
    names = {line.split()[0]: line for line in out.splitlines()}
    for name in ("cdcl", "dpll", "dp", "walksat", "gsat", "zchaff", "pysat:minisat22"):
        assert name in names
    assert names["cdcl"].split()[1] == "available"
    built = "compiled core built" if compiled_built() else "compiled core not built"
    assert built in names["cdcl"]  # which of cdcl's two cores runs here
    assert "not available" in names["zchaff"]


def test_solvers_says_the_pure_python_core_runs_when_it_is_asked_for(capsys, monkeypatch):
    monkeypatch.setenv("SUDOSAT_CORE", "python")
    code, out, _ = run(["solvers"], capsys)
    cdcl_line = next(line for line in out.splitlines() if line.startswith("cdcl "))
    assert code == 0 and "the pure-Python core runs" in cdcl_line


def test_sat_stats_names_the_core_that_ran(tmp_path, capsys, monkeypatch):
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    monkeypatch.setenv("SUDOSAT_CORE", "python")
    code, out, _ = run(["sat", str(path), "--stats"], capsys)
    assert code == 10 and "c core python" in out.splitlines()


def test_a_compiled_core_asked_for_but_not_built_is_one_line_and_exit_1(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "f.cnf"
    path.write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    monkeypatch.setenv("SUDOSAT_CORE", "compiled")
    monkeypatch.setattr("sudosat.sat.solvers.cdcl.cores.compiled_module", lambda: None)
    code, out, err = run(["sat", str(path)], capsys)
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [
        "sudosat: cdcl: SUDOSAT_CORE=compiled, but the compiled core is not built "
        "(install with a C compiler: make install)"
    ]


@pytest.mark.parametrize("strategy", [1, 2, 3])
def test_sat_sn_on_the_rules_file_and_a_puzzle(tmp_path, capsys, strategy):
    rules = vu_rules_file().read_text()
    givens = [
        f"{r + 1}{c + 1}{value} 0"
        for k, value in enumerate(COURSE_EXAMPLE[2:])
        if value != "0"
        for r, c in [divmod(k, 9)]
    ]
    path = tmp_path / "sudoku.cnf"
    path.write_text(rules + "\n".join(givens) + "\n")
    code = sat_sn_main([f"-S{strategy}", str(path)])
    out, err = capsys.readouterr()
    assert code == 0
    assert (
        err == f"SAT: warning: {path}:1: header declares 12016 clauses but the file holds 12015\n"
    )
    assert out.startswith("s SATISFIABLE")
    # The .out names only the 729 variables the formula uses, not all 999.
    solution = read_assignment((tmp_path / "sudoku.cnf.out").read_text())
    assert solution.status is Status.SAT and len(solution.values) == 729
    true_cells = sorted(v for v, value in solution.values.items() if value)
    board = ["0"] * 81
    for var in true_cells:
        r, c, value = var // 100, (var // 10) % 10, var % 10
        board[(r - 1) * 9 + c - 1] = str(value)
    assert "3 " + "".join(board) == COURSE_SOLUTION


def test_sat_sn_unsat_writes_an_empty_assignment(tmp_path, capsys):
    path = tmp_path / "u.cnf"
    path.write_text("p cnf 2 3\n1 0\n-1 2 0\n-2 0\n")
    assert sat_sn_main(["-S1", str(path)]) == 0
    assert capsys.readouterr().out.startswith("s UNSATISFIABLE")
    assert (tmp_path / "u.cnf.out").read_text() == "p cnf 2 0\n"


def test_console_scripts_run_without_traceback(tmp_path):
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 1 1\n2 0\n")
    done = subprocess.run(
        [sys.executable, "-m", "sudosat", "sat", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == f"sudosat: {bad}:2: literal 2 is beyond the 1 declared variables"


# -- work budgets: --max-conflicts and --max-propagations ------------------------------------

HARD_9X9 = "....23...8.....4........1..1..8..6.........7...4.......5..6..2..2.....35...4....."


@pytest.fixture
def php_file(tmp_path):
    from sudosat.sat.formulas import pigeonhole

    path = tmp_path / "php.cnf"
    path.write_text(pigeonhole(8, 7).to_dimacs())
    return path


@pytest.mark.parametrize(("flag", "budget"), [("--max-conflicts", "max_conflicts"),
                                              ("--max-propagations", "max_propagations")])
def test_sat_budget_gives_unknown_and_exit_0(php_file, capsys, flag, budget):
    code, out, err = run(["sat", php_file, "--solver", "dpll", flag, "20", "--stats"], capsys)
    assert code == 0, err  # unknown
    lines = out.splitlines()
    assert "s cnf -1 56" in lines
    assert f"c no decision: the work budget ran out ({flag} 20)" in lines
    counter = "conflicts" if budget == "max_conflicts" else "propagations"
    assert f"c {counter} 20" in lines


def test_sat_budget_is_reproducible(php_file, capsys):
    outputs = [run(["sat", php_file, "--solver", "dp", "--max-conflicts", "25", "--stats"],
                   capsys)[1] for _ in range(2)]
    counters = [[line for line in out.splitlines()
                 if line.split()[1:2] in (["conflicts"], ["decisions"], ["propagations"])]
                for out in outputs]
    assert counters[0] == counters[1] and "c conflicts 25" in counters[0]


@pytest.mark.parametrize("value", ["0", "-5", "x", "1.5", "٣"])
@pytest.mark.parametrize("flag", ["--max-conflicts", "--max-propagations"])
def test_budget_flags_take_positive_whole_numbers(php_file, capsys, flag, value):
    with pytest.raises(SystemExit) as caught:
        main(["sat", str(php_file), flag, value])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"argument {flag}:" in err


@pytest.mark.parametrize("solver", ["walksat", "gsat"])
def test_sat_budget_refused_by_a_solver_that_cannot_honour_it(php_file, capsys, solver):
    code, out, err = run(["sat", php_file, "--solver", solver, "--max-conflicts", "5"], capsys)
    assert code == 1 and out == ""
    assert err.count("\n") == 1
    assert f"--max-conflicts: solver '{solver}' cannot honour it" in err
    assert "max_conflicts" not in err  # the option as typed, not the keyword


def test_solve_budget_writes_unknown_lines_not_timeouts(tmp_path, capsys):
    import csv

    instances = tmp_path / "in.txt"
    instances.write_text(f"{HARD_9X9}\n{COURSE_EXAMPLE}\n")
    code, out, err = run(["solve", instances, "-o", tmp_path / "out.txt", "--solver", "dpll",
                          "--max-conflicts", "3", "--no-progress"], capsys)
    assert code == 0, err
    lines = (tmp_path / "out.txt").read_text().splitlines()
    assert lines[0] == "3 UNKNOWN"
    assert "1 unknown (a work budget ran out)" in out and "0 timeouts" in out
    rows = list(csv.DictReader((tmp_path / "out.results.csv").open()))
    assert rows[0]["status"] == "UNKNOWN" and rows[0]["conflicts"] == "3"
    assert rows[0]["error"] == "the work budget ran out (max_conflicts=3)"
    assert rows[1]["status"] in ("SAT", "UNKNOWN")  # the example may need more than 3


def test_solve_budget_refused_before_any_work(tmp_path, capsys):
    instances = tmp_path / "in.txt"
    instances.write_text(f"{COURSE_EXAMPLE}\n")
    code, out, err = run(["solve", instances, "-o", tmp_path / "out.txt", "--solver", "dpll",
                          "--solver", "walksat", "--max-propagations", "100", "--no-progress"],
                         capsys)
    assert code == 1 and err.count("\n") == 1
    assert "--max-propagations: solver 'walksat' cannot honour it" in err
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "out.dpll.txt").exists()


@pytest.mark.parametrize(("solver", "flag"), [("pysat:cadical195", "--max-propagations"),
                                              ("pysat:lingeling", "--max-conflicts")])
def test_solve_refuses_a_budget_a_pysat_back_end_cannot_honour_before_any_work(
    tmp_path, capsys, solver, flag
):
    # Each line used to become an ERROR row; `sat` refused the same thing in one line.
    instances = tmp_path / "in.txt"
    instances.write_text(f"{COURSE_EXAMPLE}\n{COURSE_EXAMPLE}\n")
    code, out, err = run(["solve", instances, "-o", tmp_path / "out.txt", "--solver", solver,
                          flag, "100", "--no-progress"], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith(f"sudosat: {flag}: solver '{solver}' cannot honour it (")
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "out.results.csv").exists()
    code, out, err = run(["sat", "/dev/null", "--solver", solver, flag, "100"], capsys)
    assert code == 1 and err.startswith(f"sudosat: {flag}: solver '{solver}' cannot honour it")


def test_solve_budget_changes_the_fingerprint_resume_checks(tmp_path, capsys):
    import csv

    instances = tmp_path / "in.txt"
    instances.write_text(f"{HARD_9X9}\n")
    base = ["solve", instances, "-o", tmp_path / "out.txt", "--solver", "dpll", "--no-progress"]
    assert run([*base, "--max-conflicts", "3"], capsys)[0] == 0
    assert (tmp_path / "out.txt").read_text() == "3 UNKNOWN\n"
    code, out, err = run([*base, "--resume"], capsys)  # without the budget: solved again
    assert code == 0, err
    (row,) = csv.DictReader((tmp_path / "out.results.csv").open())
    assert row["status"] == "SAT"
