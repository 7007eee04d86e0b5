"""Building our `CNF` from clause lists, against PySAT handing the same lists to MiniSat.

A user with clauses as Python lists (PySAT's habit) either builds our formula
from them, ``CNF(lists)``, or hands them to PySAT's MiniSat,
``Minisat22(bootstrap_with=lists)``; the second is the yardstick of what a
hand-over of lists can cost. Per formula, in one process, the modes take
turns ``--repeat`` times (interleaved, so a busy machine slows them alike)
and the median CPU time (``time.process_time``) of each counts; a solver or
formula is freed outside the timed window. Modes:

* ``cnf``: ``CNF(lists)``, clauses as lists;
* ``cnf-tuples``: ``CNF(tuples)``, clauses as tuples (what ``cnf.clauses`` gives);
* ``per-clause``: ``add_clause`` for each clause, the way the constructor
  worked before its bulk path (kept as the reference the bulk path is
  tested against);
* ``minisat22``: ``pysat.solvers.Minisat22(bootstrap_with=lists)``.

Formulas: the course encodings of the first ``--boards`` (5) order-3 lines of
``data/instances.txt``, and the order-4 course encoding of a board with 40 % of
its cells given (``generate(4, 0.4, seed=1)``).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/cnf_handover.py
    PYTHONPATH=. .venv/bin/python benchmarks/cnf_handover.py --boards 1 --repeat 50

Prints per formula the medians and ``cnf`` over ``minisat22`` (at most 1: our
constructor is no slower than the hand-over), then the median of those ratios
over the 9×9 formulas. Writes ``cnf_handover.csv`` (``--csv``), one row per
formula and mode.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.pipeline import write_csv
from sudosat.sat.cnf import CNF

ROOT = Path(__file__).resolve().parent.parent
# `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/, so a rerun leaves the committed
# runs (which the documentation quotes) as they are.
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")
MODES = ("cnf", "cnf-tuples", "per-clause", "minisat22")


def formulas(boards: int) -> list[tuple[str, list[list[int]]]]:
    """(name, clauses as lists) for the benchmark's formulas."""
    from sudosat.run.generate import generate
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.encoding import encode

    lines = [line for line in (ROOT / "data" / "instances.txt").read_text().splitlines()
             if line.startswith("3 ")]
    named = []
    for number, line in enumerate(lines[:boards], start=1):
        named.append((f"9x9 course #{number}", list(encode(Board.parse(line), "course").cnf)))
    named.append(("16x16 course", list(encode(generate(4, 0.4, seed=1), "course").cnf)))
    return named


def builders(lists: list[list[int]]) -> dict[str, Callable[[], object]]:
    """Each mode's build from the same clauses; what it returns is freed untimed."""
    from pysat.solvers import Minisat22

    tuples = [tuple(clause) for clause in lists]

    def one_by_one() -> CNF:
        cnf = CNF()
        for clause in lists:
            cnf.add_clause(clause)
        return cnf

    return {
        "cnf": lambda: CNF(lists),
        "cnf-tuples": lambda: CNF(tuples),
        "per-clause": one_by_one,
        "minisat22": lambda: Minisat22(bootstrap_with=lists),
    }


def measure(lists: list[list[int]], repeat: int) -> dict[str, list[float]]:
    """CPU seconds of every mode, `repeat` rounds, the modes in turn within a round."""
    build = builders(lists)
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    gc.collect()
    for _ in range(repeat):
        for mode in MODES:
            started = time.process_time()
            made = build[mode]()
            times[mode].append(time.process_time() - started)
            if mode == "minisat22":
                made.delete()  # type: ignore[attr-defined]
            del made
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=5, help="9x9 lines of data/instances.txt")
    parser.add_argument("--repeat", type=int, default=200, help="rounds per formula")
    parser.add_argument("--csv", type=Path, default=RESULTS / "cnf_handover.csv")
    args = parser.parse_args(argv)
    rows, ratios = [], []
    print(f"{'formula':<16}{'clauses':>8}" + "".join(f"{mode:>12}" for mode in MODES)
          + f"{'cnf/m22':>9}   (median CPU ms of {args.repeat})")
    for name, lists in formulas(args.boards):
        times = measure(lists, args.repeat)
        median = {mode: statistics.median(times[mode]) * 1000 for mode in MODES}
        ratio = median["cnf"] / median["minisat22"]
        if name.startswith("9x9"):
            ratios.append(ratio)
        literals = sum(map(len, lists))
        for mode in MODES:
            rows.append({"formula": name, "clauses": len(lists), "literals": literals,
                         "mode": mode, "repeat": args.repeat,
                         "median_ms": round(median[mode], 6),
                         "min_ms": round(min(times[mode]) * 1000, 6)})
        print(f"{name:<16}{len(lists):>8}" + "".join(f"{median[m]:>12.3f}" for m in MODES)
              + f"{ratio:>9.2f}")
    if ratios:
        print(f"median over the 9x9 formulas of cnf / minisat22: {statistics.median(ratios):.2f}")
    write_csv(args.csv, rows)
    print(f"load average (1 min) {os.getloadavg()[0]:.2f}; rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
