"""Learnt-clause shrinking at the hard end: first-UIP clauses against shrunk ones.

cdcl learns the first-UIP clause of each conflict and minimises it
(MiniSat's recursive minimisation). At orders 5 and 6 those clauses are
long: the first-UIP clause holds several literals of most of the levels it
spans. The tunable ``shrink`` (all-UIP shrinking, Feng and Bacchus, SAT 2020)
replaces the literals of each such level by that level's UIP among them,
wherever resolving with reasons brings in no literal of a lower level the
clause lacks: the clause keeps its levels (its LBD and backjump level) and
gets shorter.

* ``first-uip`` (``shrink=0``): the minimised first-UIP clause;
* ``shrink`` (``shrink=1``, cdcl's default): the same, shrunk.

Boards, children, caps and checks as in ``benchmarks/backtracking.py``:
``sudosat generate --order N --alpha 0.4 --seed S``, optimised encoding,
each (board, setting) in a forked child under a CPU cap (``--cap``, default
30 s), CPU time of the child, answers checked in the parent, settings taking
turns board by board.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/shrinking.py [--orders 5 6] [--seeds 1 2 ...]

Prints one line per run, then per order and setting: boards answered, median
CPU seconds (a time-out counts as infinitely long), median conflicts and
median propagations. Writes ``shrinking.csv`` to ``benchmarks/results/`` (or
the folder ``SUDOSAT_BENCH_RESULTS`` names).
"""

from __future__ import annotations

import sys

from benchmarks import backtracking
from benchmarks.hard_end import RESULTS

#: Setting name -> cdcl tunables.
SETTINGS: dict[str, dict[str, int]] = {
    "first-uip": {"shrink": 0},
    "shrink": {"shrink": 1},
}


def main(argv: list[str] | None = None) -> int:
    return backtracking.main(argv, SETTINGS, RESULTS / "shrinking.csv", seed_count=45,
                             about=__doc__)


if __name__ == "__main__":
    sys.exit(main())
