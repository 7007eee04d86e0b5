"""``sudosat solve`` (a whole instance file, the batch pipeline) and ``sudosat solvers``."""

from __future__ import annotations

import argparse
import sys

from sudosat.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    add_budget_options,
    add_solver_options,
    add_time_limit,
    budget_options,
    check_output_names,
    deadline_of,
    memory_size,
    scheduler_option,
)
from sudosat.errors import InstanceError
from sudosat.run.options import encoding_name, positive_int, solver_name

# ---------------------------------------------------------------------------------------
# sudosat solve


def add_solve_parser(subparsers) -> None:
    """Declare ``sudosat solve`` and its options on `subparsers`."""
    parser = subparsers.add_parser(
        "solve",
        help="solve every instance of a file (own solver, zChaff, any other) and report",
        description="""\
Solve every line of an instance file with each --solver under the same time
limit T (-T, wall clock), which bounds the whole pipeline of each line (encode,
solve, decode, check): an answer that comes after T is 'N TIMEOUT', with
--incremental and external programs too.

Each solver gets an output file with exactly one line per input line, in order:
the solved board ('N T'), 'N UNSAT', 'N TIMEOUT' (T ran out), 'N UNKNOWN'
(--max-conflicts or --max-propagations ran out first) or 'ERROR <reason>'. It is
written at the end, atomically. Its name: OUT with one solver; with several,
OUT's stem + '.<solver>' + OUT's suffix (out.txt -> out.cdcl.txt,
out.pysat-minisat22.txt: ':' and '/' become '-'); without -o,
<FILE stem>.<solver>.txt beside FILE.

The results table (one row per line and solver: status, why the solver
stopped, valid, stage times in ms on the wall clock and in CPU time, the
solver's own search time, variables, clauses, solver counters, the reason a
line was not solved, the output line) is appended row by row to --results (default <OUT or FILE
stem>.results.csv: FILE's when OUT is a device such as /dev/null, and standard
input into a device needs --results; a .jsonl, .json or .ndjson name gives JSON
lines), so an interrupted run loses nothing finished: the same command with
--resume completes it, keeping only rows that match this input line and these
options and whose answers check again (a board against its puzzle; an UNSAT only
when the givens clash, else it is solved again). A row is written whole or not
at all (a full disk leaves whole rows). One run at a time per results table; a
second is refused. A bad line becomes an ERROR line and row; the others go on.
Every output path is checked before the first line is solved: one that is FILE
(by path, symlink or hard link) or another output is refused; a FIFO or a device
is written in place.

Exit 0 when every line was answered (solved, UNSAT, TIMEOUT or UNKNOWN); 1 when some
line ended in ERROR, each such line named on standard error as FILE:LINE.""",
        epilog="examples:\n"
        "  sudosat solve data/course-example.txt -o solved.txt -T 10000\n"
        "  sudosat solve puzzles.txt -o out.txt --solver cdcl --solver zchaff -T 10000 -j 2\n"
        "  sudosat solve puzzles.txt -o out.txt -T 10000 --resume        # after an interruption\n"
        "  sudosat solve puzzles.txt -o out.txt --max-conflicts 500   # same answer anywhere\n"
        "  sudosat solve puzzles.txt -o out.txt --executor dask --scheduler tcp://HOST:8786\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", help="instance file, one board per line ('-' for standard input, with -o)"
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="output file (see above for several solvers)"
    )
    parser.add_argument(
        "--solver",
        dest="solvers",
        action="append",
        type=solver_name,
        metavar="NAME",
        help="solver (repeatable; default cdcl): cdcl, dpll, dp, walksat, gsat, "
        "zchaff, pysat:NAME, exec:PROGRAM",
    )
    parser.add_argument(
        "--encoding",
        default="course",
        type=encoding_name,
        metavar="NAME",
        help="encoding (default course; 'sudosat encode --list' shows all)",
    )
    _add_batch_options(parser)
    add_time_limit(parser, "per line and solver, for the whole pipeline (parsing the line, "
                    "encoding, loading the solver, solving, decoding)",
                    "the line's output is 'N TIMEOUT'")
    add_solver_options(parser)
    add_budget_options(parser)


