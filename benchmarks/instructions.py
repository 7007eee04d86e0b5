"""Instructions cdcl (and cdclkit) execute on the sets of ``benchmarks/solvers.py``, by callgrind.

A shared, busy machine moves CPU times by a tenth or more between runs;
instruction counts do not move. For each set and solver this runs one child
under ``valgrind --tool=callgrind`` that builds the set's formulas, warms up
as ``solvers.py`` does, then solves the formulas one after the other,
calling ``os.getppid()`` before each and after the last: callgrind dumps its
counters at each such call (``--dump-before``), so every formula's
instructions are counted alone. What is counted per formula is what
``solvers.py`` times as ``solve``: loading the parsed formula and solving it
(cdcl's own model check included; cdclkit's model read out).

The table gives each solver's total and median instructions per formula,
its conflicts (which must stay the same for a change that should not touch
the search) and, with ``--peer cdclkit``, the peer's median over cdcl's median
on the same formulas: the ratio ``solvers.py`` reports from CPU times, here
free of the machine's noise. Compare two trees by running the script from
each (``PYTHONPATH``).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/instructions.py [--sets random100 top2365]
    PYTHONPATH=. ~/benchvenv/bin/python benchmarks/instructions.py --peer cdclkit \\
        --sets random50 random100 random150

Callgrind runs Python many times slower than usual, cdclkit slower still
than cdcl. Prints a table and writes
``benchmarks/results/instructions.csv`` (one row per set and solver) and
``benchmarks/results/instructions-per-formula.csv`` (or into the folder
``SUDOSAT_BENCH_RESULTS`` names). The set ``course`` is the 9×9 lines of
``data/instances.txt`` in the course encoding. Needs ``valgrind``
(Debian package ``valgrind``); the Sudoku sets need the public data folder
(``SUDOSAT_SHARED_DATA``); the peer needs ``cdclkit`` installed (see
``solvers.py``).
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import solvers as bench
from sudosat.sat.cnf import parse_dimacs

ROOT = Path(__file__).resolve().parent.parent
RESULTS = bench.RESULTS
#: set name -> (the set of benchmarks/solvers.py, how many of its instances are solved)
SETS = {
    "random50": ("random50", None),
    "random100": ("random100", None),
    "random150": ("random150", None),
    "top2365": ("top2365-200", 100),
    "damnhard": ("damnhard", None),
    "course": ("course", None),
}
#: The C function callgrind dumps its counters before: ``os.getppid``'s, which nothing
#: else in the child calls.
MARKER = "os_getppid"


def formulas(name: str) -> list:
    """The set's formulas: those of benchmarks/solvers.py's set (the first `count` of them)."""
    source, count = SETS[name]
    if source == "course":  # the 9x9 lines of data/instances.txt (see cdcl_ab.py's set)
        from benchmarks.cdcl_ab import course_set

        return [parse_dimacs(instance.text) for instance in course_set(order=3)]
    (instances,) = bench.instance_sets(False, (source,))
    return [parse_dimacs(instance.text) for instance in instances[:count]]


def _solve_cdcl(cnf) -> int:
    """Load and solve `cnf` with cdcl as solvers.py times it; return the conflicts."""
    from sudosat.sat.solvers import cdcl

    return int(cdcl.solve(cnf).stats["conflicts"])


def _solve_cdclkit(formula) -> int:
    """Load and solve a cdclkit formula as solvers.py times it; return the conflicts."""
    import cdclkit

    solver = cdclkit.Solver(formula.nvars)
    if solver.add_cnf(formula) and solver.solve():
        solver.model_dimacs()
    return int(solver.stats.conflicts)


def child(name: str, solver: str) -> None:
    """Build the set, warm up, then solve each formula between two marker calls.

    Prints the conflicts of the formulas, in order, on one line.
    """
    warmup = parse_dimacs(bench.warmup_text())  # the warm-up solvers.py's children run
    cnfs = formulas(name)
    if solver == "cdcl":
        solve, inputs = _solve_cdcl, cnfs
    else:
        import cdclkit

        solve = _solve_cdclkit
        warmup = cdclkit.parse_dimacs(warmup.to_dimacs())
        inputs = [cdclkit.parse_dimacs(cnf.to_dimacs()) for cnf in cnfs]  # parsed untimed
    solve(warmup)
    conflicts = []
    for formula in inputs:
        os.getppid()  # the marker: callgrind dumps what came before
        conflicts.append(solve(formula))
    os.getppid()
    print("conflicts", *conflicts)


def count(name: str, solver: str) -> tuple[list[int], list[int]]:
    """(instructions, conflicts) of each formula of set `name`, solved by `solver`."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                   f"--dump-before={MARKER}", sys.executable, __file__,
                   "--child", name, "--solver", solver]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        said = re.search(r"^conflicts((?: \d+)*)$", done.stdout, re.MULTILINE)
        if done.returncode or said is None:
            raise SystemExit(f"{solver} on {name} under callgrind failed: {done.stderr[-400:]}")
        conflicts = [int(word) for word in said.group(1).split()]
        # Dump k (k >= 1) holds what ran before the k-th marker call: dump 1 the set-up,
        # dumps 2 .. n + 1 the n formulas; the last file (no suffix) the exit.
        instructions = [_total(Path(f"{out}.{k}")) for k in range(2, len(conflicts) + 2)]
    return instructions, conflicts


def _total(dump: Path) -> int:
    found = re.search(r"^totals: (\d+)", dump.read_text(), re.MULTILINE)
    if found is None:
        raise SystemExit(f"no totals line in {dump}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", choices=sorted(SETS), default=["random100"])
    parser.add_argument("--peer", choices=["cdclkit"],
                        help="count this pure-Python solver too, and the median ratio")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--solver", default="cdcl", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.solver)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian package valgrind)")
    solvers = ["cdcl"] + ([args.peer] if args.peer else [])
    rows, per_formula = [], []
    print(f"{'set':10} {'solver':8} {'formulas':>8} {'M instr':>9} {'median M':>9} "
          f"{'conflicts':>10} {'x median':>9}")
    for name in args.sets:
        medians = {}
        for solver in solvers:
            instructions, conflicts = count(name, solver)
            medians[solver] = statistics.median(instructions)
            ratio = medians[solver] / medians["cdcl"]
            row = {"set": name, "solver": solver, "formulas": len(instructions),
                   "instructions_m": round(sum(instructions) / 1e6),
                   "median_m": round(medians[solver] / 1e6, 3),
                   "conflicts": sum(conflicts), "ratio_median": round(ratio, 3)}
            rows.append(row)
            per_formula.extend(
                {"set": name, "solver": solver, "formula": index, "instructions": spent,
                 "conflicts": conflicts[index]}
                for index, spent in enumerate(instructions))
            print(f"{name:10} {solver:8} {row['formulas']:>8} {row['instructions_m']:>9} "
                  f"{row['median_m']:>9.2f} {row['conflicts']:>10} {ratio:>9.2f}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    _write(RESULTS / "instructions.csv", rows)
    _write(RESULTS / "instructions-per-formula.csv", per_formula)
    print("x median: the solver's median instructions per formula over cdcl's "
          "(above 1: cdcl does less work)")
    print(f"rows: {RESULTS / 'instructions.csv'}, {RESULTS / 'instructions-per-formula.csv'}")


def _write(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
