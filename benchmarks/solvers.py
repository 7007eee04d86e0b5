"""Pure-Python SAT solvers side by side: our `cdcl` against cdclkit, simplesat and Minisat22.

Every (solver, instance) pair runs in a forked child with a wall-clock limit,
so a slow peer cannot stall the run and a timed-out instance counts as slower
than any solved one. Times are measured inside the child:

* ``solve_ms``: load the parsed formula into the solver and solve it;
* ``e2e_ms``: read the DIMACS text with the solver's own reader (ours for
  simplesat, which has none), load, solve and check the model (one common
  check for all);
* both are CPU time of the child (robust on a shared machine); ``e2e_wall_ms``
  is kept in the CSV too. A peer stops after ``--budget`` seconds on a set;
  its ratios then compare the instances it ran. With ``--repeat K`` every
  solver runs K times on each instance (interleaved) and the least times
  count, for every solver alike.
* warm-up: before the timed run, every child solves an unrelated formula
  (random 3-SAT, ``--warmup-vars`` variables, default 80) ``--warmup`` times
  (default 1) with the same solver, untimed. A forked child's first call
  otherwise pays for its first writes to memory shared with the parent
  (copy-on-write page faults, alike for every solver) and for CPython
  specialising the solver's code in place as it first runs, which a process
  solving many formulas pays once; ``--warmup 0`` measures that cold first
  call instead. The 80-variable formula takes every solver through
  conflicts, restarts and level-0 simplification, so the timed call does not
  warm conflict analysis and restarts up (a 20-variable one, ``--warmup-vars
  20``, takes too few conflicts to restart).

Peers are imported optionally and skipped when missing; install them outside
the project, e.g. ``python3.11 -m venv ~/benchvenv && ~/benchvenv/bin/pip
install cdclkit simplesat python-sat==1.9.dev17`` and run this script with that
interpreter and ``PYTHONPATH=.``.

Usage::

    PYTHONPATH=. ~/benchvenv/bin/python benchmarks/solvers.py [--quick]

It prints a table (medians, ratios to cdcl, conflicts and propagations per
second) and writes one CSV row per run to ``benchmarks/results/solvers.csv``.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sudosat.sat.cnf import CNF, parse_dimacs
from sudosat.sat.solvers import cdcl

ROOT = Path(__file__).resolve().parent.parent
# Public puzzle files (top2365.sdk.txt, damnhard.sdk.txt, 16x16.txt) are read from the folder
# SUDOSAT_SHARED_DATA names; unset, the path below does not exist and their sets are skipped,
# the message naming the variable to set.
DATA = Path(os.environ.get("SUDOSAT_SHARED_DATA") or "$SUDOSAT_SHARED_DATA")
# Where the CSVs go: `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/, so that a
# rerun leaves the committed runs (which the READMEs quote) as they are.
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")

# -- instance sets ---------------------------------------------------------------------


@dataclass
class Instance:
    set_name: str
    name: str
    text: str  # DIMACS


def _sudoku_set(set_name: str, file: str, count: int | None, seed: int) -> list[Instance]:
    """Course encodings of puzzles from a public file (a seeded sample of `count` lines)."""
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.encoding import encode

    path = DATA / file
    if not path.is_file():
        print(f"skip {set_name}: {path} is absent", file=sys.stderr)
        return []
    lines = [line for line in path.read_text().split() if line]
    numbered = list(enumerate(lines, start=1))
    if count is not None and count < len(numbered):
        numbered = sorted(random.Random(seed).sample(numbered, count))
    return [Instance(set_name, f"{file}:{number}",
                     encode(Board.parse(line), "course").cnf.to_dimacs())
            for number, line in numbered]


def random_3sat(num_vars: int, ratio: float, rng: random.Random) -> CNF:
    """Uniform random 3-SAT: three distinct variables a clause, random signs."""
    variables = range(1, num_vars + 1)
    return CNF(([v if rng.random() < 0.5 else -v for v in rng.sample(variables, 3)]
                for _ in range(round(num_vars * ratio))), num_vars)


def _random_set(num_vars: int, count: int, seed: int) -> list[Instance]:
    rng = random.Random(seed)
    name = f"random3sat-{num_vars}"
    return [Instance(name, f"{name}#{i}", random_3sat(num_vars, 4.26, rng).to_dimacs())
            for i in range(count)]


#: The sets' names, in the order they run (``--sets`` picks some).
SET_NAMES = ("damnhard", "top2365-200", "16x16-50", "random50", "random100", "random150")


def instance_sets(quick: bool, names: tuple[str, ...] = SET_NAMES) -> list[list[Instance]]:
    """The benchmark's instance sets named in `names` (all by default), in the fixed order.

    Only the named sets are built (reading a Sudoku file and encoding takes a while).
    """
    scale = 5 if quick else 1
    builders: dict[str, Callable[[], list[Instance]]] = {
        "damnhard": lambda: _sudoku_set("damnhard", "damnhard.sdk.txt", 10 if quick else None, 1),
        "top2365-200": lambda: _sudoku_set("top2365-200", "top2365.sdk.txt", 200 // scale, 2365),
        "16x16-50": lambda: _sudoku_set("16x16-50", "16x16.txt", 50 // scale, 16),
        "random50": lambda: _random_set(50, 100 // scale, 50),  # uf50-sized: start-up cost shows
        "random100": lambda: _random_set(100, 60 // scale, 100),
        "random150": lambda: _random_set(150, 30 // scale, 150),
    }
    return [builders[name]() for name in SET_NAMES if name in names]


# -- one run per solver ---------------------------------------------------------------------
# Times are CPU seconds of the child process: on a machine shared with other jobs,
# wall time measures the neighbours as much as the solver.
clock = time.process_time

# Each runner takes DIMACS text and returns (status, model, solve_s, read_s, conflicts, props).
# solve_s ends once the solver is freed: cdcl.solve frees its own tables before it
# returns, so every runner pays for freeing its solver inside the same window.


def _run_cdcl(text: str):
    t0 = clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cnf = parse_dimacs(text)
    t1 = clock()
    result = cdcl.solve(cnf)  # default settings: its own model check included
    t2 = clock()
    stats = result.stats
    return (result.status.value, result.model, t2 - t1, t1 - t0,
            stats["conflicts"], stats["propagations"])


def _run_cdclkit(text: str):
    import cdclkit

    t0 = clock()
    formula = cdclkit.parse_dimacs(text)
    t1 = clock()
    solver = cdclkit.Solver(formula.nvars)
    answer = solver.solve() if solver.add_cnf(formula) else False
    model = solver.model_dimacs() if answer else None
    conflicts, props = solver.stats.conflicts, solver.stats.propagations
    del solver  # freed inside the timed window, as cdcl.solve and Minisat22's `with` are
    t2 = clock()
    status = "SAT" if answer else ("UNSAT" if answer is False else "UNKNOWN")
    return status, model, t2 - t1, t1 - t0, conflicts, props


def _run_simplesat(text: str):
    from simplesat.errors import SatisfiabilityError
    from simplesat.sat.minisat import MiniSATSolver

    t0 = clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cnf = parse_dimacs(text)  # simplesat has no DIMACS reader: it gets ours
    t1 = clock()
    solver = MiniSATSolver()
    try:
        for clause in cnf:
            solver.add_clause(clause)
        solver._setup_assignments()
        assignment = solver.search()
        status = "SAT"
        model = [v if assignment.get(v) else -v for v in range(1, cnf.num_vars + 1)]
    except SatisfiabilityError:
        status, model = "UNSAT", None
    del solver  # freed inside the timed window (see _run_cdclkit)
    t2 = clock()
    return status, model, t2 - t1, t1 - t0, None, None


def _run_minisat22(text: str):
    from pysat.formula import CNF as PysatCNF
    from pysat.solvers import Solver

    t0 = clock()
    formula = PysatCNF(from_string=text)
    t1 = clock()
    with Solver(name="m22", bootstrap_with=formula.clauses) as solver:
        answer = solver.solve()
        model = solver.get_model() if answer else None
        stats = solver.accum_stats()
    t2 = clock()
    if model is not None:  # PySAT omits variables beyond the highest one it saw
        model = list(model) + [-v for v in range(len(model) + 1, formula.nv + 1)]
    return ("SAT" if answer else "UNSAT"), model, t2 - t1, t1 - t0, \
        stats.get("conflicts"), stats.get("propagations")


RUNNERS: dict[str, tuple[Callable, str | None]] = {
    "cdcl": (_run_cdcl, None),
    "cdclkit": (_run_cdclkit, "cdclkit"),
    "simplesat": (_run_simplesat, "simplesat"),
    "minisat22": (_run_minisat22, "pysat"),
}
PURE_PYTHON_PEERS = ("cdclkit", "simplesat")
EXEMPT = ("cdcl", "minisat22")  # always run every instance: the subject and the C++ reference


def available(name: str) -> bool:
    module = RUNNERS[name][1]
    if module is None:
        return True
    try:
        __import__(module)
    except ImportError:
        return False
    return True


#: Variables of the formula every child solves, untimed, before its instance (see
#: ``--warmup`` and the module's docstring).
WARMUP_VARS = 80


def warmup_text(num_vars: int = WARMUP_VARS) -> str:
    """The warm-up formula: random 3-SAT at ratio 4.26, seed 20 (no set uses it)."""
    return random_3sat(num_vars, 4.26, random.Random(20)).to_dimacs()


def _child(runner: Callable, text: str, pipe, warmup: int, warm_text: str) -> None:
    """Run one instance and send back timings; the model check is the same for every solver."""
    try:
        for _ in range(warmup):
            runner(warm_text)
        wall = time.perf_counter()
        started = clock()
        status, model, solve_s, _, conflicts, props = runner(text)
        ran_s = clock() - started
        wall_s = time.perf_counter() - wall
        valid, check_s = None, 0.0
        if status == "SAT":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                formula = parse_dimacs(text)  # not charged: every runner has read the text already
            t = clock()
            valid = formula.is_satisfied_by(model)
            check_s = clock() - t
        pipe.send((status, valid, solve_s, ran_s + check_s, wall_s, conflicts, props, ""))
    except Exception as exc:  # a peer's crash is a row, not the end of the run
        pipe.send(("ERROR", None, 0.0, 0.0, 0.0, None, None, f"{type(exc).__name__}: {exc}"))


def run_one(name: str, instance: Instance, timeout_s: float, warmup: int, warm_text: str) -> dict:
    """Time `name` on `instance` in a forked child after `warmup` solves of `warm_text`."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child,
                              args=(RUNNERS[name][0], instance.text, sender, warmup, warm_text))
    process.start()
    row = {"set": instance.set_name, "instance": instance.name, "solver": name}
    if receiver.poll(timeout_s):
        status, valid, solve_s, e2e_s, wall_s, conflicts, props, error = receiver.recv()
        process.join()
    else:
        process.kill()
        process.join()
        status, valid, solve_s, e2e_s, wall_s, conflicts, props, error = (
            "TIMEOUT", None, float("inf"), float("inf"), float("inf"), None, None, "")
    if status == "SAT" and not valid:
        status, error = "WRONG", "the model falsifies the formula"
    row.update(status=status, solve_ms=solve_s * 1000, e2e_ms=e2e_s * 1000,
               e2e_wall_ms=wall_s * 1000,
               conflicts=conflicts, propagations=props, error=error)
    return row


