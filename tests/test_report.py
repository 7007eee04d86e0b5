"""sudosat.report: the results table, the summaries, the plots and the board pictures."""

from __future__ import annotations

import inspect
import math
import os
import re

import matplotlib
import pandas as pd
import pytest

from sudosat import report
from sudosat.errors import InstanceError
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
        "encode_ms": total / 4,
        "solve_ms": total / 2,
        "decode_ms": total / 4,
        "total_ms": total,
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
    return report.normalise_results(pd.DataFrame(rows))


def test_load_results_reads_csv_and_fills_missing_columns(tmp_path, results):
    path = tmp_path / "results.csv"
    results.drop(columns=["propagations"]).to_csv(path, index=False)
    loaded = report.load_results(path)
    assert set(report.RESULT_COLUMNS) <= set(loaded.columns)
    assert loaded["valid"].dtype == bool
    assert loaded["propagations"].isna().all()
    assert list(loaded["status"]) == list(results["status"])


def test_load_results_names_the_file_when_unreadable(tmp_path):
    with pytest.raises(InstanceError, match="nothing.csv"):
        report.load_results(tmp_path / "nothing.csv")


def test_summary_counts_each_status_and_times_only_answers(results):
    summary = report.summary_table(results)
    assert list(summary.index) == ["cdcl", "ref"]
    cdcl, ref = summary.loc["cdcl"], summary.loc["ref"]
    assert (cdcl["solved"], cdcl["unsat"], cdcl["timeouts"], cdcl["errors"]) == (2, 1, 0, 1)
    assert (ref["solved"], ref["unsat"], ref["timeouts"], ref["errors"]) == (1, 1, 1, 1)
    assert cdcl["median ms"] == 40.0 and cdcl["max ms"] == 80.0
    assert ref["max ms"] == 20.0  # the time-out's 1000 ms is not an answer's time


def test_times_table_has_one_row_per_line_and_a_column_per_solver(results):
    table = report.times_table(results)
    assert list(table.index) == [1, 2, 3, 4]
    assert table.loc[2, "ref status"] == "TIMEOUT"
    assert table.loc[1, "cdcl ms"] == 40.0
    html = report.style_times(table).to_html()
    assert "TIMEOUT" in html and "background: #fed" in html


@pytest.mark.parametrize("plot", ["per_instance", "scatter", "cactus", "stages"])
def test_plots_are_labelled_in_milliseconds_and_save_png_and_svg(tmp_path, results, plot):
    figure = {
        "per_instance": lambda: report.plot_per_instance(results, 1000),
        "scatter": lambda: report.plot_scatter(results, "cdcl", "ref", 1000),
        "cactus": lambda: report.plot_cactus(results, 1000),
        "stages": lambda: report.plot_time_split(results),
    }[plot]()
    ax = figure.axes[0]
    assert "ms" in ax.get_ylabel()
    assert ax.get_xlabel() and ax.get_title()
    paths = report.save_figure(figure, f"t-{plot}", tmp_path)
    assert [p.suffix for p in paths] == [".png", ".svg"]
    assert all(p.stat().st_size > 1000 for p in paths)
    assert figure._repr_png_().startswith(b"\x89PNG")


def test_scatter_marks_the_diagonal_and_comment_counts_wins(results):
    figure = report.plot_scatter(results, "cdcl", "ref")
    labels = [line.get_label() for line in figure.axes[0].get_lines()]
    assert "equal time" in labels
    comment = report.scatter_comment(results, "cdcl", "ref")
    assert "decided 2 instances" in comment and "cdcl was faster on 1" in comment


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
    html = str(report.unsolved_html(report.normalise_results(rows), {5: clash}, {}))
    assert "cdcl: UNSAT" in html and "row 1 holds 1 twice" in html


@pytest.mark.parametrize("order", [1, 2, 3])
def test_built_family_counts_match_the_formulas(order):
    expected = report.formula_counts(order)
    for counts in (report.built_family_counts(order), report.classified_family_counts(order)):
        for family in ("completeness", "uniqueness", "validity"):
            assert counts[family] == expected[family]


def test_family_table_and_its_plot():
    table = report.family_table(range(1, 5), build_up_to=3)
    assert report.family_mismatches(table) == []
    assert table.loc[3, "validity (formula)"] == 8748
    assert pd.isna(table.loc[4, "validity (built)"])
    assert table.loc[3, "total (formula)"] == 11745
    assert (table["total (formula)"] == table["total (estimate)"]).all()
    figure = report.plot_family_counts(table)
    assert figure.axes[0].get_yscale() == "log"


def test_family_mismatches_reports_a_wrong_count():
    table = report.family_table(range(2, 3), build_up_to=2)
    table.loc[2, "validity (built)"] = 7
    assert report.family_mismatches(table) == ["order 2 validity: built 7, formula 288"]


