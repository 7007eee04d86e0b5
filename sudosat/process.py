"""Running programs under a deadline, and children that never outlive us.

:func:`run_program` runs a program from an argument list (no shell) until it
exits or a deadline passes; :class:`Scratch` gives it input and output files
that have no name on disk. A deadline on the wall clock stops the program when
T has passed; one on the CPU clock stops it when its own CPU time (its
descendants' included) reaches what was left of T (:func:`wait_within`).
Three ways a child could be orphaned, and what stops each:

* we are killed with SIGKILL: nothing of ours runs, so a program has a
  watcher: a ``/bin/sh`` in a session of its own that blocks reading a pipe
  only we write to, and kills the program's whole process group when the
  pipe reaches end-of-file, which the kernel brings about when we die,
  however we die (:func:`_watch_group`). Every program also asks the kernel
  for a signal when its parent dies (``prctl(PR_SET_PDEATHSIG)``, Linux), which
  reaches the program only: one under a CPU deadline in our code before it
  runs (:func:`die_with_parent`), one under a wall-clock deadline through
  util-linux's ``setpriv``, so that no code of ours runs in the child and it
  starts the cheapest way (``vfork``);
* we are stopped with SIGTERM: while a program runs,
  :func:`killing_groups_on_sigterm` kills its whole process group, then lets
  SIGTERM do what it would have done;
* we exit (normally, by an exception, by ``sys.exit``): an ``atexit`` hook
  kills every group still registered.

The program's process group (it leads one: ``start_new_session``) is
registered with :func:`track_group` for as long as it runs.

This module knows nothing of SAT or Sudoku.

Examples
--------
>>> import sys
>>> from sudosat.sat.solvers.budget import Deadline
>>> run_program([sys.executable, "-c", "print(6 * 7)"], None, Deadline(30_000), "python").stdout
'42\\n'
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from sudosat.errors import SolverError, SolverNotFoundError

try:  # absent in Pyodide, which runs no programs
    import resource as _resource
except ImportError:  # pragma: no cover - CPython on a POSIX system has it
    _resource = None  # type: ignore[assignment]

__all__ = [
    "CPU_WALL_NET_FACTOR",
    "CPU_WALL_NET_S",
    "POLL_MAX_MS",
    "RLIMIT_MAX_S",
    "ProcessOutput",
    "Scratch",
    "TimeLeft",
    "die_with_parent",
    "kill_tracked_groups",
    "killing_groups_on_sigterm",
    "run_program",
    "track_group",
    "tree_cpu_seconds",
    "untrack_group",
    "wait_within",
]

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


class TimeLeft(Protocol):
    """Anything that says how long a program may still run (a solvers' ``Deadline`` does)."""

    @property
    def clock(self) -> str:
        """``"wall"`` or ``"cpu"``: what :meth:`remaining_or_none` counts."""
        ...

    def remaining_or_none(self) -> float | None:
        """Milliseconds left on that clock, or None without a limit."""
        ...


CPU_WALL_NET_FACTOR = 10
"""Under a CPU deadline a program is also stopped after this many times its CPU allowance
of wall time, plus :data:`CPU_WALL_NET_S`: a net far above T, only against a program that
sleeps (a busy machine gives a working program a fraction of a core, never a tenth of one
for long)."""
CPU_WALL_NET_S = 10.0

POLL_MAX_MS = 2**31 - 1
"""The longest wait one ``poll()`` takes (INT_MAX milliseconds, about 24.8 days): a longer
T is waited out in several, so a T of any size reaches no system call whole."""
RLIMIT_MAX_S = 2**31 - 1
"""The largest limit in seconds a program is given (INT32_MAX, about 68 years), a limit no
run meets: the highest ``RLIMIT_CPU`` set (the kernel's own type might not hold a larger
number) and the highest limit a solver's command line gets
(:func:`sudosat.sat.solvers.adapter.whole_seconds`: MiniSat refuses a larger ``-cpu-lim``
and reads this one as none, CaDiCaL and kissat read an ``int``, zChaff ``atoi``, which
wraps a larger number to a negative one). A larger T gives this; the kill at the deadline
stays the real bound."""

_POLL_MIN_S = 0.002  # the shortest and longest pauses between two looks at a child's CPU
_POLL_MAX_S = 0.05
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # /proc's unit


def wait_within(
    deadline: TimeLeft, pid: int, ready: Callable[[float | None], bool]
) -> bool:
    """Wait until ``ready(seconds)`` says a child is done, or its time is up; True if done.

    `ready` waits at most `seconds` (None: no limit) and returns whether the
    child has finished (it must not reap it). What bounds the wait:

    * a wall-clock deadline (or none): the time it has left;
    * a CPU deadline: the child's own CPU time, its descendants' included
      (:func:`tree_cpu_seconds`), against what the deadline has left when the
      wait begins (this process, waiting, uses next to none), looked at every
      2-50 ms (more often as the allowance runs out); so the child uses at
      most that allowance plus one pause and one clock tick (10 ms) of CPU
      per core it keeps busy. A wall-clock net of :data:`CPU_WALL_NET_FACTOR`
      times the allowance plus :data:`CPU_WALL_NET_S` stops a child that
      sleeps. Where the child's CPU cannot be read (no ``/proc``), it is given
      the allowance in wall time: a single-threaded program cannot use more
      CPU than wall time, so the bound holds, only sooner on a busy machine.
    """
    left_ms = deadline.remaining_or_none()
    if left_ms is None or str(getattr(deadline, "clock", "wall")) != "cpu":
        return ready(None if left_ms is None else left_ms / 1000.0)
    allowance = left_ms / 1000.0
    net = time.monotonic() + CPU_WALL_NET_FACTOR * allowance + CPU_WALL_NET_S
    while True:
        used = tree_cpu_seconds(pid)
        if used is None:
            return ready(allowance)
        if used >= allowance:
            return False
        pause = min(max((allowance - used) / 2, _POLL_MIN_S), _POLL_MAX_S)
        if ready(pause):
            return True
        if time.monotonic() >= net:
            return False


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user and system) of process `pid` and its descendants, from ``/proc``.

    Its own, its reaped children's, and those of its descendants still
    running (found through ``/proc/PID/task/TID/children``). None when
    ``/proc`` cannot tell (not Linux, or `pid` is gone).
    """
    total, seen, todo = 0, set(), [pid]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            with open(f"/proc/{current}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            if current == pid:
                return None
            continue  # a descendant that ended while we looked: its parent counts it
        total += sum(int(field) for field in fields[11:15])  # utime stime cutime cstime
        todo += _children_of(current)
    return total / _CLOCK_TICKS


def _children_of(pid: int) -> list[int]:
    """The running children of `pid` (every thread's), as ``/proc`` lists them; [] if it cannot."""
    children: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return children
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children", "rb") as handle:
                children += map(int, handle.read().split())
        except (OSError, ValueError):
            continue
    return children


# ---------------------------------------------------------------------------------------
# Running a program under a deadline (wall clock or CPU time)


@dataclass
class ProcessOutput:
    """What a finished (or stopped) program left behind.

    Attributes
    ----------
    stdout, stderr : str
        Its output, decoded as UTF-8 (undecodable bytes replaced).
    exit_code : int or None
        The exit code (negative: killed by that signal); None when we killed it
        at the deadline.
    wall_ms : float
        Wall-clock milliseconds from start to exit (or kill).
    cpu_ms : float or None
        The program's own CPU milliseconds (user and system, those of its
        children it waited for included), as the kernel reports them when it is
        reaped (``wait4``); None where that cannot be read.
    """

    stdout: str
    stderr: str
    exit_code: int | None
    wall_ms: float
    cpu_ms: float | None = None

    @property
    def timed_out(self) -> bool:
        """True when the deadline stopped the program."""
        return self.exit_code is None


def run_program(
    argv: list[str],
    workdir: Path | None,
    deadline: TimeLeft,
    label: str,
    *,
    pass_fds: tuple[int, ...] = (),
) -> ProcessOutput:
    """Run `argv` in `workdir` until it exits or `deadline` passes.

    The program gets no standard input; its output goes to anonymous files
    (no pipe can fill up or be held open by a grandchild, and no file is left
    behind however we end). It leads its own process group, which is killed
    with SIGKILL when the program exits or the deadline passes, whichever
    comes first, so none of its descendants survive (except one that
    deliberately leaves the group). It never outlives us either: it gets
    SIGKILL from the kernel if we die (the parent-death signal: set by
    :func:`die_with_parent` under a CPU deadline, by ``setpriv`` under a wall
    deadline, where the program is started with ``vfork``, the cheapest start
    Python offers), its group from a watcher then (:func:`_watch_group`), and
    its group is killed if we are stopped by SIGTERM or exit
    (:func:`killing_groups_on_sigterm`, :func:`kill_tracked_groups`). Its own
    CPU time comes back from the kernel as it is reaped (``cpu_ms``; with
    ``setpriv``, the launcher's fraction of a millisecond included).

    Parameters
    ----------
    argv : list of str
    workdir : Path or None
        Its working folder (None: the root folder, where it can write nothing).
    deadline : TimeLeft
        When to stop it (e.g. a :class:`sudosat.sat.solvers.budget.Deadline`):
        on the wall clock, when T has passed; on the CPU clock, when the
        program's own CPU time reaches what the deadline had left when it
        started (:func:`wait_within`), the kernel's ``RLIMIT_CPU`` set a
        second above that as a net for descendants ``/proc`` cannot list.
    label : str
        The name error messages give it.
    pass_fds : tuple of int
        Open files the program inherits under the same numbers (see
        :class:`Scratch`).

    Raises
    ------
    SolverNotFoundError
        The program does not exist or is not executable.
    SolverError
        The program cannot be started (e.g. not a binary or a script).
    """
    cpu_limit = _cpu_limit_s(deadline)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        with killing_groups_on_sigterm(), _watch_group() as watch:
            process = _start(argv, workdir or Path("/"), out, err, label, pass_fds, cpu_limit)
            watch(process.pid)
            finished = False
            try:
                finished = wait_within(deadline, process.pid, functools.partial(
                    _wait_for_exit_s, process.pid))
            finally:
                cpu_ms = _kill_group(process)
        wall_ms = (time.perf_counter() - started) * 1000.0
        exit_code = process.returncode if finished else None
        return ProcessOutput(_read_back(out), _read_back(err), exit_code, wall_ms, cpu_ms)


def _read_back(stream) -> str:
    stream.seek(0)
    return stream.read().decode("utf-8", errors="replace")


def _cpu_limit_s(deadline: TimeLeft) -> int | None:
    """The ``RLIMIT_CPU`` of a program run under a CPU deadline: a second above its allowance."""
    left_ms = deadline.remaining_or_none()
    if left_ms is None or str(getattr(deadline, "clock", "wall")) != "cpu":
        return None
    return min(math.ceil(left_ms / 1000.0) + 1, RLIMIT_MAX_S)


def _child_setup(parent: int, cpu_limit: int | None) -> None:
    """In the child before it runs the program: die with us, and cap its CPU if asked."""
    die_with_parent(signal.SIGKILL, parent)
    if cpu_limit is not None and _resource is not None:
        with contextlib.suppress(ValueError, OSError):
            _resource.setrlimit(_resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))


