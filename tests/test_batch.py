"""Executors, the results log, worker crashes and resumed runs (sudosat.run.executors)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import psutil  # the test extra declares it: a missing psutil fails loudly, never skips
import pytest

from sudosat.errors import WorkerCrashed
from sudosat.outputs import write_atomically
from sudosat.run.batch import COLUMNS, run_batch
from sudosat.run.executors import ProcessExecutor, SerialExecutor
from sudosat.run.results import ResultsLog, read_rows
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION
from tests.test_pipeline import CLASHING, puzzle_lines, read_csv, write_lines

ROOT = Path(__file__).resolve().parent.parent


def double(item: int) -> int:
    return 2 * item


def die_on_three(item: int) -> int:
    """Kill the worker process on item 3, every time."""
    if item == 3:
        os._exit(7)
    return 2 * item


def die_once(item: tuple[int, str]) -> int:
    """Kill the worker process the first time item 3 runs (a transient crash)."""
    number, marker = item
    if number == 3 and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(7)
    return 2 * number


# ---------------------------------------------------------------------------------------
# executors


def test_serial_executor_yields_in_order():
    with SerialExecutor() as runner:
        assert list(runner.map_unordered(double, [1, 2, 3])) == [(1, 2), (2, 4), (3, 6)]


def test_process_executor_runs_everything():
    with ProcessExecutor(2) as runner:
        done = dict(runner.map_unordered(double, range(20)))
    assert done == {k: 2 * k for k in range(20)}


def test_a_worker_that_always_dies_costs_only_its_item():
    with ProcessExecutor(2) as runner:
        done = dict(runner.map_unordered(die_on_three, range(8)))
    assert sorted(done) == list(range(8))
    assert isinstance(done[3], WorkerCrashed) and "worker process died" in str(done[3])
    assert all(done[k] == 2 * k for k in range(8) if k != 3)


def test_a_worker_killed_once_is_retried(tmp_path):
    marker = str(tmp_path / "died")
    with ProcessExecutor(2) as runner:
        done = dict(runner.map_unordered(die_once, [(k, marker) for k in range(8)]))
    assert {number: value for (number, _), value in done.items()} == {k: 2 * k for k in range(8)}
    assert os.path.exists(marker)


class _PoolThatBreaksOnSubmit:
    """A stand-in pool: its first submit after `finished` results finds it broken, as a
    pool does when a worker was killed between two waits (a race make test hit once)."""

    def __init__(self, breaks_after: int | None) -> None:
        self.breaks_after = breaks_after
        self.submitted = 0

    def submit(self, fn, item):
        if self.breaks_after is not None and self.submitted == self.breaks_after:
            raise BrokenProcessPool("a child process terminated abruptly")
        self.submitted += 1
        future: Future = Future()
        future.set_result(fn(item))
        return future


def test_a_pool_found_broken_at_submit_loses_no_item(monkeypatch):
    pools = iter([_PoolThatBreaksOnSubmit(3), _PoolThatBreaksOnSubmit(None)])
    runner = ProcessExecutor(2)
    monkeypatch.setattr(runner, "_new_pool", lambda: next(pools))
    done = list(runner.map_unordered(double, range(8)))
    assert sorted(done) == [(k, 2 * k) for k in range(8)]  # each once, none lost, none crashed


# ---------------------------------------------------------------------------------------
# the results log


def test_results_log_appends_and_flushes_each_row(tmp_path):
    path = tmp_path / "r.csv"
    with ResultsLog(path, ("line", "status"), [{"line": 1, "status": "SAT"}]) as log:
        log.append({"line": 2, "status": "UNSAT", "extra": "ignored"})
        # Flushed: another reader sees both rows while the log is still open.
        assert read_rows(path) == [
            {"line": "1", "status": "SAT"},
            {"line": "2", "status": "UNSAT"},
        ]


def test_read_results_skips_a_row_cut_short(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"line": 1}\n{"line": 2}\n{"li')
    assert read_rows(path) == [{"line": 1}, {"line": 2}]
    csv_path = tmp_path / "r.csv"
    csv_path.write_text("line,output\n1,3 816\n2,3 8164")
    assert read_rows(csv_path) == [{"line": "1", "output": "3 816"}]


def test_write_atomically_leaves_no_temporary_file(tmp_path):
    write_atomically(tmp_path / "out.txt", "a\n")
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


# ---------------------------------------------------------------------------------------
# batches in parallel


def comparable(rows: list[dict]) -> list[tuple]:
    """Rows without their timings."""
    timing = {c for c in COLUMNS if c.endswith("_ms")}  # load_ms and search_ms too
    return [tuple(row[c] for c in COLUMNS if c not in timing) for row in rows]


def test_two_workers_give_the_same_results_as_one(tmp_path):
    lines = [*puzzle_lines(12), CLASHING, "", "3 12"]
    instances = write_lines(tmp_path / "in.txt", lines)
    run_batch(
        instances,
        tmp_path / "one.txt",
        solvers=["cdcl", "pysat:minisat22"],
        progress=False,
        encoding="optimised",
    )
    run_batch(
        instances,
        tmp_path / "two.txt",
        solvers=["cdcl", "pysat:minisat22"],
        progress=False,
        encoding="optimised",
        jobs=2,
    )
    for solver in ("cdcl", "pysat-minisat22"):
        one = (tmp_path / f"one.{solver}.txt").read_text()
        assert one == (tmp_path / f"two.{solver}.txt").read_text()
        assert len(one.splitlines()) == len(lines)
    assert comparable(read_csv(tmp_path / "one.results.csv")) == comparable(
        read_csv(tmp_path / "two.results.csv")
    )


# ---------------------------------------------------------------------------------------
# a run killed half-way, then resumed


RUNNER = """
import sys
from sudosat.run.batch import run_batch
run_batch(sys.argv[1], sys.argv[2], results=sys.argv[3], jobs=int(sys.argv[4]),
          resume=sys.argv[5] == "resume", time_limit_ms=60000, progress=False)
