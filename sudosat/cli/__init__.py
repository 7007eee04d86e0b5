"""The command line: ``sudosat <command> ...`` and the course's ``SAT -Sn FILE``.

Each sub-command is a pair of functions, ``_add_<name>_parser`` and
``_run_<name>``, in the module named after it (:mod:`~sudosat.cli.encode` holds
encode, decode and check; :mod:`~sudosat.cli.sat` sat and ``SAT -Sn``;
:mod:`~sudosat.cli.generate` generate and count; :mod:`~sudosat.cli.solve`
solve and solvers), registered in :func:`~sudosat.cli.entry.build_parser`.
:func:`main` maps errors to exit codes (:mod:`~sudosat.cli.guard`): a
:class:`~sudosat.errors.SudosatError` becomes one line on standard error and
exit 1, and so does what the machine refuses (a full disk, a permission, memory
running out; a closed pipe ends quietly with exit 1), bad usage one line and
exit 2, anything unexpected (a bug) one line naming the input and the stage and
exit 3; ``sudosat sat`` itself exits 10 (SAT), 20
(UNSAT) or 0 (no decision), like SAT-competition solvers.
"""

from __future__ import annotations

from sudosat.cli.common import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE
from sudosat.cli.entry import build_parser, main
from sudosat.cli.sat import SAT_STRATEGIES, build_sat_sn_parser, sat_sn_main

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "SAT_STRATEGIES",
    "build_parser",
    "build_sat_sn_parser",
    "main",
    "sat_sn_main",
]
