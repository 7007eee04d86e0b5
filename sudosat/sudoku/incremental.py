"""Incremental solving for Sudoku: load the rules once, give each puzzle's givens as assumptions.

Every 9×9 instance of the course encoding shares 11,745 rule clauses; only the
givens (unit clauses) differ. An incremental solver loads the rules once and
solves each puzzle *under assumptions* (MiniSat's ``solve(assumps)``): the
givens hold for that call only, and what the solver learnt from the rules
(every learnt clause follows from them) helps the next puzzle.

Pieces, from the bottom up:

:func:`open_solver`
    One incremental interface over the solvers that have one: ``cdcl``
    (:class:`sudosat.sat.solvers.cdcl.Solver`) and ``pysat:NAME`` (PySAT's
    ``solve(assumptions=...)`` and ``get_core()``). Every other solver
    (``zchaff``, ``exec:``, ``dpll`` ...) gets :class:`OneShot`, which
    re-solves the clauses plus the assumptions as unit clauses on every call
    and says so (``native`` is False, :func:`incremental_support` tells why).
:func:`loaded_rules`
    What the pipeline's incremental mode (``sudosat solve --incremental``,
    :func:`sudosat.run.runner.run_instance` with ``incremental=True``) solves
    with: one loaded solver per (solver, order, encoding, options) in each
    worker process; the same output line and results row as the default
    mode. A puzzle whose givens clash is UNSAT, and the row's ``error``
    names the failed givens (the core).
:func:`count_solutions`
    0, 1, ... up to a limit: solve, block the solution's open cells, solve again.
:func:`new_activation`
    For callers of :func:`loaded_rules` with questions of their own (counting,
    the generator's uniqueness checks): clauses for one question go behind a
    fresh activation literal and are retired after it.

Building and loading the rules happen under the first instance's deadline:
the encoder looks at it before each at-most-one group, and a large formula
goes into cdcl in chunks with a look between them, so an order too big for T
answers TIMEOUT within T instead of loading for seconds (nothing half-loaded
is kept).

Only encodings whose clauses do not depend on the givens can work this way
(``course``, ``minimal``, ``extended``, ``course-seq``, ``course-product``):
the optimised encodings are built from the givens, and are refused with a
message that says so (:func:`check_encoding`).

Examples
--------
>>> from sudosat.sudoku.board import Board
>>> count_solutions(Board.parse("2 " + "0" * 16), limit=3)
3
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from sudosat.errors import EncodingError, SolverError, SudosatError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status
from sudosat.sat.solvers.base import make_result, verify_result
from sudosat.sat.solvers.budget import Deadline, OutOfTime
from sudosat.sat.solvers.registry import get_solver
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import (
    DEFAULT_MAX_BYTES,
    Encoded,
    check_resources,
    encode,
    get_encoding,
)

__all__ = [
    "OneShot",
    "check_encoding",
    "count_solutions",
    "counting_options",
    "givens_as_assumptions",
    "incremental_support",
    "is_unique",
    "loaded_rules",
    "new_activation",
    "open_solver",
    "rules",
]


# ---------------------------------------------------------------------------------------
# one interface over the solvers


def incremental_support(solver: str) -> tuple[bool, str]:
    """Whether `solver` solves under assumptions natively, and if not, why.

    Examples
    --------
    >>> incremental_support("cdcl")
    (True, '')
    >>> incremental_support("zchaff")[0]
    False
    """
    if solver == "cdcl":
        return True, ""
    if solver.startswith("pysat:"):
        from sudosat.sat.solvers.pysat import ONE_SHOT_BACKENDS, canonical_backend

        try:
            backend = canonical_backend(solver[len("pysat:") :])
        except SolverError as exc:
            return False, exc.reason
        if backend in ONE_SHOT_BACKENDS:
            return False, f"{solver} is not incremental in PySAT; each call runs one-shot"
        return True, ""
    return False, f"{solver} has no incremental interface; each call runs one-shot"


def open_solver(solver: str, cnf: CNF, *, seed: int = 0, **options: Any):
    """An incremental solver loaded with `cnf`.

    The object has ``solve(assumptions=(), time_limit_ms=None) -> Result``
    (answers checked: a model satisfies the clauses and the assumptions),
    ``get_core()``, ``add_clause(clause)``, ``close()``, and ``native`` (False
    for the one-shot fallback).

    Parameters
    ----------
    solver : str
        A registered solver name.
    cnf : CNF
        The clauses to load.
    seed : int
    **options
        The solver's own options (cdcl's tunables, ``zchaff=PATH`` ...).
    """
    if solver == "cdcl":
        from sudosat.sat.solvers.cdcl import Solver

        return _Cdcl(Solver(cnf, seed=seed, **options))
    if incremental_support(solver)[0]:
        return _PySat(solver, cnf)
    return OneShot(solver, cnf, seed=seed, **options)


class _Cdcl:
    """cdcl's Solver with the adapter's ``close`` and ``native``."""

    native = True

    def __init__(self, solver) -> None:
        self.solver = solver

    def solve(self, assumptions: Sequence[int] = (), time_limit_ms: float | None = None) -> Result:
        return self.solver.solve(assumptions, time_limit_ms)

    def get_core(self) -> list[int] | None:
        return self.solver.get_core()

    def add_clause(self, clause: Iterable[int]) -> None:
        self.solver.add_clause(list(clause))

    def next_question(self) -> None:
        """Drop what the last question taught (see :meth:`Solver.next_question`)."""
        self.solver.next_question()

    def close(self) -> None:
        self.solver.delete()


class _PySat:
    """A PySAT solver kept loaded; assumptions and cores are PySAT's own."""

    native = True

    def __init__(self, name: str, cnf: CNF) -> None:
        from pysat.solvers import Solver

        from sudosat.sat.solvers.pysat import canonical_backend

        self.name = name
        self.formula = cnf.copy()
        self.solver = Solver(name=canonical_backend(name[len("pysat:") :]))
        self.empty = cnf.has_empty_clause
        self.solver.append_formula([clause for clause in cnf if clause])
        self.core: list[int] | None = None

    def add_clause(self, clause: Iterable[int]) -> None:
        lits = list(clause)
        self.formula.add_clause(lits)
        self.empty = self.empty or not lits
        if lits:
            self.solver.add_clause(lits)

    def solve(self, assumptions: Sequence[int] = (), time_limit_ms: float | None = None) -> Result:
        from sudosat.sat.solvers.pysat import full_model, limited_search, solver_stats

        started = time.perf_counter()
        assumptions = list(assumptions)
        self.formula.num_vars = max(self.formula.num_vars, *map(abs, assumptions), 0)
        self.core = None
        if self.empty:
            self.core = []
            return make_result(Status.UNSAT, None, {}, started, self.name)
        answer = limited_search(self.solver, Deadline(time_limit_ms), assumptions)
        stats = solver_stats(self.solver)
        if answer is None:
            return make_result(Status.UNKNOWN, None, stats, started, self.name)
        if not answer:
            failed = set(self.solver.get_core() or [])
            self.core = [q for q in assumptions if q in failed]
            return make_result(Status.UNSAT, None, stats, started, self.name)
        model = full_model(self.solver.get_model() or [], self.formula.num_vars)
        result = make_result(Status.SAT, model, stats, started, self.name)
        _verify(self.formula, result, assumptions)
        return result

    def get_core(self) -> list[int] | None:
        return self.core

    def close(self) -> None:
        self.solver.delete()


