"""One time limit for all our own solvers: UNKNOWN within T + max(10% T, 100 ms).

The bounds here protect that promise and nothing else: each is
:func:`late_by_at_most`, T plus max(10 % of T, 100 ms), held on the CPU time the
call used (see tests/clock.py: a busy machine stretches wall time, not the CPU a
search that stops at its deadline can use). Our solvers look at the clock every
few hundred units of work, and price the freeing of what they loaded from their
own measured loading time, so a slower machine stretches both alike.
"""

from __future__ import annotations

import time

import pytest

from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers import budget, get_solver, solve
from sudosat.sat.solvers.budget import Deadline, OutOfTime
from sudosat.sat.solvers.dpll import _Engine
from tests.clock import cpu_spent, late_by_at_most

OWN_SOLVERS = ["cdcl", "dpll", "dp", "walksat", "gsat"]
# Local search would otherwise stop after its flip budget; the time limit must stop it first.
UNBOUNDED = {"walksat": {"max_flips": 10**9}, "gsat": {"max_flips": 10**9}}


def _solve_timed(cnf: CNF, name: str, limit_ms: float | None) -> tuple[Status, float]:
    get_solver(name)  # imported before the clock starts: T is for solving, not for imports
    with cpu_spent() as spent:
        result = solve(cnf, name, time_limit_ms=limit_ms, **UNBOUNDED.get(name, {}))
    return result.status, spent.seconds


@pytest.mark.parametrize("name", OWN_SOLVERS)
def test_pigeonhole_10_in_9_stops_at_the_limit(name: str) -> None:
    status, cpu = _solve_timed(pigeonhole(10, 9), name, 500)
    assert status is Status.UNKNOWN
    assert cpu < late_by_at_most(500), f"{name} used {cpu:.2f} s of CPU for a 500 ms limit"


def _long_chain(length: int) -> CNF:
    """A unit chain x1 -> x2 -> ... -> xn plus a wide clause per link: one long propagation."""
    clauses = [[1]]
    clauses += [[-i, i + 1] for i in range(1, length)]
    clauses += [[-i, i + 1, i + 2, -(i + 3)] for i in range(1, length - 3)]
    return CNF(clauses)


@pytest.mark.parametrize("heuristic", [None, "moms"])
def test_deadline_is_checked_inside_one_long_propagation(heuristic: str | None) -> None:
    # 100k implied literals and no decision: only the clock check inside propagate can stop it.
    engine = _Engine(_long_chain(100_000), heuristic, Deadline(None), 0)
    engine.deadline = Deadline(50)  # what the search reads: its deadline less freeing time
    with cpu_spent() as spent, pytest.raises(OutOfTime):
        engine.search()
    assert engine.decisions == 0 and 0 < engine.propagations < 100_000  # stopped inside
    assert spent.seconds < late_by_at_most(50), f"{spent!r} for 50 ms"


@pytest.mark.parametrize("name", OWN_SOLVERS)
def test_zero_limit_is_unknown_at_once(name: str) -> None:
    status, cpu = _solve_timed(pigeonhole(8, 7), name, 0)
    assert status is Status.UNKNOWN and cpu < late_by_at_most(0)


@pytest.mark.parametrize("name", OWN_SOLVERS)
def test_no_limit_means_no_time_out(name: str) -> None:
    status, _ = _solve_timed(CNF([[1, 2], [-1, 2]]), name, None)
    assert status is Status.SAT


# -- cdcl: the first call's preparation looks at the clock too ----------------------------


def _order5_course_cnf() -> CNF:
    from sudosat.run.generate import generate
    from sudosat.sudoku.encoding import encode

    return encode(generate(5, 0.3, seed=5), "course").cnf


@pytest.mark.usefixtures("python_core")  # reads the Python engine's own tables
def test_cdcl_first_call_stops_before_scoring_and_a_later_call_starts_over() -> None:
    from sudosat.sat.solvers.cdcl import Solver

    cnf = _order5_course_cnf()
    solver = Solver(cnf)
    assert solver.solve(deadline=Deadline(0)).status is Status.UNKNOWN
    engine = solver._live_engine()
    assert not engine.started and not engine.heap  # stopped after the level-0 propagation
    again = solver.solve()  # no limit: prepares from where it stopped; the model is checked
    assert again.status is Status.SAT and engine.started
    assert cnf.is_satisfied_by(again.model)


