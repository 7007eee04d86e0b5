"""The results table holds whole rows only, and ``--resume`` believes no answer it cannot check.

``solve --results`` on a full file system left a table ending in a partial row:
a row went through Python's buffered writer, and a write the disk cut short
left its first bytes in the file. Each row is now one unbuffered write, cut
back off the file when it fails (:meth:`ResultsLog.append`); a torn last row
found by ``--resume`` (a crash) is dropped with a warning and solved again.

A row edited to UNSAT with its ``row_hash`` recomputed was kept, and ``--resume``
printed ``3 UNSAT`` for a puzzle MiniSat and CaDiCaL call SAT. An UNSAT row is
now kept only when the puzzle's givens clash (a proof anyone can check); any
other is solved again.
"""

from __future__ import annotations

import csv
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudosat.cli import main
from sudosat.run import results as results_module
from sudosat.run.batch import run_batch
from sudosat.run.results import COLUMNS, ResultsLog, Row, read_rows
from sudosat.run.resume import answer_holds, row_hash
from sudosat.sudoku.board import Board, check_solution
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, generated_lines

CLASHING = "3 11" + COURSE_EXAMPLE[4:]  # row 1 holds 1 twice: unsatisfiable givens


def whole_rows(path: Path) -> list[dict]:
    """The table's rows, after checking it ends with a line end and every line is a row."""
    text = path.read_text()
    assert text.endswith("\n"), repr(text[-80:])
    with path.open(newline="") as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == list(COLUMNS)
    assert all(len(row) == len(COLUMNS) for row in rows[1:])
    for fields in rows[1:]:  # every row whole: its own fingerprint still matches
        row = dict(zip(COLUMNS, fields, strict=True))
        assert row["row_hash"] == row_hash(Row.from_dict(row))
    return read_rows(path)


# -- a full disk ---------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    """A 200 kB tmpfs (root only; skipped where it cannot be mounted)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (the simulated full disk runs anywhere)")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"no tmpfs can be mounted here: {mounted.stderr.decode().strip()}")
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


def fill(disk: Path, leave: int) -> Path:
    """Fill `disk` with a file until about `leave` bytes stay free; the filler's path."""
    filler = disk / "filler"
    info = os.statvfs(disk)
    filler.write_bytes(b"\0" * max(0, info.f_bavail * info.f_frsize - leave))
    return filler


