"""``sudosat study`` refuses, before any work, what would fail after it.

It checked its outputs and solvers after the work: ``--figures`` naming a file
(or the CSV itself, a read-only folder, a path under a file, ``/proc``) failed
with exit 3 after the whole study; ``--solvers exec:nonexistent`` (or a budget a
solver cannot honour) gave ERROR rows and exit 0 with the reason only in the
CSV; ``--orders 40`` spent 95 s generating and counting before an ERROR row and
exit 0. Each is now one line naming the option and the cause, exit 1 or 2,
within seconds of CPU, and nothing is written.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sudosat.cli import main
from sudosat.cli.study import STUDY_FIGURES
from sudosat.errors import ResourceLimitError
from sudosat.studies.scaling import StudySettings, check_grid
from tests.clock import cpu_spent

SMALL = ["--orders", "2", "--alphas", "0.5", "--boards", "1", "--solvers", "cdcl",
         "--encodings", "course"]
CPU_BOUND_S = 5.0  # what the issue allows; refusing takes well under one


def tree(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def study(capsys, *options: str) -> tuple[int, list[str], float]:
    """Run the study with `options` after the small grid's; (exit code, stderr lines, CPU s)."""
    with cpu_spent() as spent:
        try:
            code = main(["study", *SMALL, *options])
        except SystemExit as stop:  # a usage error from an option's type
            code = int(stop.code or 0)
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    return code, err, spent.seconds


@pytest.fixture
def place(tmp_path, monkeypatch) -> Path:
    """A folder holding a file ``afile`` and nothing else, the working folder."""
    (tmp_path / "afile").write_text("not a folder\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("options", "named", "cause"), [
    (["--figures", "afile"], "afile", "--figures needs a folder; this is a file"),
    (["--csv", "rows.csv", "--figures", "rows.csv"], "rows.csv",
     "where the rows (--csv) are written"),
    (["--figures", "afile/sub"], "afile/sub", "--figures needs a folder"),
    (["--figures", "/proc"], "/proc", "cannot write in the folder /proc"),
    (["--csv", "afile/rows.csv"], "afile/rows.csv", "is not a folder"),
    (["--csv", "/proc/rows.csv"], "/proc/rows.csv", "cannot write in the folder /proc"),
])
def test_a_bad_output_is_refused_before_any_work(place, capsys, options, named, cause):
    before = tree(place)
    code, err, cpu = study(capsys, *options)
    assert code in (1, 2) and len(err) == 1, err
    assert err[0].startswith(f"sudosat: {named}") and cause in err[0], err
    assert "Traceback" not in err[0]
    assert cpu < CPU_BOUND_S
    assert tree(place) == before


@pytest.mark.parametrize(("options", "cause"), [
    (["--solvers", "exec:nonexistent"],
     "--solvers: exec:nonexistent cannot run here: exec:nonexistent: no program 'nonexistent'"),
    (["--solvers", "cdcl", "pysat:nosuch"],
     "--solvers: pysat:nosuch cannot run here: pysat:nosuch: PySAT has no solver of that name"),
    (["--solvers", "cdcl", "walksat", "--max-conflicts", "10"],
     "--max-conflicts: solver 'walksat' cannot honour it"),
    (["--orders", "40"], "--orders 40: order 40 with the course encoding needs about"),
    (["--orders", "40", "--alphas", "0", "--encodings", "optimised"],
     "--orders 40 --alphas 0: order 40 with the optimised encoding needs at least"),
    (["--orders", "60"],
     "--orders 60: the boards of a cell (1 of 12,960,000 cells) need about 1.3 GB"),
])
def test_a_solver_budget_or_grid_that_cannot_run_is_refused_before_any_work(
        place, capsys, options, cause):
    before = tree(place)
    code, err, cpu = study(capsys, "--csv", "rows.csv", "--figures", "figs", *options)
    assert code in (1, 2) and len(err) == 1, err
    assert err[0].startswith(f"sudosat: {cause}"), err
    assert cpu < CPU_BOUND_S
    assert tree(place) == before


def test_a_read_only_figures_folder_is_refused_before_any_work(place, capsys):
    folder = place / "ro"
    folder.mkdir()
    if os.geteuid() == 0:  # root writes through permission bits: a read-only mount stops it
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs",
                                  str(folder)], capture_output=True)
        if mounted.returncode != 0:
            pytest.skip("root, and no read-only tmpfs can be mounted here")
    else:
        folder.chmod(0o555)
    try:
        code, err, cpu = study(capsys, "--figures", "ro")
        assert code == 1 and len(err) == 1, err
        assert err[0].startswith("sudosat: ro/scaling-") and "cannot write in the folder" in err[0]
        assert cpu < CPU_BOUND_S
        assert sorted(os.listdir(folder)) == []
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(folder)], check=True)
        else:
            folder.chmod(0o755)


def test_the_grid_is_sized_without_generating_a_board():
    with cpu_spent() as spent, pytest.raises(ResourceLimitError, match="--orders 40"):
        check_grid(StudySettings(orders=(3, 40), alphas=(0.6,), encodings=("course",)))
    assert spent.seconds < 2.0
    # what fits, and a reduced encoding whose lower bound fits (the boards will tell), pass
    check_grid(StudySettings())
    check_grid(StudySettings(orders=(40,), alphas=(0.6,), encodings=("optimised",)))
    with pytest.raises(ResourceLimitError, match="order 9 with the course encoding"):
        check_grid(StudySettings(orders=(9,), alphas=(0.5,), encodings=("course",)))


def test_the_figures_checked_are_those_the_study_saves(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from sudosat.report.study_plots import save_study_figures
    from sudosat.studies.scaling import run_study

    table = run_study(orders=[2], alphas=[0.5], boards=1, solvers=["cdcl"],
                      encodings=["course"])
    saved = save_study_figures(table, tmp_path)
    assert sorted(path.name for path in saved) == sorted(STUDY_FIGURES)


def test_a_good_study_still_writes_its_csv_and_figures(place, capsys):
    code, err, _ = study(capsys, "--csv", "rows.csv", "--figures", "figs")
    assert code == 0, err
    assert (place / "rows.csv").is_file()
    assert sorted(os.listdir(place / "figs")) == sorted(STUDY_FIGURES)
