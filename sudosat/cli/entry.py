"""The ``sudosat`` parser with every sub-command, and :func:`main`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from sudosat.cli.common import EXIT_USAGE
from sudosat.cli.encode import (
    add_check_parser,
    add_decode_parser,
    add_encode_parser,
    run_check,
    run_decode,
    run_encode,
)
from sudosat.cli.generate import (
    add_count_parser,
    add_generate_parser,
    run_count,
    run_generate,
)
from sudosat.cli.guard import guarded
from sudosat.cli.report import add_report_parser, run_report
from sudosat.cli.sat import (
    add_sat_parser,
    run_sat,
)
from sudosat.cli.solve import (
    add_solve_parser,
    add_solvers_parser,
    run_solve,
    run_solvers,
)
from sudosat.cli.study import add_study_parser, run_study_command
from sudosat.run.options import OneLineParser


def build_parser() -> argparse.ArgumentParser:
    """The ``sudosat`` argument parser with every sub-command."""
    parser = OneLineParser(
        prog="sudosat",
        description="Sudoku of any order reduced to SAT, solved by our own solvers and by zChaff.",
        epilog="examples:\n"
        "  sudosat solve data/course-example.txt -o solved.txt -T 10000   # every line, checked\n"
        "  sudosat encode data/course-example.txt -o example.cnf          # one step at a time\n"
        "  sudosat sat example.cnf -o example.sol\n"
        "  sudosat decode example.sol --instance data/course-example.txt\n"
        "\n'sudosat COMMAND --help' explains each command and gives examples.\n"
        "\nExit 1: bad input, or an output refused before any work (an input, another\n"
        "output, a folder's name, not writable), or what the machine refused (a full\n"
        "disk, memory); a closed pipe ('| head') ends quietly with exit 1. Option\n"
        "numbers are ASCII digits.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from sudosat import __version__

    parser.add_argument("--version", action="version", version=f"sudosat {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    registered: list[tuple[Callable, Callable]] = [
        (add_encode_parser, run_encode),
        (add_sat_parser, run_sat),
        (add_decode_parser, run_decode),
        (add_check_parser, run_check),
        (add_solvers_parser, run_solvers),
        (add_generate_parser, run_generate),
        (add_count_parser, run_count),
        (add_solve_parser, run_solve),
        (add_study_parser, run_study_command),
        (add_report_parser, run_report),
    ]
    for add_parser, run in registered:
        before = set(subparsers.choices)
        add_parser(subparsers)
        for name in set(subparsers.choices) - before:
            subparsers.choices[name].set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Run ``sudosat`` with `argv` (default: the process's arguments); return the exit code.

    `started` is when the command began on the wall clock (``time.monotonic``):
    a time limit that bounds the whole command (``sat -T``) counts from it
    (default: from now). :func:`sudosat.cli.main` gives the process's start.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    args.started = started
    return guarded(lambda: args.run(args), "sudosat", _subject(args))


def _subject(args: argparse.Namespace) -> str | None:
    """The input a command works on, for the internal-error line."""
    for name in ("file", "solution"):
        value = getattr(args, name, None)
        if value is not None:
            return "<stdin>" if value == "-" else str(value)
    return None
