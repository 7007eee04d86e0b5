"""Boards as HTML: an input beside its solution, every solved instance, every unsolved one."""

from __future__ import annotations

import html
from collections.abc import Mapping

import pandas as pd

from sudosat.errors import InstanceError
from sudosat.report.tables import HTML
from sudosat.run.results import Verdict
from sudosat.sudoku.board import Board


def board_pair_html(puzzle: Board, solution: Board | None, caption: str = "") -> str:
    """The input board and its solution side by side as matrices, givens in bold.

    Parameters
    ----------
    puzzle : Board
    solution : Board or None
        None shows the input alone (an instance without a solution).
    caption : str
        A line above the pair (plain text; escaped).
    """
    right = solution.to_html(puzzle=puzzle) if solution is not None else "<p><i>no solution</i></p>"
    return (
        '<div class="sudosat-pair" style="margin:0.8em 0 1.4em 0">'
        f'<div style="font-weight:bold;margin-bottom:0.3em">{html.escape(caption)}</div>'
        '<div style="display:flex;flex-wrap:wrap;gap:2.5em;align-items:flex-start">'
        f'<div><div style="font-size:90%;color:#444">input ({puzzle.num_givens} givens)</div>'
        f"{puzzle.to_html()}</div>"
        f'<div><div style="font-size:90%;color:#444">solution (givens in bold)</div>{right}</div>'
        "</div></div>"
    )


def solved_boards_html(
    results: pd.DataFrame, instances: Mapping[int, Board], solutions: Mapping[int, Board]
) -> HTML:
    """Every instance solved by some solver: its input and solution, with each solver's total
    time on both clocks.

    Parameters
    ----------
    results : DataFrame
        The results table (for the times and statuses shown in each caption).
    instances : mapping line -> Board
        The input boards (:func:`read_instances`).
    solutions : mapping line -> Board
        The solved boards (:func:`read_solutions` merged over the solvers).
    """
    parts = []
    for line in sorted(solutions):
        puzzle = instances.get(line)
        if puzzle is None:
            continue
        rows = results[results["line"] == line]
        times = ", ".join(
            f"{r.solver} {r.status} in {r.total_wall_ms:.1f} ms wall-clock, "
            f"{r.total_cpu_ms:.1f} ms CPU"
            for r in rows.itertuples()
        )
        caption = f"Line {line}: order {puzzle.order}, {puzzle.num_givens} givens. {times}"
        parts.append(board_pair_html(puzzle, solutions[line], caption))
    if not parts:
        parts.append("<p>No instance was solved.</p>")
    return HTML("".join(parts))


def unsolved_html(
    results: pd.DataFrame, instances: Mapping[int, Board], solutions: Mapping[int, Board]
) -> HTML:
    """The instances no solver solved, with what each solver answered (UNSAT, time-out ...).

    When an input's givens clash, the caption names every clash, read from the
    board (:meth:`~sudosat.sudoku.board.Board.clashes`); an UNSAT row's own error
    text, which names the first clash only, is then left out.
    """
    parts = []
    for line in sorted(set(results["line"].dropna().astype(int)) - set(solutions)):
        rows = results[results["line"] == line]
        puzzle = instances.get(line)
        found = puzzle.clashes() if puzzle is not None else []
        answers = "; ".join(
            f"{r.solver}: {r.status}"
            + (f" ({r.error})" if r.error and not (found and r.status == Verdict.UNSAT) else "")
            for r in rows.itertuples()
        )
        if puzzle is None:
            parts.append(f"<p><b>Line {line}</b>: could not be read. {html.escape(answers)}</p>")
            continue
        note = f" The givens clash: {'; '.join(found)}." if found else ""
        parts.append(board_pair_html(puzzle, None, f"Line {line}: {answers}.{note}"))
    return HTML("".join(parts) or "<p>Every instance was solved.</p>")


def solutions_from_results(results: pd.DataFrame) -> dict[int, Board]:
    """The solved board of every line some solver solved (first valid SAT row wins)."""
    solved: dict[int, Board] = {}
    if "output" not in results.columns:
        return solved
    for row in results[(results["status"] == Verdict.SAT) & results["valid"]].itertuples():
        line = int(row.line)
        if line not in solved:
            try:
                solved[line] = Board.parse(str(row.output))
            except InstanceError:
                continue
    return solved


def board_html(board: Board, caption: str = "") -> HTML:
    """One board as a matrix, givens in bold, with a caption (plain text; escaped) above it."""
    return HTML(
        '<div class="sudosat-pair" style="margin:0.8em 0 1.4em 0">'
        f'<div style="font-weight:bold;margin-bottom:0.3em">{html.escape(caption)}</div>'
        f"{board.to_html()}</div>"
    )
