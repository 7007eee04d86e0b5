"""What each solver itself spent: the timing columns of a results row, for every kind of solver.

Every time column names its clock. A row's ``search_cpu_ms`` is the solver's own search on
CPU time (measured around the search in this process, or the CPU time a program reports),
``search_wall_ms`` the same search's wall time (in this process only), ``overhead_*_ms``
the rest of the line's total on that clock besides encoding and decoding, and
``solve_cpu_ms`` the CPU time of the solver call, a solver program's included. External
solvers count writing their input against T and get only what is left of it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd
import pytest

from sudosat.report import comparison, io
from sudosat.run.results import COLUMNS, Row, Verdict, read_table
from sudosat.run.runner import overheads, run_instance
from sudosat.sat.solvers import zchaff as zchaff_module
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.competition import solve_exec
from sudosat.sat.solvers.zchaff import solve_zchaff
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.sudoku.encoding import encode
from tests.clock import WAIT_MARGIN_S, cpu_spent, late_by_at_most
from tests.fake_solvers.support import TINY_SAT, TRANSCRIPTS, make_launcher

ROUNDING = 0.0025  # four columns each rounded to 0.001 ms
COURSE = Board.parse(COURSE_EXAMPLE)
CLASHING = Board.parse("2 1100000000000000")


def assert_parts_add_up(row: Row, clocks: tuple[str, ...] = ("cpu", "wall")) -> None:
    """total = encode + overhead + search + decode on each clock, a missing encode or decode
    counting 0; on a clock not in `clocks` (a program's search has no wall time of its own)
    the search and the overhead are empty."""
    for clock in ("cpu", "wall"):
        search, overhead = row[f"search_{clock}_ms"], row[f"overhead_{clock}_ms"]
        if clock not in clocks:
            assert search is None and overhead is None, row
            continue
        assert search is not None and overhead is not None, row
        parts = [row[f"encode_{clock}_ms"], overhead, search, row[f"decode_{clock}_ms"]]
        assert abs(sum(p for p in parts if p is not None) - row[f"total_{clock}_ms"]) <= ROUNDING
    assert row.solve_cpu_ms is not None and row.solve_cpu_ms >= 0


@pytest.fixture
def fake_zchaff(tmp_path, monkeypatch):
    """A zChaff that solves (PySAT inside) and answers in the real transcripts' layout."""
    monkeypatch.setenv("FAKE_MODE", "solve")
    monkeypatch.setenv("FAKE_DIR", str(TRANSCRIPTS))
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "log"))
    return make_launcher(tmp_path / "bin", "zchaff")


@pytest.mark.parametrize("solver", ["cdcl", "dpll", "dp", "walksat", "pysat:minisat22"])
@pytest.mark.parametrize("board", [COURSE, CLASHING], ids=["sat", "unsat"])
def test_parts_add_up_for_our_solvers_and_pysat(solver, board):
    row = run_instance(board, solver, "course", 60_000).row
    if solver == "walksat" and board is CLASHING:  # local search cannot refute: UNKNOWN
        assert row.status in (Verdict.UNSAT, Verdict.UNKNOWN)
    else:
        assert row.status is (Verdict.SAT if board is COURSE else Verdict.UNSAT)
    assert_parts_add_up(row)
    # The search runs inside the solver call, each on its own clock.
    assert row.search_wall_ms <= row.solve_wall_ms + ROUNDING, row
    assert row.search_cpu_ms <= row.solve_cpu_ms + ROUNDING, row
    assert row.load_cpu_ms is not None and row.load_cpu_ms <= row.solve_cpu_ms + ROUNDING


@pytest.mark.parametrize("solver", ["cdcl", "pysat:minisat22"])
def test_parts_add_up_with_the_rules_loaded_once(solver):
    run_instance(COURSE, solver, "course", 60_000, incremental=True)  # loads the rules
    row = run_instance(COURSE, solver, "course", 60_000, incremental=True).row
    assert row.status is Verdict.SAT
    assert_parts_add_up(row)


