"""sudosat.report: the results table, the summaries, the plots and the board pictures."""

from __future__ import annotations

import inspect
import math
import os
import re
from pathlib import Path

import matplotlib
import nbformat
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudosat import report
from sudosat.errors import InstanceError
from sudosat.report import (
    comparison,
    formats,
    io,
    modes,
    plots,
    reduction,
    results_page,
    run,
    solvers_page,
)
from sudosat.sat.solvers import cdcl
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.sudoku.encoding import encode

matplotlib.use("Agg")

SOLUTION = "3 816435279427986135593217846974562381235198467168374592749821653651743928382659714"
EXAMPLE = COURSE_EXAMPLE


def _row(line, solver, status, total, order=3, output=""):
    return {
        "line": line,
        "order": order,
        "givens": 27,
        "solver": solver,
        "encoding": "course",
        "status": status,
        "valid": status == "SAT",
        "encode_wall_ms": total / 4,
        "solve_wall_ms": total / 2,
        "decode_wall_ms": total / 4,
        "total_wall_ms": total,
        "encode_cpu_ms": total / 8,
        "solve_cpu_ms": total / 4,
        "decode_cpu_ms": total / 8,
        "total_cpu_ms": total / 2,
        "variables": 729,
        "clauses": 11772,
        "decisions": 3,
        "conflicts": 1,
        "propagations": 900,
        "error": "",
        "output": output,
    }


@pytest.fixture
def results() -> pd.DataFrame:
    rows = [
        _row(1, "cdcl", "SAT", 40.0, output=SOLUTION),
        _row(1, "ref", "SAT", 20.0, output=SOLUTION),
        _row(2, "cdcl", "SAT", 80.0, output=SOLUTION),
        _row(2, "ref", "TIMEOUT", 1000.0),
        _row(3, "cdcl", "UNSAT", 10.0),
        _row(3, "ref", "UNSAT", 12.0),
        _row(4, "cdcl", "ERROR", math.nan),
        _row(4, "ref", "ERROR", math.nan),
    ]
    return io.normalise_results(pd.DataFrame(rows))


def test_load_results_reads_csv_and_fills_missing_columns(tmp_path, results):
    path = tmp_path / "results.csv"
    results.drop(columns=["propagations"]).to_csv(path, index=False)
    loaded = io.load_results(path)
    assert set(io.RESULT_COLUMNS) <= set(loaded.columns)
    assert loaded["valid"].dtype == bool
    assert loaded["propagations"].isna().all()
    assert list(loaded["status"]) == list(results["status"])


def test_load_results_names_the_file_when_unreadable(tmp_path):
    with pytest.raises(InstanceError, match="nothing.csv"):
        io.load_results(tmp_path / "nothing.csv")


def test_summary_counts_each_status_and_times_only_answers(results):
    summary = report.summary_table(results)
    assert list(summary.index) == ["cdcl", "ref"]
    cdcl, ref = summary.loc["cdcl"], summary.loc["ref"]
    assert (cdcl["solved"], cdcl["unsat"], cdcl["timeouts"], cdcl["errors"]) == (2, 1, 0, 1)
    assert (ref["solved"], ref["unsat"], ref["timeouts"], ref["errors"]) == (1, 1, 1, 1)
    assert cdcl["median wall ms"] == 40.0 and cdcl["max wall ms"] == 80.0
    assert cdcl["median CPU ms"] == 20.0
    assert ref["max wall ms"] == 20.0  # the time-out's 1000 ms is not an answer's time


def test_times_table_has_one_row_per_line_and_a_column_per_solver(results):
    table = results_page.times_table(results)
    assert list(table.index) == [1, 2, 3, 4]
    assert table.loc[2, "ref status"] == "TIMEOUT"
    assert table.loc[1, "cdcl wall ms"] == 40.0 and table.loc[1, "cdcl CPU ms"] == 20.0