"""


def start_run(instances: Path, out: Path, results: Path, jobs: int, mode: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(instances), str(out), str(results), str(jobs), mode],
        cwd=ROOT,
        start_new_session=True,
    )


def wait_for_rows(results: Path, count: int, process: subprocess.Popen, limit_s: float) -> None:
    stop = time.monotonic() + limit_s
    while time.monotonic() < stop and process.poll() is None:
        if len(read_rows(results)) >= count:
            return
        time.sleep(0.05)
    pytest.fail(f"the run did not write {count} rows in {limit_s} s (exit {process.poll()})")


@pytest.mark.parametrize("jobs", [1, 2])
def test_sigkill_half_way_then_resume_completes_without_redoing_rows(tmp_path, jobs):
    lines = [*puzzle_lines(60), CLASHING, "", "3 12"] * 1
    instances = write_lines(tmp_path / "in.txt", lines)
    out, results = tmp_path / "out.txt", tmp_path / "r.csv"
    process = start_run(instances, out, results, jobs, "fresh")
    wait_for_rows(results, 10, process, limit_s=120)
    os.killpg(process.pid, signal.SIGKILL)  # the run and its workers, mid-row perhaps
    process.wait()
    before = {(row["line"], row["solver"]): row for row in read_rows(results)}
    assert 10 <= len(before) < len(lines) and not out.exists()
    resumed = start_run(instances, out, results, jobs, "resume")
    assert resumed.wait(timeout=300) == 0
    rows = read_csv(results)
    assert [int(row["line"]) for row in rows] == list(range(1, len(lines) + 1))
    for row in rows:
        key = (row["line"], row["solver"])
        if key in before:
            assert row == before[key]  # same timings: kept, not solved again
    answers = out.read_text().splitlines()
    assert len(answers) == len(lines)
    assert answers[-3:] == ["3 UNSAT", "ERROR empty line", "ERROR order 3 needs 81 symbols, got 2"]
    assert answers == [row["output"] for row in rows]


def test_sigint_stops_cleanly_and_says_how_to_resume(tmp_path):
    instances = write_lines(tmp_path / "in.txt", puzzle_lines(60))
    results = tmp_path / "r.csv"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sudosat",
            "solve",
            str(instances),
            "-o",
            str(tmp_path / "o.txt"),
            "--results",
            str(results),
            "-j",
            "2",
            "--no-progress",
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_rows(results, 5, process, limit_s=120)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "--resume" in err and "Traceback" not in err
    assert read_rows(results)  # the finished rows are there


def test_course_example_with_cdcl_and_absent_zchaff(tmp_path):
    """Acceptance: both outputs; the zChaff rows say why; the cdcl rows are complete."""
    instances = write_lines(tmp_path / "course.txt", [COURSE_EXAMPLE, CLASHING])
    env = {**os.environ, "ZCHAFF": str(tmp_path / "absent"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudosat",
            "solve",
            str(instances),
            "-o",
            str(tmp_path / "o.txt"),
            "--solver",
            "cdcl",
            "--solver",
            "zchaff",
            "-T",
            "20000",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr  # the zChaff lines are errors
    assert "course.txt:1: zchaff: zChaff" in done.stderr
    assert (tmp_path / "o.cdcl.txt").read_text().splitlines() == [COURSE_SOLUTION, "3 UNSAT"]
    zchaff = (tmp_path / "o.zchaff.txt").read_text().splitlines()
    assert len(zchaff) == 2 and all(line.startswith("ERROR zChaff") for line in zchaff)
    assert "zchaff: 2 lines: 0 solved, 0 unsat, 0 timeouts, 2 errors" in done.stdout


def test_a_worker_killed_mid_run_loses_no_row(tmp_path):
    lines = puzzle_lines(40)
    instances = write_lines(tmp_path / "in.txt", lines)
    out, results = tmp_path / "out.txt", tmp_path / "r.csv"
    process = start_run(instances, out, results, 2, "fresh")
    wait_for_rows(results, 5, process, limit_s=120)
    workers = [
        child
        for child in psutil.Process(process.pid).children(recursive=True)
        if "spawn_main" in " ".join(child.cmdline())
    ]
    assert workers, "no worker process found"
    workers[0].send_signal(signal.SIGKILL)
    assert process.wait(timeout=300) == 0
    rows = read_csv(results)
    assert [int(row["line"]) for row in rows] == list(range(1, len(lines) + 1))
    assert {row["status"] for row in rows} == {"SAT"}  # the lost items were run again
    assert len(out.read_text().splitlines()) == len(lines)


def test_a_crashing_zchaff_is_reported_on_its_rows(tmp_path, monkeypatch):
    from tests.fake_solvers.support import make_launcher

    zchaff = make_launcher(tmp_path / "bin", "zchaff")
    monkeypatch.setenv("FAKE_MODE", "abort")
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE, CLASHING])
    summary = run_batch(
        instances,
        tmp_path / "o.txt",
        solvers=["cdcl", "zchaff"],
        zchaff=str(zchaff),
        time_limit_ms=20_000,
        progress=False,
    )
    assert (tmp_path / "o.cdcl.txt").read_text().splitlines() == [COURSE_SOLUTION, "3 UNSAT"]
    for line in (tmp_path / "o.zchaff.txt").read_text().splitlines():
        assert line.startswith("ERROR ") and "zchaff" in line.lower(), line
    assert summary.solvers["zchaff"].errors == 2


@pytest.mark.skipif(not shutil.which("minisat"), reason="needs minisat (apt-get install minisat)")
def test_an_external_solver_gives_the_same_answers_as_cdcl(tmp_path):
    lines = [*puzzle_lines(5), CLASHING, "3 12"]
    instances = write_lines(tmp_path / "in.txt", lines)
    run_batch(instances, tmp_path / "o.txt", solvers=["cdcl", "exec:minisat"], progress=False)
    assert (tmp_path / "o.cdcl.txt").read_text() == (tmp_path / "o.exec-minisat.txt").read_text()
