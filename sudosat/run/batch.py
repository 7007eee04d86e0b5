"""A file of instance lines, every line with every solver: :func:`run_batch`.

It answers each line with :func:`sudosat.run.pipeline.solve_line` on one of the
executors of :mod:`sudosat.run.executors` (this process, local worker
processes, a Dask cluster), writes one output file per solver (exactly one line
per input line, in order, atomically at the end) and appends the results table
row by row, so that an interrupted run loses nothing finished and
``resume=True`` completes it (see :mod:`sudosat.run.pipeline` for the whole
story, from one board to a cluster sweep).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudosat.errors import (
    InstanceError,
    OutputError,
    SudosatError,
    import_extra,
    open_error_reason,
)
from sudosat.lines import read_text, split_lines
from sudosat.outputs import (
    SPECIAL_KINDS,
    ResultsLock,
    check_outputs,
    file_kind,
    output_target,
    write_atomically,
)
from sudosat.run.executors import DaskExecutor, ProcessExecutor, SerialExecutor
from sudosat.run.pipeline import (
    Task,
    output_paths,
    parse_line,
    results_path,
    solve_line,
)
from sudosat.run.results import (
    COLUMNS,
    STATUSES,
    ResultsLog,
    Row,
    Verdict,
    read_rows,
    write_table,
)
from sudosat.run.resume import Key, kept_rows, solvers_order, stamped
from sudosat.run.resume import run_hash as _run_hash
from sudosat.run.runner import (
    blank_row,
    failed_outcome,
    import_solver,
)
from sudosat.sat.cnf import CNF
from sudosat.sat.solvers.budget import Deadline, one_deadline
from sudosat.sat.solvers.registry import solve
from sudosat.sudoku.incremental import LoadedRules

__all__ = [
    "COLUMNS",
    "STATUSES",
    "BatchSettings",
    "BatchSummary",
    "SolverSummary",
    "check_instance_file",
    "check_paths",
    "probe_solver",
    "run_batch",
    "run_hash",
]


@dataclass(frozen=True)
class BatchSettings:
    """How :func:`run_batch` solves a file: everything but the files themselves.

    Attributes
    ----------
    solvers : tuple of str
        Solver names; each line is solved with each, under the same T.
    encoding : str
        The encoding for every line.
    deadline : Deadline, optional
        T, per line and solver, for the whole pipeline: each line restarts it
        (:meth:`~sudosat.sat.solvers.budget.Deadline.restarted`) when its work
        begins, on its clock (the command line's ``-T`` is a wall-clock one).
    time_limit_ms : float, optional
        A convenience for `deadline`: T in wall-clock milliseconds, made into
        `deadline` here, once (give one or the other).
    results : path, optional
        The results table (its suffix chooses CSV or JSONL, see
        :func:`sudosat.run.results.table_format`); default :func:`results_path`.
    jobs : int
        Worker processes (1: in this process), or local Dask workers.
    resume : bool
        Keep the rows already in `results` for these lines, solvers and this
        encoding, and solve only the others. The input file must be the same.
    seed : int
        Seed for every solver call (the same for every line, so any worker
        gives the same answer).
    zchaff : str, optional
        The zChaff binary for the ``zchaff`` solver.
    solver_options : mapping, optional
        Extra keyword options per solver name (``{"cdcl": {"incremental": True}}``).
    executor : {"processes", "dask"}
        Local processes (default), or a Dask cluster at `scheduler` (a local
        one of `jobs` workers when `scheduler` is None).
    scheduler : str, optional
        The Dask scheduler's address.
    progress : bool, optional
        Show a tqdm progress bar; default: when standard error is a terminal
        or a notebook runs us.
    max_bytes : int, optional
        The memory guard's limit per formula (see :func:`solve_instance`).
    """

    solvers: tuple[str, ...] = ("cdcl",)
    encoding: str = "course"
    time_limit_ms: float | None = None
    deadline: Deadline | None = None
    results: str | Path | None = None
    jobs: int = 1
    resume: bool = False
    seed: int = 0
    zchaff: str | None = None
    solver_options: Mapping[str, Mapping[str, Any]] | None = None
    executor: str = "processes"
    scheduler: str | None = None
    progress: bool | None = None
    max_bytes: int | None = None

    def __post_init__(self) -> None:
        solvers = tuple(dict.fromkeys(self.solvers)) or ("cdcl",)  # once each, in order
        object.__setattr__(self, "solvers", solvers)
        if self.time_limit_ms is not None or self.deadline is not None:
            limit = one_deadline(self.deadline, self.time_limit_ms)
            object.__setattr__(self, "deadline", limit)
            object.__setattr__(self, "time_limit_ms", None)  # the one form from here on

    def options(self, solver: str) -> dict[str, Any]:
        """The keyword options `solver` gets on every line: the seed, zChaff's path, the extras."""
        mine: dict[str, Any] = {"seed": self.seed}
        if solver == "zchaff" and self.zchaff:
            mine["zchaff"] = self.zchaff
        mine.update((self.solver_options or {}).get(solver, {}))
        return mine


@dataclass(frozen=True)
class _Job:
    """Everything a worker needs besides the line: small and picklable."""

    encoding: str
    deadline: Deadline | None  # each line restarts it
    source: str
    options: dict[str, dict[str, Any]]  # solver -> its keyword options
    max_bytes: int | None = None
    # The loaded rules of a run in this process, closed at its end (workers: their own).
    rules: LoadedRules | None = field(default=None, compare=False, repr=False)


def _solve_task(job: _Job, task: Task) -> Row:
    """Worker entry point: solve line `task` = (number, text, solver); return its row.

    The line's deadline starts here, once the solver's module is imported: T
    is for the line's work.
    """
    number, text, solver = task
    import_solver(solver)
    extra: dict[str, Any] = {"rules": job.rules} if job.rules is not None else {}
    outcome = solve_line(
        text,
        number,
        solver,
        job.encoding,
        deadline=None if job.deadline is None else job.deadline.restarted(),
        source=job.source,
        max_bytes=job.max_bytes,
        **extra,
        **job.options.get(solver, {}),
    )
    return outcome.row


@dataclass
class SolverSummary:
    """Counts and times of one solver over a file."""

    solver: str
    output: Path
    solved: int = 0
    unsat: int = 0
    timeouts: int = 0
    errors: int = 0
    unknown: int = 0  # a work budget ran out before T (never counted as a time-out)
    times_ms: list[float] = field(default_factory=list, repr=False)
    error_lines: list[tuple[int, str]] = field(default_factory=list, repr=False)

    def add(self, row: Row) -> None:
        status = row.get("status")
        if status == Verdict.ERROR:
            self.error_lines.append((int(row["line"]), str(row.get("error") or "error")))
        if status == Verdict.SAT:
            self.solved += 1
        elif status == Verdict.UNSAT:
            self.unsat += 1
        elif status == Verdict.TIMEOUT:
            self.timeouts += 1
        elif status == Verdict.UNKNOWN:
            self.unknown += 1
        else:
            self.errors += 1
        if status != Verdict.ERROR and row.get("total_wall_ms") not in (None, ""):
            self.times_ms.append(float(row["total_wall_ms"]))

    @property
    def lines(self) -> int:
        return self.solved + self.unsat + self.timeouts + self.unknown + self.errors

    def __str__(self) -> str:
        times = self.times_ms
        timing = (
            f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms"
            if times
            else "no timings"
        )
        budget = f"{self.unknown} unknown (a work budget ran out), " if self.unknown else ""
        return (
            f"{self.solver}: {self.lines} lines: {self.solved} solved, {self.unsat} unsat, "
            f"{self.timeouts} timeouts, {budget}{self.errors} errors; {timing} -> {self.output}"
        )


@dataclass
class BatchSummary:
    """What :func:`run_batch` did: one :class:`SolverSummary` per solver, and the files."""

    solvers: dict[str, SolverSummary]
    results: Path
    resumed: int = 0
    new_rows: int = 0
    discarded: int = 0

    def __str__(self) -> str:
        lines = [str(summary) for summary in self.solvers.values()]
        note = f" ({self.resumed} rows kept from the earlier run)" if self.resumed else ""
        if self.discarded:
            note += (
                f" ({self.discarded} rows of the earlier run did not match this input "
                "and these options, or did not check, and were solved again)"
            )
        lines.append(f"results: {self.results}{note}")
        return "\n".join(lines)


def run_batch(
    instances: str | Path,
    output: str | Path | None = None,
    settings: BatchSettings | None = None,
    **changes: Any,
) -> BatchSummary:
    """Solve every line of an instance file with every solver; write outputs and results.

    Parameters
    ----------
    instances : path
        The instance file, one board per line (any format :meth:`Board.parse` reads).
    output : path, optional
        The output file; see :func:`output_paths` for several solvers or none.
    settings : BatchSettings, optional
        How to solve (default ``BatchSettings()``: cdcl, course, no limit).
    **changes
        Fields of :class:`BatchSettings` to change (``solvers=["cdcl",
        "dpll"], jobs=2``); an unknown name is a TypeError.

    Returns
    -------
    BatchSummary

    Raises
    ------
    SudosatError
        The instance file cannot be read (InstanceError), or an output cannot
        be written (OutputError). A bad line is never raised: it becomes an
        ERROR line and row.
    KeyboardInterrupt
        After Ctrl-C, once every finished row is safely in the results table.

    Notes
    -----
    Worker processes are started with ``spawn`` (fresh interpreters, safe
    beside threads): a script that calls this with ``jobs > 1`` needs the
    usual ``if __name__ == "__main__":`` guard. Rows are appended in the order
    they finish; at the end the table is rewritten sorted by line, then solver.
    """
    settings = dataclasses.replace(settings or BatchSettings(), **changes)
    solvers = list(settings.solvers)
    lines = _read_lines(instances, settings.max_bytes)  # stops at the limit while reading
    outputs = output_paths(instances, output, solvers)
    results = Path(settings.results or results_path(instances, output))
    roles = [(path, f"the output of {solver}") for solver, path in outputs.items()]
    check_paths(instances, [*roles, (results, "the results table")])  # before any work
    options = {solver: settings.options(solver) for solver in solvers}
    tasks = [(number, text, solver) for number, text in enumerate(lines, 1) for solver in solvers]
    # bad executor options fail before any file changes
    runner = _make_executor(settings.executor, settings.jobs, settings.scheduler)
    # Solving in this process, the run owns the loaded rules and closes them at its end.
    rules = LoadedRules() if isinstance(runner, SerialExecutor) else None
    job = _Job(settings.encoding, settings.deadline, str(instances), options,
               settings.max_bytes, rules)
    try:
        with runner:  # started before any file is made: a Dask scheduler out of reach leaves none
            return _run_job(job, tasks, runner, settings, lines, solvers, (outputs, results))
    finally:
        if rules is not None:
            rules.close()


def _run_job(job: _Job, tasks: list[Task], runner: Any, settings: BatchSettings,
             lines: list[str], solvers: list[str], paths: tuple[dict, Path]) -> BatchSummary:
    """Solve the tasks not answered yet, keep the rows, write the table and the outputs."""
    outputs, results = paths
    _ensure_parent(results)
    special = file_kind(output_target(results)) in SPECIAL_KINDS
    with ResultsLock(results) as lock:
        found = read_rows(results, warn_torn=True) if settings.resume and not special else []
        run_hashes = {solver: run_hash(job, solver) for solver in solvers}
        kept = kept_rows(found, lines, run_hashes, parse_line)
        rows = {(row["line"], row["solver"]): row for row in kept}
        done = {key for key in rows if key[1] in outputs}
        todo = [task for task in tasks if (task[0], task[2]) not in done]
        summary = BatchSummary(
            {s: SolverSummary(s, outputs[s]) for s in solvers},
            results,
            resumed=len(done),
            discarded=len(found) - len(kept),
        )
        with ResultsLog(results, COLUMNS, kept, lock=lock) as log:
            _execute(job, todo, runner, _show_progress(settings.progress), (log, rows, summary))
        for row in rows.values():
            if row["solver"] in summary.solvers:
                summary.solvers[row["solver"]].add(row)
        if not special:
            write_table(results, sorted(rows.values(), key=solvers_order(solvers)), lock=lock)
        _write_outputs(outputs, rows, len(lines))
    return summary


def check_paths(instances: str | Path, outputs: Sequence[tuple[str | Path, str]]) -> None:
    """Refuse outputs that cannot be written, or that would overwrite the input or each other.

    `outputs` pairs each path with what it holds (``the results table``). Run
    before any line is solved, so that a bad path costs nothing; the rule is
    every command's (:func:`sudosat.outputs.check_outputs`).

    Raises
    ------
    OutputError
        One line naming the path and why.
    """
    check_outputs([(instances, "the instance file")], outputs)


_WIDE_MARKS = {b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}  # byte-order marks


def check_instance_file(path: str | Path, order: int | None = None) -> int:
    """Refuse an instance file in which no line reads as a board (of `order`, when given).

    For a notebook or a script that runs a whole file and summarises it: a
    file of no board (empty, UTF-16 text, another kind of file) is named in
    one line here, not met later as a table with no rows. A file with some
    bad lines passes (they become ERROR rows, as ``sudosat solve`` makes them).

    Parameters
    ----------
    path : path
        The instance file.
    order : int, optional
        Count only boards of this order (a page that samples one order).

    Returns
    -------
    int
        How many lines read as boards (of `order`, when given).

    Raises
    ------
    InstanceError
        Naming the file: it cannot be read, holds no line, is UTF-16 (or
        UTF-32) text, or none of its lines reads as a board (of `order`).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "i.txt")
    >>> _ = open(path, "w").write("2 1000002000300004\\nnot a board\\n")
    >>> check_instance_file(path)
    1
    >>> check_instance_file(path, order=3)
    Traceback (most recent call last):
    ...
    sudosat.errors.InstanceError: ...i.txt: holds no board of order 3
    """
    source = str(path)
    try:
        with open(path, "rb") as stream:
            head = stream.read(4)
    except OSError as exc:
        raise InstanceError(open_error_reason(exc), file=source) from None
    if head[:2] in _WIDE_MARKS:
        raise InstanceError(f"is {_WIDE_MARKS[head[:2]]} text; instance files are UTF-8 "
                            "(or ASCII): save it as UTF-8", file=source)
    lines = _read_lines(path)
    if not any(line.strip() for line in lines):
        raise InstanceError("holds no instance line", file=source)
    read, boards, first_error = 0, 0, None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            board = parse_line(line, source=source, line=number)
        except InstanceError as exc:
            first_error = first_error or exc
            continue
        read += 1
        boards += order is None or board.order == order
    if boards:
        return boards
    if read:
        raise InstanceError(f"holds no board of order {order}", file=source)
    reason = first_error.reason if first_error is not None else "no board"
    where = f"line {first_error.line}: " if first_error is not None and first_error.line else ""
    raise InstanceError(f"no line reads as a board ({where}{reason})", file=source)


def _read_lines(path: str | Path, max_bytes: int | None = None) -> list[str]:
    """The file's lines (a final line end does not start another line)."""
    try:
        text = read_text(path, max_bytes)  # no newline translation: a lone CR stays inside its line
    except OSError as exc:
        raise InstanceError(open_error_reason(exc), file=str(path)) from None
    return split_lines(text)


def _ensure_parent(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"cannot create the folder: {exc.strerror}", file=str(path.parent)
        ) from None


def run_hash(job: _Job, solver: str) -> str:
    """A fingerprint of what shapes `solver`'s answers in `job` (:func:`resume.run_hash`)."""
    return _run_hash(solver, job.encoding, job.deadline, job.options.get(solver, {}),
                     job.max_bytes)


class _Recorder:
    """Takes each finished row: appends it to the log, keeps it, counts it on the bar."""

    _KEYS = {
        Verdict.SAT: "solved",
        Verdict.UNSAT: "unsat",
        Verdict.TIMEOUT: "timeouts",
        Verdict.UNKNOWN: "unknown",
        Verdict.ERROR: "errors",
    }

    def __init__(self, log: ResultsLog, rows: dict, summary: BatchSummary, bar: Any) -> None:
        self.log, self.rows, self.summary, self.bar = log, rows, summary, bar
        self.counts = dict.fromkeys(self._KEYS.values(), 0)

    def take(self, row: Row) -> None:
        self.log.append(row)
        self.rows[(row["line"], row["solver"])] = row
        self.summary.new_rows += 1
        self.counts[self._KEYS[row["status"]]] += 1
        self.bar.set_postfix(self.counts, refresh=False)
        self.bar.update()


def _execute(
    job: _Job,
    todo: list[Task],
    runner: Any,
    show: bool,
    recorder_parts: tuple[ResultsLog, dict, BatchSummary],
) -> None:
    """Run the tasks on `runner` (entered); every row reaches the recorder as soon as it exists."""
    if show:
        tqdm = import_extra("tqdm.auto", "progress", "a progress bar (--progress)").tqdm
    else:
        tqdm = _NoBar
    with tqdm(total=len(todo), disable=not show, unit="line", dynamic_ncols=True) as bar:
        recorder = _Recorder(*recorder_parts, bar)
        missing = _unavailable(runner, job, sorted({task[2] for task in todo}))
        for task in todo:
            if task[2] in missing:  # a solver that cannot run here: say why, skip the encoding
                recorder.take(_stamped(job, task, _failed_row(job, task, missing[task[2]])))
        ready = [task for task in todo if task[2] not in missing]
        for task, outcome in runner.map_unordered(functools.partial(_solve_task, job), ready):
            row = outcome if isinstance(outcome, Row) else _failed_row(job, task, outcome)
            recorder.take(_stamped(job, task, row))


class _NoBar:
    """What the recorder uses of a tqdm bar, when none is shown (tqdm may not be installed)."""

    def __init__(self, **_options: Any) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *_exc: object) -> None:
        return None

    def set_postfix(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def update(self, _n: int = 1) -> None:
        pass


def _stamped(job: _Job, task: Task, row: Row) -> Row:
    """`row` with the fingerprints of its line, its run and its answer (what resume checks)."""
    return stamped(row, task[1], run_hash(job, task[2]))


def _unavailable(runner: Any, job: _Job, solvers: list[str]) -> dict[str, str]:
    """Solver -> why it cannot run, probed where the lines will run (a Dask worker, say)."""
    probes = runner.map_unordered(functools.partial(_probe_task, job), solvers)
    missing = {}
    for solver, outcome in probes:
        if outcome is not None:
            missing[solver] = outcome if isinstance(outcome, str) else _reason(outcome)
    return missing


def _probe_task(job: _Job, solver: str) -> str | None:
    return probe_solver(solver, **job.options.get(solver, {}))


def _failed_row(job: _Job, task: Task, error: BaseException | str) -> Row:
    """The ERROR row of a task that could not run (a dead worker, a missing solver)."""
    number, _, solver = task  # the line is not read again here: it may be what failed
    reason = error if isinstance(error, str) else _reason(error)
    return failed_outcome(blank_row(number, solver, job.encoding), reason).row


def _reason(error: BaseException) -> str:
    return error.reason if isinstance(error, SudosatError) else f"{type(error).__name__}: {error}"


def _make_executor(executor: str, jobs: int, scheduler: str | None):
    if executor == "dask":
        return DaskExecutor(scheduler, workers=jobs)
    if executor != "processes":
        raise SudosatError(f"unknown executor {executor!r}; use 'processes' or 'dask'")
    if scheduler is not None:
        raise SudosatError("--scheduler needs --executor dask")
    return SerialExecutor() if jobs <= 1 else ProcessExecutor(jobs)


def _show_progress(progress: bool | None) -> bool:
    """Whether to show the bar: as asked, else on a terminal or in a notebook (if tqdm is here)."""
    if progress is not None:
        return progress
    shown = sys.stderr.isatty() or "ipykernel" in sys.modules
    return shown and importlib.util.find_spec("tqdm") is not None


def _write_outputs(outputs: dict[str, Path], rows: dict[Key, Row], num_lines: int) -> None:
    for solver, path in outputs.items():
        text = "".join(rows[(k, solver)]["output"] + "\n" for k in range(1, num_lines + 1))
        _ensure_parent(path)
        write_atomically(path, text)


def probe_solver(solver: str, **options: Any) -> str | None:
    """Why `solver` cannot run here (None when it answers a one-clause formula).

    Examples
    --------
    >>> probe_solver("no-such-solver").startswith("unknown solver")
    True
    """
    options.pop("incremental", None)  # a pipeline mode, not a solver option
    try:
        solve(CNF([[1]], 1), solver, deadline=Deadline(10_000), **options)
    except SudosatError as exc:
        return exc.reason
    except Exception as exc:  # whatever stops the probe would stop every line
        return f"crashed: {type(exc).__name__}: {exc}"
    return None
