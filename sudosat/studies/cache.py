"""A cache for the report's studies, keyed by (code version, parameters).

A study (the N x alpha grid, the heuristics experiment) costs minutes; its
result only changes when the code that produces it changes or when it is asked
other questions. So every unit of work (one grid cell, one solver over a puzzle
set) is stored under a key that hashes

* the *code version*: the bytes of every source file that can change a
  measured row (the solvers, the encodings, the CNF container, the board, the
  generator, the study modules themselves), plus the versions of Python and
  PySAT (the reference solver is compiled code outside the package);
* the *parameters* of that unit (order, alpha, seed, T, solver, ...).

An unchanged rebuild finds every key and recomputes nothing; an edit to a
solver recomputes everything, as it must. Entries are small JSON files, written
atomically; the directory is git-ignored (``.cache/`` by default) and can be
deleted at any time.

Timings in a cache entry are those of the machine and the day it was computed
on: :func:`load_or_compute` says which entries were reused, so a page can state it.
"""

from __future__ import annotations

import fnmatch
import hashlib
import inspect
import json
import os
import platform
import tempfile
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1]
DEFAULT_CACHE_DIR = ".cache/studies"
# Every module of the package can change a study's rows, but for these: the report,
# the command line, the workbench, the batch's file handling and this cache. Editing
# them re-renders a page from the cached rows instead of re-running the solvers. The
# studies' own modules (gridstudy, heuristics) hand their measuring functions to
# code_version instead, so that editing their tables and sentences keeps the cache.
# Listing what is left out (not what is in) means a new module is measured at once.
NOT_MEASURED = (
    "__main__.py",
    "cli/*",
    "report/*",
    "workbench/*",
    "run/batch.py",
    "outputs.py",
    "run/pipeline.py",
    "studies/cache.py",
    "studies/grid.py",
    "studies/heuristics.py",
)


def measured_sources() -> tuple[str, ...]:
    """The package's source files (relative paths) whose code a study's rows depend on."""
    names = (path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py"))
    return tuple(
        sorted(
            name
            for name in names
            if not any(fnmatch.fnmatch(name, pattern) for pattern in NOT_MEASURED)
        )
    )


def code_version(extra: Iterable[str] = (), functions: Iterable[Any] = ()) -> str:
    """A short hash of the measured sources, Python's version and PySAT's.

    Parameters
    ----------
    extra : iterable of str
        More package-relative source files to include.
    functions : iterable of functions or classes
        A study's own measuring code, hashed by its source text: editing the
        study's tables or plots then keeps the cache, editing how it measures
        does not.
    """
    digest = hashlib.sha256()
    for name in (*measured_sources(), *extra):
        path = PACKAGE / name
        digest.update(name.encode())
        digest.update(path.read_bytes() if path.is_file() else b"<missing>")
    for function in functions:
        digest.update(inspect.getsource(function).encode())
    digest.update(platform.python_version().encode())
    digest.update(_pysat_version().encode())
    return digest.hexdigest()[:16]


def _pysat_version() -> str:
    try:
        from importlib.metadata import version

        return version("python-sat")
    except Exception:  # not installed: the reference runs would fail anyway
        return "none"


def cache_key(kind: str, version: str, parameters: Mapping[str, Any]) -> str:
    """The file stem of one unit of work: `kind`, then a hash of version and parameters."""
    text = json.dumps({"version": version, "parameters": parameters}, sort_keys=True, default=str)
    return f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:20]}"


def load_or_compute(
    kind: str,
    parameters: Mapping[str, Any],
    compute: Callable[[], list[dict]],
    *,
    cache_dir: str | Path | None = DEFAULT_CACHE_DIR,
    version: str | None = None,
) -> tuple[list[dict], str | None]:
    """The rows of one unit of work, from the cache when present.

    Parameters
    ----------
    kind : str
        A name for the study (``grid``, ``large``, ``heuristics``).
    parameters : mapping
        Everything that determines the rows besides the code (JSON-able).
    compute : callable
        Makes the rows when they are not cached.
    cache_dir : path or None
        None disables the cache (always compute, never write).
    version : str, optional
        The code version (default :func:`code_version`).

    Returns
    -------
    (rows, computed_at)
        `computed_at` is the UTC time the rows were measured when they came
        from the cache, None when they were computed now.
    """
    if cache_dir is None:
        return compute(), None
    key = cache_key(kind, version or code_version(), parameters)
    path = Path(cache_dir) / f"{key}.json"
    if path.is_file():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            return stored["rows"], stored["computed_at"]
        except (OSError, ValueError, KeyError):
            pass  # a damaged entry is recomputed and overwritten
    rows = compute()
    _write_atomically(
        path,
        {
            "kind": kind,
            "parameters": parameters,
            "computed_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "rows": rows,
        },
    )
    return rows, None


def _write_atomically(path: Path, payload: dict) -> None:
    """Write JSON to a temporary file beside `path`, then rename: never a half entry."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(payload, out, default=_plain)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _plain(value: Any) -> Any:
    """NumPy scalars and other strays as plain JSON values."""
    if hasattr(value, "item"):
        return value.item()
    return str(value)
