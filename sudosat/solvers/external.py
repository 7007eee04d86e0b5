"""Solvers we did not write, behind the same :class:`~sudosat.result.Result` as ours.

Three families:

``zchaff``
    The course's reference, Princeton's zChaff. Users bring their own binary
    (it is in no package registry); :func:`find_zchaff` looks for it.
``exec:PROGRAM``
    Any SAT-competition binary (minisat, picosat, cadical, kissat, ...), run
    with the command-line conventions it understands.
``pysat:NAME``
    Every solver PySAT bundles, in process (or in a worker process for the
    back ends that cannot be stopped from outside).

Every adapter honours the wall-clock limit ``time_limit_ms`` itself: a program
is started in its own process group and the whole group is killed at the
deadline (and after a normal exit too, so that no process outlives the call).
Programs run without a shell, from argument lists, in a private temporary
folder that is removed even when the call fails or is interrupted. Every
answer is checked: a model must satisfy the formula, an exit code must agree
with what the program printed, and any output we do not recognise is a
:class:`~sudosat.errors.SolverError`.

Examples
--------
>>> from sudosat.cnf import CNF
>>> solve_pysat(CNF([[1, 2], [-1]]), backend="minisat22").model
[-1, 2]
"""

from __future__ import annotations

import contextlib
import functools
import math
import multiprocessing
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from sudosat.cnf import CNF
from sudosat.errors import DimacsError, ResourceLimitError, SolverError, SolverNotFoundError
from sudosat.processes import die_with_parent, killing_groups_on_sigterm, track_group, untrack_group
from sudosat.result import Result, Status
from sudosat.solvers.base import verify_result
from sudosat.solvers.budget import Deadline

__all__ = [
    "ProcessOutput",
    "availability",
    "find_zchaff",
    "parse_competition_output",
    "parse_minisat_result",
    "parse_zchaff_output",
    "pysat_backends",
    "run_program",
    "solve_exec",
    "solve_pysat",
    "solve_zchaff",
    "strict_dimacs",
]

HOW_TO_PROVIDE_ZCHAFF = (
    "pass --zchaff PATH (zchaff=PATH in Python), set the ZCHAFF environment variable, "
    "or put a 'zchaff' program on PATH; zChaff is in no package registry: build it from "
    "Princeton's sources"
)

# zChaff exits 2 on a line of 65,536 characters or more; stay well below.
ZCHAFF_MAX_LINE = 60_000
_LITERALS_PER_LINE = 2_000  # at most 12 characters each: 24,000 characters a line


# ---------------------------------------------------------------------------------------
# Running a program under a wall clock


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
    """

    stdout: str
    stderr: str
    exit_code: int | None
    wall_ms: float

    @property
    def timed_out(self) -> bool:
        """True when the deadline stopped the program."""
        return self.exit_code is None


def run_program(
    argv: list[str],
    workdir: Path | None,
    deadline: Deadline,
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
    SIGKILL from the kernel if we die (:func:`sudosat.processes.die_with_parent`),
    and its group is killed if we are stopped by SIGTERM or exit
    (:mod:`sudosat.processes`).

    Parameters
    ----------
    argv : list of str
    workdir : Path or None
        Its working folder (None: the root folder, where it can write nothing).
    deadline : Deadline
    label : str
        The name error messages give it.
    pass_fds : tuple of int
        Open files the program inherits under the same numbers (see
        :func:`_fd_path`).

    Raises
    ------
    SolverNotFoundError
        The program does not exist or is not executable.
    SolverError
        The program cannot be started (e.g. not a binary or a script).
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        with killing_groups_on_sigterm():
            process = _start(argv, workdir or Path("/"), out, err, label, pass_fds)
            finished = False
            try:
                finished = _wait_for_exit(process.pid, deadline.remaining_or_none())
            finally:
                _kill_group(process)
        wall_ms = (time.perf_counter() - started) * 1000.0
        exit_code = process.returncode if finished else None
        return ProcessOutput(_read_back(out), _read_back(err), exit_code, wall_ms)


def _read_back(stream) -> str:
    stream.seek(0)
    return stream.read().decode("utf-8", errors="replace")


def _start(
    argv: list[str], workdir: Path, out, err, label: str, pass_fds: tuple[int, ...] = ()
) -> subprocess.Popen:
    parent = os.getpid()
    try:
        process = subprocess.Popen(
            argv,
            cwd=workdir,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,  # its own process group: killable as a whole
            pass_fds=pass_fds,
            preexec_fn=functools.partial(die_with_parent, signal.SIGKILL, parent),
        )
    except FileNotFoundError:
        raise SolverNotFoundError(f"{label}: program not found: {argv[0]}") from None
    except PermissionError:
        raise SolverNotFoundError(
            f"{label}: {argv[0]} is not executable (permission denied; chmod +x it?)"
        ) from None
    except OSError as exc:
        raise SolverError(f"{label}: cannot run {argv[0]}: {exc.strerror}") from None
    track_group(process.pid)
    return process


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
        return bool(waiter.poll(None if timeout_ms is None else math.ceil(timeout_ms)))
    finally:
        os.close(handle)


def _poll_for_exit(pid: int, timeout_ms: float | None) -> bool:
    """The same as :func:`_wait_for_exit` for kernels without pidfd (polls)."""
    deadline = Deadline(timeout_ms)
    pause = 0.0005
    while True:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return True
        if deadline.expired():
            return False
        time.sleep(min(pause, deadline.remaining_ms() / 1000.0))
        pause = min(pause * 2, 0.02)


def _kill_group(process: subprocess.Popen) -> None:
    """SIGKILL the program's whole process group, reap the program, see the others end."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    _await_group_end(process.pid)
    untrack_group(process.pid)


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


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""


