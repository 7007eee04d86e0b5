"""The report's studies: the cache, the grid's conclusions and the facts the scaling page
states, the heuristics experiment, and both notebooks re-executed on tiny parameters with
the facts behind their sentences found in what they print."""

from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from sudosat.report import formats
from sudosat.report import scaling_page as page
from sudosat.report.clocks import clock_facts
from sudosat.report.heuristics_page import (
    data_words,
    decisions_words,
    friedman_words,
    plot_pairs,
    verdict_words,
)
from sudosat.run.results import DECIDED
from sudosat.studies import grid as gridstudy
from sudosat.studies import heuristics
from sudosat.studies.cache import Limit, cache_key, code_version, load_or_compute

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]
T = 1000.0
CPU = Limit("cpu", T)
BUDGET = 1000  # the conflicts of an undecided run in the known tables below


# ---------------------------------------------------------------------------------------
# the cache


def test_cache_computes_once_and_keys_on_parameters_and_version(tmp_path):
    calls = []

    def compute():
        calls.append(1)
        return [{"value": len(calls)}]

    def load(parameters, version="v1"):
        return load_or_compute("k", parameters, compute, limit=CPU, cache_dir=tmp_path,
                               version=version)

    first, when = load({"a": 1})
    assert first == [{"value": 1}] and when is None
    again, when = load({"a": 1})
    assert again == [{"value": 1}] and when is not None and len(calls) == 1
    load({"a": 2})
    load({"a": 1}, version="v2")
    assert len(calls) == 3
    assert len(list(tmp_path.glob("k-*.json"))) == 3
    assert not list(tmp_path.glob("*.tmp"))


def test_damaged_cache_entry_is_recomputed(tmp_path):
    key = cache_key("k", "v", {"a": 1}, CPU)
    (tmp_path / f"{key}.json").write_text("{not json", encoding="utf-8")
    rows, when = load_or_compute("k", {"a": 1}, lambda: [{"x": 1}], limit=CPU,
                                 cache_dir=tmp_path, version="v")
    assert rows == [{"x": 1}] and when is None
    assert json.loads((tmp_path / f"{key}.json").read_text())["rows"] == [{"x": 1}]


def test_a_unit_measured_under_another_limit_is_measured_again(tmp_path):
    calls = []

    def compute():
        calls.append(1)
        return [{"value": len(calls)}]

    def load(limit):
        return load_or_compute("k", {"a": 1}, compute, limit=limit, cache_dir=tmp_path,
                               version="v")

    # the same milliseconds on the wall clock, on the CPU clock, and another T
    for limit in (Limit("wall", T), CPU, Limit("cpu", 2 * T), Limit("conflicts", 1000)):
        assert load(limit)[1] is None
    assert len(calls) == 4
    rows, when = load(CPU)
    assert rows == [{"value": 2}] and when is not None and len(calls) == 4
    recorded = {json.loads(path.read_text())["limit"]["kind"] for path in tmp_path.glob("k-*")}
    assert recorded == {"wall", "cpu", "conflicts"}
    with pytest.raises(ValueError):
        Limit("decisions-ish", 1)
    # a budget with a cap behind it: another cap, or another budget, is measured again
    both = (Limit("conflicts", 1000), CPU)
    for limits in (both, (Limit("conflicts", 1000), Limit("cpu", 3 * T)),
                   (Limit("conflicts", 2000), CPU), (Limit("propagations", 1000), CPU)):
        assert load(limits)[1] is None
    assert load(both)[1] is not None and len(calls) == 8


def test_grid_and_heuristics_key_their_cells_by_their_budget_and_cap(tmp_path):
    spec = gridstudy.GridSpec(orders=(2,), alphas=(0.5,), boards=1, max_conflicts=500,
                              time_limit_ms=10_000, encodings=("optimised",), reference=None)
    gridstudy.run_grid(spec, cache_dir=str(tmp_path))
    entries = [json.loads(path.read_text()) for path in tmp_path.glob("grid-*.json")]
    assert [entry["limit"] for entry in entries] == [[{"kind": "conflicts", "value": 500.0},
                                                      {"kind": "cpu", "value": 10_000.0}]]
    easy = heuristics.ExperimentSpec(grades=(heuristics.Grade("easy", 0.6, False, 1),),
                                     max_propagations=9000, time_limit_ms=10_000,
                                     solvers=("dp",))
    heuristics.run_heuristics_experiment(easy, cache_dir=str(tmp_path))
    runs = [json.loads(path.read_text()) for path in tmp_path.glob("heuristics-*.json")]
    assert sorted(str(entry["limit"]) for entry in runs) == [  # the puzzles run no solver
        "None", str([{"kind": "propagations", "value": 9000.0},
                     {"kind": "cpu", "value": 10_000.0}])]


def _notebook_parameters(name: str) -> dict:
    """The defaults a notebook's ``parameters`` cell declares."""
    notebook = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if "parameters" in c["metadata"].get("tags", []))
    values: dict = {}
    exec("".join(cell["source"]), {}, values)  # plain literals (the report's build checks so)
    return values


def test_the_pages_default_limits_are_the_studies():
    """A work budget is the limit of both pages, with a CPU cap far above it; the notebooks'
    defaults are the studies' own."""
    scaling = _notebook_parameters("scaling")
    assert scaling["max_conflicts"] == gridstudy.DEFAULT_MAX_CONFLICTS == (
        gridstudy.GridSpec().max_conflicts)
    assert scaling["time_limit_ms"] == gridstudy.DEFAULT_CPU_CAP_MS
    experiment = _notebook_parameters("heuristics")
    assert experiment["max_propagations"] == heuristics.DEFAULT_MAX_PROPAGATIONS == (
        heuristics.ExperimentSpec().max_propagations)
    assert experiment["time_limit_ms"] == heuristics.DEFAULT_CPU_CAP_MS


