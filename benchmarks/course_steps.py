"""Where cdcl's CPU time goes on the course's instance file, step by step.

Each line of ``data/instances.txt`` is encoded with the course encoding and
solved the way the one-shot ``cdcl.solve`` does it, by the engine's own
steps, each timed alone on CPU time (``time.process_time``), the least of
``--repeat`` rounds per line and step:

* ``load``: the clauses into a fresh engine (the one-shot run cache warm);
* ``propagate0``: propagating the givens at level 0;
* ``simplify``: the level-0 simplification (satisfied clauses out, false
  literals stripped, satisfied binary clauses pruned);
* ``scores``: the first activities (Jeroslow-Wang products) and the heap;
* ``search``: the restart loop itself, up to the answer and its model;
* ``free``: dropping the engine;

and beside them, for scale, ``cnf_from_lists``: building the same formula's
``CNF`` from its clauses as Python lists (what a caller holding lists pays
before any solver sees them).

The first four after loading are what the result's ``search_cpu_ms`` calls
the search's start; ``search`` is the rest of it. Conflicts and propagations
are the search's own. A line answered UNSAT at level 0 has no search step.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/course_steps.py --repeat 5

Prints the median of each step over the 9x9 lines and over all lines, with
the machine's load; writes ``course_steps.csv`` (``--csv``, one row per line).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

from benchmarks.pipeline import write_csv
from benchmarks.solvers import RESULTS, ROOT

STEPS = ("load", "propagate0", "simplify", "scores", "search", "free", "cnf_from_lists")


def time_cnf_from_lists(cnf) -> float:
    """CPU ms of ``CNF(lists)`` on `cnf`'s clauses as lists (made untimed)."""
    from sudosat.sat.cnf import CNF

    lists = [list(clause) for clause in cnf]
    began = time.process_time()
    CNF(lists, cnf.num_vars)
    return (time.process_time() - began) * 1000.0


def time_steps(cnf) -> dict[str, float]:
    """CPU ms of each step of one one-shot solve of `cnf` (the steps of ``prepare_first_call``
    taken one by one, then ``solve``)."""
    from sudosat.sat.solvers.budget import settings_from
    from sudosat.sat.solvers.cdcl import TUNABLES
    from sudosat.sat.solvers.cdcl.engine import Engine
    from sudosat.sat.solvers.cdcl.one_shot import ONE_SHOT_RUNS

    clock = time.process_time
    spent: dict[str, float] = {}
    began = clock()
    engine = Engine(0, settings_from("cdcl", TUNABLES, {}), 0, False)
    engine.runs = ONE_SHOT_RUNS
    engine.grow(cnf.num_vars)
    engine.load(cnf.flat)
    marks = [("load", clock())]
    if engine.ok and engine.propagate() is None:
        marks.append(("propagate0", clock()))
        engine.simplify()
        marks.append(("simplify", clock()))
        engine.init_heap()
        engine.first_phase = list(engine.phase)
        engine.started = True
        marks.append(("scores", clock()))
        engine.solve([])
        engine.model()
        marks.append(("search", clock()))
    del engine
    marks.append(("free", clock()))
    for name, at in marks:
        spent[name] = (at - began) * 1000.0
        began = at
    return spent


def main(argv: list[str] | None = None) -> int:
    from sudosat.report.io import read_instances
    from sudosat.sat.solvers.cdcl import solve
    from sudosat.sudoku.encoding import encode

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds; the least time counts")
    parser.add_argument("--instances", type=Path, default=ROOT / "data" / "instances.txt")
    parser.add_argument("--csv", type=Path, default=RESULTS / "course_steps.csv")
    args = parser.parse_args(argv)
    boards = read_instances(args.instances)
    formulas = {line: encode(board, "course").cnf for line, board in boards.items()}
    for cnf in formulas.values():  # warm: the run cache holds the rules, as in a pipeline
        solve(cnf)
    load_before = os.getloadavg()[0]
    best: dict[int, dict[str, float]] = {}
    for _ in range(max(1, args.repeat)):
        for line, cnf in formulas.items():
            gc.collect()
            gc.disable()
            try:
                spent = time_steps(cnf)
                spent["cnf_from_lists"] = time_cnf_from_lists(cnf)
            finally:
                gc.enable()
            row = best.setdefault(line, {})
            for name, ms in spent.items():
                row[name] = min(row.get(name, float("inf")), ms)
    rows = []
    for line, cnf in formulas.items():
        result = solve(cnf)
        rows.append({"line": line, "order": boards[line].order, "status": result.status.value,
                     "conflicts": result.stats["conflicts"],
                     "propagations": result.stats["propagations"],
                     **{f"{name}_cpu_ms": round(best[line].get(name, 0.0), 4)
                        for name in STEPS}})
    write_csv(args.csv, rows)
    for label, chosen in (("9x9 lines", [r for r in rows if r["order"] == 3]), ("all lines", rows)):
        medians = "  ".join(f"{name} {statistics.median(r[f'{name}_cpu_ms'] for r in chosen):.3f}"
                            for name in STEPS)
        start = statistics.median(r["propagate0_cpu_ms"] + r["simplify_cpu_ms"]
                                  + r["scores_cpu_ms"] for r in chosen)
        print(f"{label} ({len(chosen)}), median CPU ms: {medians}; start of the search "
              f"{start:.3f}; median conflicts {statistics.median(r['conflicts'] for r in chosen)}")
    print(f"load average (1 min) {load_before:.2f} at the start, {os.getloadavg()[0]:.2f} at the "
          f"end; rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
