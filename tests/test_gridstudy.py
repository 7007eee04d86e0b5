"""The report's studies: the cache, the grid's conclusions and the facts the scaling page
states, the heuristics experiment, and both notebooks re-executed on tiny parameters with
the facts behind their sentences found in what they print."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from sudosat.report import formats
from sudosat.report import scaling_page as page
from sudosat.report.heuristics_page import grade_medians, hypothesis_facts, plot_pairs
from sudosat.studies import grid as gridstudy
from sudosat.studies import heuristics
from sudosat.studies.cache import cache_key, code_version, load_or_compute

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]
T = 1000.0


# ---------------------------------------------------------------------------------------
# the cache


def test_cache_computes_once_and_keys_on_parameters_and_version(tmp_path):
    calls = []

    def compute():
        calls.append(1)
        return [{"value": len(calls)}]

    first, when = load_or_compute("k", {"a": 1}, compute, cache_dir=tmp_path, version="v1")
    assert first == [{"value": 1}] and when is None
    again, when = load_or_compute("k", {"a": 1}, compute, cache_dir=tmp_path, version="v1")
    assert again == [{"value": 1}] and when is not None and len(calls) == 1
    load_or_compute("k", {"a": 2}, compute, cache_dir=tmp_path, version="v1")
    load_or_compute("k", {"a": 1}, compute, cache_dir=tmp_path, version="v2")
    assert len(calls) == 3
    assert len(list(tmp_path.glob("k-*.json"))) == 3
    assert not list(tmp_path.glob("*.tmp"))


def test_damaged_cache_entry_is_recomputed(tmp_path):
    key = cache_key("k", "v", {"a": 1})
    (tmp_path / f"{key}.json").write_text("{not json", encoding="utf-8")
    rows, when = load_or_compute("k", {"a": 1}, lambda: [{"x": 1}], cache_dir=tmp_path, version="v")
    assert rows == [{"x": 1}] and when is None
    assert json.loads((tmp_path / f"{key}.json").read_text())["rows"] == [{"x": 1}]


def test_code_version_follows_the_measured_sources():
    assert code_version() == code_version()
    assert code_version(("gridstudy.py",)) != code_version(("heuristics.py",))
    # a study's measuring functions count by their source; its tables and plots do not
    measuring = code_version(functions=(gridstudy.run_cell,))
    assert measuring != code_version(functions=(gridstudy.run_large,))
    assert measuring == code_version(functions=(gridstudy.run_cell,))


def test_every_module_but_the_presentation_is_measured(tmp_path, monkeypatch):
    from sudosat.studies import cache as studycache

    measured = studycache.measured_sources()
    assert {"sat/solvers/cdcl/propagation.py", "sudoku/encoding/core.py", "run/runner.py",
            "sudoku/incremental.py"} <= set(measured)
    assert not [name for name in measured if name.startswith(("report/", "cli/"))]
    # a module added later is measured without anyone listing it
    for name in ("sat/solvers/cdcl.py", "sat/solvers/new_engine.py", "report/page.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    monkeypatch.setattr(studycache, "PACKAGE", tmp_path)
    assert studycache.measured_sources() == ("sat/solvers/cdcl.py", "sat/solvers/new_engine.py")


# ---------------------------------------------------------------------------------------
# the grid's summary and the page's facts, on a known table


def _row(order, alpha, encoding, solver, board, status, ms, clauses, conflicts):
    return {"order": order, "alpha": alpha, "encoding": encoding, "solver": solver,
            "board": board, "status": status, "solve_ms": ms, "clauses": clauses,
            "variables": clauses // 10, "conflicts": conflicts, "decisions": conflicts,
            "encode_ms": 1.0}


@pytest.fixture
def known_table() -> pd.DataFrame:
    """Orders 2..4, alphas 0 and 0.5, two boards, course and optimised, one solver.

    Course: clauses 100 * 4**(N-2); times 10, 100, then T at N = 4 (both boards time out at 0 %,
    one of two at 50 %). Optimised: a tenth of the clauses, times a tenth of the course's, no
    time-outs; the hardest fill is 0 % everywhere except optimised N = 2 (50 %)."""
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
                    rows.append(_row(order, alpha, "course", "s", board, "TIMEOUT", T + 3,
                                     clauses, 9))
                else:
                    rows.append(_row(order, alpha, "course", "s", board, "SAT", 400.0, clauses,
                                     4))
                opt_ms = (1.0, 2.0) if order == 2 else (float(order), float(order) / 2)
                rows.append(_row(order, alpha, "optimised", "s", board, "SAT",
                                 opt_ms[0 if alpha == 0.0 else 1], clauses // 10, 0))
    return pd.DataFrame(rows)


def test_summary_counts_timeouts_as_T(known_table):
    summary = gridstudy.summarise(known_table, T).set_index(["order", "alpha", "encoding"])
    cell = summary.loc[(4, 0.0, "course")]
    assert (cell["timeouts"], cell["solved"], cell["median_ms"]) == (2, 0, T)
    assert cell["censored"]
    half = summary.loc[(4, 0.5, "course")]
    assert half["median_ms"] == (T + 400.0) / 2 and half["censored"]
    assert summary.loc[(3, 0.0, "optimised"), "median_conflicts"] == 0


def test_grid_table_prints_percentages_and_timeouts(known_table):
    table = gridstudy.grid_table(gridstudy.summarise(known_table, T), T)
    assert list(table.columns) == ["course / s", "optimised / s"]
    assert table.loc[(4, "0 %"), "course / s"] == ">= 1,000 (2/2 TO)"
    assert table.loc[(2, "50 %"), "optimised / s"] == "2"
    assert table.loc[(3, "0 %"), "course / s"] == "100"
    assert "0.000000" not in table.to_string()


def test_conclusion_facts_on_the_known_table(known_table):
    summary = gridstudy.summarise(known_table, T)
    peaks = page.peak_facts(summary, "s")
    assert list(peaks) == ["course", "optimised"]
    course = {p.order: p for p in peaks["course"]}
    assert course[2].alphas == (0.0, 0.5) and course[2].tied and course[2].by == "conflicts"
    assert course[2].median_conflicts == (2.0, 2.0)
    assert (course[4].alphas, course[4].by, course[4].timeouts, course[4].boards) == (
        (0.0,), "timeouts", 2, 2)
    assert all(p.median_conflicts[0] == 0 for p in peaks["optimised"])  # no conflict anywhere
    spec = gridstudy.GridSpec(orders=(2, 3, 4), alphas=(0.0, 0.5), solver="s",
                              encodings=("course", "optimised"), reference=None)
    usable = {u.encoding: u for u in page.usability_facts(summary, spec)}
    assert usable["course"] == page.UsabilityFacts("course", "s", 4, 4, (0.0, 0.5), 3, 4, ())
    assert usable["optimised"] == page.UsabilityFacts("optimised", "s", 4, None)
    saved = page.savings_facts(summary, "s")
    assert [n for n, _ in saved.removed] == [2, 3, 4]
    assert all(share == pytest.approx(0.9) for _, share in saved.removed)
    assert (saved.base_timeouts, saved.better_timeouts, saved.runs) == (3, 0, 12)
    cell = page.cell_facts(summary, 4, 0.0, "s")
    assert cell.found and [(r.encoding, r.solved, r.boards, r.timeouts) for r in cell.runs] == [
        ("course", 0, 2, 2), ("optimised", 2, 2, 0)]
    assert cell.runs[0].median_solved_ms is None and cell.runs[1].median_solved_ms == 4.0
    assert (cell.base_solved, cell.base_boards, cell.better_solved, cell.better_boards) == (
        0, 2, 2, 2)
    assert not page.cell_facts(summary, 6, 0.4).found
    missing = page.reference_facts(summary, "s", "ref")
    assert not missing.ran and missing.runs == 0


def test_reference_facts_compare_the_same_cells():
    rows = [_row(3, a, "optimised", s, b, "SAT", ms, 100, 1)
            for a in (0.0, 0.5) for b in (0, 1)
            for s, ms in (("s", 10.0 if a == 0.0 else 50.0), ("ref", 20.0))]
    rows.append(_row(4, 0.0, "optimised", "s", 0, "TIMEOUT", T + 1, 100, 1))  # ours alone
    summary = gridstudy.summarise(pd.DataFrame(rows), T)
    facts = page.reference_facts(summary, "s", "ref")
    assert facts.ran and (facts.cells, facts.runs) == (2, 4)
    assert (facts.solver_decided, facts.reference_decided, facts.solver_lower) == (4, 4, 1)


def _cells(order, cells, boards=3):
    """Rows of one order, solver s, course encoding: `cells` maps alpha to
    (status, ms, conflicts), the same for each of `boards` boards."""
    return [_row(order, alpha, "course", "s", board, status, ms, 100, conflicts)
            for alpha, (status, ms, conflicts) in cells.items() for board in range(boards)]


def test_hardest_fill_is_ranked_by_conflicts_and_time_out_ties_are_named_together():
    rows = _cells(4, {0.0: ("SAT", 59.0, 0), 0.2: ("SAT", 34.0, 59), 0.4: ("SAT", 30.0, 29)})
    rows += _cells(6, {0.0: ("TIMEOUT", T + 5, 5189), 0.2: ("TIMEOUT", T + 5, 8492),
                       0.4: ("TIMEOUT", T + 5, 20228), 0.6: ("SAT", 900.0, 75)})
    rows += _cells(5, {0.0: ("SAT", 800.0, 1574), 0.4: ("TIMEOUT", T + 5, 24785)})
    summary = gridstudy.summarise(pd.DataFrame(rows), T)
    peaks = gridstudy.peaks(summary, "s").loc["course"]
    # the slowest cell at N = 4 (0 %) met no conflict: 20 % is the hardest search
    assert peaks.loc[4, "alphas"] == (0.2,) and peaks.loc[4, "by"] == "conflicts"
    # three fills time out on every board: a tie, whatever their conflicts at T
    assert peaks.loc[6, "alphas"] == (0.0, 0.2, 0.4) and peaks.loc[6, "by"] == "timeouts"
    assert peaks.loc[5, "alphas"] == (0.4,)
    facts = {p.order: p for p in page.peak_facts(summary, "s")["course"]}
    assert (facts[4].alphas, facts[4].median_conflicts, facts[4].median_ms) == (
        (0.2,), (59.0,), (34.0,))
    assert not facts[4].tied and not facts[5].tied
    assert facts[6].tied and (facts[6].timeouts, facts[6].boards) == (3, 3)


def test_more_time_outs_outrank_fewer_and_conflict_ties_are_named():
    rows = _cells(6, {0.0: ("TIMEOUT", T + 5, 9000), 0.4: ("SAT", 50.0, 10)})
    rows[3:5] = [dict(rows[0], alpha=0.4)] * 2  # two of the three 40 % boards time out too
    rows += _cells(3, {0.0: ("SAT", 5.0, 2), 0.2: ("SAT", 3.0, 2), 0.4: ("SAT", 9.0, 1)})
    summary = gridstudy.summarise(pd.DataFrame(rows), T)
    peaks = gridstudy.peaks(summary, "s").loc["course"]
    assert summary.set_index(["order", "alpha"]).loc[(6, 0.4), "censored"]
    assert peaks.loc[6, "alphas"] == (0.0,) and peaks.loc[6, "timeouts"] == 3
    assert peaks.loc[3, "alphas"] == (0.0, 0.2) and peaks.loc[3, "by"] == "conflicts"
    tie = {p.order: p for p in page.peak_facts(summary, "s")["course"]}[3]
    assert tie.tied and tie.alphas == (0.0, 0.2) and tie.median_conflicts == (2.0, 2.0)


def test_conflict_growth_with_time_outs_is_a_lower_bound(known_table):
    summary = gridstudy.summarise(known_table, T)
    conflicts = {f.encoding: f for f in gridstudy.fit_growth(summary, "s", "median_conflicts", T)}
    # the course encoding timed out at N = 4 only, above the centre of the fit
    assert conflicts["course"].censored and conflicts["course"].lower_bound
    assert conflicts["course"].affected == (4,)
    assert not conflicts["optimised"].censored
    timing = {f.encoding: f for f in gridstudy.fit_growth(summary, "s", "median_ms", T)}
    assert timing["course"].lower_bound and timing["course"].affected == (4,)
    # time-outs at the smallest order only: the slope may move either way
    early = known_table.copy()
    early.loc[(early["order"] == 2) & (early["encoding"] == "optimised"), "status"] = "TIMEOUT"
    low = gridstudy.fit_growth(gridstudy.summarise(early, T), "s", "median_conflicts", T)
    low = next(f for f in low if f.encoding == "optimised")
    assert low.censored and not low.lower_bound
    assert low.affected == (2,)


def test_savings_table_prints_whole_clauses_and_percent_shares(known_table):
    table = gridstudy.savings_table(gridstudy.summarise(known_table, T), "s")
    assert table.index.name == "N"
    assert table.loc[2, "course clauses"] == 100 and table.loc[2, "optimised clauses"] == 10
    assert table.loc[2, "removed"] == "90 %"
    assert str(table["course clauses"].dtype) == "Int64"
    assert table.loc[4, "course time-outs"] == 3 and table.loc[4, "runs per encoding"] == 4
    halves = gridstudy.summarise(known_table, T)
    halves.loc[(halves["order"] == 3) & (halves["alpha"] == 0.5), "clauses"] = 401
    assert gridstudy.savings_table(halves, "s").loc[3, "course clauses"] == 401  # 400.5 up


def test_empty_boards_repeat_in_every_seed_and_the_facts_say_so():
    spec = gridstudy.GridSpec(orders=(2, 3), alphas=(0.0, 0.5), boards=3)
    distinct = gridstudy.distinct_boards(spec)
    assert distinct["distinct"].to_dict() == {(2, 0.0): 1, (2, 0.5): 3, (3, 0.0): 1,
                                             (3, 0.5): 3}
    facts = page.board_facts(distinct)
    assert (facts.seeds, facts.cells, facts.distinct_cells) == (3, 4, 2)
    assert facts.repeats == ((0.0, 1, (2, 3)),) and facts.repeats_are_empty
    every = page.board_facts(distinct.drop(index=[(2, 0.0), (3, 0.0)]))
    assert every.repeats == () and every.distinct_cells == every.cells == 2
    assert not every.repeats_are_empty
    one = gridstudy.distinct_boards(gridstudy.GridSpec(orders=(2,), alphas=(0.0,), boards=1))
    assert page.board_facts(one).seeds == 1 and page.board_facts(one).repeats == ()


def test_grid_table_shows_the_distinct_boards(known_table):
    summary = gridstudy.summarise(known_table, T)
    distinct = pd.DataFrame({"order": [2, 2], "alpha": [0.0, 0.5], "boards": [2, 2],
                             "distinct": [1, 2], "givens": [0, 8]}).set_index(["order", "alpha"])
    table = gridstudy.grid_table(summary, T, distinct)
    assert list(table.columns)[0] == "distinct boards"
    assert table.loc[(2, "0 %"), "distinct boards"] == 1
    assert pd.isna(table.loc[(3, "0 %"), "distinct boards"])


def test_large_orders_facts_count_the_course_clauses_like_the_size_table():
    intro = page.large_intro_facts([9, 7, 8], [3, 4, 5, 6])
    assert intro.sizes == ((7, 11_296_705), (8, 33_034_240), (9, 85_037_121))
    assert intro.grid_largest == 6 and intro.base == "course"
    assert intro.sizes[0][1] == gridstudy.course_clauses(7)


def test_growth_fit_recovers_a_power_law(known_table):
    summary = gridstudy.summarise(known_table, T)
    fits = gridstudy.fit_growth(summary, "s", "clauses", T)
    course = next(f for f in fits if f.encoding == "course")
    # clauses = 100 * 4**(N-2): not a power of N; the fit is the least-squares slope
    assert 3.9 < course.exponent < 4.0 and course.points == 3 and not course.censored
    timing = gridstudy.fit_growth(summary, "s", "median_ms", T)
    assert next(f for f in timing if f.encoding == "course").censored
    exact = known_table[known_table["encoding"] == "optimised"].copy()
    exact["clauses"] = exact["order"] ** 3 - 1  # +1 before the logarithm: exactly N**3
    fit = gridstudy.fit_growth(gridstudy.summarise(exact, T), "s", "clauses", T)[0]
    assert fit.exponent == pytest.approx(3.0) and fit.r_squared == pytest.approx(1.0)
    assert fit.encoding == "optimised" and fit.low == pytest.approx(fit.high)
    two_orders = gridstudy.summarise(known_table[known_table["order"] < 4], T)
    assert page.growth_fits(two_orders, "s", T) == []  # fewer than three orders: no fit


def test_closed_form_exponent_of_the_course_encoding():
    assert gridstudy.course_clauses(3) == 11745
    facts = page.closed_form_facts([6, 3, 4, 5], [])
    assert facts.orders == (3, 4, 5, 6) and f"{facts.theory:.1f}" == "8.1"
    assert facts.measured is None
    fit = gridstudy.Fit("course", "clauses", 7.9, 7.8, 8.0, 0.0, 1.0, 4, False)
    assert page.closed_form_facts([3, 4, 5, 6], [fit]).measured == 7.9


def test_formatting_never_prints_long_zeros():
    assert gridstudy.percent(0.0) == "0 %" and gridstudy.percent(0.4) == "40 %"
    assert gridstudy.percent(0.35) == "35 %"
    assert gridstudy.milliseconds(0.0) == "0" and gridstudy.milliseconds(0.123) == "0.12"
    assert gridstudy.milliseconds(5000.0, 5000.0) == ">= 5,000"
    assert formats.p_value(0.0000001234) == "1.2e-07" and formats.p_value(0.04) == "0.040"
    assert formats.ratio(1.0017) == "1.002" and formats.ratio(1.0) == "1.00"
    assert formats.ratio(10.094) == "10.09" and formats.count(2.5) == "2.5"
    assert formats.line_ranges([2, 3, 4, 57]) == "lines 2–4 and 57"


def test_plots_show_zero_counts_and_fits(known_table):
    summary = gridstudy.summarise(known_table, T)
    figure = page.plot_grid_cells(summary, "s", T, "median_conflicts")
    assert figure.axes[0].get_yscale() == "symlog"
    drawn = [y for line in figure.axes[1].lines for y in line.get_ydata()]
    assert 0 in drawn  # the optimised encoding's zero conflicts stay on the plot
    fits = gridstudy.fit_growth(summary, "s", "clauses", T)
    growth = page.plot_grid_growth(summary, fits, "s")
    assert any("fit N^" in text.get_text() for text in growth.axes[0].get_legend().get_texts())
    plt.close("all")


def test_grid_runs_caches_and_checks_every_answer(tmp_path):
    spec = gridstudy.GridSpec(orders=(2,), alphas=(0.0, 0.5), boards=2, time_limit_ms=10_000,
                              reference="pysat:minisat22")
    table = gridstudy.run_grid(spec, cache_dir=str(tmp_path))
    assert len(table) == 2 * 2 * (3 + 1)  # the reference runs the optimised encoding only
    assert set(table["status"]) == {"SAT"} and table["valid"].all()
    assert (table["computed_at"] == "").all()
    assert table["seed"].tolist()[:4] == [7] * 4  # board 0 of every cell is seed 7
    again = gridstudy.run_grid(spec, cache_dir=str(tmp_path))
    assert (again["computed_at"] != "").all()
    assert again["solve_ms"].tolist() == table["solve_ms"].tolist()


def test_large_orders_stop_at_the_first_timeout(tmp_path, monkeypatch):
    def fake_measure(board, solver, encoding, time_limit_ms=None):
        status = "SAT" if board.num_givens > 0.6 * board.size**2 else "TIMEOUT"
        return {"order": board.order, "size": board.size, "givens": board.num_givens,
                "status": status, "encode_ms": 1.0, "solve_ms": 2.0, "variables": 5,
                "clauses": 9, "conflicts": 0}

    monkeypatch.setattr(gridstudy, "measure", fake_measure)
    large = gridstudy.run_large([3], [0.75, 0.7, 0.5, 0.4], cache_dir=str(tmp_path))
    assert large["alpha"].tolist() == [0.75, 0.7, 0.5]
    assert page.large_facts(large) == [page.LargeFacts(3, 0.7, 9, 2.0, 0.5, "TIMEOUT")]
    nothing = large[large["status"] != "SAT"].assign(order=4)
    assert page.large_facts(nothing) == [page.LargeFacts(4, None)]


# ---------------------------------------------------------------------------------------
# the heuristics experiment's statistics, on known data


def _results(pairs: dict[str, list[int]], timeouts: dict[str, set[int]] | None = None):
    rows = []
    for solver, counts in pairs.items():
        for index, count in enumerate(counts):
            out = index in (timeouts or {}).get(solver, set())
            rows.append({"puzzle": f"0-{index}", "grade": "g", "givens": 24, "solver": solver,
                         "status": "TIMEOUT" if out else "SAT", "valid": not out,
                         "decisions": count, "conflicts": 0, "ms": 1.0})
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
    assert (dlis.fewer, dlis.more, dlis.ties, dlis.rival_timeouts) == (20, 0, 0, 1)
    assert dlis.rank_biserial == 1.0 and dlis.p_value < 1e-5 and dlis.ratio_low > 1
    assert (dp.fewer, dp.ties, dp.ratio) == (0, 20, 1.0)
    assert dlis.interval_favours == dlis.counts_favour == 1 and dlis.subject_timeouts == 0
    assert dp.interval_favours == 0 and dp.counts_favour == 0  # every puzzle a tie
    verdict = hypothesis_facts(list(by_rival.values()))
    assert not verdict.holds and verdict.failed == ("dp",)
    assert grade_medians(results) == [("g", {"moms": 10.5, "dlis": 45.0, "dp": 10.5})]


def test_hypothesis_holds_when_both_rivals_need_more():
    moms = list(range(1, 16))
    results = _results({"moms": moms, "dlis": [m + 5 for m in moms], "dp": [2 * m for m in moms]})
    comparisons = heuristics.compare(results)
    verdict = hypothesis_facts(comparisons)
    assert verdict.holds and [c.rival for c in verdict.comparisons] == ["dlis", "dp"]
    statistic, p, solvers, puzzles = heuristics.friedman(results)
    assert (solvers, puzzles) == (3, 15) and p < 0.001
    assert statistic > 0


def test_experiment_runs_every_solver_on_the_same_puzzles(tmp_path):
    spec = heuristics.ExperimentSpec(
        grades=(heuristics.Grade("easy", 0.6, False, 2), heuristics.Grade("unique", 0.4, True, 1)),
        time_limit_ms=20_000,
    )
    results = heuristics.run_heuristics_experiment(spec, cache_dir=str(tmp_path))
    assert len(results) == 3 * len(heuristics.SOLVERS)
    assert set(results["status"]) == {"SAT"} and results["valid"].all()
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
    parameters = {"orders": [2, 3, 4], "alphas": [0.0, 0.5], "boards": 1, "time_limit_ms": 5000,
                  "reference": "pysat:minisat22", "focus_order": 3, "focus_alpha": 0.5,
                  "large_orders": [4], "large_alphas": [0.75], "cache_dir": str(cache),
                  "figures_dir": str(figures)}
    executed = _execute("scaling", tmp_path, parameters)
    prose = _markdown_outputs(executed)
    spec = gridstudy.GridSpec(orders=(2, 3, 4), alphas=(0.0, 0.5), boards=1,
                              time_limit_ms=5000.0, reference="pysat:minisat22")
    table = gridstudy.run_grid(spec, cache_dir=str(cache))  # the notebook's rows, from the cache
    assert (table["computed_at"] != "").all()
    summary = gridstudy.summarise(table, 5000.0)
    saved = page.savings_facts(summary, "cdcl")
    for order, share in saved.removed:
        assert f"N = {order}: {share * 100:.0f} %" in prose
    assert f"timed out on {saved.base_timeouts} of {saved.runs} runs of the grid" in prose
    for peaks in page.peak_facts(summary, "cdcl").values():
        for peak in peaks:
            assert f"N = {peak.order}: " in prose
    spec_runs = gridstudy.GridSpec(orders=(2, 3, 4), alphas=(0.0, 0.5), boards=1,
                                   time_limit_ms=5000.0, reference="pysat:minisat22")
    for usable in page.usability_facts(summary, spec_runs):
        said = ("stayed usable up to" if usable.order is None else
                f"stops being usable at N = {usable.order}")
        assert f"With {usable.solver}, the {usable.encoding} encoding {said}" in prose
    cell = page.cell_facts(summary, 3, 0.5, "cdcl")
    for run in cell.runs:
        assert f"{run.encoding} with {run.solver}: {run.solved} of {run.boards} solved" in prose
    for fit in gridstudy.fit_growth(summary, "cdcl", "clauses", 5000.0):
        assert f"With the {fit.encoding} encoding, the clauses grow like N^{fit.exponent:.1f}" in (
            prose)
    assert "0.000000" not in executed.read_text(encoding="utf-8")
    names = {path.name for path in figures.iterdir()}
    assert {"scaling-time-per-cell.png", "scaling-growth.svg"} <= names


@pytest.mark.slow
def test_heuristics_notebook_prose_comes_from_its_tests(tmp_path):
    cache = tmp_path / "cache"
    parameters = {"per_grade": 1, "cache_dir": str(cache), "figures_dir": str(tmp_path / "f"),
                  "time_limit_ms": 200}
    executed = _execute("heuristics", tmp_path, parameters)
    prose = _markdown_outputs(executed)
    spec = heuristics.ExperimentSpec(time_limit_ms=200.0).shrunk(1)
    results = heuristics.run_heuristics_experiment(spec, cache_dir=str(cache))
    assert (results["computed_at"] != "").all()
    verdict = hypothesis_facts(heuristics.compare(results))
    for c in verdict.comparisons:
        assert (f"Against {c.rival}: MOMS made fewer decisions on {c.fewer} of {c.puzzles} "
                f"puzzles, more on {c.more}, as many on {c.ties};") in prose
    assert ("The hypothesis holds" if verdict.holds else "The hypothesis does not hold") in prose
    for grade, medians in grade_medians(results):
        assert f"{grade}: median decisions moms {medians['moms']:g}," in prose
    statistic, _, solvers, puzzles = heuristics.friedman(results)
    assert (f"Friedman's test over the {solvers} solvers on the same {puzzles} puzzles: "
            f"chi² = {statistic:,.1f}") in prose
    assert prose.index("Friedman") < prose.index("The hypothesis")


def test_focus_tables_show_the_cell_the_parameters_chose():
    rows = pd.DataFrame({"order": [4, 4], "alpha": [0.2, 0.2], "seed": [7, 8], "givens": [51, 51],
                         "encoding": ["course", "course"], "solver": ["cdcl", "cdcl"],
                         "status": ["SAT", "TIMEOUT"], "solve_ms": [12.0, 5000.0]})
    status, times = page.focus_tables(rows, 4, 0.2)
    assert "TIMEOUT" in str(status) and "5,000" in str(times)
    assert page.focus_tables(rows, 6, 0.4) is None
