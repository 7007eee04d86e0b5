"""The scaling study: solve generated boards over a grid of order N and fill fraction alpha.

For every cell (N, alpha) of the grid, a few boards are generated
(:func:`sudosat.run.generate.generate_many`, feasible by construction), encoded
with each encoding and solved by each solver under the same time limit. One
row per (board, encoding, solver) records the encoding's size and the time of
every step, so the notebook (``notebooks/scaling.ipynb``) and the benchmark
(``benchmarks/scaling.py``) can ask what grows with N, what with alpha, and
what the encoding itself costs.

Run the full grid from the command line::

    python -m sudosat.studies.scaling --orders 3 4 5 6 --alphas 0 0.2 0.4 0.6 --boards 3 \\
        -T 60000 --csv scaling.csv --figures figures
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sudosat.errors import SudosatError
from sudosat.run.generate import generate_many
from sudosat.run.results import Verdict
from sudosat.run.runner import InstanceOutcome, Prepared, prepare, run_instance
from sudosat.sudoku.board import Board

DEFAULT_ORDERS = (3, 4, 5, 6)
DEFAULT_ALPHAS = (0.0, 0.2, 0.4, 0.6)
DEFAULT_SOLVERS = ("cdcl", "pysat:cadical195")
DEFAULT_ENCODINGS = ("optimised",)

# One row per (board, encoding, solver), in this column order.
COLUMNS = (
    "order",
    "size",
    "alpha",
    "board",
    "seed",
    "givens",
    "encoding",
    "solver",
    "status",
    "valid",
    "generate_ms",
    "encode_ms",
    "solve_ms",
    "decode_ms",
    "total_ms",
    "variables",
    "clauses",
    "literals",
    "decisions",
    "conflicts",
    "propagations",
    "error",
)
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
) -> dict:
    """Encode, solve, decode and check one board; return its row (the keys of :data:`COLUMNS`).

    :func:`sudosat.run.runner.run_instance` with the limit on the solver alone
    (``limit_covers="solver"``) and the memory guard on.

    Parameters
    ----------
    board : Board
    solver, encoding : str
        Registered names.
    time_limit_ms : float, optional
        Limit of the solver call; past it the status is ``TIMEOUT``.
    prepared : Prepared, optional
        An encoding of `board` already built (:func:`prepare_once`), shared between solvers.
    max_bytes : int, optional
        The memory guard's limit (default its own).

    Returns
    -------
    dict
        ``status`` is SAT, UNSAT, TIMEOUT or ERROR (with ``error`` saying why:
        e.g. the memory guard refused the encoding); ``valid`` says whether a
        SAT answer decodes to a solution that keeps the givens.
    """
    outcome = run_instance(
        board,
        solver,
        prepared or encoding,
        time_limit_ms,
        limit_covers="solver",
        max_bytes=max_bytes,
    )
    return study_row(board, solver, encoding, outcome)


def study_row(board: Board, solver: str, encoding: str, outcome: InstanceOutcome) -> dict:
    """The study's row (:data:`COLUMNS`) of one :func:`~sudosat.run.runner.run_instance` outcome.

    ``total_ms`` is the sum of the stages (the encoding counted once per
    solver even when it was shared); ``error`` is filled for ERROR rows only.
    """
    row = empty_row(board, solver, encoding)
    done = outcome.row
    row.update({key: done[key] for key in _COPIED})
    row.update(status=str(done.status), valid=bool(done.valid))
    if done.status is Verdict.ERROR:
        row["error"] = done.error or ""
    if outcome.formula is not None:
        row["literals"] = outcome.formula.cnf.num_literals
    row["total_ms"] = sum(row[key] or 0.0 for key in ("encode_ms", "solve_ms", "decode_ms"))
    return row


_COPIED = ("encode_ms", "solve_ms", "decode_ms", "variables", "clauses", *_COUNTERS)


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
    row.update(status=str(Verdict.ERROR), error=reason, total_ms=0.0)
    return row


def prepare_once(board: Board, encoding: str) -> tuple[Prepared | None, str | None]:
    """(the encoding built behind the memory guard, None), or (None, why it was refused)."""
    try:
        return prepare(board, encoding), None
    except (SudosatError, MemoryError) as exc:
        return None, str(exc) or type(exc).__name__


@dataclass(frozen=True)
class StudySettings:
    """What the scaling study runs: the grid, the limit, the solvers and encodings.

    Attributes
    ----------
    orders, alphas : tuples
        The grid: orders N and fill fractions alpha (fraction of cells given).
    boards : int
        Boards generated per cell (seeds from :func:`cell_seed`).
    time_limit_ms : float or None
        The same solver time limit T for every run.
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
    for order in settings.orders:
        for alpha in settings.alphas:
            for row in _run_cell(settings, order, alpha):
                rows.append(row)
                if on_row is not None:
                    on_row(row)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _run_cell(settings: StudySettings, order: int, alpha: float) -> Iterator[dict]:
    """Yield the rows of one grid cell."""
    first = cell_seed(settings.seed, order, alpha)
    boards = settings.boards
    started = time.perf_counter()
    puzzles = generate_many(order, alpha, boards, seed=first, method=settings.method)
    generate_ms = (time.perf_counter() - started) * 1000.0 / max(boards, 1)
    for index, board in enumerate(puzzles):
        for encoding in settings.encodings:
            prepared, failure = prepare_once(board, encoding)
            for solver in settings.solvers:
                if failure is not None:
                    row = failed_row(board, solver, encoding, failure)
                else:
                    row = measure(board, solver, encoding,
                                  time_limit_ms=settings.time_limit_ms, prepared=prepared)
                row.update(alpha=alpha, board=index, seed=first + index, generate_ms=generate_ms)
                yield row


