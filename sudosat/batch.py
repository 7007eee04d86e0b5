"""Where batch work runs, and how its files are written safely.

Two concerns of :func:`sudosat.pipeline.run_batch` live here, apart from the
Sudoku logic so that they stay small and testable on their own:

Executors
    :class:`SerialExecutor` (in this process), :class:`ProcessExecutor` (local
    worker processes) and :class:`DaskExecutor` (a Dask ``distributed``
    cluster). Each is a context manager with one method, ``map_unordered(fn,
    items)``, which yields ``(item, outcome)`` pairs as the work finishes, in
    any order. ``outcome`` is ``fn(item)``, or the exception that stopped it
    when the *worker itself* died (a killed process, a lost Dask worker): a
    crash costs the items it hit, never the others.

Files
    :func:`write_atomically` (a file replaced all at once, a device or FIFO
    written in place), :func:`check_writable` (refuse a bad output before any
    work) and :class:`ResultsLock` (one run per results file). The results
    table itself is :mod:`sudosat.results`'s.

This module knows nothing of Sudoku.
"""

from __future__ import annotations

import contextlib
import fcntl
import multiprocessing
import os
import signal
import stat
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from sudosat.errors import OutputError, SudosatError, WorkerCrashed, open_error_reason
from sudosat.process import die_with_parent

Work = Callable[[Any], Any]
"""What an executor runs: one picklable function applied to each item."""
Done = tuple[Any, Any]
"""``(item, outcome)`` as an executor yields it."""


DASK_CONNECT_TIMEOUT_S = 20
"""Seconds to wait for a Dask scheduler to answer before giving up."""
MANAGER_JOIN_S = 10
"""Seconds to let a stopped process pool's manager thread finish."""


# ---------------------------------------------------------------------------------------
# executors


class SerialExecutor:
    """Run every item in this process, one after another (``-j 1``)."""

    def __enter__(self) -> SerialExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def map_unordered(self, fn: Work, items: Iterable[Any]) -> Iterator[Done]:
        """Yield ``(item, fn(item))`` for every item, in order (the exception if it raised)."""
        for item in items:
            try:
                outcome = fn(item)
            except Exception as exc:  # like a worker's crash: that item only, never the rest
                outcome = exc
            yield item, outcome


