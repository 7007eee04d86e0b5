"""The scaling study: solve generated boards over a grid of order N and fill fraction alpha.

For every cell (N, alpha) of the grid, a few boards are generated
(:func:`sudosat.run.generate.generate_many`, feasible by construction), encoded
with each encoding and solved by each solver under the same time limit. One
row per (board, encoding, solver) records the encoding's size and the time of
every step, so the notebook (``notebooks/scaling.ipynb``) and the benchmark
(``benchmarks/scaling.py``) can ask what grows with N, what with alpha, and
what the encoding itself costs.

**Limits.** The report's studies bound each solver call by a counted work
budget (``max_conflicts``, ``max_propagations``: :data:`BUDGETS`), which stops
the same search at the same point on every machine and at every load, so
which boards are decided (every verdict) cannot depend on the machine. A
CPU-time limit (:data:`STUDY_CLOCK`) stays behind it as a safety net against a
runaway, set far above what the budget needs: CPU time is not the same on a
busy machine (where processors share hardware, the same search took 1.5 to 3
times the CPU time beside other busy programs), so a run it stops would be one
the machine decided, and the row's ``stop`` (``time``) says so. A PySAT solver
under a work budget gets no clock at all (:func:`measure`). Without a budget
(the command line below, by default) the CPU-time limit is the only one.

Every time column names its clock (``solve_cpu_ms``, ``solve_wall_ms``):
times are measurements, whose ratio says how busy the machine was.

Run the full grid from the command line::

    sudosat study --orders 3 4 5 6 --alphas 0 0.2 0.4 0.6 --boards 3 \\
        --max-conflicts 20000 -T 600000 --csv scaling.csv --figures figures
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sudosat.errors import ResourceLimitError, SudosatError
from sudosat.run.generate import generate_many
from sudosat.run.results import COLUMNS as RESULT_COLUMNS
from sudosat.run.results import DECIDED, Verdict
from sudosat.run.runner import InstanceOutcome, Prepared, prepare, run_instance
from sudosat.sat.solvers.budget import BUDGET_STOPS, BUDGETS, Clock
from sudosat.studies.cache import Limit
from sudosat.studies.defaults import (
    DEFAULT_ALPHAS,
    DEFAULT_ENCODINGS,
    DEFAULT_ORDERS,
    DEFAULT_SOLVERS,
)
from sudosat.sudoku.board import Board

STUDY_CLOCK = Clock.CPU
"""The clock of a study's time limit: this process's CPU time, never wall time (which
counts the time other programs held the processor). Behind a work budget it is a safety
net only: CPU time itself grows 1.5 to 3 times on a busy machine."""

_BUDGET_KINDS = {"max_conflicts": "conflicts", "max_propagations": "propagations"}

BUDGET_STOP_WORDS: tuple[str, ...] = tuple(str(stop) for stop in BUDGET_STOPS.values())
"""The ``stop`` of a row a work budget ended (``conflicts``, ``propagations``); a row the
CPU-time limit ended has ``time``."""


def study_limits(time_limit_ms: float | None = None, **budgets: int | None) -> tuple[Limit, ...]:
    """The cache's record of what bounds a study's runs: each work budget set
    (``max_conflicts=``, ``max_propagations=``), then the CPU-time limit (None: none).

    Examples
    --------
    >>> [limit.as_json() for limit in study_limits(600_000, max_conflicts=20_000)]
    [{'kind': 'conflicts', 'value': 20000.0}, {'kind': 'cpu', 'value': 600000.0}]
    """
    unknown = set(budgets) - set(BUDGETS)
    if unknown:
        raise TypeError(f"unknown work budget {sorted(unknown)}; known: {', '.join(BUDGETS)}")
    counted = tuple(Limit(_BUDGET_KINDS[name], value) for name, value in budgets.items()
                    if value is not None)
    return (*counted, Limit(str(STUDY_CLOCK), time_limit_ms))


def clock_changes_search(solver: str) -> bool:
    """Whether stopping `solver` on a clock changes the search it makes: PySAT's solvers.

    PySAT cannot interrupt CaDiCaL, so a clock stops it by running its search in
    slices of a conflict budget sized by how long the last slice took
    (:func:`sudosat.sat.solvers.pysat.limited_search`); each slice is a new call
    of its search, so the search, and the conflicts it needs, depend on the
    machine's speed and load. Measured on three order-6 boards at 40 % given: 7,311,
    13,695 and 7,591 conflicts in one call, 1,562, 190,721 and 427,133 in slices.
    Our solvers read the clock inside their own loop, and it only stops them.
    """
    return solver.startswith("pysat:")


STUDY_KEYS = ("order", "size", "alpha", "board", "seed", "givens", "encoding", "solver")
"""What identifies a study row: the grid cell, the board and how it was solved."""

COLUMNS = (
    *STUDY_KEYS,
    "generate_cpu_ms",
    *(column for column in RESULT_COLUMNS if column in (
        "status", "stop", "valid", "encode_wall_ms", "encode_cpu_ms", "solve_wall_ms",
        "solve_cpu_ms", "load_cpu_ms", "search_cpu_ms", "decode_wall_ms", "decode_cpu_ms",
        "total_wall_ms", "total_cpu_ms", "variables", "clauses", "decisions", "conflicts",
        "propagations", "error")),
    "literals",
)
"""One row per (board, encoding, solver), in this column order: the row's keys, the
board's generation time, the columns it shares with the results table
(:data:`sudosat.run.results.COLUMNS`, in their order there, the one schema both
follow), and the formula's literals. Times are milliseconds on the clock their name says:
``_cpu_ms`` this process's CPU time, ``_wall_ms`` elapsed time.
``solve_cpu_ms`` is what the CPU-time limit bounds; ``load_cpu_ms`` and ``search_cpu_ms`` are
its parts for a solver that loads the clauses before it searches (cdcl, PySAT's). ``stop``
says why the solver stopped: ``answered``, a work budget (:data:`BUDGET_STOP_WORDS`), ``time``
(the CPU-time limit) or ``error``."""
_COUNTERS = ("decisions", "conflicts", "propagations")


def cell_seed(seed: int, order: int, alpha: float) -> int:
    """The generator seed of grid cell (order, alpha): distinct per cell, fixed by `seed`.

    A string seed is hashed by ``random.Random`` the same way on every run and
    platform, so the boards of a cell do not depend on which other cells run.
    """
    return random.Random(f"sudosat-study/{seed}/{order}/{alpha:.6f}").randrange(2**31)


def measure(
    board: Board,
    solver: str,
    encoding: str,
    *,
    time_limit_ms: float | None = None,
    prepared: Prepared | None = None,
    max_bytes: int | None = None,
    **solver_options: Any,
) -> dict:
    """Encode, solve, decode and check one board; return its row (the keys of :data:`COLUMNS`).

    :func:`sudosat.run.runner.run_instance` with the limits on the solver alone
    (``limit_covers="solver"``): the work budgets among `solver_options`, and
    `time_limit_ms` in CPU time (:data:`STUDY_CLOCK`); the memory guard on.
    With a work budget, a solver a clock would change (:func:`clock_changes_search`)
    runs under the budget alone, so its row is the same on every machine.

    Parameters
    ----------
    board : Board
    solver, encoding : str
        Registered names.
    time_limit_ms : float, optional
        Limit of the solver call in CPU milliseconds; past it the status is
        ``TIMEOUT`` (``stop`` ``time``).
    prepared : Prepared, optional
        An encoding of `board` already built (:func:`prepare_once`), shared between solvers.
    max_bytes : int, optional
        The memory guard's limit (default its own).
    **solver_options
        Passed to the solver (``heuristic="moms"``, ``max_conflicts=20000`` ...). A work
        budget that runs out makes the status ``UNKNOWN`` (``stop`` ``conflicts`` or
        ``propagations``).

    Returns
    -------
    dict
        ``status`` is SAT, UNSAT, UNKNOWN, TIMEOUT or ERROR (with ``error``
        saying why: e.g. the memory guard refused the encoding); ``stop`` why
        the solver stopped; ``valid`` whether a SAT answer decodes to a
        solution that keeps the givens.
    """
    budgeted = any(solver_options.get(name) is not None for name in BUDGETS)
    if budgeted and clock_changes_search(solver):
        time_limit_ms = None
    outcome = run_instance(
        board,
        solver,
        prepared or encoding,
        time_limit_ms,
        limit_covers="solver",
        max_bytes=max_bytes,
        clock=STUDY_CLOCK,
        **solver_options,
    )
    return study_row(board, solver, encoding, outcome)


def study_row(board: Board, solver: str, encoding: str, outcome: InstanceOutcome) -> dict:
    """The study's row (:data:`COLUMNS`) of one :func:`~sudosat.run.runner.run_instance` outcome.

    ``total_wall_ms`` and ``total_cpu_ms`` are the sums of the stages on each
    clock (the encoding counted once per solver even when it was shared);
    ``error`` is filled for ERROR rows only.
    """
    row = empty_row(board, solver, encoding)
    done = outcome.row
    row.update({key: done[key] for key in _COPIED})
    row.update(status=str(done.status), valid=bool(done.valid),
               stop=None if done["stop"] is None else str(done["stop"]))
    if done.status is Verdict.ERROR:
        row["error"] = done.error or ""
    if outcome.formula is not None:
        row["literals"] = outcome.formula.cnf.num_literals
    for clock in ("wall", "cpu"):
        stages = (f"encode_{clock}_ms", f"solve_{clock}_ms", f"decode_{clock}_ms")
        row[f"total_{clock}_ms"] = sum(row[key] or 0.0 for key in stages)
    return row


_COPIED = ("encode_wall_ms", "encode_cpu_ms", "solve_wall_ms", "solve_cpu_ms", "load_cpu_ms",
           "search_cpu_ms", "decode_wall_ms", "decode_cpu_ms", "variables", "clauses",
           *_COUNTERS)


def empty_row(board: Board, solver: str, encoding: str) -> dict:
    """A study row with only the board, the solver and the encoding filled in."""
    row = dict.fromkeys(COLUMNS)
    row.update(
        order=board.order,
        size=board.size,
        givens=board.num_givens,
        encoding=encoding,
        solver=solver,
        valid=False,
        error="",
    )
    return row


def failed_row(board: Board, solver: str, encoding: str, reason: str) -> dict:
    """The ERROR row of a board whose encoding could not be built (see :func:`prepare_once`)."""
    row = empty_row(board, solver, encoding)
    row.update(status=str(Verdict.ERROR), error=reason, total_wall_ms=0.0, total_cpu_ms=0.0)
    return row


def prepare_once(board: Board, encoding: str) -> tuple[Prepared | None, str | None]:
    """(the encoding built behind the memory guard, None), or (None, why it was refused)."""
    try:
        return prepare(board, encoding), None
    except (SudosatError, MemoryError) as exc:
        return None, str(exc) or type(exc).__name__


@dataclass(frozen=True)
class StudySettings:
    """What the scaling study runs: the grid, the limits, the solvers and encodings.

    Attributes
    ----------
    orders, alphas : tuples
        The grid: orders N and fill fractions alpha (fraction of cells given).
    boards : int
        Boards generated per cell (seeds from :func:`cell_seed`).
    time_limit_ms : float or None
        The same solver time limit T for every run, in CPU milliseconds
        (:data:`STUDY_CLOCK`); behind a work budget, a safety net.
    max_conflicts : int or None
        A conflict budget for every solver call (None: none), the limit that
        is the same on every machine (see the module's docstring).
    solvers, encodings : tuples of str
        Registered names; every board is encoded once per encoding and the
        encoding is shared by the solvers.
    seed : int
        Seed of the whole study.
    method : str
        Generator method (``solution`` or ``naive``).
    """

    orders: tuple[int, ...] = DEFAULT_ORDERS
    alphas: tuple[float, ...] = DEFAULT_ALPHAS
    boards: int = 3
    time_limit_ms: float | None = 60_000
    max_conflicts: int | None = None
    solvers: tuple[str, ...] = DEFAULT_SOLVERS
    encodings: tuple[str, ...] = DEFAULT_ENCODINGS
    seed: int = 0
    method: str = "solution"

    def __post_init__(self) -> None:
        # lists from a caller or a command line become tuples: the settings stay hashable
        for name in ("orders", "alphas", "solvers", "encodings"):
            object.__setattr__(self, name, tuple(getattr(self, name)))


def run_study(
    settings: StudySettings | None = None,
    *,
    on_row: Callable[[dict], None] | None = None,
    **changes: Any,
) -> pd.DataFrame:
    """Run the grid orders x alphas, `boards` boards per cell; one row per board, encoding, solver.

    Parameters
    ----------
    settings : StudySettings, optional
        What to run (default ``StudySettings()``).
    on_row : callable, optional
        Called with each row as it completes (to stream a CSV or print progress).
    **changes
        Fields of :class:`StudySettings` to change (``orders=[2], boards=1``);
        an unknown name is a TypeError.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`.

    Examples
    --------
    >>> table = run_study(orders=[2], alphas=[0.5], boards=1, solvers=["cdcl"],
    ...                   encodings=["course"])
    >>> table[["order", "alpha", "status", "valid"]].values.tolist()
    [[2, 0.5, 'SAT', True]]
    """
    settings = dataclasses.replace(settings or StudySettings(), **changes)
    rows = []
    runs = [(encoding, settings.solvers) for encoding in settings.encodings]
    for order in settings.orders:
        for alpha in settings.alphas:
            for row in cell_rows(
                order, alpha, settings.boards, cell_seed(settings.seed, order, alpha), runs,
                time_limit_ms=settings.time_limit_ms, max_conflicts=settings.max_conflicts,
                method=settings.method,
            ):
                rows.append(row)
                if on_row is not None:
                    on_row(row)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def cell_rows(
    order: int,
    alpha: float,
    boards: int,
    seed: int,
    runs: Sequence[tuple[str, Sequence[str]]],
    *,
    time_limit_ms: float | None,
    max_conflicts: int | None,
    method: str = "solution",
) -> Iterator[dict]:
    """The rows of one grid cell (N, alpha), one at a time: every study's grid runner.

    `boards` boards are generated from seeds ``seed .. seed + boards - 1``; each
    is encoded once per encoding behind the memory guard (:func:`prepare_once`)
    and the encoding is solved by each of that encoding's solvers
    (:func:`measure`), or gives an ERROR row each (:func:`failed_row`).

    Parameters
    ----------
    order, alpha : int, float
        The cell: the order N and the fraction of cells given.
    boards, seed : int
        How many boards, and the seed of the first.
    runs : sequence of (encoding, solvers)
        The encodings in the order they run, each with the solvers that solve it.
    time_limit_ms : float or None
        The CPU-time limit of each solver call (:data:`STUDY_CLOCK`).
    max_conflicts : int or None
        The conflict budget of each solver call.
    method : str
        The generator's method (:func:`sudosat.run.generate.generate_many`).

    Yields
    ------
    dict
        A row of :data:`COLUMNS` per (board, encoding, solver), with ``alpha``,
        ``board`` (its index), ``seed`` and ``generate_cpu_ms`` (a board's share
        of generating the cell's boards) filled in.
    """
    started = time.process_time()
    puzzles = generate_many(order, alpha, boards, seed=seed, method=method)
    generate_ms = (time.process_time() - started) * 1000.0 / max(boards, 1)
    for index, board in enumerate(puzzles):
        for encoding, solvers in runs:
            prepared, failure = prepare_once(board, encoding)
            for solver in solvers:
                if failure is not None:
                    row = failed_row(board, solver, encoding, failure)
                else:
                    row = measure(board, solver, encoding, time_limit_ms=time_limit_ms,
                                  prepared=prepared, max_conflicts=max_conflicts)
                row.update(alpha=alpha, board=index, seed=seed + index,
                           generate_cpu_ms=generate_ms)
                yield row
            del prepared  # the course encoding of order 6 holds 3 million clauses


class _Undecided(Exception):
    """Raised by :func:`check_grid`'s sizing where only the generated boards can tell."""


def _undecided() -> None:
    raise _Undecided


def check_grid(settings: StudySettings, max_bytes: int | None = None) -> None:
    """Refuse, before any board is generated, a grid that cannot fit in the memory limit.

    For each order: the boards of a cell (``boards`` boards of N⁴ cells,
    :func:`sudosat.limits.check_memory`); for each cell and encoding, the
    memory guard's own verdict (:func:`sudosat.sudoku.encoding.check_resources`)
    where it holds for every board of the cell: a full encoding's size depends
    on the order alone, and a reduced one's is refused when its lower bound for
    the cell's number of givens is over the limit (the reduced encodings' exact
    size needs the boards themselves, which are generated and checked then).
    Constant time for each cell after counting the givens, whatever the order:
    ``--orders 40`` is refused at once, not after minutes of generating.

    Parameters
    ----------
    settings : StudySettings
        The grid, the boards per cell and the encodings.
    max_bytes : int, optional
        The memory guard's limit (default its own, that of every study run).

    Raises
    ------
    ResourceLimitError
        One line naming the order, the fill fraction, the encoding, what it
        needs and the limit.
    """
    from sudosat.limits import BYTES_PER_CELL, DEFAULT_MAX_BYTES, check_memory, format_bytes
    from sudosat.sudoku.encoding import check_resources, get_encoding

    limit = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes

    def refused(where: str, need: str) -> ResourceLimitError:
        return ResourceLimitError(
            f"{where}: {need}; the study's memory limit is {format_bytes(limit)}: leave it out"
            + (" or choose other --encodings" if "encoding" in need else ""))

    for order in sorted(set(settings.orders)):
        cells = order**4
        try:
            check_memory(settings.boards * cells, BYTES_PER_CELL, "", limit)
        except ResourceLimitError:
            need = format_bytes(settings.boards * cells * BYTES_PER_CELL)
            raise refused(f"--orders {order}", f"the boards of a cell ({settings.boards} of "
                          f"{cells:,} cells) need about {need}") from None
        reduced = [name for name in settings.encodings if get_encoding(name).reduced]
        full = [name for name in settings.encodings if name not in reduced]
        for encoding in full:  # closed formulas (the advice counts an empty board's: cheap)
            try:
                check_resources(Board.empty(order), encoding, limit)
            except ResourceLimitError as exc:
                raise refused(f"--orders {order}", exc.reason.split("; the limit is")[0]) from None
        for alpha in settings.alphas if reduced else ():
            givens = math.floor(alpha * cells + 0.5)  # as the generator counts them
            board = Board(order, [1] * givens + [0] * (cells - givens))
            for encoding in reduced:
                try:  # past the lower bound, candidates would be counted: stop there
                    check_resources(board, encoding, limit, check=_undecided)
                except _Undecided:
                    continue  # the lower bound fits: the boards themselves will tell
                except ResourceLimitError as exc:
                    raise refused(f"--orders {order} --alphas {alpha:g}",
                                  exc.reason.split("; the limit is")[0]) from None


def measure_isolated(
    board: Board, solver: str, encoding: str, *, time_limit_ms: float | None = None,
    max_conflicts: int | None = None,
) -> dict:
    """:func:`measure` in a fresh process; the row also holds ``peak_rss_mb``.

    The child is started with ``spawn``, so its peak resident memory (its
    ``ru_maxrss``) counts only what encoding and solving this board took, plus
    the interpreter: the figure to hold against a memory budget.
    """
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return pool.apply(
            _measure_with_memory,
            (board.order, board.cells, solver, encoding, time_limit_ms, max_conflicts),
        )


def _measure_with_memory(order, cells, solver, encoding, time_limit_ms, max_conflicts) -> dict:
    row = measure(Board(order, cells), solver, encoding, time_limit_ms=time_limit_ms,
                  max_conflicts=max_conflicts)
    row["peak_rss_mb"] = _peak_rss_mb()
    return row


def _peak_rss_mb() -> float:
    """This process's peak resident memory in MB.

    Linux's ``VmHWM`` first: ``ru_maxrss`` survives ``exec``, so a spawned
    child would report its parent's peak if the parent was the larger.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# ---------------------------------------------------------------------------------------
# summaries


def _clock(column: str) -> str:
    """The clock a time column names: ``"cpu"`` or ``"wall"``."""
    return "cpu" if "_cpu_" in column else "wall"


def cell_table(table: pd.DataFrame, time: str = "total_cpu_ms") -> pd.DataFrame:
    """Median time, clauses and number solved per (encoding, order, alpha, solver).

    Returns
    -------
    pandas.DataFrame
        Index (encoding, order, alpha, solver); columns ``median_<clock>_ms``,
        ``max_<clock>_ms`` (the clock of `time`: ``cpu`` or ``wall``), ``clauses``,
        ``variables``, ``solved`` and ``boards``.
    """
    grouped = table.groupby(["encoding", "order", "alpha", "solver"])
    clock = _clock(time)
    return pd.DataFrame(
        {
            f"median_{clock}_ms": grouped[time].median(),
            f"max_{clock}_ms": grouped[time].max(),
            "clauses": grouped["clauses"].median(),
            "variables": grouped["variables"].median(),
            "solved": grouped["status"].apply(lambda s: int(s.isin(DECIDED).sum())),
            "boards": grouped["status"].size(),
        }
    )


def ratio_table(
    table: pd.DataFrame,
    solver: str = "cdcl",
    reference: str = "pysat:cadical195",
    time: str = "solve_cpu_ms",
) -> pd.DataFrame:
    """Median time of `solver` and of `reference` per (encoding, order, alpha), and their ratio.

    Returns
    -------
    pandas.DataFrame
        Columns ``<solver> <clock> ms``, ``<reference> <clock> ms`` (the clock of
        `time`), ``ratio`` (solver / reference), and the number of boards each solved.
    """
    cells = cell_table(table, time)
    clock = _clock(time)
    wide = cells[f"median_{clock}_ms"].unstack("solver")
    solved = cells["solved"].unstack("solver")
    out = pd.DataFrame(
        {
            f"{solver} {clock} ms": wide[solver],
            f"{reference} {clock} ms": wide[reference],
            "ratio": wide[solver] / wide[reference],
            f"{solver} solved": solved[solver],
            f"{reference} solved": solved[reference],
            "boards": cells["boards"].unstack("solver")[solver],
        }
    )
    return out
