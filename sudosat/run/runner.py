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

The time limit T is one :class:`~sudosat.sat.solvers.budget.Deadline` (``deadline=``,
or the convenience ``time_limit_ms=`` and ``clock=`` made into one here), on the
wall clock or on CPU time, and the same object reaches the solver's loop. It has
one of two meanings, chosen by the caller (``limit_covers``), never implied:

``"pipeline"`` (the batch, ``sudosat solve``)
    T bounds everything: the deadline counts from when it was made (before
    the memory guard), the solver gets the same deadline, and when the
    encoding alone uses up T the answer is TIMEOUT.
``"solver"`` (the studies, the workbench, the report's comparisons)
    T is the solver's alone: the deadline restarts when the solver starts
    (:meth:`~sudosat.sat.solvers.budget.Deadline.restarted`); building the
    formula is not counted against it.

An answer that arrives once the deadline has passed is TIMEOUT (``stop``
``time``), never accepted: T holds on every path, the incremental one and
external programs included.

Every stage is timed on both clocks into the row (``encode_wall_ms`` and
``encode_cpu_ms`` ...; see :data:`~sudosat.run.results.COLUMNS`); the
solver's own search and loading times come from its stats, each named by its
clock (``search_cpu_ms``, ``search_wall_ms``, ``load_cpu_ms``), and so does a
program's own CPU time as the operating system reports it (``process_cpu_ms``).

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
output line ``N UNKNOWN``), never TIMEOUT, which stays the word for T. Why
the solver stopped is its :class:`~sudosat.sat.result.Stop`, the row's ``stop``.

Examples
--------
>>> from sudosat.sudoku.board import Board
>>> outcome = run_instance(Board.parse("1 0"), "cdcl")
>>> outcome.output_line, str(outcome.row["status"]), outcome.row["valid"]
('1 1', 'SAT', True)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from sudosat.errors import SudosatError
from sudosat.run.results import Row, Verdict, format_output, one_line
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Stop
from sudosat.sat.solvers.budget import (
    BUDGET_STOPS,
    BUDGETS,
    Clock,
    Deadline,
    OutOfTime,
    cpu_seconds,
    one_deadline,
)
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
    "import_solver",
    "overheads",
    "prepare",
    "run_instance",
    "timed_out_outcome",
]

LIMIT_POLICIES = ("pipeline", "solver")
"""What the time limit bounds: the whole pipeline, or the solver call alone."""

