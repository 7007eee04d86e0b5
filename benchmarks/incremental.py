"""Incremental solving: rules loaded once against a fresh CNF per instance.

For every 9×9 instance of each set, side by side in one process (CPU time,
``time.process_time``, the modes interleaved instance by instance, so a busy
shared machine hurts all of them alike; the stateless modes take the least of
``--repeat`` runs, the incremental ones run once per puzzle in file order,
since a solver asked the same puzzle again would start from its solution):

``course``
    the default pipeline (:func:`sudosat.run.pipeline.solve_instance`): encode the
    course CNF with the givens, load it into cdcl, solve, decode, check;
``stages``
    the same steps one by one, each timed in CPU time: ``encode``
    (:func:`sudosat.sudoku.encoding.encode`), ``load`` (cdcl's ``Solver(cnf)``),
    ``search`` (its ``solve()``), ``decode`` (decode and check the board): the
    split of the course mode's time;
``encode-fresh``, ``encode-cached``
    :func:`sudosat.sudoku.encoding.encode` alone, building every clause (``cache=False``,
    as before the rules cache) against copying the cached rules and adding the
    givens;
``incremental``
    the same answer through :func:`sudosat.run.pipeline.solve_instance` with
    ``incremental=True``: the
    rules stay loaded, the givens are assumptions (building and loading the
    rules, once, is timed apart and reported as ``rules_ms``);
``norvig``
    a constraint-propagation solver written here (Norvig's method: peers,
    "a symbol eliminated from a cell", "a unit with one place left for a
    symbol", depth-first search on the cell with the fewest candidates);
``incr-extended``
    the same with the ``extended`` encoding (its coverage clauses propagate
    "a symbol's last place in a unit", as Norvig's second rule does);
``unique``
    a uniqueness check (:func:`sudosat.sudoku.incremental.is_unique`, extended
    encoding): two solves on the loaded rules, the second behind the
    blocking clause.

Then, per set, ``course``, ``incr-extended`` and ``norvig`` again, each over the
whole set back to back as ``sudosat solve`` runs a file (modes ``file-*``,
``--repeat`` passes taken in turns, the least median counts; column ``pass``):
interleaved, every mode inherits the CPU caches the others left.

Then ``sudosat generate --order 3 --minimal --count K`` in process
(:func:`sudosat.run.generate.generate_many`), CPU time of the whole run, and the
median CPU time of one uniqueness check inside it (every call of the
generator's checker, and those that reached the solver).

Sets: ``course`` (the order-3 lines of ``data/instances.txt``, the project's
course-style file) and ``top2365/10`` (every 10th line of the public
``top2365.sdk.txt`` in ``$SUDOSAT_SHARED_DATA``, skipped when absent).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/incremental.py [--repeat 3] [--generate 100]

Prints a table of medians and writes ``benchmarks/results/incremental.csv``
(one row per instance and mode; for the generator, its total and the median
check, ``instance`` holding the number of puzzles or checks).
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

from sudosat.run import generate
from sudosat.run.generate import generate_many
from sudosat.run.pipeline import solve_instance
from sudosat.sat.solvers.cdcl import Solver
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import encode
from sudosat.sudoku.incremental import default_rules, forget_loaded, is_unique

ROOT = Path(__file__).resolve().parent.parent
# Where the CSVs go: `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/, so that a
# rerun leaves the committed runs (which the READMEs quote) as they are.
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")


def _shared_data() -> Path:
    """The folder of public puzzle files SUDOSAT_SHARED_DATA names (unset: an absent path)."""
    return Path(os.environ.get("SUDOSAT_SHARED_DATA") or "$SUDOSAT_SHARED_DATA")


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


SPLIT = ("encode_ms", "load_ms", "search_ms", "decode_ms")


def course_stages(board: Board, split: dict) -> str:
    """The course mode's steps one by one; their CPU ms go into `split`; the output line."""
    clock = time.process_time
    started = clock()
    encoded = encode(board, "course")
    encoded_at = clock()
    solver = Solver(encoded.cnf)
    loaded_at = clock()
    result = solver.solve()
    solved_at = clock()
    if result.is_sat:
        solution = encoded.decode(result.model or [])
        line = solution.to_line() if check_solution(board, solution) is None else "invalid"
    else:
        line = f"{board.order} {result.status.value}"
    done = clock()
    split.update(encode_ms=encoded_at - started, load_ms=loaded_at - encoded_at,
                 search_ms=solved_at - loaded_at, decode_ms=done - solved_at)
    split.update({key: round(value * 1000.0, 3) for key, value in split.items()})
    solver.delete()
    return line


