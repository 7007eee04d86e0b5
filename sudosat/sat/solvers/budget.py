"""The budget every solver works under: one deadline type, one way to declare tunables,
and one pause of the garbage collector for timed work.

Our solvers (cdcl, dpll, local search) and the adapters for external ones all
take ``deadline=``, one :class:`Deadline` made where the limit's clock starts
(the command line's ``-T``, a study's CPU limit) and passed down by keyword to
the solver's loop; a solver that runs out of it raises :class:`OutOfTime` inside
its own loop and answers UNKNOWN at its boundary, its
:class:`~sudosat.sat.result.Stop` saying why (:data:`BUDGET_STOPS` names the
work budgets' own). Their parameters are declared as :class:`Tunable` records,
once, and checked by :func:`settings_from`.

This module knows nothing of Sudoku or of any one solver.
"""

from __future__ import annotations

import gc
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

from sudosat.errors import SolverError
from sudosat.sat.result import Stop

try:  # absent in Pyodide: there a process has no children, and its own CPU is all there is
    import resource
except ImportError:  # pragma: no cover - CPython on a POSIX system has it
    resource = None  # type: ignore[assignment]

__all__ = [
    "BUDGETS",
    "BUDGET_STOPS",
    "Clock",
    "Deadline",
    "OutOfTime",
    "Tunable",
    "budget_keywords",
    "collector_paused",
    "cpu_seconds",
    "declare",
    "load_reserve",
    "one_deadline",
    "process_started",
    "settings_from",
]

BUDGETS: tuple[str, ...] = ("max_conflicts", "max_propagations")
"""The work budgets a solver may honour: conflicts (a DPLL's backtracks) and propagations
(literals made true by unit propagation), counted from the start of the call. Unlike a
time limit they stop the same search at the same point on every machine."""

BUDGET_STOPS: dict[str, Stop] = {"max_conflicts": Stop.CONFLICTS,
                                  "max_propagations": Stop.PROPAGATIONS}
"""Each work budget and the :class:`~sudosat.sat.result.Stop` of a call it ended."""

FREE_FRACTION_OF_LOAD = 0.25
"""The reserve for freeing a solver's lists before T, as a fraction of what building them
took in this same call. Freeing a list of small ints touches every object once; building it
read the formula, allocated and filled each one: freeing is a small part of building, a
ratio of two costs of the same code that a faster or a busier machine scales alike. dpll
frees its engine in 0.098-0.104 of its loading time, local search its lists in 0.008-0.013
of its simplification's, at orders 4-6 (``benchmarks/results/free_ratio.csv``, from
``benchmarks/time_limits.py --free-ratio --orders 4 5 6``). A quarter leaves headroom."""


def load_reserve(load_seconds: float, share: float | None = None) -> float:
    """Seconds to keep free before the deadline for freeing what took `load_seconds` to build.

    Derived from what this call measured, so it scales with the machine and its load
    instead of a per-clause rate tuned to one machine. `share` is the solver's own measured
    ratio of freeing to building (default :data:`FREE_FRACTION_OF_LOAD`).

    Examples
    --------
    >>> load_reserve(0.2)
    0.05
    >>> round(load_reserve(0.2, share=0.1), 6)
    0.02
    """
    return max(0.0, load_seconds) * (FREE_FRACTION_OF_LOAD if share is None else share)


def budget_keywords(
    max_conflicts: int | None = None, max_propagations: int | None = None
) -> dict[str, int]:
    """The budgets that are set, as keywords to pass on (an unset one is left out).

    A budget of 0 allows no more of that work: the call answers UNKNOWN before it, as
    MiniSat's ``setConfBudget(0)`` does.

    Raises
    ------
    SolverError
        A budget is not a non-negative integer.

    Examples
    --------
    >>> budget_keywords(100, None)
    {'max_conflicts': 100}
    >>> budget_keywords(-1)
    Traceback (most recent call last):
    ...
    sudosat.errors.SolverError: max_conflicts must be a non-negative integer, got -1
    """
    given = {"max_conflicts": max_conflicts, "max_propagations": max_propagations}
    budgets = {}
    for name, value in given.items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SolverError(f"{name} must be a non-negative integer, got {value!r}")
        budgets[name] = value
    return budgets


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, then restore its state.

    Each solver that runs in this process (cdcl, dpll, local search, PySAT's
    in-process adapter) pauses it inside its own call, never around a caller's
    other work. A collection scans container objects: cdcl's clause lists
    while it runs (about 5 % of its time on 16x16 Sudoku, more with a proof,
    seconds while a huge formula loads), and in a notebook's kernel every
    object it holds (pandas, matplotlib, the results so far), about 60 ms a
    full pass, which would land in whichever solver call allocates when the
    pass is due. The solvers' tables make no reference cycles, so nothing is
    lost by collecting later: pending passes run at the first allocation
    after the block (free the solver's tables inside it, so that pass does
    not scan them).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


