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


# --------------------------------------------------------------------------------------
# One dispatch: a solver registered once runs one-shot and incrementally

import pytest  # noqa: E402

from sudosat.errors import SolverError  # noqa: E402
from sudosat.sat.cnf import CNF  # noqa: E402
from sudosat.sat.formulas import pigeonhole  # noqa: E402
from sudosat.sat.result import Result, Status, Stop  # noqa: E402
from sudosat.sat.solvers import incremental_support, open_solver, registry, solve  # noqa: E402
from sudosat.sat.solvers.budget import BUDGET_STOPS, BUDGETS  # noqa: E402
from sudosat.sat.solvers.incremental import CdclSession, OneShot  # noqa: E402
from sudosat.sat.solvers.registry import refused_budgets  # noqa: E402

CALLS: list[dict] = []


def solve_by_enumeration(cnf: CNF, *, deadline=None, seed=0, **options) -> Result:
    """A solver for the registry tests: tries every assignment of a small formula."""
    CALLS.append({"deadline": deadline, "seed": seed, **options})
    n = cnf.num_vars
    for bits in range(2**n):
        model = [v if bits >> (v - 1) & 1 else -v for v in range(1, n + 1)]
        if cnf.is_satisfied_by(model):
            return Result(Status.SAT, model, {}, 0.0, "enum", stop=Stop.ANSWERED)
    return Result(Status.UNSAT, None, {}, 0.0, "enum", stop=Stop.ANSWERED)


def test_a_solver_registered_once_runs_one_shot_and_incrementally(monkeypatch):
    entry = registry.SolverEntry("tests.test_registry", "solve_by_enumeration", "enumeration")
    monkeypatch.setitem(registry._BUILTIN, "enum", entry)
    CALLS.clear()
    cnf = CNF([[1, 2], [-1, 3]])
    assert solve(cnf, "enum", seed=4).status is Status.SAT
    loaded = open_solver("enum", cnf, seed=4)
    assert isinstance(loaded, OneShot) and not loaded.native
    assert incremental_support("enum") == (
        False, "enum has no incremental interface; each call runs one-shot")
    assert loaded.solve([-2]).model == [1, -2, 3]  # the assumption holds, the model is checked
    assert loaded.solve([-2, -3]).is_unsat and loaded.get_core() == [-2, -3]
    loaded.add_clause([-1])
    assert loaded.solve().model == [-1, 2, -3]
    assert [call["seed"] for call in CALLS] == [4, 4, 4, 4]  # every call through one dispatch


def test_a_registered_session_makes_a_solver_natively_incremental(monkeypatch):
    entry = registry.SolverEntry("sudosat.sat.solvers.cdcl", "solve", "cdcl again",
                                 session="CdclSession")
    monkeypatch.setitem(registry._BUILTIN, "cdcl-again", entry)
    loaded = open_solver("cdcl-again", CNF([[1, 2], [-1, 2]]))
    assert isinstance(loaded, CdclSession) and loaded.native
    assert loaded.solve([-2]).is_unsat and loaded.get_core() == [-2]
    assert solve(CNF([[1, 2], [-1, 2]]), "cdcl-again").is_sat
    loaded.close()


@pytest.mark.parametrize("name", ["cdcl", "dpll", "dp", "walksat", "gsat", "zchaff",
                                  "pysat:minisat22", "exec:minisat"])
def test_every_registered_name_opens_incrementally(name):
    native = name in ("cdcl", "pysat:minisat22")
    assert incremental_support(name)[0] is native
    if name in ("zchaff", "exec:minisat"):
        return  # an external binary may be missing here; the dispatch is the same
    loaded = open_solver(name, CNF([[1, 2], [-1, 2]]))
    assert loaded.native is native
    assert loaded.solve([1]).model == [1, 2]
    loaded.close()


# --------------------------------------------------------------------------------------
# Work budgets through the one dispatch


@pytest.mark.parametrize("name", ["dpll", "dp", "pysat:minisat22", "pysat:glucose3"])
def test_a_conflict_budget_gives_unknown_with_the_reason_and_the_same_count(name):
    answers = [solve(pigeonhole(8, 7), name, max_conflicts=50) for _ in range(2)]
    for result in answers:
        assert result.status is Status.UNKNOWN and result.stop is Stop.CONFLICTS
        # Ours stop at the budget; MiniSat checks it at every conflict; Glucose only between
        # restarts, so it overshoots, but by the same amount every time.
        assert 50 <= result.stats["conflicts"] < (400 if name == "pysat:glucose3" else 60)
    assert answers[0].stats == {**answers[1].stats, **{
        key: value for key, value in answers[0].stats.items() if key.endswith("_ms")
    }}  # the same search: every counter agrees (the times, each named by its clock, may not)


