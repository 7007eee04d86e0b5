"""Exceptions that reach users.

Every error sudosat raises on purpose is a :class:`SudosatError`. Each one
carries the place it is about (a file and a line, when known) and a reason, and
its ``str`` is the single line the command line prints: ``file:line: reason``.
The subclasses also derive from a builtin exception (``ValueError``,
``RuntimeError``, ``MemoryError``) so that callers who do not know sudosat can
still catch them sensibly.

Unsatisfiability and time-outs are *results*, never exceptions.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class SudosatError(Exception):
    """Base class of every error sudosat raises for a user to read.

    Parameters
    ----------
    reason : str
        What is wrong, in words a user understands.
    file : str, optional
        The file the error is about (a path, ``<stdin>`` or ``<string>``).
    line : int, optional
        The 1-based line of `file` the error is about.
    """

    def __init__(self, reason: str, *, file: str | None = None, line: int | None = None):
        self.reason = reason
        self.file = file
        self.line = line
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The one-line message ``file:line: reason`` (parts omitted when unknown)."""
        if self.file is not None and self.line is not None:
            return f"{self.file}:{self.line}: {self.reason}"
        if self.file is not None:
            return f"{self.file}: {self.reason}"
        if self.line is not None:
            return f"line {self.line}: {self.reason}"
        return self.reason

    def at(self, *, file: str | None = None, line: int | None = None) -> SudosatError:
        """Fill in the file and line when the raiser did not know them; return self."""
        if self.file is None and file is not None:
            self.file = file
        if self.line is None and line is not None:
            self.line = line
        self.args = (self.message,)
        return self

    def __str__(self) -> str:
        return self.message


class InstanceError(SudosatError, ValueError):
    """A Sudoku instance (a board line) cannot be read or is not a valid board."""


class DimacsError(SudosatError, ValueError):
    """A DIMACS CNF file or a solution file is malformed."""


class EncodingError(SudosatError, ValueError):
    """An encoding name is unknown or cannot encode the board it was given."""


class SolverError(SudosatError, RuntimeError):
    """A solver could not be run, crashed, or answered something we cannot trust."""


class SolverNotFoundError(SolverError):
    """An external solver binary (zChaff, an ``exec:`` program) is not available."""


class ResourceLimitError(SudosatError, MemoryError):
    """An instance would need more memory or clauses than the configured limit allows."""


class DecodeError(SudosatError, ValueError):
    """A model cannot be read back as a board: wrong order, numbering or encoding, or a bad cell."""


class OutputError(SudosatError, OSError):
    """An output (a solved-boards file, a results table, a folder for them) cannot be written."""


class WorkerCrashed(SudosatError, RuntimeError):
    """The process (or Dask worker) running an item died before it answered."""


class MissingExtraError(SudosatError, ImportError):
    """A feature needs an optional part of sudosat (an extra) that is not installed.

    Its message names the feature, the extra and the command that installs it;
    ``module`` is the top-level module found missing.

    Examples
    --------
    >>> print(MissingExtraError("a progress bar (--progress)", "progress", "tqdm"))
    a progress bar (--progress) needs the extra 'progress': pip install 'sudosat[progress]'
    """

    def __init__(self, feature: str, extra: str, module: str) -> None:
        self.feature, self.extra, self.module = feature, extra, module
        super().__init__(f"{feature} needs the extra '{extra}': pip install 'sudosat[{extra}]'")


def import_extra(module: str, extra: str, feature: str) -> ModuleType:
    """`module`, imported; when it is missing, :class:`MissingExtraError` names `extra`.

    Parameters
    ----------
    module : str
        What to import (``"tqdm.auto"``).
    extra : str
        The extra of ``pyproject.toml`` that installs it (``"progress"``).
    feature : str
        What needs it, as the user asked for it (``"a progress bar (--progress)"``).
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(feature, extra, module.partition(".")[0]) from None


def open_error_reason(exc: OSError, action: str = "read", expected: str | None = None) -> str:
    """The one user message for an OSError raised while opening a file to `action` it.

    `expected` names what the file should have been, for the folder case
    (``is a directory, not a DIMACS file``). The caller puts the message in
    the error it raises, with the file name.

    Examples
    --------
    >>> open_error_reason(FileNotFoundError(2, "No such file or directory"))
    'no such file'
    >>> open_error_reason(IsADirectoryError(21, "Is a directory"), expected="a DIMACS file")
    'is a directory, not a DIMACS file'
    >>> open_error_reason(PermissionError(13, "Permission denied"), "write")
    'cannot write: Permission denied'
    """
    if isinstance(exc, FileNotFoundError) and action == "read":
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a directory" + (f", not {expected}" if expected else "")
    return f"cannot {action}: {exc.strerror or exc}"
