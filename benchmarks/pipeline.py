"""Benchmark of the instance pipeline and of the batch's parallel speed-up.

Two measurements, each printed as a table and written as CSV:

speed
    For every 9×9 line of a file, each pipeline in turn on the same line (side
    by side, so the machine's load hits them alike): our ``cdcl`` in process
    (encode + solve + decode + check) against the external-process pipeline
    (encode + write CNF + run the binary + parse its answer + decode + check)
    of ``exec:minisat`` (zChaff's stand-in; zChaff itself too when ``ZCHAFF``
    is set). Medians of every stage say where the time goes; for the external
    solvers ``solve`` splits into the process's own wall time and the wrapper's
    I/O (writing the CNF, reading the answer).
parallel
    ``run_batch`` over a CPU-bound file (the course encoding, cdcl) with
    ``jobs=1`` and then ``jobs=2``: wall times, the speed-up, and a check that
    both give the same answers.

Run: ``.venv/bin/python benchmarks/pipeline.py [--instances FILE] [--count K]``
(``--help`` lists the rest). ``top2365.sdk.txt`` in ``$SUDOSAT_SHARED_DATA`` (a folder of
public puzzle files) is used when present, else the project's ``data/instances.txt``.
"""

from __future__ import annotations

import argparse
import csv
import gc
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sudosat.errors import InstanceError
from sudosat.run.batch import run_batch
from sudosat.run.pipeline import solve_line
from sudosat.sudoku.board import Board

ROOT = Path(__file__).resolve().parent.parent
# Where the CSVs go: `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/, so that a
# rerun leaves the committed runs (which the READMEs quote) as they are.
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")
# The public top2365 file in the folder SUDOSAT_SHARED_DATA names (unset: absent).
TOP = Path(os.environ.get("SUDOSAT_SHARED_DATA") or "$SUDOSAT_SHARED_DATA") / "top2365.sdk.txt"
STAGES = ("encode_ms", "solve_ms", "decode_ms", "total_ms")
# the results row's column of each stage: wall-clock time, as the table below reports it
WALL_COLUMN = {stage: stage.replace("_ms", "_wall_ms") for stage in STAGES}


def nine_by_nine(path: Path, count: int) -> list[str]:
    """The first `count` order-3 lines of `path` that parse."""
    lines = []
    for text in path.read_text().splitlines():
        try:
            if Board.parse(text).order == 3:
                lines.append(text)
        except InstanceError:
            continue
        if len(lines) == count:
            break
    return lines


def pipelines(encoding: str) -> list[tuple[str, str, dict]]:
    """(label, solver, options) of every pipeline measured here."""
    chosen = [("cdcl", "cdcl", {})]
    if shutil.which("minisat"):
        chosen.append(("exec:minisat", "exec:minisat", {}))
    if os.environ.get("ZCHAFF"):
        chosen.append(("zchaff", "zchaff", {"zchaff": os.environ["ZCHAFF"]}))
    chosen.append(("pysat:minisat22", "pysat:minisat22", {}))
    return chosen


def measure_speed(lines: list[str], encoding: str, time_limit_ms: float) -> list[dict]:
    """One row per (line, pipeline), the pipelines interleaved line by line."""
    rows = []
    chosen = pipelines(encoding)
    for _, solver, options in chosen:  # warm up: imports, PySAT's first load
        solve_line(lines[0], 0, solver, encoding, time_limit_ms, **options)
    for number, text in enumerate(lines, 1):
        for label, solver, options in chosen:
            gc.collect()  # the previous pipeline's garbage is not this one's time
            outcome = solve_line(text, number, solver, encoding, time_limit_ms, **options)
            row = dict(outcome.row, pipeline=label)
            if outcome.status == "SAT" and label.startswith(("exec:", "zchaff")):
                row["process_ms"] = _process_ms(text, solver, encoding, time_limit_ms, options)
            rows.append(row)
    return rows


def _process_ms(
    text: str, solver: str, encoding: str, time_limit_ms: float, options: dict
) -> float:
    """The external process's own wall time, from the solver's stats (one more run)."""
    from sudosat.sat.solvers import solve
    from sudosat.sudoku.encoding import encode

    result = solve(
        encode(Board.parse(text), encoding).cnf, solver, time_limit_ms=time_limit_ms, **options
    )
    return float(result.stats.get("process_wall_ms", float("nan")))


def speed_table(rows: list[dict]) -> list[dict]:
    """Medians per pipeline, and the ratio of each total to the external stand-in's."""
    table = []
    for label in dict.fromkeys(row["pipeline"] for row in rows):
        mine = [row for row in rows if row["pipeline"] == label and row["status"] == "SAT"]
        entry = {
            "pipeline": label,
            "solved": len(mine),
            "of": sum(1 for row in rows if row["pipeline"] == label),
        }
        for stage in STAGES:
            entry[stage] = _median(row[WALL_COLUMN[stage]] for row in mine)
        entry["process_ms"] = _median(row.get("process_ms") for row in mine)
        table.append(entry)
    reference = next((e for e in table if e["pipeline"] in ("zchaff", "exec:minisat")), None)
    for entry in table:
        entry["vs_external"] = (
            entry["total_ms"] / reference["total_ms"]
            if reference and reference["total_ms"]
            else float("nan")
        )
    return table


