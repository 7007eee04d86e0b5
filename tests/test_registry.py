"""The registry: availability and the list of solvers, for `sudosat solvers`."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import sudosat.sat.solvers as solvers_package
from sudosat.sat.solvers import availability, list_solvers
from sudosat.sat.solvers import pysat as pysat_adapter
from sudosat.sat.solvers.pysat import pysat_backends

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


def test_list_solvers_checks_the_zchaff_it_is_given(tmp_path):
    missing = tmp_path / "zchaff"
    infos = {info.name: info for info in list_solvers(zchaff=str(missing))}
    assert infos["zchaff"].why_not == f"zChaff (--zchaff {missing}): no such file: {missing}"
    infos = {info.name: info for info in list_solvers(zchaff=sys.executable)}
    assert infos["zchaff"].available and infos["zchaff"].why_not == ""


def test_list_solvers_says_why_pysat_is_missing(monkeypatch):
    reason = "cannot import PySAT: No module named 'pysat'"
    monkeypatch.setattr(pysat_adapter, "_probe_backends", lambda: {"*": reason})
    infos = {info.name: info for info in list_solvers()}
    assert not any(name.startswith("pysat:") and name != "pysat:NAME" for name in infos)
    assert not infos["pysat:NAME"].available
    assert infos["pysat:NAME"].why_not == f"pysat:NAME: {reason}"


# --------------------------------------------------------------------------------------
# Layers: the registry on top, the adapters in the middle, base and process below


SOLVERS = Path(solvers_package.__file__).resolve().parent
PACKAGE = SOLVERS.parents[1]
ROOT = PACKAGE.parent
PROCESS = PACKAGE / "process.py"


def sudosat_imports(path: Path) -> set[str]:
    """The sudosat modules `path` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:  # `from sudosat.sat.solvers import cdcl` imports a module
                submodule = f"{node.module}.{alias.name}"
                is_module = (ROOT / (submodule.replace(".", "/") + ".py")).exists()
                found.add(submodule if is_module else node.module)
    return {name for name in found if name == "sudosat" or name.startswith("sudosat.")}


def module_name(path: Path) -> str:
    return "sudosat.process" if path == PROCESS else f"sudosat.sat.solvers.{path.stem}"


def solver_modules() -> list[Path]:
    return [path for path in sorted(SOLVERS.glob("*.py")) if path.stem != "__init__"]


def test_base_and_process_import_no_solver_no_adapter_and_no_registry():
    solver_imports = sudosat_imports(SOLVERS / "base.py")
    assert not {m for m in solver_imports if m.startswith("sudosat.sat.solvers")}
    assert sudosat_imports(PROCESS) <= {"sudosat.errors"}  # it knows nothing of SAT


def test_nothing_below_the_registry_imports_it():
    above = {"sudosat.sat.solvers", "sudosat.sat.solvers.registry"}
    for path in [*solver_modules(), PROCESS]:
        if path.stem != "registry":
            assert not sudosat_imports(path) & above, f"{path.name} imports the registry"


def test_the_solvers_package_has_no_import_circle():
    paths = [*solver_modules(), PROCESS]
    graph = {module_name(path): sudosat_imports(path) for path in paths}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join([*path, name])
        if name in done or name not in graph:
            return
        for imported in graph[name]:
            visit(imported, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_asking_for_cdcl_imports_no_adapter_and_no_pysat():
    code = (
        "import sys\n"
        "from sudosat.sat.cnf import CNF\n"
        "from sudosat.sat.solvers import solve\n"
        "solve(CNF([[1, 2], [-1]]), 'cdcl')\n"
        "heavy = ('pysat', 'subprocess', 'sudosat.process', 'sudosat.sat.solvers.adapter')\n"
        "print(sorted(name for name in heavy if name in sys.modules))\n"
    )
    root = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": root},
    )
    assert done.stdout.strip() == "[]"
