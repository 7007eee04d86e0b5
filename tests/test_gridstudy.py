"""Tests of the report's studies (issue 11): the cache, the grid's conclusions, the heuristics
experiment, and both notebooks re-executed on tiny parameters with their prose checked
against their data."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

from sudosat.report import studies
from sudosat.report.studies import grid_sentence, plot_pairs
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
# the grid's summary and sentences, on a known table


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


def test_conclusion_sentences_on_the_known_table(known_table):
    summary = gridstudy.summarise(known_table, T)
    assert gridstudy.peak_sentences(summary, "s", T) == [
        "With the course encoding, the hardest fill for s: N = 2: 0 % and 50 % tie (median 2 "
        "conflicts each); N = 3: 0 % and 50 % tie (median 2 conflicts each); N = 4: 0 % (median "
        ">= T: 2 of 2 timed out).",
        "With the optimised encoding, the hardest fill for s: N = 2: no fill's median board met "
        "a conflict; N = 3: no fill's median board met a conflict; N = 4: no fill's median "
        "board met a conflict.",
    ]
    assert gridstudy.usability_sentence(summary, "course", "s", T) == (
        "With s, the course encoding stops being usable at N = 4: within T = 1 s, half or more "
        "of the boards timed out at 0 %, 50 % given (3 of 4 runs of that order)."
    )
    assert gridstudy.usability_sentence(summary, "optimised", "s", T) == (
        "With s, the optimised encoding stayed usable up to N = 4: no cell had half or more "
        "of its boards time out within T = 1 s."
    )
    assert gridstudy.savings_sentences(summary, "s") == [
        "Per order (the median over its cells of each cell's median clause count), the "
        "optimised encoding removes this share of the course encoding's clauses: N = 2: 90 %; "
        "N = 3: 90 %; N = 4: 90 %.",
        "With s, the course encoding timed out on 3 of 12 runs of the grid, the optimised "
        "encoding on 0 of the same 12 runs.",
    ]
    assert gridstudy.cell_sentence(summary, 4, 0.0, T, "s") == (
        "At N = 4 with 0 % given, T = 1 s: course with s: 0 of 2 solved, 2 timed out; "
        "optimised with s: 2 of 2 solved (median of the solved 4 ms). Same boards, same "
        "solver (s), same T: with the optimised encoding it decided 2 of 2 boards, with the "
        "course encoding 0 of 2: here the encoding decides whether the board is solved at all."
    )
    assert gridstudy.cell_sentence(summary, 6, 0.4, T).startswith("The grid has no cell N = 6")


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
    assert gridstudy.peak_sentences(summary, "s", T) == [
        "With the course encoding, the hardest fill for s: N = 4: 20 % (median 59 conflicts, "
        "34 ms); N = 5: 40 % (median >= T: 3 of 3 timed out); N = 6: 0 %, 20 % and 40 % tie "
        "(median >= T: 3 of 3 timed out in each)."
    ]


def test_more_time_outs_outrank_fewer_and_conflict_ties_are_named():
    rows = _cells(6, {0.0: ("TIMEOUT", T + 5, 9000), 0.4: ("SAT", 50.0, 10)})
    rows[3:5] = [dict(rows[0], alpha=0.4)] * 2  # two of the three 40 % boards time out too
    rows += _cells(3, {0.0: ("SAT", 5.0, 2), 0.2: ("SAT", 3.0, 2), 0.4: ("SAT", 9.0, 1)})
    summary = gridstudy.summarise(pd.DataFrame(rows), T)
    peaks = gridstudy.peaks(summary, "s").loc["course"]
    assert summary.set_index(["order", "alpha"]).loc[(6, 0.4), "censored"]
    assert peaks.loc[6, "alphas"] == (0.0,) and peaks.loc[6, "timeouts"] == 3
    assert peaks.loc[3, "alphas"] == (0.0, 0.2) and peaks.loc[3, "by"] == "conflicts"
    assert "N = 3: 0 % and 20 % tie (median 2 conflicts each)" in (
        gridstudy.peak_sentences(summary, "s", T)[0])


def test_conflict_growth_with_time_outs_is_a_lower_bound(known_table):
    summary = gridstudy.summarise(known_table, T)
    conflicts = {f.encoding: f for f in gridstudy.fit_growth(summary, "s", "median_conflicts", T)}
    # the course encoding timed out at N = 4 only, above the centre of the fit
    assert conflicts["course"].censored and conflicts["course"].lower_bound
    assert conflicts["course"].affected == (4,)
    assert not conflicts["optimised"].censored
    text = gridstudy.growth_sentences([conflicts["course"], conflicts["optimised"]], "s")
    assert text[0].endswith("(a lower bound: at N = 4 some runs timed out, and a time-out's "
                            "conflicts stop counting at T).")
    assert "lower bound" not in text[1]
    timing = {f.encoding: f for f in gridstudy.fit_growth(summary, "s", "median_ms", T)}
    assert timing["course"].lower_bound and timing["course"].affected == (4,)
    # time-outs at the smallest order only: the slope may move either way
    early = known_table.copy()
    early.loc[(early["order"] == 2) & (early["encoding"] == "optimised"), "status"] = "TIMEOUT"
    low = gridstudy.fit_growth(gridstudy.summarise(early, T), "s", "median_conflicts", T)
    low = next(f for f in low if f.encoding == "optimised")
    assert low.censored and not low.lower_bound
    assert "not a bound either way" in gridstudy.growth_sentences([low], "s")[0]


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


def test_empty_boards_repeat_in_every_seed_and_the_page_says_so():
    spec = gridstudy.GridSpec(orders=(2, 3), alphas=(0.0, 0.5), boards=3)
    distinct = gridstudy.distinct_boards(spec)
    assert distinct["distinct"].to_dict() == {(2, 0.0): 1, (2, 0.5): 3, (3, 0.0): 1,
                                             (3, 0.5): 3}
    sentence = gridstudy.boards_sentence(distinct)
    assert sentence.startswith("The 3 seeds give 3 different boards in 2 of 4 cells; at 0 % "
                               "given (N = 2 and 3) they give 1 distinct board, since with no "
                               "givens every seed leaves the same empty board")
    assert gridstudy.boards_sentence(distinct.drop(index=[(2, 0.0), (3, 0.0)])) == (
        "In every cell the 3 seeds give 3 different boards.")
    one = gridstudy.distinct_boards(gridstudy.GridSpec(orders=(2,), alphas=(0.0,), boards=1))
    assert gridstudy.boards_sentence(one) == ""
    text = grid_sentence(spec, distinct)
    assert "3 boards per cell (generator seeds 7..9)" in text and sentence in text
    assert "1 board per cell (generator seed 7);" in grid_sentence(
        gridstudy.GridSpec(orders=(2,), alphas=(0.0,), boards=1))


def test_grid_table_shows_the_distinct_boards(known_table):
    summary = gridstudy.summarise(known_table, T)
    distinct = pd.DataFrame({"order": [2, 2], "alpha": [0.0, 0.5], "boards": [2, 2],
                             "distinct": [1, 2], "givens": [0, 8]}).set_index(["order", "alpha"])
    table = gridstudy.grid_table(summary, T, distinct)
    assert list(table.columns)[0] == "distinct boards"
    assert table.loc[(2, "0 %"), "distinct boards"] == 1
    assert pd.isna(table.loc[(3, "0 %"), "distinct boards"])


def test_large_orders_sentence_counts_the_course_clauses_like_the_size_table():
    text = studies.large_intro_sentence([7, 8, 9], [0.75, 0.7], [3, 4, 5, 6], "s")
    assert ("11,296,705 clauses at N = 7, 33,034,240 at N = 8 and 85,037,121 at N = 9 (about 85 "
            "million)") in text
    assert text.startswith("At N = 7, 8 and 9 (the grid stops at N = 6)")
    assert "one board per fill from 75 % given down (75 %, 70 %)" in text
    assert studies.large_intro_sentence([4], [0.75], [2, 3], "s").endswith(
        "One board per order, at 75 % given.")
    assert "million" not in studies.large_intro_sentence([4], [0.75], [2, 3], "s")


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
    assert gridstudy.growth_sentences([], "s") == [
        "The grid has fewer than three orders: no growth is fitted."]
    sentence = gridstudy.growth_sentences([fit], "s")[0]
    assert sentence.startswith("With the optimised encoding, the clauses grow like N^3.0 (95 % CI")


def test_closed_form_exponent_of_the_course_encoding():
    assert gridstudy.course_clauses(3) == 11745
    text = gridstudy.closed_form_sentence([3, 4, 5, 6], [])
    assert "gives an exponent of 8.1" in text


def test_formatting_never_prints_long_zeros():
    assert gridstudy.percent(0.0) == "0 %" and gridstudy.percent(0.4) == "40 %"
    assert gridstudy.percent(0.35) == "35 %"
    assert gridstudy.milliseconds(0.0) == "0" and gridstudy.milliseconds(0.123) == "0.12"
    assert gridstudy.milliseconds(5000.0, 5000.0) == ">= 5,000"
    assert heuristics.p_text(0.0000001234) == "1.2e-07" and heuristics.p_text(0.04) == "0.040"
    assert heuristics.ratio_text(1.0017) == "1.002" and heuristics.ratio_text(1.0) == "1.00"
    assert heuristics.ratio_text(10.094) == "10.09"


def test_plots_show_zero_counts_and_fits(known_table):
    summary = gridstudy.summarise(known_table, T)
    figure = studies.plot_grid_cells(summary, "s", T, "median_conflicts")
    assert figure.axes[0].get_yscale() == "symlog"
    drawn = [y for line in figure.axes[1].lines for y in line.get_ydata()]
    assert 0 in drawn  # the optimised encoding's zero conflicts stay on the plot
    fits = gridstudy.fit_growth(summary, "s", "clauses", T)
    growth = studies.plot_grid_growth(summary, fits, "s")
    assert any("fit N^" in text.get_text() for text in growth.axes[0].get_legend().get_texts())
    matplotlib.pyplot.close("all")


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
    assert studies.large_sentences(large, "s", T) == [
        "N = 3: down to 70 % given, s decided the board within T (9 clauses, 2 ms); at 50 % it "
        "timed out."
    ]


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
    sentences = heuristics.hypothesis_sentences(list(by_rival.values()))
    assert sentences[0].startswith("Against dlis: MOMS made fewer decisions on 20 of 20 puzzles, "
                                   "more on 0, as many on 0;")
    assert "the interval excludes 1; time-outs: MOMS 0, dlis 1." in sentences[0]
    assert sentences[2].startswith("The hypothesis does not hold at the 0.05 level")
    assert sentences[2].endswith("fewer decisions than dp.")
    assert len(sentences) == 3  # dp's ratio interval includes 1: no "leaning" sentence
    assert heuristics.grade_sentences(results) == [
        "g: median decisions moms 10.5, dlis 45, dp 10.5."]


def test_hypothesis_holds_when_both_rivals_need_more():
    moms = list(range(1, 16))
    results = _results({"moms": moms, "dlis": [m + 5 for m in moms], "dp": [2 * m for m in moms]})
    comparisons = heuristics.compare(results)
    assert heuristics.hypothesis_sentences(comparisons)[-1] == (
        "The hypothesis holds at the 0.05 level (Holm-adjusted): MOMS needs fewer decisions "
        "than dlis and than dp on these puzzles."
    )
    statistic, p, solvers, puzzles = heuristics.friedman(results)
    assert (solvers, puzzles) == (3, 15) and p < 0.001
    assert heuristics.friedman_sentence(statistic, p, solvers, puzzles).endswith(
        "the solvers do differ in decisions beyond chance.")


def test_experiment_runs_every_solver_on_the_same_puzzles(tmp_path):
    spec = heuristics.ExperimentSpec(
        grades=(heuristics.Grade("easy", 0.6, False, 2), heuristics.Grade("unique", 0.4, True, 1)),
        time_limit_ms=20_000,
    )
    results = heuristics.run_experiment(spec, cache_dir=str(tmp_path))
    assert len(results) == 3 * len(heuristics.SOLVERS)
    assert set(results["status"]) == {"SAT"} and results["valid"].all()
    assert results.groupby("solver")["puzzle"].apply(tuple).nunique() == 1
    again = heuristics.run_experiment(spec, cache_dir=str(tmp_path))
    assert (again["computed_at"] != "").all()
    assert again["decisions"].tolist() == results["decisions"].tolist()
    table = heuristics.grade_table(results)
    assert list(table.index) == ["easy", "unique"]
    figure = plot_pairs(results)
    assert len(figure.axes) == 2
    matplotlib.pyplot.close("all")


# ---------------------------------------------------------------------------------------
# the notebooks, re-executed on tiny parameters: their prose must come from their data


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
    expected = gridstudy.peak_sentences(summary, "cdcl", 5000.0)
    expected += gridstudy.savings_sentences(summary, "cdcl")
    expected.append(gridstudy.usability_sentence(summary, "course", "cdcl", 5000.0))
    expected.append(gridstudy.cell_sentence(summary, 3, 0.5, 5000.0))
    fits = gridstudy.fit_growth(summary, "cdcl", "clauses", 5000.0)
    expected += gridstudy.growth_sentences(fits, "cdcl")
    for sentence in expected:
        assert sentence in prose
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
    results = heuristics.run_experiment(spec, cache_dir=str(cache))
    assert (results["computed_at"] != "").all()
    for sentence in heuristics.hypothesis_sentences(heuristics.compare(results)):
        assert sentence in prose
    for sentence in heuristics.grade_sentences(results):
        assert sentence in prose
    assert heuristics.friedman_sentence(*heuristics.friedman(results)) in prose
    assert prose.index("Friedman") < prose.index("The hypothesis")


def test_focus_tables_name_the_cell_the_parameters_chose():
    # The page's heading used to say "N = 6, 40 % given" whatever focus_order and focus_alpha were.
    rows = pd.DataFrame({"order": [4, 4], "alpha": [0.2, 0.2], "seed": [7, 8], "givens": [51, 51],
                         "encoding": ["course", "course"], "solver": ["cdcl", "cdcl"],
                         "status": ["SAT", "TIMEOUT"], "solve_ms": [12.0, 5000.0]})
    shown = str(studies.focus_tables(rows, 4, 0.2))
    assert "N = 4, 20 % given: the status of every run" in shown
    assert "N = 4, 20 % given: solve time (ms)" in shown and "TIMEOUT" in shown
    assert "The grid has no cell N = 6, 40 % given" in str(studies.focus_tables(rows, 6, 0.4))