class _Scratch:
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

    def __enter__(self) -> _Scratch:
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


_WRITE_SLICE = 1 << 16  # literals written between two looks at the clock


def _write_dimacs(cnf: CNF, stream: BinaryIO, deadline: Deadline) -> bool:
    """Write :func:`strict_dimacs` text to `stream` a slice at a time; False once T is out.

    Writing millions of clauses takes a second or more: the deadline is read
    between slices, so a program's time limit bounds its input's writing too.
    """
    if cnf.has_empty_clause:
        raise DimacsError("the formula has an empty clause; it is UNSAT without a solver")
    flat = cnf.flat
    stream.write(f"p cnf {cnf.num_vars} {cnf.num_clauses}\n".encode("ascii"))
    start, total = 0, len(flat)
    while start < total:
        if deadline.expired():
            return False
        stop = min(total, start + _WRITE_SLICE)
        if stop < total:
            stop = flat.index(0, stop - 1) + 1
        part = flat[start:stop]
        top = max(max(part), -min(part))
        if top > cnf.num_vars:
            raise DimacsError(f"literal {top} is beyond the formula's {cnf.num_vars} variables")
        # No clause is empty, so " 0 " marks exactly the clause ends.
        text = " ".join(map(str, part)).replace(" 0 ", " 0\n") + "\n"
        stream.write(text.encode("ascii"))
        start = stop
    stream.flush()
    return not deadline.expired()


def _whole_seconds(time_limit_ms: float | None) -> int | None:
    """A solver's own limit in whole seconds: ceil(T / 1000), never 0."""
    if time_limit_ms is None:
        return None
    return max(1, math.ceil(time_limit_ms / 1000.0))


def _executable(name: str, label: str) -> str:
    """The path of program `name` (a path, or a name looked up on PATH)."""
    if os.sep not in name:
        found = shutil.which(name)
        if found is None:
            raise SolverNotFoundError(f"{label}: no program {name!r} on PATH")
        return found
    path = Path(name)
    if not path.exists():
        raise SolverNotFoundError(f"{label}: no such file: {name}")
    if not path.is_file():
        raise SolverNotFoundError(f"{label}: not a program but a directory: {name}")
    if not os.access(path, os.X_OK):
        raise SolverNotFoundError(f"{label}: {name} is not executable (chmod +x it?)")
    return str(path)


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _last_words(*texts: str, limit: int = 160) -> str:
    """The last non-blank line of the first text that has one (for error messages)."""
    for text in texts:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines:
            line = lines[-1]
            return line if len(line) <= limit else line[: limit - 3] + "..."
    return "no output"


def _finish(result: Result, cnf: CNF, started: float, label: str, name: str) -> Result:
    verify_result(cnf, result, label)
    result.solver = name
    result.elapsed_ms = (time.perf_counter() - started) * 1000.0
    return result


def _unknown(started: float, name: str, **stats: float) -> Result:
    return Result(Status.UNKNOWN, None, dict(stats), (time.perf_counter() - started) * 1000.0, name)


def _unsat_without_asking(started: float, name: str) -> Result:
    """A formula with an empty clause is UNSAT; zChaff would ignore the clause and say SAT."""
    return Result(
        Status.UNSAT, None, {"empty_clause": 1}, (time.perf_counter() - started) * 1000.0, name
    )


# ---------------------------------------------------------------------------------------
# Writing DIMACS strictly


def strict_dimacs(cnf: CNF, max_line: int | None = None) -> str:
    """DIMACS text every solver reads the same way, whatever its parser's quirks.

    One ``p cnf V C`` header with the true counts, no comments, every literal
    within 1..V, each clause ending in ``0``. A clause goes on one line unless
    that line would reach `max_line` characters; it then continues over
    several lines (zChaff reads clauses across lines but stops at 65,536
    characters a line).

    Raises
    ------
    DimacsError
        A literal lies beyond ``cnf.num_vars``, or the formula has an empty
        clause (which zChaff would ignore).
    """
    _checked_flat(cnf)
    text = cnf.to_dimacs(comments=())
    if max_line is not None and len(text) >= max_line and _longest_line(text) >= max_line:
        text = _wrapped_dimacs(cnf)
    return text


def _checked_flat(cnf: CNF):
    """The formula's flat array, once it is known to hold no empty clause and no stray literal."""
    flat = cnf.flat
    if cnf.has_empty_clause:
        raise DimacsError("the formula has an empty clause; it is UNSAT without a solver")
    if flat and max(max(flat), -min(flat)) > cnf.num_vars:
        top = max(max(flat), -min(flat))
        raise DimacsError(f"literal {top} is beyond the formula's {cnf.num_vars} variables")
    return flat


def _longest_line(text: str) -> int:
    return max(map(len, text.split("\n")))


