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


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_each_script_starts(script: Path, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Run from elsewhere, as a user calling the script by its path would.
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