class OneShot:
    """The fallback for solvers without assumptions: clauses + assumptions as units, each call.

    The core it reports is every assumption (true, not minimal): a one-shot
    run says nothing about which of them failed.
    """

    native = False

    def __init__(self, solver: str, cnf: CNF, *, seed: int = 0, **options: Any) -> None:
        self.name = solver
        self.function = get_solver(solver)
        self.formula = cnf.copy()
        self.options = {"seed": seed, **options}
        self.core: list[int] | None = None

    def add_clause(self, clause: Iterable[int]) -> None:
        self.formula.add_clause(list(clause))

    def solve(self, assumptions: Sequence[int] = (), time_limit_ms: float | None = None) -> Result:
        cnf = self.formula.copy()
        for lit in assumptions:
            cnf.add_clause([lit])
        result = self.function(cnf, time_limit_ms=time_limit_ms, **self.options)
        result.solver = result.solver or self.name
        verify_result(cnf, result)
        self.core = list(assumptions) if result.is_unsat else None
        return result

    def get_core(self) -> list[int] | None:
        return self.core

    def close(self) -> None:
        self.formula = CNF()


def _next_question(loaded: Any) -> None:
    """Tell a loaded solver that an unrelated question (another puzzle) comes next.

    cdcl then drops its long learnt clauses: valid for every puzzle, but those
    of one hard puzzle only slow the next one down (measured on top2365: the
    median search time of a sequence of puzzles fell from 17 to 11 ms). When
    the puzzles so far took many conflicts, it also ranks its variables anew
    on what the next puzzle's givens leave (see ``Solver.next_question``).
    """
    forget = getattr(loaded, "next_question", None)
    if forget is not None:
        forget()


