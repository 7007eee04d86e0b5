"""Puzzle generators: a board of order N with a fraction alpha of its cells given.

Two methods, both deterministic for a seed (all randomness comes from one
``random.Random(seed)``):

``solution`` (the default)
    Feasible by construction. First a complete, random solution; then its cells
    are emptied in a seeded random order until ``round(alpha * N**4)`` givens
    remain. The solution comes from one of two bases:

    * ``solver`` -- the N diagonal boxes are filled with independent random
      permutations of the symbols (they share no row, column or box, so any
      such start is consistent) and our own SAT solver completes the board; a
      start it proves infeasible (about half of them at order 2) is drawn again;
    * ``pattern`` -- the fast path for large orders: the classic pattern
      solution ``(N*(r mod N) + r div N + c) mod N**2 + 1`` shuffled by seeded
      permutations of the bands, the rows inside each band, the stacks, the
      columns inside each stack and the symbols, and a seeded transpose. Every
      step maps a solution to a solution, so the result is valid; it is drawn
      from the pattern's symmetry class only, not from all solutions.

    ``base="auto"`` uses the solver up to :data:`SOLVER_MAX_ORDER` and the
    pattern beyond. With ``unique=True`` a cell is emptied only while the
    puzzle keeps exactly one solution; emptying stops early (more givens than
    asked) when no further cell can go. ``minimal=True`` tries every cell:
    the puzzle is unique and no given can go without losing uniqueness (one
    pass suffices: a cell that could not go cannot go later either, since
    fewer givens never mean fewer solutions).

    Uniqueness checks up to :data:`SOLVER_MAX_ORDER` run on one incremental
    solver per board (:mod:`sudosat.sudoku.incremental`): the rules and the clause
    "not this solution" are loaded once, and each check solves with the
    remaining givens as assumptions. An UNSAT answer's core (the givens that
    sufficed) also settles, without a solver call, every later cell outside it.

Time and progress: one ``deadline`` (or ``time_limit_ms`` of wall clock, made
into one) bounds the whole call (every board): the work looks at it at least
once per row of cells and per solver call, and each solver call runs under
that same deadline, so the call raises :class:`GenerateTimeout` within about T
instead of running unbounded (a uniqueness pass at order 12 takes minutes).
``progress=True`` shows a tqdm bar per stage on standard error.

``naive``
    The original experiment's "random consistent fill": cells in a seeded
    random order get a random symbol that does not repeat in their row, column
    or box. The board is always consistent, but it may have no solution at all
    (a solver then answers UNSAT, itself a finding about the method).

Examples
--------
>>> board = generate(2, 0.5, seed=7)
>>> board.num_givens
8
>>> board == generate(2, 0.5, seed=7)
True
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple, NoReturn, TypeVar

from sudosat.errors import InstanceError, SolverError, SudosatError, import_extra
from sudosat.sat.result import Stop
from sudosat.sat.solvers.budget import Deadline, one_deadline
from sudosat.sudoku.board import Board

_T = TypeVar("_T")

METHODS = ("solution", "naive")
BASES = ("auto", "solver", "pattern")
# Largest order whose base solution `base="auto"` asks our solver for; beyond it
# the pattern fast path (completing a 25x25 start took our solver about 1 s and a
# 36x36 one 3 s, which a study of many boards would pay per board; the pattern is free).
SOLVER_MAX_ORDER = 4
# The encoding used for the solver runs of the generator: the optimised one
# leaves only the open candidates, which keeps every uniqueness check small.
GENERATOR_ENCODING = "optimised"
# Which complete solution cdcl finds depends on its search, and its defaults change as
# the search improves; the generator pins the settings of the search it was written
# with, so that a seed gives the same board from one version to the next.
GENERATOR_CDCL_SETTINGS: dict[str, Any] = {"target_phase": 0}


class GenerateTimeout(SudosatError):
    """The time limit ran out before every board was generated (nothing is returned)."""


class _Watch:
    """The call's deadline, the stage it is in, and its progress bars.

    :meth:`check` raises :class:`GenerateTimeout` naming the stage once the
    deadline has passed; :meth:`bar` wraps an iterable in a tqdm bar on
    standard error when progress was asked for.
    """

    def __init__(self, deadline: Deadline, progress: bool = False) -> None:
        self.deadline = deadline
        self.progress = progress
        self.stage = "starting"
        self.where = ""  # which board, when there are several

    def check(self) -> None:
        """Raise :class:`GenerateTimeout` once the deadline has passed."""
        if self.deadline.expired():
            self.ran_out()

    def ran_out(self) -> NoReturn:
        """Raise :class:`GenerateTimeout` (a solver answered that T ran out)."""
        raise GenerateTimeout(
            f"the time limit of {self.deadline.limit_ms or 0:g} ms ran out while "
            f"{self.stage}{self.where}; nothing was written (raise -T or ask for less)"
        )

    def bar(self, items: Iterable[_T], total: int, what: str) -> Iterator[_T]:
        """`items`, with a progress bar named `what` when progress is shown."""
        if not self.progress:
            yield from items
            return
        tqdm = import_extra("tqdm", "progress", "a progress bar (--progress)").tqdm
        with tqdm(items, total=total, desc=what, file=sys.stderr, leave=False) as shown:
            yield from shown


def generate(
    order: int,
    alpha: float,
    *,
    seed: int = 0,
    unique: bool = False,
    method: str = "solution",
    base: str = "auto",
    solver: str = "cdcl",
    zchaff: str | None = None,
    minimal: bool = False,
    time_limit_ms: float | None = None,
    deadline: Deadline | None = None,
    progress: bool = False,
) -> Board:
    """One board of order `order` with a fraction `alpha` of its cells given.

    Parameters
    ----------
    order : int
        N >= 1; the board has N**2 rows, columns and symbols.
    alpha : float
        Fraction of the N**4 cells that are given, 0 <= alpha <= 1; the number
        of givens is ``round(alpha * N**4)`` (fewer for ``naive`` when a cell has
        no symbol left; more for ``unique`` when the puzzle is already minimal).
    seed : int
        Seed of the one ``random.Random`` behind every choice.
    unique : bool
        Empty cells only while the puzzle keeps exactly one solution
        (``method="solution"`` only).
    method : {"solution", "naive"}
        Feasible by construction, or the naive random consistent fill.
    base : {"auto", "solver", "pattern"}
        Where the complete solution of ``method="solution"`` comes from.
    solver : str
        Registered solver name for the base solution and the uniqueness checks.
    zchaff : str, optional
        The zChaff program for ``solver="zchaff"`` (else ``ZCHAFF``, else PATH).
    minimal : bool
        Unique, and every cell is tried: no given can be removed without
        losing uniqueness (`alpha` is then ignored).
    time_limit_ms : float, optional
        A wall-clock limit of the call in milliseconds, made into `deadline`
        here (none by default; give one or the other).
    deadline : Deadline, optional
        The limit of the whole call, on its own clock; every solver call runs
        under it.
    progress : bool
        Show a progress bar per stage on standard error.

    Returns
    -------
    Board

    Raises
    ------
    InstanceError
        The order, alpha, method or base is out of range.
    SolverError
        The solver could not complete the base solution.
    GenerateTimeout
        The deadline passed first.

    Examples
    --------
    >>> generate(3, 0.0, seed=1).num_givens
    0
    >>> generate(3, 1.0, seed=1).is_complete()
    True
    """
    target = _check_arguments(order, alpha, method, base, unique or minimal)
    how = (unique, minimal, method, base, _Solver.named(solver, zchaff))
    watch = _Watch(one_deadline(deadline, time_limit_ms), progress)
    return _generate(order, target, seed, how, watch)


class _Solver(NamedTuple):
    """The generator's solver: its registered name and the options it is called with."""

    name: str
    options: dict[str, Any]

    @classmethod
    def named(cls, name: str, zchaff: str | None) -> _Solver:
        return cls(name, {"zchaff": zchaff} if name == "zchaff" and zchaff else {})


