"""Which core runs a search: the pure-Python reference or its compiled twin.

The standard library's pattern (``heapq.py`` and ``_heapq``): the Python
engine (:class:`~sudosat.sat.solvers.cdcl.engine.Engine`) is the
specification; the twin in :mod:`sudosat.sat.solvers.cdcl.compiled`, built
from Cython where a C compiler exists, does the same search decision for
decision and runs whenever it is built and the settings are its own. Settings
it does not implement (see :func:`~sudosat.sat.solvers.cdcl.compiled.engine.unsupported`)
and observers run the reference, and :class:`Choice` says why.

The choice is ``auto`` (the default: the twin when it can), ``python``
(always the reference) or ``compiled`` (the twin, or :class:`SolverError` in
one line when it is not built). The environment variable ``SUDOSAT_CORE``
sets it for a whole process; a ``core=`` argument sets it for one solver.

Examples
--------
>>> choose("python", {}, observed=False).name
'python'
>>> choose("fast", {}, observed=False)
Traceback (most recent call last):
...
sudosat.errors.SolverError: cdcl: core 'fast' is not one of auto, python, compiled
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from sudosat.errors import SolverError

#: The environment variable that picks the core for a whole process.
CORE_VARIABLE = "SUDOSAT_CORE"
#: The values a core choice takes.
CORES = ("auto", "python", "compiled")


@dataclass(frozen=True)
class Choice:
    """The core a solver runs, and why.

    Attributes
    ----------
    name : str
        ``"compiled"`` or ``"python"``.
    reason : str
        Why: ``"built"``, ``"asked for"`` (``python`` chosen), ``"not built"``,
        or the setting the twin does not implement.
    """

    name: str
    reason: str


@cache
def compiled_module() -> ModuleType | None:
    """The twin's engine module, or None when it is not built (or fails to import)."""
    try:
        return importlib.import_module("sudosat.sat.solvers.cdcl.compiled.engine")
    except ImportError:
        return None


def compiled_built() -> bool:
    """Whether the compiled core is built and importable here."""
    return compiled_module() is not None


def requested(core: str | None = None) -> str:
    """The core asked for: `core`, else ``SUDOSAT_CORE``, else ``auto``; checked."""
    wanted = core if core is not None else os.environ.get(CORE_VARIABLE, "") or "auto"
    wanted = wanted.strip().lower()
    if wanted not in CORES:
        source = "core" if core is not None else CORE_VARIABLE
        raise SolverError(f"cdcl: {source} {wanted!r} is not one of {', '.join(CORES)}")
    return wanted


def choose(core: str | None, settings: dict, *, observed: bool) -> Choice:
    """The core for a solver with these `settings` (and an observer when `observed`).

    Raises
    ------
    SolverError
        An unknown core, or ``compiled`` asked for where the twin is not built.
    """
    wanted = requested(core)
    if wanted == "python":
        return Choice("python", "asked for")
    module = compiled_module()
    if module is None:
        if wanted == "compiled":
            raise SolverError(
                f"cdcl: {CORE_VARIABLE}=compiled, but the compiled core is not built "
                "(install with a C compiler: make install)"
            )
        return Choice("python", "not built")
    unsupported = "an observer runs in the reference core" if observed else (
        module.unsupported(settings))
    if unsupported:
        return Choice("python", unsupported)
    return Choice("compiled", "built")


def default_core() -> str:
    """The core ``cdcl`` runs here on its default settings: ``compiled`` or ``python``.

    Raises
    ------
    SolverError
        As :func:`choose`: ``SUDOSAT_CORE`` unknown, or ``compiled`` where it is not built.
    """
    from sudosat.sat.solvers.budget import settings_from
    from sudosat.sat.solvers.cdcl.tunables import TUNABLES

    return choose(None, settings_from("cdcl", TUNABLES, {}), observed=False).name


def describe() -> str:
    """One phrase for ``sudosat solvers``: whether the compiled core is built, and which runs."""
    if not compiled_built():
        return "compiled core not built: the pure-Python core runs"
    try:
        wanted = requested()
    except SolverError as exc:
        return f"compiled core built; {exc}"
    if wanted == "python":
        return f"compiled core built; {CORE_VARIABLE}=python: the pure-Python core runs"
    return "compiled core built: it runs every setting it implements"
