"""Benchmark the encodings: build time, size and peak memory against the order N.

Prints two tables and writes one CSV (one row per measurement):

1. targets: building the course encoding at order 3 (under 10 ms; from the
   rules cache, under 0.5 ms) and order 6
   (46,656 variables, 3.3 M clauses: under 5 s and 1.5 GB), and writing and
   reading that order-6 CNF as DIMACS (``CNF.to_dimacs`` / ``parse_dimacs``,
   under 5 s each);
2. every registered encoding against N, on an empty board and on a puzzle
   with a fraction ``--alpha`` of givens: variables, clauses, literals,
   build time (every clause built: ``encode(..., cache=False)``) and peak
   memory. Encodings larger than ``--max-build-clauses``
   are sized by ``estimate`` only (``build_ms`` left empty).

Each measurement runs in a fresh forked process: its time is the median CPU
time (``time.process_time``, less noisy than wall time on a shared machine)
over ``--repeat`` builds, and its memory the growth of the process's peak
resident size (``resource.getrusage``) during the first build.

Usage::

    .venv/bin/python benchmarks/encoding.py                      # full run, a few minutes
    .venv/bin/python benchmarks/encoding.py --orders 1 2 3 4 --skip-targets   # quick look
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Where the CSVs go: `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/, so that a
# rerun leaves the committed runs (which the READMEs quote) as they are.
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")

from sudosat.run.generate import generate  # noqa: E402
from sudosat.sat.cnf import parse_dimacs  # noqa: E402
from sudosat.sudoku.board import COURSE_EXAMPLE, Board  # noqa: E402
from sudosat.sudoku.encoding import ENCODINGS, encode, estimate  # noqa: E402

FIELDS = ["section", "encoding", "order", "board", "givens", "variables", "clauses", "literals",
          "estimated_mb", "build_ms", "peak_mb", "target", "ok"]


def _peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def _child(job: Callable[[], object], repeat: int, queue: multiprocessing.Queue) -> None:
    """Run `job` `repeat` times; send (median CPU seconds, peak growth in bytes of run 1)."""
    times = []
    before = _peak_rss_bytes()
    for run in range(repeat):
        start = time.process_time()
        result = job()
        times.append(time.process_time() - start)
        if run == 0:
            growth = _peak_rss_bytes() - before
        del result
    queue.put((statistics.median(times), growth))


def measure(job: Callable[[], object], repeat: int) -> tuple[float, int]:
    """Median CPU seconds and peak memory growth of `job`, in a fresh process."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_child, args=(job, repeat, queue))
    process.start()
    seconds, growth = queue.get()
    process.join()
    return seconds, growth


def target_rows(repeat: int) -> list[dict]:
    """The issue's speed targets for the course encoding and DIMACS I/O."""
    rows = []
    example = Board.parse(COURSE_EXAMPLE)
    seconds, growth = measure(lambda: encode(example, "course", cache=False), max(repeat, 50))
    rows.append(_target("build course, order 3 (course example)", example, "course",
                        seconds, growth, "< 10 ms", seconds < 0.010))
    encode(example, "course")  # the rules, cached in this process (and in its forks)
    seconds, growth = measure(lambda: encode(example, "course"), max(repeat, 50))
    rows.append(_target("the same from the cached rules (copy + givens)", example, "course",
                        seconds, growth, "< 0.5 ms", seconds < 0.0005))
    empty6 = Board.empty(6)
    seconds, growth = measure(lambda: encode(empty6, "course", cache=False), repeat)
    rows.append(_target("build course, order 6 (empty)", empty6, "course", seconds, growth,
                        "< 5 s, < 1.5 GB", seconds < 5 and growth < 1.5e9))
    cnf = encode(empty6, "course").cnf
    seconds, growth = measure(cnf.to_dimacs, repeat)
    rows.append(_target("write order-6 course CNF as DIMACS (to_dimacs)", empty6, "course",
                        seconds, growth, "< 5 s", seconds < 5))
    text = cnf.to_dimacs()
    seconds, growth = measure(lambda: parse_dimacs(text), repeat)
    rows.append(_target("read it back (parse_dimacs)", empty6, "course", seconds, growth,
                        "< 5 s", seconds < 5))
    return rows