def _start_worker(parent: int) -> None:
    """Worker initializer: Ctrl-C is the parent's to handle; die with the parent.

    The parent stops its workers itself after Ctrl-C or SIGTERM. If it is
    killed outright (SIGKILL), the kernel sends each worker SIGTERM, which
    kills the worker and the process group of any solver program it runs
    (:mod:`sudosat.process`); the resource tracker then sees every end of
    its pipe closed and exits too.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(signal.SIGTERM, parent)


class ProcessExecutor:
    """Run items in `workers` local processes, surviving the death of any of them.

    A process that dies (killed, out of memory, a crash in C code) breaks a
    :class:`~concurrent.futures.ProcessPoolExecutor` and fails every item in
    flight. The innocent are not to pay for it: the items in flight become
    *suspects* and are run again one at a time in a fresh pool, so a second
    death names the one item that causes it, which is then reported as
    :class:`WorkerCrashed`; the rest of the work goes on in parallel.

    Parameters
    ----------
    workers : int
        Number of processes (at least 1).
    start_method : str
        ``spawn`` (default: each worker is a fresh interpreter, safe beside
        threads such as tqdm's or a notebook kernel's), ``forkserver`` or ``fork``.
    """

    def __init__(self, workers: int, start_method: str = "spawn") -> None:
        self.workers = max(1, workers)
        self.context = multiprocessing.get_context(start_method)
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> ProcessExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop_pool(terminate=exc_info[0] is not None)

    def _new_pool(self) -> ProcessPoolExecutor:
        self._stop_pool(terminate=True)
        self._pool = ProcessPoolExecutor(
            self.workers,
            mp_context=self.context,
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
        return self._pool

    def _stop_pool(self, terminate: bool) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # The pool keeps its processes in a private dict; reaching for it is the only way to
        # stop a worker in the middle of a long item (after Ctrl-C or when the pool broke).
        processes = list((getattr(pool, "_processes", None) or {}).values()) if terminate else []
        pool.shutdown(wait=not terminate, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        # Let the pool's manager thread see its workers gone and close its wake-up pipe now.
        # Left running, it races Python's exit hook, which may write to that pipe as it is
        # closed and print a traceback after Ctrl-C (CPython 3.11, gh-125451).
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=MANAGER_JOIN_S)

    def map_unordered(self, fn: Work, items: Iterable[Any]) -> Iterator[Done]:
        """Yield ``(item, fn(item) or WorkerCrashed)`` as items finish."""
        pending: deque[Any] = deque(items)
        suspects: deque[Any] = deque()
        in_flight: dict[Future, Any] = {}
        window = 2 * self.workers  # enough to keep every worker busy, few to re-run after a crash
        pool = self._new_pool()
        while pending or suspects or in_flight:
            isolating = bool(suspects)
            source = suspects if isolating else pending
            limit = 1 if isolating else window
            while source and len(in_flight) < limit:
                item = source.popleft()
                in_flight[pool.submit(fn, item)] = item
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                item = in_flight.pop(future)
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    broken = True
                    in_flight[future] = item  # re-run with the others in flight, below
                    continue
                except Exception as exc:  # e.g. an outcome that cannot be pickled: that item only
                    outcome = exc
                yield item, outcome
            if not broken:
                continue
            lost = list(in_flight.values())
            in_flight.clear()
            if isolating and len(lost) == 1:
                yield (
                    lost[0],
                    WorkerCrashed(
                        "the worker process died while solving this "
                        "instance (killed, out of memory or crashed)"
                    ),
                )
            else:
                suspects.extend(lost)
            pool = self._new_pool()


class DaskExecutor:
    """Run items on a Dask ``distributed`` cluster (the optional extra ``sudosat[cluster]``).

    Parameters
    ----------
    scheduler : str or None
        The scheduler's address (``tcp://host:8786``); None starts a
        :class:`distributed.LocalCluster` of `workers` processes on this machine.
    workers : int
        Workers of the local cluster (ignored with `scheduler`).
    window : int or None
        Items submitted ahead of the results (default: four per worker thread),
        so that a sweep of any size never floods the scheduler.

    Notes
    -----
    Every worker must be able to ``import sudosat`` (the same version as the
    client). A worker that dies is retried by Dask on another worker; an item
    that kills workers repeatedly comes back as the exception Dask raises
    (``KilledWorker``), reported as that item's error.
    """

    def __init__(
        self, scheduler: str | None = None, workers: int = 2, window: int | None = None
    ) -> None:
        self.scheduler = scheduler
        self.workers = max(1, workers)
        self.window = window
        self._stack = contextlib.ExitStack()
        self.client: Any = None

    def __enter__(self) -> DaskExecutor:
        try:
            import distributed
        except ImportError:
            raise SudosatError(
                "--executor dask needs the optional extra: pip install 'sudosat[cluster]'"
            ) from None
        try:
            if self.scheduler is None:
                cluster = self._stack.enter_context(
                    distributed.LocalCluster(
                        n_workers=self.workers, threads_per_worker=1, dashboard_address=":0"
                    )
                )
                self.client = self._stack.enter_context(distributed.Client(cluster))
            else:
                client = distributed.Client(self.scheduler, timeout=f"{DASK_CONNECT_TIMEOUT_S}s")
                self.client = self._stack.enter_context(client)
        except (OSError, TimeoutError) as exc:
            self._stack.close()
            where = self.scheduler or "a local cluster"
            raise SudosatError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stack.close()

    def _threads(self) -> int:
        info = self.client.scheduler_info()
        return max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))

    def map_unordered(self, fn: Work, items: Iterable[Any]) -> Iterator[Done]:
        """Yield ``(item, fn(item) or the exception that lost it)`` as items finish."""
        from distributed import as_completed

        pending = iter(items)
        window = self.window or 4 * self._threads()
        in_flight: dict[Any, Any] = {}
        finished = as_completed()

        def submit_next() -> bool:
            item = next(pending, _END)
            if item is _END:
                return False
            future = self.client.submit(fn, item, pure=False)
            in_flight[future.key] = item
            finished.add(future)
            return True

        for _ in range(window):
            if not submit_next():
                break
        for future in finished:
            item = in_flight.pop(future.key)
            try:
                outcome = future.result()
            except Exception as exc:  # a lost worker or a task Dask gave up on: that item only
                outcome = WorkerCrashed(f"the Dask task failed: {type(exc).__name__}: {exc}")
            future.release()
            submit_next()
            yield item, outcome


_END = object()


# ---------------------------------------------------------------------------------------
# writing files that may not be ordinary

SPECIAL_KINDS = frozenset({"character device", "FIFO"})
"""Kinds of file written in place (a rename would replace the device or pipe itself)."""
_WRITABLE_KINDS = SPECIAL_KINDS | {"regular file", "missing"}
_TEMPORARY_PREFIX = ".sudosat-"  # short: a name of 255 bytes still gets a temporary beside it


def file_kind(path: str | os.PathLike) -> str:
    """``regular file``, ``missing``, ``directory``, ``character device``, ``FIFO``, ...

    Symlinks are followed; a dangling one is ``missing``.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    for test, kind in (
        (stat.S_ISREG, "regular file"),
        (stat.S_ISDIR, "directory"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISSOCK, "socket"),
    ):
        if test(mode):
            return kind
    return "special file"


