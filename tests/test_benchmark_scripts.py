"""Every benchmark script starts the way ``make bench`` runs it.

The scripts are not tests and take minutes, so only their start is checked
here: each one imports what it needs (some import others as ``benchmarks.*``)
and parses its options. ``--help`` does exactly that and exits.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import types
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


class _Events:
    """What happened, in order: the timing clock's reads and the peer solver's end."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def clock(self) -> float:
        self.seen.append("clock")
        return float(len(self.seen))


def _fake_peers(events: _Events) -> dict[str, types.ModuleType]:
    """Stand-ins for cdclkit and simplesat whose solvers record when they are freed."""

    class Freed:
        def __del__(self) -> None:
            events.seen.append("freed")

    class KitSolver(Freed):
        stats = types.SimpleNamespace(conflicts=0, propagations=0)

        def __init__(self, nvars: int) -> None:
            self.nvars = nvars

        def add_cnf(self, formula) -> bool:
            return True

        def solve(self) -> bool:
            return True

        def model_dimacs(self) -> list[int]:
            return list(range(1, self.nvars + 1))

    class MiniSATSolver(Freed):
        def add_clause(self, clause) -> None:
            self.last = clause

        def _setup_assignments(self) -> None:
            pass

        def search(self) -> dict[int, bool]:
            return {1: True}

    kit = types.ModuleType("cdclkit")
    kit.parse_dimacs = lambda text: types.SimpleNamespace(nvars=1)  # type: ignore[attr-defined]
    kit.Solver = KitSolver  # type: ignore[attr-defined]
    errors = types.ModuleType("simplesat.errors")
    errors.SatisfiabilityError = type("SatisfiabilityError", (Exception,), {})  # type: ignore[attr-defined]
    minisat = types.ModuleType("simplesat.sat.minisat")
    minisat.MiniSATSolver = MiniSATSolver  # type: ignore[attr-defined]
    return {"cdclkit": kit, "simplesat": types.ModuleType("simplesat"),
            "simplesat.errors": errors, "simplesat.sat": types.ModuleType("simplesat.sat"),
            "simplesat.sat.minisat": minisat}


@pytest.mark.parametrize("peer", ["cdclkit", "simplesat"])
def test_a_peer_frees_its_solver_inside_the_timed_solve(peer: str, monkeypatch):
    # cdcl.solve frees its tables before it returns, inside the window the script times;
    # a peer whose solver outlived the window would be spared that cost.
    monkeypatch.syspath_prepend(str(ROOT))
    from benchmarks import solvers

    events = _Events()
    for name, module in _fake_peers(events).items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(solvers, "clock", events.clock)
    status, *_ = solvers.RUNNERS[peer][0]("p cnf 1 1\n1 0\n")
    assert status == "SAT"
    # Three reads: before reading, before solving, after solving (and freeing).
    assert events.seen == ["clock", "clock", "freed", "clock"]


def _run_script(tmp_path: Path, name: str, *args: str) -> tuple[str, list[dict[str, str]]]:
    """Run benchmarks/`name` with `args` and ``--csv`` into `tmp_path`, as ``make bench`` does
    (the root on the path); its standard output and the rows of its CSV."""
    out = tmp_path / f"{Path(name).stem}.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / name), *args, "--csv", str(out)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    with out.open(newline="") as handle:
        return done.stdout, list(csv.DictReader(handle))


def test_hard_end_times_checks_and_writes_a_tiny_run(tmp_path: Path):
    # Order 2 boards, one seed, a 5 s cap: every solver answers at once, in a forked child.
    stdout, runs = _run_script(tmp_path, "hard_end.py", "--orders", "2", "--seeds", "1",
                               "--cap", "5", "--no-course-case")
    assert [row["solver"] for row in runs] == ["cdcl", "minisat22", "cadical195"]
    assert all(row["status"] == "SAT" and row["valid"] == "True" for row in runs)
    assert all(float(row["cpu_s"]) >= 0 and row["order"] == "2" for row in runs)
    assert "order 6, alpha 0.4, optimised, seeds 1-3, cdcl / MiniSat: not run" in stdout
    # --summarise reads the CSV back and prints the same figures, running nothing.
    again = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "hard_end.py"), "--summarise",
         str(tmp_path / "hard_end.csv")], env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr[-2000:]
    summary = again.stdout.splitlines()
    assert len(summary) == 6 and summary == stdout.splitlines()[-7:-1]
    assert summary[-1].startswith("optimised order 2 alpha 0.4, on the 1 boards every solver")


