"""The command line: ``sudosat <command> ...`` and the course's ``SAT -Sn FILE``.

Each sub-command is a pair of functions, ``_add_<name>_parser`` and
``_run_<name>``, registered in :func:`build_parser`. :func:`main` maps errors to
exit codes: a :class:`~sudosat.errors.SudosatError` becomes one line on standard
error and exit 1, bad usage exit 2; ``sudosat sat`` itself exits 10 (SAT),
20 (UNSAT) or 0 (no decision), like SAT-competition solvers.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from sudosat.errors import InstanceError, SudosatError

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2

_EPILOG_FORMATS = """\
instance formats (one board per line):
  course   "N T": order N (1..6), then N^4 symbols: 0 empty, 1-9, A-Z = 10..35, '.' = 36
  grid     N^4 symbols without the order ('.' or '0' empty), e.g. 81-character .sdk lines
  numeric  "N v v v ...": the order, then N^4 numbers separated by blanks, commas or dashes
"""


# ---------------------------------------------------------------------------------------
# helpers shared by sub-commands


def _read_text(path: str) -> str:
    """The whole text of `path` (``-`` is standard input), as a user-facing error if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InstanceError("no such file", file=path) from None
    except IsADirectoryError:
        raise InstanceError("is a directory", file=path) from None
    except OSError as exc:
        raise InstanceError(f"cannot read: {exc.strerror}", file=path) from None


def _instance_line(path: str, number: int):
    """Parse line `number` (1-based) of the instance file `path` into a Board."""
    from sudosat.board import Board

    source = "<stdin>" if path == "-" else path
    lines = _read_text(path).splitlines()
    if number < 1 or number > len(lines):
        raise InstanceError(
            f"there is no line {number}: the file has {len(lines)} lines", file=source
        )
    return Board.parse(lines[number - 1], source=source, line=number)


def _write_output(text: str, target: str | None) -> None:
    """Write `text` to the file `target`, or to standard output when it is None or ``-``."""
    if target is None or target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InstanceError(f"cannot write: {exc.strerror}", file=target) from None


def _positive_ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("the time limit must be positive (milliseconds)")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _encoding_names() -> list[str]:
    from sudosat.encoding import ENCODINGS

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


def _solver_options(args: argparse.Namespace, solver: str) -> dict:
    options: dict = {"seed": args.seed}
    if solver == "zchaff" and args.zchaff:
        options["zchaff"] = args.zchaff
    return options


# ---------------------------------------------------------------------------------------
# sudosat encode


def _add_encode_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "encode",
        help="translate a Sudoku instance into DIMACS CNF",
        description="Translate one instance line into a DIMACS CNF formula. With the course "
        "encoding, variable x(i,j,d) ('cell (i,j) holds d', 0-based i and j) is numbered "
        "i*N^4 + j*N^2 + d.",
        epilog=_EPILOG_FORMATS
        + "\nexample:\n  sudosat encode data/course-example.txt -o example.cnf",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", nargs="?", help="instance file ('-' for standard input; not needed with --list)"
    )
    parser.add_argument(
        "--line",
        type=_positive_int,
        default=1,
        metavar="K",
        help="which line of FILE to encode (1-based, default 1)",
    )
    parser.add_argument(
        "--encoding",
        default="course",
        metavar="NAME",
        help="encoding name (default course; 'sudosat encode --list' shows all)",
    )
    parser.add_argument("--list", action="store_true", help="list the encodings and exit")
    parser.add_argument(
        "-o", "--output", metavar="OUT.cnf", help="write here instead of standard output"
    )


def _run_encode(args: argparse.Namespace) -> int:
    from sudosat.encoding import ENCODINGS, encode

    if args.list:
        for name, spec in ENCODINGS.items():
            print(f"{name:20} {getattr(spec, 'description', '')}")
        return EXIT_OK
    if args.file is None:
        print("sudosat encode: error: FILE is required (or --list)", file=sys.stderr)
        return EXIT_USAGE
    board = _instance_line(args.file, args.line)
    encoded = encode(board, args.encoding)
    comments = [
        f"sudosat encoding '{encoded.encoding}' of {args.file} line {args.line}",
        f"order {board.order}, {board.num_givens} givens",
        *(f"{family}: {count} clauses" for family, count in encoded.family_counts.items()),
    ]
    _write_output(encoded.cnf.to_dimacs(comments), args.output)
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat decode


