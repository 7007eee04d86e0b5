"""A time limit T of any size the command line takes reaches no system call whole.

``-T 2200000000`` (2^31 ms or more) reached ``poll()`` with more than INT_MAX
milliseconds: ``sudosat sat ex.cnf --solver exec:minisat -T 2200000000`` exited 3
(OverflowError), ``solve`` wrote ``ERROR crashed: OverflowError`` for every line,
with zChaff too. A longer wait is now waited out in pieces of at most INT_MAX ms
(:data:`sudosat.process.POLL_MAX_MS`), and a program's own limit is at most
INT32_MAX seconds (:data:`sudosat.process.RLIMIT_MAX_S`), the most
MiniSat's ``-cpu-lim`` takes and what zChaff's ``atoi`` reads without wrapping.
"""

from __future__ import annotations

import json
import select
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sudosat import process
from sudosat.cli import main
from sudosat.process import run_program
from sudosat.run.pipeline import output_paths
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Status
from sudosat.sat.solvers.adapter import whole_seconds
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.registry import solve
from sudosat.sudoku.board import Board, check_solution
from tests.conftest import COURSE_EXAMPLE
from tests.fake_solvers.support import TRANSCRIPTS, make_launcher

# The sizes the audit tried: just past INT_MAX ms, the most digits -T takes, an exponent.
LARGE_LIMITS = ("2200000000", "999999999999999999", "1e300")
EX_CNF = "p cnf 3 2\n1 -2 0\n2 3 0\n"
INT32_MAX = 2**31 - 1

# A stand-in for MiniSat: its command line (``-cpu-lim=S`` within 0..INT32_MAX, as MiniSat's
# own option check holds it, INPUT RESULT), its answer in the RESULT file, exit 10 or 20.
FAKE_MINISAT = """\
import json, os, sys
from pysat.formula import CNF
from pysat.solvers import Minisat22

args = sys.argv[1:]
log = os.environ.get("FAKE_MINISAT_LOG")
if log:
    with open(log, "a") as handle:
        handle.write(json.dumps(args) + "\\n")
for arg in args:
    if arg.startswith("-cpu-lim="):
        value = int(arg.split("=", 1)[1])
        if not 0 <= value <= 2**31 - 1:
            print(f'ERROR! value <{value}> is too large for option "cpu-lim".')
            sys.exit(1)
cnf_path, result_path = [arg for arg in args if not arg.startswith("-")][-2:]
formula = CNF(from_file=cnf_path)
with Minisat22(bootstrap_with=formula.clauses) as solver:
    sat = solver.solve()
    model = solver.get_model() if sat else None
with open(result_path, "w") as result:
    if sat:
        result.write("SAT\\n" + " ".join(map(str, model or [])) + " 0\\n")
    else:
        result.write("UNSAT\\n")
sys.exit(10 if sat else 20)
"""


@pytest.fixture
def fake_minisat(tmp_path: Path) -> Path:
    """An executable named ``minisat`` (so it gets MiniSat's convention) that logs its argv."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "fake_minisat.py"
    script.write_text(FAKE_MINISAT)
    program = folder / "minisat"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return program


@pytest.fixture
def fake_zchaff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake zChaff that really answers (tests/fake_solvers), logging its arguments."""
    monkeypatch.setenv("FAKE_MODE", "solve")
    monkeypatch.setenv("FAKE_DIR", str(TRANSCRIPTS))
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "zchaff-log"))
    return make_launcher(tmp_path / "zbin", "zchaff")


