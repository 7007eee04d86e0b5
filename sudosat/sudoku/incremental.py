"""Incremental solving for Sudoku: load the rules once, give each puzzle's givens as assumptions.

Every 9×9 instance of the course encoding shares 11,745 rule clauses; only the
givens (unit clauses) differ. An incremental solver loads the rules once and
solves each puzzle *under assumptions* (MiniSat's ``solve(assumps)``): the
givens hold for that call only, and what the solver learnt from the rules
(every learnt clause follows from them) helps the next puzzle.

The solver side, opening any registered solver by name with assumptions
(:func:`open_solver`, :func:`incremental_support`, :class:`OneShot`), lives
in the solver registry (:mod:`sudosat.sat.solvers.registry`, adapters in
:mod:`sudosat.sat.solvers.incremental`) and is re-exported here. This module
holds the Sudoku side, from the bottom up:

:func:`rules`, :func:`givens_as_assumptions`
    The clauses of the empty board, and a puzzle's givens as literals.
:class:`LoadedRules`
    Solvers loaded with the rules, one per (solver, order, encoding,
    options), bounded, closed by their owner. :func:`loaded_rules` takes one
    from a cache (the caller's, or the process's default): what the
    pipeline's incremental mode (``sudosat solve --incremental``,
    :func:`sudosat.run.runner.run_instance` with ``incremental=True``) solves
    with; the same output line and results row as the default mode. A
    puzzle whose givens clash is UNSAT, and the row's ``error`` names the
    failed givens (the core).
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

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sudosat.errors import EncodingError, SolverError, SudosatError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Stop
from sudosat.sat.solvers.budget import Deadline, OutOfTime
from sudosat.sat.solvers.incremental import OneShot
from sudosat.sat.solvers.registry import incremental_support, open_solver
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import (
    DEFAULT_MAX_BYTES,
    Encoded,
    check_resources,
    encode,
    get_encoding,
)

__all__ = [
    "LoadedRules",
    "OneShot",
    "check_encoding",
    "count_solutions",
    "counting_options",
    "default_rules",
    "forget_loaded",
    "givens_as_assumptions",
    "incremental_support",
    "is_unique",
    "loaded_rules",
    "new_activation",
    "open_solver",
    "rules",
]


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
# the loaded rules, in a cache with an owner


class LoadedRules:
    """Solvers loaded with the rules: one per solver, order, encoding and options, a few at most.

    Whoever creates a cache owns it and decides its life: the pipeline run
    (closed when the run ends), a generator, a test, a notebook. The least
    recently used entry is closed when a new one would exceed `capacity`, and
    :meth:`close` closes them all; a cache is also a context manager that
    closes on exit. Callers that give none share the process's default cache
    (:func:`default_rules`, also bounded; :func:`forget_loaded` closes it).

    Parameters
    ----------
    capacity : int
        How many loaded solvers to keep, each holding a whole formula (by
        default 4: a run meets one setting per solver, a generator one more).

    Examples
    --------
    >>> with LoadedRules(capacity=1) as cache:
    ...     loaded, rules = cache.get("cdcl", 2, "course")
    ...     rules.num_vars, len(cache)
    (64, 1)
    >>> len(cache)
    0
    """

    def __init__(self, capacity: int = 4) -> None:
        if capacity < 1:
            raise ValueError(f"a rules cache holds at least one entry, got {capacity}")
        self.capacity = capacity
        self._entries: OrderedDict[tuple, tuple[Any, Encoded]] = OrderedDict()
        self.loads = 0  # rules built and loaded (a reuse costs none)

    def __len__(self) -> int:
        return len(self._entries)

    def __enter__(self) -> LoadedRules:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def get(
        self,
        solver: str,
        order: int,
        encoding: str,
        options: dict[str, Any] | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        deadline: Deadline | None = None,
    ) -> tuple[Any, Encoded]:
        """The loaded solver and rules for this key, building and loading them on first use.

        Raises
        ------
        OutOfTime
            `deadline` passed while the rules were built or loaded; nothing is
            kept, so the next instance tries again under its own deadline.
        """
        options = options or {}
        key = (solver, order, encoding, tuple(sorted(options.items())))
        if key in self._entries:
            self._entries.move_to_end(key)
            return self._entries[key]
        empty = Board(order, [0] * order**4)
        check_resources(empty, encoding, max_bytes)
        stop = deadline.check if deadline is not None and deadline.limited else None
        if stop is not None:
            stop()  # an instance that starts out of time loads nothing
        encoded = rules(order, encoding, check=stop)
        entry = (_load(solver, encoded.cnf, options, stop), encoded)
        while len(self._entries) >= self.capacity:
            _, (old, _) = self._entries.popitem(last=False)
            old.close()
        self._entries[key] = entry
        self.loads += 1
        return entry

    def close(self) -> None:
        """Close and drop every loaded solver."""
        while self._entries:
            _, (loaded, _) = self._entries.popitem(last=False)
            loaded.close()


_DEFAULT: LoadedRules | None = None


def default_rules() -> LoadedRules:
    """The cache shared by callers that bring none (created on first use, bounded)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = LoadedRules()
    return _DEFAULT