class OutOfTime(Exception):  # noqa: N818 - it is a signal inside a solver, not an error
    """Raised inside a solver when its deadline has passed; it never leaves the solver."""


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children reaped so far.

    ``time.process_time`` plus ``getrusage(RUSAGE_CHILDREN)``: a solver program
    or a worker adds its whole CPU time once it is reaped, which every call that
    starts one does before it returns. Where the ``resource`` module is missing
    (Pyodide) this process's own CPU time alone.
    """
    if resource is None:  # pragma: no cover - Pyodide
        return time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def process_started() -> float:
    """The wall clock's reading (``time.monotonic``) when this process started.

    For a limit that counts from a command's start, the interpreter's start-up
    and its imports included. Read from ``/proc/self/stat`` (the start in
    clock ticks since boot, 10 ms) against ``CLOCK_BOOTTIME``, so it is at
    most one tick late; where either is missing, now less this process's CPU
    time so far (never later than the true start on one thread).
    """
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        age = time.process_time()
    return now - max(age, 0.0)


class Clock(StrEnum):
    """Which clock a :class:`Deadline` reads.

    ``WALL`` is elapsed time (``time.monotonic``): what a user waiting for an
    answer feels, and the course's T. ``CPU`` is CPU time, this process's and
    its reaped children's (:func:`cpu_seconds`): the work done, which another
    program on the same machine slows only a little, so a study limited by it
    gives the same verdicts on a quiet and on a busy machine. A solver program
    run under a CPU deadline is bounded on its own CPU time while it runs (see
    :func:`sudosat.process.run_program`) and counts here once reaped.
    """

    WALL = "wall"
    CPU = "cpu"

    def __str__(self) -> str:
        return self.value

    @property
    def read(self) -> Callable[[], float]:
        """The function that reads this clock, in seconds."""
        return time.monotonic if self is Clock.WALL else cpu_seconds


class Deadline:
    """A point on a clock (wall by default, or CPU time) by which work must stop.

    The one form a time limit takes from the command line to a solver's loop:
    made once where the limit's clock starts, then passed by keyword
    (``deadline=``) to every stage and solver below. Loops compare
    ``deadline.now()`` with ``deadline.at`` (both seconds on the same clock) or
    call :meth:`check`.

    Parameters
    ----------
    time_limit_ms : float or None
        Milliseconds from now; None means no limit.
    start : float, optional
        The clock's reading the limit counts from (default: now).
    clock : Clock or str
        ``"wall"`` (default) or ``"cpu"``.

    Examples
    --------
    >>> deadline = Deadline(1000)
    >>> deadline.expired()
    False
    >>> Deadline(None).remaining_ms(), Deadline(None).limited
    (inf, False)
    >>> Deadline(1000, clock="cpu").clock
    <Clock.CPU: 'cpu'>
    >>> Deadline(0).check()
    Traceback (most recent call last):
    ...
    sudosat.sat.solvers.budget.OutOfTime
    """

    __slots__ = ("start", "at", "clock", "now", "limit_ms")

    def __init__(
        self,
        time_limit_ms: float | None = None,
        start: float | None = None,
        *,
        clock: Clock | str = Clock.WALL,
    ) -> None:
        self.clock = Clock(clock)
        self.now: Callable[[], float] = self.clock.read
        self.start = self.now() if start is None else start
        self.limit_ms = None if time_limit_ms is None else max(0.0, float(time_limit_ms))
        self.at = math.inf if self.limit_ms is None else self.start + self.limit_ms / 1000.0

    def __repr__(self) -> str:
        limit = "no limit" if self.limit_ms is None else f"{self.limit_ms:g} ms"
        return f"Deadline({limit}, {self.clock} clock, {self.remaining_ms():.1f} ms left)"

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.now() >= self.at

    def check(self, reserve_s: float = 0.0) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed (a ``check=`` callback).

        With `reserve_s`, once fewer than that many seconds are left: for a
        caller that knows what it still has to do after this look (the reader of
        a file: decoding what it has read).
        """
        if self.now() + reserve_s >= self.at:
            raise OutOfTime

    @property
    def limited(self) -> bool:
        """Whether there is a limit at all."""
        return self.at != math.inf

    def remaining_ms(self) -> float:
        """Milliseconds left on its clock (never negative; ``inf`` without a limit)."""
        if self.at == math.inf:
            return math.inf
        return max(0.0, (self.at - self.now()) * 1000.0)

    def remaining_or_none(self) -> float | None:
        """Milliseconds left, or None without a limit."""
        left = self.remaining_ms()
        return None if left == math.inf else left

    def elapsed_ms(self) -> float:
        """Milliseconds on its clock since the deadline was set."""
        return (self.now() - self.start) * 1000.0

    def sooner(self, seconds: float) -> Deadline:
        """This deadline moved `seconds` earlier, for work that must still fit after the stop.

        Examples
        --------
        >>> deadline = Deadline(1000)
        >>> round((deadline.at - deadline.sooner(0.25).at) * 1000)
        250
        >>> Deadline(None).sooner(0.25).limited
        False
        """
        earlier = Deadline(None, self.start, clock=self.clock)
        earlier.limit_ms = self.limit_ms
        earlier.at = self.at - seconds
        return earlier

    def restarted(self) -> Deadline:
        """A fresh deadline with the same limit and clock, counting from now.

        For a limit that bounds one stage alone (the solver call of a study),
        set before the stages that precede it.
        """
        return Deadline(self.limit_ms, clock=self.clock)


