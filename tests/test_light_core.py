"""The light core: what ``pip install sudosat`` gives without extras, and what it never loads.

Each check runs a child Python with a meta path finder that refuses modules
(:data:`BLOCKER`), so a third-party import fails there even though this venv
has every extra, and then reads ``sys.modules``:

* the encoder, our own solvers, decoding, checking, the workbench's
  computation and its page (what the live site runs), and ``sudosat solve``
  with our solver load nothing outside the standard library;
* the JupyterLab workbench and ``notebooks/explore.ipynb`` load the widget
  stack but neither pandas nor matplotlib;
* a feature whose extra is missing says so in one line naming the extra, exit 1.

The slow test installs the project into a fresh venv with plain ``pip install``
(no extras) and checks that pip brought nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from sudosat.sudoku.board import COURSE_EXAMPLE

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_STACK = ("pandas", "matplotlib", "numpy", "scipy", "papermill", "nbformat", "nbconvert")
EXTRAS = ("pysat", "dratify", "tqdm")

# Refuses BLOCKED (a set of top-level names; "*" means everything outside the standard
# library and sudosat), records what was loaded before the test's code ran, and prints, at
# the end, the top-level names of the third-party modules loaded since.
BLOCKER = """
import json, sys
BLOCKED = set(json.loads(sys.argv[1]))
STDLIB = set(sys.stdlib_module_names)
BEFORE = {name.partition(".")[0] for name in sys.modules}


def allowed(top):
    if top in BLOCKED:
        return False
    return "*" not in BLOCKED or allowed_anyway(top)


class Blocker:
    def find_spec(self, name, path=None, target=None):
        if not allowed(name.partition(".")[0]):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None


sys.meta_path.insert(0, Blocker())


def third_party():
    loaded = {name.partition(".")[0] for name in sys.modules} - BEFORE
    return sorted(top for top in loaded if not allowed_anyway(top))


def allowed_anyway(top):  # the standard library (and its private modules), sudosat
    # cython_runtime is no package: the compiled cdcl core's modules register it themselves.
    return top in STDLIB or top in ("sudosat", "cython_runtime") or top.startswith("_")
