"""The hard end: generated boards of orders 5 to 7, our `cdcl` against MiniSat and CaDiCaL.

Each board is what ``sudosat generate --order N --alpha A --seed S`` writes
(:func:`sudosat.run.generate.generate`, method ``solution``: feasible by
construction), encoded once (``--encodings``, default ``optimised``) in the
parent. Every (board, solver) pair then runs in a fresh forked child that
inherits the same CNF, sets ``RLIMIT_CPU`` to the cap (``--cap``, default
60 s; ``--long-cap``, default 120 s, for orders 7 and above) and calls
:func:`sudosat.sat.solvers.registry.solve`, the public entry point, with
``cdcl``, ``pysat:minisat22`` or ``pysat:cadical195``: all three pay the same
compaction and model check around the search. The kernel stops a child that
reaches its cap (SIGXCPU): a TIMEOUT row.

The time is CPU time of the child, user plus system, read from its
``rusage`` when it ends (``os.wait4``): on a machine shared with other jobs
wall time measures the neighbours as much as the solver (it is kept in the
CSV as ``wall_s``). The solvers take turns: board by board their order
rotates. Every answer is checked in the parent: the model
satisfies every clause, it decodes to a complete valid board that keeps the
givens; an UNSAT answer is wrong, since every board has a solution.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/hard_end.py --orders 5 6 --seeds 1 2 3
    PYTHONPATH=. .venv/bin/python benchmarks/hard_end.py --quick

Prints one line per board and solver, then the acceptance figures: order-7
alpha-0.4 optimised seeds 1-3 answered by ``cdcl`` within 120 s (a count),
order-6 alpha-0.4 optimised seeds 1-3 median ``cdcl`` over median MiniSat, and
the course encoding of order 5, alpha 0.4, seed 7 answered within 60 s (the
extra case ``--course-case``, on by default); then per order the ``cdcl`` /
MiniSat and ``cdcl`` / CaDiCaL CPU ratio seed by seed and its median, a run
without a checked answer charged its cap, and how many boards each solver
answered within its cap; and per order, on the boards every solver answered,
each solver's median CPU per propagated literal, propagated literals and
conflicts (what a step costs and how many steps the search takes: the two
factors of a CPU ratio). Writes ``hard_end.csv`` (``--csv``), one row per run;
``--summarise CSV`` prints the same figures from a CSV it wrote, running nothing::

    PYTHONPATH=. .venv/bin/python benchmarks/hard_end.py --summarise benchmarks/results/hard_end.csv
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import os
import pickle
import resource
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.pipeline import write_csv

ROOT = Path(__file__).resolve().parent.parent
# `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/, so a rerun leaves the committed
# runs (which the documentation quotes) as they are.
RESULTS = Path(os.environ.get("SUDOSAT_BENCH_RESULTS") or ROOT / "benchmarks" / "results")

#: Column name -> registered solver name. ``cdcl`` runs the compiled core where it is built
#: (the row's ``core`` says which ran); ``cdcl-python`` is the pure-Python reference core.
SOLVERS = {"cdcl": "cdcl", "minisat22": "pysat:minisat22", "cadical195": "pysat:cadical195",
           "cdcl-python": "cdcl"}
#: Column name -> the options its solver is called with.
OPTIONS = {"cdcl-python": {"core": "python"}}
DEFAULT_SOLVERS = ["cdcl", "minisat22", "cadical195"]
LONG_ORDER = 7  # from this order on, the cap is --long-cap
COURSE_CASE = ("course", 5, 0.4, 7)  # the course encoding's acceptance case


@dataclass(frozen=True)
class Case:
    """One generated board and the encoding it is solved in."""

    encoding: str
    order: int
    alpha: float
    seed: int


def plan(encodings: list[str], orders: list[int], alphas: list[float], seeds: list[int],
         course_case: bool) -> list[Case]:
    """Every combination of the options, then the course case unless already there."""
    cases = [Case(*combo) for combo in itertools.product(encodings, orders, alphas, seeds)]
    extra = Case(*COURSE_CASE)
    if course_case and extra not in cases:
        cases.append(extra)
    return cases


def build(case: Case):
    """The board of `case` and its encoding (in the parent: each child inherits them)."""
    from sudosat.run.generate import generate
    from sudosat.sudoku.encoding import encode

    board = generate(case.order, case.alpha, seed=case.seed)
    return encode(board, case.encoding)


def _child(encoded, solver: str, cap_s: float, write_fd: int, options: dict) -> None:
    """In the forked child: cap the CPU time, solve, send the answer back pickled."""
    from sudosat.sat.solvers.registry import solve

    soft = max(1, math.ceil(cap_s))
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))  # SIGXCPU at soft ends us
    try:
        result = solve(encoded.cnf, solver, **options)
        stats = result.stats
        payload = (result.status.value, result.model, stats.get("conflicts"),
                   stats.get("propagations"), "", result.core)
    except Exception as exc:  # a crash is a row, not the end of the run
        payload = ("ERROR", None, None, None, f"{type(exc).__name__}: {exc}", "")
    with os.fdopen(write_fd, "wb") as out:
        pickle.dump(payload, out)


def run_one(encoded, solver: str, cap_s: float, options: dict | None = None) -> dict:
    """Solve `encoded` with `solver` (and its `options`, such as tunables) in a forked child
    under a CPU cap; time it, check it."""
    read_fd, write_fd = os.pipe()
    wall = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's code
        code = 1
        try:
            os.close(read_fd)
            _child(encoded, solver, cap_s, write_fd, options or {})
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as incoming:
        data = incoming.read()  # until the child closes the pipe or dies
    _, wait_status, usage = os.wait4(pid, 0)
    wall_s = time.perf_counter() - wall
    cpu_s = usage.ru_utime + usage.ru_stime
    row = {"cpu_s": round(cpu_s, 3), "wall_s": round(wall_s, 3),
           "load1": round(os.getloadavg()[0], 2)}  # the machine's load as the run ended
    if not data:
        # SIGXCPU at the soft cap, or SIGKILL at the hard one
        killed = os.WIFSIGNALED(wait_status) and os.WTERMSIG(wait_status) in (
            signal.SIGXCPU, signal.SIGKILL)
        ended = (signal.Signals(os.WTERMSIG(wait_status)).name if os.WIFSIGNALED(wait_status)
                 else f"exit status {os.WEXITSTATUS(wait_status)}")
        return {**row, "status": "TIMEOUT" if killed else "ERROR", "valid": "",
                "conflicts": "", "propagations": "", "error": f"child ended by {ended}",
                "core": ""}
    status, model, conflicts, props, error, core = pickle.loads(data)
    row.update(status=status, conflicts=conflicts, propagations=props, error=error, core=core)
    row["valid"], why = check_answer(encoded, status, model)
    if why:
        row["status"], row["error"] = "WRONG", why
    return row


def check_answer(encoded, status: str, model) -> tuple[str, str]:
    """("True", "") for a checked model; ("", "") when there is none; ("False", why) if wrong."""
    from sudosat.sudoku.board import check_solution

    if status == "UNSAT":
        return "False", "UNSAT, but the generated board has a solution"
    if status != "SAT":
        return "", ""
    broken = encoded.cnf.first_falsified(model)
    if broken is not None:
        return "False", f"the model falsifies clause {broken + 1}"
    fault = check_solution(encoded.board, encoded.decode(model))
    if fault is not None:
        return "False", fault
    return "True", ""


def cap_for(order: int, cap_s: float, long_cap_s: float) -> float:
    return long_cap_s if order >= LONG_ORDER else cap_s


def rotated(solvers: list[str], index: int) -> list[str]:
    """`solvers` rotated by `index`: board by board each solver takes each place in turn, so
    a neighbour's burst of load does not always fall on the same one."""
    shift = index % len(solvers) if solvers else 0
    return solvers[shift:] + solvers[:shift]


