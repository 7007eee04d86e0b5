"""Tests of the scaling study's logic: the grid, its summaries, its figures."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot
import pandas as pd
import pytest

from sudosat.cli import main
from sudosat.report.study_plots import (
    plot_size,
    plot_time,
    save_study_figures,
)
from sudosat.run.results import Verdict
from sudosat.run.runner import prepare
from sudosat.studies.scaling import (
    COLUMNS,
    STUDY_CLOCK,
    StudySettings,
    cell_seed,
    cell_table,
    measure,
    measure_isolated,
    ratio_table,
    run_study,
)
from sudosat.sudoku.board import Board

matplotlib.use("Agg")
REFERENCE = "pysat:minisat22"


def hardest_alpha(
    table: pd.DataFrame, solver: str = "cdcl", time: str = "solve_cpu_ms"
) -> pd.DataFrame:
    """For each (encoding, order): the alpha of largest median `solver` time, and that time."""
    rows = table[table["solver"] == solver]
    medians = rows.groupby(["encoding", "order", "alpha"])[time].median().reset_index()
    worst = medians.loc[medians.groupby(["encoding", "order"])[time].idxmax()]
    return worst.rename(columns={"alpha": "hardest alpha", time: f"median {time}"}).set_index(
        ["encoding", "order"]
    )


def reference_search_ms(
    cnf, backend: str = "cadical195", time_limit_ms: float | None = None,
    max_conflicts: int | None = None,
) -> tuple[str, float, float]:
    """Time PySAT's `backend` on `cnf` in CPU time, loading and search apart.

    For a large formula most of a ``pysat:`` solver's time is handing millions
    of clauses from Python to the library. This measures the search alone
    (:func:`sudosat.sat.solvers.pysat.limited_search`). With `max_conflicts`
    the search is one call under that budget and no clock, as in a study;
    otherwise `time_limit_ms` bounds it in CPU time (the study's clock), by
    slices of a conflict budget.

    Returns
    -------
    (status, load_cpu_ms, search_cpu_ms)
        status is SAT, UNSAT, UNKNOWN (the budget ran out) or TIMEOUT.
    """
    import time

    from pysat.solvers import Solver

    from sudosat.sat.solvers.budget import Deadline
    from sudosat.sat.solvers.pysat import limited_search

    deadline = Deadline(None if max_conflicts is not None else time_limit_ms, clock=STUDY_CLOCK)
    started = time.process_time()
    with Solver(name=backend, bootstrap_with=cnf.clauses) as solver:
        loaded = time.process_time()
        answer, _ = limited_search(solver, deadline, max_conflicts=max_conflicts)
        done = time.process_time()
    if answer is None:
        status = Verdict.UNKNOWN if max_conflicts is not None else Verdict.TIMEOUT
    else:
        status = Verdict.SAT if answer else Verdict.UNSAT
    return status, (loaded - started) * 1000.0, (done - loaded) * 1000.0


@pytest.fixture(scope="module")
def small_table() -> pd.DataFrame:
    return run_study(orders=[2, 3], alphas=[0.0, 0.5], boards=2, time_limit_ms=20_000,
                     solvers=["cdcl", REFERENCE],
                     encodings=["optimised", "course"])


def test_grid_has_one_row_per_board_encoding_and_solver(small_table):
    assert list(small_table.columns) == list(COLUMNS)
    assert len(small_table) == 2 * 2 * 2 * 2 * 2
    assert set(small_table["status"]) == {"SAT"}
    assert small_table["valid"].all()
    givens = small_table.set_index(["order", "alpha"])["givens"]
    assert givens.loc[(3, 0.5)].eq(41).all() and givens.loc[(2, 0.0)].eq(0).all()


def test_encoding_sizes_are_recorded_and_shared_between_solvers(small_table):
    course = small_table[(small_table["encoding"] == "course") & (small_table["order"] == 3)]
    assert course[course["alpha"] == 0.0]["clauses"].eq(11745).all()
    per_board = small_table.groupby(["order", "alpha", "board", "encoding"])
    assert (per_board["clauses"].nunique() == 1).all()
    assert (per_board["encode_cpu_ms"].nunique() == 1).all()
    optimised = small_table[small_table["encoding"] == "optimised"]
    half = optimised[optimised["alpha"] == 0.5]["clauses"]
    assert (half < 11745).all()


def test_total_time_adds_up_its_steps_on_each_clock(small_table):
    for clock in ("wall", "cpu"):
        stages = [f"{stage}_{clock}_ms" for stage in ("encode", "solve", "decode")]
        steps = small_table[stages].fillna(0).sum(axis=1)
        assert (small_table[f"total_{clock}_ms"] - steps).abs().max() < 1e-6
    assert (small_table["solve_cpu_ms"] > 0).all() and (small_table["stop"] == "answered").all()
    searched = small_table["load_cpu_ms"] + small_table["search_cpu_ms"]
    assert (searched <= small_table["solve_cpu_ms"] + 1e-3).all()


def test_same_seed_same_boards_and_cells_differ():
    assert cell_seed(0, 3, 0.2) == cell_seed(0, 3, 0.2)
    assert len({cell_seed(0, n, a) for n in (3, 4) for a in (0.0, 0.2)}) == 4
    settings = StudySettings(orders=[2], alphas=[0.5], boards=2, solvers=["cdcl"],
                             encodings=["course"])
    first = run_study(settings)
    second = run_study(settings)
    assert first["seed"].tolist() == second["seed"].tolist()
    assert first[["givens", "clauses", "status"]].equals(second[["givens", "clauses", "status"]])


def test_summaries(small_table):
    cells = cell_table(small_table)
    assert cells.loc[("course", 3, 0.0, "cdcl"), "clauses"] == 11745
    assert (cells["solved"] == 2).all()
    ratios = ratio_table(small_table, "cdcl", REFERENCE)
    assert list(ratios.columns[:3]) == ["cdcl cpu ms", f"{REFERENCE} cpu ms", "ratio"]
    assert "median_wall_ms" in cell_table(small_table, "total_wall_ms")
    assert len(ratios) == 2 * 2 * 2
    assert (ratios["ratio"] > 0).all()
    hardest = hardest_alpha(small_table, "cdcl")
    assert set(hardest["hardest alpha"]) <= {0.0, 0.5}
    assert len(hardest) == 2 * 2


def test_timeout_and_refused_encoding_become_rows(monkeypatch):
    import sudosat.run.runner as runner
    import sudosat.sudoku.encoding as encoding

    board = Board.empty(3)
    timed_out = measure(board, "dp", "course", time_limit_ms=1)
    assert timed_out["status"] == "TIMEOUT" and not timed_out["valid"]
    assert timed_out["stop"] == "time"  # T ran out, on the CPU clock of the study

    real_guard = runner.check_resources

    def refuse(board, name, max_bytes, check=None):  # the guard refuses the course encoding only
        if name == "course":
            raise encoding.ResourceLimitError("too big for the test")
        return real_guard(board, name, max_bytes, check=check)

    monkeypatch.setattr(runner, "check_resources", refuse)
    refused = measure(board, "cdcl", "course")
    assert refused["status"] == "ERROR" and "too big" in refused["error"]
    assert refused["clauses"] is None and refused["literals"] is None  # nothing was built
    table = run_study(orders=[2], alphas=[0.0], boards=1, solvers=["cdcl"],
                      encodings=["course"])
    assert table["status"].tolist() == ["ERROR"]


def test_the_study_limit_is_the_solvers_alone_and_the_guard_applies():
    """T bounds the solver call in the study, as in every run; the memory guard runs there too."""
    board = Board.empty(3)
    row = measure(board, "cdcl", "course", time_limit_ms=60_000, max_bytes=1000)
    assert row["status"] == "ERROR" and "limit" in row["error"]
    solved = measure(board, "cdcl", "course", time_limit_ms=60_000)
    assert solved["status"] == "SAT" and solved["valid"] and solved["literals"] > 0
    assert solved["total_cpu_ms"] == pytest.approx(
        solved["encode_cpu_ms"] + solved["solve_cpu_ms"] + solved["decode_cpu_ms"]
    )


def test_plots_have_one_panel_per_solver_and_save_png_and_svg(small_table, tmp_path):
    figures = {
        "time-vs-order": plot_time(small_table),
        "time-vs-alpha": plot_time(small_table, "alpha", time="solve_wall_ms", encoding="course"),
        "clauses-vs-order": plot_size(small_table),
        "clauses-vs-alpha": plot_size(small_table, "alpha", "variables"),
    }
    assert len(figures["time-vs-order"].axes) == 2
    assert figures["time-vs-order"].axes[0].get_yscale() == "log"
    assert len(figures["clauses-vs-order"].axes) == 2  # one panel per encoding
    assert all(figure.axes[0].lines for figure in figures.values())
    assert [figure.get_suptitle() for figure in figures.values()] == [
        "time against the order N", "time against the fill fraction alpha",
        "encoding size (clauses) against N", "encoding size (variables) against alpha"]
    assert figures["time-vs-alpha"].axes[0].get_xlabel() == "alpha (fraction of cells given)"
    assert figures["time-vs-order"].axes[0].get_ylabel() == "median total CPU time (ms)"
    assert figures["time-vs-alpha"].axes[0].get_ylabel() == "median solve wall time (ms)"
    paths = save_study_figures(small_table, tmp_path / "figures")
    assert [path.name for path in paths[2:4]] == ["scaling-time-vs-alpha.png",
                                                  "scaling-time-vs-alpha.svg"]
    assert all(path.stat().st_size > 1000 for path in paths)
    matplotlib.pyplot.close("all")


@pytest.mark.slow
def test_command_line_writes_csv_and_figures(tmp_path, capsys):
    csv = tmp_path / "rows.csv"
    code = main(["study", "--orders", "2", "--alphas", "0", "0.5", "--boards", "1", "--solvers",
                 "cdcl", REFERENCE, "--encodings", "course", "--csv", str(csv),
                 "--figures", str(tmp_path)])
    assert code == 0
    rows = pd.read_csv(csv)
    assert len(rows) == 4 and set(rows["status"]) == {"SAT"}
    out = capsys.readouterr().out
    assert "ratio" in out and "median_cpu_ms" in out
    assert (tmp_path / "scaling-time-vs-order.svg").exists()


def test_reference_search_is_timed_apart_from_loading():
    from sudosat.run.generate import generate
    from sudosat.sudoku.encoding import encode

    cnf = encode(generate(3, 0.3, seed=1), "optimised").cnf
    status, load_ms, search_ms = reference_search_ms(cnf, "minisat22", 10_000)
    assert status == "SAT" and load_ms >= 0 and search_ms >= 0
    empty = encode(Board.empty(3), "course").cnf
    assert reference_search_ms(empty, "minisat22", max_conflicts=0)[0] == "UNKNOWN"
    assert reference_search_ms(empty, "minisat22", max_conflicts=10_000)[0] == "SAT"
    unsat = encode(Board.parse("2 1100000000000000"), "course").cnf
    assert reference_search_ms(unsat, "minisat22")[0] == "UNSAT"


def test_isolated_measure_reports_its_own_peak_memory():
    row = measure_isolated(Board.empty(2), "cdcl", "course", time_limit_ms=10_000)
    assert row["status"] == "SAT" and row["valid"]
    assert 10 < row["peak_rss_mb"] < 4096


def test_study_settings_are_one_object_and_refuse_unknown_names():
    settings = StudySettings(orders=[2], alphas=[0.5], solvers=["cdcl"])
    assert settings.orders == (2,) and settings.solvers == ("cdcl",)
    assert hash(settings) == hash(StudySettings(orders=(2,), alphas=(0.5,), solvers=("cdcl",)))
    with pytest.raises(TypeError):
        run_study(settings, boards_per_cell=1)


def test_every_study_run_is_limited_by_cpu_time(monkeypatch):
    """A wall-clock T would end more runs the busier the machine: the studies' T is CPU time."""
    import sudosat.studies.scaling as scaling

    seen = []
    real = scaling.run_instance

    def spy(*args, **kwargs):
        seen.append((kwargs["clock"], kwargs["limit_covers"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(scaling, "run_instance", spy)
    measure(Board.empty(2), "cdcl", "course", time_limit_ms=10_000)
    run_study(orders=[2], alphas=[0.5], boards=1, solvers=["cdcl"], encodings=["course"])
    assert seen == [("cpu", "solver")] * 2
    limits = scaling.study_limits(5000.0, max_conflicts=300)
    assert [limit.as_json() for limit in limits] == [{"kind": "conflicts", "value": 300.0},
                                                     {"kind": "cpu", "value": 5000.0}]
    assert scaling.study_limits(None)[0].as_json() == {"kind": "cpu", "value": None}
    with pytest.raises(TypeError):
        scaling.study_limits(5000.0, max_decisions=3)


FIELDS = ("status", "stop", "valid", "decisions", "conflicts", "propagations", "variables",
          "clauses")
"""The columns of a study row that do not measure time: what a work budget fixes."""


@pytest.mark.parametrize("solver", ["cdcl", "pysat:cadical195"])
def test_a_budget_limited_row_does_not_depend_on_a_generous_cpu_cap(solver):
    """Under a work budget the row is the budget's: two generous caps give the same row."""
    board = Board.parse("3 " + "0" * 81)  # the empty 9x9 board: a few conflicts of search
    prepared = prepare(board, "course")
    rows = [measure(board, solver, "course", prepared=prepared, time_limit_ms=cap,
                    max_conflicts=budget)
            for budget in (1, 10_000) for cap in (60_000, 600_000, None)]
    stopped, answered = rows[:3], rows[3:]
    assert stopped[0]["status"] == "UNKNOWN" and stopped[0]["stop"] == "conflicts"
    assert answered[0]["status"] == "SAT" and answered[0]["stop"] == "answered"
    for same in (stopped, answered):
        assert [[row[key] for key in FIELDS] for row in same] == [
            [same[0][key] for key in FIELDS]] * 3


def test_a_pysat_solver_under_a_budget_runs_without_a_clock(monkeypatch):
    """A clock stops PySAT's solvers by slicing their search, which changes it: under a work
    budget they get none, our solvers keep the cap."""
    import sudosat.studies.scaling as scaling

    seen = []
    real = scaling.run_instance

    def spy(board, solver, encoding, time_limit_ms, **kwargs):
        seen.append((solver, time_limit_ms, kwargs.get("max_conflicts")))
        return real(board, solver, encoding, time_limit_ms, **kwargs)

    monkeypatch.setattr(scaling, "run_instance", spy)
    board = Board.empty(2)
    for solver in ("cdcl", REFERENCE):
        measure(board, solver, "course", time_limit_ms=9000, max_conflicts=50)
        measure(board, solver, "course", time_limit_ms=9000)
    assert seen == [("cdcl", 9000, 50), ("cdcl", 9000, None), (REFERENCE, None, 50),
                    (REFERENCE, 9000, None)]
    assert scaling.clock_changes_search(REFERENCE) and not scaling.clock_changes_search("cdcl")
