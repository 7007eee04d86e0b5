"""What the adapters to solvers we did not write share.

Three adapters put other people's solvers behind our :class:`~sudosat.sat.result.Result`:
:mod:`sudosat.sat.solvers.zchaff` (the course's reference), :mod:`sudosat.sat.solvers.competition`
(``exec:PROGRAM``, any SAT-competition binary) and :mod:`sudosat.sat.solvers.pysat`
(``pysat:NAME``). They finish a result the same way (:func:`finish`), answer the same
trivial cases without asking the solver (:func:`unknown`, :func:`unsat_without_asking`),
find programs (:func:`executable`), name a failed program's end (:func:`describe_exit`,
:func:`last_words`) and write their input (:func:`write_dimacs`) through this module.

Every adapter honours its ``deadline`` itself (wall or CPU clock), runs
programs through :func:`sudosat.process.run_program` (process groups killed at
the deadline, on a CPU deadline when the program's own CPU time reaches it; no
file left behind) and checks every answer: a model must satisfy the formula,
an exit code must agree with what the program printed, and any output we do
not recognise is a :class:`~sudosat.errors.SolverError`.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from sudosat.errors import DimacsError, SolverNotFoundError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.base import verify_result
from sudosat.sat.solvers.budget import Deadline

if TYPE_CHECKING:  # only the adapters that run programs import the process layer
    from sudosat.process import ProcessOutput

__all__ = [
    "describe_exit",
    "executable",
    "finish",
    "last_words",
    "process_times",
    "timed_out",
    "program_said",
    "unsat_without_asking",
    "whole_seconds",
    "write_dimacs",
]

_WRITE_SLICE = 1 << 16  # literals written between two looks at the clock


def write_dimacs(
    cnf: CNF, stream: BinaryIO, deadline: Deadline, max_line: int | None = None
) -> bool:
    """Write `cnf` as strict DIMACS to `stream` a slice at a time; False once T is out.

    Strict: one ``p cnf V C`` header with the true counts, no comments, every
    literal within 1..V, one clause a line ending in ``0``. The text is made
    in one pass, as bytes, straight into `stream`; clauses the formula shares
    with its source (a board's rule clauses) were made into text once, at the
    first formula's write (:meth:`~sudosat.sat.cnf.CNF.dimacs_clause_bytes`).
    Writing millions of clauses takes a second or more: the deadline is read
    before the first slice and between slices, and each slice (its range check
    included) costs work in proportion to its own size only, so a program's
    time limit bounds its input's writing too, within one slice of work.

    Parameters
    ----------
    cnf : CNF
    stream : binary file
    deadline : Deadline
    max_line : int, optional
        A clause whose line would reach this many characters continues over
        several lines instead (zChaff reads clauses across lines but stops at
        65,536 characters a line).

    Raises
    ------
    DimacsError
        The formula has an empty clause, or a literal beyond its variables
        (what was written before it is then no formula: throw it away).
    """
    if cnf.has_empty_clause:
        raise DimacsError("the formula has an empty clause; it is UNSAT without a solver")
    if deadline.expired():
        return False
    stream.write(b"p cnf %d %d\n" % (cnf.num_vars, cnf.num_clauses))
    try:
        for text in cnf.dimacs_clause_bytes(_WRITE_SLICE, strict=True):
            if deadline.expired():
                return False
            if max_line is not None and _has_long_line(text, max_line):
                text = _wrapped(text)
            stream.write(text)
    except ValueError as exc:
        raise DimacsError(str(exc)) from None
    stream.flush()
    return not deadline.expired()


_LITERALS_PER_LINE = 2_000  # at most 12 characters each: 24,000 characters a line


def _has_long_line(text: bytes, limit: int) -> bool:
    """Whether a line of `text` (which ends in a line end) reaches `limit` characters.

    Every window of limit // 2 characters holding a line end means no line is that long,
    which a few ``find`` calls show; only a slice without one is split and measured.
    """
    half = max(1, limit // 2)
    for begin in range(0, len(text), half):
        if text.find(b"\n", begin, begin + half) < 0:
            return max(map(len, text.split(b"\n"))) >= limit
    return False


def _wrapped(text: bytes) -> bytes:
    """Clause lines of `text` re-cut to at most :data:`_LITERALS_PER_LINE` tokens a line."""
    lines: list[bytes] = []
    for line in text.splitlines():
        tokens = line.split()
        lines += (b" ".join(tokens[k : k + _LITERALS_PER_LINE])
                  for k in range(0, len(tokens), _LITERALS_PER_LINE))
    return b"\n".join(lines) + b"\n"


def whole_seconds(time_limit_ms: float | None) -> int | None:
    """A solver's own limit in whole seconds: ceil(T / 1000), never 0, at most
    :data:`sudosat.process.RLIMIT_MAX_S` (INT32_MAX: MiniSat refuses a larger
    ``-cpu-lim``, zChaff's ``atoi`` wraps it; the kill at the deadline stays the real bound).

    Examples
    --------
    >>> whole_seconds(1), whole_seconds(2000), whole_seconds(None), whole_seconds(1e18)
    (1, 2, None, 2147483647)
    """
    # Here, not at the top: only the adapters that run programs load the process layer.
    from sudosat.process import RLIMIT_MAX_S

    if time_limit_ms is None:
        return None
    return min(max(1, math.ceil(time_limit_ms / 1000.0)), RLIMIT_MAX_S)


def executable(name: str, label: str) -> str:
    """The path of program `name` (a path, or a name looked up on PATH).

    A name with a slash is a path, a relative one taken from the current folder as a
    shell takes it (``./mysolver``); the absolute path is returned, since programs run
    in another folder.

    Raises
    ------
    SolverNotFoundError
        No such program, a directory, or a file we may not execute; the
        message starts with `label`.
    """
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
    # absolute: str(Path("./zchaff")) is "zchaff", which running would look up on PATH
    return str(path.absolute())


def describe_exit(code: int) -> str:
    """An exit code in words: ``exit code 3`` or ``killed by signal SIGSEGV``.

    Examples
    --------
    >>> describe_exit(-11), describe_exit(2)
    ('killed by signal SIGSEGV', 'exit code 2')
    """
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def last_words(*texts: str, limit: int = 160) -> str:
    """The last non-blank line of the first text that has one (for error messages)."""
    for text in texts:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines:
            line = lines[-1]
            return line if len(line) <= limit else line[: limit - 3] + "..."
    return "no output"


def finish(result: Result, cnf: CNF, started: float, label: str, name: str) -> Result:
    """Check `result` against `cnf`, name it `name`, time it from `started` (``perf_counter``).

    Raises
    ------
    SolverError
        A SAT answer whose model does not satisfy `cnf` (the message names `label`).
    """
    verify_result(cnf, result, label)
    result.solver = name
    result.elapsed_ms = (time.perf_counter() - started) * 1000.0
    return result


def process_times(run: ProcessOutput) -> dict[str, float]:
    """A finished program's times for a result's stats: ``process_wall_ms``, its wall time, and
    ``process_cpu_ms``, its own CPU time as the operating system reported it (when it did)."""
    times = {"process_wall_ms": run.wall_ms}
    if run.cpu_ms is not None:
        times["process_cpu_ms"] = run.cpu_ms
    return times


def timed_out(started: float, name: str, **stats: float) -> Result:
    """UNKNOWN because the deadline passed (``stop`` TIME), timed from `started`."""
    return Result(Status.UNKNOWN, None, dict(stats), (time.perf_counter() - started) * 1000.0,
                  name, stop=Stop.TIME)


def unsat_without_asking(started: float, name: str) -> Result:
    """UNSAT for a formula with an empty clause (zChaff would ignore the clause and say SAT)."""
    return Result(Status.UNSAT, None, {"empty_clause": 1},
                  (time.perf_counter() - started) * 1000.0, name, stop=Stop.ANSWERED)


def program_said(status: Status, timed: bool) -> Stop:
    """Why a program's answer ended: ANSWERED for SAT or UNSAT; for UNKNOWN, by its limit.

    A program given a time limit of its own (`timed`: the seconds our
    deadline had left, which it reads as its limit) says UNKNOWN when that
    limit runs out: TIME. Without one, its UNKNOWN means it gave up: GAVE_UP.

    Examples
    --------
    >>> program_said(Status.UNKNOWN, True), program_said(Status.UNKNOWN, False)
    (<Stop.TIME: 'time'>, <Stop.GAVE_UP: 'gave up'>)
    """
    if status is not Status.UNKNOWN:
        return Stop.ANSWERED
    return Stop.TIME if timed else Stop.GAVE_UP