def _target(what: str, board: Board, encoding: str, seconds: float, growth: int,
            target: str, ok: bool) -> dict:
    size = estimate(board, encoding)
    return {"section": what, "encoding": encoding, "order": board.order, "board": "",
            "givens": board.num_givens, "variables": size["variables"],
            "clauses": size["clauses"], "literals": size["literals"],
            "estimated_mb": round(size["bytes"] / 1e6, 1), "build_ms": round(seconds * 1000, 2),
            "peak_mb": round(growth / 1e6, 1), "target": target, "ok": ok}


def scaling_rows(orders: list[int], alpha: float, repeat: int, max_build: int) -> list[dict]:
    """Every encoding x order x {empty board, puzzle}: size, build time, peak memory."""
    rows = []
    for order in orders:
        boards = {"empty": Board.empty(order),
                  f"alpha={alpha:g}": generate(order, alpha, seed=order, base="pattern")}
        for label, board in boards.items():
            for name in ENCODINGS:
                size = estimate(board, name)
                row = {"section": "scaling", "encoding": name, "order": order, "board": label,
                       "givens": board.num_givens, "variables": size["variables"],
                       "clauses": size["clauses"], "literals": size["literals"],
                       "estimated_mb": round(size["bytes"] / 1e6, 1), "build_ms": "",
                       "peak_mb": "", "target": "", "ok": ""}
                if size["clauses"] <= max_build:
                    runs = repeat if size["clauses"] < 10**6 else 1
                    seconds, growth = measure(
                        lambda b=board, n=name: encode(b, n, cache=False), runs
                    )
                    row["build_ms"] = round(seconds * 1000, 2)
                    row["peak_mb"] = round(growth / 1e6, 1)
                rows.append(row)
                print(_format(row, _SCALING_COLUMNS), flush=True)
    return rows


_TARGET_COLUMNS = [("section", 48), ("clauses", 10), ("build_ms", 10), ("peak_mb", 8),
                   ("target", 16), ("ok", 5)]
_SCALING_COLUMNS = [("encoding", 18), ("order", 5), ("board", 10), ("givens", 6),
                    ("variables", 11), ("clauses", 11), ("literals", 11), ("build_ms", 10),
                    ("peak_mb", 8), ("estimated_mb", 12)]


def _format(row: dict, columns: list[tuple[str, int]]) -> str:
    cells = []
    for key, width in columns:
        value = row[key]
        number = isinstance(value, int) and not isinstance(value, bool)
        text = f"{value:,}" if number else str(value)
        cells.append(text.ljust(width) if key in ("section", "encoding", "board", "target")
                     else text.rjust(width))
    return "  ".join(cells)


def _header(columns: list[tuple[str, int]]) -> str:
    return "  ".join(key.ljust(width) for key, width in columns)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", type=int, nargs="+", default=list(range(1, 9)))
    parser.add_argument("--alpha", type=float, default=0.4, help="fill fraction of the puzzles")
    parser.add_argument("--repeat", type=int, default=5, help="builds per measurement (median)")
    parser.add_argument("--max-build-clauses", type=int, default=4_000_000,
                        help="larger encodings are sized by estimate() only")
    parser.add_argument("--skip-targets", action="store_true", help="skip the order-6 targets")
    parser.add_argument("--csv", type=Path,
                        default=RESULTS / "encoding.csv")
    args = parser.parse_args(argv)
    rows = []
    if not args.skip_targets:
        print("targets (median CPU time; peak = growth of the peak resident size)")
        print(_header(_TARGET_COLUMNS))
        for row in target_rows(args.repeat):
            rows.append(row)
            print(_format(row, _TARGET_COLUMNS), flush=True)
        print()
    print("size and build time against N")
    print(_header(_SCALING_COLUMNS))
    rows += scaling_rows(args.orders, args.alpha, args.repeat, args.max_build_clauses)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with args.csv.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"\nwrote {args.csv}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
