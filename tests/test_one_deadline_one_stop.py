"""One deadline from the command line to the solver's loop, and one stop reason back.

The limit is one :class:`Deadline` (wall clock for the commands, CPU time for the
studies), passed by keyword to every stage and solver; why a call stopped is one
:class:`Stop`, set where the loop stops and carried to the results row and the output
word. Under a CPU deadline a program's own CPU time is what is bounded. The CPU bounds
here are T + max(10 % of T, 100 ms), the promise (tests/clock.py), measured in the
process that did the work, so that a busy machine does not decide them.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sudosat.cli import main, sat_sn_main
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers import solve
from sudosat.sat.solvers.budget import Clock, Deadline
from sudosat.sat.solvers.cdcl import Engine, Solver
from tests.clock import WAIT_MARGIN_S, cpu_spent, late_by_at_most
from tests.conftest import COURSE_EXAMPLE

PACKAGE = Path(__file__).resolve().parent.parent / "sudosat"
SOLVER_MODULES = ["cdcl/engine.py", "cdcl/solver.py", "cdcl/one_shot.py", "dpll.py", "local.py",
                  "pysat.py", "zchaff.py", "competition.py", "adapter.py", "incremental.py"]


# ---------------------------------------------------------------------------------------
# one stop reason


def test_the_stop_reason_is_defined_once_and_every_solver_says_it():
    defined = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name == "Stop":
                defined.append(path.relative_to(PACKAGE).as_posix())
    assert defined == ["sat/result.py"]
    for module in SOLVER_MODULES:
        text = (PACKAGE / "sat" / "solvers" / module).read_text(encoding="utf-8")
        assert re.search(r"\bStop\.[A-Z_]+\b|\bstop=", text), f"{module} never names a stop"
    # the four older records of it are gone
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for old in ("out_of_time=", ".out_of_time", "budget_stop(", "note_budget_stop",
                    "mark_budget_stop", "out_of_conflicts", "from_status("):
            assert old not in text, f"{path.relative_to(PACKAGE)} still says {old!r}"


@pytest.mark.parametrize(("name", "options", "stop"), [
    ("cdcl", {"max_conflicts": 5}, Stop.CONFLICTS),
    ("dpll", {"max_propagations": 50}, Stop.PROPAGATIONS),
    ("pysat:minisat22", {"max_conflicts": 5}, Stop.CONFLICTS),
    ("walksat", {"max_tries": 1, "max_flips": 10}, Stop.GAVE_UP),
    ("gsat", {"time_limit_ms": 0}, Stop.TIME),
])
def test_each_solver_says_why_it_stopped(name, options, stop):
    result = solve(pigeonhole(7, 6), name, **options)
    assert result.status is Status.UNKNOWN and result.stop is stop


HARD = "....23...8.....4........1..1..8..6.........7...4.......5..6..2..2.....35...4....."


def test_the_row_and_the_output_word_carry_the_solvers_stop(tmp_path, capsys):
    import csv

    instances = tmp_path / "in.txt"
    instances.write_text(f"1 0\n{HARD}\n3 12\n")
    code = main(["solve", str(instances), "-o", str(tmp_path / "out.txt"), "--solver", "dp",
                 "--max-conflicts", "5", "--no-progress"])
    assert code == 1, capsys.readouterr().err  # the third line is no board
    rows = list(csv.DictReader((tmp_path / "out.results.csv").open()))
    assert [(row["status"], row["stop"]) for row in rows] == [
        ("SAT", "answered"), ("UNKNOWN", "conflicts"), ("ERROR", "error")]
    assert (tmp_path / "out.txt").read_text().splitlines()[1] == "3 UNKNOWN"


# ---------------------------------------------------------------------------------------
# one deadline, by keyword, from the command line to the loop


@pytest.mark.usefixtures("python_core")  # spies on the Python engine's set_budget
def test_the_command_lines_t_reaches_the_cdcl_loop_as_one_deadline(tmp_path, monkeypatch, capsys):
    seen: list[object] = []
    real = Engine.set_budget

    def spy(self, deadline, max_conflicts, max_propagations):
        seen.append(deadline)
        return real(self, deadline, max_conflicts, max_propagations)

    monkeypatch.setattr(Engine, "set_budget", spy)
    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n")
    assert main(["solve", str(instances), "-o", str(tmp_path / "o.txt"), "-T", "4321",
                 "--no-progress"]) == 0, capsys.readouterr().err
    timed = [deadline for deadline in seen if getattr(deadline, "limited", False)]
    assert timed and all(type(deadline) is Deadline for deadline in timed)
    # The last is the line's (a probe of the solver comes first): its T, less the reserve
    # the one-shot keeps for freeing its tables, but the same limit on the same clock.
    line = timed[-1]
    assert (line.limit_ms, line.clock) == (4321.0, Clock.WALL) and line.at - time.monotonic() < 4.4


@pytest.mark.parametrize(("argv", "says"), [
    (["solve", "-h"], "'N TIMEOUT'"),
    (["count", "-h"], "'TIMEOUT'"),
    (["sat", "-h"], "unknown"),
    (["generate", "-h"], "writes nothing"),
])
def test_each_commands_t_says_what_it_writes_when_it_runs_out(argv, says, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    help_text = " ".join(capsys.readouterr().out.split())
    t_help = help_text[help_text.index("-T MS, --time-limit MS"):]
    assert "wall-clock" in t_help[:200] and says in t_help[:400], t_help[:400]
    assert "past it the answer is 'unknown'" not in help_text


def test_sat_sn_t_says_what_it_writes(capsys):
    with pytest.raises(SystemExit):
        sat_sn_main(["-h"])
    assert "writes no FILE.out" in " ".join(capsys.readouterr().out.split())


def test_the_deadline_is_given_once():
    with pytest.raises(ValueError, match="not both"):
        solve(pigeonhole(3, 2), "cdcl", deadline=Deadline(100), time_limit_ms=100)


# ---------------------------------------------------------------------------------------
# a CPU deadline: our solvers stop on CPU time, programs on their own CPU time


def test_a_cpu_deadline_does_not_pass_while_the_process_sleeps():
    deadline = Deadline(100, clock="cpu")
    time.sleep(0.3)
    assert not deadline.expired() and Deadline(100).remaining_ms() < 100


@pytest.mark.parametrize("name", ["cdcl", "dpll", "walksat", "pysat:minisat22"])
def test_our_solvers_stop_at_a_cpu_deadline(name):
    options = {"max_flips": 10**9} if name == "walksat" else {}
    with cpu_spent() as spent:
        result = solve(pigeonhole(10, 9), name, deadline=Deadline(300, clock="cpu"), **options)
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert spent.seconds < late_by_at_most(300), spent


def spinning_program(folder: Path, *, wrapped: bool = False) -> Path:
    """A program that burns CPU and never answers (behind a shell that forks it if `wrapped`)."""
    folder.mkdir(parents=True, exist_ok=True)
    spin = folder / "spin"
    spin.write_text(f"#!{sys.executable}\nwhile True:\n    pass\n")
    spin.chmod(0o755)
    if not wrapped:
        return spin
    shell = folder / "spin-wrapped"
    shell.write_text(f"#!/bin/sh\n{spin}\nexit 0\n")  # not exec: the shell waits, a child runs
    shell.chmod(0o755)
    return shell


@pytest.mark.parametrize("wrapped", [False, True], ids=["program", "program-behind-a-shell"])
def test_a_program_under_a_cpu_deadline_is_stopped_on_its_own_cpu_time(tmp_path, wrapped):
    program = spinning_program(tmp_path / "bin", wrapped=wrapped)
    started = time.monotonic()
    with cpu_spent() as spent:
        result = solve(pigeonhole(3, 2), f"exec:{program}", deadline=Deadline(300, clock="cpu"))
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    # The program alone spins: its CPU reached the allowance, not the wall-clock net of
    # ten times T plus 10 s. The shell's child is not ours to reap, hence the wall clock.
    assert time.monotonic() - started < 3.0 + WAIT_MARGIN_S
    if not wrapped:
        assert spent.children < late_by_at_most(300), spent


def test_a_sleeping_program_under_a_cpu_deadline_is_stopped_by_the_wall_net(tmp_path, monkeypatch):
    from sudosat import process

    sleeper = tmp_path / "sleeper"
    sleeper.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(600)\n")
    sleeper.chmod(0o755)
    monkeypatch.setattr(process, "CPU_WALL_NET_S", 0.5)
    started = time.monotonic()
    result = solve(pigeonhole(3, 2), f"exec:{sleeper}", deadline=Deadline(100, clock="cpu"))
    took = time.monotonic() - started
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert 0.5 <= took < 1.5 + WAIT_MARGIN_S  # 10 x 100 ms + 0.5 s of wall time, no more


def test_a_pysat_worker_under_a_cpu_deadline_is_stopped_on_its_cpu_time():
    with cpu_spent() as spent:
        result = solve(pigeonhole(11, 10), "pysat:minisat22", worker=True,
                       deadline=Deadline(300, clock="cpu"))
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert spent.children < late_by_at_most(300), spent


# ---------------------------------------------------------------------------------------
# --incremental and exec: keep T beside eight busy loops


CHILD = textwrap.dedent("""
    import json, sys
    from sudosat.run.pipeline import solve_instance
    from sudosat.run.runner import import_solver
    from sudosat.sat.solvers.budget import Deadline, cpu_seconds
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.encoding import encode

    clock, limit, program = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    import_solver("cdcl"), import_solver(f"exec:{program}")
    encode(Board.empty(2), "course")  # the encoder's first call builds tables of its own
    # The order-4 rules loaded beforehand, without a limit: T is then the search's alone.
    solve_instance(Board.parse("4 " + "0" * 255 + "1"), "cdcl", "extended", incremental=True)
    runs = {
        "exec": (Board.empty(2), f"exec:{program}", "course", {}),
        "incremental, loading the rules": (Board.empty(5), "cdcl", "extended",
                                           {"incremental": True}),
        "incremental, the rules loaded": (Board.empty(4), "cdcl", "extended",
                                          {"incremental": True}),
    }
    measured = {}
    for name, (board, solver, encoding, options) in runs.items():
        before = cpu_seconds()  # this process's CPU and its reaped children's
        row = solve_instance(board, solver, encoding, deadline=Deadline(limit, clock=clock),
                             **options).row
        measured[name] = {"cpu_s": cpu_seconds() - before, "status": str(row.status),
                          "stop": str(row.stop), "total_wall_ms": row.total_wall_ms}
    print(json.dumps(measured))