def _wrapped_dimacs(cnf: CNF) -> str:
    parts = [f"p cnf {cnf.num_vars} {cnf.num_clauses}\n"]
    for clause in cnf:
        tokens = [*map(str, clause), "0"]
        for start in range(0, len(tokens), _LITERALS_PER_LINE):
            parts.append(" ".join(tokens[start : start + _LITERALS_PER_LINE]) + "\n")
    return "".join(parts)


# ---------------------------------------------------------------------------------------
# zChaff


def find_zchaff(explicit: str | None = None) -> str:
    """The zChaff program to run.

    Looked for, in order: `explicit` (``--zchaff PATH``), the ``ZCHAFF``
    environment variable, ``zchaff`` on PATH. A name without a slash is
    looked up on PATH.

    Raises
    ------
    SolverNotFoundError
        None of those names an executable file; the message says how to
        provide one.
    """
    if explicit:
        return _executable(explicit, f"zChaff (--zchaff {explicit})")
    from_environment = os.environ.get("ZCHAFF", "").strip()
    if from_environment:
        return _executable(from_environment, f"zChaff (ZCHAFF={from_environment})")
    found = shutil.which("zchaff")
    if found is None:
        raise SolverNotFoundError(f"zChaff not found: {HOW_TO_PROVIDE_ZCHAFF}")
    return found


def solve_zchaff(
    cnf: CNF,
    *,
    time_limit_ms: float | None = None,
    seed: int = 0,
    zchaff: str | None = None,
) -> Result:
    """Solve `cnf` with the user's zChaff binary.

    Parameters
    ----------
    cnf : CNF
    time_limit_ms : float, optional
        Wall-clock limit T of the whole call. zChaff itself gets
        ``ceil(T / 1000)`` CPU seconds (never 0, which it reads as "already out
        of time"); the wrapper kills it at T of wall time.
    seed : int
        Accepted for the common contract; zChaff takes no seed.
    zchaff : str, optional
        The program (path or name); see :func:`find_zchaff`.

    Returns
    -------
    Result
        UNKNOWN at the time limit. ``stats`` holds zChaff's counters
        (``decisions``, ``conflicts``, ``propagations``, ``solver_cpu_s`` =
        its "Total Run Time" ...) and ``process_ms``.

    Raises
    ------
    SolverNotFoundError
        No zChaff binary, or it is not executable.
    SolverError
        zChaff failed, crashed, printed something unexpected, or returned a
        model that does not satisfy `cnf`.
    """
    del seed  # zChaff has no seed option
    started = time.perf_counter()
    deadline = Deadline(time_limit_ms)
    binary = find_zchaff(zchaff)
    if cnf.has_empty_clause:
        return _unsat_without_asking(started, "zchaff")
    text = strict_dimacs(cnf, max_line=ZCHAFF_MAX_LINE)
    if deadline.expired():
        return _unknown(started, "zchaff", process_ms=0.0)
    seconds = _whole_seconds(time_limit_ms)
    with _Scratch("zchaff") as scratch:
        path, _ = scratch.file("input.cnf", text)
        argv = [binary, str(path)] + ([] if seconds is None else [str(seconds)])
        run = run_program(argv, None, deadline, "zChaff", pass_fds=tuple(scratch.handles))
    if run.timed_out:
        return _unknown(started, "zchaff", process_ms=run.wall_ms)
    result = parse_zchaff_output(run.stdout, run.stderr, run.exit_code, cnf.num_vars)
    result.stats["process_ms"] = run.wall_ms
    return _finish(result, cnf, started, "zChaff", "zchaff")


_ZCHAFF_VERDICTS = {
    "SAT": (Status.SAT, "Instance Satisfiable"),
    "UNSAT": (Status.UNSAT, "Instance Unsatisfiable"),
    "ABORT : TIME OUT": (Status.UNKNOWN, "Time out, unable to determine the satisfiability"),
}

_ZCHAFF_EXIT_REASONS = {
    1: "zChaff cannot open its input file",
    2: "zChaff rejected its command line or met a line of 65,536 characters or more",
    3: "zChaff cannot read the 'p cnf' header",
    134: "zChaff aborted on an assertion, as a literal beyond V or a missing header makes it do",
}

# zChaff's statistic name -> our stats key (see shared/zchaff/README.md).
_ZCHAFF_STATS = {
    "Random Seed Used": "random_seed",
    "Max Decision Level": "max_decision_level",
    "Num. of Decisions": "decisions",
    "Original Num Variables": "original_variables",
    "Original Num Clauses": "original_clauses",
    "Original Num Literals": "original_literals",
    "Added Conflict Clauses": "conflicts",
    "Num of Shrinkings": "shrinkings",
    "Deleted Conflict Clauses": "deleted_learnt",
    "Deleted Clauses": "deleted_clauses",
    "Added Conflict Literals": "learnt_literals",
    "Deleted (Total) Literals": "deleted_literals",
    "Number of Implication": "propagations",
    "Total Run Time": "solver_cpu_s",
}
_ZCHAFF_DECISION_KINDS = "( Stack + Vsids + Shrinking Decisions )"
_ZCHAFF_SEED_MARK = "Random Seed Used"


