"""Sudoku instances end to end: one board, one line, and the files a batch writes.

One instance
    :func:`solve_instance` runs parse → encode → solve → decode → check
    (:func:`sudosat.run.runner.run_instance`) under one time limit T and returns
    an :class:`~sudosat.run.runner.InstanceOutcome`: a row of the
    results table, the solved board, and the line the output file gets.
    T bounds the whole pipeline, the same for every solver: one
    :class:`~sudosat.sat.solvers.budget.Deadline` whose clock starts before the
    memory guard and the encoding; the solver runs under that same deadline,
    and when the encoding alone uses up T the answer is TIMEOUT.

A file
    :func:`sudosat.run.batch.run_batch` answers every line of an instance file with every
    solver asked for: one output file per solver, with exactly one line per
    input line in order (``N T`` solved, ``N UNSAT``, ``N TIMEOUT``, ``N UNKNOWN``
    or ``ERROR <reason>``), written atomically at the end; a results table (CSV or
    JSONL) appended and flushed row by row, so an interrupted run loses nothing
    finished and ``resume=True`` completes it without redoing those rows.
    Lines run in this process (``jobs=1``), in local worker processes
    (``jobs=N``), or on a Dask cluster (``executor="dask"``): the answers are
    the same everywhere, only the timings differ.

The results table
    One :class:`sudosat.run.results.Row` per (line, solver), the columns of
    :data:`sudosat.run.results.COLUMNS`: the instance, the verdict, stage times
    and counters, the output line (what ``resume`` needs to rebuild the output
    file), then the fingerprints ``resume`` checks.

Large sweeps on a cluster
    Start a Dask scheduler and workers on the machines (``dask scheduler`` on
    one, ``dask worker tcp://HOST:8786 --nthreads 1`` on each core's worth of
    the others; every worker needs ``pip install 'sudosat[cluster]'``, the same
    version), then, from any machine that reaches the scheduler::

        sudosat solve puzzles.txt -o out.txt --solver cdcl --solver dpll \\
            --solver pysat:minisat22 -T 10000 \\
            --executor dask --scheduler tcp://HOST:8786 --results sweep.csv

    49,000 puzzles × 3 solvers are 147,000 tasks; at most a few per worker
    thread are in flight at a time, so the scheduler is never flooded. Rows
    reach ``sweep.csv`` as they finish; if the client or the cluster goes down,
    rerun the same command with ``--resume``: the finished rows are kept, the
    rest are solved, and the three output files are written when every line has
    its answer.

Examples
--------
>>> from sudosat.sudoku.board import Board
>>> outcome = solve_instance(Board.parse("1 0"), solver="cdcl")
>>> outcome.output_line, str(outcome.row["status"]), outcome.row["valid"]
('1 1', 'SAT', True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sudosat.errors import (
    InstanceError,
    OutputError,
    SudosatError,
)
from sudosat.outputs import (
    names_a_file,
)
from sudosat.run.results import (
    one_line,
)
from sudosat.run.resume import line_hash
from sudosat.run.runner import (
    InstanceOutcome,
    blank_row,
    failed_outcome,
    run_instance,
    timed_out_outcome,
)
from sudosat.sat.solvers.budget import Deadline, OutOfTime
from sudosat.sudoku.board import Board

__all__ = [
    "InstanceOutcome",
    "line_hash",
    "output_paths",
    "parse_line",
    "results_path",
    "safe_name",
    "solve_instance",
    "solve_line",
]

Task = tuple[int, str, str]
"""One unit of batch work: (line number, line text, solver)."""


# ---------------------------------------------------------------------------------------
# one instance


def solve_instance(
    board: Board,
    solver: str = "cdcl",
    encoding: str = "course",
    time_limit_ms: float | None = None,
    *,
    deadline: Deadline | None = None,
    line: int | None = None,
    max_bytes: int | None = None,
    **options: Any,
) -> InstanceOutcome:
    """Encode, solve, decode and check one board, T bounding the whole pipeline.

    :func:`sudosat.run.runner.run_instance` with ``limit_covers="pipeline"``: T
    (`deadline`, or `time_limit_ms` of wall clock from now, made into one
    there) counts from before the memory guard and the encoding, the solver
    runs under the same deadline, and when the encoding alone uses up T the
    answer is TIMEOUT. `max_bytes` is the memory guard's limit; `options` go to the solver
    (``seed``, ``zchaff``, ``max_conflicts`` ...), but ``incremental=True``,
    which solves with the rules loaded once (kept in ``rules=``, a
    :class:`~sudosat.sudoku.incremental.LoadedRules`, or the process's default)
    and the givens as assumptions. Never raises for one instance: whatever
    fails is an ERROR row saying why.
    """
    incremental = bool(options.pop("incremental", False))
    return run_instance(  # `options` may carry the run's `rules` cache too
        board,
        solver,
        encoding,
        time_limit_ms,
        deadline=deadline,
        limit_covers="pipeline",
        max_bytes=max_bytes,
        incremental=incremental,
        line=line,
        **options,
    )


def solve_line(
    text: str,
    line: int | None = None,
    solver: str = "cdcl",
    encoding: str = "course",
    time_limit_ms: float | None = None,
    *,
    deadline: Deadline | None = None,
    source: str | None = None,
    **options: Any,
) -> InstanceOutcome:
    """Read one instance line and solve it (see :func:`solve_instance`).

    A line that cannot be read (blank, malformed, an order beyond the format)
    becomes an ERROR outcome naming the reason; nothing is raised. T counts
    from before the line is read: a line too long to read within it is TIMEOUT.

    Examples
    --------
    >>> solve_line("3 12", 7).output_line
    'ERROR order 3 needs 81 symbols, got 2'
    """
    if deadline is None and time_limit_ms is not None:  # one deadline, from before the reading
        deadline, time_limit_ms = Deadline(time_limit_ms), None
    try:
        board = parse_line(text, source=source, line=line,
                           check=None if deadline is None else deadline.check)
    except InstanceError as exc:
        return failed_outcome(blank_row(line, solver, encoding), exc.reason)
    except OutOfTime:  # only a numeric line is read in pieces: it starts with its order
        order = int(text.lstrip(" \t\r\n\ufeff").split(None, 1)[0])
        return timed_out_outcome(blank_row(line, solver, encoding), order,
                                 "the time limit ran out while reading the line")
    try:
        return solve_instance(board, solver, encoding, time_limit_ms, deadline=deadline,
                              line=line, **options)
    except Exception as exc:  # nothing one line does may stop the others
        row = blank_row(line, solver, encoding, board)
        return failed_outcome(row, f"crashed: {type(exc).__name__}: {exc}", None, board)


def parse_line(
    text: str,
    *,
    source: str | None = None,
    line: int | None = None,
    check: Callable[[], object] | None = None,
) -> Board:
    """:meth:`Board.parse`, with every failure an :class:`InstanceError` naming the line.

    `check` is called between pieces of a long line (:meth:`Board.parse`); what it
    raises (a deadline's :class:`~sudosat.sat.solvers.budget.OutOfTime`) goes through.

    The readers raise InstanceError for what they foresee; anything else they
    raise (Python's limit on the digits of an integer, say) is still one bad
    line, never a crash of the batch or the command.

    Examples
    --------
    >>> try:
    ...     parse_line("2 " + "9" * 5000 + " 0", line=2)
    ... except InstanceError as exc:
    ...     print(exc)
    line 2: order 2 needs 16 numbers, got 2
    """
    try:
        return Board.parse(text, source=source, line=line, check=check)
    except InstanceError:
        raise
    except (ValueError, OverflowError, MemoryError, RecursionError) as exc:
        huge = next((token for token in text.split() if len(token) > _MAX_TOKEN), None)
        if huge is not None:
            reason = f"the token {huge[:12]}... ({len(huge):,} characters) is not a Sudoku value"
        else:
            reason = one_line(f"cannot read the line: {type(exc).__name__}: {exc}")[:300]
        raise InstanceError(reason, file=source, line=line) from None


_MAX_TOKEN = 4300  # Python's default limit on the digits of int(str)


# ---------------------------------------------------------------------------------------
# file names


def safe_name(solver: str) -> str:
    """A file-name-safe form of a solver name: ``pysat:minisat22`` -> ``pysat-minisat22``.

    Examples
    --------
    >>> safe_name("exec:/usr/bin/minisat")
    'exec-usr-bin-minisat'
    """
    return re.sub(r"[^A-Za-z0-9_.+]+", "-", solver).strip("-.") or "solver"


def output_paths(
    instances: str | Path, output: str | Path | None, solvers: Sequence[str]
) -> dict[str, Path]:
    """Where each solver's output file goes.

    * ``output`` given and one solver: exactly ``output``;
    * ``output`` given and several solvers: ``<stem>.<solver><suffix>`` beside
      it (``out.txt`` -> ``out.cdcl.txt``, ``out.pysat-minisat22.txt``);
    * no ``output``: ``<instances stem>.<solver>.txt`` beside the instances;
    * ``output`` a device (``/dev/null``): every solver writes it, in place.

    Solver names are made file-safe with :func:`safe_name`.

    Examples
    --------
    >>> sorted(output_paths("in.txt", "out.txt", ["cdcl", "pysat:minisat22"]).values())
    [PosixPath('out.cdcl.txt'), PosixPath('out.pysat-minisat22.txt')]
    >>> output_paths("data/in.txt", None, ["zchaff"])["zchaff"]
    PosixPath('data/in.zchaff.txt')
    """
    if output is not None and (len(solvers) == 1 or not names_a_file(output)):
        paths = {solver: Path(output) for solver in solvers}
    elif output is not None:
        base, suffix = Path(output), Path(output).suffix or ".txt"
        paths = {s: base.with_name(f"{base.stem}.{safe_name(s)}{suffix}") for s in solvers}
    else:
        base = Path(instances)
        paths = {s: base.with_name(f"{base.stem}.{safe_name(s)}.txt") for s in solvers}
    if len(set(paths.values())) < len(paths) and names_a_file(output or instances):
        raise SudosatError(f"solver names {', '.join(solvers)} give the same output file name")
    return paths


def results_path(instances: str | Path, output: str | Path | None) -> Path:
    """The default results table: ``<output stem>.results.csv`` (else the instances' stem).

    When `output` is a device or under ``/dev`` (``-o /dev/null``), the name
    comes from the instances; when neither names a file (standard input),
    :class:`OutputError` asks for ``--results FILE``.

    Examples
    --------
    >>> results_path("in.txt", "solved/out.txt")
    PosixPath('solved/out.results.csv')
    """
    for base in (output, instances):
        if base is not None and names_a_file(base):
            return Path(base).with_name(f"{Path(base).stem}.results.csv")
    raise OutputError(
        "the results table cannot be named after a device or standard input: give "
        "--results FILE",
        file=str(output if output is not None else instances),
    )
