"""The budget every solver works under: one deadline type, one way to declare tunables,
and one pause of the garbage collector for timed work.

Our solvers (cdcl, dpll, local search) and the adapters for external ones all
take ``time_limit_ms`` and turn it into a :class:`Deadline` once; a solver that
runs out of it raises :class:`OutOfTime` inside its own loop and answers
UNKNOWN at its boundary. Their parameters are declared as :class:`Tunable`
records, once, and checked by :func:`settings_from`.

This module knows nothing of Sudoku or of any one solver.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from sudosat.errors import SolverError

__all__ = ["Deadline", "OutOfTime", "Tunable", "collector_paused", "declare", "settings_from"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, then restore its state.

    A collection scans container objects: cdcl's clause lists while it runs
    (about 5 % of its time on 16x16 Sudoku, more with a proof, seconds while a
    huge formula loads), and in a notebook's kernel every object it holds
    (pandas, matplotlib, the results so far), about 60 ms a full pass, which
    lands in whichever solver's timed stage allocates when the pass is due.
    The solvers' tables and the pipeline's stages make no reference cycles,
    so nothing is lost by collecting later: pending passes run at the first
    allocation after the block.
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


class Deadline:
    """A point in wall-clock time (monotonic) by which work must stop.

    Parameters
    ----------
    time_limit_ms : float or None
        Milliseconds from now; None means no limit.

    Examples
    --------
    >>> deadline = Deadline(1000)
    >>> deadline.expired()
    False
    >>> Deadline(None).remaining_ms(), Deadline(None).limited
    (inf, False)
    >>> Deadline(0).check()
    Traceback (most recent call last):
    ...
    sudosat.sat.solvers.budget.OutOfTime
    """

    __slots__ = ("start", "at")

    def __init__(self, time_limit_ms: float | None = None, start: float | None = None) -> None:
        self.start = time.monotonic() if start is None else start
        self.at = (
            math.inf if time_limit_ms is None else self.start + max(0.0, time_limit_ms) / 1000.0
        )

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return time.monotonic() >= self.at

    def check(self) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed (a ``check=`` callback)."""
        if time.monotonic() >= self.at:
            raise OutOfTime

    @property
    def limited(self) -> bool:
        """Whether there is a limit at all."""
        return self.at != math.inf

    def remaining_ms(self) -> float:
        """Milliseconds left (never negative; ``inf`` without a limit)."""
        if self.at == math.inf:
            return math.inf
        return max(0.0, (self.at - time.monotonic()) * 1000.0)

    def remaining_or_none(self) -> float | None:
        """Milliseconds left, or None without a limit (what solvers take as ``time_limit_ms``)."""
        left = self.remaining_ms()
        return None if left == math.inf else left

    def elapsed_ms(self) -> float:
        """Milliseconds since the deadline was set."""
        return (time.monotonic() - self.start) * 1000.0

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
        earlier = Deadline(None, self.start)
        earlier.at = self.at - seconds
        return earlier


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
