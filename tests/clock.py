"""How the tests hold work to a time limit without trusting the wall clock.

A time limit T promises an answer by T + max(10 % of T, 100 ms) of wall time.
A test cannot check that promise on the wall clock: a machine busy with other
work stretches wall time without bound (1.7 s for a 0.5 s limit was seen on a
loaded 2-core machine running the suite). Two measures stand in for it:

- work done in this process (or in its children) is held to the promise on
  CPU time. The deadline is a wall-clock one, so an answer that stops by it
  cannot have used more CPU than the wall time it had, while a search that
  ignores its deadline uses all the CPU it is given;
- waiting for a child that sleeps uses no CPU at all, so a kill is held to
  T + :data:`WAIT_MARGIN_S` of wall time: far above what a busy machine adds to
  killing and reaping a process group, far below the minute of sleep a child
  that is never killed would take.

A child process's CPU time also holds the interpreter's start-up and sudosat's
imports: 0.26-0.40 s with no byte code cached, more on a busy machine. A bound
on what a command does once started is held on the difference from the same
command on a trivial input, measured just before in the same conditions
(:func:`child_cpu`); a time limit that counts from the command's own start
(``sat -T``) holds the whole.
"""

from __future__ import annotations

import gc
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

# Wall seconds a busy machine may add to killing and reaping a child; the children the
# tests start sleep for a minute or more, so a missed kill still fails.
WAIT_MARGIN_S = 5.0


def late_by_at_most(limit_ms: float) -> float:
    """Seconds a call with limit T may take: T + max(10 % of T, 100 ms), the promise."""
    return (limit_ms + max(0.1 * limit_ms, 100.0)) / 1000.0


class Spent:
    """CPU seconds used inside a :func:`cpu_spent` block; read them after it ends."""

    own: float = 0.0
    children: float = 0.0

    @property
    def seconds(self) -> float:
        """This process's CPU and its reaped children's."""
        return self.own + self.children

    def __repr__(self) -> str:
        shares = f"{self.own:.3f} s ours, {self.children:.3f} s children's"
        return f"{self.seconds:.3f} s of CPU ({shares})"


@contextmanager
def cpu_spent() -> Iterator[Spent]:
    """Measure the CPU this process and the children it reaps use inside the block.

    The objects alive before the block are collected and frozen first: a full garbage
    collection inside it would otherwise walk what earlier tests in this worker left
    (a module's fixture of order-50 boards takes tens of milliseconds to walk), work
    that is not the measured call's.
    """
    spent = Spent()
    gc.collect()
    gc.freeze()
    before = os.times()
    try:
        yield spent
    finally:
        after = os.times()
        gc.unfreeze()
        spent.own = (after.user - before.user) + (after.system - before.system)
        spent.children = (after.children_user - before.children_user) + (
            after.children_system - before.children_system
        )


def child_cpu(command: list[str], **options) -> tuple[subprocess.CompletedProcess, float]:
    """Run `command` as a child (``subprocess.run`` with `options`, output captured as text);
    its result and the CPU seconds it and its own children used."""
    before = os.times()
    done = subprocess.run(command, capture_output=True, text=True, **options)
    after = os.times()
    return done, (after.children_user - before.children_user) + (
        after.children_system - before.children_system)
