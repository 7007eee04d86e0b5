"""One instance, end to end: the only parse → encode → solve → decode → check in the package.

:func:`run_instance` is what the batch, the studies, the workbench, the report
pages and the generator call to solve one board with one solver. It runs

1. the memory guard (:func:`sudosat.sudoku.encoding.check_resources`): a formula
   that would not fit is an ERROR row, never built;
2. the encoding, stopped when the time limit runs out;
3. the solver, with what is left of the limit;
4. decoding the model and checking the board (:func:`~sudosat.sudoku.board.check_solution`);

and returns an :class:`InstanceOutcome`: the results :class:`~sudosat.run.results.Row`,
the solved board, the output line, and the solver's own answer.

The time limit T has one of two meanings, chosen by the caller
(``limit_covers``), never implied:

``"pipeline"`` (the batch, ``sudosat solve``)
    T bounds everything: the clock starts before the memory guard, the solver
    gets what is left, and when the encoding alone uses up T the answer is
    TIMEOUT.
``"solver"`` (the studies, the workbench, the report's comparisons)
    T is the solver's alone; building the formula is not counted against it.

The formula is a registered encoding's name (built here), or a
:class:`Prepared` formula built by the caller (a study shares one encoding
between solvers, the workbench builds formulas from its clause-family
switches, the generator adds a clause): anything with ``cnf``, ``board``,
``encoding`` and ``decode(model)``. With ``incremental=True`` the rules are
loaded once into an incremental solver kept in a cache (`rules`, the
caller's :class:`~sudosat.sudoku.incremental.LoadedRules`, or the process's
default; :func:`sudosat.sudoku.incremental.loaded_rules`) and the givens are
assumptions.

Work budgets (``max_conflicts``, ``max_propagations`` among the solver
options) go to the solver on every path; an answer they end is UNKNOWN (the
output line ``N UNKNOWN``), never TIMEOUT, which stays the word for T.

Examples
--------
>>> from sudosat.sudoku.board import Board
>>> outcome = run_instance(Board.parse("1 0"), "cdcl")
>>> outcome.output_line, str(outcome.row["status"]), outcome.row["valid"]
('1 1', 'SAT', True)
"""

from __future__ import annotations

import contextlib
import math
import resource
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from sudosat.errors import SudosatError
from sudosat.run.results import Row, Verdict, format_output, one_line
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result
from sudosat.sat.solvers.budget import BUDGETS, Clock, Deadline, OutOfTime, budget_stop
from sudosat.sat.solvers.registry import check_budgets, get_solver, incremental_support, solve
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import DEFAULT_MAX_BYTES, check_resources, encode

__all__ = [
    "LIMIT_POLICIES",
    "Formula",
    "InstanceOutcome",
    "Prepared",
    "blank_row",
    "failed_outcome",
    "overhead_ms",
    "own_search_ms",
    "prepare",
    "run_instance",
]

LIMIT_POLICIES = ("pipeline", "solver")
"""What the time limit bounds: the whole pipeline, or the solver call alone."""

_STAT_COLUMNS = ("decisions", "conflicts", "propagations")


class Formula(Protocol):
    """A built formula as :func:`run_instance` uses it (an :class:`~.encoding.Encoded`)."""

    cnf: CNF
    board: Board

    @property
    def encoding(self) -> str: ...

    def decode(self, model: Iterable[int]) -> Board: ...


@dataclass(frozen=True)
class Prepared:
    """A formula built before :func:`run_instance` runs, and what building it took.

    Attributes
    ----------
    formula : Formula
    encode_ms : float or None
        Milliseconds spent building it (the row's ``encode_ms``).
    loaded : incremental solver, optional
        A solver (:func:`sudosat.sat.solvers.registry.open_solver`) already holding
        every clause of `formula` but the `assumptions`: it answers instead of
        a fresh solver, the assumptions holding for that call only (the
        workbench re-solves this way while only the givens change).
    assumptions : tuple of int
        The literals `loaded` is asked to assume (the givens).
    """

    formula: Any
    encode_ms: float | None = None
    loaded: Any = None
    assumptions: tuple[int, ...] = ()


def prepare(board: Board, encoding: str, *, max_bytes: int | None = None) -> Prepared:
    """Build `encoding` of `board` once, behind the memory guard, to share between runs.

    Raises
    ------
    ResourceLimitError
        The formula would need more than `max_bytes` (default the guard's own).
    EncodingError
        The encoding is unknown.
    """
    started = time.perf_counter()
    check_resources(board, encoding, DEFAULT_MAX_BYTES if max_bytes is None else max_bytes)
    encoded = encode(board, encoding)
    return Prepared(encoded, _ms_since(started))


