"""Boards as HTML: an input beside its solution, every solved instance, every unsolved one."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import pandas as pd

from sudosat.errors import InstanceError
from sudosat.report.formats import and_join, plural
from sudosat.report.tables import HTML
from sudosat.run.results import Verdict
from sudosat.sudoku.board import Board
from sudosat.sudoku.board_view import EMPTY, board_table


def board_pair_html(
    puzzle: Board, solution: Board | None, caption: str = "",
    others: Sequence[tuple[str, Board]] = (), label: str = "solution (givens in bold)",
) -> str:
    """The input board and its solution (labelled `label`; None: the input alone) side by side
    as matrices, givens in bold, under `caption` (plain text; escaped).

    `others` are further (label, solution) pairs of the same puzzle, each shown after the
    first with the cells where it differs from it marked (class ``differs``).
    """
    right = solution.to_html(puzzle=puzzle) if solution is not None else "<p><i>no solution</i></p>"
    boards = [_labelled(f"input ({puzzle.num_givens} givens)", puzzle.to_html()),
              _labelled(label, right)]
    boards += [_labelled(name, differences_html(other, solution, puzzle))
               for name, other in others]
    # a row of its own in print: three boards, or boards too large for two pairs a row
    return _block(caption, boards, wide=bool(others) or puzzle.order > SIDE_BY_SIDE_ORDER)


def _labelled(label: str, board: str) -> str:
    return f'<div><div class="sudosat-label">{html.escape(label)}</div>{board}</div>'


def _block(caption: str, boards: Sequence[str], wide: bool) -> str:
    """One instance's boards under its caption (plain text; escaped)."""
    return (
        f'<div class="sudosat-pair{" sudosat-wide" if wide else ""}" '
        'style="margin:0.8em 0 1.4em 0">'
        f'<div style="font-weight:bold;margin-bottom:0.3em">{html.escape(caption)}</div>'
        '<div class="sudosat-row" style="display:flex;flex-wrap:wrap;gap:2.5em;'
        f'align-items:flex-start">{"".join(boards)}</div></div>'
    )


def differences_html(board: Board, reference: Board | None, puzzle: Board) -> str:
    """`board` as a matrix, givens in bold and every cell that differs from `reference` marked."""
    texts = [str(value) if value else EMPTY for value in board.cells]
    marks = []
    for k, value in enumerate(board.cells):
        mark = ["given"] if puzzle.cells[k] and puzzle.cells[k] == value else []
        if reference is not None and reference.cells[k] != value:
            mark.append("differs")
        marks.append(mark)
    return board_table(board.order, texts, marks)


BOARDS_STYLE = (
    "<style>.sudosat-boards{display:flex;flex-wrap:wrap;column-gap:2.5em;"
    "align-items:flex-start}.sudosat-label{font-size:90%;color:#444}</style>"
)
"""Boards flow side by side while they fit (the print style sheet sets two pairs a row)."""


def solved_boards_html(
    results: pd.DataFrame, instances: Mapping[int, Board], solutions: Mapping[int, Board]
) -> HTML:
    """Every instance solved by some solver (`solutions`, by line): its input (`instances`, by
    line) and solution, with each solver's status and total time on both clocks (`results`).

    Where the solvers' solutions differ (a puzzle with several solutions), each
    different solution is shown, named by the solvers that gave it, with the
    cells where it differs from the first marked, and the caption says so.
    """
    parts = []
    by_solver = solved_boards(results)
    for line in sorted(solutions):
        puzzle = instances.get(line)
        if puzzle is None:
            continue
        rows = results[results["line"] == line]
        times = ", ".join(f"{r.solver} {r.status} in {r.total_wall_ms:.1f} ms wall-clock, "
                          f"{r.total_cpu_ms:.1f} ms CPU" for r in rows.itertuples())
        caption = f"Line {line}: order {puzzle.order}, {puzzle.num_givens} givens. {times}"
        found = by_solver.get(line, {})
        distinct = list(dict.fromkeys(found.values()))
        if len(distinct) < 2:
            parts.append(board_pair_html(puzzle, solutions[line], caption))
            continue
        parts.append(_differing_html(puzzle, found, distinct, caption))
    if not parts:
        return HTML("<p>No instance was solved.</p>")
    return HTML(BOARDS_STYLE + '<div class="sudosat-boards">' + "".join(parts) + "</div>")


SIDE_BY_SIDE_ORDER = 3
"""Up to this order, differing solutions are shown whole, side by side (three boards fit a
printed row); above it, the first solution is shown with the cells where the other differs
marked, and the caption gives the other's symbols there."""

LISTED_CELLS = 12
"""At most this many differing cells are listed in a caption (all are marked)."""


def _differing_html(
    puzzle: Board, found: Mapping[str, Board], distinct: Sequence[Board], caption: str
) -> str:
    """An instance whose solvers gave different solutions: each shown, or the differences
    marked cell by cell (see :data:`SIDE_BY_SIDE_ORDER`)."""
    named = [(and_join([s for s, b in found.items() if b == board]), board) for board in distinct]
    (first_name, first), (second_name, second) = named[0], named[1]
    where = [k for k, (a, b) in enumerate(zip(first.cells, second.cells, strict=True)) if a != b]
    more = f"; {len(named) - 2} more solutions differ again" if len(named) > 2 else ""
    caption += (f". The solutions differ: {first_name}'s and {second_name}'s in "
                f"{plural(len(where), 'cell')}, marked{more}.")
    if puzzle.order <= SIDE_BY_SIDE_ORDER:
        return board_pair_html(
            puzzle, first, caption,
            others=[(f"{name}'s solution (differences marked)", board)
                    for name, board in named[1:]],
            label=f"{first_name}'s solution (givens in bold)")
    size = puzzle.size
    listed = ", ".join(f"row {k // size + 1} column {k % size + 1}: {second.cells[k]} "
                       f"(not {first.cells[k]})" for k in where[:LISTED_CELLS])
    rest = f", and {len(where) - LISTED_CELLS} more" if len(where) > LISTED_CELLS else ""
    caption += f" {second_name}'s symbols in the marked cells: {listed}{rest}."
    return _block(caption, [
        _labelled(f"input ({puzzle.num_givens} givens)", puzzle.to_html()),
        _labelled(f"{first_name}'s solution (where {second_name}'s differs: marked)",
                  differences_html(first, second, puzzle)),
    ], wide=True)


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


def solved_boards(results: pd.DataFrame) -> dict[int, dict[str, Board]]:
    """Each solver's solved board, by line then solver, in the table's row order: the valid
    SAT rows whose output line parses."""
    solved: dict[int, dict[str, Board]] = {}
    if "output" not in results.columns:
        return solved
    for row in results[(results["status"] == Verdict.SAT) & results["valid"]].itertuples():
        try:
            board = Board.parse(str(row.output))
        except InstanceError:
            continue
        solved.setdefault(int(row.line), {}).setdefault(str(row.solver), board)
    return solved


def solutions_from_results(results: pd.DataFrame) -> dict[int, Board]:
    """The solved board of every line some solver solved (first valid SAT row wins)."""
    return {line: next(iter(found.values())) for line, found in solved_boards(results).items()}


def board_html(board: Board, caption: str = "") -> HTML:
    """One board as a matrix, givens in bold, with a caption (plain text; escaped) above it."""
    return HTML(
        '<div class="sudosat-pair" style="margin:0.8em 0 1.4em 0">'
        f'<div style="font-weight:bold;margin-bottom:0.3em">{html.escape(caption)}</div>'
        f"{board.to_html()}</div>"
    )