@pytest.mark.usefixtures("python_core")  # reads the Python engine's own tables
def test_cdcl_dropping_satisfied_binaries_stops_between_lists_and_resumes() -> None:
    from sudosat.sat.solvers.cdcl import Engine, Solver

    def engine_after_propagation() -> Engine:
        engine = Solver(_order5_course_cnf())._live_engine()
        assert engine.propagate() is None
        return engine

    whole, stopped = engine_after_propagation(), engine_after_propagation()
    whole.drop_satisfied_binaries()
    stopped.deadline = Deadline(0)
    with pytest.raises(OutOfTime):
        stopped.drop_satisfied_binaries()  # after its first 8,192 free codes
    free = [p for p in range(2, len(stopped.bins)) if not stopped.val[p]]
    assert len(free) > 8192
    done, rest = free[:8192], free[8192:]  # the first chunk, filtered; the others untouched
    assert all(stopped.bins[p] == whole.bins[p] for p in done)
    assert any(stopped.bins[p] != whole.bins[p] for p in rest)
    stopped.deadline = Deadline(None)
    stopped.drop_satisfied_binaries()
    assert stopped.bins == whole.bins


@pytest.mark.usefixtures("python_core")  # reads the Python engine's own tables
def test_cdcl_growing_past_the_deadline_leaves_every_table_as_it_was() -> None:
    from sudosat.sat.solvers.cdcl import Engine, Solver
    from sudosat.sat.solvers.cdcl.state import GROW_CHUNK as _GROW_CHUNK

    engine: Engine = Solver(CNF([[1, 2, 3]]))._live_engine()
    before = {name: len(table) for name, table in vars(engine).items() if isinstance(table, list)}
    engine.deadline = Deadline(0)
    with pytest.raises(OutOfTime):
        engine.grow(_GROW_CHUNK)  # 2 * _GROW_CHUNK literal codes: stops after the first chunk
    after = {name: len(table) for name, table in vars(engine).items() if isinstance(table, list)}
    assert after == before and engine.num_vars == 3
    engine.deadline = Deadline(None)
    engine.grow(_GROW_CHUNK)
    assert len(engine.bins) == len(engine.watches) == len(engine.val) == 2 * _GROW_CHUNK + 2


def test_cdcl_stops_early_enough_to_free_its_tables_within_t(monkeypatch) -> None:
    """A one-shot call answers by T, freeing included: the engine stops before T by a share
    of its own loading time (here inflated so that the reserve exceeds T)."""
    from sudosat.sat.solvers import cdcl

    monkeypatch.setattr(cdcl.state, "FREE_SHARE", 1e12)  # any load time reserves hours
    started = time.monotonic()
    result = cdcl.solve(CNF([[1, 2], [-1, 2]]), deadline=Deadline(5000))
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert time.monotonic() - started < 5.0  # stopped before T: the reserve exceeded it
    assert cdcl.solve(CNF([[1, 2], [-1, 2]])).status is Status.SAT  # no limit: nothing reserved


@pytest.mark.parametrize("name", ["cdcl", "dpll", "walksat"])
def test_an_early_stop_for_time_reads_as_a_time_out_in_the_pipeline(monkeypatch, name) -> None:
    from sudosat.run.pipeline import solve_instance
    from sudosat.run.results import Verdict
    from sudosat.sat.solvers import cdcl, dpll
    from sudosat.sudoku.board import Board

    # Freeing priced at 10^12 times cdcl's measured load and 10^9 times dpll's and local
    # search's: T is gone before the search starts.
    monkeypatch.setattr(cdcl.state, "FREE_SHARE", 1e12)
    monkeypatch.setattr(budget, "FREE_FRACTION_OF_LOAD", 1e9)
    monkeypatch.setattr(dpll, "_CHECK_CLAUSES", 15)
    row = solve_instance(Board.empty(2), name, "course", 3000).row
    assert row.status is Verdict.TIMEOUT, row
    assert row.error == "the time limit ran out while solving"  # though T has not passed
    assert row.stop is Stop.TIME and row.total_wall_ms < 3000


def test_cdcl_one_shot_leaves_the_callers_formula_as_it_was() -> None:
    """solve() keeps the caller's formula for its model check instead of copying it."""
    from sudosat.sat.solvers import cdcl

    cnf = CNF([[1, -2], [2, 3]], num_vars=5)
    flat = list(cnf.flat)
    result = cdcl.solve(cnf)
    assert result.status is Status.SAT and cnf.is_satisfied_by(result.model)
    assert (cnf.num_vars, cnf.num_clauses, list(cnf.flat)) == (5, 2, flat)
    solver = cdcl.Solver(cnf)  # a solver that lives on copies: its clauses are its own
    solver.add_clause([-3])
    assert solver.solve().status is Status.SAT
    assert cnf.num_clauses == 2 and solver.num_clauses == 3