def parse_zchaff_output(stdout: str, stderr: str, exit_code: int, num_vars: int) -> Result:
    """Turn what zChaff printed into a :class:`Result` (``elapsed_ms`` left at 0).

    Parameters
    ----------
    stdout, stderr : str
        zChaff's output.
    exit_code : int
        Its exit code (134 or -6 for an assertion abort).
    num_vars : int
        The variable count of the formula it was given.

    Raises
    ------
    SolverError
        A non-zero exit code, or output that is not a complete, consistent
        zChaff answer (an exit code of 0 alone proves nothing).
    ResourceLimitError
        zChaff ran out of memory (``RESULT: ABORT : MEM OUT``).

    Examples
    --------
    >>> out = ("Instance Satisfiable\\n1 -2 Random Seed Used\\t\\t\\t\\t0\\n"
    ...        "Num. of Decisions\\t\\t\\t\\t1\\nRESULT:\\tSAT\\n")
    >>> result = parse_zchaff_output(out, "", 0, 2)
    >>> result.status, result.model, result.stats["decisions"]
    (<Status.SAT: 'SAT'>, [1, -2], 1)
    """
    if exit_code != 0:
        # A shell reports death by signal s as 128 + s (the README's 134 is SIGABRT).
        shell_code = 128 - exit_code if exit_code < 0 else exit_code
        reason = _ZCHAFF_EXIT_REASONS.get(shell_code, "zChaff failed")
        raise SolverError(f"{reason} ({_describe_exit(exit_code)}): {_last_words(stderr, stdout)}")
    lines = stdout.splitlines()  # also splits the '\r' progress reports
    verdict = _zchaff_verdict(lines, stdout)
    if verdict == "ABORT : MEM OUT":
        raise ResourceLimitError("zChaff ran out of memory (RESULT: ABORT : MEM OUT)")
    if verdict not in _ZCHAFF_VERDICTS:
        raise SolverError(f"zChaff printed an unknown result {verdict!r}")
    status, announcement = _ZCHAFF_VERDICTS[verdict]
    if not any(line.startswith(announcement) for line in lines):
        raise SolverError(f"zChaff said RESULT: {verdict} without {announcement!r}: output garbled")
    stats = _zchaff_stats(lines)
    declared = stats.get("original_variables")
    if declared is not None and declared != num_vars:
        raise SolverError(f"zChaff read {declared:g} variables where the formula has {num_vars}")
    model = _zchaff_model(lines, num_vars) if status is Status.SAT else None
    return Result(status, model, stats, 0.0, "zchaff")


def _zchaff_verdict(lines: list[str], stdout: str) -> str:
    """The text after ``RESULT:`` on zChaff's last line."""
    filled = [line for line in lines if line.strip()]
    results = [line for line in filled if line.startswith("RESULT:")]
    if not results:
        raise SolverError(
            f"zChaff printed no RESULT line (is the program really zChaff?): {_last_words(stdout)}"
        )
    if len(results) > 1 or filled[-1] is not results[0]:
        raise SolverError("zChaff's output is garbled: the RESULT line is not its single last line")
    return results[0][len("RESULT:") :].strip()


def _zchaff_stats(lines: list[str]) -> dict[str, float]:
    stats: dict[str, float] = {}
    for line in lines:
        if _ZCHAFF_SEED_MARK in line:
            line = line[line.index(_ZCHAFF_SEED_MARK) :]  # the model precedes it on the line
        name, _, value = line.partition("\t")
        name, value = name.strip(), value.strip()
        if name == _ZCHAFF_DECISION_KINDS:
            parts = [part.strip() for part in value.split("+")]
            if len(parts) == 3 and all(part.isdigit() for part in parts):
                for kind, count in zip(("stack", "vsids", "shrinking"), parts, strict=True):
                    stats[f"decisions_{kind}"] = int(count)
        elif name in _ZCHAFF_STATS:
            stats[_ZCHAFF_STATS[name]] = _number(value, name)
    if "conflicts" in stats:
        stats["learnt"] = stats["conflicts"]  # zChaff adds one clause per conflict
    return stats


def _number(text: str, name: str) -> float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise SolverError(f"zChaff's statistic {name!r} is not a number: {text!r}") from None


def _zchaff_model(lines: list[str], num_vars: int) -> list[int]:
    """The line after ``Instance Satisfiable``: ``1 -2 3 Random Seed Used ...``."""
    position = next(i for i, line in enumerate(lines) if line.startswith("Instance Satisfiable"))
    if position + 1 >= len(lines) or _ZCHAFF_SEED_MARK not in lines[position + 1]:
        raise SolverError("zChaff said SAT but printed no model line")
    text = lines[position + 1].split(_ZCHAFF_SEED_MARK, 1)[0]
    try:
        model = [int(token) for token in text.split()]
    except ValueError:
        raise SolverError(f"zChaff's model line holds a non-integer: {text[:60]!r}") from None
    if len(model) != num_vars or any(abs(lit) != v for v, lit in enumerate(model, start=1)):
        raise SolverError(
            f"zChaff's model does not give variables 1..{num_vars} one value each, in order"
        )
    return model


# ---------------------------------------------------------------------------------------
# exec:PROGRAM, any SAT-competition binary