def best_of(attempts: list[dict]) -> dict:
    """One row for repeated runs of one solver on one instance: the least times.

    A wrong answer or a crash in any attempt is the row (never hidden by a
    good attempt); otherwise solve and end-to-end times are each the minimum
    over the attempts, the usual estimate of a time on a noisy machine.
    """
    failed = [row for row in attempts if row["status"] in ("WRONG", "ERROR")]
    if failed:
        return failed[0]
    best = dict(min(attempts, key=lambda row: row["solve_ms"]))
    for key in ("e2e_ms", "e2e_wall_ms"):
        best[key] = min(row[key] for row in attempts)
    return best


# -- summary --------------------------------------------------------------------------------


def _median(rows: list[dict], key: str) -> float:
    return statistics.median(row[key] for row in rows) if rows else float("nan")


def summarise(rows: list[dict], solvers: list[str]) -> list[dict]:
    """One line per (set, solver): medians, ratios to cdcl, throughput."""
    table = []
    for set_name in dict.fromkeys(row["set"] for row in rows):
        ours = [r for r in rows if r["set"] == set_name and r["solver"] == "cdcl"]
        for name in solvers:
            mine = [r for r in rows if r["set"] == set_name and r["solver"] == name]
            if not mine:
                continue
            done = {r["instance"] for r in mine}
            base = [r for r in ours if r["instance"] in done]  # same instances as the peer
            finished = [r for r in mine if r["status"] in ("SAT", "UNSAT")]
            cpu = sum(r["solve_ms"] for r in finished) / 1000
            conflicts = [r["conflicts"] for r in finished if r["conflicts"] is not None]
            props = [r["propagations"] for r in finished if r["propagations"] is not None]
            table.append({
                "set": set_name, "solver": name, "runs": len(mine),
                "solved": len(finished),
                "sat": sum(r["status"] == "SAT" for r in mine),
                "bad": sum(r["status"] in ("WRONG", "ERROR") for r in mine),
                "solve_ms": _median(mine, "solve_ms"), "e2e_ms": _median(mine, "e2e_ms"),
                "solve_ratio": _median(mine, "solve_ms") / _median(base, "solve_ms"),
                "e2e_ratio": _median(mine, "e2e_ms") / _median(base, "e2e_ms"),
                "conflicts_per_s": sum(conflicts) / cpu if conflicts and cpu else float("nan"),
                "props_per_s": sum(props) / cpu if props and cpu else float("nan"),
            })
    return table