def run(cases: list[Case], solvers: list[str], cap_s: float, long_cap_s: float) -> list[dict]:
    """Every case with every solver (in rotated order), one forked child each; one row per
    run."""
    warm_up(solvers)
    rows = []
    for index, case in enumerate(cases):
        encoded = build(case)
        cap = cap_for(case.order, cap_s, long_cap_s)
        for name in rotated(solvers, index):
            row = {"encoding": case.encoding, "order": case.order, "alpha": case.alpha,
                   "seed": case.seed, "solver": name, "cap_s": cap,
                   "variables": encoded.cnf.num_vars, "clauses": len(encoded.cnf)}
            row.update(run_one(encoded, SOLVERS[name], cap, OPTIONS.get(name)))
            rows.append(row)
            print(f"{case.encoding:<10}{case.order:>3}{case.alpha:>6}{case.seed:>5}  "
                  f"{name:<11}{row['status']:<8}{row['cpu_s']:>9.2f}{row['wall_s']:>9.2f}"
                  f"{_text(row['conflicts']):>11}{_text(row['propagations']):>13}  "
                  f"{row['error']}", flush=True)
        del encoded
    return rows


def warm_up(solvers: list[str]) -> None:
    """Solve a one-clause formula with each solver in the parent, untimed.

    The registry imports a solver's module (PySAT's among them) at its first
    call; done here, before any fork, no child pays for it.
    """
    from sudosat.sat.cnf import CNF
    from sudosat.sat.solvers.registry import solve

    for name in solvers:
        solve(CNF([[1, 2], [-1]]), SOLVERS[name], **OPTIONS.get(name, {}))