def one_deadline(
    deadline: Deadline | None, time_limit_ms: float | None = None, clock: Clock | str = Clock.WALL
) -> Deadline:
    """`deadline`, or the public convenience `time_limit_ms` made into one, here and once.

    For the outermost public calls (:func:`sudosat.sat.solvers.solve`,
    :func:`sudosat.run.runner.run_instance`): everything below them takes the
    deadline itself.

    Raises
    ------
    ValueError
        Both were given.

    Examples
    --------
    >>> one_deadline(None, 500).limit_ms, one_deadline(None).limited
    (500.0, False)
    """
    if deadline is None:
        return Deadline(time_limit_ms, clock=clock)
    if time_limit_ms is not None:
        raise ValueError("give deadline= or time_limit_ms=, not both")
    return deadline


@dataclass(frozen=True)
class Tunable:
    """One parameter of a solver: its name, default value, allowed range and meaning.

    Attributes
    ----------
    name : str
        The keyword the solver's ``solve(cnf, **tunables)`` accepts.
    default : float or None
        The value used when the caller gives none.
    low, high : float
        The allowed range, both ends included.
    doc : str
        One line saying what it changes.
    allow_none : bool
        Whether None is a meaningful value (for example "no limit").
    """

    name: str
    default: float | None
    low: float
    high: float
    doc: str
    allow_none: bool = False

    def check(self, solver: str, value: object) -> float | None:
        """Return `value` if it is in range; a SolverError names the solver and range otherwise."""
        if value is None and self.allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SolverError(f"{solver}: option {self.name}={value!r} is not a number")
        if not self.low <= value <= self.high:
            raise SolverError(
                f"{solver}: option {self.name}={value!r} is outside [{self.low}, {self.high}]"
            )
        return value


def declare(*tunables: Tunable) -> dict[str, Tunable]:
    """Index tunables by name (the one place a solver lists them)."""
    return {tunable.name: tunable for tunable in tunables}


def settings_from(
    solver: str, declared: Mapping[str, Tunable], given: Mapping[str, object]
) -> dict[str, float | None]:
    """The declared defaults overridden by `given`, each checked against its range.

    Raises
    ------
    SolverError
        For a name the solver does not declare, or a value outside its range.

    Examples
    --------
    >>> spec = declare(Tunable("noise", 0.5, 0.0, 1.0, "random-walk probability"))
    >>> settings_from("walksat", spec, {"noise": 0.2})
    {'noise': 0.2}
    """
    settings = {name: tunable.default for name, tunable in declared.items()}
    for name, value in given.items():
        tunable = declared.get(name)
        if tunable is None:
            raise SolverError(f"{solver}: unknown option {name!r}; known: {', '.join(declared)}")
        settings[name] = tunable.check(solver, value)
    return settings
