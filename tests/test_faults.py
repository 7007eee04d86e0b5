"""Regression tests for issue 17: faults that lost work or touched what was not ours.

Each test is named after the fault it pins down (``test_faultK_...`` for item K of
the issue) and reproduces it as the audit did: through the command line, in a
scratch folder, checking the one line on standard error, the exit code, and that
nothing else was lost or touched.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudosat.cli import main
from sudosat.pipeline import run_batch
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

ROOT = Path(__file__).resolve().parent.parent
HUGE_TOKEN = "9" * 5000
BAD_LINE = f"2 {HUGE_TOKEN} {' '.join(['0'] * 15)}"


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------
# 1. one bad line never stops a batch


@pytest.fixture
def big_file(tmp_path) -> Path:
    return write_lines(tmp_path / "big.txt", [COURSE_EXAMPLE, BAD_LINE, COURSE_EXAMPLE])


def assert_bad_line_answered(out_path: Path) -> None:
    lines = out_path.read_text().splitlines()
    assert len(lines) == 3
    assert lines[0] == lines[2] == COURSE_SOLUTION
    assert lines[1].startswith("ERROR ") and "5,000 characters" in lines[1]


@pytest.mark.parametrize(
    "extra",
    [[], ["-j", "2"], ["--executor", "dask", "-j", "2"]],
    ids=["serial", "processes", "dask"],
)
def test_fault1_bad_line_never_stops_batch(tmp_path, capsys, big_file, extra):
    if "dask" in extra:
        pytest.importorskip("distributed", reason="the optional extra sudosat[cluster]")
    out = tmp_path / "out.txt"
    code, _, err = run_cli(capsys, "solve", big_file, "-o", out, "--no-progress", *extra)
    assert code == 1
    assert_bad_line_answered(out)
    assert error_lines(err) == [
        f"sudosat: {big_file}:2: cdcl: the token 999999999999... (5,000 characters) "
        "is not a Sudoku value"
    ]
    assert "internal error" not in err


def test_fault1_bad_line_never_stops_resume(tmp_path, capsys, big_file):
    out = tmp_path / "out.txt"
    run_batch(big_file, out, progress=False)
    out.unlink()
    code, _, err = run_cli(capsys, "solve", big_file, "-o", out, "--resume", "--no-progress")
    assert code == 1 and "internal error" not in err
    assert_bad_line_answered(out)


def test_fault1_bad_line_in_encode_is_one_line(tmp_path, capsys, big_file):
    code, out, err = run_cli(capsys, "encode", big_file, "--line", "2")
    assert code == 1 and out == ""
    assert error_lines(err) == [
        f"sudosat: {big_file}:2: the token 999999999999... (5,000 characters) is not a Sudoku value"
    ]
    code, out, _ = run_cli(capsys, "encode", big_file, "--line", "3")
    assert code == 0 and out.count("\n") > 11000


def test_fault1_serial_executor_survives_a_raising_item():
    from sudosat.batch import SerialExecutor

    def work(item):
        if item == 2:
            raise ValueError("boom")
        return item

    with SerialExecutor() as runner:
        done = dict(runner.map_unordered(work, [1, 2, 3]))
    assert done[1] == 1 and done[3] == 3 and isinstance(done[2], ValueError)


# ---------------------------------------------------------------------------------------
# 11. the Makefile quotes what users pass


def test_fault11_makefile_quotes_instances_and_t(tmp_path):
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make program here")
    nasty = "my file's; touch PWNED `id`.txt"
    for target, program in (("report", "sudosat.reportbuild"), ("solve-own", "scripts/solve-own")):
        listing = subprocess.run(
            [make, "-n", "--no-print-directory", "-C", str(ROOT), target,
             f"INSTANCES={nasty}", "T=10 000"],
            capture_output=True, text=True, check=True,
        ).stdout
        recipe = next(line for line in listing.splitlines() if program in line)
        words = shlex.split(recipe)
        assert nasty in words and "10 000" in words, recipe
    assert not (ROOT / "PWNED").exists()