def _text(value) -> str:
    return "" if value in (None, "") else str(value)


def answered(row: dict, within_s: float = math.inf) -> bool:
    """Whether the run `row` gave a checked answer (within `within_s` CPU seconds)."""
    return row["status"] in ("SAT", "UNSAT") and row["valid"] == "True" and row["cpu_s"] <= within_s


def median_answered(rows: list[dict], column: str) -> float:
    """The median of `column` over `rows`, a run without a checked answer counting as
    infinitely long."""
    return statistics.median(row[column] if answered(row) else math.inf for row in rows)


def charged(row: dict) -> float:
    """CPU seconds a run is charged in a ratio: its own when answered, else its cap."""
    return row["cpu_s"] if answered(row) else row["cap_s"]


def by_board(rows: list[dict]) -> dict[tuple, dict[int, dict[str, dict]]]:
    """The runs of `rows` by (encoding, order, alpha) in sorted order, then seed, then
    solver."""
    groups: dict[tuple, dict[int, dict[str, dict]]] = {}
    for r in rows:
        group = groups.setdefault((r["encoding"], r["order"], r["alpha"]), {})
        group.setdefault(r["seed"], {})[r["solver"]] = r
    return dict(sorted(groups.items()))


def seed_ratios(rows: list[dict], solver: str, reference: str) -> list[str]:
    """Per (encoding, order, alpha): `solver` / `reference` CPU board by board (a run
    without a checked answer charged its cap), their median, and how many boards each
    answered within its cap."""
    lines = []
    for (encoding, order, alpha), by_seed in by_board(rows).items():
        pairs = {seed: (runs[solver], runs[reference]) for seed, runs in sorted(by_seed.items())
                 if solver in runs and reference in runs}
        if not pairs:
            continue
        ratios = {seed: charged(ours) / max(charged(theirs), 1e-6)
                  for seed, (ours, theirs) in pairs.items()}
        ours_ok = sum(answered(ours, ours["cap_s"]) for ours, _ in pairs.values())
        theirs_ok = sum(answered(theirs, theirs["cap_s"]) for _, theirs in pairs.values())
        each = " ".join(f"{seed}:{ratio:.2f}" for seed, ratio in ratios.items())
        lines.append(f"{encoding} order {order} alpha {alpha}: {solver} / {reference} per seed "
                     f"{each}; median {statistics.median(ratios.values()):.2f} "
                     f"({solver} answered {ours_ok} of {len(pairs)}, {reference} {theirs_ok})")
    return lines


