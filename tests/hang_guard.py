"""The suite's hang guard: pytest-timeout's limit counted in the machine's share, not wall seconds.

pytest-timeout (``timeout`` in ``pyproject.toml``) stops a test that runs past
its limit: with the thread method it prints every thread's stack and ends the
worker process. Counted in wall seconds, that limit is a wall-clock bound that
a busy machine breaks. Beside eight busy loops on two cores a test gets about a
fifth of a core, and the slowest fuzz tests (about 110 s of CPU on a quiet
machine) passed 600 wall seconds and were stopped as hangs, their xdist workers
reported as "node down: Not properly terminated".

Here each wall second counts times the share of a core that a runnable thread
gets at that moment (cores / runnable threads, at most 1, read from
``/proc/loadavg`` once a second). On a quiet machine the limit is the wall limit
it always was; on a busy one it stretches as the machine is shared. A real hang
(a loop that never ends, a wait on a pipe that never closes) is still stopped,
with every thread's stack, by pytest-timeout's own ending.

``tests/conftest.py`` registers :func:`pytest_timeout_set_timer`; other timeout
methods (``signal``) are left to pytest-timeout.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
import pytest_timeout

LOADAVG = Path("/proc/loadavg")
TICK_S = 1.0  # how often the share is sampled: the guard's own cost is one small read per tick


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def share_of(loadavg: str, cores: int) -> float:
    """The share of a core a runnable thread gets, from the text of ``/proc/loadavg``.

    Its fourth field is ``runnable/total`` scheduling entities at this moment
    (the reader among the runnable). Unreadable text counts as a quiet machine
    (share 1): the guard is then the plain wall limit.

    >>> share_of("9.9 9.1 5.0 10/300 4242", 2)
    0.2
    >>> share_of("0.1 0.2 0.3 1/120 42", 2), share_of("garbled", 2)
    (1.0, 1.0)
    """
    try:
        runnable = int(loadavg.split()[3].split("/")[0])
    except (IndexError, ValueError):
        return 1.0
    return min(1.0, cores / max(runnable, 1))


def current_share() -> float:
    """:func:`share_of` the machine now (1 where ``/proc/loadavg`` cannot be read)."""
    try:
        return share_of(LOADAVG.read_text(), cores())
    except OSError:
        return 1.0


class ShareClock:
    """Seconds of the machine's share: wall time, each stretch weighted by the share then."""

    def __init__(self, now: float) -> None:
        self.last = now
        self.counted = 0.0

    def tick(self, now: float, share: float) -> float:
        """Count the wall time since the last tick at `share`; the total so far."""
        self.counted += max(0.0, now - self.last) * share
        self.last = now
        return self.counted


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item, settings):
    """Start the share-counted guard for `item` (the thread method only)."""
    if settings.method != "thread":
        return None  # pytest-timeout sets its own (SIGALRM) timer
    stop = threading.Event()

    def watch() -> None:
        clock = ShareClock(time.monotonic())
        while not stop.wait(TICK_S):
            if clock.tick(time.monotonic(), current_share()) >= settings.timeout:
                pytest_timeout.timeout_timer(item, settings)  # stacks, then os._exit(1)
                return

    watcher = threading.Thread(target=watch, name=f"hang guard {item.nodeid}", daemon=True)

    def cancel() -> None:
        stop.set()
        watcher.join()

    item.cancel_timeout = cancel  # what pytest-timeout's cancel hook calls
    watcher.start()
    return True