@dataclass(frozen=True)
class Convention:
    """How a family of solver binaries is called and how it answers.

    Option templates may use ``{seconds}`` and ``{seed}``.

    Attributes
    ----------
    name : str
        The family (``minisat``, ``picosat``, ``cadical``, ``kissat``, ``generic``).
    result_file : bool
        MiniSat's convention: ``PROGRAM INPUT RESULT``, the answer (and the
        only copy of the model) in the RESULT file; otherwise ``s``/``v``
        lines on standard output.
    options : tuple of str
        Always passed (e.g. for verbose statistics).
    limit : tuple of str
        Passed with the time limit, in whole seconds.
    seed : tuple of str
        Passed with the seed.
    """

    name: str
    result_file: bool = False
    options: tuple[str, ...] = ()
    limit: tuple[str, ...] = ()
    seed: tuple[str, ...] = ()

    def argv(
        self, program: list[str], cnf_path: Path, result_path: Path, seconds: int | None, seed: int
    ) -> list[str]:
        """The full command line for one run."""
        argv = [program[0], *self.options]
        if seconds is not None:
            argv += [part.format(seconds=seconds) for part in self.limit]
        argv += [part.format(seed=seed) for part in self.seed]
        argv += [*program[1:], str(cnf_path)]
        return argv + ([str(result_path)] if self.result_file else [])


# Verbosity is left on where the statistics are only printed then.
CONVENTIONS: dict[str, Convention] = {
    "minisat": Convention("minisat", result_file=True, limit=("-cpu-lim={seconds}",)),
    "picosat": Convention(
        "picosat", options=("-v",), limit=("-L", "{seconds}"), seed=("-s", "{seed}")
    ),
    "cadical": Convention("cadical", limit=("-t", "{seconds}"), seed=("--seed={seed}",)),
    "kissat": Convention("kissat", limit=("--time={seconds}",), seed=("--seed={seed}",)),
    "generic": Convention("generic"),
}


def convention_for(program: str) -> Convention:
    """The convention of a binary, recognised by its file name (``generic`` otherwise)."""
    base = Path(program).name.lower()
    for name, convention in CONVENTIONS.items():
        if base.startswith(name):
            return convention
    return CONVENTIONS["generic"]


def _program_words(program: str, label: str) -> list[str]:
    """The program and its own options: an existing path as is, else split like a shell."""
    if not program.strip():
        raise SolverNotFoundError(f"{label}: no program named after 'exec:'")
    if os.path.exists(program):
        words = [program]
    else:
        try:
            words = shlex.split(program)
        except ValueError as exc:
            raise SolverError(f"{label}: cannot split the command: {exc}") from None
    return [_executable(words[0], label), *words[1:]]


def solve_exec(
    cnf: CNF,
    *,
    program: str,
    time_limit_ms: float | None = None,
    seed: int = 0,
) -> Result:
    """Solve `cnf` with an external SAT-competition binary.

    Parameters
    ----------
    cnf : CNF
    program : str
        A name on PATH or a path, optionally followed by the program's own
        options (``"cadical --sat"``). The convention (see :data:`CONVENTIONS`)
        is chosen from the program's file name.
    time_limit_ms : float, optional
        Wall-clock limit T; the program also gets its own limit of
        ``ceil(T / 1000)`` seconds where it has one.
    seed : int
        Passed to programs that take a seed (picosat, cadical, kissat).

    Raises
    ------
    SolverNotFoundError
        The program is missing or not executable.
    SolverError
        It failed, crashed, printed something unexpected, or returned a
        model that does not satisfy `cnf`.
    """
    started = time.perf_counter()
    deadline = Deadline(time_limit_ms)
    name, label = f"exec:{program}", f"exec:{program}"
    words = _program_words(program, label)
    convention = convention_for(words[0])
    if cnf.has_empty_clause:
        return _unsat_without_asking(started, name)
    with _Scratch("exec") as scratch:
        cnf_path, cnf_file = scratch.file("input.cnf")
        if not _write_dimacs(cnf, cnf_file, deadline):
            return _unknown(started, name, process_ms=0.0)
        result_path, result_file = scratch.file("result.txt")
        argv = convention.argv(words, cnf_path, result_path, _whole_seconds(time_limit_ms), seed)
        run = run_program(argv, None, deadline, label, pass_fds=tuple(scratch.handles))
        result_text = scratch.read(result_file) if convention.result_file else None
    if run.timed_out:
        return _unknown(started, name, process_ms=run.wall_ms)
    if result_text is not None:
        result = parse_minisat_result(result_text, run, cnf.num_vars, label)
    else:
        result = parse_competition_output(
            run.stdout, run.stderr, run.exit_code, cnf.num_vars, label
        )
    result.stats.update(scrape_stats(run.stdout))
    result.stats["process_ms"] = run.wall_ms
    return _finish(result, cnf, started, label, name)


_STATUS_WORDS = {
    "SATISFIABLE": Status.SAT,
    "UNSATISFIABLE": Status.UNSAT,
    "UNKNOWN": Status.UNKNOWN,
    "INDETERMINATE": Status.UNKNOWN,
}
_EXIT_STATUS = {10: Status.SAT, 20: Status.UNSAT}


