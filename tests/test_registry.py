"""The registry: availability and the list of solvers, for `sudosat solvers`."""

from __future__ import annotations

import sys

from sudosat.solvers import availability, list_solvers
from sudosat.solvers.pysat import pysat_backends

# --------------------------------------------------------------------------------------
# Availability, for `sudosat solvers`


def test_availability():
    assert availability("pysat:minisat22") == (True, "")
    assert availability("pysat:nope")[0] is False
    assert availability("exec:no-such-solver-x") == (
        False,
        "exec:no-such-solver-x: no program 'no-such-solver-x' on PATH",
    )
    assert availability("cdcl") == (True, "")
    assert availability("nope") == (
        False,
        "unknown solver 'nope'; known solvers: cdcl, dpll, dp, walksat, gsat, zchaff, "
        "pysat:NAME, exec:PROGRAM",
    )
    assert availability(f"exec:{sys.executable}") == (True, "")


def test_list_solvers_reports_every_pysat_backend_and_exec_programs():
    infos = {info.name: info for info in list_solvers(extra=["exec:no-such-solver-x"])}
    assert all(infos[f"pysat:{name}"].available for name in pysat_backends())
    assert not infos["exec:no-such-solver-x"].available
    assert "zchaff" in infos
