"""Every benchmark script starts the way ``make bench`` runs it.

The scripts are not tests and take minutes, so only their start is checked
here: each one imports what it needs (some import others as ``benchmarks.*``)
and parses its options. ``--help`` does exactly that and exits.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_bench_puts_the_project_root_on_the_path():
    # What make would run (-n prints the recipe, expanded, without running it). Without the
    # root on the path, `from benchmarks.solvers import ...` fails outside the root folder.
    shown = subprocess.run(["make", "-n", "-s", "bench"], cwd=ROOT, capture_output=True,
                           text=True, timeout=60, check=True).stdout
    assert f"PYTHONPATH='{ROOT}'" in shown


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_bench_writes_outside_the_committed_results():
    # A rerun must not replace the runs the READMEs quote (test_readme_figures reads them).
    shown = subprocess.run(["make", "-n", "-s", "bench"], cwd=ROOT, capture_output=True,
                           text=True, timeout=60, check=True).stdout
    assert "SUDOSAT_BENCH_RESULTS='build/bench'" in shown
    recorded = subprocess.run(["make", "-n", "-s", "bench", "BENCH_OUT=benchmarks/results"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60,
                              check=True).stdout
    assert "SUDOSAT_BENCH_RESULTS='benchmarks/results'" in recorded


WRITERS = [script for script in SCRIPTS if script.name != "model_check_ab.py"]  # it prints only


@pytest.mark.parametrize("script", WRITERS, ids=lambda path: path.name)
def test_each_script_writes_where_sudosat_bench_results_says(script: Path, tmp_path: Path):
    # The script's module, loaded without running its main: its output folders.
    show = ("import runpy, sys; names = runpy.run_path(sys.argv[1]); "
            "print(names['RESULTS']); print(names.get('FIGURES', names['RESULTS']))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SUDOSAT_BENCH_RESULTS": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", show, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert [Path(line) for line in done.stdout.split()] == [tmp_path, tmp_path]
    # ...and no output path is spelled anywhere else in the script.
    for line in script.read_text().splitlines():
        if '"results"' in line or '"figures"' in line or '"benchmarks/results' in line:
            assert "SUDOSAT_BENCH_RESULTS" in line or " if OUTPUT else " in line, line


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_each_script_starts(script: Path, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Run from elsewhere, as a user calling the script by its path would.
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
