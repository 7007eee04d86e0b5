"""The process runner: output, no standard input, the deadline, a missing program."""

from __future__ import annotations

import sys
import time

import pytest

from sudosat.errors import SolverNotFoundError
from sudosat.process import run_program
from sudosat.sat.solvers.budget import Deadline
from tests.clock import WAIT_MARGIN_S
from tests.fake_solvers.support import live_children

# --------------------------------------------------------------------------------------
# Running a program


def test_run_program_captures_output_and_exit_code(tmp_path):
    code = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    run = run_program([sys.executable, "-c", code], tmp_path, Deadline(30_000), "python")
    assert (run.stdout, run.stderr, run.exit_code) == ("out\n", "err\n", 3)
    assert not run.timed_out and run.wall_ms > 0


def test_run_program_gives_no_standard_input(tmp_path):
    code = "import sys; print(repr(sys.stdin.read()))"
    run = run_program([sys.executable, "-c", code], tmp_path, Deadline(30_000), "python")
    assert run.stdout == "''\n"


def test_run_program_stops_at_the_deadline(tmp_path):
    before = live_children()
    started = time.monotonic()
    run = run_program(
        [sys.executable, "-c", "import time; time.sleep(60)"], tmp_path, Deadline(300), "python"
    )
    assert run.timed_out and run.exit_code is None
    # The child sleeps, so only the wall clock shows the kill: T plus a busy machine's margin
    # to kill and reap it (tests/clock.py); not stopping it would take its whole minute.
    assert time.monotonic() - started < 0.3 + WAIT_MARGIN_S
    assert live_children() <= before


def test_run_program_names_a_missing_program(tmp_path):
    with pytest.raises(SolverNotFoundError, match="exec:x: program not found: /no/such/solver"):
        run_program(["/no/such/solver"], tmp_path, Deadline(1000), "exec:x")