def _verify(cnf: CNF, result: Result, assumptions: Sequence[int]) -> None:
    """A SAT answer satisfies every clause and every assumption, or SolverError."""
    verify_result(cnf, result)
    model = result.model or []
    for lit in assumptions:
        if model[abs(lit) - 1] != lit:
            raise SolverError(f"{result.solver} returned a model that breaks the assumption {lit}")


# ---------------------------------------------------------------------------------------
# Sudoku rules and givens


def check_encoding(encoding: str) -> None:
    """Refuse an encoding whose clauses depend on the givens (the optimised ones).

    Raises
    ------
    EncodingError
        Unknown, or reduced by the givens (its rules cannot be loaded once).
    """
    spec = get_encoding(encoding)
    if spec.reduced:
        raise EncodingError(
            f"encoding {spec.name!r} is built from the givens, so its rules cannot be loaded "
            "once: incremental solving needs course, minimal, extended, course-seq or "
            "course-product"
        )


def rules(
    order: int, encoding: str = "course", *, check: Callable[[], None] | None = None
) -> Encoded:
    """The rules of `encoding` at `order`: the encoding of the empty board (no givens).

    The rule clauses are built once per process (:func:`sudosat.sudoku.encoding.encode`
    keeps them); each call returns its own copy. `check` is passed to the
    build (a deadline: see :func:`encode`).
    """
    check_encoding(encoding)
    return encode(Board(order, [0] * order**4), encoding, check=check)


def givens_as_assumptions(board: Board) -> list[int]:
    """One positive literal x(i, j, d) per given, in the course numbering (every full encoding's).

    Examples
    --------
    >>> givens_as_assumptions(Board.parse("1 1"))
    [1]
    """
    size = board.size
    return [cell * size + value for cell, value in enumerate(board.cells) if value]


def name_givens(literals: Iterable[int], order: int) -> str:
    """Givens as ``(row, column)=symbol``, 1-based: ``(1, 1)=5 (3, 1)=5``."""
    size = order * order
    names = []
    for lit in literals:
        cell, d = divmod(lit - 1, size)
        i, j = divmod(cell, size)
        names.append(f"({i + 1}, {j + 1})={d + 1}")
    return " ".join(names)


# ---------------------------------------------------------------------------------------
# the pipeline's incremental mode

# (solver, order, encoding, options) -> (loaded solver, rules). One per worker process:
# workers are separate interpreters, each loads the rules of what it meets once.
_LOADED: dict[tuple, tuple[Any, Encoded]] = {}


