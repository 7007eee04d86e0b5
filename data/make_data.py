"""Write data/instances.txt, the instance file the report runs on.

Every board is made here, by the project's own generator, from the fixed seed
below; nothing is copied from elsewhere. Run it from the project root:

    .venv/bin/python data/make_data.py            # rewrites data/instances.txt
    .venv/bin/python data/make_data.py --check    # exits 1 if the file is stale

Contents, one board per line in the course format ``N T``:

1. the course's own example (SPEC §1.1);
2. 48 order-3 puzzles with exactly one solution each, graded from easy to hard
   by the fraction of given cells (alpha from 0.62 down to 0.20; the generator
   stops emptying cells when one more would allow a second solution, so the
   hardest ones are minimal puzzles of 22-27 givens);
3. 4 order-4 puzzles with one solution each (alpha 0.60, 0.50, 0.42, 0.36);
4. 3 order-5 puzzles (alpha 0.76, 0.70, 0.64; feasible, not checked unique);
5. one order-3 board whose givens clash (two 5s in the first row): UNSAT.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudosat.board import Board
from sudosat.generate import generate

SEED = 20240611
"""The seed every board derives from (board k of a group uses SEED + offset + k)."""

COURSE_EXAMPLE = (
    "3 000400009020980030093000840000000000200008067160300002049000650600003000000059010"
)
ORDER3_COUNT = 48
ORDER4_ALPHAS = (0.60, 0.50, 0.42, 0.36)
ORDER5_ALPHAS = (0.76, 0.70, 0.64)
TARGET = Path(__file__).resolve().parent / "instances.txt"


def order3_alpha(k: int) -> float:
    """Fill fraction of the k-th order-3 puzzle: evenly from 0.62 down to 0.20."""
    return round(0.62 - (0.62 - 0.20) * k / (ORDER3_COUNT - 1), 4)


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
    made += [generate(3, order3_alpha(k), seed=SEED + k, unique=True) for k in range(ORDER3_COUNT)]
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