@dataclass
class InstanceOutcome:
    """What one instance came to with one solver.

    Attributes
    ----------
    row : Row
        The results-table row.
    solution : Board or None
        The solved board (givens included) when the verdict is SAT.
    output_line : str
        The output file's line: the solved board (``Board.to_line()``),
        ``N UNSAT``, ``N TIMEOUT`` or ``ERROR <reason>``.
    puzzle : Board or None
        The input board, when the line could be read.
    result : Result or None
        The solver's own answer (with its model), when the solver ran.
    formula : Formula or None
        The formula the solver was given, when it was built (drop the
        outcome to free it: a big order's formula holds millions of clauses).
    stage_ms : dict
        Milliseconds per stage, finer than the row: ``decode`` and ``check``
        apart (the row's ``decode_ms`` is their sum).
    """

    row: Row
    solution: Board | None
    output_line: str
    puzzle: Board | None = None
    result: Result | None = field(default=None, repr=False)
    formula: Any = field(default=None, repr=False)
    stage_ms: dict[str, float] = field(default_factory=dict)

    @property
    def status(self) -> Verdict:
        """SAT, UNSAT, TIMEOUT, UNKNOWN (a work budget ran out) or ERROR."""
        return self.row.status or Verdict.ERROR


class _Clock:
    """The time limit under its policy, and the wall clock of the whole run."""

    def __init__(self, time_limit_ms: float | None, covers: str, clock: Clock | str) -> None:
        if covers not in LIMIT_POLICIES:
            raise ValueError(f"limit_covers must be one of {LIMIT_POLICIES}, got {covers!r}")
        self.started = time.perf_counter()
        self.covers = covers
        limit = Deadline(time_limit_ms, clock=clock)
        # T's deadline; with limit_covers="solver" it restarts when the solver starts
        self.limit = limit
        self.deadline = limit if covers == "pipeline" else Deadline(None, clock=clock)

    def for_solver(self) -> Deadline:
        """The deadline the solver runs under (a fresh one when T is the solver's alone)."""
        if self.covers == "solver":
            self.deadline = self.limit.restarted()
        return self.deadline

    def elapsed_ms(self) -> float:
        return _ms_since(self.started)


@dataclass
class _Run:
    """One call's fixed parts and the row being filled in."""

    board: Board
    solver: str
    clock: _Clock
    draft: dict[str, Any]
    options: dict[str, Any]
    max_bytes: int | None
    memory_guard: bool
    budgets: dict[str, Any] = field(default_factory=dict)
    rules: Any = None

    def outcome(self, verdict: Verdict, **extra: Any) -> InstanceOutcome:
        """The outcome of this run with `verdict` (UNSAT, TIMEOUT or ERROR), total time stamped."""
        reason = extra.pop("error", None)
        self.draft.update(status=verdict, total_ms=_round(self.clock.elapsed_ms()), error=reason)
        self.draft["overhead_ms"] = overhead_ms(self.draft)
        output = format_output(verdict, order=self.board.order, reason=reason)
        self.draft["output"] = output
        return InstanceOutcome(Row(**self.draft), None, output, self.board, **extra)