def solver_medians(boards: list[dict[str, dict]], solvers: list[str],
                   of: Callable[[dict], float]) -> dict[str, float]:
    """Per solver, the median over `boards` (solver -> run) of `of` of its run."""
    return {s: statistics.median(of(runs[s]) for runs in boards) for s in solvers}


def step_costs(rows: list[dict]) -> list[str]:
    """Per (encoding, order, alpha), on the boards every solver answered: each solver's
    median CPU per propagated literal (a step), steps and conflicts, and cdcl's ratios.

    A run's CPU time is its steps times what a step costs, so a CPU ratio is the
    product of the two ratios (board by board exactly; the medians nearly).
    Compared on the same boards only, so one solver's hard boards are not another's
    missing ones.
    """
    lines = []
    for (encoding, order, alpha), runs in by_board(rows).items():
        solvers = sorted({r["solver"] for by in runs.values() for r in by.values()},
                         key=list(SOLVERS).index)
        common = [by for by in runs.values() if all(
            s in by and answered(by[s]) and by[s]["propagations"] not in (None, "")
            for s in solvers)]
        if not common or "cdcl" not in solvers:
            continue
        per_step = solver_medians(
            common, solvers, lambda run: run["cpu_s"] * 1e6 / max(run["propagations"], 1))
        steps = solver_medians(common, solvers, lambda run: run["propagations"])
        conflicts = solver_medians(common, solvers, lambda run: run["conflicts"])
        each = ", ".join(f"{s} {per_step[s]:.3f} µs a step, {steps[s]:.0f} steps and "
                         f"{conflicts[s]:.0f} conflicts" for s in solvers)
        ratios = "; ".join(
            f"cdcl / {s}: {per_step['cdcl'] / per_step[s]:.1f} times the CPU a step, "
            f"{steps['cdcl'] / max(steps[s], 1):.2f} times the steps, "
            f"{conflicts['cdcl'] / max(conflicts[s], 1):.2f} times the conflicts"
            for s in solvers if s != "cdcl")
        lines.append(f"{encoding} order {order} alpha {alpha}, on the {len(common)} boards "
                     f"every solver answered, medians: {each}; {ratios}")
    return lines


NUMBERS = {"order": int, "alpha": float, "seed": int, "cap_s": float, "variables": int,
           "clauses": int, "cpu_s": float, "wall_s": float, "load1": float,
           "conflicts": int, "propagations": int}


def read_rows(path: Path) -> list[dict]:
    """The rows of a CSV this script wrote, its numbers read back as numbers (an empty
    cell stays empty), so a committed run can be summarised again without running it.

    Raises SystemExit with one line naming `path` and the cause when it cannot be read
    or is not such a CSV (no runs, a column missing, a number that is not one).
    """

    def refused(cause: object) -> SystemExit:
        return SystemExit(f"hard_end.py: {path}: {cause}")

    try:
        with open(path, newline="") as handle:
            reader = csv.DictReader(handle)
            table = list(reader)
            columns = reader.fieldnames or []  # read lazily: while the file is open
    except OSError as error:
        raise refused(error.strerror or error) from None
    except (UnicodeDecodeError, csv.Error) as error:
        raise refused(error) from None
    missing = [key for key in (*NUMBERS, "encoding", "solver", "status", "valid")
               if key not in columns]
    if missing:
        raise refused(f"no hard_end.py rows (missing {', '.join(missing)})")
    if not table:
        raise refused("no runs: a header alone")
    rows = []
    for number, row in enumerate(table, start=2):  # line 1 is the header
        try:
            rows.append({key: NUMBERS[key](text) if key in NUMBERS and text != "" else text
                         for key, text in row.items()})
        except (ValueError, TypeError) as error:  # TypeError: a short row's None
            raise refused(f"line {number}: {error}") from None
    return rows


def summary(rows: list[dict]) -> list[str]:
    """Everything printed after the runs: acceptance figures, per-seed ratios, step costs."""
    lines = acceptance(rows)
    for reference in ("minisat22", "cadical195"):
        lines += seed_ratios(rows, "cdcl", reference)
    return lines + step_costs(rows)