"""


def run_blocked(code: str, blocked: tuple[str, ...] | str, cwd: Path = ROOT) -> str:
    """Run `code` after :data:`BLOCKER` in a child Python; its standard output."""
    names = ["*"] if blocked == "*" else list(blocked)
    script = BLOCKER + textwrap.dedent(code)
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(names)],
        capture_output=True, text=True, cwd=cwd, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_core_and_the_workbench_computation_load_no_third_party_module():
    out = run_blocked(
        f"""
        from sudosat.sat.solvers.registry import solve
        from sudosat.sudoku.board import Board, check_solution
        from sudosat.sudoku.encoding import decode_model, encode
        from sudosat.workbench.compute import compute
        from sudosat.workbench.formula import Switches
        from sudosat.workbench.page import Session, choices

        board = Board.parse({COURSE_EXAMPLE!r})
        encoded = encode(board, "course")
        for name in ("cdcl", "dpll", "dp", "walksat", "gsat"):
            result = solve(encoded.cnf, name, time_limit_ms=20_000)
            assert result.is_sat, (name, result)
            solved = decode_model(result.model, 3, instance=board, num_vars=encoded.cnf.num_vars)
            assert check_solution(board, solved) is None, name
        assert compute({COURSE_EXAMPLE!r}, Switches(boxes=False), "custom", "cdcl", 20_000).board
        session = Session()
        assert "sudosat-valid" in session.respond({{"changed": "start"}})["views"]["answer"]
        assert "pysat:NAME" in choices()["unavailable"]
        print(third_party())
        """,
        "*",
    )
    assert out.strip() == "[]"


def test_sudosat_solve_with_our_solver_loads_no_third_party_module(tmp_path):
    (tmp_path / "in.txt").write_text(COURSE_EXAMPLE + "\n")
    out = run_blocked(
        """
        from sudosat.cli import main
        assert main(["solve", "in.txt", "-o", "out.txt", "--no-progress"]) == 0
        print(third_party())
        """,
        "*",
        cwd=tmp_path,
    )
    assert out.strip().splitlines()[-1] == "[]"


def test_the_jupyterlab_workbench_loads_neither_pandas_nor_matplotlib():
    out = run_blocked(
        """
        from sudosat.workbench.widgets import Workbench
        bench = Workbench(solvers=["cdcl"])
        bench.switch["boxes"].value = False
        assert "sudosat-invalid" in bench.answer.value or "sudosat-valid" in bench.answer.value
        print(third_party())
        """,
        NOTEBOOK_STACK + EXTRAS,
    )
    loaded = eval(out.strip().splitlines()[-1])  # noqa: S307 - a list printed by the child
    assert "ipywidgets" in loaded
    assert not set(loaded) & set(NOTEBOOK_STACK + EXTRAS)


def test_explore_notebook_runs_without_pandas_or_matplotlib():
    notebook = json.loads((ROOT / "notebooks" / "explore.ipynb").read_text())
    cells = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    body = "\n\n".join(cells).replace("time_limit_ms = 10000.0", "time_limit_ms = 20000.0")
    out = run_blocked(
        "ns = {}\nexec(compile(" + repr(body) + ", 'explore.ipynb', 'exec'), ns)\n"
        "assert ns['live'].outcome.status == 'SAT'\nprint(third_party())\n",
        NOTEBOOK_STACK + EXTRAS,
    )
    assert not set(eval(out.strip().splitlines()[-1])) & set(NOTEBOOK_STACK + EXTRAS)  # noqa: S307


MAIN = "from sudosat.cli import main\nsys.exit(main(sys.argv[2:]))"


@pytest.mark.parametrize(
    ("argv", "extra"),
    [
        (["solve", "in.txt", "-o", "out.txt", "--progress"], "progress"),
        (["generate", "--order", "2", "--alpha", "0.3", "--unique", "--progress"], "progress"),
        (["sat", "unsat.cnf", "--certify"], "proofs"),
        (["sat", "unsat.cnf", "--solver", "pysat:minisat22"], "pysat"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it_and_exit_1(tmp_path, argv, extra):
    (tmp_path / "in.txt").write_text(COURSE_EXAMPLE + "\n")
    (tmp_path / "unsat.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    done = subprocess.run(
        [sys.executable, "-c", BLOCKER + MAIN, json.dumps(["pysat", "dratify", "tqdm"]), *argv],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines and f"needs the extra '{extra}': pip install 'sudosat[{extra}]'" in lines[-1]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_the_widgets_without_ipywidgets_name_their_extra():
    out = run_blocked(
        """
        try:
            import sudosat.workbench.widgets
        except ImportError as exc:
            print(exc)
        """,
        ("ipywidgets",),
    )
    assert "needs the extra 'widgets': pip install 'sudosat[widgets]'" in out


@pytest.mark.slow
def test_plain_pip_install_brings_no_dependency(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "sudosat", source / "sudosat",
                    ignore=shutil.ignore_patterns("__pycache__"))
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(source)], capture_output=True, text=True, timeout=600,
    )
    if done.returncode != 0:
        if "Could not find a version" in done.stderr or "NewConnectionError" in done.stderr:
            pytest.skip("PyPI cannot be reached (pip builds the project with setuptools from it)")
        raise AssertionError(done.stderr[-3000:])
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        capture_output=True, text=True, check=True,
    )
    installed = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert installed <= {"pip", "setuptools", "sudosat"}, installed
    check = subprocess.run(
        [str(python), "-c", BLOCKER + textwrap.dedent(f"""
            from sudosat.workbench.page import Session
            from sudosat.sat.solvers.registry import solve
            from sudosat.sudoku.encoding import encode
            from sudosat.sudoku.board import Board
            assert Session().respond({{"changed": "start"}})["board"]["order"] == 3
            assert solve(encode(Board.parse({COURSE_EXAMPLE!r}), "course").cnf, "cdcl").is_sat
            print(third_party())
            """), "[]"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    assert check.returncode == 0, check.stderr[-3000:]
    assert check.stdout.strip() == "[]"
