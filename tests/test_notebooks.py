"""Every notebook runs under papermill on tiny parameters and exports to readable HTML.

One build (module fixture) executes all notebooks in order through
``sudosat.report.build`` into a temporary folder; the tests read what it wrote.
Any cell error fails the build, so the fixture itself is the first check.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from sudosat.report import build as reportbuild
from sudosat.sudoku.board import COURSE_EXAMPLE

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OURS = ("reduction", "solvers", "experiment", "report", "explore")
TINY_INSTANCES = [
    COURSE_EXAMPLE,
    "2 1000002000300004",
    "2 1100000000000000",
]
TINY = {
    "reduction": {"max_order": 4, "build_up_to": 3, "sample_size": 3},
    "solvers": {"max_order": 2, "trace_limit": 10},
    "experiment": {"solvers": ["cdcl", "zchaff"], "jobs": 1, "time_limit_ms": 5000.0},
    "explore": {"offered": 2},
    "scaling": {
        "orders": [2, 3],
        "alphas": [0.0, 0.5],
        "boards": 1,
        "time_limit_ms": 2000.0,
        "reference": "pysat:minisat22",
        "large_orders": [4],
    },
    "heuristics": {"per_grade": 1, "time_limit_ms": 200.0},
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Run every notebook with tiny parameters; return the folder holding reports/ and figures/."""
    base = tmp_path_factory.mktemp("report")
    instances = base / "tiny.txt"
    instances.write_text("\n".join(TINY_INSTANCES) + "\n")
    settings = reportbuild.Settings(
        root=ROOT,
        instances=str(instances),
        time_limit_ms=5000.0,
        reports=base / "reports",
        figures_dir=base / "figures",
        build=base / "executed",
        jobs=1,
        quick=True,
        pdf=False,
        overrides=TINY,
    )
    assert reportbuild.build(settings) == 0
    return base


@pytest.mark.parametrize("name", [*OURS, "scaling", "heuristics"])
def test_notebook_has_one_plain_parameters_cell_and_the_python3_kernel(name):
    path = NOTEBOOKS / f"{name}.ipynb"
    if not path.is_file():
        pytest.skip(f"{path} is not there yet")
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata.kernelspec.name == "python3"
    code = [c for c in notebook.cells if c.cell_type == "code"]
    tagged = [c for c in code if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0] is code[0]
    assert reportbuild.parameter_problems(tagged[0].source) == []


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ("a = 2\ntwice = a * 2", "line 2: twice is not a plain literal"),  # papermill's pitfall
        ("orders = list(range(3))", "line 1: orders is not a plain literal"),
        ("import os", "line 1: not a plain assignment to one name"),
        ("a = b = 1", "line 1: not a plain assignment to one name"),
        ('solvers = "cdcl,zchaff"', "line 1: solvers is str, every notebook gives it as list"),
        ('time_limit_ms = "5"', "line 1: time_limit_ms is str, every notebook gives it as float"),
    ],
)
def test_parameters_check_rejects_derived_values_and_other_types(cell, problem):
    assert reportbuild.parameter_problems(cell) == [problem]


def test_parameters_check_accepts_plain_literals():
    cell = 'a = 1\nb = [1, 2.5, "x"]\nc = None  # a comment\nd = -3\ntime_limit_ms = 5000\n'
    assert reportbuild.parameter_problems(cell) == []


def test_shared_parameters_have_one_name_and_one_type_in_every_notebook():
    """The notebooks' vocabulary: a name several pages declare means the same thing on each."""
    import ast

    seen: dict[str, dict[str, str]] = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        source = reportbuild.parameters_cell(path)
        for statement in ast.parse(source).body:
            name = statement.targets[0].id
            kind = type(ast.literal_eval(statement.value)).__name__
            seen.setdefault(name, {})[path.stem] = kind
    for name, kinds in seen.items():
        if len(kinds) > 1:
            assert len(set(kinds.values())) == 1, (name, kinds)
    assert "figures" not in seen and "figures_dir" in seen