def _loaded(
    solver: str,
    order: int,
    encoding: str,
    options: dict[str, Any],
    max_bytes: int,
    deadline: Deadline | None = None,
):
    """The loaded solver and rules for this key, building and loading them on first use.

    Raises
    ------
    OutOfTime
        `deadline` passed while the rules were built or loaded; nothing is kept,
        so the next instance tries again under its own deadline.
    """
    key = (solver, order, encoding, tuple(sorted(options.items())))
    if key not in _LOADED:
        empty = Board(order, [0] * order**4)
        check_resources(empty, encoding, max_bytes)
        stop = deadline.check if deadline is not None and deadline.limited else None
        if stop is not None:
            stop()  # an instance that starts out of time loads nothing
        encoded = rules(order, encoding, check=stop)
        _LOADED[key] = (_load(solver, encoded.cnf, options, stop), encoded)
    return _LOADED[key]


_LOAD_CHUNK = 1 << 16
"""Literals and clause ends cdcl loads between two looks at the deadline: about 22,000
binary clauses, 20-70 ms on this machine (order 5's course rules, 2.3 million entries,
come in 35 chunks; a 9x9 formula in one)."""


def _load(solver: str, cnf: CNF, options: dict[str, Any], stop: Callable[[], None] | None):
    """`solver` loaded with `cnf`; `stop` is called between chunks (it may raise OutOfTime).

    cdcl's loader has no deadline of its own, so under a deadline a large
    formula goes in chunks of whole clauses; PySAT loads in C, the one-shot
    fallback only copies. A load cut short is closed, never kept.
    """
    if stop is None or solver != "cdcl" or len(cnf.flat) <= _LOAD_CHUNK:
        loaded = open_solver(solver, cnf, **options)
    else:
        loaded = open_solver(solver, CNF(num_vars=cnf.num_vars), **options)
        try:
            for chunk in _chunks(cnf, _LOAD_CHUNK):
                stop()
                loaded.solver.append_formula(chunk)
        except BaseException:
            loaded.close()
            raise
    if stop is not None:
        try:
            stop()
        except OutOfTime:
            loaded.close()
            raise
    return loaded


def _chunks(cnf: CNF, entries: int) -> Iterator[CNF]:
    """`cnf` as consecutive formulas of about `entries` flat entries each, cut between clauses."""
    flat, start, end_all = cnf.flat, 0, len(cnf.flat)
    while start < end_all:
        end = flat.index(0, min(start + entries, end_all) - 1) + 1
        yield CNF.from_flat(flat[start:end], cnf.num_vars)
        start = end


def forget_loaded() -> None:
    """Close and drop every solver this process keeps loaded."""
    for loaded, _ in _LOADED.values():
        loaded.close()
    _LOADED.clear()
    _ACTIVATION.clear()


# ---------------------------------------------------------------------------------------
# counting solutions


def count_solutions(
    board: Board,
    limit: int = 2,
    *,
    solver: str = "cdcl",
    encoding: str = "extended",
    time_limit_ms: float | None = None,
    seed: int = 0,
) -> int | None:
    """How many solutions keep the givens of `board`, counted up to `limit`.

    Returns 0, 1, ... or `limit` (read: at least `limit`); None when the time
    limit ran out first. The default encoding is ``extended``: its coverage
    clauses let propagation find a symbol's last place in a unit, which cuts
    the conflicts on hard 9×9 puzzles about eightfold against ``course``.
    The rules stay loaded in this process (one solver
    per solver, order and encoding, as in :func:`loaded_rules`); each count
    solves under the givens, then adds "not this solution" behind a fresh
    activation variable a (the clause ¬a ∨ ¬solution, with a assumed), and
    retires the clauses with the unit ¬a at the end, so the next puzzle
    meets the rules alone (and what was learnt from them).

    Raises
    ------
    SudosatError
        The limit is below 1, the encoding depends on the givens, the solver fails.

    Examples
    --------
    >>> count_solutions(Board.parse("1 1"))
    1
    """
    if limit < 1:
        raise SudosatError(f"the solution limit must be at least 1, got {limit}")
    deadline = Deadline(time_limit_ms)
    try:
        loaded, encoded = loaded_rules(
            board.order, encoding, solver=solver, deadline=deadline,
            **counting_options(solver, seed),
        )
    except OutOfTime:
        return None
    activation = new_activation(loaded, encoded)
    assumptions = givens_as_assumptions(board)
    seen: set[tuple[int, ...]] = set()
    try:
        found = 0
        while found < limit:
            result = loaded.solve(assumptions, deadline.remaining_or_none())
            if result.is_unknown:
                return None
            if result.is_unsat:
                return found
            found += 1
            solution = encoded.decode(result.model or [])
            cells = tuple(solution.cells)
            if check_solution(board, solution) is not None or cells in seen:
                raise SolverError(f"{solver} returned a model that is not a new solution")
            seen.add(cells)
            loaded.add_clause([-activation, *_blocking_clause(board, solution)])
            if found == 1:
                assumptions = [*assumptions, activation]
        return found
    finally:
        loaded.add_clause([-activation])


