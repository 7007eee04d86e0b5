"""The batch on a Dask cluster: same outputs, results and resume."""

from __future__ import annotations

import pytest

from sudosat.cli import main
from sudosat.run.batch import COLUMNS, run_batch
from tests.test_batch import comparable
from tests.test_pipeline import CLASHING, puzzle_lines, read_csv, write_lines

distributed = pytest.importorskip("distributed", reason="the optional extra sudosat[cluster]")


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 single-thread workers, in this process (threads start reliably)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as local:
        yield local


def test_dask_gives_the_same_outputs_and_results_as_local(tmp_path, cluster):
    lines = [*puzzle_lines(10), CLASHING, "", "3 12"]
    instances = write_lines(tmp_path / "in.txt", lines)
    solvers = ["cdcl", "pysat:minisat22"]
    run_batch(
        instances, tmp_path / "local.txt", solvers=solvers, encoding="optimised", progress=False
    )
    summary = run_batch(
        instances,
        tmp_path / "dask.txt",
        solvers=solvers,
        encoding="optimised",
        executor="dask",
        scheduler=cluster.scheduler_address,
        progress=False,
    )
    assert summary.solvers["cdcl"].solved == 10
    for solver in ("cdcl", "pysat-minisat22"):
        assert (tmp_path / f"local.{solver}.txt").read_text() == (
            tmp_path / f"dask.{solver}.txt"
        ).read_text()
    local_rows = read_csv(tmp_path / "local.results.csv")
    dask_rows = read_csv(tmp_path / "dask.results.csv")
    assert len(dask_rows) == 2 * len(lines)
    assert comparable(local_rows) == comparable(dask_rows)


def test_dask_resume_solves_only_the_missing_rows(tmp_path, cluster):
    lines = puzzle_lines(8)
    instances = write_lines(tmp_path / "in.txt", lines)
    results = tmp_path / "r.csv"
    run_batch(
        instances, tmp_path / "out.txt", results=results, encoding="optimised", progress=False
    )
    header, *rows = results.read_text().splitlines()
    results.write_text("\n".join([header, *rows[:5]]) + "\n")  # as if stopped after 5 rows
    summary = run_batch(
        instances,
        tmp_path / "out.txt",
        results=results,
        encoding="optimised",
        resume=True,
        executor="dask",
        scheduler=cluster.scheduler_address,
        progress=False,
    )
    assert (summary.resumed, summary.new_rows) == (5, 3)
    assert results.read_text().splitlines()[1:6] == rows[:5]
    assert len((tmp_path / "out.txt").read_text().splitlines()) == 8
    assert list(read_csv(results)[0]) == list(COLUMNS)


def test_cli_dask_executor_with_a_scheduler_address(tmp_path, cluster):
    instances = write_lines(tmp_path / "in.txt", puzzle_lines(3))
    code = main(
        [
            "solve",
            str(instances),
            "-o",
            str(tmp_path / "o.txt"),
            "--encoding",
            "optimised",
            "--executor",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "--no-progress",
        ]
    )
    assert code == 0
    assert len((tmp_path / "o.txt").read_text().splitlines()) == 3


def test_unreachable_scheduler_is_a_user_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sudosat.run.executors.DASK_CONNECT_TIMEOUT_S", 1)
    instances = write_lines(tmp_path / "in.txt", puzzle_lines(1))
    code = main(
        [
            "solve",
            str(instances),
            "--executor",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--no-progress",
        ]
    )
    assert code == 1
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


@pytest.mark.slow
def test_dask_with_worker_processes(tmp_path):
    """Workers in their own processes import sudosat themselves, as on a real cluster."""
    lines = [*puzzle_lines(6), CLASHING]
    instances = write_lines(tmp_path / "in.txt", lines)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        run_batch(
            instances,
            tmp_path / "out.txt",
            encoding="optimised",
            executor="dask",
            scheduler=local.scheduler_address,
            progress=False,
        )
    answers = (tmp_path / "out.txt").read_text().splitlines()
    assert len(answers) == 7 and answers[-1] == "3 UNSAT"


def test_dask_local_cluster_without_a_scheduler(tmp_path):
    instances = write_lines(tmp_path / "in.txt", puzzle_lines(2))
    run_batch(
        instances,
        tmp_path / "out.txt",
        encoding="optimised",
        executor="dask",
        jobs=1,
        progress=False,
    )
    assert len((tmp_path / "out.txt").read_text().splitlines()) == 2