def test_a_full_tmpfs_mid_run_leaves_only_whole_rows_and_resume_completes(tmp_path, small_disk,
                                                                          capsys):
    lines = generated_lines(2, 120, alpha=0.3)
    instances = tmp_path / "in.txt"
    instances.write_text("".join(line + "\n" for line in lines))
    out = small_disk / "out.txt"
    filler = fill(small_disk, 12_000)  # room for the table's start, not for 120 rows
    code = main(["solve", str(instances), "-o", str(out), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and err == [
        f"sudosat: {small_disk}/out.results.csv: cannot write: No space left on device"]
    kept = whole_rows(small_disk / "out.results.csv")
    assert 0 < len(kept) < len(lines)
    assert sorted(os.listdir(small_disk)) == ["filler", "out.results.csv"]  # no temporary left
    filler.unlink()
    code = main(["solve", str(instances), "-o", str(out), "--resume", "--no-progress"])
    assert code == 0, capsys.readouterr().err
    rows = whole_rows(small_disk / "out.results.csv")
    assert [int(row["line"]) for row in rows] == list(range(1, len(lines) + 1))
    assert {row["status"] for row in rows} == {"SAT"}
    answers = out.read_text().splitlines()
    assert all(check_solution(Board.parse(puzzle), Board.parse(answer)) is None
               for puzzle, answer in zip(lines, answers, strict=True))


def test_a_write_the_disk_cuts_short_is_cut_back_off_the_table(tmp_path, monkeypatch, capsys):
    """The same without a tmpfs: the fifth row's write lands half, then ENOSPC."""
    lines = generated_lines(2, 8, alpha=0.3)
    instances = tmp_path / "in.txt"
    instances.write_text("".join(line + "\n" for line in lines))
    table = tmp_path / "out.results.csv"
    real_write, calls = os.write, []

    def cut_short(handle: int, data) -> int:
        if os.path.realpath(f"/proc/self/fd/{handle}") == str(table.resolve()):
            calls.append(len(data))
            if len(calls) == 5:
                return real_write(handle, bytes(data)[: len(data) // 2])  # a short write
            if len(calls) > 5:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(handle, data)

    monkeypatch.setattr(results_module.os, "write", cut_short)
    code = main(["solve", str(instances), "-o", str(tmp_path / "out.txt"), "--no-progress"])
    assert code == 1
    assert capsys.readouterr().err == (
        f"sudosat: {table}: cannot write: No space left on device\n")
    assert len(whole_rows(table)) == 4
    monkeypatch.undo()
    assert main(["solve", str(instances), "-o", str(tmp_path / "out.txt"), "--resume",
                 "--no-progress"]) == 0
    assert len(whole_rows(table)) == len(lines)


def test_a_torn_last_row_is_dropped_with_a_warning_and_solved_again(tmp_path):
    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n" + CLASHING + "\n")
    table = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=table, progress=False)
    text = table.read_text()
    table.write_text(text[: len(text) - 40])  # a crash in the middle of the last row
    with pytest.warns(UserWarning, match=r"r\.csv: its last row was cut short"):
        summary = run_batch(instances, tmp_path / "out.txt", results=table, resume=True,
                            progress=False)
    assert (summary.resumed, summary.new_rows) == (1, 1)
    assert [row["status"] for row in whole_rows(table)] == ["SAT", "UNSAT"]


def test_a_special_file_takes_the_rows_in_place(tmp_path):
    fifo = tmp_path / "rows"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    with ResultsLog(fifo) as log:
        log.append(Row(line=1, solver="cdcl", status=None))
    text, _ = reader.communicate(timeout=60)
    assert text.splitlines()[0] == ",".join(COLUMNS) and text.splitlines()[1].startswith("1,")


# -- a forged UNSAT ------------------------------------------------------------------------


def forge(table: Path, line: int, **changes: str) -> None:
    """Edit a row and recompute its row_hash, as a forger who read the code would."""
    with table.open(newline="") as stream:
        rows = list(csv.DictReader(stream))
    for row in rows:
        if int(row["line"]) == line:
            row.update(changes)
            row["row_hash"] = row_hash(Row.from_dict(row))
    with table.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(COLUMNS))
        writer.writeheader()
        writer.writerows(rows)


def test_a_forged_unsat_with_its_hash_recomputed_never_reaches_the_output(tmp_path, capsys):
    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n")
    out = tmp_path / "out.txt"
    assert main(["solve", str(instances), "-o", str(out), "--no-progress"]) == 0
    forge(tmp_path / "out.results.csv", 1, status="UNSAT", output="3 UNSAT", valid="",
          stop="answered")
    assert read_rows(tmp_path / "out.results.csv")[0]["status"] == "UNSAT"
    capsys.readouterr()
    assert main(["solve", str(instances), "-o", str(out), "--resume", "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "1 solved, 0 unsat" in said and "rows kept" not in said
    assert out.read_text() == COURSE_SOLUTION + "\n"
    assert read_rows(tmp_path / "out.results.csv")[0]["status"] == "SAT"


def test_an_unsat_whose_givens_clash_is_kept_and_one_that_needs_a_search_is_not():
    clash, open_board = Board.parse(CLASHING), Board.parse(COURSE_EXAMPLE)
    unsat = {"status": "UNSAT", "output": "3 UNSAT"}
    assert answer_holds(unsat, clash, Board.parse)
    assert not answer_holds(unsat, open_board, Board.parse)
    assert answer_holds({"status": "SAT", "output": COURSE_SOLUTION}, open_board, Board.parse)
    assert answer_holds({"status": "TIMEOUT", "output": "3 TIMEOUT"}, open_board, Board.parse)


def test_a_resumed_run_keeps_the_unsat_of_clashing_givens(tmp_path):
    instances = tmp_path / "in.txt"
    instances.write_text(CLASHING + "\n")
    table = tmp_path / "r.csv"
    run_batch(instances, tmp_path / "out.txt", results=table, progress=False)
    summary = run_batch(instances, tmp_path / "out.txt", results=table, resume=True,
                        progress=False)
    assert (summary.resumed, summary.new_rows) == (1, 0)
    assert (tmp_path / "out.txt").read_text() == "3 UNSAT\n"
