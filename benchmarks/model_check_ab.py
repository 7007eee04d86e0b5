"""The model check of ``sudosat/sat/cnf.py`` against an earlier version of it, in one process.

Three measurements, CPU time, the two versions alternately:

* ``check_model`` on the course encodings of the first ``--boards`` top2365
  lines (each made as the pipeline makes it: the cached rules copied, the
  givens appended), with the model our ``cdcl`` found; least of 5 passes;
* the first (and only) ``first_falsified`` of a one-off random 3-SAT formula
  (2,000 variables, 8,520 clauses), fresh each time, as is and as a copy;
  least of 10;
* the whole ``solve_instance(board, "cdcl")`` on every 10th top2365 line:
  least of 3 per board, median over the boards. The earlier version runs
  with its ``first_falsified`` and ``check_model`` put in place of the
  current ones (both read only ``_flat`` and ``num_vars``).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/model_check_ab.py --base HEAD~1
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from benchmarks.solvers import DATA, ROOT
from sudosat.run.pipeline import solve_instance
from sudosat.sat.cnf import CNF
from sudosat.sat.solvers.cdcl import solve
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import encode

TOP2365 = DATA / "top2365.sdk.txt"


def load_base(revision: str) -> ModuleType:
    """``sudosat/sat/cnf.py`` at `revision`, imported as a module of its own."""
    text = subprocess.run(
        ["git", "show", f"{revision}:sudosat/sat/cnf.py"], cwd=ROOT, check=True,
        capture_output=True, text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "cnf_base.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("cnf_base", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def least(run: Callable[[], object], repeat: int = 5) -> float:
    """The least CPU time of `repeat` calls of `run`, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        run()
        best = min(best, time.process_time() - began)
    return best


def course_checks(base: ModuleType, lines: list[str]) -> None:
    after = [encode(Board.parse(line), "course").cnf for line in lines]
    models = [solve(cnf).model for cnf in after]
    before = [base.CNF.from_flat(array("i", cnf.flat), cnf.num_vars) for cnf in after]

    def check(formulas: list) -> None:
        for cnf, model in zip(formulas, models, strict=True):
            cnf.check_model(model)

    for _ in range(2):
        was, now = least(lambda: check(before)), least(lambda: check(after))
        print(f"check_model, {len(lines)} course encodings: before {was / len(lines) * 1e6:.0f} us,"
              f" after {now / len(lines) * 1e6:.0f} us a check (x{was / now:.1f})")


def one_off_checks(base: ModuleType) -> None:
    rng = random.Random(1)
    clauses = [[rng.choice((1, -1)) * rng.randint(1, 2000) for _ in range(3)] for _ in range(8520)]
    model = [v if rng.random() < 0.5 else -v for v in range(1, 2001)]
    makers = (("as is", lambda cls: cls(clauses)), ("a copy", lambda cls: cls(clauses).copy()))
    for label, make in makers:
        was, now = [], []
        for turn in range(10):  # alternately first: neither gains from the other's warm caches
            pair = ((was, base.CNF), (now, CNF))
            for times, cls in pair[:: 1 if turn % 2 else -1]:
                cnf = make(cls)
                began = time.process_time()
                cnf.first_falsified(model)
                times.append(time.process_time() - began)
        print(f"first check of a one-off 3-SAT formula, {label}: before {min(was) * 1e6:.0f} us,"
              f" after {min(now) * 1e6:.0f} us")


def pipeline(base: ModuleType, boards: list[Board]) -> None:
    current = CNF.first_falsified, CNF.check_model
    earlier = base.CNF.first_falsified, base.CNF.check_model
    was, now = [], []
    for board in boards:
        for times, (first_falsified, check_model) in ((was, earlier), (now, current)):
            CNF.first_falsified, CNF.check_model = first_falsified, check_model  # type: ignore[method-assign]
            times.append(least(lambda board=board: solve_instance(board, "cdcl"), 3))
    CNF.first_falsified, CNF.check_model = current  # type: ignore[method-assign]
    was_ms, now_ms = statistics.median(was) * 1e3, statistics.median(now) * 1e3
    print(f"solve_instance(board, 'cdcl'), {len(boards)} boards, median of the least of 3:"
          f" before {was_ms:.2f} ms, after {now_ms:.2f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="git revision of the earlier cnf.py")
    parser.add_argument("--boards", type=int, default=50, help="encodings for the check alone")
    parser.add_argument("--skip-pipeline", action="store_true")
    args = parser.parse_args(argv)
    base = load_base(args.base)
    lines = [line.strip() for line in TOP2365.read_text().splitlines() if line.strip()]
    course_checks(base, lines[: args.boards])
    one_off_checks(base)
    if not args.skip_pipeline:
        pipeline(base, [Board.parse(line) for line in lines[::10]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