@pytest.mark.parametrize("name", OURS)
def test_every_notebook_ran_without_a_cell_error(built, name):
    executed = nbformat.read(built / "executed" / f"{name}.ipynb", as_version=4)
    errors = [
        o
        for c in executed.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]
    assert errors == []


@pytest.mark.parametrize("name", OURS)
def test_exports_exist_in_both_versions_without_raw_latex_or_widget_boxes(built, name):
    reader = (built / "reports" / f"{name}.html").read_text()
    with_code = (built / "reports" / f"{name}-code.html").read_text()
    for page in (reader, with_code):
        assert "widget-view+json" not in page
        assert not re.search(r"\$[^$<>\n]{1,80}\$", _text(page)), "raw LaTeX left in the page"
        assert "index.html" in page
    editor = 'class="highlight'
    assert editor in with_code and editor not in reader


@pytest.mark.parametrize("name", [*OURS, "scaling", "heuristics", "index"])
def test_pages_load_nothing_from_the_network(built, name):
    """A script or style sheet fetched from a CDN would block the page offline (and in CI)."""
    pages = [built / "reports" / f"{name}.html"]
    if name != "index":
        pages.append(built / "reports" / f"{name}-code.html")
    for path in pages:
        page = path.read_text()
        fetched = re.findall(
            r"""<(?:script|link|img|iframe)\b[^>]*?(?:src|href)=["']((?:https?:)?//[^"']+)""", page
        )
        fetched += re.findall(r"""import\s*(?:\(|[^;]*?from\s*)["'](https?://[^"']+)""", page)
        assert not fetched, (path.name, fetched)


@pytest.mark.parametrize("name", [*OURS, "scaling", "heuristics"])
def test_a_built_page_states_no_sentence_twice(built, name):
    """The page's prose (its Markdown cells and the Markdown its code cells printed), sentence
    by sentence: a sentence said twice is a sign of two cells wording one fact."""
    executed = nbformat.read(built / "executed" / f"{name}.ipynb", as_version=4)
    prose = []
    for cell in executed.cells:
        if cell.cell_type == "markdown":
            prose.append(cell.source)
        for output in cell.get("outputs", []):
            prose.append("".join(output.get("data", {}).get("text/markdown", "")))
    sentences = [" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+", "\n".join(prose))]
    long = [s for s in sentences if len(s.split()) >= 8]
    repeated = sorted({s for s in long if long.count(s) > 1})
    assert repeated == []


def _text(page: str) -> str:
    """Visible-ish text: without <style> and <script> blocks and without embedded images."""
    page = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", page, flags=re.S)
    return re.sub(r"data:image/[^\"']+", "", page)


def test_report_page_holds_the_plots_and_the_board_matrices(built):
    page = (built / "reports" / "report.html").read_text()
    assert page.count("data:image/png;base64") >= 4  # per instance, scatters, cactus, stages
    assert page.index("Wall against CPU time") < page.index("data:image/png;base64")
    assert page.count('<table class="sudosat-board') >= 4  # two solved boards and inputs
    assert "zChaff" in page or "zchaff" in page  # the reference solver is named plainly
    for column in ("solved", "unsat", "timeouts", "median wall ms", "median CPU ms",
                   "p90 wall ms", "max wall ms", "search CPU ms", "total wall ms"):
        assert column in page
    assert "UNSAT" in page


def test_reduction_page_holds_its_plots_and_tables(built):
    reduction = (built / "reports" / "reduction.html").read_text()
    assert reduction.count("data:image/png;base64") >= 2
    assert "p cnf 64" in reduction and "completeness (formula)" in reduction


def test_solvers_page_shows_the_engines_source_beside_the_traced_run(built):
    solvers = (built / "reports" / "solvers.html").read_text()
    assert solvers.count("data:image/png;base64") >= 1
    assert "jump back to level" in solvers and "decide" in solvers
    assert "Engine.propagate" in solvers and "Engine.analyze" in solvers
    assert "def propagate(self" in solvers and "def analyze(self" in solvers