""")


@pytest.fixture
def eight_busy_loops():
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(8)]
    try:
        yield loops
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_incremental_and_exec_keep_t_beside_eight_busy_loops(eight_busy_loops, tmp_path, clock):
    """T = 10 ms: each call's CPU, measured around it by the process that ran it (its own
    and its reaped solver program's), stays within T + max(10 % of T, 100 ms); an answer
    that came after T is never accepted."""
    program = spinning_program(tmp_path / "bin")
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    done = subprocess.run([sys.executable, str(script), clock, "10", str(program)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout.splitlines()[-1])
    assert len(measured) == 3
    for name, run in measured.items():
        assert run["cpu_s"] < late_by_at_most(10), (name, run)
        if run["status"] != "TIMEOUT":  # answered: then within T, on T's own clock
            assert clock == "cpu" or run["total_wall_ms"] <= 10, (name, run)
        else:
            assert run["stop"] == "time", (name, run)


def test_an_answer_after_t_on_the_incremental_path_is_a_timeout(monkeypatch):
    from sudosat.run.pipeline import solve_instance
    from sudosat.sat.solvers.incremental import CdclSession
    from sudosat.sudoku.board import Board

    real = CdclSession.solve

    def late(self, assumptions=(), **keywords):
        answer = real(self, assumptions, **keywords)
        time.sleep(0.3)  # the answer is right, but it comes after T
        return answer

    monkeypatch.setattr(CdclSession, "solve", late)
    board = Board.parse(COURSE_EXAMPLE)
    solve_instance(board, "cdcl", "extended", incremental=True)  # rules loaded, no limit
    row = solve_instance(board, "cdcl", "extended", 200, incremental=True).row
    assert (row.status, row.stop, row.output) == ("TIMEOUT", Stop.TIME, "3 TIMEOUT"), row
    assert row.error == "the answer came after the time limit"


# ---------------------------------------------------------------------------------------
# CPU in the stats: real, in one unit, rounded for people


@pytest.mark.usefixtures("python_core")  # its formula is enough work on this core only
def test_solver_stats_give_the_cpu_time_process_time_sees_around_the_calls():
    cnf = pigeonhole(8, 7)
    began = time.process_time()
    solver = Solver(cnf)
    for _ in range(3):
        solver.solve(max_conflicts=2000)
    solver.add_clause([1, 2])
    solver.solve([1], max_conflicts=2000)
    spent_ms = (time.process_time() - began) * 1000.0
    stats = solver.stats()
    assert spent_ms > 200  # enough work for the clock's resolution not to matter
    assert stats["cpu_ms"] == pytest.approx(spent_ms, rel=0.10), (stats, spent_ms)
    assert stats["search_cpu_ms"] + stats["load_cpu_ms"] <= stats["cpu_ms"] + 0.5
    assert "solver_cpu_s" not in stats


def test_stats_print_times_in_milliseconds_rounded_for_people(tmp_path, capsys):
    cnf = tmp_path / "php.cnf"
    pigeonhole(6, 5).write_dimacs(cnf)
    main(["sat", str(cnf), "--stats"])
    comments = [line for line in capsys.readouterr().out.splitlines() if line.startswith("c ")]
    times = [line for line in comments if line.split()[1].endswith("_ms")]
    assert {line.split()[1] for line in times} >= {"load_cpu_ms", "search_cpu_ms",
                                                   "search_wall_ms"}
    assert all(re.fullmatch(r"c \w+_(cpu|wall)_ms \d+(\.\d)?", line) for line in times), times
    assert not any("_s " in line for line in comments), comments
