"""Output files written safely: whole or not at all, in place for devices, one run per table.

:func:`write_atomically` (a file replaced all at once, a device or FIFO
written in place), :func:`check_outputs` (the one guard every command runs
before any work: no output may be an input or another output, and each must
be writable), :func:`check_writable`, :func:`same_file` and
:class:`ResultsLock` (one run per results file). The command line, the batch
(:mod:`sudosat.run.pipeline`) and the results table
(:mod:`sudosat.run.results`) write through here.

This module knows nothing of Sudoku.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from sudosat.errors import OutputError, SudosatError, open_error_reason

# ---------------------------------------------------------------------------------------
# writing files that may not be ordinary

SPECIAL_KINDS = frozenset({"character device", "FIFO"})
"""Kinds of file written in place (a rename would replace the device or pipe itself)."""
_WRITABLE_KINDS = SPECIAL_KINDS | {"regular file", "missing"}
_TEMPORARY_PREFIX = ".sudosat-"  # short: a name of 255 bytes still gets a temporary beside it


def file_kind(path: str | os.PathLike) -> str:
    """``regular file``, ``missing``, ``directory``, ``character device``, ``FIFO``, ...

    Symlinks are followed; a dangling one is ``missing``.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    for test, kind in (
        (stat.S_ISREG, "regular file"),
        (stat.S_ISDIR, "directory"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISSOCK, "socket"),
    ):
        if test(mode):
            return kind
    return "special file"


def names_a_file(path: str | os.PathLike) -> bool:
    """True when `path` is an ordinary file's name, one another file can be named after.

    A device, a FIFO, a folder or any path under ``/dev`` or ``/proc``
    (``/dev/null``, ``/dev/stdout``, ``/dev/fd/1``) is not: ``/dev/null.results.csv``
    is nobody's wish.

    Examples
    --------
    >>> names_a_file("out.txt"), names_a_file("/dev/null"), names_a_file("/dev/stdout")
    (True, False, False)
    """
    absolute = os.path.abspath(path)
    if absolute.startswith(("/dev/", "/proc/")) or str(path).endswith(("/", os.sep)):
        return False
    return file_kind(path) in ("regular file", "missing")


def output_target(path: str | os.PathLike) -> Path:
    """Where writing `path` lands: symlinks followed to their target (even a missing one)."""
    return Path(os.path.realpath(path))


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere: the classic set-and-restore
    os.umask(mask)
    return mask


def write_atomically(
    path: str | os.PathLike, text: str, *, lock: ResultsLock | None = None
) -> None:
    """Replace `path` by `text` all at once: readers see the old file or the new, never half.

    Only a regular (or new) file is replaced: a symlink is followed and its
    target written; a character device or FIFO is written in place (replacing
    it by a file would destroy it, as it did ``/dev/null``); anything else is
    refused. The new file keeps the old one's permissions, or gets those the
    umask gives a new file. With `lock`, the lock moves to the new file before
    it takes the old one's place.

    Raises
    ------
    OutputError
        The file cannot be written (the message names it and says why).
    """
    if file_kind(path) in SPECIAL_KINDS:
        # Written through its own name: /dev/stdout on a pipe resolves to no path.
        _write_in_place(Path(path), text)
        return
    target = output_target(path)
    kind = file_kind(target)
    if kind not in _WRITABLE_KINDS:
        raise OutputError(f"cannot write a {kind}", file=str(path))
    mode = stat.S_IMODE(os.stat(target).st_mode) if kind == "regular file" else 0o666 & ~_umask()
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=_TEMPORARY_PREFIX, suffix=".tmp", dir=target.parent
        )
    except OSError as exc:
        raise OutputError(open_error_reason(exc, "write"), file=str(path)) from None
    try:
        os.fchmod(handle, mode)
        with open(handle, "w", encoding="utf-8", newline="", closefd=False) as stream:
            stream.write(text)
        if lock is not None:
            lock.move_to(handle)
        os.replace(temporary, target)
    except BaseException as exc:
        os.close(handle)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise OutputError(open_error_reason(exc, "write"), file=str(path)) from None
        raise
    if lock is None or not lock.owns(handle):
        os.close(handle)


