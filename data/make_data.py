"""Write data/instances.txt, the instance file the report runs on.

Every board is made here, by the project's own generator, from the fixed seed
below; nothing is copied from elsewhere. Run it from the project root:

    .venv/bin/python data/make_data.py            # rewrites data/instances.txt
    .venv/bin/python data/make_data.py --check    # exits 1 if the file is stale
    .venv/bin/python data/make_data.py --select   # grades afresh (about 1 min), writes nothing

Contents, one board per line in the course format ``N T``:

1. the course's own example;
2. 48 order-3 minimal puzzles with exactly one solution, chosen by grade.
   :data:`CANDIDATES` minimal puzzles are generated (``generate(3, 0.0,
   unique=True)``: cells are emptied in a seeded order while the solution
   stays unique, so no given can go) and each is graded by the conflicts our
   ``cdcl`` needs on its course encoding (seed 0). The hardest half is kept as
   is ("keep the hardest of many", as graded collections do); the other half
   is spread evenly over the remaining grades, down to puzzles that
   propagation alone solves. Lines are in order of grade.

   A grade depends on the solver's version, and ``cdcl`` keeps changing, so
   the choice is pinned: :data:`CHOSEN` lists the candidates picked when the
   file was written, and the file is rebuilt from them without grading.
   ``--select`` grades all candidates with today's ``cdcl`` and prints the
   choice it would make now (to pin it, paste it into :data:`CHOSEN`);
3. 4 order-4 puzzles with one solution each (alpha 0.60, 0.50, 0.42, 0.36);
4. 3 order-5 puzzles (alpha 0.76, 0.70, 0.64; feasible, not checked unique);
5. one order-3 board whose givens clash: two empty cells of row 1 of a puzzle
   are set to 5, which row 1 already holds, so row 1 holds 5 three times
   (and box 2 twice): UNSAT.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudosat.run.generate import generate
from sudosat.sat.solvers.registry import solve
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.sudoku.encoding import encode

SEED = 20240611
"""The seed every board derives from (board k of a group uses SEED + offset + k)."""

CANDIDATES = 1500
"""Minimal order-3 puzzles generated and graded (about 0.15 s each)."""
ORDER3_COUNT = 48
ORDER3_OFFSET = 1000
CHOSEN = (
    96, 80, 21, 1148, 708, 324, 127, 1153, 783, 482, 309, 702, 1105, 269, 1212, 636,
    319, 198, 1299, 1412, 1001, 276, 620, 39, 371, 1142, 706, 940, 981, 33, 1132, 556,
    1124, 1307, 278, 1214, 23, 495, 412, 93, 348, 741, 288, 1177, 1086, 1280, 515, 507,
)
"""The order-3 candidates on lines 2-49, in file order (k: seed ``SEED + ORDER3_OFFSET + k``).

:func:`choose` picked them on 2026-11-23 (commit 6d37f43) from the grades the
``cdcl`` of that day gave; ``--select`` prints what it would pick today.
"""
ORDER4_ALPHAS = (0.60, 0.50, 0.42, 0.36)
ORDER5_ALPHAS = (0.76, 0.70, 0.64)
TARGET = Path(__file__).resolve().parent / "instances.txt"


def conflicts(board: Board) -> int:
    """The grade of a puzzle: conflicts of ``cdcl`` (seed 0) on its course encoding."""
    result = solve(encode(board, "course").cnf, "cdcl", seed=0)
    if not result.is_sat:
        raise RuntimeError(f"a generated puzzle was not solved: {board.to_line()}")
    return int(result.stats["conflicts"])


def candidate(k: int) -> Board:
    """Order-3 candidate `k`: a minimal unique puzzle from seed ``SEED + ORDER3_OFFSET + k``."""
    return generate(3, 0.0, seed=SEED + ORDER3_OFFSET + k, unique=True)


def graded_minimal_puzzles(count: int = CANDIDATES) -> list[tuple[int, int]]:
    """``(grade, k)`` for candidates 0 to `count` - 1 by today's ``cdcl``, easiest first."""
    graded = [(conflicts(candidate(k)), k) for k in range(count)]
    graded.sort()  # ties broken by candidate number: stable
    return graded


def choose(graded: list[tuple[int, int]], count: int = ORDER3_COUNT) -> list[tuple[int, int]]:
    """The hardest half of `graded` and an even spread over the rest, easiest first."""
    hard = count // 2
    rest = graded[:-hard]
    easy = count - hard
    step = (len(rest) - 1) / (easy - 1)
    return [rest[round(k * step)] for k in range(easy)] + graded[-hard:]


def clashing_board() -> Board:
    """An order-3 puzzle with its first two empty cells of row 1 set to 5 (UNSAT).

    Row 1 of the puzzle holds a 5 already, so the board's row 1 holds 5 three
    times, at (1, 1), (1, 4) and (1, 6), and box 2 twice.
    """
    base = generate(3, 0.35, seed=SEED + 900, unique=True)
    cells = list(base.cells)
    row = [j for j in range(9) if cells[j] == 0]
    cells[row[0]] = cells[row[1]] = 5
    return Board(3, cells)


def boards() -> list[Board]:
    """Every board of the file, in file order."""
    made = [Board.parse(COURSE_EXAMPLE)]
    made += [candidate(k) for k in CHOSEN]
    made += [generate(4, a, seed=SEED + 100 + k, unique=True) for k, a in enumerate(ORDER4_ALPHAS)]
    made += [generate(5, a, seed=SEED + 200 + k) for k, a in enumerate(ORDER5_ALPHAS)]
    made.append(clashing_board())
    return made


def select() -> str:
    """What :func:`choose` picks with today's ``cdcl``: the grades and a :data:`CHOSEN` to paste."""
    picked = choose(graded_minimal_puzzles())
    grades = [grade for grade, _ in picked]
    numbers = ", ".join(str(k) for _, k in picked)
    return (
        f"today's grades of the chosen lines: {grades}\n"
        f"{min(grades)} to {max(grades)} conflicts, {sum(g > 30 for g in grades)} above 30\n"
        f"CHOSEN = ({numbers},)\n"
        f"same as the pinned CHOSEN: {tuple(k for _, k in picked) == CHOSEN}"
    )


def main(argv: list[str] | None = None) -> int:
    """Write the file, compare it (``--check``) or grade afresh (``--select``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="compare instead of writing")
    what.add_argument(
        "--select", action="store_true", help="grade every candidate with today's cdcl (no write)"
    )
    parser.add_argument("--output", type=Path, default=TARGET)
    args = parser.parse_args(argv)
    if args.select:
        print(select())
        return 0
    text = "".join(board.to_line() + "\n" for board in boards())
    if args.check:
        same = args.output.is_file() and args.output.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{args.output} differs from what the generator makes")
        return 0 if same else 1
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} boards to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