def run_set(name: str, boards: list[Board], repeat: int) -> list[dict]:
    forget_loaded()
    started = time.process_time()
    default_rules().get("cdcl", 3, "course", {"seed": 0}, 10**9)
    rules_ms = (time.process_time() - started) * 1000.0
    default_rules().get("cdcl", 3, "extended", {"seed": 0}, 10**9)
    encode(boards[0], "course")  # the rules cache, built once per process
    rows = []
    for k, board in enumerate(boards, 1):
        split: dict = {}
        modes = {
            "course": lambda b=board: solve_instance(b, "cdcl").output_line,
            "stages": lambda b=board, s=split: course_stages(b, s),
            "encode-fresh": lambda b=board: encode(b, "course", cache=False).num_clauses,
            "encode-cached": lambda b=board: encode(b, "course").num_clauses,
            "incremental": lambda b=board: solve_instance(
                b, "cdcl", incremental=True
            ).output_line,
            "incr-extended": lambda b=board: solve_instance(
                b, "cdcl", "extended", incremental=True
            ).output_line,
            "norvig": lambda b=board: cp_solve(b),
            "unique": lambda b=board: is_unique(b),
        }
        answers = {}
        for mode, action in modes.items():
            gc.collect()
            # The loaded solver keeps its saved phases: asked the same puzzle again it
            # starts from the solution. So the stateful modes run once per puzzle, in
            # file order, as in real use; the stateless ones take the least of `repeat`.
            runs = 1 if mode in ("incremental", "incr-extended", "unique") else repeat
            split.clear()
            ms, answers[mode] = cpu_ms(action, runs)
            row = {"set": name, "instance": k, "mode": mode, "cpu_ms": round(ms, 3),
                   "rules_ms": round(rules_ms, 3) if mode == "incremental" else ""}
            if mode == "stages":
                row.update(split)
            rows.append(row)
        assert answers["course"] == answers["stages"] == answers["incremental"], (name, k)
        assert answers["course"] == answers["incr-extended"], (name, k)
        assert answers["encode-fresh"] == answers["encode-cached"], (name, k)
        solved = answers["norvig"]
        assert solved is None or answers["course"] == "3 " + "".join(map(str, solved)), (name, k)
    return rows


FILE_MODES = {
    "file-course": lambda board: solve_instance(board, "cdcl").output_line,
    "file-incr-extended": lambda board: solve_instance(
        board, "cdcl", "extended", incremental=True
    ).output_line,
    "file-norvig": cp_solve,
}


def run_file(name: str, boards: list[Board], passes: int) -> list[dict]:
    """Each mode over the whole set back to back, as ``sudosat solve`` runs a file.

    The interleaved comparison of :func:`run_set` hands the CPU's caches from
    one mode to the next at every puzzle; here a mode keeps them for the whole
    file. The modes take turns pass by pass (a busy machine hurts them alike);
    the incremental mode starts every pass from freshly loaded rules (loading
    them is not timed), so no pass meets a puzzle it has solved before.
    """
    rows = []
    for number in range(1, passes + 1):
        for mode, action in FILE_MODES.items():
            if mode == "file-incr-extended":
                forget_loaded()
                default_rules().get("cdcl", 3, "extended", {"seed": 0}, 10**9)
            gc.collect()
            for k, board in enumerate(boards, 1):
                started = time.process_time()
                action(board)
                ms = (time.process_time() - started) * 1000.0
                rows.append({"set": name, "instance": k, "mode": mode, "cpu_ms": round(ms, 3),
                             "pass": number})
    return rows


def print_file_table(name: str, file_rows: list[dict]) -> None:
    """Per mode, the least over the passes of the median per-puzzle CPU ms."""
    best = {}
    for mode in FILE_MODES:
        passes = {r["pass"] for r in file_rows if r["mode"] == mode}
        best[mode] = min(
            statistics.median(r["cpu_ms"] for r in file_rows
                              if r["mode"] == mode and r["pass"] == number)
            for number in passes
        )
    ratio = best["file-incr-extended"] / best["file-norvig"]
    print(f"{name:10} {best['file-course']:>7.2f} {best['file-incr-extended']:>7.2f} "
          f"{best['file-norvig']:>7.2f} {ratio:>6.2f}")


