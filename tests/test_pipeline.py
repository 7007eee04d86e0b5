"""One instance end to end, and a file of them (sudosat.run.pipeline)."""

from __future__ import annotations

import csv
import gc
import random
from pathlib import Path

import pytest

from sudosat.cli import main
from sudosat.errors import SudosatError
from sudosat.run.batch import COLUMNS, check_paths, run_batch
from sudosat.run.pipeline import (
    output_paths,
    results_path,
    safe_name,
    solve_instance,
    solve_line,
)
from sudosat.run.results import read_rows
from sudosat.sudoku.board import Board, check_solution
from tests.clock import cpu_spent, late_by_at_most
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

CLASHING = "3 11" + COURSE_EXAMPLE[4:]  # row 1 holds 1 twice: unsatisfiable givens


def puzzle_lines(count: int, seed: int = 0) -> list[str]:
    """`count` solvable 9×9 lines: the course example with its symbols relabelled.

    Relabelling the symbols of a puzzle (a permutation of 1..9) keeps it
    solvable, so any number of distinct lines needs no data file.
    """
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        digits = list("123456789")
        rng.shuffle(digits)
        table = str.maketrans("123456789", "".join(digits))
        result.append("3 " + COURSE_EXAMPLE[2:].translate(table))
    return result


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


# ---------------------------------------------------------------------------------------
# one instance


@pytest.mark.parametrize("encoding", ["course", "optimised"])
def test_solve_instance_solves_the_course_example(encoding):
    outcome = solve_instance(Board.parse(COURSE_EXAMPLE), "cdcl", encoding, 10_000, line=4)
    row = outcome.row
    assert outcome.output_line == COURSE_SOLUTION
    assert outcome.solution == Board.parse(COURSE_SOLUTION)
    assert (row["status"], row["valid"], row["line"], row["encoding"]) == ("SAT", True, 4, encoding)
    assert (row["order"], row["givens"]) == (3, 27)
    assert set(row) == set(COLUMNS)
    assert row["variables"] > 0 and row["clauses"] > 0 and row["error"] is None
    for clock in ("wall", "cpu"):
        parts = sum(row[f"{stage}_{clock}_ms"] for stage in ("encode", "solve", "decode"))
        assert 0 < parts <= row[f"total_{clock}_ms"] + 0.01


def test_clashing_givens_are_unsat_and_the_clash_is_named():
    outcome = solve_instance(Board.parse(CLASHING), "cdcl", time_limit_ms=10_000)
    assert outcome.output_line == "3 UNSAT"
    assert outcome.row["status"] == "UNSAT" and outcome.row["valid"] is None
    assert "row 1 holds 1 twice" in outcome.row["error"]


def test_unsatisfiable_but_consistent_givens_are_unsat():
    # No unit holds a symbol twice, but cells (1, 3) and (1, 4) need 3 and 4, which box 2
    # already holds: UNSAT without a clash to name.
    stuck = Board.parse("2 1200" + "0034" + "0000" + "0000")
    assert stuck.is_consistent()
    outcome = solve_instance(stuck, "cdcl")
    assert outcome.output_line == "2 UNSAT" and outcome.row["error"] is None


def test_encoding_that_uses_up_the_time_limit_is_a_timeout():
    outcome = solve_instance(Board.parse(COURSE_EXAMPLE), "cdcl", "course", time_limit_ms=0.001)
    assert outcome.output_line == "3 TIMEOUT"
    assert outcome.row["status"] == "TIMEOUT"
    assert "encoding" in outcome.row["error"] and outcome.row["solve_wall_ms"] is None
    assert outcome.row["stop"] == "time"


HARD = "....23...8.....4........1..1..8..6.........7...4.......5..6..2..2.....35...4....."


def test_a_solver_past_the_time_limit_is_a_timeout_within_bounds():
    with cpu_spent() as spent:
        outcome = solve_line(HARD, 3, "dp", "course", time_limit_ms=200)
    assert outcome.output_line == "3 TIMEOUT" and outcome.row["status"] == "TIMEOUT"
    assert "time limit" in outcome.row["error"]
    # T + max(10 %, 100 ms): T bounds the pipeline, held on CPU time (tests/clock.py)
    assert spent.seconds < late_by_at_most(200), spent


def test_timeouts_are_counted_in_the_batch_summary(tmp_path):
    instances = write_lines(tmp_path / "in.txt", [HARD, CLASHING])
    # dp needs about 3.6 s for HARD here and 15-25 ms for CLASHING: 1 s leaves both sides
    # a wide margin (at 200 ms, CLASHING once timed out in a CI run with both cores busy).
    summary = run_batch(
        instances, tmp_path / "out.txt", solvers=["dp"], time_limit_ms=1000, progress=False
    )
    assert (tmp_path / "out.txt").read_text().splitlines()[0] == "3 TIMEOUT"
    assert (summary.solvers["dp"].timeouts, summary.solvers["dp"].unsat) == (1, 1)


