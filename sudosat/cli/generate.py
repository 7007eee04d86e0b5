"""``sudosat generate`` (puzzles of order N) and ``sudosat count`` (solutions, up to a limit)."""

from __future__ import annotations

import argparse
import importlib.util
import sys

from sudosat.cli.common import (
    EPILOG_FORMATS,
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    add_memory_option,
    add_solver_options,
    add_time_limit,
    add_zchaff_option,
    check_board_memory,
    deadline_of,
    guard_outputs,
    read_input_text,
    seed_number,
    write_output,
)
from sudosat.errors import SudosatError
from sudosat.run.options import positive_int, solver_name, strict_number, too_large
from sudosat.run.results import Verdict, format_output

# ---------------------------------------------------------------------------------------
# sudosat generate


def _fraction(text: str) -> float:
    value = strict_number(text)
    if value is None:
        raise too_large(text) or argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("alpha is a fraction of the cells: 0 <= alpha <= 1")
    return value


def add_generate_parser(subparsers) -> None:
    """Declare ``sudosat generate`` and its options on `subparsers`."""
    parser = subparsers.add_parser(
        "generate",
        help="generate boards of order N with a fraction alpha of the cells given",
        description="Generate boards of order N (N^2 x N^2 cells) with round(alpha * N^4) givens, "
        "one instance line each (the course format up to order 6, numbers beyond). Method "
        "'solution' (default) empties cells of a random complete solution, so every board is "
        "feasible; its solution comes from our solver on random diagonal boxes up to order 4 and "
        "from a shuffled pattern solution beyond (--base). Method 'naive' is the original "
        "experiment's random consistent fill, whose boards may have no solution. The same seed "
        "gives the same file.",
        epilog="examples:\n"
        "  sudosat generate --order 3 --alpha 0.3 --count 10 --seed 1 -o boards.txt\n"
        "  sudosat generate --order 3 --alpha 0.25 --unique\n"
        "  sudosat generate --order 9 --alpha 0.75 --seed 7 -o big.txt",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--order", type=positive_int, required=True, metavar="N", help="the order N"
    )
    parser.add_argument(
        "--alpha",
        type=_fraction,
        metavar="A",
        help="fraction of the cells given, 0 <= A <= 1 (required unless --minimal)",
    )
    parser.add_argument(
        "--count", type=positive_int, default=1, metavar="K", help="how many boards (default 1)"
    )
    parser.add_argument(
        "--seed", type=seed_number, default=0, metavar="S",
        help="seed; board k uses seed S + k (default 0)",
    )
    parser.add_argument(
        "--unique",
        action="store_true",
        help="empty a cell only while the puzzle keeps exactly one solution",
    )
    parser.add_argument(
        "--minimal",
        action="store_true",
        help="unique, and no given can go without losing uniqueness (alpha 0 unless given)",
    )
    parser.add_argument(
        "--method",
        choices=("solution", "naive"),
        default="solution",
        help="empty a random solution (default) or the naive consistent fill",
    )
    parser.add_argument(
        "--base",
        choices=("auto", "solver", "pattern"),
        default="auto",
        help="where the complete solution comes from (default auto)",
    )
    parser.add_argument(
        "--solver",
        default="cdcl",
        type=solver_name,
        metavar="NAME",
        help="solver of the base solution and uniqueness checks (default cdcl)",
    )
    add_zchaff_option(parser)
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write here instead of standard output"
    )
    add_time_limit(parser, "for all the boards together",
                    "it says so in one line on standard error, writes nothing and exits 1")
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress bars on standard error (default: only when it is a terminal)",
    )
    add_memory_option(parser)


def _check_zchaff(args: argparse.Namespace) -> None:
    """Refuse a wrong --zchaff once, before any work (a count would name it on every line)."""
    if args.solver == "zchaff" and args.zchaff:
        from sudosat.sat.solvers.zchaff import find_zchaff

        find_zchaff(args.zchaff)


