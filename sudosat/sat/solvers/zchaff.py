"""zChaff, the course's reference solver, behind our :class:`~sudosat.sat.result.Result`.

Princeton's zChaff is in no package registry: users bring their own binary and
:func:`find_zchaff` looks for it. Its quirks decide how it is called: it reads
clauses across lines but stops at 65,536 characters a line
(:func:`strict_dimacs` wraps longer clauses), it ignores an empty clause (the
wrapper answers UNSAT without asking), and its answer is a ``RESULT:`` line
after a model and a table of counters (:func:`parse_zchaff_output`).
"""

from __future__ import annotations

import io
import os
import shutil
import time

from sudosat.errors import ResourceLimitError, SolverError, SolverNotFoundError
from sudosat.process import Scratch, run_program
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.adapter import (
    describe_exit,
    executable,
    finish,
    last_words,
    process_times,
    timed_out,
    unsat_without_asking,
    whole_seconds,
    write_dimacs,
)
from sudosat.sat.solvers.budget import Deadline

__all__ = [
    "HOW_TO_PROVIDE_ZCHAFF",
    "ZCHAFF_MAX_LINE",
    "availability",
    "find_zchaff",
    "parse_zchaff_output",
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
    buffer = io.BytesIO()
    write_dimacs(cnf, buffer, Deadline(None), max_line=max_line)
    return buffer.getvalue().decode("ascii")


# ---------------------------------------------------------------------------------------
# Finding and running zChaff


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
        return executable(explicit, f"zChaff (--zchaff {explicit})")
    from_environment = os.environ.get("ZCHAFF", "").strip()
    if from_environment:
        return executable(from_environment, f"zChaff (ZCHAFF={from_environment})")
    found = shutil.which("zchaff")
    if found is None:
        raise SolverNotFoundError(f"zChaff not found: {HOW_TO_PROVIDE_ZCHAFF}")
    return found


def solve_zchaff(
    cnf: CNF,
    *,
    deadline: Deadline | None = None,
    seed: int = 0,
    zchaff: str | None = None,
) -> Result:
    """Solve `cnf` with the user's zChaff binary.

    Parameters
    ----------
    cnf : CNF
    deadline : Deadline, optional
        T for the whole call, writing zChaff's input included (the caller's
        clock starts before it), on the deadline's own clock. zChaff itself
        gets the seconds left once its input is written, rounded up (never 0,
        which it reads as "already out of time"), as its own CPU limit; the
        wrapper kills it when T has passed (wall clock) or when its CPU time
        reaches what was left (CPU clock; see :func:`sudosat.process.run_program`).
    seed : int
        Accepted for the common contract; zChaff takes no seed.
    zchaff : str, optional
        The program (path or name); see :func:`find_zchaff`.

    Returns
    -------
    Result
        UNKNOWN, ``stop`` TIME, at the time limit (ours or zChaff's own).
        ``stats`` holds zChaff's counters (``decisions``, ``conflicts``,
        ``propagations`` ...), ``search_cpu_ms`` (its "Total Run Time", the
        CPU time of its search, parsing not counted, in milliseconds),
        ``process_wall_ms``, the wall time of its process, and
        ``process_cpu_ms``, the CPU time of its process as the operating
        system reports it (reading its input included; where it is known).

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
    deadline = deadline or Deadline(None)
    binary = find_zchaff(zchaff)
    if cnf.has_empty_clause:
        return unsat_without_asking(started, "zchaff")
    with Scratch("zchaff") as scratch:
        path, stream = scratch.file("input.cnf")
        if not write_dimacs(cnf, stream, deadline, max_line=ZCHAFF_MAX_LINE):
            return timed_out(started, "zchaff", process_wall_ms=0.0)
        # zChaff gets the whole seconds that are left now, not T: the wrapper's kill at the
        # deadline is the real bound, this only keeps zChaff from outliving it by far.
        seconds = whole_seconds(deadline.remaining_or_none())
        argv = [binary, str(path)] + ([] if seconds is None else [str(seconds)])
        run = run_program(argv, None, deadline, "zChaff", pass_fds=tuple(scratch.handles))
    if run.timed_out:
        return timed_out(started, "zchaff", **process_times(run))
    assert run.exit_code is not None  # a program that did not time out has exited
    result = parse_zchaff_output(run.stdout, run.stderr, run.exit_code, cnf.num_vars)
    result.stats.update(process_times(run))
    return finish(result, cnf, started, "zChaff", "zchaff")


_ZCHAFF_VERDICTS = {
    "SAT": (Status.SAT, Stop.ANSWERED, "Instance Satisfiable"),
    "UNSAT": (Status.UNSAT, Stop.ANSWERED, "Instance Unsatisfiable"),
    "ABORT : TIME OUT": (
        Status.UNKNOWN, Stop.TIME, "Time out, unable to determine the satisfiability"
    ),
}

_ZCHAFF_EXIT_REASONS = {
    1: "zChaff cannot open its input file",
    2: "zChaff rejected its command line or met a line of 65,536 characters or more",
    3: "zChaff cannot read the 'p cnf' header",
    134: "zChaff aborted on an assertion, as a literal beyond V or a missing header makes it do",
}

# zChaff's statistic name (as its closing report prints it) -> our stats key.
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
    "Total Run Time": "search_cpu_ms",  # printed in seconds, kept in milliseconds
}
_ZCHAFF_SECONDS = frozenset({"search_cpu_ms"})
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
        raise SolverError(f"{reason} ({describe_exit(exit_code)}): {last_words(stderr, stdout)}")
    answer = _read_answer(stdout)
    verdict = _zchaff_verdict(answer, stdout)
    if verdict == "ABORT : MEM OUT":
        raise ResourceLimitError("zChaff ran out of memory (RESULT: ABORT : MEM OUT)")
    if verdict not in _ZCHAFF_VERDICTS:
        raise SolverError(f"zChaff printed an unknown result {verdict!r}")
    status, stop, announcement = _ZCHAFF_VERDICTS[verdict]
    if announcement not in answer.announced:
        raise SolverError(f"zChaff said RESULT: {verdict} without {announcement!r}: output garbled")
    stats = _zchaff_stats(answer.stats)
    declared = stats.get("original_variables")
    if declared is not None and declared != num_vars:
        raise SolverError(f"zChaff read {declared:g} variables where the formula has {num_vars}")
    model = _zchaff_model(answer.model_line, num_vars) if status is Status.SAT else None
    return Result(status, model, stats, 0.0, "zchaff", stop=stop)


class _Answer:
    """What zChaff printed, gathered in one pass over its lines (:func:`_read_answer`)."""

    __slots__ = ("results", "result_last", "announced", "model_line", "stats")

    def __init__(self) -> None:
        self.results: list[str] = []  # the RESULT lines
        self.result_last = False  # whether the last non-blank line is the (first) RESULT line
        self.announced: set[str] = set()  # the verdicts' announcements that open a line
        self.model_line: str | None = None  # the line after "Instance Satisfiable"
        self.stats: list[tuple[str, str]] = []  # (name, value) of every "name TAB value" line


_ANNOUNCEMENTS = tuple(announcement for _, _, announcement in _ZCHAFF_VERDICTS.values())


def _read_answer(stdout: str) -> _Answer:
    """One pass over zChaff's lines: its RESULT lines, announcements, model line and statistics.

    ``splitlines`` also splits the ``\\r`` progress reports.
    """
    answer = _Answer()
    after_sat = False
    for line in stdout.splitlines():
        if after_sat:
            answer.model_line, after_sat = line, False
        if not line.strip():
            continue
        answer.result_last = False
        if line.startswith("RESULT:"):
            answer.results.append(line)
            answer.result_last = len(answer.results) == 1
            continue
        for announcement in _ANNOUNCEMENTS:
            if line.startswith(announcement):
                if announcement not in answer.announced and announcement == _SAT_ANNOUNCEMENT:
                    after_sat = True
                answer.announced.add(announcement)
        if _ZCHAFF_SEED_MARK in line:
            line = line[line.index(_ZCHAFF_SEED_MARK) :]  # the model precedes it on the line
        name, tab, value = line.partition("\t")
        if tab:
            answer.stats.append((name.strip(), value.strip()))
    return answer


_SAT_ANNOUNCEMENT = "Instance Satisfiable"


def _zchaff_verdict(answer: _Answer, stdout: str) -> str:
    """The text after ``RESULT:`` on zChaff's last line."""
    if not answer.results:
        raise SolverError(
            f"zChaff printed no RESULT line (is the program really zChaff?): {last_words(stdout)}"
        )
    if len(answer.results) > 1 or not answer.result_last:
        raise SolverError("zChaff's output is garbled: the RESULT line is not its single last line")
    return answer.results[0][len("RESULT:") :].strip()


def _zchaff_stats(pairs: list[tuple[str, str]]) -> dict[str, float]:
    stats: dict[str, float] = {}
    for name, value in pairs:
        if name == _ZCHAFF_DECISION_KINDS:
            parts = [part.strip() for part in value.split("+")]
            if len(parts) == 3 and all(part.isdigit() for part in parts):
                for kind, count in zip(("stack", "vsids", "shrinking"), parts, strict=True):
                    stats[f"decisions_{kind}"] = int(count)
        elif name in _ZCHAFF_STATS:
            key = _ZCHAFF_STATS[name]
            number = _number(value, name)
            stats[key] = number * 1000.0 if key in _ZCHAFF_SECONDS else number
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


def _zchaff_model(line: str | None, num_vars: int) -> list[int]:
    """The line after ``Instance Satisfiable``: ``1 -2 3 Random Seed Used ...``."""
    if line is None or _ZCHAFF_SEED_MARK not in line:
        raise SolverError("zChaff said SAT but printed no model line")
    text = line.split(_ZCHAFF_SEED_MARK, 1)[0]
    try:
        model = [int(token) for token in text.split()]
    except ValueError:
        raise SolverError(f"zChaff's model line holds a non-integer: {text[:60]!r}") from None
    if len(model) != num_vars or any(abs(lit) != v for v, lit in enumerate(model, start=1)):
        raise SolverError(
            f"zChaff's model does not give variables 1..{num_vars} one value each, in order"
        )
    return model


def availability(
    name: str = "zchaff", *, zchaff: str | None = None, **options: object
) -> tuple[bool, str]:
    """Whether zChaff can run here, and if not, why (the reason is "" when it can).

    Parameters
    ----------
    name : str
        ``zchaff`` (the registry's name for it).
    zchaff : str, optional
        The ``--zchaff`` path, if the user gave one.
    **options
        Other solver options, which do not matter here.
    """
    del name, options
    try:
        find_zchaff(zchaff)
    except SolverError as exc:
        return False, exc.reason
    return True, ""