def _add_decode_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "decode",
        help="turn a SAT solution back into a board line",
        description="Read a solution (the course's 's cnf R V' format, the SAT competition's "
        "'s SATISFIABLE' / 'v ...' format, or a DIMACS file of unit clauses) and print the board "
        "it encodes as an instance line. Without --instance the course numbering is used; "
        "with it, the instance is encoded again with --encoding and its decoder is used, and the "
        "board is checked against the givens.",
        epilog="example:\n  sudosat sat example.cnf -o example.sol\n"
        "  sudosat decode example.sol --order 3 --instance data/course-example.txt --line 1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("solution", help="solution file ('-' for standard input)")
    parser.add_argument(
        "--order", type=_positive_int, required=True, metavar="N", help="the board's order N"
    )
    parser.add_argument(
        "--instance", metavar="FILE", help="the instance file the formula came from"
    )
    parser.add_argument(
        "--line", type=_positive_int, default=1, metavar="K", help="its line (default 1)"
    )
    parser.add_argument(
        "--encoding", default="course", metavar="NAME", help="the encoding used (default course)"
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write here instead of standard output"
    )


def _run_decode(args: argparse.Namespace) -> int:
    from sudosat.board import Board, check_solution
    from sudosat.cnf import parse_solution
    from sudosat.encoding import decode_course, encode
    from sudosat.result import Status

    source = "<stdin>" if args.solution == "-" else args.solution
    solution = parse_solution(_read_text(args.solution), source)
    if solution.status is not Status.SAT:
        word = "UNSAT" if solution.status is Status.UNSAT else "TIMEOUT"
        _write_output(f"{args.order} {word}\n", args.output)
        return EXIT_OK
    if args.instance:
        puzzle = _instance_line(args.instance, args.line)
        if puzzle.order != args.order:
            raise InstanceError(
                f"the instance has order {puzzle.order}, not {args.order}",
                file=args.instance,
                line=args.line,
            )
        board = encode(puzzle, args.encoding).decode(solution.model)
        problem = check_solution(puzzle, board)
        if problem:
            raise InstanceError(f"the decoded board is not a solution: {problem}", file=source)
    else:
        board = decode_course(solution.model, args.order)
        if not isinstance(board, Board):
            raise InstanceError("the model does not describe a board", file=source)
    _write_output(board.to_line() + "\n", args.output)
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat check


def _add_check_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check solved boards against their puzzles",
        description="Compare an instance file with a file of answers, line by line. Every solved "
        "line must be a complete board that obeys every row, column and box and keeps every "
        "given of its puzzle. Lines answered 'N UNSAT', 'N TIMEOUT' or 'ERROR ...' are counted, "
        "not checked. Exit 0 when every solved line is valid and the files have as many lines.",
        epilog="example:\n  sudosat solve data/instances.txt -o solved.txt\n"
        "  sudosat check data/instances.txt solved.txt",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the instance file")
    parser.add_argument("solutions", help="the answers, one line per instance line")


def _run_check(args: argparse.Namespace) -> int:
    from sudosat.board import Board, check_solution

    puzzles = _read_text(args.file).splitlines()
    answers = _read_text(args.solutions).splitlines()
    problems: list[str] = []
    if len(puzzles) != len(answers):
        problems.append(
            f"{args.solutions}: has {len(answers)} lines, {args.file} has {len(puzzles)}"
        )
    valid = unsolved = 0
    for number, (puzzle_text, answer) in enumerate(zip(puzzles, answers, strict=False), start=1):
        if _is_unsolved_answer(answer):
            unsolved += 1
            continue
        try:
            puzzle = Board.parse(puzzle_text, source=args.file, line=number)
            solved = Board.parse(answer, source=args.solutions, line=number)
        except SudosatError as exc:
            problems.append(str(exc))
            continue
        problem = check_solution(puzzle, solved)
        if problem:
            problems.append(f"{args.solutions}:{number}: {problem}")
        else:
            valid += 1
    for problem in problems:
        print(problem, file=sys.stderr)
    invalid = len(problems)
    print(f"{valid} valid, {invalid} invalid, {unsolved} not solved (of {len(answers)} lines)")
    return EXIT_OK if not problems else EXIT_BAD_INPUT


def _is_unsolved_answer(answer: str) -> bool:
    words = answer.split()
    if not words:
        return False
    if words[0] == "ERROR":
        return True
    return len(words) == 2 and words[1] in ("UNSAT", "TIMEOUT")


# ---------------------------------------------------------------------------------------
# sudosat sat