def test_hard_end_runs_the_python_core_beside_the_compiled_one(tmp_path: Path):
    _, runs = _run_script(tmp_path, "hard_end.py", "--orders", "3", "--seeds", "2", "--cap", "20",
                          "--no-course-case", "--solvers", "cdcl", "cdcl-python")
    by_solver = {row["solver"]: row for row in runs}
    assert by_solver["cdcl-python"]["core"] == "python"
    assert by_solver["cdcl"]["core"] in ("compiled", "python")  # python where it is not built
    assert by_solver["cdcl"]["conflicts"] == by_solver["cdcl-python"]["conflicts"]


def test_cores_runs_each_core_on_every_line_and_checks_the_same_search(tmp_path: Path):
    instances = tmp_path / "two.txt"
    instances.write_text("2 1000000000000000\n3 " + "0" * 81 + "\n")
    stdout, runs = _run_script(tmp_path, "cores.py", "--instances", str(instances),
                               "--repeat", "2", "--zchaff-ms", "0.3")
    assert sorted((r["repeat"], r["core"], r["line"]) for r in runs) == sorted(
        (str(k), core, str(line)) for k in (1, 2) for core in ("compiled", "python")
        for line in (1, 2))
    assert {r["ran"] for r in runs if r["core"] == "python"} == {"python"}
    lines = stdout.splitlines()
    assert lines[0].startswith("order 2: medians (ms of CPU): search_cpu_ms compiled")
    assert lines[2].startswith("order 3: compiled search") and "zChaff's own 0.300 ms" in lines[2]


