"""The command line: ``sudosat <command> ...`` and the course's ``SAT -Sn FILE``.

Each sub-command is a pair of functions in the module of its group: ``add_<name>_parser``
declares its options, help and examples, and ``run_<name>`` runs it on the parsed
arguments and returns the exit code (``run_study_command`` for study).
:mod:`~sudosat.cli.encode` holds encode, decode and check; :mod:`~sudosat.cli.sat` sat
and ``SAT -Sn``; :mod:`~sudosat.cli.generate` generate and count;
:mod:`~sudosat.cli.solve` solve and solvers; :mod:`~sudosat.cli.study` study. A new
command is one more pair in the list of :func:`~sudosat.cli.entry.build_parser`, and
:mod:`~sudosat.cli.common` what several commands share (exit codes, option types, the
time limit, reading and writing files).
:func:`main` maps errors to exit codes (:mod:`~sudosat.cli.guard`): a
:class:`~sudosat.errors.SudosatError` becomes one line on standard error and
exit 1, and so does what the machine refuses (a full disk, a permission, memory
running out; a closed pipe ends quietly with exit 1), bad usage one line and
exit 2, anything unexpected (a bug) one line naming the input and the stage and
exit 3; ``sudosat sat`` itself exits 10 (SAT), 20
(UNSAT) or 0 (no decision), like SAT-competition solvers.

This module imports nothing of sudosat until :func:`main` runs, so that Ctrl-C
at any moment of the start-up, the imports included, is one line and exit 130
(:func:`_launch`), and standard streams the shell closed (``>&-``, ``2>&-``)
are settled before anything can write to them (:func:`_settled_streams`).
"""

from __future__ import annotations

import errno
import importlib
import io
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

# typing is not imported when the program runs: it costs milliseconds of the start-up
# before _launch can turn Ctrl-C into one line (annotations are never evaluated here).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SAT_SN_PROGRAM = "SAT"
"""The name of the ``SAT -Sn FILE`` program (the assignment's), not a verdict."""

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "SAT_SN_PROGRAM",
    "SAT_STRATEGIES",
    "build_parser",
    "build_sat_sn_parser",
    "main",
    "sat_sn_main",
]

# Names this package offers, imported from the module that defines them on first use.
_LAZY = {
    "EXIT_BAD_INPUT": "sudosat.cli.common",
    "EXIT_INTERNAL": "sudosat.cli.common",
    "EXIT_INTERRUPTED": "sudosat.cli.common",
    "EXIT_OK": "sudosat.cli.common",
    "EXIT_USAGE": "sudosat.cli.common",
    "SAT_STRATEGIES": "sudosat.cli.sat",
    "build_parser": "sudosat.cli.entry",
    "build_sat_sn_parser": "sudosat.cli.sat",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sudosat`` with `argv` (default: the process's arguments); return the exit code.

    Without `argv` the call is the ``sudosat`` program itself: a time limit
    that bounds the whole command (``sat -T``) counts from the process's start.
    """
    return _launch("sudosat", "sudosat.cli.entry", "main", argv)


def sat_sn_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``SAT -Sn FILE`` (see :func:`main` for `argv`)."""
    return _launch(SAT_SN_PROGRAM, "sudosat.cli.sat", "sat_sn_main", argv)


def _launch(program: str, module: str, function: str, argv: Sequence[str] | None) -> int:
    """Import the command and run it; Ctrl-C anywhere in it is one line and exit 130.

    The command gets ``started``: the process's start when `argv` is None (the
    program itself), else this call's, for a limit that bounds the whole command.
    """
    called = time.monotonic()
    with _settled_streams():
        try:
            run: Callable[..., int] = getattr(importlib.import_module(module), function)
            from sudosat.sat.solvers.budget import process_started

            code = run(argv, started=process_started() if argv is None else called)
            if argv is None:
                _ignore_ctrl_c()  # the work is done: nothing is left to interrupt
            return code
        except KeyboardInterrupt:
            previous = _ignore_ctrl_c()  # one line, however often
            try:
                print(f"{program}: interrupted", file=sys.stderr)
            finally:
                if argv is not None:  # a call in a process that goes on (a test's)
                    import signal

                    signal.signal(signal.SIGINT, previous)
            # sudosat.cli.common's EXIT_INTERRUPTED, not imported: Ctrl-C may have come
            # while that very module was being imported
            return 130


def _ignore_ctrl_c() -> Any:
    """Ignore SIGINT from now on; return the handler it had.

    The program ignores it once its exit code is settled: Python restores the
    default action while it shuts down, and a Ctrl-C then would kill the
    process silently (status -2) after its work was done and reported.
    """
    import signal  # not loaded at start-up: imported here, not before main runs

    return signal.signal(signal.SIGINT, signal.SIG_IGN)


class _ClosedOutput(io.TextIOBase):
    """Standard output the shell closed (``>&-``): writing to it fails as writing to EBADF does.

    The guard (:mod:`~sudosat.cli.guard`) turns the failure into one line,
    ``<stdout>: cannot write: standard output is closed``, and exit 1; what the
    command wrote to files stays written.
    """

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


@contextmanager
def _settled_streams() -> Iterator[None]:
    """Standard streams that exist, for the command's duration.

    A descriptor 0, 1 or 2 that is closed is opened on ``/dev/null``, so that
    no file the command opens takes its number (a solver program would write
    its output into it). Python sets a closed stream's ``sys.stdout`` or
    ``sys.stderr`` to None: messages for standard error then go nowhere, and
    standard output fails on the first write (:class:`_ClosedOutput`), as
    ``cat >&-`` does. An open stream is left as it is.
    """
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
    saved = sys.stdout, sys.stderr
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    try:
        yield
    finally:
        if saved[1] is None:
            sys.stderr.close()
        sys.stdout, sys.stderr = saved