def _add_sat_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "sat",
        help="solve any DIMACS CNF formula",
        description="Solve a DIMACS CNF formula (any formula, not only Sudoku) and print the "
        "answer in the course's solution format ('s cnf R V' then one 'v' line per variable; "
        "R = 1 satisfiable, 0 unsatisfiable, -1 no decision within the time limit) or in the "
        "SAT competition's. Exit 10 SAT, 20 UNSAT, 0 unknown, 1 bad input.",
        epilog="solvers: cdcl (default), dpll, dp, walksat, gsat, zchaff, pysat:NAME,\n"
        "  exec:PROGRAM ('sudosat solvers' says which are available here)\n\n"
        "examples:\n  sudosat sat formula.cnf -T 5000\n"
        "  sudosat sat formula.cnf --solver zchaff --zchaff ~/bin/zchaff --format competition\n"
        "  sudosat sat php.cnf --proof php.drat --certify",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="DIMACS CNF file ('-' for standard input)")
    parser.add_argument(
        "--solver", default="cdcl", metavar="NAME", help="which solver (default cdcl)"
    )
    parser.add_argument(
        "--format",
        choices=("course", "competition"),
        default="course",
        help="solution format (default course)",
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write the solution here instead of standard output"
    )
    parser.add_argument("--heuristic", metavar="NAME", help="branching heuristic for dpll")
    parser.add_argument(
        "--noise", type=float, metavar="P", help="noise probability for walksat/gsat"
    )
    parser.add_argument(
        "--proof", metavar="FILE", help="cdcl only: write a DRAT proof of an UNSAT answer"
    )
    parser.add_argument(
        "--certify",
        action="store_true",
        help="cdcl only: check the UNSAT answer's DRAT proof with dratify",
    )
    parser.add_argument(
        "--stats", action="store_true", help="print the solver's statistics as 'c' lines"
    )
    _add_solver_options(parser)


def _run_sat(args: argparse.Namespace) -> int:
    from sudosat.cnf import format_solution, parse_dimacs
    from sudosat.result import Status
    from sudosat.solvers import solve

    source = "<stdin>" if args.file == "-" else args.file
    cnf = parse_dimacs(_read_sat_input(args.file), source)
    options = _solver_options(args, args.solver)
    if args.heuristic:
        options["heuristic"] = args.heuristic
    if args.noise is not None:
        options["noise"] = args.noise
    wants_proof = bool(args.proof or args.certify)
    if wants_proof:
        if args.solver != "cdcl":
            raise SudosatError("--proof and --certify need --solver cdcl")
        options["proof"] = True
    result = solve(cnf, args.solver, time_limit_ms=args.time_limit_ms, **options)
    comments = [f"solver {result.solver}, {result.elapsed_ms:.1f} ms"]
    if args.stats:
        comments += [f"{key} {value}" for key, value in sorted(result.stats.items())]
    if wants_proof and result.status is Status.UNSAT:
        comments.append(_handle_proof(cnf, result, args))
    _write_output(
        format_solution(result.status, result.model, cnf.num_vars, args.format, comments),
        args.output,
    )
    return result.status.exit_code


def _read_sat_input(path: str) -> str:
    from sudosat.errors import DimacsError

    try:
        return _read_text(path)
    except InstanceError as exc:
        raise DimacsError(exc.reason, file=exc.file, line=exc.line) from None


def _handle_proof(cnf, result, args: argparse.Namespace) -> str:
    """Write and/or check the DRAT proof; return the comment line that reports it."""
    from sudosat.solvers.cdcl import certify

    proof = result.proof or ""
    if args.proof:
        _write_output(proof, args.proof)
    if not args.certify:
        return f"DRAT proof written to {args.proof}"
    ok, detail = certify(cnf, proof)
    if not ok:
        raise SudosatError(f"the DRAT proof of UNSAT failed to check: {detail}")
    return "UNSAT certified: DRAT proof verified by dratify"


# ---------------------------------------------------------------------------------------
# sudosat generate


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("alpha is a fraction of the cells: 0 <= alpha <= 1")
    return value


def _add_generate_parser(subparsers) -> None:
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
        "--order", type=_positive_int, required=True, metavar="N", help="the order N"
    )
    parser.add_argument(
        "--alpha",
        type=_fraction,
        required=True,
        metavar="A",
        help="fraction of the cells given, 0 <= A <= 1",
    )
    parser.add_argument(
        "--count", type=_positive_int, default=1, metavar="K", help="how many boards (default 1)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="seed; board k uses seed S + k (default 0)"
    )
    parser.add_argument(
        "--unique",
        action="store_true",
        help="empty a cell only while the puzzle keeps exactly one solution",
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
        metavar="NAME",
        help="solver of the base solution and uniqueness checks (default cdcl)",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write here instead of standard output"
    )


