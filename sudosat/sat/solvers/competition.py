"""Any SAT-competition binary (``exec:PROGRAM``) behind our :class:`~sudosat.sat.result.Result`.

minisat, picosat, cadical, kissat and any other program that follows the
SAT-competition conventions: DIMACS in, an ``s`` status line and ``v`` model
lines out, exit code 10 (SAT), 20 (UNSAT) or 0 (unknown). MiniSat writes its
answer to a result file instead. How each family is called (time limit,
seed, verbosity) is a :class:`Convention`, chosen from the program's name
(:func:`convention_for`).

Examples
--------
>>> convention_for("/usr/bin/cadical").argv(["cadical"], Path("in.cnf"), Path("out.txt"), 2, 7)
['cadical', '-t', '2', '--seed=7', 'in.cnf']
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

from sudosat.errors import SolverError, SolverNotFoundError
from sudosat.process import ProcessOutput, Scratch, run_program
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.adapter import (
    describe_exit,
    executable,
    finish,
    last_words,
    process_times,
    program_said,
    timed_out,
    unsat_without_asking,
    whole_seconds,
    write_dimacs,
)
from sudosat.sat.solvers.budget import Deadline

__all__ = [
    "CONVENTIONS",
    "Convention",
    "availability",
    "convention_for",
    "parse_competition_output",
    "parse_minisat_result",
    "scrape_stats",
    "solve_exec",
]


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
    return [executable(words[0], label), *words[1:]]


def solve_exec(
    cnf: CNF,
    *,
    program: str,
    deadline: Deadline | None = None,
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
    deadline : Deadline, optional
        T for the whole call, writing the program's input included, on the
        deadline's own clock: on the wall clock the program is killed when T
        has passed; on the CPU clock when its own CPU time reaches what was
        left of T once its input was written (see
        :func:`sudosat.process.run_program`). The program also gets its own
        limit, those seconds rounded up, where it has one.
    seed : int
        Passed to programs that take a seed (picosat, cadical, kissat).

    Returns
    -------
    Result
        UNKNOWN, ``stop`` TIME, when the deadline passed or the program's own
        limit ran out (GAVE_UP for an UNKNOWN from a program given no limit).
        Stats: the counters it printed, ``search_cpu_ms`` (its own CPU time,
        where it reports one: MiniSat's ``CPU time``, CaDiCaL's process time
        ...), ``process_wall_ms``, the wall time of its process, and
        ``process_cpu_ms``, its CPU time as the operating system reports it
        (where it is known).

    Raises
    ------
    SolverNotFoundError
        The program is missing or not executable.
    SolverError
        It failed, crashed, printed something unexpected, or returned a
        model that does not satisfy `cnf`.
    """
    started = time.perf_counter()
    deadline = deadline or Deadline(None)
    name, label = f"exec:{program}", f"exec:{program}"
    words = _program_words(program, label)
    convention = convention_for(words[0])
    if cnf.has_empty_clause:
        return unsat_without_asking(started, name)
    with Scratch("exec") as scratch:
        cnf_path, cnf_file = scratch.file("input.cnf")
        if not write_dimacs(cnf, cnf_file, deadline):
            return timed_out(started, name, process_wall_ms=0.0)
        result_path, result_file = scratch.file("result.txt")
        # The program's own limit is what is left once its input is written; the kill at
        # the deadline is the real bound.
        seconds = whole_seconds(deadline.remaining_or_none())
        argv = convention.argv(words, cnf_path, result_path, seconds, seed)
        run = run_program(argv, None, deadline, label, pass_fds=tuple(scratch.handles))
        result_text = scratch.read(result_file) if convention.result_file else None
    if run.timed_out:
        return timed_out(started, name, **process_times(run))
    assert run.exit_code is not None  # a program that did not time out has exited
    timed = seconds is not None and bool(convention.limit)
    if result_text is not None:
        result = parse_minisat_result(result_text, run, cnf.num_vars, label, timed=timed)
    else:
        result = parse_competition_output(
            run.stdout, run.stderr, run.exit_code, cnf.num_vars, label, timed=timed
        )
    result.stats.update(scrape_stats(run.stdout))
    result.stats.update(process_times(run))
    return finish(result, cnf, started, label, name)


_STATUS_WORDS = {
    "SATISFIABLE": Status.SAT,
    "UNSATISFIABLE": Status.UNSAT,
    "UNKNOWN": Status.UNKNOWN,
    "INDETERMINATE": Status.UNKNOWN,
}
_EXIT_STATUS = {10: Status.SAT, 20: Status.UNSAT}