def acceptance(rows: list[dict]) -> list[str]:
    """The three acceptance figures, each with what it rests on ("not run" when absent)."""

    def pick(encoding: str, order: int, alpha: float, seeds, solver: str) -> list[dict]:
        return [r for r in rows if (r["encoding"], r["order"], r["alpha"], r["solver"])
                == (encoding, order, alpha, solver) and r["seed"] in seeds]

    lines = []
    seven = pick("optimised", 7, 0.4, (1, 2, 3), "cdcl")
    lines.append("order 7, alpha 0.4, optimised, seeds 1-3, cdcl answered within 120 s CPU: "
                 + (f"{sum(answered(r, 120) for r in seven)} of {len(seven)}"
                    if seven else "not run"))
    ours = pick("optimised", 6, 0.4, (1, 2, 3), "cdcl")
    theirs = pick("optimised", 6, 0.4, (1, 2, 3), "minisat22")
    if ours and theirs:
        mine, minisat = median_answered(ours, "cpu_s"), median_answered(theirs, "cpu_s")
        lines.append("order 6, alpha 0.4, optimised, seeds 1-3, median cdcl / median MiniSat: "
                     f"{mine / minisat:.1f} ({mine:.2f} s / {minisat:.3f} s CPU)")
    else:
        lines.append("order 6, alpha 0.4, optimised, seeds 1-3, cdcl / MiniSat: not run")
    course = pick(*COURSE_CASE[:3], (COURSE_CASE[3],), "cdcl")
    lines.append("course encoding, order 5, alpha 0.4, seed 7, cdcl answered within 60 s CPU: "
                 + (f"{'yes' if answered(course[0], 60) else 'no'} "
                    f"({course[0]['status']}, {course[0]['cpu_s']:.2f} s)"
                    if course else "not run"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", type=int, nargs="+", default=[5, 6, 7])
    parser.add_argument("--alphas", type=float, nargs="+", default=[0.4])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--encodings", nargs="+", default=["optimised"])
    parser.add_argument("--solvers", nargs="+", choices=list(SOLVERS), default=DEFAULT_SOLVERS,
                        help="cdcl-python: the reference core beside the compiled one")
    parser.add_argument("--cap", type=float, default=60.0, help="CPU seconds a run (default 60)")
    parser.add_argument("--long-cap", type=float, default=120.0,
                        help=f"CPU seconds a run at order {LONG_ORDER} and above (default 120)")
    parser.add_argument("--no-course-case", dest="course_case", action="store_false",
                        help="leave out the course encoding's order-5 alpha-0.4 seed-7 board")
    parser.add_argument("--quick", action="store_true",
                        help="orders 4 and 5, seed 1, caps of 20 s, no course case")
    parser.add_argument("--csv", type=Path, default=RESULTS / "hard_end.csv")
    parser.add_argument("--summarise", type=Path, metavar="CSV",
                        help="print the figures of a CSV this script wrote; run nothing")
    args = parser.parse_args(argv)
    if args.summarise:
        for line in summary(read_rows(args.summarise)):
            print(line)
        return 0
    if args.quick:
        args.orders, args.seeds, args.cap, args.long_cap = [4, 5], [1], 20.0, 20.0
        args.course_case = False
    cases = plan(args.encodings, args.orders, args.alphas, args.seeds, args.course_case)
    print(f"{'encoding':<10}{'N':>3}{'alpha':>6}{'seed':>5}  {'solver':<11}{'status':<8}"
          f"{'CPU s':>9}{'wall s':>9}{'conflicts':>11}{'propagations':>13}")
    started = os.getloadavg()[0]
    rows = run(cases, args.solvers, args.cap, args.long_cap)
    write_csv(args.csv, rows)
    for line in summary(rows):
        print(line)
    print(f"load average (1 min) at the start {started:.2f}, at the end {os.getloadavg()[0]:.2f}; "
          f"rows written to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