class _Watched:
    """``select`` as :mod:`sudosat.process` uses it, every ``poll()`` timeout recorded."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.timeouts: list[int | None] = []

    def poll(self):
        real = select.poll()
        timeouts, limit = self.timeouts, self.limit

        class Poller:
            def register(self, *args):
                real.register(*args)

            def poll(self, timeout=None):
                timeouts.append(timeout)
                assert timeout is None or timeout <= limit, timeout
                return real.poll(timeout)

        return Poller()

    POLLIN = select.POLLIN


def test_a_wait_longer_than_one_poll_takes_is_waited_in_pieces(monkeypatch, tmp_path):
    watched = _Watched(limit=50)
    monkeypatch.setattr(process, "select", watched)
    monkeypatch.setattr(process, "POLL_MAX_MS", 50)
    code = "import time; time.sleep(0.3); print('done')"
    run = run_program([sys.executable, "-c", code], tmp_path, Deadline(10**9), "python")
    assert (run.stdout, run.exit_code) == ("done\n", 0)
    assert watched.timeouts and all(t is not None and t <= 50 for t in watched.timeouts)


@pytest.mark.parametrize("limit", [2**31, 2_200_000_000, 999_999_999_999_999_999, 1e300])
@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_run_program_runs_a_program_under_a_time_limit_beyond_int_max_ms(tmp_path, limit,
                                                                          clock):
    run = run_program([sys.executable, "-c", "print(6 * 7)"], tmp_path,
                      Deadline(limit, clock=clock), "python")
    assert (run.stdout, run.exit_code) == ("42\n", 0)


def test_a_programs_own_limit_is_at_most_int32_max_seconds():
    assert whole_seconds(2_200_000_000) == 2_200_000
    assert whole_seconds(INT32_MAX * 1000.0) == INT32_MAX
    assert whole_seconds(999_999_999_999_999_999) == INT32_MAX
    assert whole_seconds(1e300) == INT32_MAX
    assert process._cpu_limit_s(Deadline(1e300, clock="cpu")) == INT32_MAX  # its RLIMIT_CPU


@pytest.mark.parametrize("limit", LARGE_LIMITS)
def test_sat_with_an_exec_solver_at_a_large_t_exits_10(tmp_path, fake_minisat, monkeypatch,
                                                       capsys, limit):
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("FAKE_MINISAT_LOG", str(log))
    formula = tmp_path / "ex.cnf"
    formula.write_text(EX_CNF)
    code = main(["sat", str(formula), "--solver", f"exec:{fake_minisat}", "-T", limit])
    out, err = capsys.readouterr()
    assert code == 10, err
    assert "s cnf 1 3" in out and err == ""
    (argv,) = [json.loads(line) for line in log.read_text().splitlines()]
    limits = [int(arg.split("=")[1]) for arg in argv if arg.startswith("-cpu-lim=")]
    assert limits and 1 <= limits[0] <= INT32_MAX


@pytest.mark.parametrize("limit", LARGE_LIMITS)
def test_the_real_minisat_at_a_large_t_exits_10(tmp_path, limit):
    minisat = shutil.which("minisat")
    if minisat is None:
        pytest.skip("MiniSat is not installed (Debian: apt-get install minisat)")
    formula = tmp_path / "ex.cnf"
    formula.write_text(EX_CNF)
    done = subprocess.run(
        [sys.executable, "-m", "sudosat", "sat", str(formula), "--solver", "exec:minisat",
         "-T", limit], capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 10, done.stderr
    assert "s cnf 1 3" in done.stdout


@pytest.mark.parametrize("limit", LARGE_LIMITS)
def test_solve_with_zchaff_and_an_exec_solver_at_a_large_t_solves_every_line(
        tmp_path, fake_zchaff, fake_minisat, capsys, limit):
    other = Board.parse(COURSE_EXAMPLE).with_value(0, 0, 0).to_line()  # one given fewer
    lines = [COURSE_EXAMPLE, other]
    instances = tmp_path / "in.txt"
    instances.write_text("".join(line + "\n" for line in lines))
    out = tmp_path / "out.txt"
    solvers = ["zchaff", f"exec:{fake_minisat}"]
    code = main(["solve", str(instances), "-o", str(out), "--solver", solvers[0], "--zchaff",
                 str(fake_zchaff), "--solver", solvers[1], "-T", limit, "--no-progress"])
    err = capsys.readouterr().err
    assert code == 0, err
    for path in output_paths(instances, out, solvers).values():
        written = path.read_text().splitlines()
        assert len(written) == len(lines)
        for puzzle, answer in zip(lines, written, strict=True):
            assert check_solution(Board.parse(puzzle), Board.parse(answer)) is None, answer
    argv = json.loads((tmp_path / "zchaff-log" / "argv.json").read_text())
    assert 1 <= int(argv[-1]) <= INT32_MAX  # zChaff's own limit, in seconds


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_every_solver_answers_under_the_largest_t(clock, fake_zchaff, fake_minisat):
    formula = CNF([[1, -2], [2, 3]])
    deadline = 999_999_999_999_999_999
    solvers = ["cdcl", "dpll", "dp", "walksat", "gsat", "pysat:minisat22", "zchaff",
               f"exec:{fake_minisat}"]
    for solver in solvers:
        options = {"zchaff": str(fake_zchaff)} if solver == "zchaff" else {}
        result = solve(formula, solver, deadline=Deadline(deadline, clock=clock), **options)
        assert result.status is Status.SAT, (solver, result)
