"""Vivification of learnt clauses at the hard end: without it, and with it.

cdcl can shorten its learnt clauses now and then at a restart by propagating
the negations of their literals one by one (the tunable ``vivify``; see
``sudosat/sat/solvers/cdcl/vivify.py``), as CaDiCaL and Kissat do. This
compares the search without it (``plain``, ``vivify=0``, cdcl's default) and
with it (``vivify``, ``vivify=1`` at the default interval and effort).

Boards, children, caps and checks as in ``benchmarks/backtracking.py``:
``sudosat generate --order N --alpha 0.4 --seed S``, optimised encoding,
each (board, setting) in a forked child under a CPU cap (``--cap``, default
30 s), CPU time of the child, answers checked in the parent, settings taking
turns board by board.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/vivification.py [--orders 5 6] [--seeds 1 2 ...]

Prints one line per run, then per order and setting: boards answered, median
CPU seconds (a time-out counts as infinitely long), median conflicts and
median propagations. Writes ``vivification.csv`` to ``benchmarks/results/`` (or
the folder ``SUDOSAT_BENCH_RESULTS`` names).
"""

from __future__ import annotations

import sys

from benchmarks import backtracking
from benchmarks.hard_end import RESULTS

#: Setting name -> cdcl tunables.
SETTINGS: dict[str, dict[str, int]] = {
    "plain": {"vivify": 0},
    "vivify": {"vivify": 1},
}


def main(argv: list[str] | None = None) -> int:
    return backtracking.main(argv, SETTINGS, RESULTS / "vivification.csv", seed_count=45,
                             about=__doc__)


if __name__ == "__main__":
    sys.exit(main())
