"""Our `cdcl` against an earlier version of itself, side by side in one process.

A change to the solver is kept when it wins here: the version of
``sudosat/sat/solvers/cdcl.py`` at a git revision (``--base``, default ``HEAD``)
and the working tree's version solve the same formulas, alternately, each
instance ``--repeat`` times (the least CPU time counts). The table gives, per
set, both medians, their ratio, the ratio of the sums and both conflict totals
(equal totals mean the change kept the search and only its speed moved).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/cdcl_ab.py --base HEAD~1 --sets damnhard,random100

Sets: ``damnhard`` (35), ``top2365`` (100 of them, seed 2365), ``16x16`` (15),
``random50`` (100 uf50-sized, seed 50), ``random100`` (60, seed 100),
``random150`` (30, seed 150), and the independent ``random100b`` (60, seed 7)
and ``random150b`` (30, seed 8) to check that a gain is not tuned to the
benchmark's own formulas. Writes
``benchmarks/results/cdcl_ab.csv`` (one row per instance).
"""

from __future__ import annotations

import argparse
import csv
import gc
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from types import ModuleType

from benchmarks.solvers import RESULTS, ROOT, _random_set, _sudoku_set
from sudosat.sat.cnf import parse_dimacs

SETS = {
    "damnhard": lambda: _sudoku_set("damnhard", "damnhard.sdk.txt", None, 1),
    "top2365": lambda: _sudoku_set("top2365", "top2365.sdk.txt", 100, 2365),
    "16x16": lambda: _sudoku_set("16x16", "16x16.txt", 15, 16),
    "random50": lambda: _random_set(50, 100, 50),
    "random100": lambda: _random_set(100, 60, 100),
    "random150": lambda: _random_set(150, 30, 150),
    "random100b": lambda: _random_set(100, 60, 7),
    "random150b": lambda: _random_set(150, 30, 8),
}
SOURCE = "sudosat/sat/solvers/cdcl.py"


def load_module(path: Path, name: str) -> ModuleType:
    """Import the file at `path` as a module called `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def base_version(revision: str, folder: Path) -> ModuleType:
    """The solver module as it was at git `revision`."""
    text = subprocess.run(
        ["git", "show", f"{revision}:{SOURCE}"], cwd=ROOT, capture_output=True, text=True,
        check=True,
    ).stdout
    path = folder / "cdcl_base.py"
    path.write_text(text)
    return load_module(path, "cdcl_base")


def best_time(module: ModuleType, text: str, repeat: int) -> tuple[float, int, str]:
    """Least CPU ms of `repeat` solves of the DIMACS `text`, the conflicts and the status.

    Each solve gets a CNF parsed for it alone (untimed): a CNF shares a model-check
    index with its copies once checked twice (``sudosat.sat.cnf``), so solving one CNF
    object with both versions in turn timed the second one's checks cheaper
    (identical code read 0.80 on top2365 before 2026-11-25).
    """
    best = float("inf")
    for _ in range(repeat):
        cnf = parse_dimacs(text)
        gc.collect()
        started = time.process_time()
        result = module.solve(cnf)
        best = min(best, (time.process_time() - started) * 1000)
    return best, result.stats["conflicts"], result.status.value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="HEAD", help="git revision to compare against")
    parser.add_argument("--sets", default="damnhard,top2365,random100",
                        help=f"comma-separated, from {', '.join(SETS)}")
    parser.add_argument("--repeat", type=lambda text: max(1, int(text)), default=2,
                        help="solves per instance and version (at least 1)")
    parser.add_argument("--csv", type=Path, default=RESULTS / "cdcl_ab.csv")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as folder:
        base = base_version(args.base, Path(folder))
        new = load_module(ROOT / SOURCE, "cdcl_new")
    rows = []
    print(f"{'set':<11}{'base ms':>9}{'new ms':>9}{'new/base':>9}{'sums':>7}"
          f"{'base confl':>12}{'new confl':>11}")
    for name in args.sets.split(","):
        runs = []
        for instance in SETS[name]():
            base_ms, base_conflicts, base_status = best_time(base, instance.text, args.repeat)
            new_ms, new_conflicts, new_status = best_time(new, instance.text, args.repeat)
            if base_status != new_status:
                raise SystemExit(f"{instance.name}: base says {base_status}, new {new_status}")
            runs.append((base_ms, new_ms, base_conflicts, new_conflicts))
            rows.append({"set": name, "instance": instance.name, "status": new_status,
                         "base_ms": base_ms, "new_ms": new_ms,
                         "base_conflicts": base_conflicts, "new_conflicts": new_conflicts})
        if not runs:
            continue
        base_median = statistics.median(r[0] for r in runs)
        new_median = statistics.median(r[1] for r in runs)
        sums = sum(r[1] for r in runs) / sum(r[0] for r in runs)
        print(f"{name:<11}{base_median:>9.2f}{new_median:>9.2f}{new_median / base_median:>9.3f}"
              f"{sums:>7.3f}{sum(r[2] for r in runs):>12}{sum(r[3] for r in runs):>11}",
              flush=True)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with args.csv.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["set"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"base = {args.base}, new = the working tree; rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