def _generate(order: int, target: int, seed: int, how: tuple[bool, bool, str, str, _Solver],
              watch: _Watch) -> Board:
    """:func:`generate` once its arguments are checked, under `watch`."""
    unique, minimal, method, base, solver = how
    if minimal:
        unique, target = True, 0
    rng = random.Random(seed)
    if method == "naive":
        watch.stage = f"filling an order-{order} board"
        return _naive_fill(order, target, rng, watch)
    use_solver = base == "solver" or (base == "auto" and order <= SOLVER_MAX_ORDER)
    watch.stage = f"making a complete order-{order} solution"
    solution = (_solver_solution(order, rng, solver, watch) if use_solver
                else pattern_solution(order, rng, watch.check))
    watch.stage = f"emptying cells of an order-{order} solution"
    if unique:
        return _empty_keeping_unique(solution, target, rng, solver, watch)
    return _empty_cells(solution, target, rng, watch)


def generate_many(
    order: int,
    alpha: float,
    count: int,
    *,
    seed: int = 0,
    unique: bool = False,
    method: str = "solution",
    base: str = "auto",
    solver: str = "cdcl",
    zchaff: str | None = None,
    minimal: bool = False,
    time_limit_ms: float | None = None,
    deadline: Deadline | None = None,
    progress: bool = False,
) -> list[Board]:
    """`count` boards; board k is ``generate(order, alpha, seed=seed + k, ...)``.

    `deadline` (or `time_limit_ms` of wall clock, made into one) bounds the
    whole list (:class:`GenerateTimeout` when it passes: no board is
    returned); `progress` shows a bar over the boards too.

    Examples
    --------
    >>> boards = generate_many(2, 0.25, 3, seed=10)
    >>> boards[1] == generate(2, 0.25, seed=11)
    True
    """
    if count < 0:
        raise InstanceError(f"count must be >= 0, got {count}")
    target = _check_arguments(order, alpha, method, base, unique or minimal)
    watch = _Watch(one_deadline(deadline, time_limit_ms), progress)
    how = (unique, minimal, method, base, _Solver.named(solver, zchaff))
    boards = []
    for k in watch.bar(range(count), count, "boards") if count > 1 else range(count):
        watch.where = f" (board {k + 1} of {count})" if count > 1 else ""
        boards.append(_generate(order, target, seed + k, how, watch))
    return boards