def output_target(path: str | os.PathLike) -> Path:
    """Where writing `path` lands: symlinks followed to their target (even a missing one)."""
    return Path(os.path.realpath(path))


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere: the classic set-and-restore
    os.umask(mask)
    return mask


def write_atomically(
    path: str | os.PathLike, text: str, *, lock: ResultsLock | None = None
) -> None:
    """Replace `path` by `text` all at once: readers see the old file or the new, never half.

    Only a regular (or new) file is replaced: a symlink is followed and its
    target written; a character device or FIFO is written in place (replacing
    it by a file would destroy it, as it did ``/dev/null``); anything else is
    refused. The new file keeps the old one's permissions, or gets those the
    umask gives a new file. With `lock`, the lock moves to the new file before
    it takes the old one's place.

    Raises
    ------
    OutputError
        The file cannot be written (the message names it and says why).
    """
    target = output_target(path)
    kind = file_kind(target)
    if kind in SPECIAL_KINDS:
        _write_in_place(target, text)
        return
    if kind not in _WRITABLE_KINDS:
        raise OutputError(f"cannot write a {kind}", file=str(path))
    mode = stat.S_IMODE(os.stat(target).st_mode) if kind == "regular file" else 0o666 & ~_umask()
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=_TEMPORARY_PREFIX, suffix=".tmp", dir=target.parent
        )
    except OSError as exc:
        raise OutputError(open_error_reason(exc, "write"), file=str(path)) from None
    try:
        os.fchmod(handle, mode)
        with open(handle, "w", encoding="utf-8", newline="", closefd=False) as stream:
            stream.write(text)
        if lock is not None:
            lock.move_to(handle)
        os.replace(temporary, target)
    except BaseException as exc:
        os.close(handle)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise OutputError(open_error_reason(exc, "write"), file=str(path)) from None
        raise
    if lock is None or not lock.owns(handle):
        os.close(handle)