@pytest.mark.parametrize("plot", ["per_instance", "scatter", "cactus", "stages"])
def test_plots_are_labelled_in_milliseconds_and_save_png_and_svg(tmp_path, results, plot):
    figure = {
        "per_instance": lambda: results_page.plot_per_instance(results, 1000),
        "scatter": lambda: results_page.plot_scatter(results, "cdcl", "ref", 1000),
        "cactus": lambda: results_page.plot_cactus(results, 1000),
        "stages": lambda: results_page.plot_time_split(results),
    }[plot]()
    ax = figure.axes[0]
    assert "ms" in ax.get_ylabel()
    assert ax.get_xlabel() and ax.get_title()
    paths = plots.save_figure(figure, f"t-{plot}", tmp_path)
    assert [p.suffix for p in paths] == [".png", ".svg"]
    assert all(p.stat().st_size > 1000 for p in paths)
    assert figure._repr_png_().startswith(b"\x89PNG")


def test_scatter_marks_the_diagonal_and_its_facts_count_wins(results):
    figure = results_page.plot_scatter(results, "cdcl", "ref")
    labels = [line.get_label() for line in figure.axes[0].get_lines()]
    assert "equal time" in labels
    facts = comparison.scatter_facts(results, "cdcl", "ref", "total_wall_ms")
    # line 1: cdcl 40 ms against ref 20 ms; line 3: 10 against 12; line 2: ref timed out
    assert [facts[k] for k in ("both", "own_faster", "reference_faster", "ties")] == [2, 1, 1, 0]
    assert facts["median_ratio"] == pytest.approx((40 / 20 + 10 / 12) / 2)
    empty = comparison.scatter_facts(results.iloc[:0], "cdcl", "ref", "total_wall_ms")
    assert empty["median_ratio"] is None


def test_solved_boards_show_input_and_solution_with_givens_marked(results):
    instances = {1: Board.parse(EXAMPLE), 2: Board.parse(EXAMPLE), 3: Board.parse(EXAMPLE)}
    solutions = report.solutions_from_results(results)
    assert sorted(solutions) == [1, 2]
    html = str(report.solved_boards_html(results, instances, solutions))
    assert html.count('<table class="sudosat-board') == 4  # two pairs
    # Each pair's solution marks the puzzle's 27 givens (whatever border classes a cell has
    # beside) and changes none of them.
    classes = [attr.split() for attr in re.findall(r'<td class="([^"]*)"', html)]
    assert sum("given" in names for names in classes) == 2 * 27
    assert not any("changed" in names for names in classes)
    assert "Line 2: order 3, 27 givens" in html and "ref TIMEOUT" in html


def test_unsolved_lists_unsat_with_the_clash():
    clash = Board.parse("2 1100000000000000")
    rows = pd.DataFrame([_row(5, "cdcl", "UNSAT", 3.0, order=2)])
    html = str(report.unsolved_html(io.normalise_results(rows), {5: clash}, {}))
    assert "cdcl: UNSAT" in html and "row 1 holds 1 twice" in html


@pytest.mark.parametrize("order", [1, 2, 3])
def test_built_family_counts_match_the_formulas(order):
    expected = reduction.formula_counts(order)
    for counts in (reduction.built_family_counts(order), reduction.classified_family_counts(order)):
        for family in ("completeness", "uniqueness", "validity"):
            assert counts[family] == expected[family]


def test_family_table_and_its_plot():
    table = reduction.family_table(range(1, 5), build_up_to=3)
    assert reduction.family_mismatches(table) == []
    assert table.loc[3, "validity (formula)"] == 8748
    assert pd.isna(table.loc[4, "validity (built)"])
    assert table.loc[3, "total (formula)"] == 11745
    assert (table["total (formula)"] == table["total (estimate)"]).all()
    figure = reduction.plot_family_counts(table)
    assert figure.axes[0].get_yscale() == "log"


def test_family_mismatches_reports_a_wrong_count():
    table = reduction.family_table(range(2, 3), build_up_to=2)
    table.loc[2, "validity (built)"] = 7
    assert reduction.family_mismatches(table) == ["order 2 validity: built 7, formula 288"]


def test_classify_clause_by_shape():
    assert reduction.classify_clause([5], 2) == "givens"
    assert reduction.classify_clause([1, 2, 3, 4], 2) == "completeness"
    assert reduction.classify_clause([-1, -2], 2) == "uniqueness"  # cell (0,0), symbols 1 and 2
    assert reduction.classify_clause([-1, -5], 2) == "validity"  # symbol 1 in cells (0,0), (0,1)
    assert reduction.classify_clause([-1, 2], 2) == "other"


