"""Where batch work runs: in this process, in local worker processes, or on Dask.

The executors of :func:`sudosat.run.batch.run_batch`, apart from the Sudoku
logic so that they stay small and testable on their own (how its files are
written is :mod:`sudosat.outputs`'s):

    :class:`SerialExecutor` (in this process), :class:`ProcessExecutor` (local
    worker processes) and :class:`DaskExecutor` (a Dask ``distributed``
    cluster). Each is a context manager with one method, ``map_unordered(fn,
    items)``, which yields ``(item, outcome)`` pairs as the work finishes, in
    any order. ``outcome`` is ``fn(item)``, or the exception that stopped it
    when the *worker itself* died (a killed process, a lost Dask worker): a
    crash costs the items it hit, never the others.

This module knows nothing of Sudoku.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sudosat.errors import SudosatError, WorkerCrashed
from sudosat.process import die_with_parent
from sudosat.run.scheduler import probe_scheduler, scheduler_address

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
            broken = False
            while source and len(in_flight) < limit:
                item = source.popleft()
                try:
                    in_flight[pool.submit(fn, item)] = item
                except BrokenProcessPool:  # a worker died since the last wait: this item never ran
                    source.appendleft(item)
                    broken = True
                    break
            if broken:  # keep what finished before the break; the rest is lost with the pool
                done = {future for future in in_flight if future.done()}
            else:
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
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
        The scheduler's address (``tcp://host:8786``), checked and asked first
        (:mod:`sudosat.run.scheduler`); None starts a
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
            import dask
            import distributed
        except ImportError:
            raise SudosatError(
                "--executor dask needs the optional extra: pip install 'sudosat[cluster]'"
            ) from None
        try:
            if self.scheduler is None:
                # The workers' scratch space (Dask's default: $TMPDIR/dask-scratch-space, left
                # behind) in a folder of our own, removed after the cluster has stopped.
                scratch = tempfile.mkdtemp(prefix="sudosat-dask-")
                self._stack.callback(shutil.rmtree, scratch, True)
                self._stack.enter_context(dask.config.set({"temporary-directory": scratch}))
                cluster = self._stack.enter_context(
                    distributed.LocalCluster(
                        n_workers=self.workers, threads_per_worker=1, dashboard_address=":0",
                        local_directory=scratch,
                    )
                )
                self.client = self._stack.enter_context(distributed.Client(cluster))
            else:
                address = scheduler_address(self.scheduler)
                probe_scheduler(address)  # a wrong address is refused here, in seconds
                with _dask_quiet():  # what fails is said once, below, in our one line
                    client = distributed.Client(address, timeout=f"{DASK_CONNECT_TIMEOUT_S}s")
                self.client = self._stack.enter_context(client)
        except SudosatError:
            self._stack.close()
            raise
        except (Exception, MemoryError) as exc:  # Dask's, whatever it is: never "out of memory"
            self._stack.close()
            where = self.scheduler or "a local cluster"
            raise SudosatError(f"cannot reach the Dask scheduler at {where}: "
                               f"{_connect_failure(exc)}") from None
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


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """No log record in this process while the block runs: Dask logs a peer that answers
    with what it cannot read at CRITICAL, with a traceback, before our own line says it."""
    import logging

    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(previous)


def _connect_failure(exc: BaseException) -> str:
    """Why connecting to a scheduler failed, in one line (an exception may hold no words).

    Examples
    --------
    >>> _connect_failure(TimeoutError())
    'no answer to the handshake within 20 s (TimeoutError)'
    >>> _connect_failure(ValueError("bad\\nframe"))
    'ValueError: bad frame'
    """
    text = " ".join(str(exc).split())
    if isinstance(exc, TimeoutError) and not text:
        return f"no answer to the handshake within {DASK_CONNECT_TIMEOUT_S:g} s (TimeoutError)"
    if not text:
        return f"its answer is not one a Dask scheduler gives ({type(exc).__name__})"
    return f"{type(exc).__name__}: {text}"