#: util-linux's ``setpriv`` (Linux), which sets a parent-death signal and then runs the
#: program in its own process: a program started without our code in the child has it too.
SETPRIV = shutil.which("setpriv") if sys.platform.startswith("linux") else None


def _not_runnable(label: str, program: str, found: bool) -> SolverNotFoundError:
    """The error for a `program` that is missing (`found` false) or not executable."""
    if not found:
        return SolverNotFoundError(f"{label}: program not found: {program}")
    return SolverNotFoundError(
        f"{label}: {program} is not executable (permission denied; chmod +x it?)"
    )


def _check_runnable(program: str, workdir: Path, label: str) -> None:
    """Raise as starting `program` would when it is missing or not executable.

    ``setpriv`` would report that itself (exit 127) where Popen raises, so it is
    checked first and said the same way.
    """
    if os.sep in program:
        found = str(Path(workdir, program)) if not os.path.isabs(program) else program
        exists = os.path.exists(found)
    else:
        found = shutil.which(program) or ""
        exists = bool(found)
    if not exists:
        raise _not_runnable(label, program, found=False)
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        raise _not_runnable(label, program, found=True)
    if not _kernel_can_start(found):
        raise SolverError(f"{label}: cannot run {program}: Exec format error")


def _kernel_can_start(path: str) -> bool:
    """Whether `path` starts as a script (``#!``) or an ELF file with a sane header.

    The kernel refuses anything else, and Popen says so; but ``setpriv`` execs with
    execvp, which then hands the file to ``/bin/sh`` as a script, and garbage would
    run as shell commands. The ELF test reads only what the kernel checks first:
    the magic, the class (32 or 64 bits), the byte order and the version.
    """
    try:
        with open(path, "rb") as program:
            head = program.read(7)
    except OSError:
        return True  # unreadable but executable: let the exec say why
    if head.startswith(b"#!"):
        return True
    return (
        len(head) == 7 and head[:4] == b"\x7fELF"
        and head[4] in (1, 2) and head[5] in (1, 2) and head[6] == 1
    )


