"""Children that never outlive us: parent-death signals and the process groups we started.

Three ways a child could be orphaned, and what stops each:

* we are killed with SIGKILL: nothing of ours runs, so every child asks the
  kernel for a signal when its parent dies (``prctl(PR_SET_PDEATHSIG)``,
  Linux): :func:`die_with_parent`;
* we are stopped with SIGTERM: while an external program runs,
  :func:`killing_groups_on_sigterm` kills its whole process group, then lets
  SIGTERM do what it would have done;
* we exit (normally, by an exception, by ``sys.exit``): an ``atexit`` hook
  kills every group still registered.

The program's process group (it leads one: ``start_new_session``) is
registered with :func:`track_group` for as long as it runs.

This module knows nothing of SAT or Sudoku.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import sys
import threading
from collections.abc import Iterator

__all__ = ["die_with_parent", "kill_tracked_groups", "killing_groups_on_sigterm", "track_group"]

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _find_prctl():
    """libc's prctl, looked up once here: a forked child must not load libraries."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _find_prctl()
_GROUPS: set[int] = set()
_GROUPS_LOCK = threading.Lock()


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> bool:
    """Ask the kernel to send `sig` to this process when its parent dies.

    Parameters
    ----------
    sig : int
        The signal (SIGKILL by default; SIGTERM lets a handler clean up first).
    parent : int, optional
        The parent's PID as the parent knew it: when our parent is already
        another process (it died before we asked), exit at once.

    Returns
    -------
    bool
        False where the kernel offers no such thing (not Linux).

    Notes
    -----
    Meant for a child's first moments (a ``preexec_fn`` or a worker's
    initializer): the signal fires when the *thread* that started us exits.
    """
    if _PRCTL is None:
        return False
    done = _PRCTL(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    if done and parent is not None and os.getppid() != parent:
        os._exit(128 + int(sig))  # our parent died before we asked: follow it now
    return done


def track_group(group: int) -> None:
    """Register a running program's process group, to be killed on every way out."""
    with _GROUPS_LOCK:
        _GROUPS.add(group)


def untrack_group(group: int) -> None:
    """The program's group is dead and reaped: forget it."""
    with _GROUPS_LOCK:
        _GROUPS.discard(group)


def kill_tracked_groups() -> None:
    """SIGKILL every registered process group (safe to call from a signal handler)."""
    for group in list(_GROUPS):
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)


atexit.register(kill_tracked_groups)


def _on_sigterm(signum: int, frame: object) -> None:
    """Kill our programs' groups, then die of SIGTERM as if no handler had been set."""
    kill_tracked_groups()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


@contextlib.contextmanager
def killing_groups_on_sigterm() -> Iterator[None]:
    """While the block runs, SIGTERM first kills the registered process groups.

    Only where SIGTERM has its default action (a handler someone else set is
    left alone) and only in the main thread (the only one that may set
    handlers); elsewhere the block runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous not in (signal.SIG_DFL, _on_sigterm):
        yield
        return
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