def _run_generate(args: argparse.Namespace) -> int:
    from sudosat.generate import generate_many

    boards = generate_many(
        args.order,
        args.alpha,
        args.count,
        seed=args.seed,
        unique=args.unique,
        method=args.method,
        base=args.base,
        solver=args.solver,
    )
    _write_output("".join(board.to_line() + "\n" for board in boards), args.output)
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat solve


def _add_solve_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve every instance of a file (own solver, zChaff, any other) and report",
        description="""\
Solve every line of an instance file with each --solver under the same time
limit T, which bounds the whole pipeline (encode, solve, decode, check).

Each solver gets an output file with exactly one line per input line, in order:
the solved board ('N T'), 'N UNSAT', 'N TIMEOUT' or 'ERROR <reason>'. It is
written at the end, atomically. Its name: OUT with one solver; with several,
OUT's stem + '.<solver>' + OUT's suffix (out.txt -> out.cdcl.txt,
out.pysat-minisat22.txt: ':' and '/' become '-'); without -o,
<FILE stem>.<solver>.txt beside FILE.

The results table (one row per line and solver: status, valid, stage times in
ms, variables, clauses, solver counters, the reason a line was not solved, the
output line) is appended row by row to --results (default <OUT or FILE
stem>.results.csv; a .jsonl name gives JSON lines), so an interrupted run loses
nothing finished: the same command with --resume completes it. A bad line
becomes an ERROR line and row; the others go on.

Exit 0 when every line was answered (solved, UNSAT or TIMEOUT); 1 when some
line ended in ERROR, each such line named on standard error as FILE:LINE.""",
        epilog="examples:\n"
        "  sudosat solve data/course-example.txt -o solved.txt -T 10000\n"
        "  sudosat solve puzzles.txt -o out.txt --solver cdcl --solver zchaff -T 10000 -j 2\n"
        "  sudosat solve puzzles.txt -o out.txt -T 10000 --resume        # after an interruption\n"
        "  sudosat solve puzzles.txt -o out.txt --executor dask --scheduler tcp://HOST:8786\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="instance file, one board per line")
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="output file (see above for several solvers)"
    )
    parser.add_argument(
        "--solver",
        dest="solvers",
        action="append",
        metavar="NAME",
        help="solver (repeatable; default cdcl): cdcl, dpll, dp, walksat, gsat, "
        "zchaff, pysat:NAME, exec:PROGRAM",
    )
    parser.add_argument(
        "--encoding",
        default="course",
        metavar="NAME",
        help="encoding (default course; 'sudosat encode --list' shows all)",
    )
    parser.add_argument("--results", metavar="FILE", help="results table (.csv or .jsonl)")
    parser.add_argument(
        "-j",
        "--jobs",
        type=_positive_int,
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
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://HOST:8786); without it, --executor "
        "dask starts a local cluster of -j workers",
    )
    parser.add_argument(
        "--max-memory",
        type=_memory_size,
        metavar="SIZE",
        help="refuse a formula bigger than this (e.g. 500M, 2G; default 1G)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: when standard error is a terminal)",
    )
    _add_solver_options(parser)


def _memory_size(text: str) -> int:
    units = {"K": 10**3, "M": 10**6, "G": 10**9}
    number, unit = (text[:-1], text[-1].upper()) if text[-1:].upper() in units else (text, "M")
    try:
        value = float(number)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 500M or 2G)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("the memory limit must be positive")
    return int(value * units[unit])


def _run_solve(args: argparse.Namespace) -> int:
    from sudosat.pipeline import results_path, run_batch

    solvers = args.solvers or ["cdcl"]
    try:
        summary = run_batch(
            args.file,
            args.output,
            solvers=solvers,
            encoding=args.encoding,
            time_limit_ms=args.time_limit_ms,
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
    except KeyboardInterrupt:
        results = args.results or results_path(args.file, args.output)
        print(
            f"sudosat: interrupted; every finished row is in {results}: "
            "run the same command with --resume to complete it",
            file=sys.stderr,
        )
        return 130
    print(summary)
    return _report_error_lines(summary, args.file)


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


def _add_solvers_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "solvers",
        help="list every solver and whether it is available here",
        description="List every solver name sudosat knows, whether it can run on this machine, "
        "and why not when it cannot.",
    )
    parser.add_argument(
        "--exec",
        action="append",
        default=[],
        metavar="PROGRAM",
        help="also check exec:PROGRAM (repeatable), e.g. --exec minisat",
    )
    parser.add_argument("--zchaff", metavar="PATH", help="check this zChaff binary")


