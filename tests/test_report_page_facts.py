"""The results page's facts are what its data shows: clashes named from the board, conflict
figures as the difficulty table gives them, the time split the stage plot draws, and an
instance file that ``data/make_data.py --check`` still rebuilds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

from sudosat import report
from sudosat.report import io, plots, results_page, run
from sudosat.report.results_page import (
    difficulty_words,
    instance_parts,
    plot_time_split,
    stage_words,
)
from sudosat.sudoku.board import COURSE_EXAMPLE, Board

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "data" / "instances.txt"


def _row(line, solver, status, conflicts, order=3, error="", split=True, total=None):
    total = 10.0 * order if total is None else total
    return {
        "line": line,
        "order": order,
        "givens": 27,
        "solver": solver,
        "encoding": "course",
        "status": status,
        "valid": status == "SAT",
        "encode_cpu_ms": 0.01 * total,
        "solve_cpu_ms": 0.8 * total,
        "decode_cpu_ms": 0.01 * total,
        "total_cpu_ms": total,
        "total_wall_ms": 1.2 * total,
        "load_cpu_ms": 0.2 * total if split else None,
        "search_cpu_ms": 0.5 * total if split else None,
        "conflicts": conflicts,
        "error": error,
        "output": "",
    }


def _file_lines() -> dict[int, Board]:
    return {k: Board.parse(text) for k, text in enumerate(INSTANCES.read_text().split("\n"), 1)
            if text.strip()}


# -- the instances no solver solved -------------------------------------------------------


def test_clashes_name_every_repeated_cell_of_the_file_s_unsat_line():
    line = INSTANCES.read_text().splitlines()[56]
    assert Board.parse(line).clashes() == [
        "row 1 holds 5 three times, in cells (1, 1), (1, 4) and (1, 6)",
        "box 2 holds 5 twice, in cells (1, 4) and (1, 6)",
    ]


def test_clashes_agree_with_a_plain_count_of_every_unit():
    board = Board.parse("2 1101000000000001")  # 1 thrice in row 1, twice in column 4 and box 1
    found = board.clashes()
    assert found == [
        "row 1 holds 1 three times, in cells (1, 1), (1, 2) and (1, 4)",
        "column 4 holds 1 twice, in cells (1, 4) and (4, 4)",
        "box 1 holds 1 twice, in cells (1, 1) and (1, 2)",
    ]
    assert Board.parse(COURSE_EXAMPLE).clashes() == []


def test_unsolved_caption_names_every_clash_instead_of_the_runner_s_first_one():
    board = Board.parse(INSTANCES.read_text().splitlines()[56])
    runner_note = f"the givens clash: {board.first_conflict()}"
    rows = pd.DataFrame([_row(57, s, "UNSAT", 0, error=runner_note) for s in ("cdcl", "ref")])
    html = str(report.unsolved_html(io.normalise_results(rows), {57: board}, {}))
    assert "cdcl: UNSAT; ref: UNSAT." in html and runner_note not in html
    assert html.count("row 1 holds 5 three times, in cells (1, 1), (1, 4) and (1, 6)") == 1
    assert "box 2 holds 5 twice, in cells (1, 4) and (1, 6)" in html
    assert "row 1 holds 5 three times, in cells (1, 1), (1, 4) and (1, 6)" in html


def test_unsolved_caption_keeps_the_error_of_a_time_out():
    rows = pd.DataFrame([_row(2, "cdcl", "TIMEOUT", 5, error="the time limit ran out")])
    html = str(report.unsolved_html(io.normalise_results(rows), {2: Board.empty(3)}, {}))
    assert "cdcl: TIMEOUT (the time limit ran out)." in html and "clash" not in html


# -- how hard the instances were ----------------------------------------------------------


@pytest.fixture
def graded_run() -> tuple[pd.DataFrame, dict[int, Board]]:
    """The report's own file with made-up counts: an even count of order-3 answers."""
    boards = _file_lines()
    rows = [_row(1, "cdcl", "SAT", 40)]
    rows += [_row(k, "cdcl", "SAT", [3, 12, 31, 40][k % 4]) for k in range(2, 50)]
    rows += [_row(57, "cdcl", "UNSAT", 1)]
    return io.normalise_results(pd.DataFrame(rows)), boards