def test_memory_guard_refusal_is_an_error_row():
    outcome = solve_instance(Board.parse(COURSE_EXAMPLE), "cdcl", max_bytes=1000)
    assert outcome.row["status"] == "ERROR"
    assert outcome.output_line.startswith("ERROR order 3 with the course encoding needs")
    assert outcome.row["encode_wall_ms"] is None  # refused before building anything
    assert outcome.row["stop"] == "error"


def test_unknown_solver_is_an_error_row_not_an_exception():
    outcome = solve_instance(Board.parse(COURSE_EXAMPLE), "no-such-solver")
    assert outcome.row["status"] == "ERROR" and "unknown solver" in outcome.row["error"]


def test_a_crashing_solver_costs_one_row(monkeypatch):
    import sudosat.run.runner as runner

    def explode(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(runner, "solve", explode)
    outcome = solve_instance(Board.parse(COURSE_EXAMPLE), "cdcl")
    assert outcome.output_line == "ERROR crashed: ZeroDivisionError: boom"


def test_a_wrong_decoded_board_is_invalid(monkeypatch):
    import sudosat.run.runner as runner

    monkeypatch.setattr(runner, "check_solution", lambda puzzle, solution: "row 2 holds 5 twice")
    outcome = solve_instance(Board.parse(COURSE_EXAMPLE), "cdcl")
    assert outcome.row["valid"] is False and outcome.row["status"] == "ERROR"
    assert "not a solution: row 2 holds 5 twice" in outcome.output_line


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty line"),
        ("   ", "empty line"),
        ("3 12", "order 3 needs 81 symbols, got 2"),
        ("7 " + "0" * 2401, "beyond the course format"),
        ("hello world", "is not an order"),
    ],
)
def test_unreadable_lines_are_error_outcomes(text, reason):
    outcome = solve_line(text, 9)
    assert outcome.row["status"] == "ERROR" and outcome.row["line"] == 9
    assert reason in outcome.row["error"]
    assert outcome.output_line == f"ERROR {outcome.row['error']}"


# ---------------------------------------------------------------------------------------
# names


def test_safe_name_makes_solver_names_file_safe():
    assert safe_name("cdcl") == "cdcl"
    assert safe_name("pysat:minisat22") == "pysat-minisat22"
    assert safe_name("exec:/usr/bin/minisat") == "exec-usr-bin-minisat"


def test_output_paths_scheme(tmp_path):
    assert output_paths("in.txt", "out.txt", ["cdcl"]) == {"cdcl": Path("out.txt")}
    both = output_paths("in.txt", "res/out.txt", ["cdcl", "zchaff"])
    assert both == {"cdcl": Path("res/out.cdcl.txt"), "zchaff": Path("res/out.zchaff.txt")}
    assert output_paths("d/in.sdk", None, ["cdcl"]) == {"cdcl": Path("d/in.cdcl.txt")}
    assert results_path("in.txt", None) == Path("in.results.csv")
    with pytest.raises(SudosatError, match="same output file"):
        output_paths("in.txt", "out.txt", ["a:b", "a/b"])
    with pytest.raises(SudosatError, match="overwrite the instance file"):  # the one guard's
        check_paths(tmp_path / "in.txt", [(tmp_path / "in.txt", "the output of cdcl")])


# ---------------------------------------------------------------------------------------
# a file


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_run_batch_writes_one_line_per_input_line_in_order(tmp_path):
    lines = [COURSE_EXAMPLE, "", CLASHING, "3 12", COURSE_EXAMPLE]
    instances = write_lines(tmp_path / "in.txt", lines)
    summary = run_batch(instances, tmp_path / "out.txt", time_limit_ms=20_000, progress=False)
    out = (tmp_path / "out.txt").read_text().splitlines()
    assert out == [
        COURSE_SOLUTION,
        "ERROR empty line",
        "3 UNSAT",
        "ERROR order 3 needs 81 symbols, got 2",
        COURSE_SOLUTION,
    ]
    rows = read_csv(tmp_path / "out.results.csv")
    assert [row["line"] for row in rows] == ["1", "2", "3", "4", "5"]
    assert list(rows[0]) == list(COLUMNS)
    cdcl = summary.solvers["cdcl"]
    assert (cdcl.solved, cdcl.unsat, cdcl.timeouts, cdcl.errors) == (2, 1, 0, 2)
    assert "2 solved, 1 unsat, 0 timeouts, 2 errors" in str(summary)


def test_run_batch_handles_crlf_and_a_missing_final_line_end(tmp_path):
    instances = tmp_path / "in.txt"
    instances.write_bytes((COURSE_EXAMPLE + "\r\n" + CLASHING).encode())
    run_batch(instances, tmp_path / "out.txt", progress=False)
    assert (tmp_path / "out.txt").read_text() == COURSE_SOLUTION + "\n3 UNSAT\n"