_STAT_COLUMNS = ("decisions", "conflicts", "propagations")
# The solver's own times, as its stats name them (each named by its clock): into the row.
# A program's process CPU time (``process_cpu_ms``) comes from the operating system.
_OWN_TIMES = ("load_cpu_ms", "search_cpu_ms", "search_wall_ms", "process_cpu_ms")


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
    encode_wall_ms, encode_cpu_ms : float or None
        Milliseconds spent building it, on the wall clock and in CPU time (the
        row's ``encode_wall_ms`` and ``encode_cpu_ms``).
    loaded : incremental solver, optional
        A solver (:func:`sudosat.sat.solvers.registry.open_solver`) already holding
        every clause of `formula` but the `assumptions`: it answers instead of
        a fresh solver, the assumptions holding for that call only (the
        workbench re-solves this way while only the givens change).
    assumptions : tuple of int
        The literals `loaded` is asked to assume (the givens).
    """

    formula: Any
    encode_wall_ms: float | None = None
    encode_cpu_ms: float | None = None
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
    times: dict[str, Any] = {}
    with _stage(times, "encode"):
        check_resources(board, encoding, DEFAULT_MAX_BYTES if max_bytes is None else max_bytes)
        encoded = encode(board, encoding)
    return Prepared(encoded, times["encode_wall_ms"], times["encode_cpu_ms"])


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
        Wall-clock milliseconds per stage, finer than the row: ``decode`` and
        ``check`` apart (the row's ``decode_wall_ms`` is their sum).
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


class _Limit:
    """The deadline under its policy, and the run's own two clocks from its start."""

    def __init__(self, deadline: Deadline, covers: str) -> None:
        if covers not in LIMIT_POLICIES:
            raise ValueError(f"limit_covers must be one of {LIMIT_POLICIES}, got {covers!r}")
        self.wall, self.cpu = time.perf_counter(), cpu_seconds()
        self.covers = covers
        self.limit = deadline
        # T's deadline; with limit_covers="solver" it restarts when the solver starts
        self.deadline = deadline if covers == "pipeline" else Deadline(None, clock=deadline.clock)

    def for_solver(self) -> Deadline:
        """The deadline the solver runs under (restarted when T is the solver's alone)."""
        if self.covers == "solver":
            self.deadline = self.limit.restarted()
        return self.deadline

    def totals(self) -> dict[str, float]:
        """``total_wall_ms`` and ``total_cpu_ms`` of the run so far."""
        return {"total_wall_ms": _ms(time.perf_counter() - self.wall),
                "total_cpu_ms": _ms(cpu_seconds() - self.cpu)}


@dataclass
class _Run:
    """One call's fixed parts and the row being filled in."""

    board: Board
    solver: str
    clock: _Limit
    draft: dict[str, Any]
    options: dict[str, Any]
    max_bytes: int | None
    memory_guard: bool
    budgets: dict[str, Any] = field(default_factory=dict)
    rules: Any = None

    def outcome(self, verdict: Verdict, stop: Stop, **extra: Any) -> InstanceOutcome:
        """The outcome of this run with `verdict` (UNSAT, TIMEOUT, UNKNOWN), totals stamped."""
        reason = extra.pop("error", None)
        self.draft.update(status=verdict, stop=stop, error=reason, **self.clock.totals())
        self.draft.update(overheads(self.draft))
        output = format_output(verdict, order=self.board.order, reason=reason)
        self.draft["output"] = output
        return InstanceOutcome(Row(**self.draft), None, output, self.board, **extra)


def run_instance(
    board: Board,
    solver: str = "cdcl",
    encoding: str | Prepared = "course",
    time_limit_ms: float | None = None,
    *,
    deadline: Deadline | None = None,
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
    time_limit_ms, clock : float and {"wall", "cpu"}, optional
        T in milliseconds from now on that clock (wall: the course's T; CPU:
        the studies' verdicts the same on a quiet and on a busy machine), made
        into `deadline` here, once. Give one or the other (neither: no limit).
    deadline : Deadline, optional
        T itself, on its own clock; the same object reaches the solver.
    limit_covers : {"pipeline", "solver"}
        What T bounds (see the module docstring).
    memory_guard, max_bytes : bool and int, optional
        Refuse an encoding given by name that would need more than `max_bytes`
        (default :data:`~sudosat.sudoku.encoding.DEFAULT_MAX_BYTES`) before building it.
    incremental, rules : bool and LoadedRules, optional
        Solve with the rules loaded once (kept in `rules`, default the
        process's :func:`~sudosat.sudoku.incremental.default_rules`) and the
        givens as assumptions; a solver without assumptions runs the default way.
    line : int, optional
        The input line number, for the row.
    **solver_options
        Passed to the solver (``seed``, ``zchaff``, ``max_conflicts`` ...).

    Returns
    -------
    InstanceOutcome
        Never raises for a bad instance, an unavailable or crashing solver, or
        a refused encoding: those become an ERROR row whose ``error`` says why.

    Raises
    ------
    ValueError
        Both `deadline` and `time_limit_ms`, or an unknown `limit_covers`.
    """
    import_solver(solver)
    timing = _Limit(one_deadline(deadline, time_limit_ms, clock), limit_covers)
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
        return failed_outcome(run.draft, exc.reason, timing.totals(), board)
    except MemoryError:
        return failed_outcome(run.draft, "out of memory", timing.totals(), board)
    except Exception as exc:  # a solver's bug must cost one line, not the whole batch
        reason = f"crashed: {type(exc).__name__}: {exc}"
        return failed_outcome(run.draft, reason, timing.totals(), board)


def import_solver(solver: str) -> None:
    """Import `solver`'s module before a clock starts: T is for solving, not for imports.

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
    totals: Mapping[str, float] | None = None,
    board: Board | None = None,
) -> InstanceOutcome:
    """The ERROR outcome of an instance that could not be answered, and why (``stop`` error).

    Parameters
    ----------
    draft : dict or Row
        The columns known so far (line, solver, encoding ...).
    reason : str
        Why; folded to one line.
    totals : mapping, optional
        The time spent: ``total_wall_ms`` and ``total_cpu_ms``.
    board : Board, optional
        The puzzle, when it could be read.
    """
    reason = one_line(reason)
    values = dict(draft)
    output = format_output(Verdict.ERROR, reason=reason)
    values.update(status=Verdict.ERROR, stop=Stop.ERROR, error=reason, output=output)
    values.update(totals or {})
    values.update(overheads(values))
    return InstanceOutcome(Row.from_dict(values) if isinstance(draft, Row) else Row(**values),
                           None, output, board)


def timed_out_outcome(draft: Row, order: int, reason: str) -> InstanceOutcome:
    """The TIMEOUT outcome of an instance whose time ran out before its board was read.

    `draft` holds the columns known so far (:func:`blank_row`), `order` is the
    order the line starts with (its output line is ``N TIMEOUT``), `reason` the
    row's ``error``.

    Examples
    --------
    >>> outcome = timed_out_outcome(blank_row(4, "cdcl", "course"), 50, "out of time")
    >>> outcome.output_line, str(outcome.row.status), outcome.row.order
    ('50 TIMEOUT', 'TIMEOUT', 50)
    """
    output = format_output(Verdict.TIMEOUT, order=order)
    values = dict(draft)
    values.update(order=order, status=Verdict.TIMEOUT, stop=Stop.TIME, error=reason,
                  output=output)
    return InstanceOutcome(Row.from_dict(values), None, output, None)


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
        run.draft.update(encode_wall_ms=encoding.encode_wall_ms,
                         encode_cpu_ms=encoding.encode_cpu_ms)
    run.draft.update(variables=formula.cnf.num_vars, clauses=formula.cnf.num_clauses)
    if run.clock.deadline.expired():
        return run.outcome(Verdict.TIMEOUT, Stop.TIME,
                           error="the time limit ran out while encoding", formula=formula)
    deadline = run.clock.for_solver()
    prepared = None if isinstance(encoding, str) else encoding
    loaded = None if prepared is None else prepared.loaded
    with _stage(run.draft, "solve"):
        if prepared is None or loaded is None:
            result = solve(formula.cnf, run.solver, deadline=deadline, **run.budgets,
                           **run.options)
        else:
            check_budgets(run.solver, **run.budgets)
            result = loaded.solve(list(prepared.assumptions), deadline=deadline, **run.budgets)
    return _conclude(run, formula, result, deadline)


def _build(run: _Run, encoding: str) -> Any:
    """The encoding of the board, or the TIMEOUT outcome when it cannot be built within T."""
    deadline = run.clock.deadline
    # No up-front guess of how long the build takes (a rate would be one machine's): the
    # size count and the encoder look at the deadline as they go and stop there.
    try:
        with _stage(run.draft, "encode"):
            if run.memory_guard:
                limit = DEFAULT_MAX_BYTES if run.max_bytes is None else run.max_bytes
                check_resources(run.board, encoding, limit, check=deadline.check)
            return encode(run.board, encoding, check=deadline.check)
    except OutOfTime:
        return run.outcome(Verdict.TIMEOUT, Stop.TIME,
                           error="the time limit ran out while encoding")


def _conclude(run: _Run, formula: Any, result: Result, deadline: Deadline) -> InstanceOutcome:
    """UNSAT, TIMEOUT, UNKNOWN, or the decoded board checked against the puzzle.

    The solver's ``stop`` decides, but for an answer that came once `deadline`
    had passed: that one is TIMEOUT (``stop`` time), as any late answer.
    """
    run.draft.update({key: _count(result.stats.get(key)) for key in _STAT_COLUMNS})
    run.draft.update({key: _optional_ms(result.stats.get(key)) for key in _OWN_TIMES})
    run.draft["core"] = result.core or None  # which implementation ran (cdcl's two cores)
    late = result.stop is Stop.ANSWERED and deadline.expired()
    stop = Stop.TIME if late else result.stop
    verdict = Verdict.of(result.status, stop)
    if verdict is Verdict.UNKNOWN:
        return run.outcome(verdict, stop, error=_why_unknown(run, stop), result=result,
                           formula=formula)
    if verdict is Verdict.UNSAT:
        clash = run.board.first_conflict()
        error = f"the givens clash: {clash}" if clash else None
        return run.outcome(verdict, stop, error=error, result=result, formula=formula)
    if verdict is Verdict.TIMEOUT:
        why = ("the answer came after the time limit" if late
               else "the time limit ran out while solving")
        return run.outcome(verdict, stop, error=why, result=result, formula=formula)
    return _decoded(run, formula, result)


def _why_unknown(run: _Run, stop: Stop) -> str:
    """Why an UNKNOWN row has no answer: the work budget that ran out, or the solver gave up."""
    for budget, its_stop in BUDGET_STOPS.items():
        if stop is its_stop:
            return f"the work budget ran out ({budget}={run.budgets.get(budget)})"
    return "the solver gave up without a decision, with time left"


def _decoded(run: _Run, formula: Any, result: Result) -> InstanceOutcome:
    """The SAT answer decoded and checked against the puzzle: the solved board, or ERROR."""
    with _stage(run.draft, "decode"):
        started = time.perf_counter()
        solution = formula.decode(result.model or [])
        decoded = time.perf_counter()
        problem = check_solution(run.board, solution)
        stage_ms = {"decode": (decoded - started) * 1000.0,
                    "check": (time.perf_counter() - decoded) * 1000.0}
    if problem is not None:
        run.draft["valid"] = False
        outcome = failed_outcome(run.draft, f"the decoded board is not a solution: {problem}",
                                 run.clock.totals(), run.board)
        outcome.result, outcome.formula, outcome.stage_ms = result, formula, stage_ms
        return outcome
    output = format_output(Verdict.SAT, solution=solution)
    run.draft.update(status=Verdict.SAT, stop=Stop.ANSWERED, valid=True, output=output,
                     **run.clock.totals())
    run.draft.update(overheads(run.draft))
    return InstanceOutcome(Row(**run.draft), solution, output, run.board, result, formula,
                           stage_ms)


def _incremental_stages(run: _Run, encoding: str) -> InstanceOutcome:
    """The stages with the rules loaded once (kept in the cache) and the givens as assumptions.

    ``encode_*_ms`` count building the assumptions (and, for the first puzzle
    of an order, building and loading the rules), ``clauses`` the rules plus
    one per given. A puzzle whose givens clash is UNSAT, and the row's
    ``error`` names the failed givens (the solver's core).
    """
    from sudosat.sudoku.incremental import givens_as_assumptions, loaded_rules, name_givens

    limit = DEFAULT_MAX_BYTES if run.max_bytes is None else run.max_bytes
    check_budgets(run.solver, **run.budgets)  # before loading: a refusal costs nothing
    try:
        with _stage(run.draft, "encode"):
            loaded, rules = loaded_rules(
                run.board.order, encoding, solver=run.solver, max_bytes=limit,
                deadline=run.clock.deadline, cache=run.rules, **run.options,
            )
            assumptions = givens_as_assumptions(run.board)
    except OutOfTime:
        return run.outcome(Verdict.TIMEOUT, Stop.TIME,
                           error="the time limit ran out while building and loading the rules")
    run.draft.update(variables=rules.num_vars, clauses=rules.num_clauses + len(assumptions))
    if run.clock.deadline.expired():
        return run.outcome(Verdict.TIMEOUT, Stop.TIME,
                           error="the time limit ran out while encoding")
    deadline = run.clock.for_solver()
    with _stage(run.draft, "solve"):
        result = loaded.solve(assumptions, deadline=deadline, **run.budgets)
    outcome = _conclude(run, rules, result, deadline)
    if outcome.status is Verdict.UNSAT:
        clash = outcome.row.error or "the givens admit no solution together"
        core = name_givens(loaded.get_core() or [], run.board.order)
        outcome.row = outcome.row.replace(error=f"{clash}; failed givens: {core}")
    return outcome


# ---------------------------------------------------------------------------------------
# the row's times


def overheads(values: Mapping[str, Any]) -> dict[str, float | None]:
    """``overhead_cpu_ms`` and ``overhead_wall_ms``: the total less encode, search and decode.

    Each on its own clock: ``total_cpu_ms - encode_cpu_ms - search_cpu_ms -
    decode_cpu_ms``, and the same with ``_wall_ms``. The hand-over: loading
    the clauses into the solver, writing and reading files, starting a
    program and parsing its output, checking the model. None without the
    total or the search on that clock (a missing encode or decode counts 0).

    Examples
    --------
    >>> overheads({"total_wall_ms": 12.5, "encode_wall_ms": 2.0, "search_wall_ms": 0.25,
    ...            "decode_wall_ms": 0.25, "total_cpu_ms": 3.0, "search_cpu_ms": None})
    {'overhead_cpu_ms': None, 'overhead_wall_ms': 10.0}
    """
    found: dict[str, float | None] = {}
    for clock in ("cpu", "wall"):
        total, search = values.get(f"total_{clock}_ms"), values.get(f"search_{clock}_ms")
        if total is None or search is None:
            found[f"overhead_{clock}_ms"] = None
            continue
        parts = (values.get(f"encode_{clock}_ms"), search, values.get(f"decode_{clock}_ms"))
        found[f"overhead_{clock}_ms"] = _round(total - sum(p for p in parts if p is not None))
    return found


@contextlib.contextmanager
def _stage(into: dict[str, Any], stage: str) -> Iterator[None]:
    """Time the block into ``{stage}_wall_ms`` and ``{stage}_cpu_ms`` of `into`.

    A stage that ends, or that the deadline cuts short (:class:`OutOfTime`),
    is timed; one that fails otherwise leaves its columns empty (the row is
    an ERROR). The CPU time is this process's and that of the children reaped
    meanwhile (:func:`~sudosat.sat.solvers.budget.cpu_seconds`): a solver
    program or PySAT's worker is reaped before its call returns.
    """
    wall, cpu = time.perf_counter(), cpu_seconds()

    def record() -> None:
        into[f"{stage}_wall_ms"] = _ms(time.perf_counter() - wall)
        into[f"{stage}_cpu_ms"] = _ms(cpu_seconds() - cpu)

    try:
        yield
    except OutOfTime:
        record()
        raise
    record()


def _ms(seconds: float) -> float:
    return _round(seconds * 1000.0)


def _round(ms: float) -> float:
    return round(ms, 3)


def _count(value: Any) -> int | None:
    return None if value is None else int(value)


def _optional_ms(value: Any) -> float | None:
    return None if value is None else _round(float(value))
