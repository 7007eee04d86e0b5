"""What ``--resume`` keeps of an earlier results table, and the fingerprints that decide it.

A row of the table is kept only when the run can tell it produced the row
itself for this very input and these parameters; everything else is solved
again. Three fingerprints, written in every row a run produces:

``line_hash``
    the input line the row answers;
``run_hash``
    what shapes the answer: solver, encoding, T, seed, memory limit, budgets;
``row_hash``
    the row's answer itself, bound to the two above: its line number, order,
    givens, solver, encoding, status, why the solver stopped, validity,
    formula size, error and output line. An edited status or output (an UNSAT
    written over a SAT, a changed board) no longer matches, so the row is
    solved again.

The fingerprints are SHA-256 digests, not signatures: they catch edits and
stale rows, not a forger who recomputes them. So a kept row's answer must also
hold up on its own, checked without trusting the table: a SAT board is checked
again against the puzzle, and an UNSAT is kept only when the puzzle's givens
clash (a row, column or box holding a symbol twice: a proof anyone can check);
any other UNSAT is solved again. TIMEOUT, UNKNOWN and ERROR rows claim no
answer and are kept when their hashes match.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sudosat.errors import InstanceError
from sudosat.run.results import STATUSES, Row, Verdict, format_output, parse_output
from sudosat.sat.solvers.budget import BUDGETS, Clock, Deadline
from sudosat.sudoku.board import Board, check_solution

Key = tuple[int, str]
"""A row's identity in a batch: (line number, solver)."""

BOUND_COLUMNS: tuple[str, ...] = (
    "line", "order", "givens", "solver", "encoding", "status", "valid", "variables", "clauses",
    "error", "output", "line_hash", "run_hash",
)
"""The columns ``row_hash`` binds: the row's answer and what it answers (not its timings);
``stop`` too when the row has one (a row of a table older than the column keeps its hash)."""