def _median(values) -> float:
    present = [float(v) for v in values if v not in (None, "")]
    return statistics.median(present) if present else float("nan")


def measure_parallel(lines: list[str], time_limit_ms: float, folder: Path) -> dict:
    """Wall time of run_batch with jobs=1 and jobs=2 over the same file; same answers?"""
    instances = folder / "parallel.txt"
    instances.write_text("".join(line + "\n" for line in lines))
    walls, cpus = {}, {}
    for jobs in (1, 2):
        cpu_before = _cpu_s()
        started = time.perf_counter()
        run_batch(
            instances,
            folder / f"j{jobs}.txt",
            time_limit_ms=time_limit_ms,
            jobs=jobs,
            progress=False,
        )
        walls[jobs] = time.perf_counter() - started
        cpus[jobs] = _cpu_s() - cpu_before
    same = (folder / "j1.txt").read_text() == (folder / "j2.txt").read_text()
    # On a machine other work keeps busy, wall times hide what parallelism gives; the CPU
    # seconds do not: with -j 2 the same work costs cpu_j2 in all, spread over two cores.
    return {
        "instances": len(lines),
        "j1_s": walls[1],
        "j2_s": walls[2],
        "speedup": walls[1] / walls[2],
        "cpu_j1_s": cpus[1],
        "cpu_j2_s": cpus[2],
        "idle_speedup_estimate": 2 * cpus[1] / cpus[2],
        "same_answers": same,
        "cpus": os.cpu_count(),
        "load_1min": os.getloadavg()[0],
    }


def _cpu_s() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def write_csv(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def print_speed(table: list[dict], encoding: str, count: int) -> None:
    print(
        f"\npipeline per 9x9 instance, {encoding} encoding, {count} lines, medians in ms "
        "(SAT lines only)"
    )
    print(
        f"{'pipeline':18} {'solved':>9} {'encode':>8} {'solve':>8} {'(process)':>10} "
        f"{'decode':>8} {'total':>8} {'vs ext.':>8}"
    )
    for e in table:
        print(
            f"{e['pipeline']:18} {e['solved']:>4}/{e['of']:<4} {e['encode_ms']:8.2f} "
            f"{e['solve_ms']:8.2f} {e['process_ms']:10.2f} {e['decode_ms']:8.2f} "
            f"{e['total_ms']:8.2f} {e['vs_external']:8.2f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = TOP if TOP.is_file() else ROOT / "data" / "instances.txt"
    parser.add_argument("--instances", type=Path, default=default, help=f"default {default}")
    parser.add_argument("--count", type=int, default=100, help="lines for the speed table")
    parser.add_argument("--encodings", nargs="+", default=["course", "optimised"])
    parser.add_argument(
        "--parallel-count",
        type=int,
        default=200,
        help="lines for the -j 1 / -j 2 comparison (0 skips it)",
    )
    parser.add_argument("-T", type=float, default=60_000, help="time limit per line, ms")
    parser.add_argument(
        "--out", type=Path, default=RESULTS, help="folder of the CSV files"
    )
    args = parser.parse_args(argv)
    lines = nine_by_nine(args.instances, args.count)
    if not lines:
        print(f"no 9x9 line in {args.instances}", file=sys.stderr)
        return 1
    print(
        f"{args.instances}: {len(lines)} lines; cpus {os.cpu_count()}, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    all_rows, all_tables = [], []
    for encoding in args.encodings:
        rows = measure_speed(lines, encoding, args.T)
        table = speed_table(rows)
        print_speed(table, encoding, len(lines))
        all_rows += rows
        all_tables += [dict(entry, encoding=encoding) for entry in table]
    write_csv(args.out / "pipeline_speed_rows.csv", all_rows)
    write_csv(args.out / "pipeline_speed.csv", all_tables)
    if args.parallel_count:
        heavy = nine_by_nine(args.instances, args.parallel_count)
        with tempfile.TemporaryDirectory() as folder:
            result = measure_parallel(heavy, args.T, Path(folder))
        print(
            f"\nrun_batch, {result['instances']} lines, course encoding, cdcl: "
            f"-j 1 {result['j1_s']:.1f} s, -j 2 {result['j2_s']:.1f} s, "
            f"speed-up {result['speedup']:.2f}x, same answers: {result['same_answers']} "
            f"(load {result['load_1min']:.1f} on {result['cpus']} cpus)"
        )
        print(
            f"CPU: -j 1 {result['cpu_j1_s']:.1f} s, -j 2 {result['cpu_j2_s']:.1f} s in all "
            f"(workers' start-up included): on two idle cores -j 2 would be about "
            f"{result['idle_speedup_estimate']:.2f}x faster"
        )
        write_csv(args.out / "pipeline_parallel.csv", [result])
    print(f"\nCSV in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