GRADED = "The order-3 puzzles on lines 2–49 of `data/instances.txt` are minimal puzzles"


def test_difficulty_words_quote_the_difficulty_table_and_scope_the_file_s_lines(graded_run):
    results, boards = graded_run
    said = difficulty_words(results, "data/instances.txt", boards)
    row = results_page.difficulty_table(results).iloc[0]
    assert row["median conflicts"] == 21.5  # a half: the words keep it
    assert said.startswith(GRADED)
    assert "Line 57 holds a board whose givens clash, there for the UNSAT path" in said
    assert ("In this run cdcl needed from 1 to 40 conflicts on the 50 instances of order 3 it "
            "decided (median 21.5); 25 of the 50 needed more than 30.") in said
    assert ("On the graded puzzles alone (lines 2–49) it needed from 3 to 40 conflicts on "
            "the 48 graded puzzles it decided (median 21.5); 24 of the 48") in said
    assert said.endswith("this run's counts do not keep that order.")  # 12, 31, 40, 3, ...


def test_difficulty_words_say_the_same_figures_once_and_a_kept_order():
    boards = _file_lines()
    boards[58] = boards[57]  # a second clashing board
    rows = [_row(k, "cdcl", "SAT", k) for k in range(2, 6)]
    said = difficulty_words(io.normalise_results(pd.DataFrame(rows)), "data/instances.txt",
                            boards)
    assert "Lines 57–58 hold boards whose givens clash" in said
    assert "The 4 graded puzzles alone (lines 2–49) give the same figures." in said
    assert said.endswith("this run's counts keep that order.")


def test_difficulty_words_without_the_file_or_order_3_say_nothing_about_it():
    rows = [_row(2, "cdcl", "SAT", 4, order=2), _row(3, "cdcl", "UNSAT", 0, order=2)]
    results = io.normalise_results(pd.DataFrame(rows))
    none = "No order-3 instance was decided by cdcl in this run."
    assert difficulty_words(results, "/tmp/tiny.txt", {2: Board.empty(2)}) == none
    one = io.normalise_results(pd.DataFrame([_row(1, "cdcl", "SAT", 19)]))
    just = "In this run cdcl needed 19 conflicts on the one instance of order 3 it decided."
    assert difficulty_words(one, "/tmp/tiny.txt", {1: Board.parse(COURSE_EXAMPLE)}) == just
    # another file's order-3 boards are not the graded puzzles of the report's own file
    assert difficulty_words(one, "/tmp/tiny.txt", {1: Board.empty(3)}) == just
    # the own file named but no boards read: nothing is said about its lines
    assert difficulty_words(one, "data/instances.txt", {}) == just
    # the own file, but none of its graded lines decided: the order-3 figures alone
    assert difficulty_words(one, "data/instances.txt", _file_lines()).endswith(just)


def test_difficulty_words_match_the_rendered_run_when_there_is_one():
    """On the last full run (reports/data), if present: the median as the table shows it."""
    results_csv = ROOT / "reports" / "data" / "results.csv"
    if not results_csv.is_file():
        pytest.skip("no full run in reports/data")
    table, manifest, boards = run.read_run(results_csv)
    row = results_page.difficulty_table(table)
    row = row[(row["solver"] == "cdcl") & (row["order"] == 3)].iloc[0]
    said = difficulty_words(table, manifest.get("instances"), boards)
    assert f"(median {row['median conflicts']:,.1f})" in said


# -- where the time goes ------------------------------------------------------------------


def test_time_split_plot_draws_the_parts_the_facts_name_with_one_panel_per_order(tmp_path):
    rows = [_row(1, "cdcl", "SAT", 3, order=3), _row(2, "cdcl", "SAT", 9, order=5)]
    rows += [_row(1, "ext", "SAT", 3, order=3, split=False)]
    results = io.normalise_results(pd.DataFrame(rows))
    figure = plot_time_split(results)
    assert [ax.get_title() for ax in figure.axes if ax.get_visible()] == ["order 3", "order 5"]
    assert "ms" in figure.axes[0].get_ylabel() and all(ax.get_xlabel() for ax in figure.axes)
    labels = {text.get_text() for text in figure.legends[0].get_texts()}
    assert {"load into the solver", "search", "solve (not split)"} <= labels
    assert stage_words(results) == (
        "The largest part of the CPU time, per solver and order: cdcl, order 3 (line 1): search "
        "(50% of its total of 30.0 ms); ext, order 3 (line 1): solving (98% of its total of "
        "30.0 ms); cdcl, order 5 (line 2): search (50% of its total of 50.0 ms).")
    paths = plots.save_figure(figure, "report-stages", tmp_path)
    assert all(p.stat().st_size > 1000 for p in paths)