def counting_options(solver: str, seed: int = 0) -> dict[str, Any]:
    """The options of the loaded solver that counts solutions (and checks uniqueness).

    cdcl is told not to check its models against the clauses (a twentieth of
    a uniqueness check's time): what a count uses of a model, the board it
    decodes to, is checked against the rules and the givens instead, and must
    differ from the solutions already counted.
    """
    return {"seed": seed, "check_model": 0} if solver == "cdcl" else {"seed": seed}


# loaded solver's id -> the last activation variable it was given (see new_activation)
_ACTIVATION: dict[int, int] = {}


def loaded_rules(
    order: int,
    encoding: str = "extended",
    *,
    solver: str = "cdcl",
    max_bytes: int = DEFAULT_MAX_BYTES,
    deadline: Deadline | None = None,
    **options: Any,
) -> tuple[Any, Encoded]:
    """The solver this process keeps loaded with the rules, ready for a new question.

    One per (solver, order, encoding, options), shared by the pipeline's
    incremental mode (:func:`sudosat.run.runner.run_instance`), :func:`count_solutions`
    and the generator: the first call builds and loads the rules (behind the
    memory guard, under `deadline`), later calls reuse them, and every call
    tells the solver an unrelated question comes next. Do not alter the rules
    returned; a caller that adds clauses for one question puts them behind
    :func:`new_activation` and retires them after, so the next question meets
    the rules alone.

    Raises
    ------
    EncodingError
        The encoding depends on the givens (see :func:`check_encoding`).
    ResourceLimitError
        The rules would not fit in `max_bytes`.
    OutOfTime
        `deadline` passed while the rules were built or loaded.
    """
    check_encoding(encoding)
    loaded, encoded = _loaded(solver, order, encoding, options, max_bytes, deadline)
    _next_question(loaded)
    return loaded, encoded


def new_activation(loaded: Any, encoded: Encoded) -> int:
    """A variable no clause of `loaded` has named yet, to switch one question's clauses.

    Add each such clause with ``-a`` in it and assume ``a`` while they should
    hold; add the unit clause ``[-a]`` to retire them for good.
    """
    activation = _ACTIVATION[id(loaded)] = _ACTIVATION.get(id(loaded), encoded.num_vars) + 1
    return activation


def is_unique(board: Board, *, solver: str = "cdcl", encoding: str = "extended") -> bool:
    """True when exactly one solution keeps the givens of `board`.

    Examples
    --------
    >>> is_unique(Board.parse("2 " + "0" * 16))
    False
    """
    return count_solutions(board, 2, solver=solver, encoding=encoding) == 1


def _blocking_clause(puzzle: Board, solution: Board) -> list[int]:
    """The clause that forbids `solution` (its open cells; the givens are assumed anyway)."""
    size = puzzle.size
    return [
        -(cell * size + value)
        for cell, (given, value) in enumerate(zip(puzzle.cells, solution.cells, strict=True))
        if not given
    ]