def _run_solvers(args: argparse.Namespace) -> int:
    from sudosat.solvers import list_solvers

    if args.zchaff:
        os.environ["ZCHAFF"] = args.zchaff
    for info in list_solvers([f"exec:{program}" for program in args.exec]):
        state = "available" if info.available else f"not available: {info.why_not}"
        print(f"{info.name:22} {state}")
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# the parser and the entry points


def build_parser() -> argparse.ArgumentParser:
    """The ``sudosat`` argument parser with every sub-command."""
    parser = argparse.ArgumentParser(
        prog="sudosat",
        description="Sudoku of any order reduced to SAT, solved by our own solvers and by zChaff.",
        epilog="'sudosat COMMAND --help' explains each command.",
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
    return _guarded(lambda: args.run(args), "sudosat")


def _guarded(action: Callable[[], int], program: str) -> int:
    """Run `action`, turning every error into one line on standard error and an exit code."""

    def show_warning(message, category, filename, lineno, file=None, line=None):
        print(f"{program}: warning: {message}", file=sys.stderr)

    previous = warnings.showwarning
    warnings.showwarning = show_warning
    try:
        return action()
    except SudosatError as exc:
        print(f"{program}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of ours: still one line, unless the user asks for more
        if os.environ.get("SUDOSAT_DEBUG"):
            raise
        print(
            f"{program}: internal error: {type(exc).__name__}: {exc} "
            "(set SUDOSAT_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    finally:
        warnings.showwarning = previous


# ---------------------------------------------------------------------------------------
# SAT -Sn FILE


SAT_STRATEGIES = {1: ("dp", {}), 2: ("dpll", {}), 3: ("cdcl", {})}


def build_sat_sn_parser() -> argparse.ArgumentParser:
    """The parser of the course's ``SAT -Sn FILE`` program."""
    parser = argparse.ArgumentParser(
        prog="SAT",
        description="The 'SAT -Sn' assignment: solve a DIMACS CNF file and write FILE.out, a "
        "DIMACS file holding the truth assignment as unit clauses (no clause when the formula is "
        "unsatisfiable or undecided). Strategies: -S1 basic DPLL (dp), -S2 DPLL with the "
        "MOMS heuristic weighted by Jeroslow-Wang (dpll), -S3 CDCL (cdcl). Exit 0 when it "
        "answered, 1 on bad input.",
        epilog="example:\n  cat sudoku-rules-9x9.txt puzzle.cnf > sudoku.cnf\n  SAT -S2 sudoku.cnf"
        "    # writes sudoku.cnf.out",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-S",
        dest="strategy",
        type=int,
        choices=sorted(SAT_STRATEGIES),
        required=True,
        metavar="n",
        help="1 = DP, 2 = DPLL with a heuristic, 3 = CDCL",
    )
    parser.add_argument("file", help="DIMACS CNF file")
    parser.add_argument(
        "-T",
        "--time-limit",
        dest="time_limit_ms",
        type=_positive_ms,
        metavar="MS",
        help="wall-clock limit in milliseconds",
    )
    return parser


def sat_sn_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``SAT -Sn FILE``."""
    args = build_sat_sn_parser().parse_args(argv)
    return _guarded(lambda: _run_sat_sn(args), "SAT")


def _run_sat_sn(args: argparse.Namespace) -> int:
    from sudosat.cnf import format_solution, parse_dimacs
    from sudosat.solvers import solve

    solver, options = SAT_STRATEGIES[args.strategy]
    cnf = parse_dimacs(_read_sat_input(args.file), args.file)
    result = solve(cnf, solver, time_limit_ms=args.time_limit_ms, **options)
    out_path = f"{args.file}.out"
    _write_output(format_solution(result.status, result.model, cnf.num_vars, "units"), out_path)
    words = {"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE", "UNKNOWN": "UNKNOWN"}
    print(f"s {words[result.status.value]}")
    print(f"c solver {solver}, {result.elapsed_ms:.1f} ms; assignment written to {out_path}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