def run_generate(args: argparse.Namespace) -> int:
    """Run ``sudosat generate`` with the parsed `args`; return the exit code."""
    from sudosat.run.generate import generate_many

    if args.alpha is None and not args.minimal:
        print("sudosat generate: --alpha is required (unless --minimal)", file=sys.stderr)
        return EXIT_USAGE
    guard_outputs([], [(args.output, "the boards")])
    check_board_memory(args.order, args, args.count)
    _check_zchaff(args)
    boards = generate_many(
        args.order,
        0.0 if args.alpha is None else args.alpha,
        args.count,
        seed=args.seed,
        unique=args.unique or args.minimal,
        minimal=args.minimal,
        method=args.method,
        base=args.base,
        solver=args.solver,
        zchaff=args.zchaff,
        deadline=deadline_of(args),
        # by default on a terminal, where the extra that draws the bars is installed
        progress=(sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None)
        if args.progress is None
        else args.progress,
    )
    write_output("".join(board.to_line() + "\n" for board in boards), args.output)
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat count


def add_count_parser(subparsers) -> None:
    """Declare ``sudosat count`` and its options on `subparsers`."""
    parser = subparsers.add_parser(
        "count",
        help="count the solutions of every instance of a file, up to a limit",
        description="""\
For each line of FILE, one output line: the number of solutions that keep its
givens, counted up to --limit: '0', '1', ... or 'at least K'; 'TIMEOUT' when
-T (per line, wall clock) ran out first, 'ERROR <reason>' for a line that
cannot be read. One
incremental solver per line: solve, forbid that solution, solve again.
Exit 0, or 1 when a line was an ERROR.""",
        epilog=EPILOG_FORMATS
        + "\nexamples:\n"
        "  sudosat count data/course-example.txt           # 1: exactly one solution\n"
        "  sudosat generate --order 3 --alpha 0.2 --count 4 --seed 1 | sudosat count - --limit 5",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="instance file, one board per line ('-': standard input)")
    parser.add_argument(
        "--limit",
        "--count-solutions",
        dest="limit",
        type=positive_int,
        default=2,
        metavar="K",
        help="stop counting at K solutions (default 2: is it unique?)",
    )
    parser.add_argument(
        "--solver", default="cdcl", metavar="NAME", help="which solver (default cdcl)"
    )
    parser.add_argument(
        "--encoding",
        default="extended",
        metavar="NAME",
        help="a full encoding (default extended, the fastest here; not the optimised ones)",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write here instead of standard output"
    )
    add_time_limit(parser, "per line (loading the rules and every count)",
                    "the line's answer is 'TIMEOUT'")
    add_solver_options(parser)


def run_count(args: argparse.Namespace) -> int:
    """Run ``sudosat count`` with the parsed `args`; return the exit code."""
    from sudosat.sudoku.incremental import check_encoding

    guard_outputs([(args.file, "the instance file")], [(args.output, "the counts")])
    check_encoding(args.encoding)
    lines = read_input_text(args.file).split("\n")
    if lines and not lines[-1]:
        lines.pop()  # the final line end starts no line
    _check_zchaff(args)
    answers, failed = _count_lines(args, lines)
    write_output("".join(line + "\n" for line in answers), args.output)
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _count_lines(args: argparse.Namespace, lines: list[str]) -> tuple[list[str], bool]:
    """The answer of every line, and whether one was an ERROR (named on standard error)."""
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.incremental import count_solutions

    source = "<stdin>" if args.file == "-" else args.file
    answers, failed = [], False
    for number, text in enumerate(lines, 1):
        text = text.removesuffix("\r")
        try:
            board = Board.parse(text, source=source, line=number)
            found = count_solutions(
                board, args.limit, solver=args.solver, encoding=args.encoding,
                deadline=deadline_of(args), seed=args.seed, zchaff=args.zchaff,
            )
        except SudosatError as exc:
            print(f"sudosat: {exc}", file=sys.stderr)
            answers.append(format_output(Verdict.ERROR, reason=exc.reason))
            failed = True
            continue
        if found is None:
            answers.append(Verdict.TIMEOUT.value)
        else:
            answers.append(f"at least {found}" if found >= args.limit else str(found))
    return answers, failed