def _start(
    argv: list[str], workdir: Path, out, err, label: str, pass_fds: tuple[int, ...] = (),
    cpu_limit: int | None = None,
) -> subprocess.Popen:
    # Without a CPU limit to set, the child runs no Python before the program: subprocess
    # then starts it with vfork, which copies nothing of this process (a fork of a notebook
    # kernel cost milliseconds of CPU here, and as much again in the child). util-linux's
    # setpriv then asks for the parent-death signal and becomes the program: it dies with us
    # from its first instruction, before the watcher (_watch_group) learns its group, which
    # takes a Python statement of ours that a busy machine may delay.
    setup = None
    launch = argv
    if cpu_limit is not None or SETPRIV is None:
        setup = functools.partial(_child_setup, os.getpid(), cpu_limit)
    else:
        _check_runnable(argv[0], workdir, label)
        launch = [SETPRIV, "--pdeathsig", "KILL", "--", *argv]
    try:
        process = subprocess.Popen(
            launch,
            cwd=workdir,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,  # its own process group: killable as a whole
            pass_fds=pass_fds,
            preexec_fn=setup,
        )
    except FileNotFoundError:
        raise _not_runnable(label, argv[0], found=False) from None
    except PermissionError:
        raise _not_runnable(label, argv[0], found=True) from None
    except OSError as exc:
        raise SolverError(f"{label}: cannot run {argv[0]}: {exc.strerror}") from None
    track_group(process.pid)
    return process