def test_classify_clause_by_shape():
    assert report.classify_clause([5], 2) == "givens"
    assert report.classify_clause([1, 2, 3, 4], 2) == "completeness"
    assert report.classify_clause([-1, -2], 2) == "uniqueness"  # cell (0,0), symbols 1 and 2
    assert report.classify_clause([-1, -5], 2) == "validity"  # symbol 1 in cells (0,0), (0,1)
    assert report.classify_clause([-1, 2], 2) == "other"


def test_cnf_listing_shows_an_excerpt_per_family_and_counts_the_rest():
    board = Board.parse("2 1000002000300004")
    encoded = encode(board, "course")
    html = str(report.cnf_listing(encoded.cnf, 2, shown=3))
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
    numbering = report.numbering_table(3, limit=10)
    assert numbering["row r"].min() == 1 and numbering["column c"].min() == 1
    assert numbering.iloc[9]["name"] == "x(r1,c2,1)"


def test_in_process_solvers_split_solve_into_load_and_search(tmp_path):
    instances = tmp_path / "in.txt"
    instances.write_text(EXAMPLE + "\n")
    table = report.run_experiment(
        instances, 10_000, ["cdcl", "pysat:minisat22"], "course", tmp_path / "out"
    )
    assert table["load_ms"].notna().all() and table["search_ms"].notna().all()
    assert ((table["load_ms"] + table["search_ms"]) <= table["solve_ms"] + 0.01).all()
    text = report.comparison_text(table, "cdcl", "pysat:minisat22")
    assert "Total time" in text and "search time" in text and "Loading" in text
    manifest = report.read_manifest(tmp_path / "out" / "results.csv")
    assert manifest["jobs"] == 1 and manifest["machine"]["cores"] >= 1
    assert "cores" in report.method_text(manifest) and "interleaved" in report.method_text(manifest)


