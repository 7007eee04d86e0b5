"""How long freeing a loaded cdcl solver takes, next to how long loading it took.

A one-shot ``cdcl.solve`` frees its tables before its answer returns, so it
stops that much before T; the reserve is a share of the time the call's own
loading took (``FREE_SHARE`` in ``sudosat/sat/solvers/cdcl/state.py``). This
measures the ratio free / load on Sudoku course encodings of several orders,
loaded cold (no run cache) and warm (the one-shot run cache already holding
the rules, which makes loading cheaper and the ratio larger).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/cdcl_free.py --orders 3 4 5 6 --repeat 3

Writes ``benchmarks/results/cdcl_free.csv`` (one row per load).
"""

from __future__ import annotations

import argparse
import csv
import gc
import sys
import time
from pathlib import Path

from benchmarks.solvers import RESULTS
from sudosat.run.generate import generate
from sudosat.sat.solvers.cdcl import RunCache, Solver
from sudosat.sudoku.encoding import encode


def load_and_free(cnf, cache: RunCache | None) -> tuple[float, float]:
    """Seconds to load `cnf` into a fresh solver, and to free that solver."""
    solver = Solver()
    solver._live_engine().runs = cache
    started = time.perf_counter()
    solver._append(cnf, adopt=True)
    loaded = time.perf_counter()
    del solver
    return loaded - started, time.perf_counter() - loaded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--csv", type=Path, default=RESULTS / "cdcl_free.csv")
    args = parser.parse_args(argv)
    rows = []
    gc.disable()  # as inside cdcl.solve (collector_paused)
    for order in args.orders:
        cnf = encode(generate(order, 0.3, seed=order), "course").cnf
        cache = RunCache()
        for mode in ("cold", "warm"):
            if mode == "warm":  # a run is grouped the second time it is seen, used the third
                load_and_free(cnf, cache)
                load_and_free(cnf, cache)
            for rep in range(args.repeat):
                load_s, free_s = load_and_free(cnf, cache if mode == "warm" else None)
                rows.append({"order": order, "mode": mode, "rep": rep, "entries": len(cnf.flat),
                             "load_ms": round(load_s * 1000, 3), "free_ms": round(free_s * 1000, 3),
                             "free_over_load": round(free_s / load_s, 4)})
                print(rows[-1], flush=True)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with args.csv.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"largest free/load: {max(r['free_over_load'] for r in rows)}; rows in {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
