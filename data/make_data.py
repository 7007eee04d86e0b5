"""Write data/instances.txt, the instance file the report runs on.

Every board is made here, by the project's own generator, from the fixed seed
below; nothing is copied from elsewhere. Run it from the project root:

    .venv/bin/python data/make_data.py            # rewrites data/instances.txt (about 4 min)
    .venv/bin/python data/make_data.py --check    # exits 1 if the file is stale

Contents, one board per line in the course format ``N T``:

1. the course's own example (SPEC §1.1);
2. 48 order-3 minimal puzzles with exactly one solution, from easy to hard.
   :data:`CANDIDATES` minimal puzzles are generated (``generate(3, 0.0,
   unique=True)``: cells are emptied in a seeded order while the solution
   stays unique, so no given can go) and each is graded by the conflicts our
   ``cdcl`` needs on its course encoding (seed 0, as the report runs it). The
   hardest half is kept as is ("keep the hardest of many", as graded
   collections do); the other half is spread evenly over the remaining grades,
   down to puzzles that propagation alone solves. Lines are in order of grade;
3. 4 order-4 puzzles with one solution each (alpha 0.60, 0.50, 0.42, 0.36);
4. 3 order-5 puzzles (alpha 0.76, 0.70, 0.64; feasible, not checked unique);
5. one order-3 board whose givens clash (two 5s in the first row): UNSAT.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudosat.board import COURSE_EXAMPLE, Board
from sudosat.encoding import encode
from sudosat.generate import generate
from sudosat.solvers.base import solve

SEED = 20240611
"""The seed every board derives from (board k of a group uses SEED + offset + k)."""

CANDIDATES = 1500
"""Minimal order-3 puzzles generated and graded (about 0.15 s each)."""
ORDER3_COUNT = 48
ORDER3_OFFSET = 1000
ORDER4_ALPHAS = (0.60, 0.50, 0.42, 0.36)
ORDER5_ALPHAS = (0.76, 0.70, 0.64)
TARGET = Path(__file__).resolve().parent / "instances.txt"


def conflicts(board: Board) -> int:
    """The grade of a puzzle: conflicts of ``cdcl`` (seed 0) on its course encoding."""
    result = solve(encode(board, "course").cnf, "cdcl", seed=0)
    if not result.is_sat:
        raise RuntimeError(f"a generated puzzle was not solved: {board.to_line()}")
    return int(result.stats["conflicts"])


def graded_minimal_puzzles(count: int = CANDIDATES) -> list[tuple[int, Board]]:
    """`count` minimal unique order-3 puzzles with their grades, easiest first."""
    graded = []
    for k in range(count):
        board = generate(3, 0.0, seed=SEED + ORDER3_OFFSET + k, unique=True)
        graded.append((conflicts(board), k, board))
    graded.sort(key=lambda item: (item[0], item[1]))  # ties broken by seed: stable
    return [(grade, board) for grade, _, board in graded]


def choose(graded: list[tuple[int, Board]], count: int = ORDER3_COUNT) -> list[Board]:
    """The hardest half of `graded` and an even spread over the rest, easiest first."""
    hard = count // 2
    rest = graded[:-hard]
    easy = count - hard
    step = (len(rest) - 1) / (easy - 1)
    picked = [rest[round(k * step)] for k in range(easy)] + graded[-hard:]
    return [board for _, board in picked]


def clashing_board() -> Board:
    """An order-3 board with consistent-looking givens except two 5s in row 1 (UNSAT)."""
    base = generate(3, 0.35, seed=SEED + 900, unique=True)
    cells = list(base.cells)
    row = [j for j in range(9) if cells[j] == 0]
    cells[row[0]] = cells[row[1]] = 5
    return Board(3, cells)


def boards() -> list[Board]:
    """Every board of the file, in file order."""
    made = [Board.parse(COURSE_EXAMPLE)]
    made += choose(graded_minimal_puzzles())
    made += [generate(4, a, seed=SEED + 100 + k, unique=True) for k, a in enumerate(ORDER4_ALPHAS)]
    made += [generate(5, a, seed=SEED + 200 + k) for k, a in enumerate(ORDER5_ALPHAS)]
    made.append(clashing_board())
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--output", type=Path, default=TARGET)
    args = parser.parse_args(argv)
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