def _write_in_place(target: Path, text: str) -> None:
    try:
        with open(target, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
    except OSError as exc:
        raise OutputError(open_error_reason(exc, "write"), file=str(target)) from None


def check_writable(path: str | os.PathLike, probed: set[Path] | None = None) -> None:
    """Refuse, before any work, an output path that cannot be written.

    Checks the kind of file (a folder, a socket or a block device is refused),
    the length of its name, and that its folder (or the nearest existing
    parent, when folders are to be created) takes a new file, by creating and
    removing one: permission bits alone do not tell (root, read-only mounts).
    A folder in `probed` is not probed again; a probed one is added.

    Raises
    ------
    OutputError
        One line naming the path and the reason.
    """
    if str(path) == "":
        raise OutputError("an empty file name", file="''")
    special = file_kind(path)  # through its own name: /dev/stdout on a pipe has no real path
    if special in SPECIAL_KINDS:
        if not os.access(path, os.W_OK):
            raise OutputError(f"the {special} is not writable", file=str(path))
        return
    target = output_target(path)
    folder = target.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise OutputError(f"{folder} is not a folder", file=str(path))
    length, limit = len(os.fsencode(target.name)), _name_max(folder)
    if length > limit:
        raise OutputError(
            f"the file name is {length} bytes long; the limit here is {limit}", file=str(path)
        )
    kind = file_kind(target)
    if kind.startswith("unreadable"):
        raise OutputError(f"cannot be examined: {kind}", file=str(path))
    if kind not in _WRITABLE_KINDS:
        what = "a folder" if kind == "directory" else f"a {kind}"
        raise OutputError(f"is {what}, not a file that can be written", file=str(path))
    if kind == "regular file" and not os.access(target, os.W_OK):
        raise OutputError("the file is read-only", file=str(path))
    if probed is not None:
        if folder in probed:
            return
        probed.add(folder)
    try:
        handle, probe = tempfile.mkstemp(prefix=_TEMPORARY_PREFIX, suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(
            f"cannot write in the folder {folder}: {exc.strerror}", file=str(path)
        ) from None
    os.close(handle)
    os.unlink(probe)


Role = tuple[str | os.PathLike, str]
"""A path and what it holds in the command's words (``the solution``, ``the formula``)."""


def check_outputs(inputs: Sequence[Role], outputs: Sequence[Role]) -> None:
    """The guard every writing command runs before any work: refuse an output that destroys.

    An output that is the same file as an input (by path, through a symlink
    or a hard link: same device and inode) or as another output of the same
    call is refused, and so is one that cannot be written
    (:func:`check_writable`). A path ending in ``/`` names a folder, never the
    file the caller would write under another name. A character device or a
    FIFO (``/dev/null``, ``/dev/stdout``) is written in place and destroys
    nothing, so it may be an input too or be shared by several outputs.

    Parameters
    ----------
    inputs, outputs : sequence of (path, role)
        Each path with what it is in the command's words, for the message.

    Raises
    ------
    OutputError
        One line naming the output and why, e.g. ``f.cnf: the solution would
        overwrite the formula``.
    """
    known: dict[tuple, Role] = {}  # a path's identities (see _identities) -> whose it is
    for source in inputs:
        for key in _identities(source[0]):
            known.setdefault(key, source)
    probed: set[Path] = set()
    for path, role in outputs:
        if str(path).endswith(("/", os.sep)):
            raise OutputError(f"{role} needs a file name; this names a folder", file=str(path))
        if file_kind(path) in SPECIAL_KINDS:
            check_writable(path)
            continue
        keys = _identities(path)
        for key in keys:
            if key in known:
                other, other_role = known[key]
                raise OutputError(_overwrite(role, other_role, path, other), file=str(path))
        known.update(dict.fromkeys(keys, (path, role)))
        check_writable(path, probed)


def _identities(path: str | os.PathLike) -> list[tuple]:
    """What makes two names one file: the path after symlinks, and the inode when it exists.

    Keys, not pairwise comparisons, so that a thousand outputs cost a thousand look-ups
    (:func:`same_file` says the same of one pair).
    """
    keys: list[tuple] = [("path", output_target(path))]
    with contextlib.suppress(OSError):
        info = os.stat(path)
        keys.append(("inode", info.st_dev, info.st_ino))
    return keys


def _overwrite(
    role: str, other_role: str, path: str | os.PathLike, other: str | os.PathLike
) -> str:
    """``the solution would overwrite the formula f.cnf (through a symlink)``."""
    if str(other) == str(path):
        return f"{role} would overwrite {other_role}"
    how = ""
    if os.path.realpath(path) != os.path.realpath(other):
        how = " (a hard link to it)"
    elif os.path.islink(path) or os.path.islink(other):
        how = " (through a symlink)"
    return f"{role} would overwrite {other_role} {other}{how}"


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def same_file(first: str | os.PathLike | int, second: str | os.PathLike | int) -> bool:
    """True when both name one file: one path after symlinks, or the same inode.

    An ``int`` is an open file descriptor (compared by its inode only).
    """
    if (
        not isinstance(first, int)
        and not isinstance(second, int)
        and output_target(first) == output_target(second)
    ):
        return True
    try:
        a, b = os.stat(first), os.stat(second)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


# ---------------------------------------------------------------------------------------
# one run per results file


class ResultsInUse(SudosatError, RuntimeError):
    """Another run holds the lock on the results file."""


class ResultsLock:
    """An exclusive lock (``flock``) on a results file, held for the whole run.

    A second run on the same file is refused with :class:`ResultsInUse`,
    naming the other run's PID where Linux tells it (``/proc/locks``). The
    lock belongs to the file's inode; :func:`write_atomically` moves it to the
    new inode before the rename, so there is no moment when the path is
    unlocked. A special file (FIFO, character device) is not locked: it keeps
    no rows to lose.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "r.csv")
    >>> with ResultsLock(path):
    ...     ResultsLock(path).acquire()
    Traceback (most recent call last):
    ...
    sudosat.outputs.ResultsInUse: ...r.csv: in use by another run (PID ...); ...
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._handle: int | None = None

    def acquire(self) -> ResultsLock:
        target = output_target(self.path)
        if file_kind(target) in SPECIAL_KINDS:
            return self
        while self._handle is None:
            handle = self._open(target)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _lock_holder(handle)
                os.close(handle)
                pid = f"PID {holder}" if holder else "PID unknown"
                raise ResultsInUse(
                    f"in use by another run ({pid}); wait for it to finish or choose "
                    "another --results",
                    file=str(self.path),
                ) from None
            if same_file(handle, target):
                self._handle = handle
            else:  # replaced between our open and our lock: lock the new one
                os.close(handle)
        return self

    def _open(self, target: Path) -> int:
        try:
            return os.open(target, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as exc:
            raise OutputError(open_error_reason(exc, "open"), file=str(self.path)) from None

    def move_to(self, handle: int) -> None:
        """Lock `handle` (the file about to replace ours) and let the old lock go."""
        if self._handle is None:
            return
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.close(self._handle)
        self._handle = handle

    def owns(self, handle: int) -> bool:
        return self._handle == handle

    def release(self) -> None:
        if self._handle is not None:
            os.close(self._handle)  # closing the last handle releases the flock
            self._handle = None

    def __enter__(self) -> ResultsLock:
        return self.acquire()

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def _lock_holder(handle: int) -> int | None:
    """The PID holding a lock on the file of `handle`, from ``/proc/locks`` (Linux)."""
    info = os.fstat(handle)
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        text = Path("/proc/locks").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        fields = line.split()
        if "->" in fields or len(fields) < 6:
            continue
        if fields[5] == where and fields[4].isdigit():
            return int(fields[4])
    return None