def run_instance(
    board: Board,
    solver: str = "cdcl",
    encoding: str | Prepared = "course",
    time_limit_ms: float | None = None,
    *,
    limit_covers: str = "pipeline",
    memory_guard: bool = True,
    max_bytes: int | None = None,
    incremental: bool = False,
    line: int | None = None,
    rules: Any = None,
    clock: Clock | str = Clock.WALL,
    **solver_options: Any,
) -> InstanceOutcome:
    """Encode, solve, decode and check one board under one time limit.

    Parameters
    ----------
    board : Board
        The puzzle (its givens may clash: the answer is then UNSAT).
    solver : str
        A registered solver name (``cdcl``, ``zchaff``, ``pysat:minisat22`` ...).
    encoding : str or Prepared
        A registered encoding's name, or a formula already built.
    time_limit_ms : float, optional
        T; None for none.
    limit_covers : {"pipeline", "solver"}
        What T bounds (see the module docstring).
    memory_guard : bool
        Refuse a formula bigger than `max_bytes` before building it (only
        for an encoding given by name: a prepared one is built already).
    max_bytes : int, optional
        The memory guard's limit (default :data:`~sudosat.sudoku.encoding.DEFAULT_MAX_BYTES`).
    incremental : bool
        Solve with the rules loaded once (kept in `rules`) and the givens as
        assumptions; a solver without assumptions runs the default way.
    line : int, optional
        The input line number, for the row.
    clock : {"wall", "cpu"}
        The clock T is measured on: wall time (the course's T, what a user
        waits) or this process's CPU time (the studies: the same verdicts on a
        quiet and on a busy machine).
    rules : LoadedRules, optional
        The cache of loaded rules the incremental mode uses (its owner closes
        it); default the process's own (:func:`~sudosat.sudoku.incremental.default_rules`).
    **solver_options
        Passed to the solver (``seed``, ``zchaff``, ``max_conflicts``,
        ``max_propagations`` ...).

    Returns
    -------
    InstanceOutcome
        Never raises for a bad instance, an unavailable or crashing solver, or
        a refused encoding: those become an ERROR row whose ``error`` says why.
    """
    _import_solver(solver)
    timing = _Clock(time_limit_ms, limit_covers, clock)
    name = encoding if isinstance(encoding, str) else encoding.formula.encoding
    options = dict(solver_options)
    budgets = {key: options.pop(key) for key in BUDGETS if options.get(key) is not None}
    for key in BUDGETS:
        options.pop(key, None)
    run = _Run(board, solver, timing, _draft(line, solver, name, board), options, max_bytes,
               memory_guard, budgets, rules)
    try:
        if incremental and isinstance(encoding, str) and _has_assumptions(solver):
            return _incremental_stages(run, encoding)
        return _stages(run, encoding)
    except SudosatError as exc:
        return failed_outcome(run.draft, exc.reason, timing.elapsed_ms(), board)
    except MemoryError:
        return failed_outcome(run.draft, "out of memory", timing.elapsed_ms(), board)
    except Exception as exc:  # a solver's bug must cost one line, not the whole batch
        reason = f"crashed: {type(exc).__name__}: {exc}"
        return failed_outcome(run.draft, reason, timing.elapsed_ms(), board)


def _import_solver(solver: str) -> None:
    """Import the solver's module before the clock starts: T is for solving, not for imports.

    A name that fails here fails again inside the pipeline, which reports it.
    """
    with contextlib.suppress(Exception):
        get_solver(solver)


def _has_assumptions(solver: str) -> bool:
    return incremental_support(solver)[0]


def _draft(line: int | None, solver: str, encoding: str, board: Board | None) -> dict[str, Any]:
    draft: dict[str, Any] = {"line": line, "solver": solver, "encoding": encoding}
    if board is not None:
        draft.update(order=board.order, givens=board.num_givens)
    return draft


def failed_outcome(
    draft: dict[str, Any] | Row,
    reason: str,
    elapsed_ms: float | None = None,
    board: Board | None = None,
) -> InstanceOutcome:
    """The ERROR outcome of an instance that could not be answered, and why.

    Parameters
    ----------
    draft : dict or Row
        The columns known so far (line, solver, encoding ...).
    reason : str
        Why; folded to one line.
    elapsed_ms : float, optional
        The time spent, for ``total_ms``.
    board : Board, optional
        The puzzle, when it could be read.
    """
    reason = one_line(reason)
    values = dict(draft)
    output = format_output(Verdict.ERROR, reason=reason)
    values.update(status=Verdict.ERROR, error=reason, output=output)
    if elapsed_ms is not None:
        values["total_ms"] = _round(elapsed_ms)
    values["overhead_ms"] = overhead_ms(values)
    return InstanceOutcome(Row.from_dict(values) if isinstance(draft, Row) else Row(**values),
                           None, output, board)


def blank_row(line: int | None, solver: str, encoding: str, board: Board | None = None) -> Row:
    """A row with only the instance's identity filled in (line, solver, encoding, order, givens)."""
    return Row(**_draft(line, solver, encoding, board))


# ---------------------------------------------------------------------------------------
# the stages