def test_explore_page_shows_a_static_snapshot_instead_of_the_live_widget(built):
    page = (built / "reports" / "explore.html").read_text()
    assert page.count("<b>Puzzle</b>") == 4
    assert "Explorer(" not in page and "VBox(" not in page


def test_figures_are_saved_as_png_and_svg(built):
    figures = built / "figures"
    for name in (
        "reduction-families",
        "report-per-instance",
        "report-scatter",
        "report-cactus",
        "report-stages",
        "solvers-components",
    ):
        assert (figures / f"{name}.png").stat().st_size > 1000
        assert (figures / f"{name}.svg").stat().st_size > 1000


def test_index_links_every_page_and_states_the_run(built):
    index = (built / "reports" / "index.html").read_text()
    for name in OURS:
        assert f'href="{name}.html"' in index and f'href="{name}-code.html"' in index
    assert "T = 5000 ms" in index
    # reports/ stands alone: the figure strip is embedded, and no link leaves the folder
    assert index.count('src="data:image/png;base64,') >= 3
    assert '="../' not in index
    manifest = json.loads((built / "reports" / "data" / "manifest.json").read_text())
    assert manifest["time_limit_ms"] == 5000


def test_papermill_command_line_runs_the_experiment_on_a_users_file(tmp_path):
    """The command the README gives: plain papermill, -p instances and -p time_limit_ms."""
    import sys

    from sudosat.process import run_program
    from sudosat.sat.solvers.budget import Deadline

    papermill = shutil.which("papermill", path=str(Path(sys.executable).parent))
    if papermill is None:
        pytest.skip("papermill is not installed beside this Python")
    mine = tmp_path / "my.txt"
    mine.write_text("2 1000002000300004\n")
    out = tmp_path / "out.ipynb"
    command = [
        papermill,
        str(NOTEBOOKS / "experiment.ipynb"),
        str(out),
        "-p",
        "instances",
        str(mine),
        "-p",
        "time_limit_ms",
        "5000",
        "-p",
        "solvers",
        "cdcl",
        "-p",
        "output_dir",
        str(tmp_path / "results"),
        "--cwd",
        str(ROOT),
    ]
    # papermill's kernel is a grandchild: run_program kills the whole group at the limit.
    done = run_program(command, tmp_path, Deadline(300_000), "papermill")
    assert done.exit_code == 0, done.stderr[-2000:]
    assert (tmp_path / "results" / "results.csv").read_text().count("\n") == 2


def test_rerun_command_shown_on_the_index_leaves_git_status_clean():
    """The re-run command, as the index page prints it, writes only into runs/."""
    import shlex
    import subprocess

    words = shlex.split(reportbuild.RERUN_COMMAND)
    if not (ROOT / words[0]).is_file():
        pytest.skip(f"{words[0]} is not there (make report creates it)")
    git = shutil.which("git")
    status = [str(git), "-C", str(ROOT), "status", "--porcelain", "--untracked-files=all"]
    if git is None or subprocess.run(status, capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    before = subprocess.run(status, capture_output=True, text=True).stdout
    results = ROOT / "runs" / "experiment" / "results.csv"
    results.unlink(missing_ok=True)
    done = subprocess.run(
        [str(ROOT / words[0]), *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert results.read_text().count("\n") == 3  # the header and the example with 2 solvers
    assert subprocess.run(status, capture_output=True, text=True).stdout == before


def test_the_index_lists_every_exported_page_after_a_partial_build(tmp_path):
    for name in ("reduction", "experiment", "report"):
        (tmp_path / f"{name}.html").write_text("<html></html>")
    assert [page.name for page in reportbuild.pages_in(tmp_path)] == [
        "reduction", "experiment", "report"
    ]
