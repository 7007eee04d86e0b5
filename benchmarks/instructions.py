"""Instructions cdcl executes on the sets of ``benchmarks/solvers.py``, counted by callgrind.

A shared, busy machine moves CPU times by a tenth or more between runs;
instruction counts do not move. For each set this runs the solver twice
under ``valgrind --tool=callgrind`` (the set solved, and the same process
stopping before the first solve) and prints the difference, with the
conflicts, which must stay the same for a change that should not touch the
search. Compare two trees by running the script from each (``PYTHONPATH``).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/instructions.py [--sets random100 top2365]

About a minute a set (callgrind runs Python some 50 times slower). Prints a
table and writes ``benchmarks/results/instructions.csv``. Needs ``valgrind``
(Debian package ``valgrind``); the Sudoku sets need the public data folder
(``SUDOSAT_SHARED_DATA``).
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
#: set name -> (kind, size or file, count, seed), as in benchmarks/solvers.py
SETS = {
    "random50": ("random", 50, 100, 50),
    "random100": ("random", 100, 60, 100),
    "random150": ("random", 150, 30, 150),
    "top2365": ("sudoku", "top2365.sdk.txt", 100, 2365),
    "damnhard": ("sudoku", "damnhard.sdk.txt", None, 1),
}


def formulas(name: str) -> list:
    """The set's formulas, built as benchmarks/solvers.py builds them."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import solvers as bench

    from sudosat.cnf import parse_dimacs

    kind, what, count, seed = SETS[name]
    if kind == "random":
        rng = random.Random(seed)
        return [bench.random_3sat(what, 4.26, rng) for _ in range(count)]
    sample = 200 if count else None  # solvers.py's sample; the first `count` are solved
    chosen = bench._sudoku_set(name, what, sample, seed)[:count]
    return [parse_dimacs(instance.text) for instance in chosen]


def child(name: str, solve: bool) -> None:
    """Build the set, warm up as solvers.py does, then solve it (or not); print conflicts."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import solvers as bench

    from sudosat.solvers.cdcl import Solver

    cnfs = formulas(name)
    with Solver(bench.random_3sat(20, 4.26, random.Random(20))) as warm:
        warm.solve()
    conflicts = 0
    for cnf in cnfs if solve else ():
        with Solver(cnf) as solver:
            solver.solve()
            conflicts += int(solver.stats()["conflicts"])
    print(f"conflicts {conflicts}")


def count(name: str, solve: bool) -> tuple[int, int]:
    """(instructions, conflicts) of one child under callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--child", name]
    if not solve:
        command.append("--setup-only")
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    instructions = re.search(r"Collected : (\d+)", done.stderr)
    conflicts = re.search(r"conflicts (\d+)", done.stdout)
    if instructions is None or conflicts is None:
        raise SystemExit(f"callgrind said nothing countable for {name}: {done.stderr[-300:]}")
    return int(instructions.group(1)), int(conflicts.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", choices=sorted(SETS), default=["random100"])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--setup-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, not args.setup_only)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian package valgrind)")
    rows = []
    print(f"{'set':10} {'formulas':>8} {'M instructions':>15} {'conflicts':>10}")
    for name in args.sets:
        solved, conflicts = count(name, True)
        setup, _ = count(name, False)
        millions = (solved - setup) / 1e6
        size = SETS[name][2] or "all"
        print(f"{name:10} {size:>8} {millions:>15.0f} {conflicts:>10}")
        rows.append({"set": name, "formulas": size, "instructions_m": round(millions),
                     "conflicts": conflicts})
    RESULTS.mkdir(parents=True, exist_ok=True)
    with open(RESULTS / "instructions.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, ["set", "formulas", "instructions_m", "conflicts"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"rows: {RESULTS / 'instructions.csv'}")


if __name__ == "__main__":
    main()