def _stages(run: _Run, encoding: str | Prepared) -> InstanceOutcome:
    if isinstance(encoding, str):
        built = _build(run, encoding)
        if isinstance(built, InstanceOutcome):
            return built
        formula = built
    else:
        formula = encoding.formula
        run.draft["encode_ms"] = encoding.encode_ms
    run.draft.update(variables=formula.cnf.num_vars, clauses=formula.cnf.num_clauses)
    if run.clock.deadline.expired():
        return run.outcome(Verdict.TIMEOUT, error="the time limit ran out while encoding",
                           formula=formula)
    deadline = run.clock.for_solver()
    prepared = None if isinstance(encoding, str) else encoding
    loaded = None if prepared is None else prepared.loaded
    with _SolveTimer(run.draft) as timer:
        if prepared is None or loaded is None:
            result = solve(formula.cnf, run.solver, time_limit_ms=deadline.remaining_or_none(),
                           **run.budgets, **run.options)
        else:
            check_budgets(run.solver, **run.budgets)
            result = loaded.solve(list(prepared.assumptions), deadline.remaining_or_none(),
                                  **run.budgets)
    run.draft.update({key: _count(result.stats.get(key)) for key in _STAT_COLUMNS})
    if loaded is None:  # a loaded solver's load happened before this call
        run.draft["load_ms"] = _optional_ms(result.stats.get("load_ms"))
        run.draft["search_ms"] = own_search_ms(result.stats)
    else:  # the clauses are loaded already: the call under assumptions is the search
        run.draft["search_ms"] = own_search_ms(result.stats, timer.wall_ms)
    return _conclude(run, formula, result, deadline)


def _build(run: _Run, encoding: str) -> Any:
    """The encoding of the board, or the TIMEOUT outcome when it cannot be built within T."""
    started = time.perf_counter()
    deadline = run.clock.deadline
    # No up-front guess of how long the build takes (a rate would be one machine's): the
    # size count and the encoder look at the deadline as they go and stop there.
    try:
        if run.memory_guard:
            limit = DEFAULT_MAX_BYTES if run.max_bytes is None else run.max_bytes
            check_resources(run.board, encoding, limit, check=deadline.check)
        encoded = encode(run.board, encoding, check=deadline.check)
    except OutOfTime:
        run.draft["encode_ms"] = _ms_since(started)
        return run.outcome(Verdict.TIMEOUT, error="the time limit ran out while encoding")
    run.draft["encode_ms"] = _ms_since(started)
    return encoded


def _conclude(run: _Run, formula: Any, result: Result, deadline: Deadline) -> InstanceOutcome:
    """UNSAT, TIMEOUT, UNKNOWN, or the decoded board checked against the puzzle."""
    stopped = budget_stop(result.stats)
    out_of_time = deadline.expired() or result.out_of_time
    verdict = Verdict.from_status(result.status, stopped, out_of_time)
    if verdict is Verdict.UNKNOWN:
        why = (f"the work budget ran out ({stopped}={run.budgets.get(stopped or '')})"
               if stopped else "the solver gave up without a decision, with time left")
        return run.outcome(verdict, error=why, result=result, formula=formula)
    if verdict is Verdict.UNSAT:
        clash = run.board.first_conflict()
        error = f"the givens clash: {clash}" if clash else None
        return run.outcome(verdict, error=error, result=result, formula=formula)
    if verdict is Verdict.TIMEOUT:
        why = "the time limit ran out while solving"
        return run.outcome(verdict, error=why, result=result, formula=formula)
    started = time.perf_counter()
    solution = formula.decode(result.model or [])
    decoded = time.perf_counter()
    problem = check_solution(run.board, solution)
    stage_ms = {"decode": (decoded - started) * 1000.0,
                "check": (time.perf_counter() - decoded) * 1000.0}
    run.draft["decode_ms"] = _ms_since(started)
    if problem is not None:
        run.draft["valid"] = False
        outcome = failed_outcome(run.draft, f"the decoded board is not a solution: {problem}",
                                 run.clock.elapsed_ms(), run.board)
        outcome.result, outcome.formula, outcome.stage_ms = result, formula, stage_ms
        return outcome
    output = format_output(Verdict.SAT, solution=solution)
    run.draft.update(status=Verdict.SAT, valid=True, total_ms=_round(run.clock.elapsed_ms()),
                     output=output)
    run.draft["overhead_ms"] = overhead_ms(run.draft)
    return InstanceOutcome(Row(**run.draft), solution, output, run.board, result, formula,
                           stage_ms)


