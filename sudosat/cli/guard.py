"""Every error turned into one line on standard error and an exit code (1 input, 2 usage, 3 bug).

Exit 3 is for sudosat's own bugs only. What the machine refuses (a full disk,
a read-only file system, a permission, memory under ``ulimit -v``, a closed
pipe) is the user's to mend: one line naming the file and the cause, exit 1.
"""

from __future__ import annotations

import errno
import io
import os
import select
import sys
import traceback
import warnings
from collections.abc import Callable
from typing import Any, TextIO

from sudosat.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    UsageError,
)
from sudosat.errors import OutputError, SudosatError, open_error_reason

# OSError numbers that say what the machine refused, not what sudosat got wrong.
_ENVIRONMENT_ERRNOS = frozenset(
    getattr(errno, name)
    for name in (
        "ENOSPC", "EDQUOT", "EFBIG", "EIO", "EROFS", "EACCES", "EPERM", "EPIPE", "ENOMEM",
        "EMFILE", "ENFILE", "ENAMETOOLONG", "ELOOP", "ENOENT", "ENOTDIR", "EISDIR", "ENXIO",
        "ETXTBSY", "EBUSY", "ECONNRESET",
    )
    if hasattr(errno, name)
)


class _StdoutClosed(Exception):
    """The reader of standard output went away (``sudosat encode big | head -1``)."""


class _Stdout:
    """Standard output whose write errors name it: ``<stdout>: cannot write: No space left``.

    Text sits in Python's buffer until a flush, so a full disk shows up in a
    later ``print`` or at the end; both come through here.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        raw = getattr(self._stream, "buffer", None)
        if isinstance(raw, io.RawIOBase):
            return self._call(self._write_all, raw, text)
        return self._call(self._stream.write, text)

    def _write_all(self, raw: io.RawIOBase, text: str) -> int:
        """Write all of `text` to unbuffered standard output (``python -u``).

        There a text write is one system call, and the rest of a partial write
        (a pipe whose reader went away mid-write) is dropped without an error.
        """
        self._stream.flush()
        encoding = getattr(self._stream, "encoding", None) or "utf-8"
        data = memoryview(text.encode(encoding, getattr(self._stream, "errors", None) or "strict"))
        while data:
            written = raw.write(data)
            if written is None:  # a non-blocking descriptor that is full: wait until it takes more
                select.select([], [raw], [])
                continue
            data = data[written:]
        return len(text)

    def flush(self) -> None:
        self._call(self._stream.flush)

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            return method(*args)
        except OSError as exc:
            # What is still buffered would fail again at exit, as Python's noise.
            _silence(self._stream)
            if isinstance(exc, BrokenPipeError):
                raise _StdoutClosed from None
            raise OutputError(open_error_reason(exc, "write"), file="<stdout>") from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guarded(action: Callable[[], int], program: str, subject: str | None = None) -> int:
    """Run `action`, turning every error into one line on standard error and an exit code.

    Bad input (a :class:`SudosatError`) and what the machine refuses (a full
    disk, a permission, memory) exit 1, bad usage 2, and anything unexpected 3
    with one line naming the stage and `subject` (the traceback too when
    ``SUDOSAT_DEBUG=1``). Standard output is flushed here, so that a failed
    write is one of these lines, not Python's noise at exit; when its reader
    has gone (``| head``) the command ends quietly with exit 1.
    """

    def show_warning(message, category, filename, lineno, file=None, line=None):
        print(f"{program}: warning: {message}", file=sys.stderr)

    previous, stdout = warnings.showwarning, sys.stdout
    warnings.showwarning = show_warning
    sys.stdout = _Stdout(stdout)
    try:
        code = _run(action, program, subject)
        flushed = _run(sys.stdout.flush, program, subject)
        return code if flushed is None else flushed
    finally:
        sys.stdout = stdout
        warnings.showwarning = previous


def _run(action: Callable[[], Any], program: str, subject: str | None) -> Any:
    """`action`'s value, or the exit code of the error it raised (after its one line)."""
    try:
        return action()
    except SudosatError as exc:
        print(f"{program}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except UsageError as exc:
        print(f"{program}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except _StdoutClosed:
        return EXIT_BAD_INPUT
    except MemoryError:
        print(f"{program}: out of memory while {_stage_of_current()} {subject or 'the input'} "
              "(more memory, or a smaller input)", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        if exc.errno not in _ENVIRONMENT_ERRNOS:
            return _internal_error(program, exc, subject)
        where = exc.filename if exc.filename is not None else subject
        place = f"{where}: " if where else ""
        print(f"{program}: {place}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # a bug of ours: still one line, unless the user asks for more
        return _internal_error(program, exc, subject)


def _internal_error(program: str, exc: BaseException, subject: str | None) -> int:
    if os.environ.get("SUDOSAT_DEBUG", "") not in ("", "0"):
        traceback.print_exc()
    print(_internal_error_line(program, exc, subject), file=sys.stderr)
    return EXIT_INTERNAL


def _silence(stream: TextIO) -> None:
    """Point `stream`'s descriptor at /dev/null, so that the flush at exit has nowhere to fail."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return  # not a real file (a test's capture): nothing is flushed at exit
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def _stage_of_current() -> str:
    """The stage of the exception being handled (see :func:`_stage_of`)."""
    exc = sys.exc_info()[1]
    return "processing" if exc is None else _stage_of(exc)


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
    ("sudosat.run.executors", "running the batch on"),
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