@pytest.mark.parametrize("content, cause", [
    (None, "No such file or directory"),
    ("a,b\n1,2\n", "no hard_end.py rows (missing order,"),
    ("", "no hard_end.py rows (missing order,"),
    ("HEADER\n", "no runs: a header alone"),
    ("HEADER\noptimised,6,0.4,1,cdcl,60,1,1,x,1,1,SAT,1,1,True\n",
     "line 2: could not convert string to float: 'x'"),
    ("HEADER\noptimised,6,0.4\n", "line 2: "),
    (b"\xff\xfe\x00", "can't decode"),
])
def test_hard_end_summarise_refuses_what_it_cannot_read_in_one_line(tmp_path: Path, content,
                                                                    cause: str):
    header = ("encoding,order,alpha,seed,solver,cap_s,variables,clauses,cpu_s,wall_s,load1,"
              "status,conflicts,propagations,valid")
    path = tmp_path / "runs.csv"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content.replace("HEADER", header))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "hard_end.py"), "--summarise", str(path)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"hard_end.py: {path}: ") and cause in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_hard_end_splits_a_cpu_ratio_into_step_cost_and_conflicts(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from benchmarks.hard_end import step_costs

    def run(seed: int, solver: str, cpu_s: float, conflicts: int, props: int | str,
            status: str = "SAT") -> dict:
        return {"encoding": "optimised", "order": 6, "alpha": 0.4, "seed": seed,
                "solver": solver, "cpu_s": cpu_s, "conflicts": conflicts,
                "propagations": props, "status": status, "valid": "True"}

    rows = [run(1, "cdcl", 2.0, 100, 1_000_000), run(1, "minisat22", 0.5, 1000, 5_000_000),
            run(2, "cdcl", 4.0, 300, 1_000_000), run(2, "minisat22", 1.0, 900, 4_000_000),
            # Seed 3 is left out: MiniSat did not answer it (and seed 4: no count).
            run(3, "cdcl", 1.0, 10, 10), run(3, "minisat22", 60.0, "", "", "TIMEOUT"),
            run(4, "cdcl", 1.0, 10, ""), run(4, "minisat22", 1.0, 10, 10)]
    (line,) = step_costs(rows)
    # cdcl: 2 and 4 µs a step, median 3; MiniSat 0.1 and 0.25, median 0.175.
    assert line == (
        "optimised order 6 alpha 0.4, on the 2 boards every solver answered, medians: "
        "cdcl 3.000 µs a step, 1000000 steps and 200 conflicts, minisat22 0.175 µs a step, "
        "4500000 steps and 950 conflicts; cdcl / minisat22: 17.1 times the CPU a step, "
        "0.22 times the steps, 0.21 times the conflicts")


def test_backtracking_runs_every_setting_checks_and_writes_a_tiny_run(tmp_path: Path):
    # Order 3 boards, two seeds: each setting answers at once, in a forked child.
    stdout, runs = _run_script(tmp_path, "backtracking.py", "--orders", "3", "--seeds", "1",
                               "2", "--cap", "5")
    assert [row["setting"] for row in runs] == ["backjump", "reuse", "chrono", "chrono100"] * 2
    assert [row["tunables"] for row in runs[:4]] == [
        "chrono=0", "chrono=1", "chrono=2", "chrono=2 chrono_levels=100"]
    assert all(row["status"] == "SAT" and row["valid"] == "True" for row in runs)
    assert "    3  chrono100     2 of 2" in stdout


def test_shrinking_runs_both_settings_on_its_own_default_seeds_and_csv(tmp_path: Path,
                                                                        monkeypatch):
    # Order 3 boards, two seeds, through backtracking.py's runner with shrinking's table.
    stdout, runs = _run_script(tmp_path, "shrinking.py", "--orders", "3", "--seeds", "1", "2",
                               "--cap", "5")
    assert [row["setting"] for row in runs] == ["first-uip", "shrink"] * 2
    assert [row["tunables"] for row in runs[:2]] == ["shrink=0", "shrink=1"]
    assert all(row["status"] == "SAT" and row["valid"] == "True" for row in runs)
    assert "    3  shrink        2 of 2" in stdout
    # Its defaults, without running them: seeds 1 to 45, shrinking.csv.
    monkeypatch.syspath_prepend(str(ROOT))
    from benchmarks import shrinking

    seen: dict = {}
    monkeypatch.setattr(shrinking.backtracking, "run",
                        lambda orders, seeds, settings, cap, table: seen.update(
                            orders=orders, seeds=seeds, table=table) or [])
    monkeypatch.setattr(shrinking.backtracking, "write_csv",
                        lambda path, rows: seen.update(csv=path.name))
    monkeypatch.setattr(shrinking.backtracking, "print_summary", lambda table, cap: None)
    shrinking.main([])
    assert seen == {"orders": [5, 6], "seeds": list(range(1, 46)),
                    "table": shrinking.SETTINGS, "csv": "shrinking.csv"}


def test_hard_end_stops_a_run_at_its_cpu_cap_and_flags_a_wrong_answer(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from benchmarks import hard_end

    encoded = hard_end.build(hard_end.Case("optimised", 2, 0.25, 1))

    def busy(*_args, **_kwargs):
        while True:  # burns CPU until the kernel's RLIMIT_CPU stops the child
            pass

    monkeypatch.setattr("sudosat.sat.solvers.registry.solve", busy)
    row = hard_end.run_one(encoded, "cdcl", 1.0)
    assert row["status"] == "TIMEOUT" and "SIGXCPU" in row["error"]
    assert 0.5 <= row["cpu_s"] <= 6.0  # the cap (1 s), well short of the hard limit (+5 s)
    # A model that breaks a clause is caught by the parent's check.
    all_false = [-v for v in range(1, encoded.cnf.num_vars + 1)]
    assert hard_end.check_answer(encoded, "SAT", all_false)[0] == "False"
    assert hard_end.check_answer(encoded, "UNSAT", None)[0] == "False"


def test_a_run_without_a_checked_answer_counts_as_infinitely_long(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from benchmarks.hard_end import answered, median_answered

    def run(status: str, valid: str, cpu_s: float) -> dict:
        return {"status": status, "valid": valid, "cpu_s": cpu_s}

    good, slow = run("SAT", "True", 1.0), run("SAT", "True", 70.0)
    wrong, stopped = run("WRONG", "False", 0.5), run("TIMEOUT", "", 60.0)
    assert answered(good) and answered(slow) and not answered(slow, 60)
    assert not answered(wrong) and not answered(stopped)
    # Two of four unanswered: the median lies between the longest answer and infinity.
    assert median_answered([good, slow, wrong, stopped], "cpu_s") == float("inf")
    assert median_answered([good, slow, wrong], "cpu_s") == 70.0


def test_cnf_handover_writes_a_row_per_formula_and_mode(tmp_path: Path):
    stdout, rows = _run_script(tmp_path, "cnf_handover.py", "--boards", "1", "--repeat", "2")
    assert len(rows) == 2 * 4  # under a header: 2 formulas x 4 modes
    assert "cnf / minisat22" in stdout


def test_incremental_times_the_generators_uniqueness_checks():
    # The benchmark wraps the generator's checker: its arguments must pass through as they are.
    from benchmarks.incremental import timed_generation

    seconds, checks, solver_checks, boards = timed_generation(2)
    assert len(boards) == 2 and all(board.order == 3 for board in boards)
    assert seconds > 0 and len(checks) >= len(solver_checks) > 0