def test_timing_workers_leave_one_core_free(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert report.timing_workers() == 1 and report.timing_workers(4) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert report.timing_workers() == 7 and report.timing_workers(3) == 3
    assert report.timing_workers(0) == 1


def test_saved_figures_are_byte_identical_when_drawn_twice(tmp_path):
    """Issue 10: an unchanged figure must not change on a rebuild (no date, fixed SVG ids)."""
    table = report.family_table(range(1, 5), build_up_to=3)
    first = report.save_figure(report.plot_family_counts(table), "f", tmp_path / "one")
    second = report.save_figure(report.plot_family_counts(table), "f", tmp_path / "two")
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    svg = first[1].read_text()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg
    costs = pd.DataFrame(
        {"literals": [10, 100], "givens": [1, 2], "decoder ms": [0.0, 0.5]},
        index=pd.Index([1, 2], name="order"),
    )
    drawn = report.plot_component_costs(costs)  # a 0 ms time is said, not drawn at the axis
    assert any("0 ms" in t.get_text() for t in drawn.axes[0].texts)


def test_unit_propagation_decides_an_easy_board_but_not_an_empty_one():
    easy = Board.parse(SOLUTION[:-1] + "0")  # one empty cell
    assert report.decided_by_propagation(encode(easy).cnf)
    assert not report.decided_by_propagation(encode(Board.empty(2)).cnf)
    assert report.decided_by_propagation(encode(Board.parse("2 1100000000000000")).cnf)


def test_encodings_table_compares_sizes_and_propagation():
    boards = [Board.parse(EXAMPLE), Board.parse(SOLUTION[:-1] + "0")]
    table = report.encodings_table(boards, ["course", "optimised"])
    assert table.loc["course", "variables"] == 729
    assert table.loc["optimised", "clauses"] < table.loc["course", "clauses"]
    assert table.loc["course", "decided by propagation"].startswith("1/2")


def test_trace_records_decisions_and_conflicts():
    line = "3 000060500087000000000140000060000020001300000743200060000520780004009003000003005"
    status, events = report.trace_cdcl(encode(Board.parse(line)).cnf, order=3, limit=40)
    assert status == "SAT"
    assert set(events["event"]) == {"decide", "conflict"}
    assert len(events) == 40
    assert events["meaning"].str.contains("jump back to level").any()


def test_solvers_page_shows_the_engines_own_propagate_and_analyze():
    html = str(report.engine_source())
    for method in ("propagate", "analyze"):
        source = inspect.getsource(getattr(cdcl.Engine, method))
        first = source.strip().splitlines()[0]
        assert f"Engine.{method}" in html
        assert html.count(first.replace("->", "-&gt;").replace('"', "&quot;")) == 1, first
    assert "<pre" in html and "def propagate(self" in html


def test_experiment_rechecks_every_sat_row_against_its_input(tmp_path, results):
    instances = tmp_path / "in.txt"
    instances.write_text(f"{EXAMPLE}\n{EXAMPLE}\n")
    assert report.invalid_sat_rows(results, instances) == []
    wrong = results.copy()
    wrong.loc[0, "output"] = SOLUTION[:-2] + "41"  # two cells swapped: a row repeats
    problems = report.invalid_sat_rows(wrong, instances)
    assert len(problems) == 1 and problems[0].startswith("line 1, cdcl:")


def test_component_costs_time_every_component():
    costs = report.component_costs((1, 2))
    assert list(costs.index) == [1, 2]
    for name in ("encoder", "DIMACS writer", "parser", "solver", "decoder", "check"):
        assert (costs[f"{name} ms"] >= 0).all()
    assert report.plot_component_costs(costs).axes[0].get_xscale() == "log"


def test_read_instances_and_solutions_keep_line_numbers(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text(f"{EXAMPLE}\n\nnot a board\n2 1000000000000000\n")
    boards = report.read_instances(path)
    assert sorted(boards) == [1, 4]
    out = tmp_path / "out.txt"
    out.write_text(f"{SOLUTION}\n3 UNSAT\nERROR bad\n3 TIMEOUT\n")
    assert sorted(report.read_solutions(out)) == [1]


def test_choose_solvers_replaces_a_missing_zchaff(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("ZCHAFF", raising=False)
    chosen, notes = report.choose_solvers("cdcl, zchaff")
    assert chosen == ["cdcl", report.REFERENCE_FALLBACK]
    assert len(notes) == 1 and "zChaff" in notes[0] and "pysat:minisat22" in notes[0]


def test_choose_solvers_drops_an_unknown_solver_with_a_note():
    chosen, notes = report.choose_solvers(["cdcl", "no-such"])
    assert chosen == ["cdcl"] and "no-such" in notes[0]


def test_own_and_reference():
    assert report.own_and_reference(["cdcl", "zchaff"]) == ("cdcl", "zchaff")
    assert report.own_and_reference(["dpll", "cdcl", "pysat:minisat22"]) == (
        "cdcl",
        "pysat:minisat22",
    )
    assert report.own_and_reference(["cdcl"]) == ("cdcl", None)


def test_spread_takes_first_and_last():
    assert report.spread(list(range(10)), 3) == [0, 4, 9]
    assert report.spread([1, 2], 5) == [1, 2]


def test_run_experiment_writes_table_outputs_and_manifest(tmp_path):
    instances = tmp_path / "in.txt"
    instances.write_text("2 1000002000300004\n2 1100000000000000\n")
    table = report.run_experiment(
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
    manifest = report.read_manifest(tmp_path / "out" / "results.csv")
    assert manifest["solvers"] == ["cdcl", "dpll"] and manifest["notes"] == ["a note"]
    assert (tmp_path / "out" / "solutions.cdcl.txt").read_text().splitlines()[1] == "2 UNSAT"
    assert sorted(report.solutions_from_results(table)) == [1]


def test_resolve_reads_project_paths_from_the_notebooks_folder(monkeypatch):
    root = report.project_root()
    if root is None:
        pytest.skip("not running from a source checkout")
    monkeypatch.chdir(root / "notebooks")
    assert report.resolve("pyproject.toml") == root / "pyproject.toml"
    assert report.resolve("/abs/path").is_absolute()


def test_the_two_modes_run_every_instance_and_the_sentence_reads_the_table(tmp_path):
    from sudosat.sudoku.board import COURSE_EXAMPLE

    instances = tmp_path / "in.txt"
    # Puzzles of one solution (or none): on a puzzle of many, each mode may find another one.
    instances.write_text(f"{COURSE_EXAMPLE}\n2 1030000200000320\n2 1100000000000000\n")
    modes = report.mode_comparison(instances, 10_000, "optimised")
    assert len(modes) == 6 and set(modes["encoding"]) == {"course"}
    table = report.mode_table(modes)
    assert list(table.index) == list(report.MODES)
    assert table["instances"].tolist() == [3, 3] and table["decided"].tolist() == [3, 3]
    answers = modes.pivot(index="line", columns="mode", values="output")
    assert (answers[report.MODES[0]] == answers[report.MODES[1]]).all()
    assert answers.loc[3, report.MODES[0]] == "2 UNSAT"
    text = report.modes_text(modes)
    assert "same output line on every instance (the course encoding)" in text
    fresh, loaded = table["median total ms"]
    assert f"{fresh:.1f} ms with a fresh CNF" in text
    assert f"{loaded:.1f} ms with the rules loaded once" in text


def test_the_modes_sentence_says_why_lines_differ():
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
        for mode, (status, output) in zip(report.MODES, (first, second), strict=True):
            rows.append({"line": line, "mode": mode, "encoding": "course", "status": status,
                         "output": output, "encode_ms": 0.1, "solve_ms": 1.0, "total_ms": 1.1})
    text = report.modes_text(pd.DataFrame(rows))
    assert text.startswith("The modes gave the same output line on 1 of 5 instances (")
    assert "1 instance with no answer in one mode (a time-out or an error)" in text
    assert "2 instances with several solutions, each mode printing a checked one" in text
    assert "1 instance with SAT in one mode and UNSAT in the other" in text