def test_zchaff_row_holds_its_own_run_time_and_its_process_cost(fake_zchaff, monkeypatch):
    monkeypatch.setenv("FAKE_RUN_TIME", "0.000278")
    monkeypatch.setenv("FAKE_BURN", "0.2")
    monkeypatch.setenv("FAKE_SLEEP", "0.4")
    row = run_instance(COURSE, "zchaff", "course", 60_000, zchaff=str(fake_zchaff)).row
    assert row.status is Verdict.SAT and row.valid
    assert row.search_cpu_ms == 0.278  # its "Total Run Time" line (CPU time), in ms
    # The child's CPU time is counted (it burnt 0.2 s), and the wall time of the call holds
    # its sleep too: wall and CPU are measured apart.
    assert row.solve_cpu_ms >= 200
    assert row.solve_wall_ms >= 600
    assert row.load_cpu_ms is None
    assert_parts_add_up(row, clocks=("cpu",))
    assert row.overhead_cpu_ms > 190  # the process's CPU, not the search's


def test_a_program_row_holds_the_programs_own_cpu_time_from_the_system(fake_zchaff,
                                                                        monkeypatch):
    """``process_cpu_ms`` is the child's own CPU time (wait4): the CPU it burnt counts, its
    sleep does not, and our side of the call is the total less it."""
    monkeypatch.setenv("FAKE_RUN_TIME", "0.000278")
    monkeypatch.setenv("FAKE_BURN", "0.2")
    monkeypatch.setenv("FAKE_SLEEP", "0.4")
    row = run_instance(COURSE, "zchaff", "course", 60_000, zchaff=str(fake_zchaff)).row
    assert row.status is Verdict.SAT
    assert row.process_cpu_ms is not None and row.process_cpu_ms >= 200  # it burnt 0.2 s
    assert row.process_cpu_ms < row.solve_wall_ms - 300  # its 0.4 s of sleep are not CPU
    assert row.process_cpu_ms <= row.solve_cpu_ms + ROUNDING  # the call's CPU holds it
    assert row.process_cpu_ms >= row.search_cpu_ms  # the process holds its search


def test_program_cpu_time_is_measured_for_exec_too_and_left_empty_in_process(
    tmp_path, monkeypatch
):
    minisat = one_var_program(
        tmp_path, monkeypatch, "minisat", exit_code="10", result="SAT\n1 0\n",
        stdout="CPU time              : 0.004 s\n\nSATISFIABLE\n",
    )
    program = run_instance(Board.parse("1 0"), f"exec:{minisat}", "course", 60_000).row
    assert program.process_cpu_ms is not None and program.process_cpu_ms > 0
    for solver in ("cdcl", "pysat:minisat22"):
        assert run_instance(Board.parse("1 0"), solver, "course", 60_000).row.process_cpu_ms \
            is None


def test_zchaff_unsat_row_adds_up(fake_zchaff, monkeypatch):
    monkeypatch.setenv("FAKE_RUN_TIME", "1.9e-05")
    row = run_instance(CLASHING, "zchaff", "course", 60_000, zchaff=str(fake_zchaff)).row
    assert row.status is Verdict.UNSAT and row.search_cpu_ms == 0.019
    assert row.decode_wall_ms is None and row.decode_cpu_ms is None
    assert_parts_add_up(row, clocks=("cpu",))


def one_var_program(tmp_path, monkeypatch, name: str, **files: str) -> Path:
    """A fake `name` that answers the order-1 board's formula (one variable, true)."""
    answer = tmp_path / "answer"
    answer.mkdir()
    for file_name, content in files.items():
        (answer / file_name).write_text(content)
    monkeypatch.setenv("FAKE_MODE", "replay")
    monkeypatch.setenv("FAKE_DIR", str(answer))
    return make_launcher(tmp_path / "bin", name)


def test_exec_row_holds_the_time_minisat_reports(tmp_path, monkeypatch):
    minisat = one_var_program(
        tmp_path, monkeypatch, "minisat", exit_code="10", result="SAT\n1 0\n",
        stdout="conflicts             : 0\nCPU time              : 0.004 s\n\nSATISFIABLE\n",
    )
    row = run_instance(Board.parse("1 0"), f"exec:{minisat}", "course", 60_000).row
    assert row.status is Verdict.SAT and row.search_cpu_ms == 4.0
    assert_parts_add_up(row, clocks=("cpu",))