def line_hash(text: str) -> str:
    """A fingerprint of one input line (16 hex digits of its SHA-256)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def run_hash(solver: str, encoding: str, limit: Deadline | None,
             options: Mapping[str, Any], max_bytes: int | None) -> str:
    """A fingerprint of what shapes `solver`'s answers: encoding, T, seed, limits
    (and the work budgets when set, so the rows of runs without them keep theirs;
    T's clock when it is CPU time, so the wall-clock runs' rows keep theirs too)."""
    limit_ms = None if limit is None else limit.limit_ms
    parts = [solver, encoding, limit_ms, options.get("seed"), max_bytes]
    budgets = [(name, options[name]) for name in BUDGETS if options.get(name) is not None]
    if budgets:
        parts.append(budgets)
    if limit is not None and limit.clock is Clock.CPU:
        parts.append(str(limit.clock))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def row_hash(row: Row) -> str:
    """A fingerprint of `row`'s :data:`BOUND_COLUMNS`, the same for the row read back.

    The values are taken as :meth:`Row.to_dict` gives them, so a row written to
    CSV or JSON and read back (:meth:`Row.from_dict`) has the same fingerprint.
    """
    values = row.to_dict()
    parts = [values[column] for column in BOUND_COLUMNS]
    if values["stop"] is not None:
        parts.append(values["stop"])
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def stamped(row: Row, text: str, run: str) -> Row:
    """`row` with the fingerprints of its line `text`, its run and its answer."""
    row = row.replace(line_hash=line_hash(text), run_hash=run)
    return row.replace(row_hash=row_hash(row))


def kept_rows(
    found: list[dict[str, Any]],
    lines: list[str],
    run_hashes: Mapping[str, str],
    read_board: Callable[[str], Board],
) -> list[Row]:
    """Rows of an earlier run that answer this run: nothing else is trusted.

    `read_board` reads an input line as the run reads it, raising
    :class:`InstanceError` for a line that is no board (the batch's
    ``parse_line``), so a line reads the same way here as when it was solved.

    A row is kept when its line exists and its ``line_hash`` matches that line
    (a table of another input keeps nothing), and, for a solver of this run
    (a key of `run_hashes`, with the run's fingerprint for it), its
    ``run_hash`` matches this run's, its ``row_hash`` matches its own answer,
    and that answer holds up (:func:`answer_holds`): a SAT board is checked
    again against the puzzle, an UNSAT needs givens that clash, a TIMEOUT or
    UNKNOWN line must name the puzzle's order. Rows of solvers not in this run
    stay in the table when their line matches (no output of this run shows
    them). Everything else is solved again.
    """
    kept: dict[Key, Row] = {}
    puzzles: dict[int, Board | None] = {}
    for raw in found:
        number = _line_number(raw.get("line"), len(lines))
        solver = raw.get("solver")
        if number is None or not isinstance(solver, str):
            continue
        if raw.get("line_hash") != line_hash(lines[number - 1]):
            continue
        row = Row.from_dict(raw)  # never raises: a value of the wrong kind reads as None
        if solver in run_hashes:
            if raw.get("run_hash") != run_hashes[solver] or raw.get("row_hash") != row_hash(row):
                continue
            if number not in puzzles:
                puzzles[number] = _puzzle_or_none(lines[number - 1], read_board)
            if not answer_holds(raw, puzzles[number], read_board):
                continue
        kept[(number, solver)] = row.replace(line=number, solver=solver)
    return list(kept.values())


def _line_number(value: Any, num_lines: int) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if 1 <= number <= num_lines else None


def _puzzle_or_none(text: str, read_board: Callable[[str], Board]) -> Board | None:
    try:
        return read_board(text)
    except InstanceError:  # a line that cannot be read has no answer to keep but ERROR
        return None


def answer_holds(
    row: Mapping[str, Any], puzzle: Board | None, read_board: Callable[[str], Board]
) -> bool:
    """Whether a row's status and output line hold up against its puzzle, the table untrusted.

    A SAT row's board must solve the puzzle; an UNSAT row's puzzle must have
    givens that clash (an UNSAT that needs a search to show is not taken on
    the table's word: its hashes may have been recomputed); a TIMEOUT or
    UNKNOWN row must name the puzzle's order; an ERROR row must be an ERROR
    line.

    Parameters
    ----------
    row : mapping
        The row as read from the table (``status`` and ``output`` are looked at).
    puzzle : Board or None
        The row's input line read as a board; None for a line that is no board
        (only an ERROR row holds then).
    read_board : callable
        Reads an output line as a board, raising :class:`InstanceError` for one that is not.

    Returns
    -------
    bool

    Examples
    --------
    >>> clash = Board.parse("2 1100000000000000")
    >>> answer_holds({"status": "UNSAT", "output": "2 UNSAT"}, clash, Board.parse)
    True
    >>> answer_holds({"status": "UNSAT", "output": "2 UNSAT"}, Board.empty(2), Board.parse)
    False
    """
    status, output = row.get("status"), row.get("output")
    if status not in STATUSES or not isinstance(output, str) or "\n" in output:
        return False
    said = parse_output(output)
    if said.verdict != status:
        return False
    if status == Verdict.ERROR:
        return output.startswith("ERROR ")
    if puzzle is None:
        return False
    if status == Verdict.UNSAT and puzzle.is_consistent():
        return False  # not shown by the givens alone: solved again, never believed
    if status != Verdict.SAT:
        return output == format_output(status, order=puzzle.order)
    try:
        solved = read_board(output)
    except InstanceError:  # a tampered output that reads as no board is only not kept
        return False
    return check_solution(puzzle, solved) is None and solved.to_line() == output


def solvers_order(solvers: Sequence[str]):
    """A sort key of rows: by line, then solvers in the run's order, others after."""
    rank = {solver: k for k, solver in enumerate(solvers)}
    return lambda row: (int(row["line"]), rank.get(row["solver"], len(rank)), str(row["solver"]))