def print_table(table: list[dict]) -> None:
    head = (f"{'set':<15}{'solver':<11}{'runs':>5}{'solved':>7}{'bad':>4}{'solve ms':>10}"
            f"{'e2e ms':>10}{'x solve':>9}{'x e2e':>8}{'confl/s':>10}{'props/s':>11}")
    print(head)
    print("-" * len(head))
    for line in table:
        print(f"{line['set']:<15}{line['solver']:<11}{line['runs']:>5}{line['solved']:>7}"
              f"{line['bad']:>4}{line['solve_ms']:>10.1f}{line['e2e_ms']:>10.1f}"
              f"{line['solve_ratio']:>9.2f}{line['e2e_ratio']:>8.2f}"
              f"{line['conflicts_per_s']:>10.0f}{line['props_per_s']:>11.0f}")
    print("x solve / x e2e: the solver's median over cdcl's median on the same instances "
          "(above 1: cdcl is faster).")


def proof_overhead(reps: int = 5) -> tuple[float, float]:
    """CPU seconds (best of `reps`) to solve random UNSAT 3-SAT without and with a DRAT proof."""
    rng = random.Random(42)
    formulas = []
    while len(formulas) < 6:
        cnf = random_3sat(150, 5.0, rng)
        if cdcl.solve(cnf).status.value == "UNSAT":
            formulas.append(cnf)
    best = {False: float("inf"), True: float("inf")}
    for _ in range(reps):
        for flag in (False, True):  # alternate, so both see the same machine load
            started = time.process_time()
            for cnf in formulas:
                result = cdcl.solve(cnf, proof=flag)
                if flag:
                    result.proof.count("\n")  # the text exists and is read
            best[flag] = min(best[flag], time.process_time() - started)
    return best[False], best[True]