def parse_competition_output(
    stdout: str, stderr: str, exit_code: int, num_vars: int, label: str = "solver"
) -> Result:
    """Read the SAT-competition answer: one ``s`` line, ``v`` lines, exit code 10/20/0.

    The exit code is checked against the ``s`` line; an exit code of 0 alone
    proves nothing (picosat exits 0 on errors too). CaDiCaL's time-out, a
    ``c UNKNOWN`` line without ``s`` line and exit 0, is UNKNOWN. Variables the
    ``v`` lines leave out get the value False (the model is checked afterwards).

    Raises
    ------
    SolverError
        Another exit code, no or several ``s`` lines, an unknown status, a
        contradiction, or a malformed model.

    Examples
    --------
    >>> parse_competition_output("s SATISFIABLE\\nv 1 -2\\nv 0\\n", "", 10, 3).model
    [1, -2, -3]
    """
    if exit_code not in (0, 10, 20):
        raise SolverError(
            f"{label} failed ({_describe_exit(exit_code)}): {_last_words(stderr, stdout)}"
        )
    lines = [line.strip() for line in stdout.splitlines()]
    status_lines = [line for line in lines if line.startswith("s ") or line == "s"]
    if not status_lines:
        if exit_code == 0 and "c UNKNOWN" in lines:
            return Result(Status.UNKNOWN, None, {}, 0.0, label)
        raise SolverError(
            f"{label} printed no 's' status line ({_describe_exit(exit_code)}): "
            f"{_last_words(stderr, stdout)}"
        )
    if len(status_lines) > 1:
        raise SolverError(f"{label} printed {len(status_lines)} 's' lines")
    word = status_lines[0][1:].strip()
    if word not in _STATUS_WORDS:
        raise SolverError(f"{label} printed an unknown status {status_lines[0]!r}")
    status = _STATUS_WORDS[word]
    if _EXIT_STATUS.get(exit_code, status) is not status:
        raise SolverError(f"{label} exited with code {exit_code} but printed {status_lines[0]!r}")
    value_lines = [line[1:] for line in lines if line.startswith("v")]
    if status is not Status.SAT:
        if value_lines:
            raise SolverError(f"{label} printed 'v' lines without 's SATISFIABLE'")
        return Result(status, None, {}, 0.0, label)
    tokens = " ".join(value_lines).split()
    return Result(status, _model_from_tokens(tokens, num_vars, label), {}, 0.0, label)


def _model_from_tokens(tokens: list[str], num_vars: int, label: str) -> list[int]:
    """A full model from ``1 -2 ... 0`` tokens; unmentioned variables are False."""
    if not tokens or tokens[-1] != "0":
        raise SolverError(f"{label}'s model does not end with 0 (truncated output?)")
    model = [-v for v in range(1, num_vars + 1)]
    seen: dict[int, int] = {}
    for token in tokens[:-1]:
        try:
            lit = int(token)
        except ValueError:
            raise SolverError(f"{label}'s model holds a non-integer {token[:20]!r}") from None
        if lit == 0 or abs(lit) > num_vars:
            raise SolverError(f"{label}'s model holds {lit}, outside 1..{num_vars}")
        if seen.setdefault(abs(lit), lit) != lit:
            raise SolverError(f"{label}'s model gives variable {abs(lit)} both values")
        model[abs(lit) - 1] = lit
    return model


_MINISAT_WORDS = {"SAT": Status.SAT, "UNSAT": Status.UNSAT, "INDET": Status.UNKNOWN}


def parse_minisat_result(
    text: str, run: ProcessOutput, num_vars: int, label: str = "minisat"
) -> Result:
    """Read MiniSat's result file (``SAT`` and a model line, ``UNSAT`` or ``INDET``).

    Raises
    ------
    SolverError
        An exit code other than 10/20/0, a missing or malformed result file,
        or a result that contradicts the exit code.
    """
    code = run.exit_code
    if code not in (0, 10, 20):
        raise SolverError(
            f"{label} failed ({_describe_exit(code)}): {_last_words(run.stderr, run.stdout)}"
        )
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0] not in _MINISAT_WORDS:
        found = repr(lines[0][:40]) if lines else "nothing"
        raise SolverError(
            f"{label} wrote {found} to its result file ({_describe_exit(code)}): "
            f"{_last_words(run.stderr, run.stdout)}"
        )
    status = _MINISAT_WORDS[lines[0]]
    if {10: Status.SAT, 20: Status.UNSAT, 0: Status.UNKNOWN}[code] is not status:
        raise SolverError(f"{label} exited with code {code} but its result file says {lines[0]}")
    if status is not Status.SAT:
        return Result(status, None, {}, 0.0, label)
    tokens = " ".join(lines[1:]).split()
    return Result(status, _model_from_tokens(tokens, num_vars, label), {}, 0.0, label)


_COUNTERS = "restarts|conflicts|decisions|propagations"
_STAT_PATTERNS = [
    # MiniSat "conflicts : 12 (..)"; CaDiCaL and Kissat "c conflicts: 12 ..."
    re.compile(rf"^(?:c\s+)?({_COUNTERS})\s*:\s+(\d+)\b", re.MULTILINE),
    # PicoSAT -v "c 12 conflicts"
    re.compile(rf"^c\s+(\d+)\s+({_COUNTERS})\s*$", re.MULTILINE),
]
_CPU_PATTERNS = [
    re.compile(r"^CPU time\s*:\s*([\d.]+)\s*s", re.MULTILINE),  # MiniSat
    re.compile(r"^c total process time since initialization:\s*([\d.]+)", re.MULTILINE),  # CaDiCaL
    re.compile(r"^c\s+([\d.]+) seconds total run time", re.MULTILINE),  # PicoSAT
    re.compile(r"^c process-time:.*?([\d.]+)\s+seconds", re.MULTILINE),  # Kissat
]