def parse_competition_output(
    stdout: str, stderr: str, exit_code: int, num_vars: int, label: str = "solver", *,
    timed: bool,
) -> Result:
    """Read the SAT-competition answer: one ``s`` line, ``v`` lines, exit code 10/20/0.

    The exit code is checked against the ``s`` line; an exit code of 0 alone
    proves nothing (picosat exits 0 on errors too). CaDiCaL's time-out, a
    ``c UNKNOWN`` line without ``s`` line and exit 0, is UNKNOWN. Variables the
    ``v`` lines leave out get the value False (the model is checked afterwards).
    `timed` says whether the program was given a time limit: its UNKNOWN then
    stops for TIME, else it gave up (:func:`~sudosat.sat.solvers.adapter.program_said`).

    Raises
    ------
    SolverError
        Another exit code, no or several ``s`` lines, an unknown status, a
        contradiction, or a malformed model.

    Examples
    --------
    >>> parse_competition_output("s SATISFIABLE\\nv 1 -2\\nv 0\\n", "", 10, 3, timed=False).model
    [1, -2, -3]
    """
    if exit_code not in (0, 10, 20):
        raise SolverError(
            f"{label} failed ({describe_exit(exit_code)}): {last_words(stderr, stdout)}"
        )
    lines = [line.strip() for line in stdout.splitlines()]
    status_lines = [line for line in lines if line.startswith("s ") or line == "s"]
    if not status_lines:
        if exit_code == 0 and "c UNKNOWN" in lines:
            return Result(Status.UNKNOWN, None, {}, 0.0, label,
                          stop=program_said(Status.UNKNOWN, timed))
        raise SolverError(
            f"{label} printed no 's' status line ({describe_exit(exit_code)}): "
            f"{last_words(stderr, stdout)}"
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
        return Result(status, None, {}, 0.0, label, stop=program_said(status, timed))
    tokens = " ".join(value_lines).split()
    return Result(status, _model_from_tokens(tokens, num_vars, label), {}, 0.0, label,
                  stop=Stop.ANSWERED)


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
    text: str, run: ProcessOutput, num_vars: int, label: str = "minisat", *, timed: bool
) -> Result:
    """Read MiniSat's result file (``SAT`` and a model line, ``UNSAT`` or ``INDET``).

    `timed` says whether MiniSat was given ``-cpu-lim`` (its INDET is then TIME).

    Raises
    ------
    SolverError
        An exit code other than 10/20/0, a missing or malformed result file,
        or a result that contradicts the exit code.
    """
    code = run.exit_code
    assert code is not None  # only a run that did not time out is read
    if code not in (0, 10, 20):
        raise SolverError(
            f"{label} failed ({describe_exit(code)}): {last_words(run.stderr, run.stdout)}"
        )
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0] not in _MINISAT_WORDS:
        found = repr(lines[0][:40]) if lines else "nothing"
        raise SolverError(
            f"{label} wrote {found} to its result file ({describe_exit(code)}): "
            f"{last_words(run.stderr, run.stdout)}"
        )
    status = _MINISAT_WORDS[lines[0]]
    if {10: Status.SAT, 20: Status.UNSAT, 0: Status.UNKNOWN}[code] is not status:
        raise SolverError(f"{label} exited with code {code} but its result file says {lines[0]}")
    if status is not Status.SAT:
        return Result(status, None, {}, 0.0, label, stop=program_said(status, timed))
    tokens = " ".join(lines[1:]).split()
    return Result(status, _model_from_tokens(tokens, num_vars, label), {}, 0.0, label,
                  stop=Stop.ANSWERED)


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
    """Counters a verbose solver printed (decisions, conflicts, ...) and its own CPU time.

    ``search_cpu_ms`` is the CPU time the program reports for itself, in
    milliseconds (MiniSat's ``CPU time``, CaDiCaL's total process time,
    PicoSAT's total run time, Kissat's process time).

    Examples
    --------
    >>> scrape_stats("c 3 conflicts\\nc 0.5 seconds total run time\\n")
    {'conflicts': 3, 'search_cpu_ms': 500.0}
    """
    stats: dict[str, float] = {}
    for match in _STAT_PATTERNS[0].finditer(stdout):
        stats[match.group(1)] = int(match.group(2))
    for match in _STAT_PATTERNS[1].finditer(stdout):
        stats[match.group(2)] = int(match.group(1))
    for pattern in _CPU_PATTERNS:
        found = pattern.search(stdout)
        if found:
            with contextlib.suppress(ValueError):
                stats["search_cpu_ms"] = float(found.group(1)) * 1000.0
            break
    return stats


def availability(name: str, **options: object) -> tuple[bool, str]:
    """Whether ``exec:PROGRAM`` can run here, and if not, why (the reason is "" when it can).

    Examples
    --------
    >>> availability("exec:no-such-solver-here")
    (False, "exec:no-such-solver-here: no program 'no-such-solver-here' on PATH")
    """
    del options  # solver options do not decide whether the program exists
    try:
        _program_words(name.removeprefix("exec:"), name)
    except SolverError as exc:
        return False, exc.reason
    return True, ""
