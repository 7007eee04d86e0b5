"""cdcl's two cores on an instance file, end to end: the compiled twin against the Python reference.

Runs ``sudosat solve FILE`` once per core and repeat, the cores taking turns
(``SUDOSAT_CORE=compiled`` and ``python``, the order rotating with each repeat),
each in its own child process of this one, and reads their results tables:
per line and core, the CPU milliseconds of the search alone (``search_cpu_ms``),
of loading the clauses (``load_cpu_ms``) and of the whole line (``total_cpu_ms``:
read, encode, load, search, decode, check). Both cores do the same search, so
the conflicts of every line must agree; the script checks it. Prints, per order,
the median of each column for each core and the ratio compiled / python, and,
with ``--zchaff-ms``, the compiled search's median against zChaff's own
``Total Run Time`` on the same kind of line (a figure zChaff prints; give it in
milliseconds). Writes ``cores.csv``, one row per line, core and repeat::

    PYTHONPATH=. .venv/bin/python benchmarks/cores.py --repeat 3 --zchaff-ms 0.278
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.pipeline import write_csv

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")
CORES = ("compiled", "python")
COLUMNS = ("search_cpu_ms", "load_cpu_ms", "total_cpu_ms")


def run_core(instances: Path, core: str, limit_ms: int, workdir: Path) -> list[dict]:
    """The results rows of ``sudosat solve`` on `instances` with cdcl on `core`."""
    output = workdir / f"solved-{core}.txt"
    environment = {**os.environ, "SUDOSAT_CORE": core}
    subprocess.run([sys.executable, "-m", "sudosat", "solve", str(instances), "-o", str(output),
                    "-T", str(limit_ms)], check=False, env=environment,
                   capture_output=True, text=True)
    with open(output.with_suffix(".results.csv"), newline="") as handle:
        return list(csv.DictReader(handle))


def measure(instances: Path, repeat: int, limit_ms: int) -> list[dict]:
    """Every line with both cores, `repeat` times, the cores' order rotating."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(repeat):
            order = CORES if index % 2 == 0 else CORES[::-1]
            for core in order:
                for row in run_core(instances, core, limit_ms, Path(scratch)):
                    rows.append({"repeat": index + 1, "core": core, "ran": row["core"],
                                 "line": int(row["line"]), "order": row["order"],
                                 "status": row["status"], "conflicts": row["conflicts"],
                                 **{column: row[column] for column in COLUMNS}})
    return rows


def check_same_search(rows: list[dict]) -> None:
    """Both cores must report the same conflicts on every line (the same search)."""
    seen: dict[tuple, set] = {}
    for row in rows:
        seen.setdefault((row["repeat"], row["line"]), set()).add(row["conflicts"])
    differing = sorted(key for key, values in seen.items() if len(values) > 1)
    if differing:
        raise SystemExit(f"cores.py: the cores' conflicts differ on (repeat, line) {differing}")


def summary(rows: list[dict], zchaff_ms: float | None) -> list[str]:
    """Per order: each core's medians and the ratios compiled / python."""
    lines = []
    for order in sorted({row["order"] for row in rows}, key=int):
        medians = {}
        for core in CORES:
            mine = [r for r in rows if r["order"] == order and r["core"] == core
                    and r["status"] in ("SAT", "UNSAT")]
            medians[core] = {c: statistics.median(float(r[c]) for r in mine if r[c])
                             for c in COLUMNS}
        each = "; ".join(
            f"{c} compiled {medians['compiled'][c]:.3f}, python {medians['python'][c]:.3f}, "
            f"ratio {medians['compiled'][c] / medians['python'][c]:.3f}" for c in COLUMNS)
        lines.append(f"order {order}: medians (ms of CPU): {each}")
        if zchaff_ms and order == "3":
            search = medians["compiled"]["search_cpu_ms"]
            lines.append(f"order 3: compiled search {search:.3f} ms against zChaff's own "
                         f"{zchaff_ms:.3f} ms: {search / zchaff_ms:.2f} times")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=Path, default=ROOT / "data" / "instances.txt")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("-T", "--time-limit-ms", type=int, default=60000)
    parser.add_argument("--zchaff-ms", type=float,
                        help="zChaff's own Total Run Time on a 9x9 line, in milliseconds")
    parser.add_argument("--csv", type=Path, default=RESULTS / "cores.csv")
    args = parser.parse_args(argv)
    rows = measure(args.instances, args.repeat, args.time_limit_ms)
    check_same_search(rows)
    write_csv(args.csv, rows)
    for line in summary(rows, args.zchaff_ms):
        print(line)
    print(f"load average (1 min) {os.getloadavg()[0]:.2f}; rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
