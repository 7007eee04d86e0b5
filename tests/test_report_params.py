"""``make report`` checks its parameters first and writes its outputs only after success.

Its parameters take the command line's own option types (:mod:`sudosat.run.options`): a wrong
T, encoding, solver or job count is one line and exit 2 before anything runs, a missing instance
file one line and exit 1. The notebooks run in a staging folder; ``reports/`` and ``figures/``
receive the new and changed files only when every page succeeded, so a failing page leaves them
byte for byte as they were (compared here by the hashes of every file).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from sudosat.report import build as reportbuild
from sudosat.report.pages import Settings

ROOT = Path(__file__).resolve().parent.parent


def tree(folder: Path) -> dict[str, str]:
    """Every file under `folder` by relative path, with the SHA-256 of its bytes."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def project(tmp_path) -> Path:
    """A project root with an instance file and committed-looking reports/ and figures/."""
    root = tmp_path / "project"
    (root / "data").mkdir(parents=True)
    (root / "data" / "instances.txt").write_text("2 1000002000300004\n")
    (root / "reports" / "data").mkdir(parents=True)
    (root / "reports" / "index.html").write_text("<p>the committed index</p>\n")
    (root / "reports" / "data" / "results.csv").write_text("line,solver\n1,cdcl\n")
    (root / "figures").mkdir()
    (root / "figures" / "old.png").write_bytes(b"\x89PNG committed")
    (root / "notebooks").mkdir()
    return root


@pytest.fixture
def nothing_runs(monkeypatch):
    """Fail the test if the build gets as far as running a notebook."""

    def execute(*args, **kwargs):
        raise AssertionError("a notebook ran although the parameters were wrong")

    monkeypatch.setattr(reportbuild, "execute", execute)


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--time-limit-ms", "-5"], "the time limit must be positive"),
        (["--time-limit-ms", "nan"], "not a number of milliseconds: 'nan'"),
        (["--time-limit-ms", "abc"], "not a number of milliseconds: 'abc'"),
        (["--time-limit-ms", "inf"], "the time limit must be finite"),
        (["--time-limit-ms", "0"], "the time limit must be positive"),
        (["--encoding", "nonsense"], "unknown encoding 'nonsense'"),
        (["--solvers", "cdcl,nosuch"], "unknown solver 'nosuch'"),
        (["--solvers", ","], "no solver named"),
        (["--jobs", "0"], "must be at least 1"),
        (["--only", "nosuchpage"], "invalid choice: 'nosuchpage'"),
    ],
    ids=["T=-5", "T=nan", "T=abc", "T=inf", "T=0", "encoding", "solver", "no solver", "jobs",
         "page"],
)
def test_a_wrong_parameter_is_one_line_and_exit_2_before_any_work(
        project, nothing_runs, capsys, argv, reason):
    before = tree(project)
    with pytest.raises(SystemExit) as stop:
        reportbuild.main(["--root", str(project), *argv])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert reason in err and len(err.splitlines()) == 1, err
    assert tree(project) == before


