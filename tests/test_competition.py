"""exec:PROGRAM: the SAT-competition conventions and parsers, fake programs, real binaries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sudosat import process as process_module
from sudosat.errors import SolverError, SolverNotFoundError
from sudosat.process import ProcessOutput
from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers import solve
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.competition import (
    CONVENTIONS,
    convention_for,
    parse_competition_output,
    parse_minisat_result,
    scrape_stats,
    solve_exec,
)
from sudosat.sat.solvers.pysat import solve_pysat
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, vu_rules_file
from tests.fake_solvers.support import (
    TINY_SAT,
    TINY_UNSAT,
    alive,
    assert_quick_unknown,
    decode_rcv,
    group_members,
    make_launcher,
    random_formulas,
    sudoku_rules_with_givens,
)

REAL_PROGRAMS = ["minisat", "picosat", "cadical", "kissat"]


def needs(program: str):
    """Skip unless `program` is on PATH, saying how to get it."""
    return pytest.mark.skipif(
        shutil.which(program) is None,
        reason=f"{program} is not on PATH (apt-get install -y {program}, where Debian has it)",
    )


# --------------------------------------------------------------------------------------
# The SAT-competition output


def test_competition_output_with_wrapped_v_lines():
    stdout = "c hello\ns SATISFIABLE\nv 1 -2\nv 3\nv -4 0\n"
    result = parse_competition_output(stdout, "", 10, 4, timed=True)
    assert result.status is Status.SAT and result.model == [1, -2, 3, -4]


def test_competition_output_fills_unmentioned_variables_with_false():
    answer = parse_competition_output("s SATISFIABLE\nv 2 0\n", "", 10, 3, timed=False)
    assert answer.model == [-1, 2, -3] and answer.stop is Stop.ANSWERED


@pytest.mark.parametrize(
    "stdout, code, status",
    [
        ("s UNSATISFIABLE\n", 20, Status.UNSAT),
        ("s UNKNOWN\n", 0, Status.UNKNOWN),
        ("s INDETERMINATE\n", 0, Status.UNKNOWN),
        ("c UNKNOWN\n", 0, Status.UNKNOWN),  # CaDiCaL's own time-out
        ("s UNSATISFIABLE\n", 0, Status.UNSAT),  # a solver that does not use exit codes
    ],
)
def test_competition_output_without_model(stdout, code, status):
    result = parse_competition_output(stdout, "", code, 2, timed=True)
    assert result.status is status and result.model is None
    # A program given a time limit says UNKNOWN when that limit ran out; without one, it gave up.
    untimed = parse_competition_output(stdout, "", code, 2, timed=False)
    if status is Status.UNKNOWN:
        assert (result.stop, untimed.stop) == (Stop.TIME, Stop.GAVE_UP)
    else:
        assert result.stop is untimed.stop is Stop.ANSWERED


@pytest.mark.parametrize(
    "stdout, stderr, code, words",
    [
        (
            "",
            "bad.cnf:2: maximal variable index exceeded\n",
            0,
            "no 's' status line .exit code 0.: bad.cnf:2: maximal variable index exceeded",
        ),
        ("s SATISFIABLE\nv 1 0\n", "", 20, "exited with code 20 but printed 's SATISFIABLE'"),
        ("s UNSATISFIABLE\n", "", 10, "exited with code 10"),
        ("s SATISFIABLE\ns SATISFIABLE\nv 1 0\n", "", 10, "printed 2 's' lines"),
        ("s MAYBE\n", "", 0, "unknown status 's MAYBE'"),
        ("s SATISFIABLE\nv 1 -2\n", "", 10, "does not end with 0"),
        ("s SATISFIABLE\nv 1 x 0\n", "", 10, "non-integer 'x'"),
        ("s SATISFIABLE\nv 1 3 0\n", "", 10, "holds 3, outside 1..2"),
        ("s SATISFIABLE\nv 1 -1 0\n", "", 10, "gives variable 1 both values"),
        ("s UNSATISFIABLE\nv 1 0\n", "", 20, "'v' lines without 's SATISFIABLE'"),
        ("s SATISFIABLE\nv 1 0\n", "Segmentation fault\n", -11, "killed by signal SIGSEGV"),
        (
            "",
            "cadical: error: parse error\n",
            1,
            "failed .exit code 1.: cadical: error: parse error",
        ),
    ],
)
def test_competition_output_errors(stdout, stderr, code, words):
    with pytest.raises(SolverError, match=words):
        parse_competition_output(stdout, stderr, code, 2, label="exec:x", timed=True)


def minisat_run(code: int, stdout: str = "", stderr: str = "") -> ProcessOutput:
    return ProcessOutput(stdout, stderr, code, 1.0)


def test_minisat_result_file():
    result = parse_minisat_result("SAT\n1 -2 0\n", minisat_run(10), 3, timed=True)
    assert result.status is Status.SAT and result.model == [1, -2, -3]
    assert parse_minisat_result("UNSAT\n", minisat_run(20), 3, timed=True).status is Status.UNSAT
    indet = parse_minisat_result("INDET\n", minisat_run(0), 3, timed=True)
    assert indet.status is Status.UNKNOWN and indet.stop is Stop.TIME  # its -cpu-lim ran out


@pytest.mark.parametrize(
    "text, run, words",
    [
        ("", minisat_run(1, "ERROR! Could not open file: x.cnf\n"), "failed .exit code 1.: ERROR!"),
        ("", minisat_run(10), "wrote nothing to its result file"),
        ("SAT\n1 -2 0\n", minisat_run(20), "exited with code 20 but its result file says SAT"),
        ("SAT\n1 -2\n", minisat_run(10), "does not end with 0"),
        ("MAYBE\n", minisat_run(0), "wrote 'MAYBE'"),
    ],
)
def test_minisat_result_errors(text, run, words):
    with pytest.raises(SolverError, match=words):
        parse_minisat_result(text, run, 3, timed=True)


def test_statistics_of_each_family():
    minisat = (
        "restarts              : 4\nconflicts             : 165114         (171410 /sec)\n"
        "CPU time              : 0.963268 s\n"
    )
    assert scrape_stats(minisat) == {"restarts": 4, "conflicts": 165114,
                                     "search_cpu_ms": pytest.approx(963.268)}
    cadical = (
        "c conflicts:                    7         0.00    per second\n"
        "c total process time since initialization:         0.25    seconds\n"
    )
    assert scrape_stats(cadical) == {"conflicts": 7, "search_cpu_ms": 250.0}
    picosat = "c 0 restarts\nc 2 decisions\nc 0.1 seconds total run time\n"
    assert scrape_stats(picosat) == {"restarts": 0, "decisions": 2, "search_cpu_ms": 100.0}


# --------------------------------------------------------------------------------------
# Conventions


@pytest.mark.parametrize(
    "program, expected",
    [
        ("/usr/bin/minisat", ["-cpu-lim=2", "IN", "OUT"]),
        ("picosat", ["-v", "-L", "2", "-s", "7", "IN"]),
        ("cadical", ["-t", "2", "--seed=7", "IN"]),
        ("kissat", ["--time=2", "--seed=7", "IN"]),
        ("./my-solver", ["IN"]),
    ],
)
def test_command_lines_per_convention(program, expected):
    argv = convention_for(program).argv([program], Path("IN"), Path("OUT"), 2, 7)
    assert argv == [program, *expected]


def test_command_line_without_limit_keeps_the_programs_own_options():
    argv = CONVENTIONS["cadical"].argv(["cadical", "--sat"], Path("IN"), Path("OUT"), None, 0)
    assert argv == ["cadical", "--seed=0", "--sat", "IN"]


# --------------------------------------------------------------------------------------
# exec: with fake programs


@pytest.fixture
def fake_exec(tmp_path, monkeypatch):
    """A function making a fake solver called `name` that behaves as `mode` with `files`."""
    log = tmp_path / "log"
    monkeypatch.setenv("FAKE_LOG", str(log))

    def make(name: str, mode: str = "replay", **files: str) -> Path:
        answer = tmp_path / "answer"
        answer.mkdir(exist_ok=True)
        files.setdefault("exit_code", "0")
        files.setdefault("stdout", "")
        for file_name, content in files.items():
            (answer / file_name).write_text(content)
        monkeypatch.setenv("FAKE_MODE", mode)
        monkeypatch.setenv("FAKE_DIR", str(answer))
        return make_launcher(tmp_path / "bin", name)

    make.log = log
    return make


def test_exec_competition_program(fake_exec):
    program = fake_exec("my-solver", stdout="s SATISFIABLE\nv 1 -2\nv 3 0\n", exit_code="10")
    result = solve_exec(TINY_SAT, program=str(program), deadline=Deadline(5000), seed=3)
    assert result.status is Status.SAT and result.model == [1, -2, 3]
    assert result.solver == f"exec:{program}" and result.stats["process_wall_ms"] > 0
    input_path = json.loads((fake_exec.log / "argv.json").read_text())[-1]
    assert (fake_exec.log / "input.cnf").read_text() == "p cnf 3 2\n1 -2 0\n2 3 0\n"
    assert input_path.startswith("/dev/fd/")  # an anonymous file: nothing on disk to leave


def test_exec_minisat_result_file_convention(fake_exec):
    program = fake_exec("minisat", stdout="SATISFIABLE\n", exit_code="10", result="SAT\n1 2 0\n")
    result = solve_exec(TINY_SAT, program=str(program), deadline=Deadline(2500))
    assert result.model == [1, 2, -3]
    argv = json.loads((fake_exec.log / "argv.json").read_text())
    assert argv[0] == "-cpu-lim=3" and argv[1] != argv[2]
    assert argv[1].startswith("/dev/fd/") and argv[2].startswith("/dev/fd/")


def test_exec_program_with_its_own_options(fake_exec):
    program = fake_exec("my-solver", stdout="s UNSATISFIABLE\n", exit_code="20")
    assert solve_exec(TINY_UNSAT, program=f"{program} --fast -x 1").status is Status.UNSAT
    assert json.loads((fake_exec.log / "argv.json").read_text())[:3] == ["--fast", "-x", "1"]


def test_exec_catches_a_wrong_model(fake_exec):
    program = fake_exec("my-solver", stdout="s SATISFIABLE\nv -1 2 -3 0\n", exit_code="10")
    with pytest.raises(SolverError, match="returned a wrong model: .*falsifies clause 1"):
        solve_exec(TINY_SAT, program=str(program))


def test_exec_picosat_error_with_exit_zero(fake_exec):
    program = fake_exec("picosat", stdout="*** picosat: can not read input file\n")
    with pytest.raises(SolverError, match="no 's' status line .exit code 0.: \\*\\*\\* picosat"):
        solve_exec(TINY_SAT, program=str(program))


@pytest.mark.parametrize(
    "mode, words", [("abort", "killed by signal SIGABRT"), ("garbage", "no 's' status line")]
)
def test_exec_crash_and_garbage(fake_exec, mode, words):
    program = fake_exec("my-solver", mode=mode)
    with pytest.raises(SolverError, match=words):
        solve_exec(TINY_SAT, program=str(program))


def test_exec_missing_or_not_executable(tmp_path):
    with pytest.raises(SolverNotFoundError, match="no program 'no-such-solver-x' on PATH"):
        solve_exec(TINY_SAT, program="no-such-solver-x")
    plain = tmp_path / "solver"
    plain.write_text("s SATISFIABLE\n")
    with pytest.raises(SolverNotFoundError, match="is not executable"):
        solve_exec(TINY_SAT, program=str(plain))
    with pytest.raises(SolverNotFoundError, match="no program named"):
        solve_exec(TINY_SAT, program=" ")
    with pytest.raises(SolverError, match="cannot split the command"):
        solve_exec(TINY_SAT, program="solver 'unclosed")


def test_exec_empty_clause_is_unsat_without_running(fake_exec):
    program = fake_exec("my-solver", stdout="s SATISFIABLE\nv 1 0\n", exit_code="10")
    assert solve_exec(CNF([[1], []]), program=str(program)).status is Status.UNSAT
    assert not fake_exec.log.exists()


@pytest.mark.parametrize("mode", ["sleep", "spawn"])
def test_exec_time_limit_kills_the_program_and_its_children(fake_exec, mode, monkeypatch):
    # The program's pid is taken where it is started, not from the file the fake writes once
    # its Python runs: on a busy machine T can pass before that (the file was then missing).
    # A grandchild stays in the program's process group, which must be empty after the kill.
    started: list[int] = []
    track = process_module.track_group
    monkeypatch.setattr(process_module, "track_group",
                        lambda group: (started.append(group), track(group))[1])
    program = fake_exec("cadical", mode=mode)
    assert_quick_unknown(
        lambda: solve_exec(pigeonhole(11, 10), program=str(program), deadline=Deadline(500))
    )
    [pid] = started
    assert not alive(pid) and not group_members(pid)
    child = fake_exec.log / "child_pid"
    if mode == "spawn" and child.exists():  # written once the grandchild runs
        assert not alive(int(child.read_text()))


# --------------------------------------------------------------------------------------
# exec: with the real binaries, when installed


@pytest.mark.parametrize("program", REAL_PROGRAMS)
def test_real_program_sat_unsat_and_unused_variables(program):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not on PATH (apt-get install -y {program}, where Debian has it)")
    sat = solve(CNF([[1, -2], [2, 3]], num_vars=6), f"exec:{program}", time_limit_ms=30_000)
    assert sat.status is Status.SAT and len(sat.model) == 6
    assert solve(TINY_UNSAT, f"exec:{program}", time_limit_ms=30_000).status is Status.UNSAT
    empty = solve(CNF([], num_vars=2), f"exec:{program}", time_limit_ms=30_000)
    assert empty.status is Status.SAT


@pytest.mark.parametrize("program", REAL_PROGRAMS)
def test_real_program_agrees_with_pysat(program):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not on PATH (apt-get install -y {program}, where Debian has it)")
    for number, cnf in enumerate(random_formulas(40, seed=7)):
        mine = solve(cnf, f"exec:{program}", time_limit_ms=30_000)
        assert mine.status is solve_pysat(cnf, backend="minisat22").status, f"formula {number}"


@pytest.mark.parametrize("program", REAL_PROGRAMS)
def test_real_program_solves_the_course_sudoku(program):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not on PATH (apt-get install -y {program}, where Debian has it)")
    rules = vu_rules_file()
    puzzle = COURSE_EXAMPLE.split()[1]
    result = solve(sudoku_rules_with_givens(rules, puzzle), f"exec:{program}", time_limit_ms=30_000)
    assert decode_rcv(result.model) == COURSE_SOLUTION.split()[1]
    bad = sudoku_rules_with_givens(rules, "4" + puzzle[1:])  # two 4s in the first row
    assert solve(bad, f"exec:{program}", time_limit_ms=30_000).status is Status.UNSAT


@pytest.mark.parametrize("program", REAL_PROGRAMS)
def test_real_program_honours_the_time_limit(program):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not on PATH (apt-get install -y {program}, where Debian has it)")
    result = assert_quick_unknown(
        lambda: solve(pigeonhole(11, 10), f"exec:{program}", time_limit_ms=500)
    )
    assert result.solver == f"exec:{program}"
