"""Dask leaves nothing behind: no header-only table for a scheduler out of reach, no scratch.

An unreachable scheduler used to be found only once the results table had been
started, leaving a table that holds its header alone; the local cluster left
``dask-scratch-space/`` in ``$TMPDIR``.
"""

from __future__ import annotations

import tempfile

import pytest

from sudosat.cli import main
from sudosat.run.batch import run_batch
from tests.test_pipeline import puzzle_lines, write_lines

pytest.importorskip("distributed", reason="the optional extra sudosat[cluster]")


def test_an_unreachable_scheduler_fails_before_any_output(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sudosat.run.executors.DASK_CONNECT_TIMEOUT_S", 1)
    instances = write_lines(tmp_path / "in.txt", puzzle_lines(1))
    code = main(["solve", str(instances), "-o", str(tmp_path / "out" / "solved.txt"),
                 "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("sudosat: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert err.count("\n") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt"]  # no table, no folder


@pytest.mark.slow
def test_the_local_cluster_leaves_no_scratch_space_in_tmpdir(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # the worker processes' temporary folder
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # and this process's
    instances = write_lines(tmp_path / "in.txt", puzzle_lines(2))
    run_batch(instances, tmp_path / "out.txt", encoding="optimised", executor="dask", jobs=1,
              progress=False)
    assert len((tmp_path / "out.txt").read_text().splitlines()) == 2
    assert list(scratch.iterdir()) == []