def test_a_wrong_parameter_is_refused_before_pandas_and_matplotlib_load():
    # What keeps the refusal within a second even on a busy machine: the build's
    # parameters are checked before the heavy libraries of the pages are imported.
    probe = (
        "import sys\n"
        "from sudosat.report.build import main\n"
        "try:\n"
        "    main(['--time-limit-ms', 'nan'])\n"
        "except SystemExit as stop:\n"
        "    print(stop.code, sorted({'pandas', 'matplotlib'} & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.split("\n")[0] == "2 []", done.stdout + done.stderr


@pytest.mark.parametrize("instances", ["data/nosuch.txt", "data"], ids=["missing", "a folder"])
def test_an_unreadable_instance_file_is_one_line_and_exit_1_before_any_work(
        project, nothing_runs, capsys, instances):
    before = tree(project)
    code = reportbuild.main(["--root", str(project), "--instances", instances])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err.startswith(f"sudosat report: {project / instances}: ") and len(err.splitlines()) == 1
    assert tree(project) == before


@pytest.mark.parametrize(
    ("lines", "bad"),
    [("3 12\n", "1: order 3 needs 81 symbols, got 2"),
     ("2 1000002000300004\n\n2 1000002000300004\n", "2: empty line"),
     ("2 1000002000300004\n2 10000020003000045\n", "2: order 2 needs 16 symbols, got 17"),
     ("", "holds no instance line")],
    ids=["short", "blank", "long", "empty"],
)
def test_a_bad_instance_line_is_named_before_any_notebook_runs(
        project, nothing_runs, capsys, lines, bad):
    # It used to run the notebooks for a minute, then fail with a NaN that named no line.
    (project / "data" / "bad.txt").write_text(lines)
    before = tree(project)
    code = reportbuild.main(["--root", str(project), "--instances", "data/bad.txt"])
    out, err = capsys.readouterr()
    separator = ":" if bad[0].isdigit() else ": "
    assert (code, out, err) == (1, "", f"sudosat report: {project / 'data' / 'bad.txt'}"
                                       f"{separator}{bad}\n")
    assert tree(project) == before


@pytest.mark.parametrize("solvers", ["exec:/nonexistent/x", "cdcl,pysat:nosuch"])
def test_a_solver_that_cannot_run_is_refused_before_any_notebook_runs(
        project, nothing_runs, capsys, solvers):
    before = tree(project)
    code = reportbuild.main(["--root", str(project), "--solvers", solvers])
    out, err = capsys.readouterr()
    name = solvers.split(",")[-1]
    assert (code, out) == (1, "") and len(err.splitlines()) == 1
    assert err.startswith(f"sudosat report: solver {name} cannot run here: {name}")
    assert tree(project) == before


def test_zchaff_missing_is_not_refused_it_has_a_stand_in(project, monkeypatch):
    monkeypatch.setenv("ZCHAFF", "/nonexistent/zchaff")
    assert reportbuild.solvers_problem(["cdcl", "zchaff"]) is None


def test_outputs_of_an_earlier_run_that_this_run_does_not_rewrite_are_removed(
        project, monkeypatch, capsys):
    # A build with other solvers left reports/data/solutions.pysat-minisat22.txt beside the
    # new results. The pages are stood in for: what matters is which files stay.
    data = project / "reports" / "data"
    (data / "solutions.cdcl.txt").write_text("cdcl's earlier answers\n")
    (data / "solutions.pysat-minisat22.txt").write_text("minisat's earlier answers\n")
    (project / "notebooks" / "experiment.ipynb").write_text("{}")

    def execute(name, stage):  # the experiment, run with cdcl alone this time
        (stage.root / stage.reports / "data" / "solutions.cdcl.txt").write_text("new\n")
        return stage.build / f"{name}.ipynb"

    monkeypatch.setattr(reportbuild, "execute", execute)
    monkeypatch.setattr(reportbuild, "export",
                        lambda executed, reports, name: (reports / f"{name}.html").write_text(""))
    monkeypatch.setattr(reportbuild, "index_html", lambda *args: "<p>index</p>")
    assert reportbuild.build(settings_of(project), only=("experiment",)) == 0
    assert sorted(path.name for path in data.iterdir()) == ["results.csv", "solutions.cdcl.txt"]
    assert (data / "solutions.cdcl.txt").read_text() == "new\n"
    assert ("removed 1 output of an earlier run that this one did not write again: "
            "reports/data/solutions.pysat-minisat22.txt") in capsys.readouterr().err


def test_a_figure_this_run_does_not_draw_again_is_removed_and_the_others_stay(
        project, monkeypatch, capsys):
    # The results page saves its search-time scatter only when both solvers report their
    # search time: one drawn by an earlier build stayed in figures/ beside this run's.
    # A figure no page of this run saves (the study command's, another page's) stays.
    figures = project / "figures"
    for name in ("report-cactus", "report-scatter-search", "scaling-clauses-vs-order"):
        for suffix in (".png", ".svg"):
            (figures / f"{name}{suffix}").write_bytes(b"an earlier run's " + name.encode())
    cells = [nbformat.v4.new_code_cell(
        'report.save_and_show(figure, "report-cactus", figures_dir)\n'
        'if comparison.compared(versus, "search", "CPU") is not None:\n'
        '    report.save_and_show(figure, "report-scatter-search", figures_dir)')]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), project / "notebooks" / "report.ipynb")

    def execute(name, stage):  # the results page, drawing no search-time scatter this time
        for suffix in (".png", ".svg"):
            (stage.root / stage.figures_dir / f"report-cactus{suffix}").write_bytes(b"new")
        return stage.build / f"{name}.ipynb"

    monkeypatch.setattr(reportbuild, "execute", execute)
    monkeypatch.setattr(reportbuild, "export",
                        lambda executed, reports, name: (reports / f"{name}.html").write_text(""))
    monkeypatch.setattr(reportbuild, "index_html", lambda *args: "<p>index</p>")
    assert reportbuild.build(settings_of(project), only=("report",)) == 0
    assert sorted(path.name for path in figures.iterdir()) == [
        "old.png", "report-cactus.png", "report-cactus.svg", "scaling-clauses-vs-order.png",
        "scaling-clauses-vs-order.svg"]
    assert (figures / "report-cactus.png").read_bytes() == b"new"
    assert ("removed 2 outputs of an earlier run that this one did not write again: "
            "figures/report-scatter-search.png, figures/report-scatter-search.svg"
            ) in capsys.readouterr().err