def _incremental_stages(run: _Run, encoding: str) -> InstanceOutcome:
    """The stages with the rules loaded once (kept in the cache) and the givens as assumptions.

    ``encode_ms`` counts building the assumptions (and, for the first puzzle
    of an order, building and loading the rules), ``clauses`` the rules plus
    one per given. A puzzle whose givens clash is UNSAT, and the row's
    ``error`` names the failed givens (the solver's core).
    """
    from sudosat.sudoku.incremental import givens_as_assumptions, loaded_rules, name_givens

    started = time.perf_counter()
    limit = DEFAULT_MAX_BYTES if run.max_bytes is None else run.max_bytes
    check_budgets(run.solver, **run.budgets)  # before loading: a refusal costs nothing
    try:
        loaded, rules = loaded_rules(
            run.board.order, encoding, solver=run.solver, max_bytes=limit,
            deadline=run.clock.deadline, cache=run.rules, **run.options,
        )
    except OutOfTime:
        run.draft["encode_ms"] = _ms_since(started)
        return run.outcome(
            Verdict.TIMEOUT, error="the time limit ran out while building and loading the rules"
        )
    assumptions = givens_as_assumptions(run.board)
    run.draft["encode_ms"] = _ms_since(started)
    run.draft.update(variables=rules.num_vars, clauses=rules.num_clauses + len(assumptions))
    if run.clock.deadline.expired():
        return run.outcome(Verdict.TIMEOUT, error="the time limit ran out while encoding")
    deadline = run.clock.for_solver()
    with _SolveTimer(run.draft) as timer:
        result = loaded.solve(assumptions, deadline.remaining_or_none(), **run.budgets)
    run.draft.update({key: _count(result.stats.get(key)) for key in _STAT_COLUMNS})
    run.draft["search_ms"] = own_search_ms(result.stats, timer.wall_ms)
    outcome = _conclude(run, rules, result, deadline)
    if outcome.status is Verdict.UNSAT:
        clash = outcome.row.error or "the givens admit no solution together"
        core = name_givens(loaded.get_core() or [], run.board.order)
        outcome.row = outcome.row.replace(error=f"{clash}; failed givens: {core}")
    return outcome


# ---------------------------------------------------------------------------------------
# what each solver itself spent


def own_search_ms(stats: Mapping[str, Any], fallback: float | None = None) -> float | None:
    """The solver's own search time in ms: what it measured or reported, else `fallback`.

    ``search_ms`` where the solver times its search apart from loading the
    clauses (``cdcl``, ``pysat:*``), else ``solver_cpu_s``, the seconds the
    solver reports for itself (zChaff's ``Total Run Time``, MiniSat's ``CPU
    time``, CaDiCaL's ``c total process time``, our DPLL and local search's
    CPU time), else `fallback` (None: unknown).

    Examples
    --------
    >>> own_search_ms({"solver_cpu_s": 0.000278}), own_search_ms({}, 1.5), own_search_ms({})
    (0.278, 1.5, None)
    """
    for key, scale in (("search_ms", 1.0), ("solver_cpu_s", 1000.0)):
        value = stats.get(key)
        if isinstance(value, int | float) and math.isfinite(value) and value >= 0:
            return _round(float(value) * scale)
    return None if fallback is None else _round(fallback)


def overhead_ms(values: Mapping[str, Any]) -> float | None:
    """``total_ms`` less encode, search and decode: the hand-over (None without a search time).

    Loading the clauses into the solver, writing and reading files, starting a
    program and parsing its output, checking the model: the row's parts then add
    up, ``total = encode + overhead + search + decode`` (a missing encode or
    decode counts 0).

    Examples
    --------
    >>> overhead_ms({"total_ms": 12.5, "encode_ms": 2.0, "search_ms": 0.25, "decode_ms": 0.25})
    10.0
    """
    total, search = values.get("total_ms"), values.get("search_ms")
    if total is None or search is None:
        return None
    parts = (values.get("encode_ms"), search, values.get("decode_ms"))
    return _round(total - sum(part for part in parts if part is not None))


class _SolveTimer:
    """Times the solver call into the row: ``solve_ms`` (wall) and ``solve_cpu_ms``.

    The CPU time is this process's (an in-process search, writing a program's
    input, reading its output) plus that of the children reaped meanwhile (a
    solver program, PySAT's worker): ``getrusage(RUSAGE_CHILDREN)`` grows by a
    child's whole CPU time when it is reaped, which the call does before it returns.
    """

    def __init__(self, draft: dict[str, Any]) -> None:
        self.draft = draft
        self.wall_ms = 0.0

    def __enter__(self) -> _SolveTimer:
        self._cpu = _cpu_seconds()
        self._started = time.perf_counter()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.wall_ms = (time.perf_counter() - self._started) * 1000.0
        self.draft["solve_ms"] = _round(self.wall_ms)
        self.draft["solve_cpu_ms"] = _round((_cpu_seconds() - self._cpu) * 1000.0)


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its reaped children, so far."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _ms_since(started: float) -> float:
    return _round((time.perf_counter() - started) * 1000.0)


def _round(ms: float) -> float:
    return round(ms, 3)


def _count(value: Any) -> int | None:
    return None if value is None else int(value)


def _optional_ms(value: Any) -> float | None:
    return None if value is None else _round(float(value))