def test_cnf_listing_shows_an_excerpt_per_family_and_counts_the_rest():
    board = Board.parse("2 1000002000300004")
    encoded = encode(board, "course")
    html = str(reduction.cnf_listing(encoded.cnf, 2, shown=3))
    assert f"p cnf 64 {encoded.num_clauses}" in html
    counts = encoded.family_counts
    shown = sum(min(3, n) for n in counts.values())
    assert html.count(" 0</td>") == shown  # no wall of numbers: 3 clauses a family
    for family, n in counts.items():
        if n > 3:
            assert f"… and {n - 3:,} more" in html, family
    assert "x(r1,c1,1)" in html and "x(r0" not in html and "c0," not in html


def test_table_has_no_index_column_no_na_and_one_header_row():
    frame = pd.DataFrame(
        {"a": [1, 2], "b": [1.25, math.nan], "c": pd.array([3, None], dtype="Int64")}
    )
    html = str(report.table(frame))
    assert "<th>a</th><th>b</th><th>c</th>" in html and html.count("<tr>") == 3
    assert "NA" not in html and "nan" not in html and html.count("–") == 2
    named = str(report.table(frame.set_index("a")))
    assert named.count("<th>") == 3  # the named index is an ordinary first column


def test_numbering_table_counts_rows_and_columns_from_one():
    numbering = reduction.numbering_table(3, limit=10)
    assert numbering["row r"].min() == 1 and numbering["column c"].min() == 1
    assert numbering.iloc[9]["name"] == "x(r1,c2,1)"


def test_in_process_solvers_split_solve_into_load_and_search(tmp_path):
    instances = tmp_path / "in.txt"
    instances.write_text(EXAMPLE + "\n")
    table = run.run_timed_experiment(
        instances, 10_000, ["cdcl", "pysat:minisat22"], "course", tmp_path / "out"
    )
    assert table["load_cpu_ms"].notna().all() and table["search_cpu_ms"].notna().all()
    assert ((table["load_cpu_ms"] + table["search_cpu_ms"]) <= table["solve_cpu_ms"] + 0.01).all()
    versus = comparison.comparison_facts(table, "cdcl", "pysat:minisat22")
    assert list(versus) == [(m.name, m.clock) for m in comparison.MEASURES]
    assert {f["lacking"] for f in versus.values()} == {()}  # every comparison made
    assert {f["both"] for f in versus.values()} == {1}
    manifest = io.read_manifest(tmp_path / "out" / "results.csv")
    assert manifest["jobs"] == 1 and manifest["machine"]["cores"] >= 1
    assert manifest["time_limit_ms"] == 10_000 and manifest["encoding"] == "course"
    assert manifest["notes"] == []