def test_a_build_without_the_experiment_keeps_its_outputs(project, monkeypatch):
    data = project / "reports" / "data"
    (data / "solutions.pysat-minisat22.txt").write_text("kept\n")
    with reportbuild.staged(settings_of(project)) as stage:
        assert reportbuild.earlier_outputs(stage, ["reduction", "report"]) == []
        assert [path.name for path in reportbuild.earlier_outputs(stage, ["experiment"])] == [
            "solutions.pysat-minisat22.txt"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("T=abc", "argument --time-limit-ms/-T: not a number of milliseconds: 'abc'"),
        ("T=-5", "argument --time-limit-ms/-T: the time limit must be positive (milliseconds)"),
        ("ENCODING=nonsense", "argument --encoding: unknown encoding 'nonsense'"),
    ],
)
def test_make_report_with_a_wrong_parameter_fails_at_once_through_make(setting, message):
    """The real ``make report T=abc`` (and the like), with this test's Python.

    ``make report`` first creates and installs .venv when it is missing; ``-o`` tells make to
    take that step as done, and ``PY=`` runs the module with the Python running the tests.
    """
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make program here")
    watched = {name: tree(ROOT / name) for name in ("reports", "figures")}
    done = subprocess.run(
        [make, "--no-print-directory", "-C", str(ROOT), "-o", ".venv/.installed", "report",
         f"PY={sys.executable}", setting],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2  # make passes the module's status on as its own failure
    lines = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert len(lines) == 1 and lines[0].startswith(
        f"sudosat report: error: {message}"), done.stderr
    assert {name: tree(ROOT / name) for name in ("reports", "figures")} == watched


# -- staging: a failing page changes nothing ---------------------------------------------


def notebook(path: Path, body: str) -> None:
    """A notebook with a parameters cell declaring figures_dir, then `body`."""
    book = nbformat.v4.new_notebook()
    parameters = nbformat.v4.new_code_cell('figures_dir = "runs/figures"')
    parameters.metadata["tags"] = ["parameters"]
    book.cells = [parameters, nbformat.v4.new_code_cell(body)]
    book.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                   "language": "python"}
    nbformat.write(book, str(path))


WRITES_FIGURES = """\
from pathlib import Path
folder = Path(figures_dir)
folder.mkdir(parents=True, exist_ok=True)
(folder / "{name}.png").write_bytes(b"new figure {name}")
(folder / "old.png").write_bytes(b"old figure redrawn by {name}")
"""


def settings_of(root: Path) -> Settings:
    return Settings(root=root, reports=Path("reports"), figures_dir=Path("figures"),
                    build=Path("build/notebooks"), pdf=False)


@pytest.mark.slow
def test_a_failing_page_leaves_reports_and_figures_as_they_were(project, capsys):
    notebook(project / "notebooks" / "reduction.ipynb", WRITES_FIGURES.format(name="reduction"))
    notebook(project / "notebooks" / "solvers.ipynb",
             WRITES_FIGURES.format(name="solvers") + "raise ValueError('this page fails')\n")
    before = {name: tree(project / name) for name in ("reports", "figures")}
    code = reportbuild.main(["--root", str(project), "--only", "reduction", "solvers",
                             "--no-pdf"])
    err = capsys.readouterr().err
    assert code == 1
    failure = [line for line in err.splitlines() if line.startswith("sudosat report:")]
    assert len(failure) == 1 and "this page fails" in failure[0]
    assert "reports/ and figures/ are unchanged" in failure[0]
    assert {name: tree(project / name) for name in ("reports", "figures")} == before
    # the executed copies stay where the message says, for the reader to look into
    assert (project / "build" / "notebooks" / "solvers.ipynb").is_file()


