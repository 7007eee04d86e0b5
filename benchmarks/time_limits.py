"""How late the pipeline answers past its time limit T, on Sudoku too large to finish in T.

For each order and each T, one generated board (30 % givens, seeded by the
order) goes through ``solve_instance`` (encode, solve, decode, T bounding the
whole pipeline) with each solver named, and the wall time from the call to
its answer is compared with T. Orders 6 and 7 take seconds to encode and
load, so the limit falls in every stage: the encoding (deadline checked per
at-most-one group), the solver's loading and its first call's preparation
(checked between runs of clauses and between steps), or the search.

Prints a table (per solver and order: the answers, the median and the
largest lateness, and the stage where T ran out) and writes one CSV row per
run to ``benchmarks/results/time_limits.csv``.

With ``--free-ratio`` it measures instead what the solvers' freeing reserve
rests on (:data:`sudosat.sat.solvers.budget.FREE_FRACTION_OF_LOAD`): how long
dpll takes to free its engine, and local search its own lists, against how
long building them took, per order; one CSV row per run to
``benchmarks/results/free_ratio.csv``.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/time_limits.py                  # ~1 min
    PYTHONPATH=. .venv/bin/python benchmarks/time_limits.py --orders 5 6 --solvers cdcl dpll
    PYTHONPATH=. .venv/bin/python benchmarks/time_limits.py --free-ratio --orders 5 6
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from benchmarks.pipeline import RESULTS, write_csv
from sudosat.run.generate import generate
from sudosat.run.pipeline import solve_instance
from sudosat.sat.solvers.registry import get_solver

LIMITS_MS = (250, 500, 1000, 1500, 2000, 2500, 3000, 3500)


def stage_of(row) -> str:
    """Where T ran out, read from the row's stage times."""
    if row.solve_ms is None:
        return "encode"
    if row.load_ms is not None and row.search_ms in (None, 0.0):
        return "load"
    return "solve"


def run(orders: list[int], solvers: list[str], limits: list[float]) -> list[dict]:
    # run_instance imports the solver's module before its clock starts (T is for solving),
    # and this script's wall clock starts before the call: an import on the first call
    # (about 18 ms for cdcl) would read as lateness past T. Import every solver first.
    for solver in solvers:
        get_solver(solver)
    rows = []
    for order in orders:
        board = generate(order, 0.3, seed=order)
        for solver in solvers:
            for limit in limits:
                started = time.perf_counter()
                outcome = solve_instance(board, solver, "course", time_limit_ms=limit)
                wall_ms = (time.perf_counter() - started) * 1000.0
                row = outcome.row
                rows.append({
                    "order": order, "solver": solver, "limit_ms": limit,
                    "status": row.status.value, "stage": stage_of(row),
                    "wall_ms": round(wall_ms, 1), "late_ms": round(wall_ms - limit, 1),
                    "encode_ms": row.encode_ms, "solve_ms": row.solve_ms,
                })
                print(f"order {order} {solver:8s} T {limit:6.0f} ms: {row.status.value:8s} "
                      f"after {wall_ms:7.1f} ms ({rows[-1]['stage']})", flush=True)
    return rows


def free_ratio(orders: list[int], repeat: int = 2) -> list[dict]:
    """Seconds to free what dpll and local search build, against seconds to build it."""
    import gc

    from sudosat.sat.solvers import dpll, local
    from sudosat.sat.solvers.budget import Deadline
    from sudosat.sudoku.encoding import encode

    rows = []
    for order in orders:
        cnf = encode(generate(order, 0.3, seed=order), "course").cnf
        for run_number in range(repeat):
            gc.disable()  # as inside the solvers: no collector pass in either figure
            try:
                began = time.monotonic()
                engine = dpll._Engine(cnf, "moms", Deadline(None), 0)
                built = time.monotonic()
                del engine
                freed = time.monotonic()
                reduced = dpll.simplify(cnf)
                assert reduced is not None
                simplified = time.monotonic()
                coded, names = local._compact(reduced.clauses)
                state = local._State(coded, len(names), False)
                listed = time.monotonic()
                del reduced, coded, names, state
                dropped = time.monotonic()
            finally:
                gc.enable()
            for solver, load_s, free_s in (("dpll", built - began, freed - built),
                                           # local search prices its reserve from the
                                           # simplification, what it has measured by then
                                           ("walksat", simplified - freed, dropped - listed)):
                rows.append({"order": order, "solver": solver, "run": run_number + 1,
                             "load_ms": round(load_s * 1000, 1),
                             "free_ms": round(free_s * 1000, 1),
                             "ratio": round(free_s / load_s, 3)})
                print(f"order {order} {solver:8s} load {load_s * 1000:8.1f} ms, free "
                      f"{free_s * 1000:7.1f} ms: {free_s / load_s:.3f}", flush=True)
    return rows


def summary(rows: list[dict]) -> None:
    print(f"\n{'solver':10s} {'order':>5s} {'runs':>5s} {'timeouts':>8s} "
          f"{'median late ms':>15s} {'most late ms':>13s}  stages")
    keys = sorted({(row["solver"], row["order"]) for row in rows})
    for solver, order in keys:
        mine = [row for row in rows if row["solver"] == solver and row["order"] == order]
        ran = [row["late_ms"] for row in mine]
        late = (f"{statistics.median(ran):15.1f} {max(ran):13.1f}" if ran
                else f"{'-':>15s} {'-':>13s}")
        stages = sorted({row["stage"] for row in mine})
        timeouts = sum(row["status"] == "TIMEOUT" for row in mine)
        print(f"{solver:10s} {order:5d} {len(mine):5d} {timeouts:8d} {late}  {', '.join(stages)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", type=int, nargs="+", default=[6, 7])
    parser.add_argument("--solvers", nargs="+", default=["cdcl"])
    parser.add_argument("--limits", type=float, nargs="+", default=list(LIMITS_MS),
                        help="the time limits T in ms")
    parser.add_argument("--csv", type=Path, help="default results/time_limits.csv "
                        "(results/free_ratio.csv with --free-ratio)")
    parser.add_argument("--free-ratio", action="store_true",
                        help="measure freeing against loading instead of lateness")
    args = parser.parse_args(argv)
    if args.free_ratio:
        csv = args.csv or RESULTS / "free_ratio.csv"
        write_csv(csv, free_ratio(args.orders))
        print(f"rows: {csv}")
        return
    args.csv = args.csv or RESULTS / "time_limits.csv"
    rows = run(args.orders, args.solvers, args.limits)
    summary(rows)
    write_csv(args.csv, rows)
    print(f"rows: {args.csv}")


if __name__ == "__main__":
    main()
