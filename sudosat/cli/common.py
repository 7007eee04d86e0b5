"""What the sub-commands share: exit codes, the one-line usage errors, option types, file I/O."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence

from sudosat.errors import InstanceError, OutputError, SudosatError, open_error_reason

# The option types and the one-line parser live in the run layer: make report checks its
# parameters with the same ones (sudosat.report.build), and the report may not import the CLI.
from sudosat.run.options import positive_int, positive_ms, strict_number, too_large

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program Ctrl-C stopped

EPILOG_FORMATS = """\
instance formats (one board per line):
  course   "N T": order N (1..6), then N^4 symbols: 0 empty, 1-9, A-Z = 10..35, '.' = 36
  grid     N^4 symbols without the order ('.' or '0' empty), e.g. 81-character .sdk lines
  numeric  "N v v v ...": the order, then N^4 numbers separated by blanks, commas or dashes
           (a dash only between two digits: "3 0-4-0-...")
"""


# ---------------------------------------------------------------------------------------
# helpers shared by sub-commands


def read_input_text(
    path: str, max_bytes: int | None = None, per_char: int | None = None, check=None
) -> str:
    """The whole text of `path` (``-`` is standard input), as a user-facing error if unreadable.

    Reading stops as soon as the text would need more than `max_bytes`
    (``--max-memory``; `per_char` bytes a character, see
    :func:`sudosat.lines.read_text`): ``/dev/zero`` is refused at once; and
    when `check` (a deadline's) raises between two chunks.
    """
    from sudosat.lines import read_stream, read_text

    if path == "-":
        if sys.stdin is None:  # closed by the shell ('<&-')
            raise InstanceError("cannot read: standard input is closed", file="<stdin>")
        # Bytes decoded like a file's (invalid UTF-8 becomes U+FFFD), whatever the locale.
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            return sys.stdin.read()
        return read_stream(stream, "<stdin>", max_bytes, per_char, check=check)
    try:
        return read_text(path, max_bytes, per_char, check=check)
    except OSError as exc:
        raise InstanceError(open_error_reason(exc), file=path) from None


def instance_line(path: str, number: int, max_bytes: int | None = None):
    """Parse line `number` (1-based) of the instance file `path` into a Board."""
    from sudosat.lines import split_lines
    from sudosat.run.pipeline import parse_line

    source = "<stdin>" if path == "-" else path
    lines = split_lines(read_input_text(path, max_bytes))
    if number < 1 or number > len(lines):
        raise InstanceError(
            f"there is no line {number}: the file has {len(lines)} lines", file=source
        )
    return parse_line(lines[number - 1], source=source, line=number)


def write_output(text: str, target: str | None) -> None:
    """Write `text` to the file `target` (whole or not at all), or to standard output.

    Standard output is `target` None or ``-``. Guard the path first
    (:func:`guard_outputs`), before any work.
    """
    if target is None or target == "-":
        sys.stdout.write(text)
        return
    from sudosat.outputs import write_atomically

    write_atomically(target, text)


def guard_outputs(
    inputs: Sequence[tuple[str | None, str]], outputs: Sequence[tuple[str | None, str]]
) -> None:
    """Refuse, before any work, outputs that would destroy an input or each other.

    Every command that writes calls this with its inputs and outputs, each a
    path (None or ``-``: standard input or output, skipped) and what it holds
    in words (``the formula``, ``the proof``). The rule is
    :func:`sudosat.outputs.check_outputs`; an empty name is a usage error.
    """
    from sudosat.outputs import check_outputs

    check_output_names(outputs)
    check_outputs(
        [(path, role) for path, role in inputs if path is not None and path not in ("-", "")],
        [(path, role) for path, role in outputs if path is not None and path != "-"],
    )


def check_output_names(outputs: Sequence[tuple[str | None, str]]) -> None:
    """Refuse an empty output name (usage, exit 2) and a folder's name for a file (exit 1).

    ``-o newdir/`` must not write a file named ``newdir``: what is written is
    always named as asked.
    """
    for path, role in outputs:
        if path == "":
            raise UsageError(f"{role}: an empty file name")
        if path is not None and path.endswith(("/", os.sep)):
            raise OutputError(f"{role} needs a file name; this names a folder", file=path)


# ---------------------------------------------------------------------------------------
# option values: numbers as strict as the numbers inside files

def seed_number(text: str) -> int:
    """A seed: any whole number in ASCII digits."""
    value = strict_number(text, integer=True)
    if value is None:
        raise too_large(text) or argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(value)


def probability(text: str) -> float:
    """A probability: a number from 0 to 1, in ASCII digits."""
    value = strict_number(text)
    if value is None:
        raise too_large(text) or argparse.ArgumentTypeError(f"not a probability: {text!r}")
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a probability is between 0 and 1, not {text!r}")
    return value


def heuristic_name(text: str) -> str:
    """A DPLL branching heuristic: refused here (exit 2) when unknown."""
    from sudosat.sat.solvers.dpll import HEURISTICS

    if text not in HEURISTICS:
        raise argparse.ArgumentTypeError(
            f"unknown DPLL heuristic {text!r}; choose one of {', '.join(HEURISTICS)}"
        )
    return text


def scheduler_option(text: str) -> str:
    """A Dask scheduler address, checked for shape (scheme, host, port): ``tcp://HOST:PORT``."""
    from sudosat.run.scheduler import scheduler_address

    try:
        return scheduler_address(text)
    except SudosatError as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    """``--max-memory SIZE``: the memory a command's input may declare it needs."""
    parser.add_argument(
        "--max-memory",
        type=memory_size,
        metavar="SIZE",
        help="refuse input whose declared size needs more memory (e.g. 500M, 2G; default 1G)",
    )


def add_time_limit(parser: argparse.ArgumentParser, bounds: str, when_out: str) -> None:
    """``-T MS``, declared here once for every command: T on the wall clock.

    `bounds` says what T bounds (``per line, the whole pipeline``) and
    `when_out` what the command writes when T runs out: each command's help
    says both. :func:`deadline_of` makes it the one deadline the work runs under.
    """
    parser.add_argument(
        "-T",
        "--time-limit",
        dest="time_limit_ms",
        type=positive_ms,
        metavar="MS",
        help=f"time limit T in milliseconds of wall-clock time, {bounds}; when it runs out "
        f"{when_out}",
    )


def deadline_of(args: argparse.Namespace, whole_command: bool = False):
    """``-T`` as the one :class:`~sudosat.sat.solvers.budget.Deadline` the work runs under.

    Made once; None without ``-T``. Passed down by keyword (``deadline=``) to
    the solver's loop. It counts from now, or with `whole_command` from the
    command's start (``args.started``, set by :func:`~sudosat.cli.entry.main`:
    the process's own start when it runs as the ``sudosat`` program, so the
    interpreter's start-up and the imports count too; else now).
    """
    if args.time_limit_ms is None:
        return None
    from sudosat.sat.solvers.budget import Deadline

    start = getattr(args, "started", None) if whole_command else None
    return Deadline(args.time_limit_ms, start)


def add_solver_options(parser: argparse.ArgumentParser) -> None:
    """``--seed`` for solvers that draw at random, and ``--zchaff PATH``."""
    parser.add_argument(
        "--seed", type=seed_number, default=0, help="seed for solvers that use randomness"
    )
    add_zchaff_option(parser)


def add_zchaff_option(parser: argparse.ArgumentParser) -> None:
    """``--zchaff PATH``: the zChaff binary, before ``$ZCHAFF`` and PATH."""
    parser.add_argument(
        "--zchaff", metavar="PATH", help="the zChaff binary (else $ZCHAFF, else 'zchaff' on PATH)"
    )


def add_budget_options(parser: argparse.ArgumentParser) -> None:
    """``--max-conflicts N`` and ``--max-propagations N``: the work budgets."""
    parser.add_argument(
        "--max-conflicts",
        type=positive_int,
        metavar="N",
        help="stop after N conflicts (backtracks for dpll/dp) with the answer 'unknown'; "
        "the same N stops at the same point on any machine (cdcl, dpll, dp, pysat:NAME)",
    )
    parser.add_argument(
        "--max-propagations",
        type=positive_int,
        metavar="N",
        help="stop after N propagated literals with the answer 'unknown' "
        "(cdcl, dpll, dp, and the pysat:NAME back ends that count them)",
    )


BUDGET_FLAGS = {"max_conflicts": "--max-conflicts", "max_propagations": "--max-propagations"}
"""Each work budget's option, as users type it (messages name the option, not the keyword)."""


def budget_options(args: argparse.Namespace, solvers: Sequence[str]) -> dict:
    """--max-conflicts and --max-propagations as solver options (only those given).

    Refused before any work, in one line naming the option, when one of
    `solvers` cannot honour it: a budget is never silently ignored.
    """
    budgets = {name: getattr(args, name, None) for name in BUDGET_FLAGS}
    given = {name: value for name, value in budgets.items() if value is not None}
    if not given:
        return given
    from sudosat.sat.solvers.registry import refused_budgets

    for solver in solvers:
        refused = refused_budgets(solver, given)
        if refused:
            raise SudosatError("; ".join(
                f"{BUDGET_FLAGS[budget]}: solver {solver!r} cannot honour it"
                + (f" ({why})" if why else "") for budget, why in refused.items()
            ))
    return given


def solver_options_of(args: argparse.Namespace, solver: str) -> dict:
    """The keyword options the solver `solver` takes from the parsed `args`."""
    options: dict = {"seed": args.seed}
    if solver == "zchaff" and args.zchaff:
        options["zchaff"] = args.zchaff
    return options


def memory_size(text: str) -> int:
    """A size in bytes from ``500M``, ``2G`` or a plain number of megabytes."""
    units = {"K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    number, unit = (text[:-1], text[-1].upper()) if text[-1:].upper() in units else (text, "M")
    value = strict_number(number)
    if number.strip().lower().lstrip("+-") in ("inf", "infinity", "nan"):
        value = math.nan
    if value is None:
        raise too_large(number) or argparse.ArgumentTypeError(
            f"not a size: {text!r} (e.g. 500M or 2G)"
        )
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (a finite size, e.g. 2G)")
    if value <= 0:
        raise argparse.ArgumentTypeError("the memory limit must be positive")
    if value * units[unit] < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is less than one byte (e.g. 500M or 2G)")
    return int(value * units[unit])


def check_board_memory(order: int, args: argparse.Namespace, count: int = 1) -> None:
    """Refuse, before any allocation, `count` boards whose N⁴ cells do not fit ``--max-memory``."""
    from sudosat.limits import BYTES_PER_CELL, check_memory

    cells = order**4
    what = f"order {order} has {cells:,} cells"
    if count > 1:
        what = f"{count:,} boards of order {order} have {count * cells:,} cells"
    check_memory(count * cells, BYTES_PER_CELL, what, args.max_memory)


def check_encoding_memory(board, args: argparse.Namespace, source: str, line: int) -> None:
    """Refuse, before building it, an encoding that does not fit ``--max-memory``."""
    from sudosat.sudoku.encoding import DEFAULT_MAX_BYTES, check_resources

    limit = DEFAULT_MAX_BYTES if args.max_memory is None else args.max_memory
    try:
        check_resources(board, args.encoding, limit)
    except SudosatError as exc:
        raise exc.at(file="<stdin>" if source == "-" else source, line=line) from None


def read_sat_input(path: str, max_bytes: int | None = None, check=None) -> str:
    """A DIMACS file's text; reading stops where the formula reader's memory check would refuse,
    or where `check` (a deadline's) raises."""
    from sudosat.errors import DimacsError
    from sudosat.limits import BYTES_PER_DIMACS_CHAR

    try:
        return read_input_text(path, max_bytes, BYTES_PER_DIMACS_CHAR, check)
    except InstanceError as exc:
        raise DimacsError(exc.reason, file=exc.file, line=exc.line) from None


class UsageError(Exception):
    """Bad usage found after parsing (exit 2, one line)."""
