"""WalkSAT (or GSAT) from the command line on hard 9x9 puzzles.

For each puzzle of an ``.sdk`` file (default: the 35 of ``damnhard.sdk.txt``)
it writes the course encoding to a temporary DIMACS file, runs exactly what a
user runs::

    sudosat sat --solver walksat -T 30000 puzzle.cnf -o puzzle.sol

in a child process, then decodes the answer and checks the board against the
puzzle (an unchecked SAT would count as a failure). Times: the child's wall
time and CPU time (``resource.getrusage`` of the children), so a busy shared
machine shows as wall >> CPU.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/local_search.py   # 35 puzzles, 30 s each at most
    PYTHONPATH=. .venv/bin/python benchmarks/local_search.py --limit 10 --solver gsat

It prints one line per puzzle and a summary (solved, median and worst times)
and writes one CSV row per puzzle to ``benchmarks/results/local_search.csv``
(or ``--csv``).
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudosat.sat.cnf import parse_solution
from sudosat.sat.result import Status
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import encode

ROOT = Path(__file__).resolve().parent.parent
# Public puzzle files (top2365.sdk.txt, damnhard.sdk.txt, 16x16.txt) are read from the folder
# SUDOSAT_SHARED_DATA names; unset, the path below does not exist and their sets are skipped,
# the message naming the variable to set.
DATA = Path(os.environ.get("SUDOSAT_SHARED_DATA") or "$SUDOSAT_SHARED_DATA")
# Where the CSVs go: `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/, so that a
# rerun leaves the committed runs (which the READMEs quote) as they are.
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")
FIELDS = ("line", "solver", "time_limit_ms", "status", "valid", "wall_ms", "cpu_ms", "seed")


def child_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(puzzle: Board, line: int, args: argparse.Namespace, work: Path) -> dict:
    """Encode, solve with the CLI in a child, decode and check one puzzle."""
    encoded = encode(puzzle, "course")
    cnf_path, sol_path = work / f"p{line}.cnf", work / f"p{line}.sol"
    encoded.cnf.write_dimacs(cnf_path)
    command = [
        sys.executable, "-m", "sudosat", "sat", "--solver", args.solver,
        "-T", str(args.time_limit), "--seed", str(args.seed + line), str(cnf_path),
        "-o", str(sol_path),
    ]
    cpu, wall = child_cpu_seconds(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall_ms = (time.perf_counter() - wall) * 1000
    cpu_ms = (child_cpu_seconds() - cpu) * 1000
    status, valid = "ERROR", False
    if done.returncode in (0, 10, 20) and sol_path.exists():
        solution = parse_solution(sol_path.read_text(), str(sol_path))
        status = str(solution.status)
        if solution.status is Status.SAT:
            valid = check_solution(puzzle, encoded.decode(solution.model)) is None
    elif done.stderr:
        print(f"  line {line}: {done.stderr.strip()}", file=sys.stderr)
    return {
        "line": line, "solver": args.solver, "time_limit_ms": args.time_limit,
        "status": status, "valid": valid, "wall_ms": round(wall_ms, 1),
        "cpu_ms": round(cpu_ms, 1), "seed": args.seed + line,
    }


def summary(rows: list[dict]) -> str:
    solved = [row for row in rows if row["status"] == "SAT" and row["valid"]]
    lines = [f"{len(solved)} of {len(rows)} solved (and checked); "
             f"{sum(row['status'] == 'UNKNOWN' for row in rows)} unknown at the limit"]
    if solved:
        wall = [row["wall_ms"] for row in solved]
        cpu = [row["cpu_ms"] for row in solved]
        lines.append(f"solved ones: median wall {statistics.median(wall) / 1000:.2f} s, "
                     f"median CPU {statistics.median(cpu) / 1000:.2f} s, "
                     f"worst wall {max(wall) / 1000:.2f} s")
    wall_all = [row["wall_ms"] for row in rows]
    lines.append(f"all puzzles (unknown counted at their time): median wall "
                 f"{statistics.median(wall_all) / 1000:.2f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--file", type=Path, default=DATA / "damnhard.sdk.txt")
    parser.add_argument("--solver", choices=("walksat", "gsat"), default="walksat")
    parser.add_argument("-T", "--time-limit", type=int, default=30_000, help="ms per puzzle")
    parser.add_argument("--limit", type=int, help="only the first K puzzles")
    parser.add_argument("--seed", type=int, default=0, help="puzzle k runs with seed S + k")
    parser.add_argument("--csv", type=Path, default=RESULTS / "local_search.csv")
    args = parser.parse_args(argv)
    if not args.file.exists():
        print(f"no puzzle file {args.file}", file=sys.stderr)
        return 1
    texts = [text for text in args.file.read_text().splitlines() if text.strip()]
    texts = texts[: args.limit] if args.limit else texts
    rows = []
    print(f"{'line':>4} {'status':8} {'valid':5} {'wall s':>7} {'CPU s':>7}")
    with tempfile.TemporaryDirectory() as work:
        for line, text in enumerate(texts, start=1):
            row = run_one(Board.parse(text, str(args.file), line), line, args, Path(work))
            rows.append(row)
            print(f"{line:>4} {row['status']:8} {row['valid']!s:5} "
                  f"{row['wall_ms'] / 1000:7.2f} {row['cpu_ms'] / 1000:7.2f}", flush=True)
    print(summary(rows))
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with args.csv.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
