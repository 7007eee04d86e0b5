"""Which cdcl core runs: the compiled twin where it is built and able, else the reference."""

from __future__ import annotations

import os
import shlex
import subprocess
import sysconfig

import pytest

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.solvers.cdcl import Solver, solve
from sudosat.sat.solvers.cdcl.cores import CORE_VARIABLE, choose, compiled_built

FORMULA = CNF([[1, 2], [-1, 2], [-2, 3]])


def _c_compiler_works() -> bool:
    """Whether the compiler an install would use (``CC``, else Python's own) runs at all."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    try:
        return subprocess.run([*shlex.split(compiler), "--version"], capture_output=True,
                              check=False).returncode == 0
    except OSError:
        return False


@pytest.mark.skipif(not _c_compiler_works(), reason="no working C compiler: the twin cannot be")
def test_the_compiled_core_is_built_wherever_a_c_compiler_works():
    assert compiled_built(), "a C compiler works here, yet the compiled cdcl core is not built"


@pytest.mark.skipif(not compiled_built(), reason="the compiled cdcl core is not built here")
def test_auto_runs_the_twin_on_the_default_settings(monkeypatch):
    monkeypatch.delenv(CORE_VARIABLE, raising=False)
    result = solve(FORMULA)
    assert result.core == "compiled" and result.model == [-1, 2, 3]
    solver = Solver(FORMULA)
    assert (solver.core.name, solver.core.reason) == ("compiled", "built")
    assert solver.stats()["core"] == "compiled"


@pytest.mark.parametrize(("tunables", "why"), [
    ({"chrono": "reuse"}, "chrono=reuse"),
    ({"vivify": 1}, "vivify=1"),
    ({"tier2_lbd": 6}, "tier2_lbd=6"),
])
@pytest.mark.skipif(not compiled_built(), reason="the compiled cdcl core is not built here")
def test_settings_the_twin_lacks_run_the_reference_and_say_why(monkeypatch, tunables, why):
    monkeypatch.setenv(CORE_VARIABLE, "compiled")
    solver = Solver(FORMULA, **tunables)
    assert solver.core.name == "python" and why in solver.core.reason
    assert solver.solve().core == "python"


@pytest.mark.skipif(not compiled_built(), reason="the compiled cdcl core is not built here")
def test_an_observer_runs_the_reference(monkeypatch):
    monkeypatch.delenv(CORE_VARIABLE, raising=False)

    class Watch:
        def decided(self, literal, level, trail_size):
            pass

    solver = Solver(FORMULA, observer=Watch())
    assert solver.core.name == "python"
    assert solver.core.reason == "an observer runs in the reference core"


def test_python_asked_for_runs_the_reference_everywhere(monkeypatch):
    monkeypatch.setenv(CORE_VARIABLE, "python")
    assert solve(FORMULA).core == "python"
    assert Solver(FORMULA).core.reason == "asked for"
    monkeypatch.setenv(CORE_VARIABLE, "compiled")
    assert solve(FORMULA, core="python").core == "python"  # the argument wins


def test_an_unknown_core_is_refused_in_one_line(monkeypatch):
    monkeypatch.setenv(CORE_VARIABLE, "turbo")
    with pytest.raises(SolverError, match="^cdcl: SUDOSAT_CORE 'turbo' is not one of auto, python"):
        solve(FORMULA)
    with pytest.raises(SolverError, match="^cdcl: core 'x' is not one of"):
        choose("x", {}, observed=False)