def scrape_stats(stdout: str) -> dict[str, float]:
    """Counters a verbose solver printed (decisions, conflicts, ..., ``solver_cpu_s``).

    Examples
    --------
    >>> scrape_stats("c 3 conflicts\\nc 0.5 seconds total run time\\n")
    {'conflicts': 3, 'solver_cpu_s': 0.5}
    """
    stats: dict[str, float] = {}
    for match in _STAT_PATTERNS[0].finditer(stdout):
        stats[match.group(1)] = int(match.group(2))
    for match in _STAT_PATTERNS[1].finditer(stdout):
        stats[match.group(2)] = int(match.group(1))
    for pattern in _CPU_PATTERNS:
        match = pattern.search(stdout)
        if match:
            with contextlib.suppress(ValueError):
                stats["solver_cpu_s"] = float(match.group(1))
            break
    return stats


# ---------------------------------------------------------------------------------------
# pysat:NAME, PySAT's bundled solvers


# Back ends that cannot be stopped in process: Kissat is not incremental (a second
# solve call aborts the whole process) and Lingeling has no limited solve.
_ONE_SHOT_BACKENDS = frozenset({"kissat404", "lingeling"})
_CHUNK = 20_000  # clauses handed to PySAT between two looks at the clock
_FIRST_BUDGET = 100  # conflicts in the first slice of a limited search
_SLICE_S = 0.04  # aim for slices of about this length, so T is overshot by about as much


def _backend_names() -> dict[str, str]:
    """Every name and alias PySAT knows -> its canonical name."""
    from pysat.solvers import SolverNames

    names = {}
    for canonical, aliases in vars(SolverNames).items():
        if canonical.startswith("_") or not isinstance(aliases, tuple):
            continue
        names[canonical] = canonical
        for alias in aliases:
            names.setdefault(alias, canonical)
    return names


@functools.cache
def _probe_backends() -> dict[str, str]:
    """Canonical back-end name -> "" when it solves a tiny formula here, else why not."""
    try:
        from pysat.solvers import Solver

        names = sorted(set(_backend_names().values()))
    except ImportError as exc:
        return {"*": f"cannot import PySAT: {exc}"}
    verdicts = {}
    for name in names:
        try:
            with Solver(name=name, bootstrap_with=[[1, 2], [-1]]) as solver:
                fine = solver.solve() is True and solver.get_model()[:2] == [-1, 2]
            verdicts[name] = "" if fine else "answers a tiny formula wrongly"
        except Exception as exc:  # any failure means "not usable here", whatever its type
            verdicts[name] = f"PySAT cannot run it here ({type(exc).__name__}: {exc})"
    return verdicts


def pysat_backends() -> list[str]:
    """The canonical names of PySAT's back ends that work on this machine.

    Examples
    --------
    >>> "minisat22" in pysat_backends()
    True
    """
    return [name for name, why in _probe_backends().items() if not why and name != "*"]


def _canonical_backend(backend: str) -> str:
    label = f"pysat:{backend}"
    verdicts = _probe_backends()
    if "*" in verdicts:
        raise SolverNotFoundError(f"{label}: {verdicts['*']}")
    canonical = _backend_names().get(backend.lower())
    if canonical is None:
        working = ", ".join(pysat_backends())
        raise SolverNotFoundError(f"{label}: PySAT has no solver of that name; working: {working}")
    if verdicts.get(canonical):
        raise SolverNotFoundError(f"{label}: {verdicts[canonical]}")
    return canonical


def solve_pysat(
    cnf: CNF,
    *,
    backend: str,
    time_limit_ms: float | None = None,
    seed: int = 0,
    worker: bool | None = None,
) -> Result:
    """Solve `cnf` with one of PySAT's bundled solvers.

    Parameters
    ----------
    cnf : CNF
    backend : str
        A PySAT solver name or alias (``minisat22``, ``m22``, ``cadical195``,
        ``kissat404`` ...); :func:`pysat_backends` lists those that work here.
    time_limit_ms : float, optional
        Wall-clock limit. In process, the search runs in slices of a conflict
        budget (``conf_budget`` + ``solve_limited``) that adapt to last about
        40 ms, and the clock is read between slices: PySAT's ``interrupt()``
        never reaches CaDiCaL or Kissat. Kissat (not incremental) and
        Lingeling (no limited solve) run in a worker process killed at the
        deadline.
    seed : int
        Accepted for the common contract; PySAT exposes no seed.
    worker : bool, optional
        Force (True) or forbid (False) the worker process; by default only
        the back ends that need one use it.

    Raises
    ------
    SolverNotFoundError
        PySAT is missing or has no working solver of that name.
    SolverError
        The back end crashed or returned a wrong model.
    """
    del seed  # PySAT's API takes no seed
    started = time.perf_counter()
    deadline = Deadline(time_limit_ms)
    name, canonical = f"pysat:{backend}", _canonical_backend(backend)
    if cnf.has_empty_clause:
        return _unsat_without_asking(started, name)
    if not cnf.num_clauses:  # PySAT's MapleSAT dies of a segmentation fault on it
        return _finish(Result(Status.SAT, _full_model([], cnf.num_vars)), cnf, started, name, name)
    in_worker = canonical in _ONE_SHOT_BACKENDS if worker is None else worker
    outcome = None
    if not in_worker:
        try:
            outcome = _solve_in_process(cnf, canonical, deadline)
        except NotImplementedError:
            if worker is False:
                raise SolverError(f"{name} cannot be stopped in process; allow a worker") from None
    if outcome is None:  # a back end without limited solving, in a process we can kill
        outcome = _solve_in_worker(cnf, canonical, deadline, name)
    status, model, stats = outcome
    return _finish(Result(status, model, stats), cnf, started, name, name)