def test_exec_row_of_a_program_that_reports_no_time_leaves_search_and_overhead_empty(
    tmp_path, monkeypatch
):
    program = one_var_program(tmp_path, monkeypatch, "my-solver", exit_code="10",
                              stdout="s SATISFIABLE\nv 1 0\n")
    row = run_instance(Board.parse("1 0"), f"exec:{program}", "course", 60_000).row
    assert row.status is Verdict.SAT
    assert_parts_add_up(row, clocks=())
    assert row.solve_wall_ms is not None and row.solve_cpu_ms is not None


def test_overhead_is_empty_without_a_search_time_and_counts_a_missing_stage_as_zero():
    assert overheads({"total_cpu_ms": 5.0, "encode_cpu_ms": 1.0}) == {
        "overhead_cpu_ms": None, "overhead_wall_ms": None}
    assert overheads({"total_wall_ms": 5.0, "search_wall_ms": 1.5,
                      "total_cpu_ms": 4.0, "search_cpu_ms": 1.0, "decode_cpu_ms": 0.5}) == {
        "overhead_cpu_ms": 2.5, "overhead_wall_ms": 3.5}


def test_one_clock_never_lends_its_search_to_the_other():
    """The bug: cdcl's search_ms was a wall-clock difference and zChaff's its CPU time, and one
    loaded run read a search of 99.3 ms in a solve of 5.05 ms of CPU."""
    assert overheads({"total_wall_ms": 100.0, "search_cpu_ms": 5.0}) == {
        "overhead_cpu_ms": None, "overhead_wall_ms": None}


# ---------------------------------------------------------------------------------------
# results tables written before the columns existed


OLD_HEADER = (
    "line,order,givens,solver,encoding,status,valid,encode_ms,solve_ms,decode_ms,total_ms,"
    "variables,clauses,decisions,conflicts,propagations,load_ms,search_ms,error,output"
)


def test_an_older_table_reads_back_with_the_new_columns(tmp_path):
    old = tmp_path / "old.results.csv"
    old.write_text(
        OLD_HEADER + "\n"
        "1,3,27,cdcl,course,SAT,True,2.0,5.0,0.5,8.0,729,11772,20,19,1796,1.0,3.0,,3 1\n"
        "1,3,27,zchaff,course,SAT,True,2.0,12.0,0.5,15.0,729,11772,14,5,927,,,,3 1\n"
    )
    table = read_table(old)
    assert list(table.columns) == list(COLUMNS)  # the mixed-clock columns are gone
    assert list(table["total_wall_ms"]) == [8.0, 15.0]
    assert list(table["encode_wall_ms"]) == [2.0, 2.0]
    # cdcl's search_ms was wall time, zChaff's CPU: neither is read into a column of one clock
    for column in ("load_cpu_ms", "search_cpu_ms", "search_wall_ms", "overhead_cpu_ms",
                   "overhead_wall_ms", "solve_cpu_ms"):
        assert table[column].isna().all(), column
    row = Row.from_dict({"total_ms": "8.0", "search_ms": "3.0"})
    assert row.total_wall_ms == 8.0 and row.search_wall_ms is None and row.solve_cpu_ms is None


# ---------------------------------------------------------------------------------------
# T bounds writing the input, and the program gets only what is left


@pytest.mark.parametrize("limit_ms", [150, 700])
def test_a_sleeping_zchaff_and_the_writing_of_its_input_stay_within_t(
    fake_zchaff, monkeypatch, limit_ms
):
    """Order 5: 750,625 clauses to build and write; the shorter T ends while building."""
    monkeypatch.setenv("FAKE_MODE", "sleep")
    board = Board.parse("5 " + "0" * 625)
    with cpu_spent() as spent:
        row = run_instance(board, "zchaff", "course", limit_ms, zchaff=str(fake_zchaff)).row
    assert row.status is Verdict.TIMEOUT
    # Building and writing are work, held to T's promise on CPU time; the fake then sleeps,
    # and only the wall clock shows that it was killed at T (tests/clock.py).
    assert spent.seconds < late_by_at_most(limit_ms), spent
    assert row.total_wall_ms <= limit_ms + WAIT_MARGIN_S * 1000.0, row.total_wall_ms