def test_run_batch_of_an_empty_file_writes_an_empty_output(tmp_path):
    instances = write_lines(tmp_path / "in.txt", [])
    run_batch(instances, tmp_path / "out.txt", progress=False)
    assert (tmp_path / "out.txt").read_text() == ""


def test_run_batch_missing_file_is_a_user_error(tmp_path):
    with pytest.raises(SudosatError, match="no such file"):
        run_batch(tmp_path / "nope.txt", progress=False)


def test_several_solvers_each_get_their_file_and_a_missing_zchaff_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("ZCHAFF", str(tmp_path / "no-zchaff-here"))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE, CLASHING])
    run_batch(
        instances,
        tmp_path / "out.txt",
        solvers=["cdcl", "zchaff"],
        time_limit_ms=20_000,
        progress=False,
    )
    assert (tmp_path / "out.cdcl.txt").read_text().splitlines() == [COURSE_SOLUTION, "3 UNSAT"]
    zchaff = (tmp_path / "out.zchaff.txt").read_text().splitlines()
    assert len(zchaff) == 2 and all(line.startswith("ERROR ") for line in zchaff)
    assert all("zchaff" in line.lower() for line in zchaff)
    rows = read_csv(tmp_path / "out.results.csv")
    assert [(r["line"], r["solver"]) for r in rows] == [
        ("1", "cdcl"),
        ("1", "zchaff"),
        ("2", "cdcl"),
        ("2", "zchaff"),
    ]


def test_results_as_jsonl_keep_their_types(tmp_path):
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE])
    run_batch(instances, tmp_path / "out.txt", results=tmp_path / "r.jsonl", progress=False)
    (row,) = read_rows(tmp_path / "r.jsonl")
    assert row["line"] == 1 and row["valid"] is True and row["output"] == COURSE_SOLUTION


def test_resume_keeps_finished_rows_and_drops_a_cut_last_row(tmp_path):
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE, CLASHING, COURSE_EXAMPLE])
    results = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=results, progress=False)
    header, first, _, third = results.read_text().splitlines()
    # An interrupted run: line 1 finished, line 3 cut short mid-row by a kill.
    results.write_text(f"{header}\n{first}\n{third[:40]}")
    summary = run_batch(
        instances, tmp_path / "out.txt", results=results, resume=True, progress=False
    )
    assert summary.resumed == 1 and summary.new_rows == 2
    rows = read_csv(results)
    assert [row["line"] for row in rows] == ["1", "2", "3"]
    assert results.read_text().splitlines()[1] == first  # kept verbatim: not solved again
    assert (tmp_path / "out.txt").read_text().splitlines() == [
        COURSE_SOLUTION,
        "3 UNSAT",
        COURSE_SOLUTION,
    ]


def test_resume_redoes_rows_of_another_encoding(tmp_path):
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE])
    results = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=results, progress=False)
    summary = run_batch(
        instances,
        tmp_path / "out.txt",
        results=results,
        resume=True,
        encoding="optimised",
        progress=False,
    )
    assert summary.resumed == 0
    assert [row["encoding"] for row in read_csv(results)] == ["optimised"]


def test_thousand_line_file_with_bad_lines(tmp_path):
    """Acceptance: 1,000 mixed lines give 1,000 output lines in order and 1,000 rows."""
    rng = random.Random(5)
    good = puzzle_lines(700)
    lines, expected = [], []
    for k in range(1000):
        kind = rng.choice(["good"] * 7 + ["clash", "malformed", "blank"])
        if kind == "good":
            lines.append(good[k % len(good)])
        elif kind == "clash":
            lines.append(CLASHING)
        elif kind == "malformed":
            lines.append(rng.choice(["3 12", "x" * 81, "3 " + "0" * 80 + "#", "9 1 2 3"]))
        else:
            lines.append("")
        expected.append(kind)
    instances = write_lines(tmp_path / "mixed.txt", lines)
    summary = run_batch(
        instances, tmp_path / "out.txt", encoding="optimised", time_limit_ms=5000, progress=False
    )
    out = (tmp_path / "out.txt").read_text().splitlines()
    rows = read_csv(tmp_path / "out.results.csv")
    assert len(out) == 1000 and len(rows) == 1000
    assert [int(row["line"]) for row in rows] == list(range(1, 1001))
    for text, kind, answer, row in zip(lines, expected, out, rows, strict=True):
        if kind == "good":
            assert row["status"] == "SAT" and row["valid"] == "True"
            assert check_solution(Board.parse(text), Board.parse(answer)) is None
        elif kind == "clash":
            assert answer == "3 UNSAT" and "clash" in row["error"]
        else:
            assert answer.startswith("ERROR ") and row["error"], (text, answer)
            assert answer == "ERROR " + row["error"]
    assert summary.solvers["cdcl"].lines == 1000