# The watcher: wait for a process group's number, then for end-of-file, then kill the group.
# Standard input is the read end of a pipe only we write to; the kernel closes our end when
# we die. Reading a line that is not a number (or end-of-file at once) kills nothing.
_WATCHER = 'read group; read _; case "$group" in ""|*[!0-9]*) exit 0;; esac; kill -KILL -"$group"'


@contextlib.contextmanager
def _watch_group() -> Iterator[Callable[[int], None]]:
    """A watcher that kills a process group if we die; the block gives it the group.

    The watcher starts before the program, so no moment of the program's life
    goes unwatched; it is told the group once the program exists. It runs in
    a session of its own (a terminal's Ctrl-C does not stop it) and is killed
    and reaped when the block ends, before our end of the pipe closes: while we
    live it never acts. Where no ``/bin/sh`` can be started, the block runs
    unwatched (the parent-death signal alone).
    """
    life_r, life = os.pipe()  # ours is not inheritable: only this process holds `life`
    try:
        watcher = subprocess.Popen(
            ["/bin/sh", "-c", _WATCHER], stdin=life_r, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True,
        )
    except OSError:
        watcher = None
    finally:
        os.close(life_r)

    def watch(group: int) -> None:
        with contextlib.suppress(OSError):
            os.write(life, f"{group}\n".encode())

    try:
        yield watch
    finally:
        if watcher is not None:
            watcher.kill()
            watcher.wait()
        os.close(life)


def _wait_for_exit_s(pid: int, timeout_s: float | None) -> bool:
    """:func:`_wait_for_exit` with the timeout in seconds (as :func:`wait_within` asks)."""
    return _wait_for_exit(pid, None if timeout_s is None else timeout_s * 1000.0)