def test_code_version_follows_the_measured_sources():
    assert code_version() == code_version()
    assert code_version(("gridstudy.py",)) != code_version(("heuristics.py",))
    # a study's measuring functions count by their source; its tables and plots do not
    measuring = code_version(functions=(gridstudy.run_cell,))
    assert measuring != code_version(functions=(gridstudy.run_large,))
    assert measuring == code_version(functions=(gridstudy.run_cell,))


def test_rows_timed_on_one_cdcl_core_are_not_the_others(monkeypatch):
    from sudosat.sat.solvers.cdcl.cores import CORE_VARIABLE, compiled_built

    monkeypatch.setenv(CORE_VARIABLE, "python")
    reference = code_version()
    monkeypatch.setenv(CORE_VARIABLE, "auto")
    assert (code_version() != reference) == compiled_built()


def test_every_module_but_the_presentation_is_measured(tmp_path, monkeypatch):
    from sudosat.studies import cache as studycache

    measured = studycache.measured_sources()
    assert {"sat/solvers/cdcl/propagation.py", "sudoku/encoding/core.py", "run/runner.py",
            "sudoku/incremental.py", "studies/scaling.py"} <= set(measured)
    assert not [name for name in measured if name.startswith(("report/", "cli/"))]
    # the compiled twin searches alike but not as fast: its Cython sources are measured too
    assert {"sat/solvers/cdcl/compiled/engine.pyx", "sat/solvers/cdcl/compiled/cvec.pxd"} <= set(
        measured)
    # a module added later is measured without anyone listing it
    for name in ("sat/solvers/cdcl.py", "sat/solvers/new_engine.py", "report/page.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    monkeypatch.setattr(studycache, "PACKAGE", tmp_path)
    assert studycache.measured_sources() == ("sat/solvers/cdcl.py", "sat/solvers/new_engine.py")


# ---------------------------------------------------------------------------------------
# the grid's summary and the page's facts, on a known table


def _row(order, alpha, encoding, solver, board, status, ms, clauses, conflicts):
    """One grid row; an UNKNOWN row is one the conflict budget stopped, a TIMEOUT row one the
    CPU cap stopped."""
    stop = {"UNKNOWN": "conflicts", "TIMEOUT": "time"}.get(status, "answered")
    return {"order": order, "alpha": alpha, "encoding": encoding, "solver": solver,
            "board": board, "seed": 7 + board, "status": status, "stop": stop,
            "solve_cpu_ms": ms, "solve_wall_ms": 2 * ms, "clauses": clauses,
            "variables": clauses // 10, "conflicts": conflicts, "decisions": conflicts,
            "encode_cpu_ms": 1.0}


@pytest.fixture
def known_table() -> pd.DataFrame:
    """Orders 2..4, alphas 0 and 0.5, two boards, course and optimised, one solver.

    Course: clauses 100 * 4**(N-2); times 10, 100, then at N = 4 the budget stops both boards at
    0 % (after T + 3 ms), one of two at 50 %. Optimised: a tenth of the clauses, times a tenth
    of the course's, none undecided; the hardest fill is 0 % everywhere except optimised
    N = 2 (50 %)."""
    rows = []
    times = {2: (10.0, 5.0), 3: (100.0, 50.0)}
    for order in (2, 3, 4):
        for alpha in (0.0, 0.5):
            for board in (0, 1):
                clauses = 100 * 4 ** (order - 2)
                if order < 4:
                    ms = times[order][0 if alpha == 0.0 else 1]
                    rows.append(_row(order, alpha, "course", "s", board, "SAT", ms, clauses, 2))
                elif alpha == 0.0 or board == 0:
                    rows.append(_row(order, alpha, "course", "s", board, "UNKNOWN", T + 3,
                                     clauses, BUDGET))
                else:
                    rows.append(_row(order, alpha, "course", "s", board, "SAT", 400.0, clauses,
                                     4))
                opt_ms = (1.0, 2.0) if order == 2 else (float(order), float(order) / 2)
                rows.append(_row(order, alpha, "optimised", "s", board, "SAT",
                                 opt_ms[0 if alpha == 0.0 else 1], clauses // 10, 0))
    return pd.DataFrame(rows)


def test_summary_counts_undecided_runs_with_what_they_used(known_table):
    summary = gridstudy.summarise(known_table).set_index(["order", "alpha", "encoding"])
    cell = summary.loc[(4, 0.0, "course")]
    # an undecided run enters with the time and conflicts it had used: lower bounds
    assert (cell["unfinished"], cell["capped"], cell["solved"]) == (2, 0, 0)
    assert (cell["median_cpu_ms"], cell["median_conflicts"]) == (T + 3, BUDGET)
    assert cell["censored"]
    half = summary.loc[(4, 0.5, "course")]
    assert half["median_cpu_ms"] == (T + 3 + 400.0) / 2 and half["censored"]
    assert summary.loc[(3, 0.0, "optimised"), "median_conflicts"] == 0
    # a run the CPU cap stopped is undecided too, and counted apart
    capped = known_table.copy()
    capped.loc[capped["status"] == "UNKNOWN", ["status", "stop"]] = ["TIMEOUT", "time"]
    again = gridstudy.summarise(capped).set_index(["order", "alpha", "encoding"])
    assert (again.loc[(4, 0.0, "course"), "unfinished"],
            again.loc[(4, 0.0, "course"), "capped"]) == (2, 2)


def test_grid_table_prints_percentages_and_undecided_runs(known_table):
    table = gridstudy.grid_table(gridstudy.summarise(known_table))
    assert list(table.columns) == ["course / s", "optimised / s"]
    assert table.loc[(4, "0 %"), "course / s"] == ">= 1,003 (2/2 undecided)"
    assert table.loc[(2, "50 %"), "optimised / s"] == "2"
    assert table.loc[(3, "0 %"), "course / s"] == "100"
    assert "0.000000" not in table.to_string()


def test_conclusion_sentences_on_the_known_table(known_table):
    summary = gridstudy.summarise(known_table)
    hardest = page.hardest_table(summary, "s")
    assert list(hardest.index) == ["course", "optimised"]
    assert hardest.loc["course", "N = 2"] == "0 % and 50 % tie (median 2 conflicts each)"
    assert hardest.loc["course", "N = 4"] == (
        "0 % (median undecided: 2 of 2 stopped by the budget)")
    # no conflict anywhere
    assert set(hardest.loc["optimised"]) == {"no fill's median board met a conflict"}
    spec = gridstudy.GridSpec(orders=(2, 3, 4), alphas=(0.0, 0.5), solver="s",
                              encodings=("course", "optimised"), reference=None)
    course, optimised = page.usable_words(summary, spec, "b")
    assert course == ("With s, the course encoding stops being usable at N = 4: within b, half "
                      "or more of the boards of a cell were undecided at 0 % given (2 of 2), "
                      "50 % given (1 of 2); over the whole order, 3 of the course encoding's 4 "
                      "runs were undecided.")
    assert optimised.startswith("With s, the optimised encoding stayed usable up to N = 4:")
    saved = gridstudy.savings(summary, "s")
    assert list(saved.index) == [2, 3, 4]
    assert all(share == pytest.approx(0.9) for share in saved["removed"])
    assert (saved["course unfinished"].sum(), saved["optimised unfinished"].sum(),
            saved["runs"].sum()) == (3, 0, 12)
    cell = page.cell_words(summary, 4, 0.0, "s", BUDGET)
    assert ("course with s: 0 of 2 solved, 2 undecided; optimised with s: 2 of 2 solved (median "
            "of the solved 4 ms of CPU).") in cell
    assert "optimised encoding it decided 2 of 2 boards, with the course encoding 0 of 2" in cell
    assert page.cell_words(summary, 6, 0.4, "s", BUDGET).startswith("The grid has no cell")
    assert page.reference_words(known_table, summary, "s", "ref", "b") == [
        "ref was not run with the optimised encoding."]


def _cells(order, cells, boards=3):
    """Rows of one order, solver s, course encoding: `cells` maps alpha to
    (status, ms, conflicts), the same for each of `boards` boards."""
    return [_row(order, alpha, "course", "s", board, status, ms, 100, conflicts)
            for alpha, (status, ms, conflicts) in cells.items() for board in range(boards)]


def test_hardest_fill_is_ranked_by_conflicts_and_undecided_ties_are_named_together():
    rows = _cells(4, {0.0: ("SAT", 59.0, 0), 0.2: ("SAT", 34.0, 59), 0.4: ("SAT", 30.0, 29)})
    rows += _cells(6, {0.0: ("UNKNOWN", T + 5, 5189), 0.2: ("UNKNOWN", T + 5, 8492),
                       0.4: ("TIMEOUT", T + 5, 20228), 0.6: ("SAT", 900.0, 75)})
    rows += _cells(5, {0.0: ("SAT", 800.0, 1574), 0.4: ("UNKNOWN", T + 5, 24785)})
    summary = gridstudy.summarise(pd.DataFrame(rows))
    peaks = gridstudy.peaks(summary, "s").loc["course"]
    # the slowest cell at N = 4 (0 %) met no conflict: 20 % is the hardest search
    assert peaks.loc[4, "alphas"] == (0.2,) and peaks.loc[4, "by"] == "conflicts"
    # three fills undecided on every board: a tie, whatever their conflicts when stopped
    assert peaks.loc[6, "alphas"] == (0.0, 0.2, 0.4) and peaks.loc[6, "by"] == "unfinished"
    assert peaks.loc[5, "alphas"] == (0.4,)
    said = page.hardest_table(summary, "s").loc["course"]
    assert said["N = 4"] == "20 % (median 59 conflicts, 34 ms of CPU)"
    assert said["N = 5"] == "40 % (median undecided: 3 of 3 stopped by the budget)"
    assert said["N = 6"] == ("0 %, 20 % and 40 % tie (median undecided: 3 of 3 stopped by the "
                             "budget in each)")


def test_more_undecided_runs_outrank_fewer_and_conflict_ties_are_named():
    rows = _cells(6, {0.0: ("UNKNOWN", T + 5, 9000), 0.4: ("SAT", 50.0, 10)})
    rows[3:5] = [dict(rows[0], alpha=0.4)] * 2  # two of the three 40 % boards undecided too
    rows += _cells(3, {0.0: ("SAT", 5.0, 2), 0.2: ("SAT", 3.0, 2), 0.4: ("SAT", 9.0, 1)})
    summary = gridstudy.summarise(pd.DataFrame(rows))
    peaks = gridstudy.peaks(summary, "s").loc["course"]
    assert summary.set_index(["order", "alpha"]).loc[(6, 0.4), "censored"]
    assert peaks.loc[6, "alphas"] == (0.0,) and peaks.loc[6, "unfinished"] == 3
    assert peaks.loc[3, "alphas"] == (0.0, 0.2) and peaks.loc[3, "by"] == "conflicts"
    said = page.hardest_table(summary, "s").loc["course", "N = 3"]
    assert said == "0 % and 20 % tie (median 2 conflicts each)"


def test_conflict_growth_with_undecided_runs_is_a_lower_bound(known_table):
    summary = gridstudy.summarise(known_table)
    conflicts = {f.encoding: f for f in gridstudy.fit_growth(summary, "s", "median_conflicts")}
    # the course encoding had undecided runs at N = 4 only, above the centre of the fit
    assert conflicts["course"].censored and conflicts["course"].lower_bound
    assert conflicts["course"].affected == (4,)
    assert not conflicts["optimised"].censored
    timing = {f.encoding: f for f in gridstudy.fit_growth(summary, "s", "median_cpu_ms")}
    assert timing["course"].lower_bound and timing["course"].affected == (4,)
    # undecided runs at the smallest order only: the slope may move either way
    early = known_table.copy()
    early.loc[(early["order"] == 2) & (early["encoding"] == "optimised"), "status"] = "UNKNOWN"
    low = gridstudy.fit_growth(gridstudy.summarise(early), "s", "median_conflicts")
    low = next(f for f in low if f.encoding == "optimised")
    assert low.censored and not low.lower_bound
    assert low.affected == (2,)


def test_savings_table_prints_whole_clauses_and_percent_shares(known_table):
    table = gridstudy.savings_table(gridstudy.summarise(known_table), "s")
    assert table.index.name == "N"
    assert table.loc[2, "course clauses"] == 100 and table.loc[2, "optimised clauses"] == 10
    assert table.loc[2, "removed"] == "90 %"
    assert str(table["course clauses"].dtype) == "Int64"
    assert table.loc[4, "course undecided"] == 3 and table.loc[4, "runs per encoding"] == 4
    halves = gridstudy.summarise(known_table)
    halves.loc[(halves["order"] == 3) & (halves["alpha"] == 0.5), "clauses"] = 401
    assert gridstudy.savings_table(halves, "s").loc[3, "course clauses"] == 401  # 400.5 up


def test_empty_boards_repeat_in_every_seed_and_the_page_says_so():
    spec = gridstudy.GridSpec(orders=(2, 3), alphas=(0.0, 0.5), boards=3)
    distinct = gridstudy.distinct_boards(spec)
    assert distinct["distinct"].to_dict() == {(2, 0.0): 1, (2, 0.5): 3, (3, 0.0): 1,
                                             (3, 0.5): 3}
    assert (distinct.loc[[(2, 0.0), (3, 0.0)], "givens"] == 0).all()
    assert page.grid_words(spec, distinct).endswith(
        "The 3 seeds give 3 different boards in 2 of 4 cells; at 0 % given (N = 2 and 3) they "
        "give 1 distinct board, since with no givens every seed leaves the same empty board: the "
        "runs of those cells repeat one board, and their medians and undecided counts are that "
        "board's, counted once per run.")


def test_grid_table_shows_the_distinct_boards(known_table):
    summary = gridstudy.summarise(known_table)
    distinct = pd.DataFrame({"order": [2, 2], "alpha": [0.0, 0.5], "boards": [2, 2],
                             "distinct": [1, 2], "givens": [0, 8]}).set_index(["order", "alpha"])
    table = gridstudy.grid_table(summary, distinct)
    assert list(table.columns)[0] == "distinct boards"
    assert table.loc[(2, "0 %"), "distinct boards"] == 1
    assert pd.isna(table.loc[(3, "0 %"), "distinct boards"])


def test_large_orders_sentence_counts_the_course_clauses_like_the_size_table():
    said = page.large_intro_words([9, 7, 8], [3, 4, 5, 6], [0.7], "cdcl", 1)
    assert said.startswith("At N = 7, 8 and 9 (the grid stops at N = 6), the course encoding of "
                           "an empty board would have 11,296,705 clauses at N = 7, 33,034,240 at "
                           "N = 8 and 85,037,121 at N = 9 (about 85 million)")
    assert gridstudy.course_clauses(7) == 11_296_705


def test_growth_fit_recovers_a_power_law(known_table):
    summary = gridstudy.summarise(known_table)
    fits = gridstudy.fit_growth(summary, "s", "clauses")
    course = next(f for f in fits if f.encoding == "course")
    # clauses = 100 * 4**(N-2): not a power of N; the fit is the least-squares slope
    assert 3.9 < course.exponent < 4.0 and course.points == 3 and not course.censored
    timing = gridstudy.fit_growth(summary, "s", "median_cpu_ms")
    assert next(f for f in timing if f.encoding == "course").censored
    exact = known_table[known_table["encoding"] == "optimised"].copy()
    exact["clauses"] = exact["order"] ** 3 - 1  # +1 before the logarithm: exactly N**3
    fit = gridstudy.fit_growth(gridstudy.summarise(exact), "s", "clauses")[0]
    assert fit.exponent == pytest.approx(3.0) and fit.r_squared == pytest.approx(1.0)
    assert fit.encoding == "optimised" and fit.low == pytest.approx(fit.high)
    two_orders = gridstudy.summarise(known_table[known_table["order"] < 4])
    assert page.growth_fits(two_orders, "s") == []  # fewer than three orders: no fit


def test_closed_form_exponent_of_the_course_encoding():
    assert gridstudy.course_clauses(3) == 11745
    assert f"{gridstudy.closed_form_exponent([3, 4, 5, 6]):.1f}" == "8.1"
    said = page.closed_form_words([6, 3, 4, 5], [])
    assert "over N = 3, 4, 5, 6, gives an exponent of 8.1" in said and "measured" not in said
    fit = gridstudy.Fit("course", "clauses", 7.9, 7.8, 8.0, 0.0, 1.0, 4, False)
    assert "; the measured clause counts give 7.90" in page.closed_form_words([3, 4, 5, 6], [fit])


def test_formatting_never_prints_long_zeros():
    assert gridstudy.percent(0.0) == "0 %" and gridstudy.percent(0.4) == "40 %"
    assert gridstudy.percent(0.35) == "35 %"
    assert gridstudy.milliseconds(0.0) == "0" and gridstudy.milliseconds(0.123) == "0.12"
    assert gridstudy.milliseconds(5000.0, lower_bound=True) == ">= 5,000"
    assert formats.p_value(0.0000001234) == "1.2e-07" and formats.p_value(0.04) == "0.040"
    assert formats.ratio(1.0017) == "1.002" and formats.ratio(1.0) == "1.00"
    assert formats.ratio(10.094) == "10.09" and formats.count(2.5) == "2.5"
    assert formats.line_ranges([2, 3, 4, 57]) == "lines 2–4 and 57"


def test_plots_show_zero_counts_and_fits(known_table):
    summary = gridstudy.summarise(known_table)
    figure = page.plot_grid_cells(summary, "s", BUDGET, "median_conflicts")
    assert figure.axes[0].get_yscale() == "symlog"
    drawn = [y for line in figure.axes[1].lines for y in line.get_ydata()]
    assert 0 in drawn  # the optimised encoding's zero conflicts stay on the plot
    assert BUDGET in [y for line in figure.axes[0].lines for y in line.get_ydata()]  # budget
    labels = [text.get_text() for text in figure.legends[0].get_texts()]
    assert f"budget: {BUDGET:,} conflicts" in labels
    fits = gridstudy.fit_growth(summary, "s", "clauses")
    growth = page.plot_grid_growth(summary, fits, "s")
    assert any("fit N^" in text.get_text() for text in growth.axes[0].get_legend().get_texts())
    plt.close("all")


def test_grid_runs_caches_and_checks_every_answer(tmp_path):
    spec = gridstudy.GridSpec(orders=(2,), alphas=(0.0, 0.5), boards=2, time_limit_ms=10_000,
                              max_conflicts=1000, reference="pysat:minisat22")
    table = gridstudy.run_grid(spec, cache_dir=str(tmp_path))
    assert len(table) == 2 * 2 * (3 + 1)  # the reference runs the optimised encoding only
    assert set(table["status"]) == {"SAT"} and table["valid"].all()
    assert (table["computed_at"] == "").all()
    assert table["seed"].tolist()[:4] == [7] * 4  # board 0 of every cell is seed 7
    assert (table["stop"] == "answered").all()
    assert (table["solve_cpu_ms"] > 0).all() and (table["solve_wall_ms"] > 0).all()
    again = gridstudy.run_grid(spec, cache_dir=str(tmp_path))
    assert (again["computed_at"] != "").all()
    assert again["solve_cpu_ms"].tolist() == table["solve_cpu_ms"].tolist()
    clocks = clock_facts(zip(again["solve_wall_ms"], again["solve_cpu_ms"], strict=True))
    assert clocks.calls == len(again)


def test_large_orders_stop_at_the_first_undecided_board(tmp_path, monkeypatch):
    seen = []

    def fake_measure(board, solver, encoding, time_limit_ms=None, max_conflicts=None):
        seen.append((time_limit_ms, max_conflicts))
        status = "SAT" if board.num_givens > 0.6 * board.size**2 else "UNKNOWN"
        return {"order": board.order, "size": board.size, "givens": board.num_givens,
                "status": status, "stop": "answered" if status == "SAT" else "conflicts",
                "encode_cpu_ms": 1.0, "solve_cpu_ms": 2.0, "variables": 5, "clauses": 9,
                "conflicts": 0 if status == "SAT" else 700}

    monkeypatch.setattr(gridstudy, "measure", fake_measure)
    large = gridstudy.run_large([3], [0.75, 0.7, 0.5, 0.4], max_conflicts=700,
                                time_limit_ms=9000.0, cache_dir=str(tmp_path))
    assert large["alpha"].tolist() == [0.75, 0.7, 0.5]
    assert seen == [(9000.0, 700)] * 3
    assert page.large_words(large, "s") == [
        "N = 3: down to 70 % given, s decided the board within the budget (9 clauses, 2 ms of "
        "CPU), and was stopped by the budget at 50 %."]
    assert page.large_table(large)["stopped by"].tolist() == ["answered", "answered",
                                                              "conflicts"]
    nothing = large[large["status"] != "SAT"].assign(order=4)
    assert page.large_words(nothing, "s") == ["N = 4: s decided no board within the budget."]


# ---------------------------------------------------------------------------------------
# the heuristics experiment's statistics, on known data


def _results(pairs: dict[str, list[int]], unfinished: dict[str, set[int]] | None = None):
    """Rows of the experiment; the runs `unfinished` names were stopped by the budget."""
    rows = []
    for solver, counts in pairs.items():
        for index, count in enumerate(counts):
            out = index in (unfinished or {}).get(solver, set())
            rows.append({"puzzle": f"0-{index}", "grade": "g", "givens": 24, "solver": solver,
                         "status": "UNKNOWN" if out else "SAT",
                         "stop": "propagations" if out else "answered", "valid": not out,
                         "decisions": count, "conflicts": 0, "solve_cpu_ms": 1.0,
                         "solve_wall_ms": 1.5})
    return pd.DataFrame(rows)


def test_holm_adjustment():
    assert heuristics.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert heuristics.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_comparison_on_known_pairs():
    moms = list(range(1, 21))
    results = _results({"moms": moms, "dlis": [m * 4 + 3 for m in moms], "dp": moms},
                       {"dlis": {0}})
    by_rival = {c.rival: c for c in heuristics.compare(results)}
    dlis, dp = by_rival["dlis"], by_rival["dp"]
    assert (dlis.fewer, dlis.more, dlis.ties, dlis.rival_unfinished) == (20, 0, 0, 1)
    assert dlis.rank_biserial == 1.0 and dlis.p_value < 1e-5 and dlis.ratio_low > 1
    assert (dp.fewer, dp.ties, dp.ratio) == (0, 20, 1.0)
    assert dlis.interval_favours == dlis.counts_favour == 1 and dlis.subject_unfinished == 0
    assert dp.interval_favours == 0 and dp.counts_favour == 0  # every puzzle a tie
    assert (dlis.both_finished, dp.both_finished) == (19, 20) and dlis.tested and dp.tested
    verdict = verdict_words(list(by_rival.values()), 20, 0, "limits")
    assert verdict[0].startswith("The hypothesis does not hold") and verdict[0].endswith(" dp.")
    # dlis's unfinished run (7 decisions when stopped) ranks above its finished runs, 11 to 83
    assert heuristics.grade_medians(results) == [("g", {"moms": 10.5, "dlis": 49.0, "dp": 10.5})]


def test_hypothesis_holds_when_both_rivals_need_more():
    moms = list(range(1, 16))
    results = _results({"moms": moms, "dlis": [m + 5 for m in moms], "dp": [2 * m for m in moms]})
    comparisons = heuristics.compare(results)
    verdict = verdict_words(comparisons, 15, 0, "limits")
    assert verdict[0].startswith("The hypothesis holds at the 0.05 level (Holm-adjusted): MOMS "
                                 "needs fewer decisions than dlis and than dp on")
    statistic, p, solvers, puzzles, finished = heuristics.friedman(results)
    assert (solvers, puzzles, finished) == (3, 15, 15) and p < 0.001 and statistic > 0
    assert friedman_words(results).endswith("the solvers do differ in decisions beyond chance.")


def test_an_unfinished_run_never_counts_in_its_solvers_favour():
    # MOMS stopped by a limit before its first decision on 12 puzzles dp and dlis finished:
    # as recorded, 0 decisions would be "fewer" on every one of them
    finished = list(range(10, 22))
    results = _results({"moms": [0] * 12 + finished, "dlis": finished + finished,
                        "dp": finished + finished}, {"moms": set(range(12))})
    censored = heuristics.censored_decisions(results)
    assert censored.loc[[f"0-{i}" for i in range(12)], "moms"].tolist() == [math.inf] * 12
    by_rival = {c.rival: c for c in heuristics.compare(results)}
    for rival in ("dlis", "dp"):
        c = by_rival[rival]
        assert (c.fewer, c.more, c.ties, c.subject_unfinished) == (0, 12, 12, 12)
        assert c.tested and c.both_finished == 12 and c.rank_biserial == -1.0
        assert c.p_value > 0.5 and not c.significant()
        assert c.ratio == 1.0  # over the 12 puzzles both finished, equal counts
    verdict = verdict_words(list(by_rival.values()), 24, 0, "limits")
    assert verdict[0].startswith("The hypothesis does not hold")
    assert verdict[0].endswith("than dlis or dp.")
    # MOMS's median run did not finish: its median is not a count, and never the smallest
    assert heuristics.grade_medians(results) == [
        ("g", {"moms": math.inf, "dlis": 15.5, "dp": 15.5})]
    assert decisions_words(float("inf")) == "not finished" and decisions_words(14.5) == "14.5"


def test_too_few_finished_runs_give_no_test_and_no_verdict():
    # every run stopped before its first decision (a limit no run can meet)
    results = _results({s: [0] * 20 for s in ("moms", "dlis", "dp", "jw")},
                       {s: set(range(20)) for s in ("moms", "dlis", "dp", "jw")})
    comparisons = heuristics.compare(results)
    assert all(not c.tested and c.both_finished == 0 for c in comparisons)
    assert all(c.ties == 20 and math.isnan(c.p_value) and math.isnan(c.p_holm)
               for c in comparisons)
    assert not any(c.significant() for c in comparisons)
    [verdict] = verdict_words(comparisons, 20, 0, "limits")
    assert verdict.startswith("Too few runs finished for a verdict: the comparison with dlis and "
                              "with dp could not be tested within limits")
    assert friedman_words(results).startswith(
        "Friedman's test over the 4 solvers is not run: 0 of the 20 puzzles")
    # nine puzzles finished by both are still too few; ten are enough
    counts = list(range(1, 21))
    nine = _results({"moms": counts, "dlis": [c + 5 for c in counts], "dp": counts},
                    {"dlis": set(range(11)), "dp": set(range(11))})
    assert all(c.both_finished == 9 and not c.tested for c in heuristics.compare(nine))
    ten = _results({"moms": counts, "dlis": [c + 5 for c in counts], "dp": counts},
                   {"dlis": set(range(10)), "dp": set(range(10))})
    assert all(c.both_finished == 10 and c.tested for c in heuristics.compare(ten))
    assert heuristics.MIN_BOTH_FINISHED == 10


def test_experiment_runs_every_solver_on_the_same_puzzles(tmp_path):
    spec = heuristics.ExperimentSpec(
        grades=(heuristics.Grade("easy", 0.6, False, 2), heuristics.Grade("unique", 0.4, True, 1)),
        time_limit_ms=20_000,
    )
    results = heuristics.run_heuristics_experiment(spec, cache_dir=str(tmp_path))
    assert len(results) == 3 * len(heuristics.SOLVERS)
    assert set(results["status"]) == {"SAT"} and results["valid"].all()
    assert (results["solve_cpu_ms"] > 0).all() and (results["solve_wall_ms"] > 0).all()
    assert results.groupby("solver")["puzzle"].apply(tuple).nunique() == 1
    again = heuristics.run_heuristics_experiment(spec, cache_dir=str(tmp_path))
    assert (again["computed_at"] != "").all()
    assert again["decisions"].tolist() == results["decisions"].tolist()
    table = heuristics.grade_table(results)
    assert list(table.index) == ["easy", "unique"]
    figure = plot_pairs(results)
    assert len(figure.axes) == 2
    plt.close("all")


# ---------------------------------------------------------------------------------------
# the notebooks, re-executed on tiny parameters: they state the facts of their data


def _markdown_outputs(path: Path) -> str:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    texts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            markdown = output.get("data", {}).get("text/markdown")
            if markdown:
                texts.append("".join(markdown))
    return "\n".join(texts)


def _execute(name: str, tmp_path: Path, parameters: dict) -> Path:
    papermill = pytest.importorskip("papermill")
    target = tmp_path / f"{name}.ipynb"
    papermill.execute_notebook(
        str(ROOT / "notebooks" / f"{name}.ipynb"), str(target), cwd=str(ROOT),
        kernel_name="python3", progress_bar=False, parameters=parameters,
    )
    return target


@pytest.mark.slow
def test_scaling_notebook_prose_comes_from_its_table(tmp_path):
    cache, figures = tmp_path / "cache", tmp_path / "figures"
    parameters = {"orders": [2, 3, 4], "alphas": [0.0, 0.5], "boards": 1, "max_conflicts": 3,
                  "time_limit_ms": 600_000, "reference": "pysat:minisat22", "focus_order": 3,
                  "focus_alpha": 0.5,
                  "large_orders": [4], "large_alphas": [0.75], "cache_dir": str(cache),
                  "figures_dir": str(figures)}
    executed = _execute("scaling", tmp_path, parameters)
    prose = _markdown_outputs(executed)
    spec = gridstudy.GridSpec(orders=(2, 3, 4), alphas=(0.0, 0.5), boards=1, max_conflicts=3,
                              time_limit_ms=600_000.0, reference="pysat:minisat22")
    table = gridstudy.run_grid(spec, cache_dir=str(cache))  # the notebook's rows, from the cache
    assert (table["computed_at"] != "").all()
    summary = gridstudy.summarise(table)
    saved = gridstudy.savings(summary, "cdcl")
    for order, share in saved["removed"].items():
        assert f"N = {order}: {share * 100:.0f} %" in prose
    # three conflicts leave the course encoding's empty order-3 board undecided
    undecided, runs = saved["course unfinished"].sum(), saved["runs"].sum()
    assert undecided > 0
    assert f"left {undecided} of {runs} runs of the grid undecided" in prose
    assert "Budget: 3 conflicts for every solver call" in prose
    assert "the CPU cap stopped none, so every status on this page is the same" in prose
    busy = clock_facts(zip(table["solve_wall_ms"], table["solve_cpu_ms"], strict=True))
    assert f"wall time was {busy.ratio:.2f} times CPU time" in prose
    for encoding, solver in spec.runs():
        order, _ = gridstudy.unusable_order(summary, encoding, solver)
        said = "stayed usable up to" if order is None else f"stops being usable at N = {order}"
        assert f"With {solver}, the {encoding} encoding {said}" in prose
    cell = summary[(summary["order"] == 3) & (summary["alpha"] == 0.5)]
    for run in cell.itertuples():
        assert f"{run.encoding} with {run.solver}: {run.solved} of {run.boards} solved" in prose
    for fit in gridstudy.fit_growth(summary, "cdcl", "clauses"):
        assert f"With the {fit.encoding} encoding, the clauses grow like N^{fit.exponent:.1f}" in (
            prose)
    assert "0.000000" not in executed.read_text(encoding="utf-8")
    names = {path.name for path in figures.iterdir()}
    assert {"scaling-time-per-cell.png", "scaling-growth.svg"} <= names


def _heuristics_page(tmp_path: Path, per_grade: int, time_limit_ms: float | None = None,
                     max_propagations: int | None = None):
    """The heuristics page's Markdown on `per_grade` puzzles a grade under its limits (the
    notebook's defaults where not given), and its rows (read back from the cache the page
    filled)."""
    cache = tmp_path / "cache"
    limits = {"time_limit_ms": time_limit_ms, "max_propagations": max_propagations}
    limits = {key: value for key, value in limits.items() if value is not None}
    parameters = {"per_grade": per_grade, "cache_dir": str(cache),
                  "figures_dir": str(tmp_path / "f"), **limits}
    prose = _markdown_outputs(_execute("heuristics", tmp_path, parameters))
    spec = heuristics.ExperimentSpec(
        max_propagations=max_propagations or heuristics.DEFAULT_MAX_PROPAGATIONS,
        time_limit_ms=float(time_limit_ms or heuristics.DEFAULT_CPU_CAP_MS)).shrunk(per_grade)
    results = heuristics.run_heuristics_experiment(spec, cache_dir=str(cache))
    assert (results["computed_at"] != "").all()
    return prose, results


@pytest.mark.slow
def test_heuristics_notebook_prose_comes_from_its_tests(tmp_path):
    prose, results = _heuristics_page(tmp_path, 1, max_propagations=20_000)
    named = [c for c in heuristics.compare(results) if c.rival in heuristics.RIVALS]
    for c in named:
        assert (f"Against {c.rival}: MOMS made fewer decisions on {c.fewer} of {c.puzzles} "
                f"puzzles, more on {c.more}, as many on {c.ties};" if c.tested else
                f"Against {c.rival}: MOMS and {c.rival} both finished on {c.both_finished} of "
                f"{c.puzzles} puzzles, fewer than the 10 a test needs") in prose
    said = ("Too few runs finished for a verdict" if not all(c.tested for c in named) else
            "The hypothesis holds" if all(c.significant() for c in named) else
            "The hypothesis does not hold")
    assert said in prose
    for grade, medians in heuristics.grade_medians(results):
        assert f"{grade}: median decisions moms {decisions_words(medians['moms'])}," in prose
    statistic, _, solvers, puzzles, done = heuristics.friedman(results)
    assert (f"Friedman's test over the {solvers} solvers on the same {puzzles} puzzles "
            f"(unfinished runs censored): chi² = {statistic:,.1f}" if done >= 10
            else f"Friedman's test over the {solvers} solvers is not run") in prose
    assert prose.index("Friedman") < prose.index(said)
    busy = clock_facts(zip(results["solve_wall_ms"], results["solve_cpu_ms"], strict=True))
    assert f"wall time was {busy.ratio:.2f} times CPU time" in prose
    stopped = int((results["stop"] == "propagations").sum())
    assert "TIMEOUT" not in set(results["status"])
    assert stopped == (~results["status"].isin(DECIDED)).sum() > 0  # 20,000 stop the hardest
    assert f"{stopped} stopped by the budget, 0 by the CPU cap" in prose


@pytest.mark.slow
def test_heuristics_page_with_a_limit_no_run_can_meet_states_no_verdict(tmp_path):
    # a CPU cap of 40 ms: the cap stops runs before the budget does, so no rival of MOMS is
    # finished by both on the 10 puzzles a test needs, and the page says the cap decided
    prose, results = _heuristics_page(tmp_path, 2, time_limit_ms=40)
    untested = {c.rival for c in heuristics.compare(results) if not c.tested}
    assert {"dlis", "dp"} <= untested
    assert "Too few runs finished for a verdict" in prose
    assert "states no verdict on H" in prose
    assert "The hypothesis holds" not in prose and "does not hold" not in prose
    assert "Friedman's test over the 7 solvers is not run" in prose
    capped = int((results["status"] == "TIMEOUT").sum())
    assert capped > 0 and set(results.loc[results["status"] == "TIMEOUT", "stop"]) == {"time"}
    assert f"{capped} by the CPU cap" in prose
    assert "depend on this machine and its load" in prose


def test_focus_tables_show_the_cell_the_parameters_chose():
    rows = pd.DataFrame({"order": [4, 4], "alpha": [0.2, 0.2], "seed": [7, 8], "givens": [51, 51],
                         "encoding": ["course", "course"], "solver": ["cdcl", "cdcl"],
                         "status": ["SAT", "TIMEOUT"], "solve_cpu_ms": [12.0, 5000.0]})
    status, times = page.focus_tables(rows, 4, 0.2)
    assert "TIMEOUT" in str(status) and "5,000" in str(times)
    assert page.focus_tables(rows, 6, 0.4) is None


def test_reference_words_name_the_boards_our_solver_decided_and_the_reference_did_not():
    rows = [_row(6, 0.4, "optimised", "s", board, "SAT", 1000.0 + board, 100, 50 + board)
            for board in range(3)]
    rows += [dict(_row(6, 0.4, "optimised", "ref", board, status, ms, 100, conflicts),
                  load_cpu_ms=400.0)
             for board, status, ms, conflicts in ((0, "SAT", 300.0, 7000),
                                                  (1, "UNKNOWN", T + 2, 74000),
                                                  (2, "UNKNOWN", T + 3, 180000))]
    rows.append(_row(6, 0.4, "course", "s", 1, "UNKNOWN", T + 1, 900, 9))  # another encoding
    frame = pd.DataFrame(rows)
    summary = gridstudy.summarise(frame)
    said, missed = page.reference_words(frame, summary, "s", "ref", "the budget")
    assert "s decided 3 and ref 1 of the same 3 runs within the budget" in said
    assert missed.startswith("ref did not decide 2 boards that s decided")
    assert ("seed 8: it stopped (UNKNOWN, conflicts) after 74,000 conflicts and 1,002 ms of CPU, "
            "400 of them loading the clauses, where s needed 51 conflicts and 1,001 ms; N = 6, "
            "40 % given, seed 9: it stopped (UNKNOWN, conflicts) after 180,000 conflicts") in missed
    assert len(page.reference_words(frame, summary, "ref", "s", "the budget")) == 1


def test_a_run_that_failed_is_censored_and_set_apart_with_its_reason():
    results = _results({"moms": [1, 2], "dp": [3, 4]}, {"dp": {1}})
    results["computed_at"] = ""
    results.loc[0, ["status", "stop"]] = ["ERROR", "error"]
    assert data_words(results) == (
        "2 puzzles, 4 runs: 2 solved, each checked valid; 1 stopped by the budget, 0 by the CPU "
        "cap; not finished for another reason: moms on puzzle 0-0: ERROR (stopped: error).")
    assert math.isinf(heuristics.censored_decisions(results).loc["0-0", "moms"])
