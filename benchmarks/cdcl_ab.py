"""Our `cdcl` against an earlier version of itself: two trees, two child processes.

A change to the solver is kept when it wins here, or, for a change meant to
keep the search, when the conflict totals are equal and the medians within
noise. The whole ``sudosat`` tree at a git revision (``--base``, by default
``HEAD``; any revision since ``ab822a1``, where the package took its folders) is
unpacked with ``git archive`` into
a temporary folder; the working tree is the other side. Each side runs in a
child process of its own that imports only from its own tree (``PYTHONPATH``),
and solves the instances it is sent with ``sudosat.sat.solvers.cdcl.solve``
at default settings (its model check included). The two children take turns
instance by instance, in alternating order (base first on even instances,
new first on odd ones), so a busy machine slows both alike; each instance is
solved ``--repeat`` times per side and the least CPU time
(``time.process_time`` in the child) counts. Each solve gets a CNF parsed for
it alone (untimed): a CNF shares a model-check index with its copies once
checked twice (``sudosat.sat.cnf``).

The table gives, per set, both medians (ms), their ratio, the median of the
per-instance ratios new / base ("ratios": a median of times can jump between
two instances where a set's times have a gap), the ratio of the sums and both
conflict totals (equal totals mean the search is the same and only its speed
moved), then both medians of the search alone (the result's ``search_cpu_ms``:
no loading, no model check).

Usage::

    SUDOSAT_SHARED_DATA=/path/to/data PYTHONPATH=. .venv/bin/python benchmarks/cdcl_ab.py \\
        --base HEAD~1 --sets damnhard,random100 --repeat 2

Sets: ``course`` (every line of ``data/instances.txt``), ``damnhard`` (35),
``top2365`` (100 of them, seed 2365), ``16x16`` (15), ``random50`` (100
uf50-sized, seed 50), ``random100`` (60, seed 100),
``random150`` (30, seed 150), and the independent ``random100b`` (60, seed 7)
and ``random150b`` (30, seed 8). The public Sudoku sets read puzzle files from
``SUDOSAT_SHARED_DATA`` (see ``benchmarks/solvers.py``); the random ones are
generated. Writes ``benchmarks/results/cdcl_ab.csv`` (one row per instance).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from benchmarks.solvers import RESULTS, ROOT, Instance, _random_set, _sudoku_set

SETS = {
    "damnhard": lambda: _sudoku_set("damnhard", "damnhard.sdk.txt", None, 1),
    "top2365": lambda: _sudoku_set("top2365", "top2365.sdk.txt", 100, 2365),
    "16x16": lambda: _sudoku_set("16x16", "16x16.txt", 15, 16),
    "random50": lambda: _random_set(50, 100, 50),
    "random100": lambda: _random_set(100, 60, 100),
    "random150": lambda: _random_set(150, 30, 150),
    "random100b": lambda: _random_set(100, 60, 7),
    "random150b": lambda: _random_set(150, 30, 8),
    "course": lambda: course_set(),
}


def course_set(order: int | None = None) -> list[Instance]:
    """Every line of the project's instance file (``data/instances.txt``) of `order` (None:
    of every order), course encoding."""
    from sudosat.report.io import read_instances
    from sudosat.sudoku.encoding import encode

    boards = read_instances(ROOT / "data" / "instances.txt")
    return [Instance("course", f"instances.txt:{line}", encode(board, "course").cnf.to_dimacs())
            for line, board in boards.items() if order is None or board.order == order]

# The child: reads one request a line ({"path": DIMACS file, "repeat": n}) and answers one
# JSON line (least CPU ms, conflicts, status). It imports only what both trees have.
WORKER = r"""
import gc, json, sys, time, warnings
warnings.simplefilter("ignore")
from sudosat.sat.cnf import parse_dimacs
from sudosat.sat.solvers.cdcl import solve
for line in sys.stdin:
    request = json.loads(line)
    text = open(request["path"]).read()
    best = search = float("inf")
    for _ in range(request["repeat"]):
        cnf = parse_dimacs(text)
        gc.collect()
        started = time.process_time()
        result = solve(cnf)
        best = min(best, (time.process_time() - started) * 1000)
        search = min(search, result.stats.get("search_cpu_ms", float("nan")))
    print(json.dumps({"ms": best, "search_ms": search, "conflicts": result.stats["conflicts"],
                      "status": result.status.value}), flush=True)
