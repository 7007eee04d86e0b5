"""``--resume`` keeps only rows it can tell it wrote: an edited answer is solved again.

The rows used to carry fingerprints of their input line and of the run, not of
their answer, so a row whose status was edited from SAT to UNSAT (output line
edited to match, hashes left intact) was kept and ``3 UNSAT`` printed for a
solvable puzzle, exit 0. ``row_hash`` binds the answer to the row.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from sudosat.run.batch import run_batch
from sudosat.run.results import Row, read_rows
from sudosat.sudoku.board import Board, check_solution
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

CLASHING = "3 11" + COURSE_EXAMPLE[4:]  # row 1 holds 1 twice: unsatisfiable givens
OPEN_2 = "2 " + "0" * 16  # an empty order-2 board: many solutions, any one is right
# An empty order-8 board under the course encoding (33 million clauses) cannot be encoded
# within 2 s on any machine we know: its row is a TIMEOUT.
OUT_OF_TIME = Board.empty(8).to_line()
LIMIT_MS = "2000"


def _edit(results: Path, changes: dict[int, dict[str, str]]) -> None:
    """Change columns of rows (by line number) and write the table back, hashes untouched."""
    with results.open(newline="") as stream:
        reader = csv.DictReader(stream)
        fields, rows = reader.fieldnames, list(reader)
    for row in rows:
        row.update(changes.get(int(row["line"]), {}))
    with results.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def _other_solution(line: str, solution: str) -> str:
    """Another valid solution of the open order-2 board: the symbols 1 and 2 swapped."""
    board = Board.parse(solution)
    swapped = Board(2, [{1: 2, 2: 1}.get(value, value) for value in board.cells])
    assert check_solution(Board.parse(line), swapped) is None and swapped != board
    return swapped.to_line()


@pytest.fixture
def first_run(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    lines = [COURSE_EXAMPLE, CLASHING, OUT_OF_TIME, OPEN_2, COURSE_EXAMPLE, CLASHING]
    instances = tmp_path / "in.txt"
    instances.write_text("".join(line + "\n" for line in lines))
    results = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=results, time_limit_ms=float(LIMIT_MS),
              progress=False)
    statuses = [str(row["status"]) for row in read_rows(results)]
    assert statuses == ["SAT", "UNSAT", "TIMEOUT", "SAT", "SAT", "UNSAT"]
    return instances, results, results.read_text().splitlines()


def _resume(instances: Path, results: Path, tmp_path: Path):
    return run_batch(instances, tmp_path / "out.txt", results=results,
                     time_limit_ms=float(LIMIT_MS), resume=True, progress=False)


@pytest.mark.slow
def test_resume_solves_again_every_edited_answer_and_keeps_the_rest(first_run, tmp_path) -> None:
    instances, results, before = first_run
    solved_2 = read_rows(results)[3]["output"]
    _edit(results, {
        1: {"status": "UNSAT", "output": "3 UNSAT", "valid": ""},      # SAT -> UNSAT
        2: {"status": "SAT", "output": COURSE_SOLUTION, "valid": "True"},  # UNSAT -> SAT
        3: {"status": "UNSAT", "output": "8 UNSAT"},                   # TIMEOUT -> UNSAT
        4: {"output": _other_solution(OPEN_2, solved_2)},              # output changed
    })
    summary = _resume(instances, results, tmp_path)
    assert (summary.resumed, summary.new_rows) == (2, 4)
    rows = read_rows(results)
    assert [str(row["status"]) for row in rows[:2]] == ["SAT", "UNSAT"]
    assert str(rows[2]["status"]) != "UNSAT"  # solved again: TIMEOUT (or SAT on a fast machine)
    assert rows[3]["output"] == solved_2  # the solver's own answer again, not the edit
    after = results.read_text().splitlines()
    assert after[5:] == before[5:]  # lines 5 and 6, untouched, kept verbatim
    outputs = (tmp_path / "out.txt").read_text().splitlines()
    assert outputs[0] == COURSE_SOLUTION and outputs[1] == "3 UNSAT"


def test_an_edited_sat_row_is_not_kept_though_its_hashes_are_intact(tmp_path) -> None:
    # The shortest form of the fault: one solvable line, its row edited to UNSAT.
    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n")
    results = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=results, progress=False)
    _edit(results, {1: {"status": "UNSAT", "output": "3 UNSAT", "valid": ""}})
    summary = run_batch(instances, tmp_path / "out.txt", results=results, resume=True,
                        progress=False)
    assert summary.resumed == 0
    assert (tmp_path / "out.txt").read_text() == COURSE_SOLUTION + "\n"


def test_another_valid_solution_written_over_the_answer_is_solved_again(tmp_path) -> None:
    instances = tmp_path / "in.txt"
    instances.write_text(OPEN_2 + "\n")
    results = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=results, progress=False)
    (row,) = read_rows(results)
    _edit(results, {1: {"output": _other_solution(OPEN_2, row["output"])}})
    summary = run_batch(instances, tmp_path / "out.txt", results=results, resume=True,
                        progress=False)
    assert summary.resumed == 0
    assert read_rows(results)[0]["output"] == row["output"]  # the solver's own answer again


def test_row_hash_survives_the_csv_and_json_round_trips(tmp_path) -> None:
    from sudosat.run.resume import row_hash

    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n" + CLASHING + "\n")
    for name in ("r.csv", "r.jsonl"):
        run_batch(instances, tmp_path / "out.txt", results=tmp_path / name, progress=False)
        for raw in read_rows(tmp_path / name):
            assert raw["row_hash"] == row_hash(Row.from_dict(raw))
        summary = run_batch(instances, tmp_path / "out.txt", results=tmp_path / name,
                            resume=True, progress=False)
        assert (summary.resumed, summary.new_rows) == (2, 0)


def test_a_line_the_reader_fails_on_reads_the_same_when_resumed(tmp_path, monkeypatch) -> None:
    # The batch reads a line through parse_line, which turns any failure of the board
    # reader into one ERROR row. --resume reads the lines of kept rows again: it must read
    # them the same way, not let the reader's own exception end the run.
    odd = "3 " + "0" * 81  # an empty board: readable, but this reader fails on it
    real_parse = Board.parse

    def failing_parse(text: str, *args, **kwargs) -> Board:
        if text == odd:
            raise ValueError("a failure the reader did not foresee")
        return real_parse(text, *args, **kwargs)

    monkeypatch.setattr(Board, "parse", staticmethod(failing_parse))
    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n" + odd + "\n")
    results = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=results, progress=False)
    assert [str(row["status"]) for row in read_rows(results)] == ["SAT", "ERROR"]
    summary = run_batch(instances, tmp_path / "out.txt", results=results, resume=True,
                        progress=False)
    assert (summary.resumed, summary.new_rows) == (2, 0)
    assert [str(row["status"]) for row in read_rows(results)] == ["SAT", "ERROR"]