def _write_in_place(target: Path, text: str) -> None:
    try:
        with open(target, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
    except OSError as exc:
        raise OutputError(open_error_reason(exc, "write"), file=str(target)) from None


def check_writable(path: str | os.PathLike) -> None:
    """Refuse, before any work, an output path that cannot be written.

    Checks the kind of file (a folder, a socket or a block device is refused),
    the length of its name, and that its folder (or the nearest existing
    parent, when folders are to be created) takes a new file, by creating and
    removing one: permission bits alone do not tell (root, read-only mounts).

    Raises
    ------
    OutputError
        One line naming the path and the reason.
    """
    target = output_target(path)
    folder = target.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise OutputError(f"{folder} is not a folder", file=str(path))
    length, limit = len(os.fsencode(target.name)), _name_max(folder)
    if length > limit:
        raise OutputError(
            f"the file name is {length} bytes long; the limit here is {limit}", file=str(path)
        )
    kind = file_kind(target)
    if kind.startswith("unreadable"):
        raise OutputError(f"cannot be examined: {kind}", file=str(path))
    if kind not in _WRITABLE_KINDS:
        what = "a folder" if kind == "directory" else f"a {kind}"
        raise OutputError(f"is {what}, not a file that can be written", file=str(path))
    if kind in SPECIAL_KINDS:
        if not os.access(target, os.W_OK):
            raise OutputError(f"the {kind} is not writable", file=str(path))
        return
    if kind == "regular file" and not os.access(target, os.W_OK):
        raise OutputError("the file is read-only", file=str(path))
    try:
        handle, probe = tempfile.mkstemp(prefix=_TEMPORARY_PREFIX, suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(
            f"cannot write in the folder {folder}: {exc.strerror}", file=str(path)
        ) from None
    os.close(handle)
    os.unlink(probe)


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def same_file(first: str | os.PathLike | int, second: str | os.PathLike | int) -> bool:
    """True when both name one file: one path after symlinks, or the same inode.

    An ``int`` is an open file descriptor (compared by its inode only).
    """
    paths = not isinstance(first, int) and not isinstance(second, int)
    if paths and output_target(first) == output_target(second):
        return True
    try:
        a, b = os.stat(first), os.stat(second)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


# ---------------------------------------------------------------------------------------
# one run per results file


class ResultsInUse(SudosatError, RuntimeError):
    """Another run holds the lock on the results file."""


class ResultsLock:
    """An exclusive lock (``flock``) on a results file, held for the whole run.

    A second run on the same file is refused with :class:`ResultsInUse`,
    naming the other run's PID where Linux tells it (``/proc/locks``). The
    lock belongs to the file's inode; :func:`write_atomically` moves it to the
    new inode before the rename, so there is no moment when the path is
    unlocked. A special file (FIFO, character device) is not locked: it keeps
    no rows to lose.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "r.csv")
    >>> with ResultsLock(path):
    ...     ResultsLock(path).acquire()
    Traceback (most recent call last):
    ...
    sudosat.batch.ResultsInUse: ...r.csv: in use by another run (PID ...); ...
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._handle: int | None = None

    def acquire(self) -> ResultsLock:
        target = output_target(self.path)
        if file_kind(target) in SPECIAL_KINDS:
            return self
        while self._handle is None:
            handle = self._open(target)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _lock_holder(handle)
                os.close(handle)
                pid = f"PID {holder}" if holder else "PID unknown"
                raise ResultsInUse(
                    f"in use by another run ({pid}); wait for it to finish or choose "
                    "another --results",
                    file=str(self.path),
                ) from None
            if same_file(handle, target):
                self._handle = handle
            else:  # replaced between our open and our lock: lock the new one
                os.close(handle)
        return self

    def _open(self, target: Path) -> int:
        try:
            return os.open(target, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as exc:
            raise OutputError(open_error_reason(exc, "open"), file=str(self.path)) from None

    def move_to(self, handle: int) -> None:
        """Lock `handle` (the file about to replace ours) and let the old lock go."""
        if self._handle is None:
            return
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.close(self._handle)
        self._handle = handle

    def owns(self, handle: int) -> bool:
        return self._handle == handle

    def release(self) -> None:
        if self._handle is not None:
            os.close(self._handle)  # closing the last handle releases the flock
            self._handle = None

    def __enter__(self) -> ResultsLock:
        return self.acquire()

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def _lock_holder(handle: int) -> int | None:
    """The PID holding a lock on the file of `handle`, from ``/proc/locks`` (Linux)."""
    info = os.fstat(handle)
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        text = Path("/proc/locks").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        fields = line.split()
        if "->" in fields or len(fields) < 6:
            continue
        if fields[5] == where and fields[4].isdigit():
            return int(fields[4])
    return None