def test_writing_the_input_is_cut_at_the_deadline(fake_zchaff, tmp_path):
    """Writing the whole order-5 formula takes some 300 ms; it stops at T = 30 ms instead."""
    cnf = encode(Board.parse("5 " + "0" * 625), "course").cnf
    with cpu_spent() as spent:
        result = solve_zchaff(cnf, deadline=Deadline(30), zchaff=str(fake_zchaff))
    assert result.status.name == "UNKNOWN"
    assert not (tmp_path / "log").exists()  # the program never started
    # The clock is read between slices of 65,536 literals (a few ms each here): 200 ms of
    # CPU (tests/clock.py) allows a machine many times slower, and is less than writing
    # everything takes.
    assert spent.seconds <= (30 + 200) / 1000.0, spent


def test_zchaff_gets_the_whole_seconds_left_after_writing(fake_zchaff, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_MODE", "solve")
    real_write = zchaff_module.write_dimacs

    def slow_write(*args, **kwargs):
        time.sleep(1.0)  # as a big formula would take
        return real_write(*args, **kwargs)

    monkeypatch.setattr(zchaff_module, "write_dimacs", slow_write)
    result = solve_zchaff(TINY_SAT, deadline=Deadline(2500), zchaff=str(fake_zchaff))
    assert result.status.name == "SAT"
    seconds = json.loads((tmp_path / "log" / "argv.json").read_text())[1]
    assert seconds == "2"  # ceil(1.5 s left), where T would have given 3


# ---------------------------------------------------------------------------------------
# a relative program path


def test_a_relative_program_path_is_taken_from_the_current_folder(tmp_path, monkeypatch):
    program = one_var_program(tmp_path, monkeypatch, "mysolver", exit_code="10",
                              stdout="s SATISFIABLE\nv 1 -2 3 0\n")
    monkeypatch.chdir(program.parent)
    assert solve_exec(TINY_SAT, program="./mysolver").model == [1, -2, 3]
    monkeypatch.chdir(tmp_path)
    assert solve_exec(TINY_SAT, program="bin/mysolver --fast").model == [1, -2, 3]


# ---------------------------------------------------------------------------------------
# the pages' facts: like with like


RACE_COLUMNS = ["line", "solver", "status", "total_wall_ms", "total_cpu_ms", "search_cpu_ms",
                "overhead_wall_ms", "overhead_cpu_ms", "solve_wall_ms", "solve_cpu_ms"]


def race_table(rows: list[tuple]) -> pd.DataFrame:
    """A results table from rows of :data:`RACE_COLUMNS`."""
    frame = pd.DataFrame([dict(zip(RACE_COLUMNS, row, strict=True)) for row in rows])
    frame["order"] = 3
    return io.normalise_results(frame)


# zChaff: a fast search in a slow process; cdcl: a slower search with little around it.
# zChaff's wall-clock overhead is unknown (its search is known on CPU time only).
RACE = [
    (1, "cdcl", "SAT", 4.0, 3.8, 2.0, 1.6, 1.5, 3.6, 3.5),
    (1, "zchaff", "SAT", 14.0, 9.4, 0.2, None, 9.0, 13.6, 9.0),
    (2, "cdcl", "SAT", 3.0, 2.9, 1.0, 1.6, 1.5, 2.6, 2.5),
    (2, "zchaff", "SAT", 12.0, 8.4, 0.1, None, 8.1, 11.6, 8.0),
    (3, "cdcl", "UNSAT", 2.0, 1.9, 0.5, 1.1, 1.0, 1.6, 1.5),
    (3, "zchaff", "TIMEOUT", 50.0, 1.2, None, None, None, 49.0, 1.0),
]


def winner(facts: dict, own: str = "cdcl", reference: str = "zchaff") -> str | None:
    """The solver faster on more of the instances both decided (None: as many each)."""
    mine, theirs = facts["own_faster"], facts["reference_faster"]
    return None if mine == theirs else own if mine > theirs else reference


def test_each_comparison_has_its_own_winner_and_names_its_clock():
    versus = comparison.comparison_facts(race_table(RACE), "cdcl", "zchaff")
    made = {key: f for key, f in versus.items() if not f["lacking"]}
    assert list(made) == [("search", "CPU"), ("end to end", "wall"), ("end to end", "CPU"),
                          ("overhead", "CPU")]
    assert [winner(f) for f in made.values()] == ["zchaff", "cdcl", "cdcl", "cdcl"]
    assert made[("end to end", "wall")]["both"] == 2  # line 3: zChaff gave no answer
    assert made[("search", "CPU")]["median_ratio"] == pytest.approx((2.0 / 0.2 + 1.0 / 0.1) / 2)
    # zChaff's process CPU time is not in this table: its own work cannot be told apart
    assert [(*key, f["lacking"]) for key, f in versus.items() if f["lacking"]] == [
        ("solver alone", "CPU", ("zchaff",)), ("around the solver", "CPU", ("zchaff",)),
        ("overhead", "wall", ("zchaff",))]


def test_with_a_programs_own_cpu_time_the_solver_alone_and_around_it_are_compared():
    """zChaff's process used 9 ms of the call's 9.4 (line 1): its own work against cdcl's
    loading and search; what this process spent around each, the rest of each total."""
    table = race_table(RACE)
    table.loc[table["solver"] == "zchaff", "process_cpu_ms"] = [9.0, 8.0, 1.0]
    table.loc[table["solver"] == "cdcl", "load_cpu_ms"] = [0.5, 0.5, 0.5]
    versus = comparison.comparison_facts(io.normalise_results(table), "cdcl", "zchaff")
    alone = comparison.compared(versus, "solver alone", "CPU")
    around = comparison.compared(versus, "around the solver", "CPU")
    assert alone is not None and around is not None and alone["both"] == around["both"] == 2
    assert alone["median_ratio"] == pytest.approx(((2.0 + 0.5) / 9.0 + (1.0 + 0.5) / 8.0) / 2)
    assert around["median_ratio"] == pytest.approx(((3.8 - 2.5) / 0.4 + (2.9 - 1.5) / 0.4) / 2)
    assert winner(alone) == "cdcl" and winner(around) == "zchaff"


def test_without_a_search_time_neither_search_nor_overhead_is_compared():
    rows = [row[:5] + ((None, None, None) if row[1] == "zchaff" else row[5:8]) + row[8:]
            for row in RACE]
    versus = comparison.comparison_facts(race_table(rows), "cdcl", "zchaff")
    end_to_end = comparison.compared(versus, "end to end", "wall")
    assert end_to_end is not None and winner(end_to_end) == "cdcl"
    assert comparison.compared(versus, "search", "CPU") is None
    assert comparison.compared(versus, "overhead", "CPU") is None
    assert [key for key, f in versus.items() if f["lacking"]] == [
        ("search", "CPU"), ("solver alone", "CPU"), ("around the solver", "CPU"),
        ("overhead", "wall"), ("overhead", "CPU")]
    assert {f["lacking"] for f in versus.values() if f["lacking"]} == {("zchaff",)}


def test_a_tie_has_no_winner_and_one_solver_compares_with_nothing():
    rows = [(1, s, "SAT", 5.0, 5.0, 1.0, 4.0, 4.0, 5.0, 5.0) for s in ("cdcl", "ref")]
    versus = comparison.comparison_facts(race_table(rows), "cdcl", "ref")
    tie = comparison.compared(versus, "end to end", "wall")
    assert tie is not None and tie["ties"] == 1 and winner(tie) is None
    alone = comparison.comparison_facts(race_table(rows), "cdcl", None)
    assert alone == {} and comparison.decided_by_both(alone) == 0


@pytest.mark.parametrize(("cpu", "busy"), [(3.5, False), (2.0, True)])
def test_a_busy_machine_is_told_from_the_in_process_solver_s_wall_over_cpu(cpu, busy):
    rows = [(line, "cdcl", "SAT", 4.0, 3.8, 2.0, 1.6, 1.5, 3.6, cpu) for line in (1, 2, 3)]
    rows += [(line, "zchaff", "SAT", 14.0, 9.4, 0.2, None, 9.0, 13.6, 1.0) for line in (1, 2, 3)]
    ratios = comparison.wall_cpu_facts(race_table(rows), ["cdcl", "zchaff"])
    assert ratios == {"cdcl": pytest.approx(3.6 / cpu), "zchaff": pytest.approx(13.6)}
    assert comparison.machine_busy(ratios) is busy  # judged by cdcl alone, in this process


def test_a_table_without_cpu_times_cannot_tell_a_busy_machine():
    rows = [(1, "cdcl", "SAT", 4.0, None, 2.0, 1.6, None, 3.6, None)]
    ratios = comparison.wall_cpu_facts(race_table(rows), ["cdcl"])
    assert ratios == {} and comparison.machine_busy(ratios) is None


def test_the_comparison_table_holds_each_solver_s_medians_under_clock_named_headers():
    table = comparison.comparison_table(race_table(RACE), ["cdcl", "zchaff"])
    assert table.loc["zchaff", "decided"] == 2
    assert table.loc["zchaff", "median search CPU ms"] == pytest.approx(0.15)
    assert table.loc["cdcl", "median overhead CPU ms"] == pytest.approx(1.5)
    assert table.loc["cdcl", "median end to end wall ms"] == pytest.approx(3.0)
    assert table.loc["cdcl", "median wall / CPU"] == pytest.approx(2.6 / 2.5)  # the middle
    assert table.loc["zchaff", "median wall / CPU"] == pytest.approx((13.6 / 9.0 + 11.6 / 8.0) / 2)
    assert all(" wall " in c or " CPU " in c for c in table.columns if c.endswith(" ms"))


# -- search alone is CPU against CPU --------------------------------------------------------


def recomputed_search_ratio(results: pd.DataFrame, own: str, reference: str) -> float:
    """The median over the instances both decided of own's CPU search over reference's, worked
    out here from the results table, apart from the package."""
    decided = results[results["status"].isin(["SAT", "UNSAT"])]
    wide = decided.pivot(index="line", columns="solver", values="search_cpu_ms").dropna()
    return float((wide[own] / wide[reference]).median())


def test_on_a_busy_machine_search_alone_still_sets_cpu_against_cpu():
    """cdcl's search took four times as long on the wall clock as on CPU; the page's ratio
    is the CPU one, and the wall-clock search never enters it."""
    rows = []
    for line, (mine, theirs) in enumerate([(2.0, 0.2), (1.0, 0.1), (0.6, 0.2)], 1):
        rows.append({"line": line, "solver": "cdcl", "status": "SAT", "search_cpu_ms": mine,
                     "search_wall_ms": 4 * mine, "total_wall_ms": 20.0, "total_cpu_ms": 5.0})
        rows.append({"line": line, "solver": "zchaff", "status": "SAT", "search_cpu_ms": theirs,
                     "total_wall_ms": 30.0, "total_cpu_ms": 9.0})
    results = io.normalise_results(pd.DataFrame(rows).assign(order=3))
    versus = comparison.comparison_facts(results, "cdcl", "zchaff")
    search = comparison.compared(versus, "search", "CPU")  # the search_cpu_ms column
    assert search is not None
    assert search["median_ratio"] == pytest.approx(
        recomputed_search_ratio(results, "cdcl", "zchaff"))
    assert search["median_ratio"] == pytest.approx(10.0)  # not 40: the wall-clock search


def test_with_a_zchaff_that_reports_its_cpu_time_the_search_ratio_is_cpu_against_cpu(
    fake_zchaff, monkeypatch, tmp_path
):
    """Acceptance, on a run of the batch runner: the course example and two order-2 boards with
    cdcl and a zChaff stand-in that reports its own CPU time, as zChaff does."""
    from sudosat.report import run

    monkeypatch.setenv("FAKE_RUN_TIME", "0.000278")
    monkeypatch.setenv("ZCHAFF", str(fake_zchaff))
    instances = tmp_path / "in.txt"
    instances.write_text(f"{COURSE_EXAMPLE}\n2 1000002000300004\n2 1030000200000320\n")
    results = run.run_timed_experiment(instances, 20_000, ["cdcl", "zchaff"], "course",
                                       tmp_path / "out")
    zchaff = results[results["solver"] == "zchaff"]
    assert (zchaff["search_cpu_ms"] == 0.278).all() and zchaff["search_wall_ms"].isna().all()
    search = comparison.compared(comparison.comparison_facts(results, "cdcl", "zchaff"),
                                 "search", "CPU")
    assert search is not None and search["both"] == 3
    assert search["median_ratio"] == pytest.approx(
        recomputed_search_ratio(results, "cdcl", "zchaff"))
