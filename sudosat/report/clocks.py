"""Two clocks: wall-clock time, which a busy machine inflates, and CPU time, which it inflates less.

Every time column of the results table names its clock (``total_wall_ms``,
``search_cpu_ms``: :func:`clock_of`). A run's ratio of wall-clock to CPU time
says whether the machine was busy while it ran: a computation in this
process uses the CPU the whole time it runs, so on an idle machine the two
agree, and far apart, other programs had the CPU (:class:`ClockFacts`). Every
page that reports times states that ratio with its first figure.

CPU time leaves out the time other programs held the processor, but it is
not immune to them: where processors share caches and cores, each step of a
computation takes longer while others run (a fixed pure-Python loop measured
here took about 1.4 times the CPU beside eight busy loops). So CPU times
compare best side by side, as ratios, and verdicts rest on counted work.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

WALL, CPU = "wall", "CPU"
"""The two clocks, as the pages name them."""

BUSY_RATIO = 1.5
"""A wall-clock time above this many times its CPU time means the machine was busy (a
computation in this process uses the CPU the whole time it runs)."""


def clock_of(column: str) -> str:
    """The clock a time column of the results table is measured on: :data:`WALL` or :data:`CPU`.

    Examples
    --------
    >>> clock_of("total_wall_ms"), clock_of("search_cpu_ms")
    ('wall', 'CPU')
    """
    if "_wall_" in column:
        return WALL
    if "_cpu_" in column:
        return CPU
    raise ValueError(f"{column!r} names no clock")


@dataclass(frozen=True)
class ClockFacts:
    """Wall-clock against CPU time of a set of timed calls in this process.

    Attributes
    ----------
    calls : int
        Calls with both times (and some CPU time).
    ratio : float or None
        The calls' wall-clock time over their CPU time, all calls together (None: no call).
        A sum, not a median of per-call ratios: a call shorter than the scheduler's time
        slice is seldom interrupted, so short calls would hide a busy machine.
    threshold : float
        :data:`BUSY_RATIO`.
    """

    calls: int
    ratio: float | None
    threshold: float = BUSY_RATIO

    @property
    def busy(self) -> bool | None:
        """Whether the ratio exceeds the threshold: the machine was busy (None: no call)."""
        return None if self.ratio is None else self.ratio > self.threshold


def clock_facts(pairs: Iterable[tuple[Any, Any]]) -> ClockFacts:
    """The :class:`ClockFacts` of ``(wall, cpu)`` pairs; pairs without a positive CPU time or
    without a wall time are left out."""
    kept = [
        (float(wall), float(cpu))
        for wall, cpu in pairs
        if _number(wall) and _number(cpu) and float(cpu) > 0
    ]
    if not kept:
        return ClockFacts(0, None)
    return ClockFacts(len(kept), sum(w for w, _ in kept) / sum(c for _, c in kept))


def _number(value: Any) -> bool:
    try:
        return not math.isnan(float(value))
    except (TypeError, ValueError):
        return False


class Stopwatch:
    """Runs calls and keeps each one's wall-clock and CPU milliseconds, by name.

    Examples
    --------
    >>> watch = Stopwatch()
    >>> watch.run("sum", sum, [1, 2, 3])
    6
    >>> sorted(watch.wall_ms) == sorted(watch.cpu_ms) == ["sum"]
    True
    """

    def __init__(self) -> None:
        self.wall_ms: dict[str, float] = {}
        self.cpu_ms: dict[str, float] = {}

    def run(self, name: str, function: Callable[..., Any], *args: Any) -> Any:
        """Call ``function(*args)``, keep its times under `name`, return its value."""
        wall, cpu = time.perf_counter(), time.process_time()
        value = function(*args)
        self.cpu_ms[name] = (time.process_time() - cpu) * 1000.0
        self.wall_ms[name] = (time.perf_counter() - wall) * 1000.0
        return value

    def facts(self) -> ClockFacts:
        """The :class:`ClockFacts` of every call timed."""
        return clock_facts((self.wall_ms[name], self.cpu_ms[name]) for name in self.wall_ms)