def pattern_solution(order: int, rng: random.Random, check: Any = None) -> Board:
    """A complete solution: the pattern board under seeded symmetry operations.

    Parameters
    ----------
    order : int
        N >= 1.
    rng : random.Random
        Source of the permutations.
    check : callable, optional
        Called once per row; raises to stop (a deadline's ``check``).

    Returns
    -------
    Board
        A complete board obeying every row, column and box.
    """
    size = order * order
    rows = _band_permutation(order, rng)
    cols = _band_permutation(order, rng)
    symbols = list(range(1, size + 1))
    rng.shuffle(symbols)
    transpose = rng.random() < 0.5
    cells = []
    for i in range(size):
        if check is not None:
            check()
        for j in range(size):
            r, c = (cols[j], rows[i]) if transpose else (rows[i], cols[j])
            cells.append(symbols[(order * (r % order) + r // order + c) % size])
    return Board(order, cells)


def _band_permutation(order: int, rng: random.Random) -> list[int]:
    """A row (or column) order that keeps bands together: bands shuffled, rows within each."""
    bands = list(range(order))
    rng.shuffle(bands)
    lines: list[int] = []
    for band in bands:
        inside = list(range(order))
        rng.shuffle(inside)
        lines.extend(band * order + k for k in inside)
    return lines


def _check_arguments(order: int, alpha: float, method: str, base: str, unique: bool) -> int:
    """Validate the arguments of :func:`generate`; return the number of givens asked for."""
    if not isinstance(order, int) or order < 1:
        raise InstanceError(f"order must be an integer >= 1, got {order!r}")
    if not 0.0 <= alpha <= 1.0:
        raise InstanceError(f"alpha (the fraction of given cells) must be in [0, 1], got {alpha}")
    if method not in METHODS:
        raise InstanceError(f"unknown generator method {method!r}; known: {', '.join(METHODS)}")
    if base not in BASES:
        raise InstanceError(f"unknown solution base {base!r}; known: {', '.join(BASES)}")
    if unique and method != "solution":
        raise InstanceError("unique puzzles need method 'solution' (a naive fill may have none)")
    # round half up, so alpha = 0.5 on an odd number of cells is not left to banker's rounding
    return math.floor(alpha * order**4 + 0.5)


def _solver_solution(order: int, rng: random.Random, solver: _Solver, watch: _Watch) -> Board:
    """A full solution completed by `solver` from a random start.

    The start fills the N diagonal boxes with random permutations. Such a start
    is consistent but not always completable (about half the order-2 starts
    are not; none of the order-3 and order-4 ones we tried), so an infeasible
    start is drawn again, and after :data:`_DIAGONAL_ATTEMPTS` the start is a
    random first row alone, which always completes (relabel any solution).
    """
    from sudosat.run.results import Verdict
    from sudosat.run.runner import run_instance

    for attempt in range(_DIAGONAL_ATTEMPTS + 1):
        diagonal = attempt < _DIAGONAL_ATTEMPTS
        start = _diagonal_start(order, rng) if diagonal else _row_start(order, rng)
        watch.check()
        settings = GENERATOR_CDCL_SETTINGS if solver.name == "cdcl" else solver.options
        outcome = run_instance(start, solver.name, GENERATOR_ENCODING, deadline=watch.deadline,
                               limit_covers="pipeline", **settings)
        if outcome.status is Verdict.TIMEOUT:
            watch.ran_out()
        if outcome.status is Verdict.SAT and outcome.solution is not None:
            return outcome.solution
        if outcome.status is not Verdict.UNSAT:
            break
    why = f": {outcome.row.error}" if outcome.status is Verdict.ERROR else ""
    raise SolverError(
        f"{solver.name} did not complete a random start into a solution ({outcome.status}{why})"
    )


_DIAGONAL_ATTEMPTS = 20


def _diagonal_start(order: int, rng: random.Random) -> Board:
    """The N diagonal boxes filled with independent random permutations of the symbols."""
    size = order * order
    cells = [0] * (size * size)
    for box in range(order):
        symbols = list(range(1, size + 1))
        rng.shuffle(symbols)
        for k, symbol in enumerate(symbols):
            cells[(box * order + k // order) * size + box * order + k % order] = symbol
    return Board(order, cells)


def _row_start(order: int, rng: random.Random) -> Board:
    """The first row filled with a random permutation of the symbols."""
    size = order * order
    symbols = list(range(1, size + 1))
    rng.shuffle(symbols)
    return Board(order, symbols + [0] * (size * size - size))


def _removal_order(size: int, rng: random.Random, check: Any = None) -> list[int]:
    """Every cell once, in seeded random order: ``rng.shuffle`` of the cells, clock looked at.

    The loop is ``random.Random.shuffle``'s own (the same calls of the generator,
    so the same order for a seed), with `check` called every N² swaps: shuffling
    the 6 million cells of order 50 takes seconds.
    """
    cells = list(range(size * size))
    randbelow = rng._randbelow  # type: ignore[attr-defined]  # what shuffle draws with
    for i in reversed(range(1, len(cells))):
        if check is not None and not i % size:
            check()
        j = randbelow(i + 1)
        cells[i], cells[j] = cells[j], cells[i]
    return cells


def _empty_cells(solution: Board, target: int, rng: random.Random, watch: _Watch) -> Board:
    """Empty cells of `solution` in seeded random order until `target` givens remain."""
    cells = list(solution.cells)
    chosen = _removal_order(solution.size, rng, watch.check)[: len(cells) - target]
    for start in range(0, len(chosen), solution.size):
        watch.check()
        for index in chosen[start:start + solution.size]:
            cells[index] = 0
    return Board(solution.order, cells)


def _empty_keeping_unique(
    solution: Board, target: int, rng: random.Random, solver: _Solver, watch: _Watch
) -> Board:
    """Empty cells in seeded random order while the puzzle keeps exactly one solution.

    A cell is tried once: emptying it keeps the solution unique exactly when no
    solution of the new puzzle puts another symbol there (any other solution
    would agree with the old, unique puzzle elsewhere), so one solver run with
    that symbol forbidden decides it. Cells whose symbol is forced by their
    row, column and box alone (a single candidate) need no solver run.
    """
    cells = list(solution.cells)
    givens = len(cells)
    order = _removal_order(solution.size, rng, watch.check)
    checker = (
        _UniquenessChecker(solution, solver, order) if solution.order <= SOLVER_MAX_ORDER else None
    )
    try:
        for index in watch.bar(order, len(order), "cells tried"):
            if givens <= target:
                break
            watch.check()
            value = cells[index]
            cells[index] = 0
            if _candidates(cells, solution.order, index) == [value] or (
                checker.unique(cells, index, watch) if checker is not None
                else not _has_other_solution(Board(solution.order, cells), index, value, solver,
                                             watch)
            ):
                givens -= 1
            else:
                cells[index] = value
    finally:
        if checker is not None:
            checker.close()
    return Board(solution.order, cells)


class _UniquenessChecker:
    """Is a puzzle whose givens agree with `solution` still unique? One loaded solver for all.

    The solver holds the rules (loaded once per process and shared by every
    board, :func:`sudosat.sudoku.incremental.loaded_rules`) and, behind a fresh
    activation literal a, the clause that forbids `solution`: a puzzle is
    unique exactly when a and its givens, assumed, leave the formula
    unsatisfiable. :meth:`close` retires the clause (the unit ¬a). The core of
    the last UNSAT answer is kept: any puzzle that still holds all of its
    givens is unique too, with no solver call.

    The givens are assumed in a fixed order after a, those already kept for
    good first (in removal order), then the untried ones (latest to be tried
    first): consecutive calls then share a long prefix of assumptions, which
    the solver does not decide and propagate again.
    """

    ENCODING = "extended"  # coverage clauses let propagation see a symbol's last place

    def __init__(self, solution: Board, solver: _Solver, order: list[int]) -> None:
        from sudosat.sudoku.incremental import (
            counting_options,
            givens_as_assumptions,
            loaded_rules,
            new_activation,
        )

        self.solver_name = solver.name
        # A SAT answer only keeps a given (a wrong one could never make a puzzle
        # non-unique), and its model is never read: cdcl need not check it (the
        # counting options say so; the solver is count_solutions' own).
        options = counting_options(solver.name, **solver.options)
        # loaded_rules starts a new question: the last board's learnt clauses would only slow
        # this one
        self.solver, encoded = loaded_rules(solution.order, self.ENCODING, solver=solver.name,
                                            **options)
        self.activation = new_activation(self.solver, encoded)
        forbid = [-lit for lit in givens_as_assumptions(solution)]
        self.solver.add_clause([-self.activation, *forbid])
        self.size = solution.size
        self.position = {cell: k for k, cell in enumerate(order)}
        self.core: set[int] = set()

    def unique(self, cells: Sequence[int], trying: int, watch: _Watch) -> bool:
        """True when `cells` (cell `trying` just emptied) still has exactly one solution."""
        size, position = self.size, self.position
        now = position[trying]
        kept = sorted((position[cell], cell) for cell, value in enumerate(cells) if value)
        before = [cell for rank, cell in kept if rank < now]
        after = [cell for rank, cell in reversed(kept) if rank > now]
        givens = [cell * size + cells[cell] for cell in before + after]
        if self.core and self.core.issubset(givens):
            return True
        result = self.solver.solve([self.activation, *givens], deadline=watch.deadline)
        if result.stop is Stop.TIME or watch.deadline.expired():  # no answer within T
            watch.ran_out()
        if result.is_unknown:  # never read as unique: the solver gave up
            raise SolverError(f"{self.solver_name} gave no answer on a uniqueness check")
        if result.is_sat:
            return False
        self.core = set(self.solver.get_core() or []) - {self.activation}
        return True

    def close(self) -> None:
        """Retire this board's clause: the shared solver goes on with the rules alone."""
        self.solver.add_clause([-self.activation])


def _has_other_solution(
    puzzle: Board, index: int, value: int, solver: _Solver, watch: _Watch
) -> bool:
    """True when `puzzle` has a solution whose cell `index` differs from `value`."""
    from sudosat.run.results import Verdict
    from sudosat.run.runner import Prepared, run_instance
    from sudosat.sudoku.encoding import encode

    encoded = encode(puzzle, GENERATOR_ENCODING, check=watch.check)
    var = encoded.variable(*divmod(index, puzzle.size), value)
    if var is None:  # the reduction fixed the cell from its peers: nothing else fits there
        return False
    encoded.cnf.add_clause([-var])  # a fresh CNF of our own: safe to extend
    outcome = run_instance(puzzle, solver.name, Prepared(encoded), deadline=watch.deadline,
                           limit_covers="pipeline", **solver.options)
    if outcome.status is Verdict.TIMEOUT:
        watch.ran_out()
    if outcome.status not in (Verdict.SAT, Verdict.UNSAT):  # ERROR, or a solver that gave up
        why = f": {outcome.row.error}" if outcome.row.error else ""
        raise SolverError(f"{solver.name} gave no answer on a uniqueness check{why}")
    return outcome.status is Verdict.SAT


def _candidates(cells: Sequence[int], order: int, index: int) -> list[int]:
    """Symbols that cell `index` may hold given its row, column and box."""
    size = order * order
    i, j = divmod(index, size)
    top, left = i - i % order, j - j % order
    seen = {cells[i * size + k] for k in range(size)}
    seen.update(cells[k * size + j] for k in range(size))
    seen.update(cells[(top + r) * size + left + c] for r in range(order) for c in range(order))
    return [d for d in range(1, size + 1) if d not in seen]


def _naive_fill(order: int, target: int, rng: random.Random, watch: _Watch) -> Board:
    """Random consistent fill: cells in random order get a random symbol free in their units."""
    size = order * order
    cells = [0] * (size * size)
    placed = 0
    for tried, index in enumerate(_removal_order(size, rng, watch.check)):
        if placed >= target:
            break
        if not tried % size:
            watch.check()
        allowed = _candidates(cells, order, index)
        if allowed:  # a cell with no symbol left stays empty: the fill is consistent, not complete
            cells[index] = rng.choice(allowed)
            placed += 1
    return Board(order, cells)
