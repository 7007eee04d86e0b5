"""Incremental solving (issue 14): rules loaded once against a fresh CNF per instance.

For every 9×9 instance of each set, side by side in one process (CPU time,
``time.process_time``, the modes interleaved instance by instance, so a busy
shared machine hurts all of them alike; the stateless modes take the least of
``--repeat`` runs, the incremental ones run once per puzzle in file order,
since a solver asked the same puzzle again would start from its solution):

``course``
    the default pipeline (:func:`sudosat.pipeline.solve_instance`): encode the
    course CNF with the givens, load it into cdcl, solve, decode, check;
``incremental``
    the same answer through :func:`sudosat.incremental.solve_instance`: the
    rules stay loaded, the givens are assumptions (loading the rules, once,
    is timed apart and reported as ``load_ms``);
``norvig``
    a constraint-propagation solver written here (Norvig's method: peers,
    "a symbol eliminated from a cell", "a unit with one place left for a
    symbol", depth-first search on the cell with the fewest candidates);
``incr-extended``
    the same with the ``extended`` encoding (its coverage clauses propagate
    "a symbol's last place in a unit", as Norvig's second rule does);
``unique``
    a uniqueness check (:func:`sudosat.incremental.is_unique`, extended
    encoding): two solves on the loaded rules, the second behind the
    blocking clause.

Then ``sudosat generate --order 3 --minimal --count K`` in process
(:func:`sudosat.generate.generate_many`), CPU time of the whole run.

Sets: ``course`` (the order-3 lines of ``data/instances.txt``, the project's
course-style file) and ``top2365/10`` (every 10th line of the public
``top2365.sdk.txt`` in ``$SUDOSAT_SHARED_DATA``, skipped when absent).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/incremental.py [--repeat 3] [--generate 100]

Prints a table of medians and writes ``benchmarks/results/incremental.csv``
(one row per instance and mode).
"""

from __future__ import annotations