def measure_isolated(
    board: Board, solver: str, encoding: str, *, time_limit_ms: float | None = None
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
            _measure_with_memory, (board.order, board.cells, solver, encoding, time_limit_ms)
        )


def _measure_with_memory(order, cells, solver, encoding, time_limit_ms) -> dict:
    row = measure(Board(order, cells), solver, encoding, time_limit_ms=time_limit_ms)
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


def reference_search_ms(
    cnf, backend: str = "cadical195", time_limit_ms: float | None = None
) -> tuple[str, float, float]:
    """Time PySAT's `backend` on `cnf`, loading and search apart.

    The registered ``pysat:`` solvers report one wall time, which for a large
    formula is mostly handing millions of clauses from Python to the library.
    This measures the search alone (:func:`sudosat.sat.solvers.pysat.limited_search`:
    slices of a conflict budget, so the limit holds even for CaDiCaL, which
    ignores interrupts).

    Returns
    -------
    (status, load_ms, search_ms)
        status is SAT, UNSAT or TIMEOUT.
    """
    from pysat.solvers import Solver

    from sudosat.sat.solvers.budget import Deadline
    from sudosat.sat.solvers.pysat import limited_search

    deadline = Deadline(time_limit_ms)
    started = time.perf_counter()
    with Solver(name=backend, bootstrap_with=cnf.clauses) as solver:
        loaded = time.perf_counter()
        answer, _ = limited_search(solver, deadline)  # (answer, why none)
        done = time.perf_counter()
    status = Verdict.TIMEOUT if answer is None else (Verdict.SAT if answer else Verdict.UNSAT)
    return status, (loaded - started) * 1000.0, (done - loaded) * 1000.0


# ---------------------------------------------------------------------------------------
# summaries


def cell_table(table: pd.DataFrame, time: str = "total_ms") -> pd.DataFrame:
    """Median time, clauses and number solved per (encoding, order, alpha, solver).

    Returns
    -------
    pandas.DataFrame
        Index (encoding, order, alpha, solver); columns ``median_ms``,
        ``max_ms``, ``clauses``, ``variables``, ``solved`` and ``boards``.
    """
    grouped = table.groupby(["encoding", "order", "alpha", "solver"])
    return pd.DataFrame(
        {
            "median_ms": grouped[time].median(),
            "max_ms": grouped[time].max(),
            "clauses": grouped["clauses"].median(),
            "variables": grouped["variables"].median(),
            "solved": grouped["status"].apply(lambda s: int(s.isin(["SAT", "UNSAT"]).sum())),
            "boards": grouped["status"].size(),
        }
    )


def ratio_table(
    table: pd.DataFrame,
    solver: str = "cdcl",
    reference: str = "pysat:cadical195",
    time: str = "solve_ms",
) -> pd.DataFrame:
    """Median time of `solver` and of `reference` per (encoding, order, alpha), and their ratio.

    Returns
    -------
    pandas.DataFrame
        Columns ``<solver> ms``, ``<reference> ms``, ``ratio`` (solver / reference),
        and the number of boards each solved.
    """
    cells = cell_table(table, time)
    wide = cells["median_ms"].unstack("solver")
    solved = cells["solved"].unstack("solver")
    out = pd.DataFrame(
        {
            f"{solver} ms": wide[solver],
            f"{reference} ms": wide[reference],
            "ratio": wide[solver] / wide[reference],
            f"{solver} solved": solved[solver],
            f"{reference} solved": solved[reference],
            "boards": cells["boards"].unstack("solver")[solver],
        }
    )
    return out


def hardest_alpha(
    table: pd.DataFrame, solver: str = "cdcl", time: str = "solve_ms"
) -> pd.DataFrame:
    """For each (encoding, order): the alpha of largest median `solver` time, and that time."""
    rows = table[table["solver"] == solver]
    medians = rows.groupby(["encoding", "order", "alpha"])[time].median().reset_index()
    worst = medians.loc[medians.groupby(["encoding", "order"])[time].idxmax()]
    return worst.rename(columns={"alpha": "hardest alpha", time: f"median {time}"}).set_index(
        ["encoding", "order"]
    )