def _wait_for_exit(pid: int, timeout_ms: float | None) -> bool:
    """Wait until `pid` exits (without reaping it) or the time runs out; True if it exited.

    Not reaping keeps the process id, which is also its group id, reserved
    until the group has been killed.
    """
    try:
        handle = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return _poll_for_exit(pid, timeout_ms)
    try:
        waiter = select.poll()
        waiter.register(handle, select.POLLIN)
        if timeout_ms is None:
            return bool(waiter.poll(None))
        until = time.monotonic() + timeout_ms / 1000.0
        while True:  # poll() takes at most INT_MAX ms: a longer wait is several
            left_ms = (until - time.monotonic()) * 1000.0
            if waiter.poll(min(max(math.ceil(left_ms), 0), POLL_MAX_MS)):
                return True
            if left_ms <= POLL_MAX_MS:
                return False
    finally:
        os.close(handle)


def _poll_for_exit(pid: int, timeout_ms: float | None) -> bool:
    """The same as :func:`_wait_for_exit` for kernels without pidfd (polls)."""
    until = math.inf if timeout_ms is None else time.monotonic() + timeout_ms / 1000.0
    pause = 0.0005
    while True:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return True
        left = until - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(pause, left))
        pause = min(pause * 2, 0.02)


def _kill_group(process: subprocess.Popen) -> float | None:
    """SIGKILL the program's whole process group, reap the program, see the others end.

    Returns the program's own CPU milliseconds, as :func:`_reap` reads them.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    cpu_ms = _reap(process)
    _await_group_end(process.pid)
    untrack_group(process.pid)
    return cpu_ms


def _reap(process: subprocess.Popen) -> float | None:
    """Wait for the program and set its exit code; its CPU milliseconds (None: not known).

    ``wait4`` gives the kernel's account of the program's own CPU time (user
    and system, its reaped children's included), read in the same call that
    reaps it; where it is missing, the program is reaped as usual.
    """
    wait4 = getattr(os, "wait4", None)
    if process.returncode is None and wait4 is not None:
        try:
            _, status, usage = wait4(process.pid, 0)
        except ChildProcessError:  # reaped elsewhere: Popen knows how to say so
            pass
        else:
            process.returncode = os.waitstatus_to_exitcode(status)
            return (usage.ru_utime + usage.ru_stime) * 1000.0
    process.wait()
    return None


def _await_group_end(group: int, patience_s: float = 2.0) -> None:
    """Wait until no member of `group` still runs: a signal is delivered asynchronously.

    Members other than the program (its own children) are not ours to reap;
    they count as ended once they are zombies. Without /proc we cannot tell,
    and trust the signal.
    """
    try:
        os.killpg(group, 0)
    except (ProcessLookupError, PermissionError):
        return  # the usual case: the program had no children left
    limit = time.monotonic() + patience_s
    while _running_members(group) and time.monotonic() < limit:
        time.sleep(0.002)


def _running_members(group: int) -> bool:
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # it ended while we looked
        if int(fields[2]) == group and fields[0] not in (b"Z", b"X"):
            return True
    return False


class Scratch:
    """The files a program reads and writes, with no name on disk.

    Each file is anonymous (deleted as soon as made), open here, and handed to
    the program as ``/dev/fd/N`` (an inherited descriptor): whatever stops us,
    even SIGKILL, leaves no file or folder behind. Where ``/dev/fd`` is
    missing, the files live in a private folder (mode 0700) removed when the
    block ends.
    """

    def __init__(self, label: str) -> None:
        self.label = label
        self._stack = contextlib.ExitStack()
        self._folder: Path | None = None
        self.handles: list[int] = []

    def __enter__(self) -> Scratch:
        if not os.path.isdir("/dev/fd"):
            self._folder = Path(tempfile.mkdtemp(prefix=f"sudosat-{self.label}-"))
            self._stack.callback(shutil.rmtree, self._folder, True)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stack.close()

    def file(self, name: str, text: str = "") -> tuple[Path, BinaryIO]:
        """A file holding `text`: (the path the program gets, our open binary handle)."""
        if self._folder is not None:
            path = self._folder / name
            stream = self._stack.enter_context(open(path, "w+b"))  # noqa: SIM115
        else:
            stream = self._stack.enter_context(tempfile.TemporaryFile())  # noqa: SIM115
            self.handles.append(stream.fileno())
            path = Path(f"/dev/fd/{stream.fileno()}")
        stream.write(text.encode("ascii"))
        stream.flush()
        return path, stream

    @staticmethod
    def read(stream: BinaryIO) -> str:
        """What the program left in a file of :meth:`file`."""
        return _read_back(stream)