import argparse
import csv
import gc
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from sudosat.board import Board
from sudosat.generate import generate_many
from sudosat.incremental import _loaded, forget_loaded, is_unique
from sudosat.incremental import solve_instance as solve_incremental
from sudosat.pipeline import solve_instance

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def _shared_data() -> Path:
    if "SUDOSAT_SHARED_DATA" in os.environ:
        return Path(os.environ["SUDOSAT_SHARED_DATA"])
    for candidate in (ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data"):
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "data"


def instance_sets() -> dict[str, list[Board]]:
    """Set name -> its 9×9 boards."""
    sets = {}
    text = (ROOT / "data" / "instances.txt").read_text()
    course = [Board.parse(line) for line in text.split("\n") if line.startswith("3 ")]
    sets["course"] = course
    top = _shared_data() / "top2365.sdk.txt"
    if top.exists():
        lines = [line for line in top.read_text().split("\n") if line.strip()]
        sets["top2365/10"] = [Board.parse(line) for line in lines[::10]]
    return sets


# -- a Norvig-style constraint-propagation solver, for comparison ------------------------

DIGITS = "123456789"
CELLS = [(r, c) for r in range(9) for c in range(9)]
UNITS = (
    [[(r, c) for c in range(9)] for r in range(9)]
    + [[(r, c) for r in range(9)] for c in range(9)]
    + [[(r, c) for r in range(br, br + 3) for c in range(bc, bc + 3)]
       for br in (0, 3, 6) for bc in (0, 3, 6)]
)
UNITS_OF = {cell: [unit for unit in UNITS if cell in unit] for cell in CELLS}
PEERS = {cell: {p for unit in UNITS_OF[cell] for p in unit} - {cell} for cell in CELLS}


def cp_solve(board: Board) -> list[int] | None:
    """The solved cells of a 9×9 `board` by propagation and search, or None when there is none."""
    grid: dict | None = dict.fromkeys(CELLS, DIGITS)
    for (r, c), value in zip(CELLS, board.cells, strict=True):
        if value and grid is not None:
            grid = _place(grid, (r, c), str(value))
    grid = _search(grid)
    return None if grid is None else [int(grid[cell]) for cell in CELLS]


def _place(grid: dict, cell, digit: str) -> dict | None:
    for other in grid[cell].replace(digit, ""):
        if _remove(grid, cell, other) is None:
            return None
    return grid


def _remove(grid: dict, cell, digit: str) -> dict | None:
    if digit not in grid[cell]:
        return grid
    left = grid[cell] = grid[cell].replace(digit, "")
    if not left:
        return None
    if len(left) == 1 and any(_remove(grid, peer, left) is None for peer in PEERS[cell]):
        return None
    for unit in UNITS_OF[cell]:
        places = [p for p in unit if digit in grid[p]]
        if not places:
            return None
        if len(places) == 1 and _place(grid, places[0], digit) is None:
            return None
    return grid


def _search(grid: dict | None) -> dict | None:
    if grid is None:
        return None
    open_cells = [cell for cell in CELLS if len(grid[cell]) > 1]
    if not open_cells:
        return grid
    cell = min(open_cells, key=lambda k: len(grid[k]))
    for digit in grid[cell]:
        found = _search(_place(dict(grid), cell, digit))
        if found is not None:
            return found
    return None


# -- measuring ------------------------------------------------------------------------------


def cpu_ms(action: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Least CPU milliseconds of `repeat` runs of `action`, and its last answer."""
    best, answer = float("inf"), None
    for _ in range(repeat):
        started = time.process_time()
        answer = action()
        best = min(best, (time.process_time() - started) * 1000.0)
    return best, answer


def run_set(name: str, boards: list[Board], repeat: int) -> list[dict]:
    forget_loaded()
    started = time.process_time()
    _loaded("cdcl", 3, "course", {"seed": 0}, 10**9)
    load_ms = (time.process_time() - started) * 1000.0
    _loaded("cdcl", 3, "extended", {"seed": 0}, 10**9)
    rows = []
    for k, board in enumerate(boards, 1):
        modes = {
            "course": lambda b=board: solve_instance(b, "cdcl").output_line,
            "incremental": lambda b=board: solve_incremental(b, "cdcl").output_line,
            "incr-extended": lambda b=board: solve_incremental(b, "cdcl", "extended").output_line,
            "norvig": lambda b=board: cp_solve(b),
            "unique": lambda b=board: is_unique(b),
        }
        answers = {}
        for mode, action in modes.items():
            gc.collect()
            # The loaded solver keeps its saved phases: asked the same puzzle again it
            # starts from the solution. So the stateful modes run once per puzzle, in
            # file order, as in real use; the stateless ones take the least of `repeat`.
            runs = repeat if mode in ("course", "norvig") else 1
            ms, answers[mode] = cpu_ms(action, runs)
            rows.append({"set": name, "instance": k, "mode": mode, "cpu_ms": round(ms, 3),
                         "load_ms": round(load_ms, 3) if mode == "incremental" else ""})
        assert answers["course"] == answers["incremental"] == answers["incr-extended"], (name, k)
        solved = answers["norvig"]
        assert solved is None or answers["course"] == "3 " + "".join(map(str, solved)), (name, k)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per instance (least counts)")
    parser.add_argument("--generate", type=int, default=100, help="minimal puzzles to generate")
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    rows = []
    print(f"CPU ms per 9x9 instance, median (course, norvig: least of {repeat}; incremental, "
          "unique: one run each); shared machine: CPU time, modes interleaved")
    modes = ("course", "incremental", "incr-extended", "norvig", "unique")
    print(f"{'set':12} {'n':>4} " + " ".join(f"{m:>13}" for m in modes)
          + f" {'incr-ext/norvig':>15} {'load':>6}")
    for name, boards in instance_sets().items():
        set_rows = run_set(name, boards, repeat)
        rows += set_rows
        med = {mode: statistics.median(r["cpu_ms"] for r in set_rows if r["mode"] == mode)
               for mode in modes}
        load = next(r["load_ms"] for r in set_rows if r["mode"] == "incremental")
        print(f"{name:12} {len(boards):>4} " + " ".join(f"{med[m]:>13.2f}" for m in modes)
              + f" {med['incr-extended'] / med['norvig']:>15.2f} {load:>6.1f}")
    if args.generate:
        started = time.process_time()
        boards = generate_many(3, 0.0, args.generate, minimal=True)
        seconds = time.process_time() - started
        givens = statistics.median(b.num_givens for b in boards)
        print(f"generate --order 3 --minimal --count {args.generate}: {seconds:.2f} s CPU "
              f"({1000 * seconds / args.generate:.1f} ms a puzzle, median {givens} givens)")
        rows.append({"set": "generate-minimal", "instance": args.generate, "mode": "generate",
                     "cpu_ms": round(seconds * 1000, 1), "load_ms": ""})
    RESULTS.mkdir(parents=True, exist_ok=True)
    with open(RESULTS / "incremental.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, ["set", "instance", "mode", "cpu_ms", "load_ms"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"rows: {RESULTS / 'incremental.csv'}")


if __name__ == "__main__":
    main()