def profile(instances: list[Instance], top: int = 12) -> None:
    """cProfile of cdcl over `instances` (parsing excluded): where the time goes."""
    import cProfile
    import pstats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        formulas = [parse_dimacs(instance.text) for instance in instances]
    profiler = cProfile.Profile()
    profiler.enable()
    for cnf in formulas:
        cdcl.solve(cnf)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solvers", default=",".join(RUNNERS), help="comma-separated names")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per instance")
    parser.add_argument("--budget", type=float, default=150.0,
                        help="seconds per solver and set; later instances of that pair are skipped")
    parser.add_argument("--quick", action="store_true", help="a fifth of every set")
    parser.add_argument("--sets", nargs="+", choices=SET_NAMES, default=list(SET_NAMES),
                        help="only these sets (default: all)")
    parser.add_argument("--repeat", type=lambda text: max(1, int(text)), default=1,
                        help="runs of each (solver, instance), interleaved; the least times count")
    parser.add_argument("--warmup", type=lambda text: max(0, int(text)), default=1,
                        help="untimed solves of the warm-up formula in each child first (0: cold)")
    parser.add_argument("--warmup-vars", type=int, default=WARMUP_VARS,
                        help="variables of the warm-up formula (20: as before 2026-11-25)")
    parser.add_argument("--csv", type=Path, default=RESULTS / "solvers.csv")
    parser.add_argument("--profile", action="store_true",
                        help="only profile cdcl on a few instances of every set")
    parser.add_argument("--proof-overhead", action="store_true",
                        help="only measure what DRAT logging adds to cdcl's solve time")
    args = parser.parse_args(argv)
    if args.proof_overhead:
        plain, logged = proof_overhead()
        print(f"6 random UNSAT 3-SAT (150 variables, ratio 5): {plain:.3f} s without proof, "
              f"{logged:.3f} s with proof: +{100 * (logged / plain - 1):.1f} %")
        return 0
    if args.profile:
        for instances in instance_sets(True, tuple(args.sets)):
            if instances:
                print(f"== {instances[0].set_name}")
                profile(instances[:10])
        return 0
    warm_text = warmup_text(args.warmup_vars)
    solvers = [name for name in args.solvers.split(",") if name]
    missing = [name for name in solvers if name not in RUNNERS or not available(name)]
    for name in missing:
        print(f"skip {name}: not installed here", file=sys.stderr)
    solvers = [name for name in solvers if name not in missing]
    rows: list[dict] = []
    for instances in instance_sets(args.quick, tuple(args.sets)):
        spent = dict.fromkeys(solvers, 0.0)
        for instance in instances:
            active = [name for name in solvers
                      if spent[name] <= args.budget or name in EXEMPT]
            runs: dict[str, list[dict]] = {name: [] for name in active}
            for _ in range(args.repeat):
                for name in active:  # side by side: every solver on one instance, then the next
                    started = time.perf_counter()
                    runs[name].append(
                        run_one(name, instance, args.timeout, args.warmup, warm_text))
                    spent[name] += time.perf_counter() - started
            rows.extend(best_of(attempts) for attempts in runs.values())
        if instances:
            print(f"done {instances[0].set_name}: {len(instances)} instances", file=sys.stderr)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with args.csv.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["set"])
        writer.writeheader()
        writer.writerows(rows)
    print_table(summarise(rows, solvers))
    print(f"rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
