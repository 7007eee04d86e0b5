"""Helpers for the external-solver tests: fake programs, the process table, hard formulas."""

from __future__ import annotations

import os
import random
import stat
import sys
import time
import warnings
from pathlib import Path

from sudosat.sat.cnf import CNF, read_dimacs
from sudosat.sat.formulas import random_kcnf
from sudosat.sat.result import Status
from tests.clock import WAIT_MARGIN_S, cpu_spent

FAKE_SOLVER = Path(__file__).resolve().parent / "fake_solver.py"
TRANSCRIPTS = Path(__file__).resolve().parent.parent / "data" / "zchaff"
TINY_SAT = CNF([[1, -2], [2, 3]])
TINY_UNSAT = CNF([[1, 2], [-1, 2], [1, -2], [-1, -2]])


def make_launcher(folder: Path, name: str) -> Path:
    """An executable `folder/name` that runs the fake solver with its arguments.

    The launcher ``exec``s Python, so its pid (and process group) is the fake's.
    It does not rely on the fake's own file mode or on a ``python3`` on PATH.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_SOLVER}" "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def process_table() -> dict[int, tuple[str, int, int]]:
    """Every process: pid -> (state, parent pid, process group), read from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue  # it ended while we looked
        # "pid (comm) state ppid pgrp ...": comm may hold blanks and parentheses
        fields = text[text.rindex(")") + 2 :].split()
        table[int(entry.name)] = (fields[0], int(fields[1]), int(fields[2]))
    return table


def live_children() -> set[int]:
    """Pids of this process's children that are still running (zombies are dead)."""
    me = os.getpid()
    return {
        pid for pid, (state, parent, _) in process_table().items() if parent == me and state != "Z"
    }


def alive(pid: int) -> bool:
    """True when `pid` is a running process (not a zombie)."""
    entry = process_table().get(pid)
    return entry is not None and entry[0] != "Z"


def group_members(group: int) -> set[int]:
    """Running (non-zombie) processes of process group `group`."""
    return {
        pid for pid, (state, _, pgrp) in process_table().items() if pgrp == group and state != "Z"
    }


def random_formulas(count: int, seed: int = 2024) -> list[CNF]:
    """`count` random 3-CNFs around the threshold (ratio 3.5-5.0), SAT and UNSAT mixed."""
    rng = random.Random(seed)
    formulas = []
    for _ in range(count):
        num_vars = rng.randint(5, 40)
        formulas.append(random_kcnf(rng, num_vars, int(num_vars * rng.uniform(3.5, 5.0))))
    return formulas


def sudoku_rules_with_givens(rules: Path, puzzle: str) -> CNF:
    """The SAT -Sn rules file (variables rcv = 111..999) plus a puzzle's unit clauses."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the public rules file lies about its clause count
        cnf = read_dimacs(rules)
    for index, symbol in enumerate(puzzle):
        if symbol not in "0.":
            row, column = divmod(index, 9)
            cnf.add_clause([100 * (row + 1) + 10 * (column + 1) + int(symbol)])
    return cnf


def assert_quick_unknown(run, limit_s: float = 1.5):
    """`run()` answers UNKNOWN in time and leaves no child process behind.

    In time: within `limit_s` of CPU, its own and its reaped children's (a solver that
    ignores T burns far more), and within `limit_s` plus a busy machine's margin of wall
    time (a sleeping child that is never killed sleeps for minutes); see tests/clock.py.
    """
    before = live_children()
    started = time.monotonic()
    with cpu_spent() as spent:
        result = run()
    took = time.monotonic() - started
    assert result.status is Status.UNKNOWN and result.model is None
    assert spent.seconds < limit_s, f"used {spent!r}"
    assert took < limit_s + WAIT_MARGIN_S, f"took {took:.2f} s"
    assert live_children() <= before
    return result


def decode_rcv(model: list[int]) -> str:
    """The 9x9 board of a model over the rules file's rcv variables (111..999)."""
    cells = ["0"] * 81
    for lit in model:
        if lit > 110:
            row, column, digit = lit // 100, lit // 10 % 10, lit % 10
            if 1 <= row <= 9 and 1 <= column <= 9 and 1 <= digit <= 9:
                cells[(row - 1) * 9 + column - 1] = str(digit)
    return "".join(cells)
