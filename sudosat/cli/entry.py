"""The ``sudosat`` parser with every sub-command, and :func:`main`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from sudosat.cli.common import (
    EXIT_USAGE,
    _Parser,
)
from sudosat.cli.encode import (
    _add_check_parser,
    _add_decode_parser,
    _add_encode_parser,
    _run_check,
    _run_decode,
    _run_encode,
)
from sudosat.cli.generate import (
    _add_count_parser,
    _add_generate_parser,
    _run_count,
    _run_generate,
)
from sudosat.cli.guard import _guarded
from sudosat.cli.sat import (
    _add_sat_parser,
    _run_sat,
)
from sudosat.cli.solve import (
    _add_solve_parser,
    _add_solvers_parser,
    _run_solve,
    _run_solvers,
)


def build_parser() -> argparse.ArgumentParser:
    """The ``sudosat`` argument parser with every sub-command."""
    parser = _Parser(
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
        (_add_encode_parser, _run_encode),
        (_add_sat_parser, _run_sat),
        (_add_decode_parser, _run_decode),
        (_add_check_parser, _run_check),
        (_add_solvers_parser, _run_solvers),
        (_add_generate_parser, _run_generate),
        (_add_count_parser, _run_count),
        (_add_solve_parser, _run_solve),
    ]
    for add_parser, run in registered:
        before = set(subparsers.choices)
        add_parser(subparsers)
        for name in set(subparsers.choices) - before:
            subparsers.choices[name].set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sudosat`` with `argv` (default: the process's arguments); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    return _guarded(lambda: args.run(args), "sudosat", _subject(args))


def _subject(args: argparse.Namespace) -> str | None:
    """The input a command works on, for the internal-error line."""
    for name in ("file", "solution"):
        value = getattr(args, name, None)
        if value is not None:
            return "<stdin>" if value == "-" else str(value)
    return None