def timed_generation(count: int) -> tuple[float, list[float], list[float], list[Board]]:
    """CPU seconds of ``generate --order 3 --minimal --count`` and of each uniqueness check.

    Returns the total, the CPU ms of every check, of those that reached the
    solver, and the boards.
    """
    checks: list[float] = []
    solver_checks: list[float] = []
    real_unique = generate._UniquenessChecker.unique

    def unique(self, *checked):  # the checker's own arguments, passed on as they come
        calls = []
        solve = self.solver.solve
        self.solver.solve = lambda *args, **kwargs: calls.append(1) or solve(*args, **kwargs)
        try:
            started = time.process_time()
            answer = real_unique(self, *checked)
            ms = (time.process_time() - started) * 1000.0
        finally:
            del self.solver.solve  # the class's method again
        checks.append(ms)
        if calls:
            solver_checks.append(ms)
        return answer

    generate._UniquenessChecker.unique = unique
    try:
        started = time.process_time()
        boards = generate_many(3, 0.0, count, minimal=True)
        seconds = time.process_time() - started
    finally:
        generate._UniquenessChecker.unique = real_unique
    return seconds, checks, solver_checks, boards


def print_table(name: str, set_rows: list[dict]) -> None:
    """One line of medians for a set (ms)."""
    def med(mode: str, key: str = "cpu_ms") -> float:
        return statistics.median(r[key] for r in set_rows if r["mode"] == mode
                                 and r[key] is not None)

    count = sum(1 for r in set_rows if r["mode"] == "course")
    split = " ".join(f"{med('stages', key):>6.2f}" for key in SPLIT)
    load = next(r["rules_ms"] for r in set_rows if r["mode"] == "incremental")
    print(f"{name:10} {count:>4} {med('course'):>7.2f} {split} "
          f"{med('encode-fresh'):>6.2f} {med('encode-cached'):>6.3f} "
          f"{med('incremental'):>7.2f} {med('incr-extended'):>7.2f} {med('norvig'):>7.2f} "
          f"{med('incremental') / med('norvig'):>6.2f} "
          f"{med('incr-extended') / med('norvig'):>6.2f} {med('unique'):>7.2f} {load:>6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per instance (least counts)")
    parser.add_argument("--generate", type=int, default=100, help="minimal puzzles to generate")
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    rows = []
    print(f"CPU ms per 9x9 instance, medians (course, stages, encode, norvig: least of {repeat};"
          " incremental, unique: one run each, in file order); encode/load/search/decode: the"
          " course mode's steps one by one; modes interleaved instance by instance")
    print(f"{'set':10} {'n':>4} {'course':>7} {'encode':>6} {'load':>6} {'search':>6} "
          f"{'decode':>6} {'enc-fr':>6} {'enc-ca':>6} {'incr':>7} {'incr-ex':>7} "
          f"{'norvig':>7} {'in/nv':>6} {'ie/nv':>6} {'unique':>7} {'rules':>6}")
    sets = instance_sets()
    for name, boards in sets.items():
        set_rows = run_set(name, boards, repeat)
        rows += set_rows
        print_table(name, set_rows)
    print(f"Whole file per mode, back to back (as `sudosat solve` runs a file): median CPU ms per"
          f" puzzle, least of {repeat} passes taken in turns")
    print(f"{'set':10} {'course':>7} {'incr-ex':>7} {'norvig':>7} {'ie/nv':>6}")
    for name, boards in sets.items():
        file_rows = run_file(name, boards, repeat)
        rows += file_rows
        print_file_table(name, file_rows)
    if args.generate:
        seconds, checks, solver_checks, boards = timed_generation(args.generate)
        givens = statistics.median(b.num_givens for b in boards)
        print(f"generate --order 3 --minimal --count {args.generate}: {seconds:.2f} s CPU "
              f"({1000 * seconds / args.generate:.1f} ms a puzzle, median {givens} givens); "
              f"uniqueness checks: {len(checks)}, median {statistics.median(checks):.3f} ms; "
              f"{len(solver_checks)} reached the solver, median "
              f"{statistics.median(solver_checks):.2f} ms")
        rows.append({"set": "generate-minimal", "instance": args.generate, "mode": "generate",
                     "cpu_ms": round(seconds * 1000, 1)})
        for mode, times in (("unique-check", checks), ("unique-check-solver", solver_checks)):
            rows.append({"set": "generate-minimal", "instance": len(times),
                         "mode": f"{mode}-median", "cpu_ms": round(statistics.median(times), 3)})
    RESULTS.mkdir(parents=True, exist_ok=True)
    with open(RESULTS / "incremental.csv", "w", newline="") as stream:
        fields = ["set", "instance", "mode", "cpu_ms", "rules_ms", *SPLIT, "pass"]
        writer = csv.DictWriter(stream, fields, restval="")
        writer.writeheader()
        writer.writerows(rows)
    print(f"rows: {RESULTS / 'incremental.csv'}")


if __name__ == "__main__":
    main()