@pytest.mark.slow
def test_a_build_that_succeeds_moves_its_pages_and_figures_into_place(project, capsys):
    notebook(project / "notebooks" / "reduction.ipynb", WRITES_FIGURES.format(name="reduction"))
    assert reportbuild.build(settings_of(project), only=("reduction",)) == 0
    assert (project / "figures" / "reduction.png").read_bytes() == b"new figure reduction"
    assert (project / "figures" / "old.png").read_bytes() == b"old figure redrawn by reduction"
    assert (project / "reports" / "reduction.html").is_file()
    assert "reduction.html" in (project / "reports" / "index.html").read_text()
    # what the build did not touch is kept, and nothing of the staging folder is named
    assert (project / "reports" / "data" / "results.csv").read_text() == "line,solver\n1,cdcl\n"
    assert "sudosat-report-" not in (project / "reports" / "reduction-code.html").read_text()
    # two figures, the page in its two versions, their shared notebook.css and the index
    assert "6 files new or changed" in capsys.readouterr().err


def test_publish_replaces_only_what_changed(tmp_path):
    real, staged = tmp_path / "real", tmp_path / "stage"
    for folder in (real, staged):
        (folder / "reports").mkdir(parents=True)
        (folder / "figures").mkdir()
        (folder / "reports" / "same.html").write_text("same")
    (real / "figures" / "a.png").write_bytes(b"old")
    (staged / "figures" / "a.png").write_bytes(b"new")
    (staged / "reports" / "data").mkdir()
    (staged / "reports" / "data" / "results.csv").write_text("new table")
    kept = (real / "reports" / "same.html").stat().st_mtime_ns
    written = reportbuild.publish(settings_of(staged), settings_of(real))
    assert written == 2
    assert (real / "figures" / "a.png").read_bytes() == b"new"
    assert (real / "reports" / "data" / "results.csv").read_text() == "new table"
    assert (real / "reports" / "same.html").stat().st_mtime_ns == kept
    assert sorted(p.name for p in real.rglob("*") if p.name.endswith(".part")) == []


def test_the_staging_folder_shows_the_project_and_copies_only_the_outputs(project):
    with reportbuild.staged(settings_of(project)) as stage:
        assert stage.root != project
        assert (stage.root / "data").is_symlink()
        assert (stage.root / "data" / "instances.txt").read_text() == "2 1000002000300004\n"
        for name in ("reports", "figures"):
            assert not (stage.root / name).is_symlink()
            assert tree(stage.root / name) == tree(project / name)
        (stage.root / "figures" / "old.png").write_bytes(b"changed in the stage only")
        assert stage.build == project / "build" / "notebooks"
    assert (project / "figures" / "old.png").read_bytes() == b"\x89PNG committed"
    assert not stage.root.exists()


def test_an_instance_file_beside_the_project_is_still_found_from_the_stage(project):
    (project.parent / "beside.txt").write_text("2 1000002000300004\n")
    inside = settings_of(project)
    beside = Settings(**{**inside.__dict__, "instances": "../beside.txt"})
    with reportbuild.staged(inside) as stage:
        assert stage.instances == "data/instances.txt"  # the same text the notebooks see
    with reportbuild.staged(beside) as stage:
        assert Path(stage.instances) == (project.parent / "beside.txt").resolve()


def test_a_path_typed_on_the_command_line_is_read_from_where_it_was_typed(tmp_path, monkeypatch):
    import argparse

    root = tmp_path / "project"
    (root / "notebooks").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    untyped = argparse.Namespace(root=None, instances=None, reports=None, figures_dir=None,
                                 build=None)
    typed = argparse.Namespace(root=None, instances="mine.txt", reports=Path("reports"),
                               figures_dir=Path("../project/figs"), build=Path("/abs/nb"))
    monkeypatch.chdir(elsewhere)
    # not typed: the project's own files, read from its root wherever one stands
    assert reportbuild._typed_paths(untyped, root) == {
        "instances": "data/instances.txt", "reports": Path("reports"),
        "figures_dir": Path("figures"), "build": Path("build/notebooks")}
    # typed (even as the default's name): the user's, from here or, inside the project,
    # from its root
    assert reportbuild._typed_paths(typed, root) == {
        "instances": str(elsewhere / "mine.txt"), "reports": elsewhere / "reports",
        "figures_dir": Path("figs"), "build": Path("/abs/nb")}
    monkeypatch.chdir(root / "notebooks")
    assert reportbuild._typed_paths(typed, root)["instances"] == "notebooks/mine.txt"
    # with --root, every relative path is the root's
    rooted = argparse.Namespace(**{**vars(typed), "root": root})
    assert reportbuild._typed_paths(rooted, root)["instances"] == "mine.txt"