_Outcome = tuple[Status, list[int] | None, dict[str, float]]


def _solve_in_process(cnf: CNF, backend: str, deadline: Deadline | None) -> _Outcome:
    from pysat.solvers import Solver

    began = time.perf_counter()
    with Solver(name=backend) as solver:
        clauses = iter(cnf)
        while chunk := list(islice(clauses, _CHUNK)):
            if deadline is not None and deadline.expired():
                return Status.UNKNOWN, None, {}
            solver.append_formula(chunk)
        loaded = time.perf_counter()  # copying the clauses into the C++ solver ends here
        answer = _search(solver, deadline)
        stats = _pysat_stats(solver)
        stats.update(
            load_ms=(loaded - began) * 1000.0, search_ms=(time.perf_counter() - loaded) * 1000.0
        )
        if answer is None:
            return Status.UNKNOWN, None, stats
        if not answer:
            return Status.UNSAT, None, stats
        return Status.SAT, _full_model(solver.get_model() or [], cnf.num_vars), stats


def _pysat_stats(solver) -> dict[str, float]:
    try:
        stats = solver.accum_stats() or {}
    except NotImplementedError:  # Kissat keeps its counters to itself
        return {}
    return {key: value for key, value in stats.items() if isinstance(value, int | float)}


def _search(solver, deadline: Deadline | None) -> bool | None:
    """Solve in slices of a conflict budget until an answer or the deadline; None at the deadline.

    The budget doubles while a slice is short and halves when one runs long,
    so each slice lasts about ``_SLICE_S`` whatever a conflict costs.
    """
    if deadline is None or deadline.at == math.inf:
        return solver.solve()
    budget = _FIRST_BUDGET
    while not deadline.expired():
        solver.conf_budget(budget)
        began = time.monotonic()
        answer = solver.solve_limited()
        if answer is not None:
            return answer
        took = time.monotonic() - began
        target = min(_SLICE_S, deadline.remaining_ms() / 4000.0)
        if took < target / 2:
            budget *= 2
        elif took > target:
            budget = max(10, budget // 2)
    return None


def _full_model(lits: list[int], num_vars: int) -> list[int]:
    """One literal per variable 1..num_vars; variables the solver never saw are False."""
    model = [-v for v in range(1, num_vars + 1)]
    for lit in lits:
        if 0 < abs(lit) <= num_vars:
            model[abs(lit) - 1] = lit
    return model


def _solve_in_worker(cnf: CNF, backend: str, deadline: Deadline, label: str) -> _Outcome:
    """Solve in a child process (fork where available) killed at the deadline."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_worker_main,
        args=(sender, backend, cnf.flat, cnf.num_vars, os.getpid()),
        daemon=True,
    )
    process.start()
    sender.close()
    try:
        remaining = deadline.remaining_or_none()
        if not receiver.poll(None if remaining is None else remaining / 1000.0):
            return Status.UNKNOWN, None, {}
        try:
            message = receiver.recv()
        except EOFError:
            message = None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    if message is None:
        raise SolverError(f"{label} crashed ({_describe_exit(process.exitcode or 0)})")
    if message[0] == "error":
        raise SolverError(f"{label} failed: {message[1]}")
    _, word, model, stats = message
    return Status(word), model, stats


def _worker_main(sender, backend: str, flat, num_vars: int, parent: int) -> None:
    """The worker: solve without a limit (the parent kills it at the deadline), send the outcome.

    It dies with its parent, whatever kills the parent (even SIGKILL).
    """
    die_with_parent(signal.SIGKILL, parent)
    try:
        status, model, stats = _solve_in_process(CNF.from_flat(flat, num_vars), backend, None)
        sender.send(("ok", status.value, model, stats))
    except Exception as exc:  # reported to the parent, which raises SolverError
        sender.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        sender.close()


# ---------------------------------------------------------------------------------------
# Availability, for `sudosat solvers`


def availability(name: str, *, zchaff: str | None = None) -> tuple[bool, str]:
    """Whether solver `name` can run here, and if not, why (the reason is "" when it can).

    Parameters
    ----------
    name : str
        ``zchaff``, ``exec:PROGRAM`` or ``pysat:NAME``.
    zchaff : str, optional
        The ``--zchaff`` path, if the user gave one.

    Examples
    --------
    >>> availability("pysat:minisat22")
    (True, '')
    >>> availability("exec:no-such-solver-here")
    (False, "exec:no-such-solver-here: no program 'no-such-solver-here' on PATH")
    """
    try:
        if name == "zchaff":
            find_zchaff(zchaff)
        elif name.startswith("exec:"):
            _program_words(name[len("exec:") :], name)
        elif name.startswith("pysat:"):
            _canonical_backend(name[len("pysat:") :])
        else:
            return False, f"{name!r} is not a solver of sudosat.solvers.external"
    except SolverError as exc:
        return False, exc.reason
    return True, ""
