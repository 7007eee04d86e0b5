"""Where cdcl's work goes at the hard end: how much of what it propagates a backjump undoes.

After a conflict, cdcl learns a clause and jumps back to the level where that
clause is unit, unassigning every literal above it. Phase saving then makes
the next decisions take the same values again, so most of what was undone is
propagated a second time. This script counts that share on the boards of the
hard end (``benchmarks/hard_end.py``): ``sudosat generate --order N --alpha
0.4 --seed S``, optimised encoding, solved by ``cdcl`` at default settings.

Every figure is a count from the solver's own counters (``Result.stats``):
``propagations`` (literals propagated), ``backjumped`` (literals unassigned by
conflicts' backjumps) and ``levels_jumped`` (the decision levels they undid).
Their ratio can exceed 1: a conflict stops propagation with literals assigned
but not yet propagated, and the backjump unassigns those too.
An observer of the search (``Solver(observer=...)``, which runs the same
search as ``solve``) counts the decisions that re-make one undone by the last
backjump, before the next conflict: the work that chronological backtracking
and trail saving would keep instead of redoing.
Counts, not times: the search is deterministic, so the same command gives the
same table on any machine. Each answer is checked as ``hard_end.py`` checks
it: the model satisfies every clause and decodes into a board that obeys the
rules and keeps its givens.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/backjumps.py [--orders 5 6] [--seeds 1 2 3]

Prints a table and writes ``backjumps.csv`` (one row per board) to
``benchmarks/results/``, or to the folder ``SUDOSAT_BENCH_RESULTS`` names.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks.hard_end import RESULTS, Case, build, check_answer
from benchmarks.pipeline import write_csv


class Redecisions:
    """An observer of cdcl's search that counts decisions re-making what a backjump undid.

    It keeps the decision of each open level; a learnt clause's backjump to
    level b undoes the decisions above b, and each later decision (until the
    next conflict) of one of those same literals counts as re-made.
    """

    def __init__(self) -> None:
        self.open: list[int] = []  # the decision literal of each level, level 1 first
        self.undone: set[int] = set()
        self.decisions = self.undone_decisions = self.remade = 0

    def decided(self, literal: int, level: int, trail_size: int) -> None:
        del self.open[level - 1 :]  # a restart closed every level without a conflict
        self.open.append(literal)
        self.decisions += 1
        if literal in self.undone:
            self.remade += 1
            self.undone.discard(literal)

    def learnt(self, clause: list[int], backjump_level: int, level: int) -> None:
        self.undone = set(self.open[backjump_level:])
        self.undone_decisions += len(self.undone)
        del self.open[backjump_level:]


def measure(order: int, seed: int, alpha: float = 0.4) -> dict:
    """Solve one generated board with cdcl; its counters and what the backjumps undid."""
    from sudosat.sat.solvers.cdcl import Solver

    encoded = build(Case("optimised", order, alpha, seed))
    watcher = Redecisions()
    result = Solver(encoded.cnf, observer=watcher).solve()
    valid, why = check_answer(encoded, result.status.value, result.model)
    if valid != "True":  # a generated board always has a solution, which cdcl must find
        raise SystemExit(f"order {order}, seed {seed}: cdcl answered {result.status.value}"
                         + (f": {why}" if why else ""))
    stats = result.stats
    conflicts = stats["conflicts"]
    return {
        "order": order,
        "alpha": alpha,
        "seed": seed,
        "variables": encoded.cnf.num_vars,
        "clauses": len(encoded.cnf),
        "conflicts": conflicts,
        "decisions": stats["decisions"],
        "propagations": stats["propagations"],
        "backjumped": stats["backjumped"],
        "levels_jumped": stats["levels_jumped"],
        "undone_per_propagated": round(stats["backjumped"] / stats["propagations"], 3),
        "levels_per_backjump": round(stats["levels_jumped"] / conflicts, 2),
        "literals_per_backjump": round(stats["backjumped"] / conflicts, 1),
        "undone_decisions": watcher.undone_decisions,
        "remade_decisions": watcher.remade,
        "remade_share_of_decisions": round(watcher.remade / stats["decisions"], 3),
    }


def print_table(rows: list[dict]) -> None:
    print("cdcl, optimised encoding, alpha 0.4: what conflicts' backjumps undo (counts)")
    print(f"{'order':>5} {'seed':>4} {'conflicts':>9} {'propagated':>11} {'undone':>10} "
          f"{'ratio':>6} {'levels/jump':>11} {'literals/jump':>13} {'decisions':>9} "
          f"{'re-made':>8}")
    for row in rows:
        print(f"{row['order']:>5} {row['seed']:>4} {row['conflicts']:>9} "
              f"{row['propagations']:>11} {row['backjumped']:>10} "
              f"{row['undone_per_propagated']:>6.3f} {row['levels_per_backjump']:>11} "
              f"{row['literals_per_backjump']:>13} {row['decisions']:>9} "
              f"{row['remade_share_of_decisions']:>8.1%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", type=int, nargs="+", default=[5, 6])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--csv", type=Path, default=RESULTS / "backjumps.csv")
    args = parser.parse_args(argv)
    rows = [measure(order, seed) for order in args.orders for seed in args.seeds]
    print_table(rows)
    write_csv(args.csv, rows)
    print(f"\nwrote {args.csv}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
