"""The ipywidgets explorer, driven without a front end: set values, read the outputs."""

from __future__ import annotations

import pytest

from sudosat import widgets

SMALL = "2 1000002000300004"


@pytest.fixture
def explorer() -> widgets.Explorer:
    return widgets.Explorer(puzzles={"small one": SMALL}, time_limit_ms=10_000, order=2)


def test_starts_with_a_puzzle_of_the_chosen_order_solved(explorer):
    assert explorer.outcome.board.order == 2
    assert explorer.outcome.status == "SAT"
    assert "small one" in [label for label, _ in explorer.puzzle.options]
    assert "sudosat-board" in widgets.output_html(explorer.board)


def test_picking_a_puzzle_fills_the_text_and_updates(explorer):
    explorer.puzzle.value = SMALL
    assert explorer.text.value == SMALL
    counts = widgets.output_html(explorer.counts)
    assert "givens</td><td style='text-align:right'>4<" in counts
    assert explorer.outcome.family_counts["validity"] == 288


def test_changing_the_encoding_changes_the_counts(explorer):
    explorer.text.value = SMALL
    course_clauses = explorer.outcome.num_clauses
    explorer.encoding.value = "optimised"
    assert "Encoding optimised" in widgets.output_html(explorer.counts)
    assert explorer.outcome.num_clauses < course_clauses
    assert (
        explorer.outcome.solution.to_line() == "2 1243342121344312"
        or explorer.outcome.status == "SAT"
    )


def test_changing_the_solver_shows_its_statistics(explorer):
    explorer.solver.value = "dpll"
    stats = widgets.output_html(explorer.stats)
    assert "dpll: SAT" in stats and "decisions" in stats


def test_changing_the_order_offers_that_order(explorer):
    explorer.order.value = 3
    assert explorer.outcome.board.order == 3
    labels = [label for label, _ in explorer.puzzle.options]
    assert labels[0] == "course example"
    assert explorer.outcome.solution is not None and explorer.outcome.solution.is_complete()


def test_pasting_a_bad_line_shows_the_reason_not_a_traceback(explorer):
    explorer.text.value = "2 12x"
    stats = widgets.output_html(explorer.stats)
    assert "Error:" in stats and "explorer" in stats
    assert widgets.output_html(explorer.board) == ""


def test_clashing_givens_show_unsat_and_no_solution(explorer):
    explorer.text.value = "2 1100000000000000"
    assert explorer.outcome.status == "UNSAT"
    assert "no solution (UNSAT)" in widgets.output_html(explorer.board)


def test_snapshot_renders_static_html_for_each_setting(explorer):
    html = widgets.snapshot(explorer, [{"text": SMALL}, {"encoding": "minimal", "solver": "dpll"}])
    assert html.count("<b>Puzzle</b>") == 2
    assert "Encoding minimal" in html and "dpll: SAT" in html
    assert html.count('<table class="sudosat-board') == 4


def test_the_widget_holds_every_control_and_output(explorer):
    box = explorer.widget
    children = []
    stack = [box]
    while stack:
        node = stack.pop()
        children.append(node)
        stack.extend(getattr(node, "children", ()))
    for part in (
        explorer.order,
        explorer.puzzle,
        explorer.text,
        explorer.encoding,
        explorer.solver,
        explorer.counts,
        explorer.board,
        explorer.stats,
    ):
        assert part in children