# ---------------------------------------------------------------------------------------
# the command line


def test_cli_solve_writes_outputs_and_prints_a_summary(tmp_path, capsys):
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE, "3 12"])
    code = main(
        [
            "solve",
            str(instances),
            "-o",
            str(tmp_path / "out.txt"),
            "-T",
            "20000",
            "--solver",
            "cdcl",
            "--solver",
            "pysat:minisat22",
            "--no-progress",
        ]
    )
    assert code == 1  # a line ended in ERROR: named on stderr, the others answered
    assert (tmp_path / "out.cdcl.txt").read_text().splitlines()[0] == COURSE_SOLUTION
    assert (tmp_path / "out.pysat-minisat22.txt").read_text().splitlines() == [
        COURSE_SOLUTION,
        "ERROR order 3 needs 81 symbols, got 2",
    ]
    printed, errors = capsys.readouterr()
    assert f"sudosat: {instances}:2: cdcl: order 3 needs 81 symbols, got 2\n" in errors
    assert "cdcl: 2 lines: 1 solved, 0 unsat, 0 timeouts, 1 errors" in printed
    assert "pysat:minisat22: 2 lines" in printed


def test_cli_solve_missing_file_is_one_line_and_exit_1(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nope.txt")]) == 1
    err = capsys.readouterr().err
    assert err.strip().endswith("nope.txt: no such file") and "Traceback" not in err


def test_cli_solve_scheduler_without_dask_is_a_user_error(tmp_path, capsys):
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE])
    assert main(["solve", str(instances), "--scheduler", "tcp://x:1", "--no-progress"]) == 1
    assert "--scheduler needs --executor dask" in capsys.readouterr().err


def test_cli_solve_max_memory_refuses_big_formulas(tmp_path):
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE])
    assert (
        main(
            [
                "solve",
                str(instances),
                "-o",
                str(tmp_path / "o.txt"),
                "--max-memory",
                "1K",
                "--no-progress",
            ]
        )
        == 1
    )
    assert "the limit is" in (tmp_path / "o.txt").read_text()


def test_resume_of_a_finished_run_solves_nothing(tmp_path):
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE, "", CLASHING])
    run_batch(instances, tmp_path / "out.txt", progress=False)
    first = (tmp_path / "out.results.csv").read_text()
    summary = run_batch(instances, tmp_path / "out.txt", resume=True, jobs=2, progress=False)
    assert (summary.resumed, summary.new_rows) == (3, 0)
    assert (tmp_path / "out.results.csv").read_text() == first
    assert len((tmp_path / "out.txt").read_text().splitlines()) == 3


@pytest.mark.parametrize(("solver", "module", "inside"), [
    ("pysat:minisat22", "sudosat.sat.solvers.pysat", "limited_search"),
    ("dpll", "sudosat.sat.solvers.dpll", "_pick_balanced"),
    ("walksat", "sudosat.sat.solvers.local", "_walksat_try"),
])
def test_the_collector_is_paused_inside_each_solver_call_not_around_the_pipeline(
    solver, module, inside, monkeypatch
):
    # A full pass over a big heap (a notebook kernel's: 60 ms; 3 million lists: 190 ms)
    # landed in whichever stage allocated when it fell due: a solver handing its clauses
    # over. Each solver that runs in this process pauses the collector in its own call;
    # the pipeline leaves the interpreter's collector alone for encoding and decoding.
    import importlib

    from sudosat.run import runner

    target = importlib.import_module(module)
    seen: dict[str, list[bool]] = {"encode": [], "solver": []}
    real_encode, real_inside = runner.encode, getattr(target, inside)

    def encode_and_look(*args, **kwargs):
        seen["encode"].append(gc.isenabled())
        return real_encode(*args, **kwargs)

    def inside_and_look(*args, **kwargs):
        seen["solver"].append(gc.isenabled())
        return real_inside(*args, **kwargs)

    monkeypatch.setattr(runner, "encode", encode_and_look)
    monkeypatch.setattr(target, inside, inside_and_look)
    if solver == "dpll":
        monkeypatch.setitem(target._PICKERS, "moms", inside_and_look)
    assert gc.isenabled()
    outcome = solve_instance(Board.parse(COURSE_EXAMPLE), solver, "course", seed=1)
    assert outcome.row.status.value == "SAT"
    assert seen["encode"] == [True] and seen["solver"] and not any(seen["solver"])
    assert gc.isenabled()  # restored for the caller
    gc.disable()
    try:
        solve_instance(Board.parse(COURSE_EXAMPLE), solver, "course")
        assert not gc.isenabled()  # a caller's own pause is left alone
    finally:
        gc.enable()