def _bar_tops(ax) -> list[float]:
    """The top of each stacked bar of `ax`, left to right."""
    tops: dict[float, float] = {}
    for patch in ax.patches:
        x = round(patch.get_x() + patch.get_width() / 2, 6)
        tops[x] = max(tops.get(x, 0.0), patch.get_y() + patch.get_height())
    return [tops[x] for x in sorted(tops)]


@pytest.mark.parametrize("count", [1, 4, 7])
def test_stacked_parts_add_up_to_the_total_they_are_labelled_with(count):
    """Each bar is one real instance: its parts add up to its total, which the label above it
    says; medians of each part taken apart would stop short of it or overshoot it."""
    rows = []
    for k in range(count):  # parts that grow unevenly: medians apart do not add up
        row = _row(k + 1, "cdcl", "SAT", 3, total=10.0 + 7 * k)
        row["search_cpu_ms"] = row["total_cpu_ms"] * [0.7, 0.1, 0.6, 0.2, 0.75, 0.05, 0.3][k]
        rows.append(row)
    rows.append(_row(1, "ext", "UNSAT", 0, split=False, total=12.0))
    results = io.normalise_results(pd.DataFrame(rows))
    middle = results[results["solver"] == "cdcl"].sort_values("total_cpu_ms")
    median_row = middle.iloc[(count - 1) // 2]
    if count > 1:  # the data has teeth: medians of the parts taken apart miss the median total
        search, rest = middle["search_cpu_ms"], middle["total_cpu_ms"] - middle["search_cpu_ms"]
        assert search.median() + rest.median() != pytest.approx(middle["total_cpu_ms"].median())
    ax = plot_time_split(results).axes[0]
    tops = _bar_tops(ax)
    assert tops == pytest.approx([median_row["total_cpu_ms"], 12.0])
    written = [float(t.get_text().removesuffix(" ms").replace(",", "")) for t in ax.texts]
    assert written == pytest.approx(tops, rel=0.01)
    assert sum(instance_parts(median_row).values()) == pytest.approx(median_row["total_cpu_ms"])
    cdcl = stage_words(results).split("; ")[0]  # the median instance's line and total
    assert f"cdcl, order 3 (line {median_row['line']}): " in cdcl
    assert cdcl.endswith(f"of its total of {median_row['total_cpu_ms']:.1f} ms)")


def test_time_split_plot_with_nothing_decided_is_one_empty_panel():
    results = io.normalise_results(pd.DataFrame([_row(1, "cdcl", "TIMEOUT", 0)]))
    assert len(plot_time_split(results).axes) == 1
    assert stage_words(results) == "No instance was decided: there is no time to break down."


def test_time_split_panels_wrap_onto_rows_within_the_page_width():
    rows = [_row(1, "cdcl", "SAT", 3, order=n) for n in (1, 2, 3, 4, 5)]
    figure = plot_time_split(io.normalise_results(pd.DataFrame(rows)))
    shown = [ax for ax in figure.axes if ax.get_visible()]
    assert len(shown) == 5 and len({ax.get_position().y0 for ax in shown}) == 2
    assert figure.get_figwidth() <= plots.PAGE_WIDTH_IN
    assert plots.smallest_printed_text_pt(figure) >= plots.SMALLEST_PRINTED_PT


# -- the instance file --------------------------------------------------------------------


def test_make_data_check_confirms_the_instance_file_and_writes_nothing(tmp_path):
    before = INSTANCES.read_bytes()
    done = subprocess.run(
        [sys.executable, str(ROOT / "data" / "make_data.py"), "--check"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "up to date"
    assert INSTANCES.read_bytes() == before and list(tmp_path.iterdir()) == []