def forget_loaded() -> None:
    """Close every solver of the default cache (:func:`default_rules`)."""
    if _DEFAULT is not None:
        _DEFAULT.close()


_LOAD_CHUNK = 1 << 16
"""Literals and clause ends cdcl loads between two looks at the deadline: about 22,000
binary clauses (a 9x9 formula comes in one chunk). A count of work, not of time: the
deadline is looked at as often on a slow or busy machine as on a fast one."""


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
                loaded.append_formula(chunk)
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


# ---------------------------------------------------------------------------------------
# counting solutions


def count_solutions(
    board: Board,
    limit: int = 2,
    *,
    solver: str = "cdcl",
    encoding: str = "extended",
    deadline: Deadline | None = None,
    seed: int = 0,
    zchaff: str | None = None,
    cache: LoadedRules | None = None,
) -> int | None:
    """How many solutions keep the givens of `board`, counted up to `limit`.

    Returns 0, 1, ... or `limit` (read: at least `limit`); None when
    `deadline` passed first (building and loading the rules, and every solver
    call, run under it). The default encoding is ``extended``: its coverage
    clauses let propagation find a symbol's last place in a unit, which cuts
    the conflicts on hard 9×9 puzzles about eightfold against ``course``.
    The rules stay loaded in `cache` (default: the process's
    :func:`default_rules`; one solver per solver, order and encoding, as in
    :func:`loaded_rules`); each count
    solves under the givens, then adds "not this solution" behind a fresh
    activation variable a (the clause ¬a ∨ ¬solution, with a assumed), and
    retires the clauses with the unit ¬a at the end, so the next puzzle
    meets the rules alone (and what was learnt from them).

    Raises
    ------
    SudosatError
        The limit is below 1, the encoding depends on the givens, the solver
        fails or gives up (an incomplete method cannot count).

    Examples
    --------
    >>> count_solutions(Board.parse("1 1"))
    1
    """
    if limit < 1:
        raise SudosatError(f"the solution limit must be at least 1, got {limit}")
    deadline = deadline or Deadline(None)
    try:
        loaded, encoded = loaded_rules(
            board.order, encoding, solver=solver, deadline=deadline, cache=cache,
            **counting_options(solver, seed, zchaff),
        )
    except OutOfTime:
        return None
    activation = new_activation(loaded, encoded)
    assumptions = givens_as_assumptions(board)
    seen: set[tuple[int, ...]] = set()
    try:
        found = 0
        while found < limit:
            result = loaded.solve(assumptions, deadline=deadline)
            if result.is_unknown and result.stop is not Stop.TIME:
                raise SolverError(f"{solver} gave no answer ({result.stop}): it cannot count")
            if result.is_unknown or deadline.expired():  # an answer after the deadline is none
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


def counting_options(solver: str, seed: int = 0, zchaff: str | None = None) -> dict[str, Any]:
    """The options of the loaded solver that counts solutions (and checks uniqueness).

    cdcl is told not to check its models against the clauses (a twentieth of
    a uniqueness check's time): what a count uses of a model, the board it
    decodes to, is checked against the rules and the givens instead, and must
    differ from the solutions already counted.
    """
    if solver == "cdcl":
        return {"seed": seed, "check_model": 0}
    return {"seed": seed, "zchaff": zchaff} if solver == "zchaff" and zchaff else {"seed": seed}


def loaded_rules(
    order: int,
    encoding: str = "extended",
    *,
    solver: str = "cdcl",
    max_bytes: int = DEFAULT_MAX_BYTES,
    deadline: Deadline | None = None,
    cache: LoadedRules | None = None,
    **options: Any,
) -> tuple[Any, Encoded]:
    """A solver loaded with the rules, ready for a new question.

    One per (solver, order, encoding, options) in `cache` (default: the
    process's :func:`default_rules`), shared by the pipeline's incremental
    mode (:func:`sudosat.run.runner.run_instance`), :func:`count_solutions`
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
    cache = default_rules() if cache is None else cache
    loaded, encoded = cache.get(solver, order, encoding, options, max_bytes, deadline)
    _next_question(loaded)
    return loaded, encoded


def new_activation(loaded: Any, encoded: Encoded) -> int:
    """A variable no clause of `loaded` has named yet, to switch one question's clauses.

    Add each such clause with ``-a`` in it and assume ``a`` while they should
    hold; add the unit clause ``[-a]`` to retire them for good. The variable
    is the one after the highest the solver holds, so it is fresh until a
    clause names it: name it in a clause before asking for another.
    """
    return max(encoded.num_vars, loaded.num_vars) + 1


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
