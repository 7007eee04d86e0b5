"""pysat:NAME: every back end, time limits in process and in a worker, statistics."""

from __future__ import annotations

import pytest

from sudosat.errors import SolverError, SolverNotFoundError
from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status
from sudosat.sat.solvers import pysat as pysat_adapter
from sudosat.sat.solvers import solve
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.pysat import pysat_backends, solve_pysat
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, vu_rules_file
from tests.fake_solvers.support import (
    TINY_SAT,
    TINY_UNSAT,
    assert_quick_unknown,
    decode_rcv,
    random_formulas,
    sudoku_rules_with_givens,
)

# --------------------------------------------------------------------------------------
# pysat:


QUICK_BACKENDS = ["minisat22", "cadical195", "kissat404", "lingeling"]


def test_pysat_backends_lists_the_usual_ones():
    names = pysat_backends()
    assert {"minisat22", "glucose4", "cadical153", "cadical195"} <= set(names)
    assert names == sorted(names)


@pytest.mark.parametrize("backend", pysat_backends())
def test_every_pysat_backend_answers_and_fills_the_model(backend):
    sat = solve(CNF([[1, -2], [2, 3]], num_vars=6), f"pysat:{backend}", time_limit_ms=30_000)
    assert sat.status is Status.SAT and len(sat.model) == 6
    assert solve(TINY_UNSAT, f"pysat:{backend}", time_limit_ms=30_000).status is Status.UNSAT
    assert solve(CNF([], num_vars=2), f"pysat:{backend}").model == [-1, -2]
    assert solve(CNF([[1], []]), f"pysat:{backend}").status is Status.UNSAT


@pytest.mark.parametrize("backend", QUICK_BACKENDS)
def test_pysat_time_limit(backend):
    result = assert_quick_unknown(
        lambda: solve_pysat(pigeonhole(11, 10), backend=backend, deadline=Deadline(500))
    )
    assert result.solver == f"pysat:{backend}"


@pytest.mark.slow
@pytest.mark.parametrize("backend", sorted(set(pysat_backends()) - set(QUICK_BACKENDS)))
def test_pysat_time_limit_for_every_other_backend(backend):
    assert_quick_unknown(
        lambda: solve_pysat(pigeonhole(11, 10), backend=backend, deadline=Deadline(500))
    )


def test_pysat_statistics_and_aliases():
    result = solve_pysat(pigeonhole(6, 5), backend="m22", deadline=Deadline(30_000))
    assert result.status is Status.UNSAT and result.solver == "pysat:m22"
    assert result.stats["conflicts"] > 0 and result.stats["decisions"] > 0


@pytest.mark.parametrize("backend", ["minisat22", "cadical195"])
def test_pysat_limited_search_agrees_with_a_plain_one(backend):
    for number, cnf in enumerate(random_formulas(60, seed=11)):
        limited = solve_pysat(cnf, backend=backend, deadline=Deadline(30_000))
        assert limited.status is solve_pysat(cnf, backend=backend).status, f"formula {number}"


def test_pysat_worker_can_be_forced_and_forbidden():
    cnf = pigeonhole(5, 5)
    assert solve(cnf, "pysat:minisat22", worker=True).status is Status.SAT
    assert solve(cnf, "pysat:kissat404", worker=True).status is Status.SAT
    assert solve(pigeonhole(6, 5), "pysat:glucose4", worker=False).status is Status.UNSAT


def test_pysat_course_sudoku():
    rules = vu_rules_file()
    cnf = sudoku_rules_with_givens(rules, COURSE_EXAMPLE.split()[1])
    for backend in QUICK_BACKENDS:
        result = solve(cnf, f"pysat:{backend}", time_limit_ms=30_000)
        assert decode_rcv(result.model) == COURSE_SOLUTION.split()[1], backend


def test_pysat_unknown_backend():
    with pytest.raises(SolverNotFoundError, match="pysat:nope: PySAT has no solver of that name"):
        solve_pysat(TINY_SAT, backend="nope")


def test_pysat_backend_without_limited_solve_falls_back_to_a_worker(monkeypatch):
    monkeypatch.setattr(pysat_adapter, "ONE_SHOT_BACKENDS", frozenset())
    assert_quick_unknown(
        lambda: solve_pysat(pigeonhole(11, 10), backend="lingeling", deadline=Deadline(500))
    )
    with pytest.raises(SolverError, match="pysat:lingeling cannot be stopped in process"):
        solve_pysat(pigeonhole(11, 10), backend="lingeling", deadline=Deadline(500), worker=False)