def test_timing_workers_leave_one_core_free(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert run.timing_workers() == 1 and run.timing_workers(4) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert run.timing_workers() == 7 and run.timing_workers(3) == 3
    assert run.timing_workers(0) == 1


def test_saved_figures_are_byte_identical_when_drawn_twice(tmp_path):
    """An unchanged figure must not change on a rebuild (no date, fixed SVG ids), so a rebuilt
    report leaves the committed figures alone."""
    table = reduction.family_table(range(1, 5), build_up_to=3)
    first = plots.save_figure(reduction.plot_family_counts(table), "f", tmp_path / "one")
    second = plots.save_figure(reduction.plot_family_counts(table), "f", tmp_path / "two")
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    svg = first[1].read_text()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg
    costs = pd.DataFrame(
        {"literals": [10, 100], "givens": [1, 2], "decoder CPU ms": [0.0, 0.5]},
        index=pd.Index([1, 2], name="order"),
    )
    drawn = solvers_page.plot_component_costs(costs)  # a 0 ms time is said, not drawn at the axis
    assert any("0 ms" in t.get_text() for t in drawn.axes[0].get_legend().get_texts())


def test_unit_propagation_decides_an_easy_board_but_not_an_empty_one():
    easy = Board.parse(SOLUTION[:-1] + "0")  # one empty cell
    assert reduction.decided_by_propagation(encode(easy).cnf)
    assert not reduction.decided_by_propagation(encode(Board.empty(2)).cnf)
    assert reduction.decided_by_propagation(encode(Board.parse("2 1100000000000000")).cnf)


def test_encodings_table_compares_sizes_and_propagation():
    boards = [Board.parse(EXAMPLE), Board.parse(SOLUTION[:-1] + "0")]
    table = reduction.encodings_table(boards, ["course", "optimised"])
    assert table.loc["course", "variables"] == 729
    assert table.loc["optimised", "clauses"] < table.loc["course", "clauses"]
    assert table.loc["course", "decided by propagation"] == 1 and table["boards"].eq(2).all()
    said = reduction.ratios_sentence(table, "course")
    share = table.loc["optimised", "clauses"] / table.loc["course", "clauses"]
    assert said.startswith(f"Against the course encoding, optimised has {share:.2f} times its "
                           "clauses")
    decided = table.loc["optimised", "decided by propagation"]
    assert f"optimised: {decided} of 2" in said
    assert reduction.ratios_sentence(table, "minimal") == ""
    clocks = reduction.build_clock_words(table)
    assert clocks.startswith("**Wall against CPU time.** The builds took ")
    assert ("the machine was quiet" in clocks) != ("the machine was busy" in clocks), clocks


def test_build_clock_words_tell_a_quiet_machine_a_busy_one_and_no_measure():
    from sudosat.report.reduction import BUILD_CPU, BUILD_WALL

    def said(wall: float, cpu: float) -> str:
        return reduction.build_clock_words(pd.DataFrame({BUILD_WALL: [wall], BUILD_CPU: [cpu]}))

    assert "1.00 times as long" in said(2.0, 2.0) and "the machine was quiet." in said(2.0, 2.0)
    assert "the machine was busy: other programs had the CPU." in said(4.0, 2.0)
    assert said(1.0, 0.0) == ""


def test_model_words_name_the_first_true_variables_and_count_the_rest():
    model = [1, -2, 6, 11, 16, 17]
    assert reduction.model_words("SAT", model, 2, shown=6) == (
        "SAT: 5 of 6 variables are true: x(r1,c1,1), x(r1,c2,2), x(r1,c3,3), x(r1,c4,4), "
        "x(r2,c1,1).")
    assert reduction.model_words("SAT", model, 2, shown=2).endswith(
        "x(r1,c1,1), x(r1,c2,2) and 3 more.")


def test_trace_records_decisions_and_conflicts():
    line = "3 000060500087000000000140000060000020001300000743200060000520780004009003000003005"
    cnf = encode(Board.parse(line)).cnf
    status, whole = solvers_page.trace_cdcl(cnf, order=3, limit=10_000)
    assert status == "SAT" and set(whole["event"]) == {"decide", "conflict"}
    status, events = solvers_page.trace_cdcl(cnf, order=3, limit=20)
    assert status == "SAT" and len(whole) > 20
    assert len(events) == 20  # the trace stops at its limit, the search does not
    assert events.equals(whole.head(20))
    assert events["meaning"].str.contains("jump back to level").any()


def test_solvers_page_shows_the_engines_own_propagate_and_analyze():
    html = str(solvers_page.engine_source())
    for method in ("propagate", "analyze"):
        source = inspect.getsource(getattr(cdcl.Engine, method))
        first = source.strip().splitlines()[0]
        assert f"Engine.{method}" in html
        assert html.count(first.replace("->", "-&gt;").replace('"', "&quot;")) == 1, first
    assert "<pre" in html and "def propagate(self" in html


def test_experiment_rechecks_every_sat_row_against_its_input(tmp_path, results):
    instances = tmp_path / "in.txt"
    instances.write_text(f"{EXAMPLE}\n{EXAMPLE}\n")
    assert run.invalid_sat_rows(results, instances) == []
    wrong = results.copy()
    wrong.loc[0, "output"] = SOLUTION[:-2] + "41"  # two cells swapped: a row repeats
    problems = run.invalid_sat_rows(wrong, instances)
    assert len(problems) == 1 and problems[0].startswith("line 1, cdcl:")


def test_component_costs_time_every_component():
    costs = solvers_page.component_costs((1, 2, 3))
    table = costs.table
    assert list(table.index) == [1, 2, 3]
    for name in ("encoder", "DIMACS writer", "parser", "solver", "decoder", "check"):
        assert (table[f"{name} CPU ms"] >= 0).all()
    assert solvers_page.plot_component_costs(table).axes[0].get_xscale() == "log"
    # the table's encoder time is a later board's: the first of an order builds the rules
    assert [order for order, _ in costs.first_encode] == [1, 2, 3]
    assert costs.first_encode_ms(3) > 2 * table.loc[3, "encoder CPU ms"]
    assert costs.clocks.calls >= 6 * 3 and costs.clocks.ratio is not None


def test_read_instances_and_solutions_keep_line_numbers(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text(f"{EXAMPLE}\n\nnot a board\n2 1000000000000000\n")
    boards = io.read_instances(path)
    assert sorted(boards) == [1, 4]
    out = tmp_path / "out.txt"
    out.write_text(f"{SOLUTION}\n3 UNSAT\nERROR bad\n3 TIMEOUT\n")
    assert sorted(io.read_solutions(out)) == [1]


def test_choose_solvers_replaces_a_missing_zchaff(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("ZCHAFF", raising=False)
    choice = run.choose_solvers("cdcl, zchaff")
    assert choice.solvers == ("cdcl", run.REFERENCE_FALLBACK)
    assert choice.stand_ins == (("zchaff", "pysat:minisat22"),) and choice.dropped == ()


def test_choose_solvers_drops_an_unknown_solver_with_a_note():
    choice = run.choose_solvers(["cdcl", "no-such"])
    assert choice.solvers == ("cdcl",) and choice.stand_ins == ()
    assert [name for name, _ in choice.dropped] == ["no-such"] and choice.dropped[0][1]


def test_own_and_reference():
    assert comparison.own_and_reference(["cdcl", "zchaff"]) == ("cdcl", "zchaff")
    assert comparison.own_and_reference(["dpll", "cdcl", "pysat:minisat22"]) == (
        "cdcl",
        "pysat:minisat22",
    )
    assert comparison.own_and_reference(["cdcl"]) == ("cdcl", None)


def test_spread_takes_first_and_last():
    assert reduction.spread(list(range(10)), 3) == [0, 4, 9]
    assert reduction.spread([1, 2], 5) == [1, 2]


def test_run_timed_experiment_writes_table_outputs_and_manifest(tmp_path):
    instances = tmp_path / "in.txt"
    instances.write_text("2 1000002000300004\n2 1100000000000000\n")
    table = run.run_timed_experiment(
        instances,
        5000,
        ["cdcl", "dpll"],
        "course",
        tmp_path / "out",
        notes=["a note"],
        progress=False,
    )
    # One row per line and solver, in line order then the solvers' order.
    assert list(zip(table["line"], table["solver"], table["status"], strict=True)) == [
        (1, "cdcl", "SAT"),
        (1, "dpll", "SAT"),
        (2, "cdcl", "UNSAT"),
        (2, "dpll", "UNSAT"),
    ]
    manifest = io.read_manifest(tmp_path / "out" / "results.csv")
    assert manifest["solvers"] == ["cdcl", "dpll"] and manifest["notes"] == ["a note"]
    assert (tmp_path / "out" / "solutions.cdcl.txt").read_text().splitlines()[1] == "2 UNSAT"
    assert sorted(report.solutions_from_results(table)) == [1]


def test_resolve_reads_project_paths_from_the_notebooks_folder(monkeypatch):
    root = io.project_root()
    if root is None:
        pytest.skip("not running from a source checkout")
    monkeypatch.chdir(root / "notebooks")
    assert io.resolve("pyproject.toml") == root / "pyproject.toml"
    assert io.resolve("/abs/path").is_absolute()


def test_the_two_modes_run_every_instance_and_their_facts_read_the_table(tmp_path):
    from sudosat.sudoku.board import COURSE_EXAMPLE

    instances = tmp_path / "in.txt"
    # Puzzles of one solution (or none): on a puzzle of many, each mode may find another one.
    instances.write_text(f"{COURSE_EXAMPLE}\n2 1030000200000320\n2 1100000000000000\n")
    runs = modes.mode_comparison(instances, 10_000, "optimised")
    assert len(runs) == 6 and set(runs["encoding"]) == {"course"}
    table = modes.mode_table(runs)
    assert list(table.index) == list(modes.MODES)
    assert table["instances"].tolist() == [3, 3] and table["decided"].tolist() == [3, 3]
    answers = runs.pivot(index="line", columns="mode", values="output")
    assert (answers[modes.MODES[0]] == answers[modes.MODES[1]]).all()
    assert answers.loc[3, modes.MODES[0]] == "2 UNSAT"
    facts = modes.mode_facts(runs)
    assert facts.encoding == "course" and facts.instances == facts.same_output == 3
    assert facts.no_answer == facts.several_solutions == facts.sat_and_unsat == 0
    fresh, loaded = table["median total CPU ms"]
    assert (facts.fresh_ms, facts.loaded_ms) == (fresh, loaded)
    assert (facts.fresh_wall_ms, facts.loaded_wall_ms) == tuple(table["median total wall ms"])
    assert facts.loaded_faster == (loaded > 0 and fresh >= loaded)
    assert facts.factor == pytest.approx(fresh / loaded if facts.loaded_faster else loaded / fresh)
    assert facts.clocks.calls == 6 and facts.clocks.ratio is not None


def test_the_modes_facts_say_why_lines_differ():
    """A line the modes print differently is counted under its reason, never hidden."""
    import pandas as pd

    rows = []
    for line, (first, second) in enumerate([
        (("SAT", "3 1"), ("SAT", "3 1")),
        (("SAT", "3 1"), ("TIMEOUT", "3 TIMEOUT")),
        (("SAT", "3 1"), ("SAT", "3 2")),
        (("SAT", "3 1"), ("SAT", "3 3")),
        (("SAT", "3 1"), ("UNSAT", "3 UNSAT")),
    ], start=1):
        for mode, (status, output) in zip(modes.MODES, (first, second), strict=True):
            rows.append({"line": line, "mode": mode, "encoding": "course", "status": status,
                         "output": output, **_mode_times(1.1)})
    facts = modes.mode_facts(pd.DataFrame(rows))
    assert (facts.instances, facts.same_output) == (5, 1)
    assert (facts.no_answer, facts.several_solutions, facts.sat_and_unsat) == (1, 2, 1)
    assert facts.loaded_faster and facts.factor == 1.0 and facts.even  # equal medians: as fast


def _mode_times(total_cpu: float, wall_over_cpu: float = 1.0) -> dict:
    return {"encode_cpu_ms": total_cpu / 10, "solve_cpu_ms": total_cpu / 2,
            "total_cpu_ms": total_cpu, "total_wall_ms": total_cpu * wall_over_cpu}


@pytest.mark.parametrize(("fresh", "loaded", "even", "faster"), [
    (10.0, 10.4, True, False),  # 1.04 times slower: "about as fast", never "1.0 times slower"
    (10.4, 10.0, True, True),
    (10.0, 12.0, False, False),
    (30.0, 10.0, False, True),
])
def test_mode_facts_call_near_equal_medians_even(fresh, loaded, even, faster):
    rows = [{"line": 1, "mode": mode, "encoding": "course", "status": "SAT", "output": "3 1",
             **_mode_times(ms, 2.0)} for mode, ms in zip(modes.MODES, (fresh, loaded), strict=True)]
    facts = modes.mode_facts(pd.DataFrame(rows))
    assert (facts.even, facts.loaded_faster) == (even, faster)
    assert facts.factor == pytest.approx(max(fresh, loaded) / min(fresh, loaded))
    assert facts.clocks.ratio == pytest.approx(2.0) and facts.clocks.busy


def test_a_manifest_without_a_machine_leaves_the_unknown_unsaid():
    machine, method = run.machine_and_method({"jobs": 2})
    assert machine == "**Machine.** an unknown processor, ? cores, , Python ?."
    assert "timed by 2 worker processes" in method


def test_the_package_exports_exactly_what_the_notebooks_call_through_it():
    """Pages import their own facts from their modules; the package exports what they share."""
    called: set[str] = set()
    for path in sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                called |= set(re.findall(r"(?<![\w.])report\.(\w+)", cell.source))
    assert called == set(report.__all__)


@given(st.sets(st.integers(1, 200), min_size=1))
def test_line_ranges_name_every_line_once(lines):
    """The words expand back to exactly the lines given (``lines 2–4 and 57``)."""
    words = formats.line_ranges(sorted(lines))
    assert words.startswith("line " if len(lines) == 1 else "lines ")
    named: set[int] = set()
    for span in re.split(r", | and ", words.split(" ", 1)[1]):
        first, _, last = span.partition("–")
        named |= set(range(int(first), int(last or first) + 1))
    assert named == lines


_MODE_ANSWER = st.sampled_from([("SAT", "3 1"), ("SAT", "3 2"), ("UNSAT", "3 UNSAT"),
                                ("TIMEOUT", "3 TIMEOUT"), ("ERROR", "ERROR x")])


@given(st.lists(st.tuples(_MODE_ANSWER, _MODE_ANSWER), min_size=1, max_size=12),
       st.lists(st.floats(0.1, 100.0), min_size=2, max_size=2))
def test_mode_facts_count_every_instance_under_exactly_one_reason(pairs, times):
    rows = [
        {"line": line, "mode": mode, "encoding": "course", "status": status, "output": output,
         **_mode_times(ms)}
        for line, answers in enumerate(pairs, 1)
        for mode, (status, output), ms in zip(modes.MODES, answers, times, strict=True)
    ]
    facts = modes.mode_facts(pd.DataFrame(rows))
    reasons = facts.no_answer + facts.several_solutions + facts.sat_and_unsat
    assert facts.instances == len(pairs) and facts.same_output + reasons == len(pairs)
    assert facts.factor >= 1.0 and facts.loaded_faster == (times[0] >= times[1])


def test_the_index_summarises_every_comparison_on_its_clock_after_saying_if_the_machine_was_busy():
    rows = []
    for line, (mine, theirs) in enumerate([(2.0, 0.2), (1.0, 0.1), (0.6, 0.3)], 1):
        rows.append({"line": line, "order": 3, "solver": "cdcl", "status": "SAT",
                     "search_cpu_ms": mine, "total_wall_ms": 9.0 + line, "total_cpu_ms": 4.0,
                     "overhead_wall_ms": 3.0, "overhead_cpu_ms": 1.0, "solve_wall_ms": 8.0,
                     "solve_cpu_ms": 2.0})
        rows.append({"line": line, "order": 3, "solver": "zchaff", "status": "SAT",
                     "search_cpu_ms": theirs, "total_wall_ms": 30.0, "total_cpu_ms": 9.0,
                     "overhead_cpu_ms": 6.0, "solve_wall_ms": 25.0, "solve_cpu_ms": 7.0})
    results = io.normalise_results(pd.DataFrame(rows))
    page = comparison.comparisons_html(results)
    cells = [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>",
                                                                              page)]
    cells = [row for row in cells if row]
    assert [row[:2] for row in cells] == [
        ["search", "CPU"], ["solver alone", "CPU"], ["around the solver", "CPU"],
        ["end to end", "wall"], ["end to end", "CPU"], ["overhead", "wall"], ["overhead", "CPU"]]
    search = comparison.scatter_facts(results, "cdcl", "zchaff", "search_cpu_ms")
    assert cells[0][2:6] == ["3", "0", "3", formats.ratio(search["median_ratio"])]
    for row in (1, 2, 5):  # no process CPU time of zChaff's; no wall-clock search
        assert "no such time for zchaff" in cells[row]
    assert page.index("the machine was busy".capitalize()) < page.index("<table")
    assert "experiment page" in page  # the ratios are given there, once
    assert "<i>End to end</i> is an instance from its line to its checked board" in page
