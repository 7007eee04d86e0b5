"""The incremental mode's rescoring threshold (``rescore_conflicts``) on puzzles not tuned on.

``sudosat solve --incremental`` keeps one cdcl solver per process and asks it
one puzzle after another, the givens as assumptions. Before a puzzle's first
free decision the solver ranks the variables anew (Jeroslow-Wang products of
what the givens leave) when the calls so far averaged at least
``rescore_conflicts`` conflicts (default 16). That default was chosen on every
10th line of ``top2365.sdk.txt`` (lines 1, 11, 21, ...). This script runs the
incremental pipeline (:func:`sudosat.run.pipeline.solve_instance` with
``incremental=True``) on each set in file order, for each threshold and
encoding, with a fresh solver per (threshold, encoding) pass, and reports per
set the median CPU time per puzzle and the total conflicts.

Sets: ``course`` (the order-3 lines of ``data/instances.txt``), ``top2365/10``
(the lines the default was chosen on), ``top2365/10+5`` (lines 6, 16, 26, ...:
none of them was looked at) and ``damnhard`` (``damnhard.sdk.txt``). The two
public files come from ``$SUDOSAT_SHARED_DATA``; a set whose file is absent is
skipped.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/rescore.py [--repeat 2] [--thresholds 0 8 16 32 inf]

Each pass runs ``--repeat`` times from a fresh solver (a puzzle's least CPU
time counts; the conflicts are the same each time; SAT or UNSAT must not
depend on the setting). Prints a table and writes
``benchmarks/results/rescore.csv`` (its rows, one per set, encoding and
threshold).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path

from benchmarks.incremental import RESULTS, _shared_data
from benchmarks.pipeline import write_csv
from sudosat.run.pipeline import solve_instance
from sudosat.sudoku.board import Board
from sudosat.sudoku.incremental import forget_loaded

ROOT = Path(__file__).resolve().parent.parent
ENCODINGS = ("course", "extended")
NEVER = 1e9  # the tunable's upper bound: no call ever averages that many conflicts


def puzzle_sets() -> dict[str, list[Board]]:
    """Set name -> its 9x9 boards, in file order."""
    text = (ROOT / "data" / "instances.txt").read_text()
    sets = {"course": [Board.parse(line) for line in text.split("\n") if line.startswith("3 ")]}
    data = _shared_data()
    top = data / "top2365.sdk.txt"
    if top.exists():
        lines = [line for line in top.read_text().split("\n") if line.strip()]
        sets["top2365/10"] = [Board.parse(line) for line in lines[::10]]
        sets["top2365/10+5"] = [Board.parse(line) for line in lines[5::10]]
    hard = data / "damnhard.sdk.txt"
    if hard.exists():
        sets["damnhard"] = [Board.parse(line) for line in hard.read_text().split() if line]
    return sets


def one_pass(
    boards: list[Board], encoding: str, threshold: float
) -> tuple[list[float], list[int], list[str]]:
    """CPU ms, conflicts and answer of each board, solved in order by one fresh incremental solver.

    Raises SystemExit on a solution that does not check (the pipeline checks each one).
    """
    forget_loaded()
    times, conflicts, answers = [], [], []
    for board in boards:
        started = time.process_time()
        outcome = solve_instance(board, "cdcl", encoding, incremental=True,
                                 rescore_conflicts=threshold)
        times.append((time.process_time() - started) * 1000.0)
        row = outcome.row
        if row.status.value == "SAT" and not row.valid:
            raise SystemExit(f"{encoding}, threshold {threshold}: a solution that does not check")
        conflicts.append(row.conflicts or 0)
        answers.append(row.status.value)
    forget_loaded()
    return times, conflicts, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="passes per setting (least counts)")
    parser.add_argument("--thresholds", nargs="+", type=float, default=[0, 8, 16, 32, math.inf],
                        help="values of rescore_conflicts ('inf': never rescore)")
    parser.add_argument("--csv", type=Path, default=RESULTS / "rescore.csv")
    args = parser.parse_args()
    thresholds = [min(value, NEVER) for value in args.thresholds]
    rows = []
    print(f"{'set':13s} {'encoding':9s} {'threshold':>9s} {'puzzles':>7s} "
          f"{'median ms':>9s} {'total ms':>9s} {'conflicts':>9s}")
    for set_name, boards in puzzle_sets().items():
        first_answers = None
        for encoding in ENCODINGS:
            for threshold in thresholds:
                best: list[float] = [math.inf] * len(boards)
                for _ in range(max(1, args.repeat)):
                    times, conflicts, answers = one_pass(boards, encoding, threshold)
                    best = list(map(min, best, times))
                    first_answers = first_answers or answers
                    if answers != first_answers:  # SAT or UNSAT never depends on the setting
                        raise SystemExit(f"{set_name}: answers differ ({encoding}, {threshold})")
                label = "never" if threshold >= NEVER else f"{threshold:g}"
                row = {"set": set_name, "encoding": encoding, "threshold": label,
                       "puzzles": len(boards), "median_ms": round(statistics.median(best), 3),
                       "total_ms": round(sum(best), 1), "conflicts": sum(conflicts)}
                rows.append(row)
                print(f"{set_name:13s} {encoding:9s} {label:>9s} {len(boards):7d} "
                      f"{row['median_ms']:9.2f} {row['total_ms']:9.0f} {row['conflicts']:9d}",
                      flush=True)
    write_csv(args.csv, rows)
    print(f"rows: {args.csv}")


if __name__ == "__main__":
    main()
