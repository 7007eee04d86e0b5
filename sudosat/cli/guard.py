"""Every error turned into one line on standard error and an exit code (1 input, 2 usage, 3 bug)."""

from __future__ import annotations

import os
import sys
import traceback
import warnings
from collections.abc import Callable

from sudosat.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    _UsageError,
)
from sudosat.errors import SudosatError


def _guarded(action: Callable[[], int], program: str, subject: str | None = None) -> int:
    """Run `action`, turning every error into one line on standard error and an exit code.

    Bad input (a :class:`SudosatError`) exits 1, bad usage 2, and anything
    unexpected 3 with one line naming the stage and `subject` (the traceback
    too when ``SUDOSAT_DEBUG=1``).
    """

    def show_warning(message, category, filename, lineno, file=None, line=None):
        print(f"{program}: warning: {message}", file=sys.stderr)

    previous = warnings.showwarning
    warnings.showwarning = show_warning
    try:
        return action()
    except SudosatError as exc:
        print(f"{program}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except _UsageError as exc:
        print(f"{program}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of ours: still one line, unless the user asks for more
        if os.environ.get("SUDOSAT_DEBUG", "") not in ("", "0"):
            traceback.print_exc()
        print(_internal_error_line(program, exc, subject), file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        warnings.showwarning = previous


# The stage an unexpected error happened in, from the innermost sudosat frame:
# (module prefix, stage); a frame in a function whose name says decode wins.
_STAGES = (
    ("sudosat.sat.solvers", "solving"),
    ("sudosat.sudoku.encoding", "encoding"),
    ("sudosat.sat.amo", "encoding"),
    ("sudosat.sat.formulas", "encoding"),
    ("sudosat.run.generate", "generating"),
    ("sudosat.sat.cnf", "reading"),
    ("sudosat.sat.dimacs", "reading"),
    ("sudosat.sat.solutions", "reading"),
    ("sudosat.sat.dartmouth", "reading"),
    ("sudosat.sudoku.board", "reading"),
    ("sudosat.lines", "reading"),
    ("sudosat.run.pipeline", "running the batch on"),
    ("sudosat.run.batch", "running the batch on"),
    ("sudosat.outputs", "writing the output of"),
)


def _stage_of(exc: BaseException) -> str:
    """What sudosat was doing when `exc` was raised: reading, encoding, solving, decoding ..."""
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        module = _module_of(frame.filename)
        if module is None or module == "sudosat.cli" or module.startswith("sudosat.cli."):
            continue
        if "decode" in frame.name:
            return "decoding"
        if frame.name.startswith(("to_", "write", "format")):
            return "writing the answer for"
        for prefix, stage in _STAGES:
            if module.startswith(prefix):
                return stage
    return "processing"


def _module_of(filename: str) -> str | None:
    """``sudosat.x.y`` for a file of the sudosat package, else None."""
    parts = os.path.normpath(filename).split(os.sep)
    if "sudosat" not in parts:
        return None
    tail = parts[len(parts) - 1 - parts[::-1].index("sudosat") :]
    return ".".join(tail).removesuffix(".py")


def _internal_error_line(program: str, exc: BaseException, subject: str | None) -> str:
    """One line: the program, what it was doing, to which input, and the error."""
    stage = _stage_of(exc)
    target = f" {subject}" if subject else ""
    text = " ".join(str(exc).split())
    detail = f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
    return (
        f"{program}: internal error while {stage}{target}: {detail} "
        "(a bug in sudosat; set SUDOSAT_DEBUG=1 for the traceback)"
    )