@pytest.mark.parametrize("name", ["dpll", "dp", "pysat:minisat22"])
def test_a_propagation_budget_gives_unknown_with_the_reason(name):
    result = solve(pigeonhole(8, 7), name, max_propagations=300)
    assert result.status is Status.UNKNOWN and result.stop is Stop.PROPAGATIONS
    assert 300 <= result.stats["propagations"] < 400


@pytest.mark.parametrize("name", ["dpll", "pysat:minisat22"])
def test_a_budget_large_enough_changes_nothing(name):
    plain = solve(pigeonhole(5, 4), name)
    budgeted = solve(pigeonhole(5, 4), name, max_conflicts=10**6, max_propagations=10**9)
    assert plain.is_unsat and budgeted.is_unsat
    assert budgeted.stop is Stop.ANSWERED
    assert plain.stats["conflicts"] == budgeted.stats["conflicts"]


@pytest.mark.parametrize("name", ["walksat", "gsat", "zchaff", "exec:minisat"])
@pytest.mark.parametrize("budget", ["max_conflicts", "max_propagations"])
def test_solvers_that_cannot_honour_a_budget_refuse_it_in_one_line(name, budget):
    with pytest.raises(SolverError) as refused:
        solve(CNF([[1]]), name, **{budget: 10})
    assert refused.value.reason == f"solver {name!r} cannot honour {budget}"
    with pytest.raises(SolverError, match="cannot honour"):
        open_solver(name, CNF([[1]]), **{budget: 10})


def test_pysat_back_ends_without_a_budget_refuse_it():
    with pytest.raises(SolverError, match="'pysat:cadical195' cannot honour max_propagations: "
                                          "Limit on propagations is currently unsupported"):
        solve(pigeonhole(6, 5), "pysat:cadical195", max_propagations=10)
    with pytest.raises(SolverError, match="cannot honour max_conflicts: it runs in a worker"):
        solve(pigeonhole(6, 5), "pysat:lingeling", max_conflicts=10)
    assert refused_budgets("pysat:minisat22", BUDGETS) == {}


@pytest.mark.parametrize("value", [-1, -3, 2.5, True, "10"])
def test_a_budget_must_be_a_non_negative_integer(value):
    with pytest.raises(SolverError, match="max_conflicts must be a non-negative integer"):
        solve(CNF([[1]]), "dpll", max_conflicts=value)


@pytest.mark.parametrize("name", ["cdcl", "dpll", "pysat:minisat22"])
def test_a_budget_of_zero_answers_unknown_where_search_is_needed(name):
    # pigeonhole(6, 5) needs conflicts and propagations: no solver decides it with none.
    for budget in ("max_conflicts", "max_propagations"):
        result = solve(pigeonhole(6, 5), name, **{budget: 0})
        assert result.status is Status.UNKNOWN and result.stop is BUDGET_STOPS[budget]


def test_budgets_hold_per_call_on_a_loaded_solver():
    for name in ("pysat:minisat22", "dpll"):
        loaded = open_solver(name, pigeonhole(8, 7), max_conflicts=40)
        first = loaded.solve()
        assert first.is_unknown and first.stop is Stop.CONFLICTS
        assert 40 <= first.stats["conflicts"] < 50  # this call's conflicts, not the solver's
        again = loaded.solve(max_conflicts=10)  # a call's own budget overrides the default
        assert again.is_unknown and 10 <= again.stats["conflicts"] < 20
        loaded.close()


def test_cdcl_takes_the_budgets_through_the_dispatch():
    result = solve(pigeonhole(8, 7), "cdcl", max_conflicts=30)
    assert result.is_unknown and result.stop is Stop.CONFLICTS
    again = solve(pigeonhole(8, 7), "cdcl", max_conflicts=30)
    assert again.stats["conflicts"] == result.stats["conflicts"]


@pytest.mark.parametrize("backend", pysat_backends())
@pytest.mark.parametrize(("budget", "counter", "limit"),
                         [("max_conflicts", "conflicts", 10),
                          ("max_propagations", "propagations", 100)])
def test_every_pysat_budget_is_honoured_or_refused_never_ignored(backend, budget, counter, limit):
    # Maple counts no propagations and ran to its answer under --max-propagations 100. Each
    # back end either stops at its budget (or a little past it, the same every time) or is
    # refused before it runs.
    name = f"pysat:{backend}"
    if budget in refused_budgets(name, [budget]):
        with pytest.raises(SolverError, match=f"cannot honour {budget}"):
            solve(pigeonhole(8, 7), name, **{budget: limit})
        return
    result = solve(pigeonhole(8, 7), name, **{budget: limit})
    assert result.status is Status.UNKNOWN and result.stop is BUDGET_STOPS[budget]
    assert result.stats[counter] >= limit
