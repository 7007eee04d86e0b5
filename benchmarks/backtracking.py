"""How cdcl backtracks after a conflict, at the hard end: backjumping against keeping the trail.

After a conflict cdcl learns a clause and, by default, backjumps to the level
where that clause is unit, as MiniSat does. At order 6 that undoes about 12
levels and nearly all it propagated (``benchmarks/backjumps.py``). The
tunable ``chrono`` keeps more of the trail:

* ``reuse`` (``chrono=1``): keep the levels the decisions after a backjump
  would build again (their decisions outrank every variable the backjump
  would free, with the values phase saving would give them);
* ``chrono`` (``chrono=2``): undo the conflict's level only (chronological
  backtracking, Nadel and Ryvchin, SAT 2018), the learnt clause's literal
  asserted at its own, lower level;
* ``chrono100`` (``chrono=2, chrono_levels=100``): chronological only when a
  backjump would undo more than 100 levels, the threshold of that paper.

Boards: ``sudosat generate --order N --alpha 0.4 --seed S`` (the hard end's,
:func:`benchmarks.hard_end.build`), optimised encoding. Each (board, setting)
runs in a forked child under a CPU cap (``--cap``, default 30 s) through the
registry's ``solve`` (:func:`benchmarks.hard_end.run_one`): CPU time of the
child, answers checked in the parent (the model satisfies every clause and
decodes to a valid board keeping the givens). The settings take turns board
by board, so a busy machine slows all alike.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/backtracking.py [--orders 5 6] [--seeds 1 2 ...]

Prints one line per run, then per order and setting: boards answered, median
CPU seconds (a time-out counts as infinitely long), median conflicts and
median propagations. Writes ``backtracking.csv`` to ``benchmarks/results/``
(or the folder ``SUDOSAT_BENCH_RESULTS`` names).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.hard_end import (
    RESULTS,
    Case,
    _text,
    answered,
    build,
    median_answered,
    run_one,
    warm_up,
)
from benchmarks.pipeline import write_csv

#: Setting name -> cdcl tunables.
SETTINGS: dict[str, dict[str, int]] = {
    "backjump": {"chrono": 0},
    "reuse": {"chrono": 1},
    "chrono": {"chrono": 2},
    "chrono100": {"chrono": 2, "chrono_levels": 100},
}


def run(orders: list[int], seeds: list[int], settings: list[str], cap_s: float,
        table: dict[str, dict[str, int]] = SETTINGS) -> list[dict]:
    """Every board with every setting (a name in `table`), one forked child each; one row
    per run."""
    warm_up(["cdcl"])
    rows = []
    for order in orders:
        for seed in seeds:
            encoded = build(Case("optimised", order, 0.4, seed))
            for name in settings:
                row = {"order": order, "alpha": 0.4, "seed": seed, "setting": name,
                       "tunables": " ".join(f"{k}={v}" for k, v in table[name].items()),
                       "cap_s": cap_s}
                row.update(run_one(encoded, "cdcl", cap_s, table[name]))
                rows.append(row)
                print(f"{order:>5}{seed:>5}  {name:<10}{row['status']:<8}{row['cpu_s']:>9.2f}"
                      f"{_text(row['conflicts']):>11}{_text(row['propagations']):>13}  "
                      f"{row['error']}", flush=True)
            del encoded
    return rows


def summary(rows: list[dict]) -> list[dict]:
    """Per order and setting: boards, answered (checked), medians of CPU, conflicts and
    propagations."""
    table = []
    for order, setting in dict.fromkeys((r["order"], r["setting"]) for r in rows):
        runs = [r for r in rows if (r["order"], r["setting"]) == (order, setting)]
        table.append({"order": order, "setting": setting, "boards": len(runs),
                      "answered": sum(map(answered, runs)),
                      "median_cpu_s": median_answered(runs, "cpu_s"),
                      "median_conflicts": median_answered(runs, "conflicts"),
                      "median_propagations": median_answered(runs, "propagations")})
    return table


def print_summary(table: list[dict], cap_s: float) -> None:
    print(f"\ncdcl, optimised encoding, alpha 0.4, CPU cap {cap_s:g} s (time-outs count as inf)")
    print(f"{'order':>5}  {'setting':<10}{'answered':>9}{'median CPU s':>14}"
          f"{'median conflicts':>18}{'median propagations':>21}")
    for row in table:
        print(f"{row['order']:>5}  {row['setting']:<10}{row['answered']:>5} of {row['boards']:<2}"
              f"{row['median_cpu_s']:>13.2f}{row['median_conflicts']:>18}"
              f"{row['median_propagations']:>21}")


def main(argv: list[str] | None = None, table: dict[str, dict[str, int]] = SETTINGS,
         csv: Path = RESULTS / "backtracking.csv", seed_count: int = 9,
         about: str = __doc__) -> int:
    """The command line: `table`'s settings on seeds 1 to `seed_count` by default, rows
    written to `csv`; `about` is the script's docstring, whose first line describes it."""
    parser = argparse.ArgumentParser(description=about.split("\n")[0])
    parser.add_argument("--orders", type=int, nargs="+", default=[5, 6])
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(1, seed_count + 1)))
    parser.add_argument("--settings", nargs="+", choices=list(table), default=list(table))
    parser.add_argument("--cap", type=float, default=30.0, help="CPU seconds a run (default 30)")
    parser.add_argument("--csv", type=Path, default=csv)
    args = parser.parse_args(argv)
    print(f"{'order':>5}{'seed':>5}  {'setting':<10}{'status':<8}{'CPU s':>9}"
          f"{'conflicts':>11}{'propagations':>13}")
    rows = run(args.orders, args.seeds, args.settings, args.cap, table)
    write_csv(args.csv, rows)
    print_summary(summary(rows), args.cap)
    print(f"\nwrote {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
