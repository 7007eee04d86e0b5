"""What the sub-commands share: exit codes, the one-line usage errors, option types, file I/O."""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

from sudosat.errors import InstanceError, OutputError, SudosatError, open_error_reason

# The option types and the one-line parser live in the run layer: make report checks its
# parameters with the same ones (sudosat.report.build), and the report may not import the CLI.
from sudosat.run import options as _options

_Parser = _options.OneLineParser
_encoding_name = _options.encoding_name
_positive_int = _options.positive_int
_positive_ms = _options.positive_ms
_solver_name = _options.solver_name

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

_EPILOG_FORMATS = """\
instance formats (one board per line):
  course   "N T": order N (1..6), then N^4 symbols: 0 empty, 1-9, A-Z = 10..35, '.' = 36
  grid     N^4 symbols without the order ('.' or '0' empty), e.g. 81-character .sdk lines
  numeric  "N v v v ...": the order, then N^4 numbers separated by blanks, commas or dashes
           (a dash only between two digits: "3 0-4-0-...")
"""


# ---------------------------------------------------------------------------------------
# helpers shared by sub-commands


def _read_text(path: str) -> str:
    """The whole text of `path` (``-`` is standard input), as a user-facing error if unreadable."""
    if path == "-":
        # Bytes decoded like a file's (invalid UTF-8 becomes U+FFFD), whatever the locale.
        stream = getattr(sys.stdin, "buffer", None)
        return sys.stdin.read() if stream is None else stream.read().decode("utf-8", "replace")
    from sudosat.lines import read_text

    try:
        return read_text(path)
    except OSError as exc:
        raise InstanceError(open_error_reason(exc), file=path) from None


def _instance_line(path: str, number: int):
    """Parse line `number` (1-based) of the instance file `path` into a Board."""
    from sudosat.lines import split_lines
    from sudosat.run.pipeline import parse_line

    source = "<stdin>" if path == "-" else path
    lines = split_lines(_read_text(path))
    if number < 1 or number > len(lines):
        raise InstanceError(
            f"there is no line {number}: the file has {len(lines)} lines", file=source
        )
    return parse_line(lines[number - 1], source=source, line=number)


def _write_output(text: str, target: str | None) -> None:
    """Write `text` to the file `target`, or to standard output when it is None or ``-``."""
    if target is None or target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputError(open_error_reason(exc, "write"), file=target) from None


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a probability: {text!r}") from None
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"a probability is between 0 and 1, not {text!r}")
    return value


def _heuristic_name(text: str) -> str:
    """A DPLL branching heuristic: refused here (exit 2) when unknown."""
    from sudosat.sat.solvers.dpll import HEURISTICS

    if text not in HEURISTICS:
        raise argparse.ArgumentTypeError(
            f"unknown DPLL heuristic {text!r}; choose one of {', '.join(HEURISTICS)}"
        )
    return text


def _scheduler_address(text: str) -> str:
    """A Dask scheduler address (``tcp://HOST:PORT``, ``HOST:PORT`` ...), checked for shape."""
    if not _SCHEDULER_ADDRESS.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"not a scheduler address: {text!r} (e.g. tcp://HOST:8786)"
        )
    return text


# SCHEME://REST (tcp, tls, inproc with its path, ucx, ws ...) or HOST[:PORT]; no blanks.
_SCHEDULER_ADDRESS = re.compile(
    r"(?:tcp|tls|inproc|ucx|ws|wss)://[^\s/][^\s]*|(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::[0-9]{1,5})?"
)


def _add_memory_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-memory",
        type=_memory_size,
        metavar="SIZE",
        help="refuse input whose declared size needs more memory (e.g. 500M, 2G; default 1G)",
    )


def _encoding_names() -> list[str]:
    from sudosat.sudoku.encoding import ENCODINGS

    return list(ENCODINGS)


def _add_solver_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-T",
        "--time-limit",
        dest="time_limit_ms",
        type=_positive_ms,
        metavar="MS",
        help="wall-clock limit in milliseconds; past it the answer is 'unknown'",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for solvers that use randomness")
    parser.add_argument(
        "--zchaff", metavar="PATH", help="the zChaff binary (else $ZCHAFF, else 'zchaff' on PATH)"
    )


def _add_budget_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-conflicts",
        type=_positive_int,
        metavar="N",
        help="stop after N conflicts (backtracks for dpll/dp) with the answer 'unknown'; "
        "the same N stops at the same point on any machine (cdcl, dpll, dp, pysat:NAME)",
    )
    parser.add_argument(
        "--max-propagations",
        type=_positive_int,
        metavar="N",
        help="stop after N propagated literals with the answer 'unknown' "
        "(cdcl, dpll, dp, and the pysat:NAME back ends that count them)",
    )


def _budget_options(args: argparse.Namespace) -> dict:
    """--max-conflicts and --max-propagations as solver options (only those given)."""
    budgets = {"max_conflicts": getattr(args, "max_conflicts", None),
               "max_propagations": getattr(args, "max_propagations", None)}
    return {name: value for name, value in budgets.items() if value is not None}


def _solver_options(args: argparse.Namespace, solver: str) -> dict:
    options: dict = {"seed": args.seed}
    if solver == "zchaff" and args.zchaff:
        options["zchaff"] = args.zchaff
    return options


def _memory_size(text: str) -> int:
    units = {"K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    number, unit = (text[:-1], text[-1].upper()) if text[-1:].upper() in units else (text, "M")
    try:
        value = float(number)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 500M or 2G)") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (a finite size, e.g. 2G)")
    if value <= 0:
        raise argparse.ArgumentTypeError("the memory limit must be positive")
    if value * units[unit] < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is less than one byte (e.g. 500M or 2G)")
    return int(value * units[unit])


def _check_board_memory(order: int, args: argparse.Namespace, count: int = 1) -> None:
    """Refuse, before any allocation, `count` boards whose N⁴ cells do not fit ``--max-memory``."""
    from sudosat.limits import BYTES_PER_CELL, check_memory

    cells = order**4
    what = f"order {order} has {cells:,} cells"
    if count > 1:
        what = f"{count:,} boards of order {order} have {count * cells:,} cells"
    check_memory(count * cells, BYTES_PER_CELL, what, args.max_memory)


def _check_encoding_memory(board, args: argparse.Namespace, source: str, line: int) -> None:
    """Refuse, before building it, an encoding that does not fit ``--max-memory``."""
    from sudosat.sudoku.encoding import DEFAULT_MAX_BYTES, check_resources

    limit = DEFAULT_MAX_BYTES if args.max_memory is None else args.max_memory
    try:
        check_resources(board, args.encoding, limit)
    except SudosatError as exc:
        raise exc.at(file="<stdin>" if source == "-" else source, line=line) from None


def _read_sat_input(path: str) -> str:
    from sudosat.errors import DimacsError

    try:
        return _read_text(path)
    except InstanceError as exc:
        raise DimacsError(exc.reason, file=exc.file, line=exc.line) from None


class _UsageError(Exception):
    """Bad usage found after parsing (exit 2, one line)."""