def _add_batch_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``solve`` about the run as a whole: results, workers, resuming, memory."""
    parser.add_argument(
        "--results", metavar="FILE", help="results table (.csv; .jsonl, .json, .ndjson: JSON lines)"
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="worker processes (default 1: in this process)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the rows already in the results table; solve only the rest",
    )
    parser.add_argument(
        "--executor",
        choices=("processes", "dask"),
        default="processes",
        help="where lines run: local processes (default) or a Dask cluster",
    )
    parser.add_argument(
        "--scheduler",
        type=scheduler_option,
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://HOST:8786); without it, --executor "
        "dask starts a local cluster of -j workers",
    )
    parser.add_argument(
        "--max-memory",
        type=memory_size,
        metavar="SIZE",
        help="refuse a formula bigger than this (e.g. 500M, 2G; default 1G)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: when standard error is a terminal)",
    )
    parser.add_argument(
        "--incremental",
        action="store_true",
        help="load the rules once per worker and solve each line with its givens as "
        "assumptions (cdcl, pysat:NAME; others run one-shot; not the optimised encodings; "
        "fastest with --encoding extended)",
    )


def run_solve(args: argparse.Namespace) -> int:
    """Run ``sudosat solve`` with the parsed `args`; return the exit code."""
    from sudosat.run.batch import BatchSettings, run_batch
    from sudosat.run.pipeline import results_path

    solvers = args.solvers or ["cdcl"]
    # The rest of the guard (inputs, links, writability) runs in run_batch, before any work.
    check_output_names([(args.output, "the output"), (args.results, "the results table")])
    instances = _solve_input(args)
    extra = _incremental_options(solvers, args.encoding) if args.incremental else None
    if extra is not None and not extra:
        return EXIT_USAGE
    budgets = budget_options(args, solvers)  # refused here, before any work
    if budgets:
        extra = {solver: {**(extra or {}).get(solver, {}), **budgets} for solver in solvers}
    try:
        settings = BatchSettings(
            solvers=tuple(solvers),
            solver_options=extra,
            encoding=args.encoding,
            deadline=deadline_of(args),
            results=args.results,
            jobs=args.jobs,
            resume=args.resume,
            seed=args.seed,
            zchaff=args.zchaff,
            executor=args.executor,
            scheduler=args.scheduler,
            progress=args.progress,
            max_bytes=args.max_memory,
        )
        summary = run_batch(instances, args.output, settings)
    except KeyboardInterrupt:
        results = args.results or results_path(args.file, args.output)
        print(
            f"sudosat: interrupted; every finished row is in {results}: "
            "run the same command with --resume to complete it",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    print(summary)
    return _report_error_lines(summary, "<stdin>" if args.file == "-" else args.file)


def _solve_input(args: argparse.Namespace) -> str:
    """The instance path for run_batch: ``-`` reads standard input, which needs ``-o``.

    Without ``-o`` the outputs are named after the input file, and standard
    input has no name to give them.
    """
    if args.file != "-":
        return args.file
    if not args.output:
        raise UsageError("solve: reading standard input ('-') needs -o OUT to name the output")
    if sys.stdin is None:  # closed by the shell ('<&-')
        raise InstanceError("cannot read: standard input is closed", file="<stdin>")
    return "/dev/stdin"


def _incremental_options(solvers: list[str], encoding: str) -> dict:
    """``solver_options`` for ``solve --incremental``; empty (after a message) when refused."""
    from sudosat.errors import EncodingError
    from sudosat.sat.solvers.registry import incremental_support
    from sudosat.sudoku.incremental import check_encoding

    try:
        check_encoding(encoding)
    except EncodingError as exc:
        print(f"sudosat: --incremental: {exc}", file=sys.stderr)
        return {}
    for solver in solvers:
        native, why = incremental_support(solver)
        if not native:
            print(f"sudosat: note: --incremental: {why}", file=sys.stderr)
    return {solver: {"incremental": True} for solver in solvers}


def _report_error_lines(summary, source: str, most: int = 10) -> int:
    """Name every line that ended in ERROR on standard error (`most` per solver); exit 1 if any."""
    failed = False
    for name, solver_summary in summary.solvers.items():
        errors = solver_summary.error_lines
        failed = failed or bool(errors)
        for line, reason in errors[:most]:
            print(f"sudosat: {source}:{line}: {name}: {reason}", file=sys.stderr)
        if len(errors) > most:
            print(f"sudosat: {name}: {len(errors) - most} more lines ended in ERROR (see the "
                  "results table)", file=sys.stderr)
    return EXIT_BAD_INPUT if failed else EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat solvers


def add_solvers_parser(subparsers) -> None:
    """Declare ``sudosat solvers`` and its options on `subparsers`."""
    parser = subparsers.add_parser(
        "solvers",
        help="list every solver and whether it is available here",
        description="List every solver name sudosat knows, whether it can run on this machine, "
        "and why not when it cannot.",
        epilog="examples:\n  sudosat solvers\n"
        "  sudosat solvers --exec minisat --exec kissat   # are these on PATH?\n"
        "  sudosat solvers --zchaff ~/bin/zchaff          # is this a zChaff that runs?",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--exec",
        action="append",
        default=[],
        metavar="PROGRAM",
        help="also check exec:PROGRAM (repeatable), e.g. --exec minisat",
    )
    parser.add_argument("--zchaff", metavar="PATH", help="check this zChaff binary")


def run_solvers(args: argparse.Namespace) -> int:
    """Run ``sudosat solvers`` with the parsed `args`; return the exit code."""
    from sudosat.sat.solvers import list_solvers
    from sudosat.sat.solvers.cdcl.cores import describe as describe_cores

    options = {"zchaff": args.zchaff} if args.zchaff else {}  # an option, not the environment
    for info in list_solvers([f"exec:{program}" for program in args.exec], **options):
        state = "available" if info.available else f"not available: {info.why_not}"
        if info.name == "cdcl":  # which of its two cores runs here
            state = f"{state} ({describe_cores()})"
        print(f"{info.name:22} {state}")
    return EXIT_OK