@pytest.mark.parametrize("name", ["dpll", "walksat"])
def test_dpll_and_local_search_stop_early_enough_to_free_what_they_loaded(monkeypatch, name):
    """Freeing a loaded formula's lists is paid before the answer returns: with freeing
    priced at 10^9 times the measured loading time, a 3 s limit stops at once."""
    from sudosat.sat.solvers import dpll

    monkeypatch.setattr(budget, "FREE_FRACTION_OF_LOAD", 1e9)
    monkeypatch.setattr(dpll, "_CHECK_CLAUSES", 15)
    started = time.monotonic()
    result = solve(pigeonhole(10, 9), name, time_limit_ms=3000)  # 415 clauses
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME, result
    assert time.monotonic() - started < 3.0  # before T: the reserve, not the clock, stopped it


def test_local_search_giving_up_is_not_a_time_out() -> None:
    result = solve(pigeonhole(5, 4), "walksat", time_limit_ms=60_000, max_tries=2, max_flips=50)
    assert result.status is Status.UNKNOWN and result.stop is Stop.GAVE_UP


@pytest.mark.parametrize("name", ["walksat", "gsat"])
def test_local_search_leaves_room_to_free_its_own_lists(monkeypatch, name) -> None:
    """Simplification (dpll's engine, 415 clauses: no look at the clock while loading)
    finishes; local search's own reserve, priced from that loading time, then exceeds T."""
    monkeypatch.setattr(budget, "FREE_FRACTION_OF_LOAD", 1e9)
    started = time.monotonic()
    result = solve(pigeonhole(10, 9), name, time_limit_ms=3000)
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert result.stats["tries"] == 0 and time.monotonic() - started < 3.0


def test_cdcl_running_out_of_time_in_the_search_says_so() -> None:
    from sudosat.sat.solvers import cdcl

    result = cdcl.solve(pigeonhole(9, 8), deadline=Deadline(100))  # loads at once, searches long
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert result.stats["conflicts"] > 0
    again = cdcl.Solver(pigeonhole(9, 8)).solve(deadline=Deadline(100))
    assert again.status is Status.UNKNOWN and again.stop is Stop.TIME


def test_dpll_reserve_for_freeing_comes_from_its_own_loading_time(monkeypatch) -> None:
    """No per-machine rate: the engine stops before T by a fraction of what loading took."""
    took = []
    real = budget.load_reserve

    def measured(load_seconds: float) -> float:
        took.append(load_seconds)
        return real(load_seconds)

    monkeypatch.setattr("sudosat.sat.solvers.dpll.load_reserve", measured)
    deadline = Deadline(60_000)
    started = time.monotonic()
    engine = _Engine(pigeonhole(30, 29), "moms", deadline, 0)
    built = time.monotonic() - started
    assert took and 0 < took[-1] <= built  # it measured its own loading, nothing else
    reserve = deadline.at - engine.deadline.at
    assert reserve == pytest.approx(budget.FREE_FRACTION_OF_LOAD * took[-1])
    assert _Engine(pigeonhole(30, 29), "moms", Deadline(None), 0).deadline.limited is False


def test_a_work_budget_is_not_a_time_out_in_the_pipeline() -> None:
    from sudosat.run.pipeline import solve_instance
    from sudosat.run.results import Verdict
    from sudosat.sudoku.board import Board

    row = solve_instance(Board.parse("2 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2"), "dp", "course",
                         time_limit_ms=60_000, max_propagations=1).row
    assert row.status is Verdict.UNKNOWN and row.output == "2 UNKNOWN"
    assert row.stop is Stop.PROPAGATIONS
    assert row.error == "the work budget ran out (max_propagations=1)"


def test_local_search_giving_up_with_time_left_is_unknown_not_a_time_out() -> None:
    from sudosat.run.pipeline import solve_instance
    from sudosat.run.results import Verdict
    from sudosat.sudoku.board import Board

    # No unit repeats a given, yet the board has no solution (cdcl proves it): local search,
    # which cannot prove that, gives up after its one try, long before T.
    board = Board.parse("2 1 2 0 0 0 0 3 0 0 0 0 0 0 0 0 0")
    assert board.first_conflict() is None
    assert solve_instance(board, "cdcl", "course").row.status is Verdict.UNSAT
    row = solve_instance(board, "walksat", "course", time_limit_ms=60_000, max_tries=1,
                         max_flips=200, simplify=False).row
    assert row.status is Verdict.UNKNOWN and row.output == "2 UNKNOWN", row
    assert row.stop is Stop.GAVE_UP
    assert row.error == "the solver gave up without a decision, with time left"
    timed_out = solve_instance(board, "walksat", "course", time_limit_ms=50,
                               max_flips=10**9, simplify=False).row
    assert timed_out.status is Verdict.TIMEOUT and timed_out.stop is Stop.TIME  # T ended it
