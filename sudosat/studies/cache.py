"""A cache for the report's studies, keyed by (code version, parameters).

A study (the N x alpha grid, the heuristics experiment) costs minutes; its
result only changes when the code that produces it changes or when it is asked
other questions. So every unit of work (one grid cell, one solver over a puzzle
set) is stored under a key that hashes

* the *code version*: the bytes of every source file that can change a
  measured row (the solvers, the encodings, the CNF container, the board, the
  generator, the study modules themselves, the compiled cdcl core's Cython
  sources), plus the versions of Python and PySAT (the reference solver is
  compiled code outside the package) and the cdcl core that runs by default
  (the two search alike, but not at the same speed);
* the *parameters* of that unit (order, alpha, seed, solver, ...);
* the *limits* its runs were stopped by (:class:`Limit`, one or several):
  each one's kind, a counted work (``conflicts``, ``propagations``) or a clock
  (``cpu``, ``wall``), and its value. A study's runs are bounded by a work
  budget with a CPU-time cap behind it, and both are recorded: rows measured
  under another budget, or another cap, or a clock instead of a count, are not
  these rows, so a unit measured under other limits is measured again.

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
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sudosat.sat.solvers.cdcl.cores import default_core

PACKAGE = Path(__file__).resolve().parents[1]
DEFAULT_CACHE_DIR = ".cache/studies"
# Every module of the package can change a study's rows, but for these: the report,
# the command line, the workbench, the batch's file handling and this cache. Editing
# them re-renders a page from the cached rows instead of re-running the solvers. The
# studies' own modules (grid, heuristics) hand their measuring functions to
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
    # The compiled cdcl core's Cython sources measure too: its search is the reference's,
    # but its times are not.
    names = (
        path.relative_to(PACKAGE).as_posix()
        for pattern in ("*.py", "*.pyx", "*.pxd")
        for path in PACKAGE.rglob(pattern)
    )
    return tuple(
        sorted(
            name
            for name in names
            if not any(fnmatch.fnmatch(name, pattern) for pattern in NOT_MEASURED)
        )
    )


def code_version(extra: Iterable[str] = (), functions: Iterable[Any] = ()) -> str:
    """A short hash of the measured sources, Python's and PySAT's versions and the cdcl core.

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
    digest.update(f"cdcl core {default_core()}".encode())
    return digest.hexdigest()[:16]


def _pysat_version() -> str:
    try:
        from importlib.metadata import version

        return version("python-sat")
    except Exception:  # not installed: the reference runs would fail anyway
        return "none"


LIMIT_KINDS = ("cpu", "wall", "conflicts", "propagations")
"""What can stop a study's runs: a clock (``cpu``: the process's CPU time, ``wall``: elapsed
time), in milliseconds, or a counted work, in conflicts or propagations."""


@dataclass(frozen=True)
class Limit:
    """The limit every run of a unit of work was stopped by: its kind and its value.

    Attributes
    ----------
    kind : str
        One of :data:`LIMIT_KINDS`.
    value : float or None
        Milliseconds for a clock, a count for a work; None for no limit.

    Examples
    --------
    >>> Limit("cpu", 5000.0).as_json()
    {'kind': 'cpu', 'value': 5000.0}
    """

    kind: str
    value: float | None

    def __post_init__(self) -> None:
        if self.kind not in LIMIT_KINDS:
            raise ValueError(f"a limit's kind is one of {LIMIT_KINDS}, got {self.kind!r}")

    def as_json(self) -> dict[str, Any]:
        """The limit as the cache key and entry record it."""
        return {"kind": self.kind, "value": None if self.value is None else float(self.value)}


Limits = Limit | tuple[Limit, ...] | None
"""What stopped a unit's runs: one :class:`Limit`, several (a work budget and the CPU cap
behind it), or None for a unit that runs no solver."""


def limits_json(limit: Limits) -> Any:
    """`limit` as the cache key and entry record it: a dict, a list of them, or None.

    Examples
    --------
    >>> limits_json((Limit("conflicts", 1000), Limit("cpu", None)))
    [{'kind': 'conflicts', 'value': 1000.0}, {'kind': 'cpu', 'value': None}]
    """
    if limit is None or isinstance(limit, Limit):
        return None if limit is None else limit.as_json()
    return [one.as_json() for one in limit]


def cache_key(kind: str, version: str, parameters: Mapping[str, Any], limit: Limits) -> str:
    """The file stem of one unit of work: `kind`, then a hash of version, parameters and limits.

    `limit` is None only for a unit that runs no solver (generating the puzzles).
    """
    key = {"version": version, "parameters": parameters, "limit": limits_json(limit)}
    text = json.dumps(key, sort_keys=True, default=str)
    return f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:20]}"


def load_or_compute(
    kind: str,
    parameters: Mapping[str, Any],
    compute: Callable[[], list[dict]],
    *,
    limit: Limits,
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
    limit : Limit, tuple of Limit, or None
        What stopped the unit's runs: every limit they ran under (a work budget
        and the CPU cap behind it), or None for a unit that runs no solver. Part
        of the key, and recorded in the entry.
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
    key = cache_key(kind, version or code_version(), parameters, limit)
    recorded = limits_json(limit)
    path = Path(cache_dir) / f"{key}.json"
    if path.is_file():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            if stored["limit"] == recorded:
                return stored["rows"], stored["computed_at"]
        except (OSError, ValueError, KeyError):
            pass  # a damaged entry (or one without its limit) is recomputed and overwritten
    rows = compute()
    _write_atomically(
        path,
        {
            "kind": kind,
            "parameters": parameters,
            "limit": recorded,
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