"""


class Side:
    """One child process solving with the ``sudosat`` tree under `tree`."""

    def __init__(self, tree: Path, worker: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        self.process = subprocess.Popen(
            [sys.executable, str(worker)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=env, cwd=tree,
        )

    def solve(self, path: Path, repeat: int) -> dict:
        """Least CPU ms of `repeat` solves of the DIMACS file at `path`, conflicts, status."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"path": str(path), "repeat": repeat}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"a child solver died (exit {self.process.wait()})")
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def unpack(revision: str, folder: Path) -> Path:
    """The ``sudosat`` tree at git `revision`, unpacked under `folder`: the folder to import."""
    archive = folder / "base.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "archive", revision, "sudosat"], cwd=ROOT, stdout=handle,
                       check=True)
    tree = folder / "base"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="HEAD", help="git revision to compare against")
    parser.add_argument("--sets", default="damnhard,top2365,random100",
                        help=f"comma-separated, from {', '.join(SETS)}")
    parser.add_argument("--repeat", type=lambda text: max(1, int(text)), default=2,
                        help="solves per instance and side (at least 1; the least CPU time counts)")
    parser.add_argument("--csv", type=Path, default=RESULTS / "cdcl_ab.csv")
    args = parser.parse_args(argv)
    rows = []
    print(f"{'set':<11}{'n':>4}{'base ms':>9}{'new ms':>9}{'new/base':>9}{'ratios':>8}"
          f"{'sums':>7}{'base confl':>12}{'new confl':>11}{'b search':>10}{'n search':>10}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        worker = folder / "worker.py"
        worker.write_text(WORKER)
        base, new = Side(unpack(args.base, folder), worker), Side(ROOT, worker)
        instance_file = folder / "instance.cnf"
        try:
            for set_name in args.sets.split(","):
                runs = []
                for index, instance in enumerate(SETS[set_name]()):
                    instance_file.write_text(instance.text)
                    if index % 2 == 0:
                        b = base.solve(instance_file, args.repeat)
                        n = new.solve(instance_file, args.repeat)
                    else:
                        n = new.solve(instance_file, args.repeat)
                        b = base.solve(instance_file, args.repeat)
                    if b["status"] != n["status"]:
                        raise SystemExit(f"{instance.name}: base says {b['status']}, "
                                         f"new {n['status']}")
                    runs.append((b["ms"], n["ms"], b["conflicts"], n["conflicts"],
                                 b["search_ms"], n["search_ms"]))
                    rows.append({"set": set_name, "instance": instance.name,
                                 "status": n["status"], "base_ms": round(b["ms"], 3),
                                 "new_ms": round(n["ms"], 3),
                                 "base_search_ms": round(b["search_ms"], 3),
                                 "new_search_ms": round(n["search_ms"], 3),
                                 "base_conflicts": b["conflicts"],
                                 "new_conflicts": n["conflicts"]})
                if not runs:
                    continue
                base_median = statistics.median(r[0] for r in runs)
                new_median = statistics.median(r[1] for r in runs)
                ratios = statistics.median(r[1] / r[0] for r in runs)
                sums = sum(r[1] for r in runs) / sum(r[0] for r in runs)
                print(f"{set_name:<11}{len(runs):>4}{base_median:>9.2f}{new_median:>9.2f}"
                      f"{new_median / base_median:>9.3f}{ratios:>8.3f}{sums:>7.3f}"
                      f"{sum(r[2] for r in runs):>12}{sum(r[3] for r in runs):>11}"
                      f"{statistics.median(r[4] for r in runs):>10.2f}"
                      f"{statistics.median(r[5] for r in runs):>10.2f}", flush=True)
        finally:
            base.close()
            new.close()
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with args.csv.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["set"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"base = {args.base}, new = the working tree; rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
