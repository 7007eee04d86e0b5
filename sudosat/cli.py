"""The command line: ``sudosat <command> ...`` and the course's ``SAT -Sn FILE``.

Each sub-command is a pair of functions, ``_add_<name>_parser`` and
``_run_<name>``, registered in :func:`build_parser`. :func:`main` maps errors to
exit codes: a :class:`~sudosat.errors.SudosatError` becomes one line on standard
error and exit 1, bad usage one line and exit 2, anything unexpected one line
naming the input and the stage and exit 3; ``sudosat sat`` itself exits 10 (SAT),
20 (UNSAT) or 0 (no decision), like SAT-competition solvers.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import traceback
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from sudosat.errors import InstanceError, OutputError, SudosatError, open_error_reason
from sudosat.results import Verdict, format_output, parse_output

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
    from sudosat.pipeline import parse_line

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


def _positive_ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}") from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}")
    if math.isinf(value):
        raise argparse.ArgumentTypeError(
            f"the time limit must be finite, not {text!r} (leave -T out for no limit)"
        )
    if value <= 0:
        raise argparse.ArgumentTypeError("the time limit must be positive (milliseconds)")
    return value


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a probability: {text!r}") from None
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"a probability is between 0 and 1, not {text!r}")
    return value


def _solver_name(text: str) -> str:
    """A solver name as ``--solver`` takes it: refused here (exit 2) when unknown."""
    from sudosat.solvers.registry import builtin_solver_names

    if text in builtin_solver_names():
        return text
    for prefix in ("pysat:", "exec:"):
        if text.startswith(prefix) and len(text) > len(prefix):
            return text
    known = ", ".join([*builtin_solver_names(), "pysat:NAME", "exec:PROGRAM"])
    raise argparse.ArgumentTypeError(f"unknown solver {text!r}; known solvers: {known}")


def _encoding_name(text: str) -> str:
    """An encoding name (aliases accepted): refused here (exit 2) when unknown."""
    from sudosat.encoding import get_encoding
    from sudosat.errors import EncodingError

    try:
        get_encoding(text)
    except EncodingError as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None
    return text


def _heuristic_name(text: str) -> str:
    """A DPLL branching heuristic: refused here (exit 2) when unknown."""
    from sudosat.solvers.dpll import HEURISTICS

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


def _positive_int(text: str) -> int:
    # ASCII digits only, as in every file sudosat reads: int() would also take
    # '٣', '1_000' and blanks around the number.
    if not re.fullmatch(r"[+-]?[0-9]{1,18}", text):
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    value = int(text)
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
        "i*N^4 + j*N^2 + d; with --numbering rcv it is named by the digits row, column, value "
        "(111..999 for 9x9; (N^2+1)^2*r + (N^2+1)*c + v from order 4). With -o DIR (an existing "
        "directory) every line of FILE (or --line K) becomes DIR/<stem>-<K>.cnf.",
        epilog=_EPILOG_FORMATS
        + "\noutput formats (--format):\n"
        "  dimacs     a complete DIMACS file (default)\n"
        "  vu         the 'SAT -Sn' assignment's puzzle file: the givens as unit clauses in rcv\n"
        "             numbering, no header, to append to its sudoku-rules-9x9.txt; --with-rules\n"
        "             writes our rules too (extended encoding: the same clauses as that file)\n"
        "  dartmouth  Dartmouth's format (rules + givens, one clause per line of rcv names,\n"
        "             '-' negates, no header, no 0); default encoding 'dartmouth' (its rules.cnf)\n"
        "\nexamples:\n  sudosat encode data/course-example.txt -o example.cnf\n"
        "  sudosat encode puzzles.sdk --format vu -o puzzles/    # one file per line\n"
        "  cat sudoku-rules-9x9.txt puzzles/puzzles-1.cnf > in.cnf && SAT -S2 in.cnf",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", nargs="?", help="instance file ('-' for standard input; not needed with --list)"
    )
    parser.add_argument(
        "--line",
        type=_positive_int,
        metavar="K",
        help="which line of FILE to encode (1-based; default 1, or every line with -o DIR)",
    )
    parser.add_argument(
        "--encoding",
        type=_encoding_name,
        metavar="NAME",
        help="encoding name (default course; extended for --format vu --with-rules, dartmouth "
        "for --format dartmouth; 'sudosat encode --list' shows all)",
    )
    parser.add_argument(
        "--format",
        choices=("dimacs", "vu", "dartmouth"),
        default="dimacs",
        help="output format (default dimacs; see below)",
    )
    parser.add_argument(
        "--numbering",
        choices=("course", "rcv"),
        help="variable numbering (default course; rcv for --format vu and dartmouth)",
    )
    parser.add_argument(
        "--with-rules", action="store_true", help="--format vu: write the rules, not only givens"
    )
    parser.add_argument("--list", action="store_true", help="list the encodings and exit")
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write here (a file, or an existing directory)"
    )
    _add_memory_option(parser)


def _run_encode(args: argparse.Namespace) -> int:
    from sudosat.encoding import ENCODINGS, FORMAT_ENCODINGS

    if args.list:
        for name, spec in {**ENCODINGS, **FORMAT_ENCODINGS}.items():
            print(f"{name:20} {getattr(spec, 'description', '')}")
        return EXIT_OK
    if args.file is None:
        print("sudosat encode: error: FILE is required (or --list)", file=sys.stderr)
        return EXIT_USAGE
    problem = _encode_usage_problem(args)
    if problem:
        print(f"sudosat encode: usage error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if args.output and args.output.endswith(("/", os.sep)):
        Path(args.output).mkdir(parents=True, exist_ok=True)  # "-o DIR/" names a directory
    if args.output and Path(args.output).is_dir():
        return _encode_lines_to_directory(args)
    line = args.line or 1
    _write_output(_encoded_text(_instance_line(args.file, line), args, line), args.output)
    return EXIT_OK


def _encode_usage_problem(args: argparse.Namespace) -> str | None:
    """Why these encode options do not go together, or None; fills the format's defaults."""
    if args.format != "dimacs" and args.numbering == "course":
        return f"--format {args.format} names variables rcv; drop --numbering course"
    if args.with_rules and args.format != "vu":
        return "--with-rules is for --format vu (dimacs and dartmouth always hold the rules)"
    if args.format == "vu" and not args.with_rules and args.encoding:
        return "--format vu without --with-rules writes only the givens: --encoding needs " \
            "--with-rules"
    defaults = {"dimacs": "course", "vu": "extended", "dartmouth": "dartmouth"}
    args.encoding = args.encoding or defaults[args.format]
    args.numbering = args.numbering or ("course" if args.format == "dimacs" else "rcv")
    return None


def _encoded_text(board, args: argparse.Namespace, line: int) -> str:
    """The text `encode` writes for one board in the chosen format."""
    from sudosat.dartmouth import to_dartmouth
    from sudosat.encoding import ENCODINGS, encode, encode_numbered
    from sudosat.numbering import get_numbering

    if args.encoding in ENCODINGS:
        _check_encoding_memory(board, args, args.file, line)
    if args.format == "vu" and not args.with_rules:
        number = get_numbering("rcv", board.order)
        return "".join(f"{number.variable(i, j, d)} 0\n" for i, j, d in board.givens())
    if args.format == "dartmouth":
        return to_dartmouth(encode_numbered(board, args.encoding, "rcv"))
    if args.numbering != "course":
        cnf = encode_numbered(board, args.encoding, args.numbering)
        comments = [f"sudosat encode {args.file} line {line}", *cnf.comments]
        return cnf.to_dimacs(comments)
    encoded = encode(board, args.encoding)
    comments = [
        f"sudosat encoding '{encoded.encoding}' of {args.file} line {line}",
        f"order {board.order}, {board.num_givens} givens",
        *(f"{family}: {count} clauses" for family, count in encoded.family_counts.items()),
    ]
    return encoded.cnf.to_dimacs(comments)


def _encode_lines_to_directory(args: argparse.Namespace) -> int:
    """One file per instance line in the directory args.output; a bad line never stops the rest."""
    from sudosat.board import Board

    source = "<stdin>" if args.file == "-" else args.file
    stem = "stdin" if args.file == "-" else Path(args.file).name.split(".")[0]
    lines = _read_text(args.file).splitlines()
    numbers = [args.line] if args.line else range(1, len(lines) + 1)
    written = failed = 0
    for number in numbers:
        if number > len(lines):
            raise InstanceError(f"there is no line {number}: the file has {len(lines)} lines",
                                file=source)
        if not lines[number - 1].strip():
            continue  # blank lines (a file's last) are no instance
        try:
            board = Board.parse(lines[number - 1], source=source, line=number)
            text = _encoded_text(board, args, number)
        except SudosatError as exc:
            print(f"sudosat: {exc}", file=sys.stderr)
            failed += 1
            continue
        _write_output(text, str(Path(args.output) / f"{stem}-{number}.cnf"))
        written += 1
    failures = f"; {failed} line{'s' * (failed != 1)} not encoded" if failed else ""
    print(f"{written} file{'s' * (written != 1)} written to {args.output}{failures}",
          file=sys.stderr)
    return EXIT_BAD_INPUT if failed else EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat decode


def _add_decode_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "decode",
        help="turn a SAT solution back into a board line",
        description="Read a solution (the course's 's cnf R V' format, the SAT competition's "
        "'s SATISFIABLE' / 'v ...' format, a DIMACS file of unit clauses such as a 'SAT -Sn' "
        ".out, or with --format dartmouth one literal per line) and print the board it encodes "
        "as an instance line. The model must fit the order, --encoding and --numbering: a model "
        "over other variables, a cell with no symbol or two, a board that breaks a rule or "
        "(with --instance) a given is refused with exit 1, never printed. The optimised "
        "encodings number only the candidates the givens leave open, so they need --instance.",
        epilog="examples:\n  sudosat sat example.cnf -o example.sol\n"
        "  sudosat decode example.sol --order 3 --instance data/course-example.txt --line 1\n"
        "  SAT -S2 sudoku.cnf && sudosat decode sudoku.cnf.out --order 3 --numbering rcv",
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
        "--encoding",
        type=_encoding_name,
        metavar="NAME",
        help="the encoding used (default course; the optimised ones need --instance)",
    )
    parser.add_argument(
        "--numbering",
        choices=("course", "rcv"),
        help="the variable numbering (default course; rcv with --format dartmouth)",
    )
    parser.add_argument(
        "--format",
        choices=("auto", "dartmouth"),
        default="auto",
        help="solution format (default auto: course, competition or DIMACS units)",
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write here instead of standard output"
    )
    _add_memory_option(parser)


def _run_decode(args: argparse.Namespace) -> int:
    from sudosat.assignment import read_assignment
    from sudosat.encoding import ENCODINGS, decode_model, get_encoding, model_size
    from sudosat.result import Status

    encoding = args.encoding = get_encoding(args.encoding or "course").name
    if get_encoding(encoding).reduced and not args.instance:
        print(f"sudosat decode: usage error: --encoding {encoding} needs --instance FILE "
              "[--line K]: that encoding numbers only the candidates the givens leave open, "
              "so its variables mean nothing without the puzzle", file=sys.stderr)
        return EXIT_USAGE
    numbering = args.numbering or ("rcv" if args.format == "dartmouth" else "course")
    source = "<stdin>" if args.solution == "-" else args.solution
    _check_board_memory(args.order, args)
    answer = read_assignment(_read_text(args.solution), source, args.format, args.max_memory)
    instance = _instance_line(args.instance, args.line) if args.instance else None
    if instance is not None and encoding in ENCODINGS:
        _check_encoding_memory(instance, args, args.instance, args.line)
    try:
        if answer.status is not Status.SAT:
            # An answer without a model still has to be about this encoding.
            expected = model_size(args.order, encoding, numbering, instance)
            if answer.num_vars is not None and answer.num_vars != expected:
                raise SudosatError(f"the answer is over {answer.num_vars} variables; an order-"
                                   f"{args.order} {encoding} model in the {numbering} numbering "
                                   f"has {expected} (wrong --order, --numbering or --encoding?)")
            word = Verdict.from_status(answer.status)
            _write_output(format_output(word, order=args.order) + "\n", args.output)
            return EXIT_OK
        board = decode_model(answer.values, args.order, encoding=encoding, numbering=numbering,
                             instance=instance, num_vars=answer.num_vars)
    except SudosatError as exc:
        raise exc.at(file=source) from None
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
    from sudosat.lines import split_lines

    puzzles = split_lines(_read_text(args.file))
    answers = split_lines(_read_text(args.solutions))
    problems: list[str] = []
    if len(puzzles) != len(answers):
        problems.append(
            f"{args.solutions}: has {len(answers)} lines, {args.file} has {len(puzzles)}"
        )
    valid = unsolved = 0
    puzzle_name = "<stdin>" if args.file == "-" else args.file
    answer_name = "<stdin>" if args.solutions == "-" else args.solutions
    for number, (puzzle_text, answer) in enumerate(zip(puzzles, answers, strict=False), start=1):
        if _is_unsolved_answer(answer):
            unsolved += 1
            continue
        try:
            puzzle = Board.parse(puzzle_text, source=puzzle_name, line=number)
            solved = Board.parse(answer, source=answer_name, line=number)
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
    return parse_output(answer).verdict is not Verdict.SAT


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
        "--solver",
        default="cdcl",
        type=_solver_name,
        metavar="NAME",
        help="which solver (default cdcl)",
    )
    parser.add_argument(
        "--format",
        choices=("course", "competition", "dartmouth"),
        default="course",
        help="solution format (default course); dartmouth: the input is in Dartmouth's CNF "
        "format (one clause per line, no header, no 0), the answer in the course format",
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write the solution here instead of standard output"
    )
    parser.add_argument(
        "--heuristic", type=_heuristic_name, metavar="NAME", help="branching heuristic for dpll"
    )
    parser.add_argument(
        "--noise", type=_probability, metavar="P", help="walksat/gsat: noise probability (0.5)"
    )
    parser.add_argument(
        "--max-flips",
        type=_positive_int,
        metavar="K",
        help="walksat/gsat: flips per try before a restart (walksat 100000, gsat 20000)",
    )
    parser.add_argument(
        "--max-tries",
        type=_positive_int,
        metavar="K",
        help="walksat/gsat: tries before answering unknown (default: restart until -T runs "
        "out; 10 without -T)",
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
    _add_memory_option(parser)


def _run_sat(args: argparse.Namespace) -> int:
    from sudosat.cnf import format_solution, parse_dimacs
    from sudosat.result import Status
    from sudosat.solvers import solve

    source = "<stdin>" if args.file == "-" else args.file
    if args.format == "dartmouth":
        from sudosat.dartmouth import parse_dartmouth

        cnf = parse_dartmouth(_read_sat_input(args.file), source)
        args.format = "course"
    else:
        cnf = parse_dimacs(_read_sat_input(args.file), source, max_bytes=args.max_memory)
    options = _solver_options(args, args.solver)
    if args.heuristic:
        options["heuristic"] = args.heuristic
    options.update(_local_search_options(args))
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


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("a probability: 0 <= P <= 1")
    return value


def _local_search_options(args: argparse.Namespace) -> dict:
    """--noise, --max-flips, --max-tries as solver options; refused for other solvers."""
    names = {"noise": "--noise", "max_flips": "--max-flips", "max_tries": "--max-tries"}
    given = {key: getattr(args, key) for key in names if getattr(args, key) is not None}
    if given and args.solver not in ("walksat", "gsat"):
        flags = ", ".join(names[key] for key in given)
        raise SudosatError(f"{flags}: only for --solver walksat or gsat, not {args.solver!r}")
    return given


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
        metavar="A",
        help="fraction of the cells given, 0 <= A <= 1 (required unless --minimal)",
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
        type=_solver_name,
        metavar="NAME",
        help="solver of the base solution and uniqueness checks (default cdcl)",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write here instead of standard output"
    )
    _add_memory_option(parser)


def _run_generate(args: argparse.Namespace) -> int:
    from sudosat.generate import generate_many

    if args.alpha is None and not args.minimal:
        print("sudosat generate: --alpha is required (unless --minimal)", file=sys.stderr)
        return EXIT_USAGE
    _check_board_memory(args.order, args, args.count)
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
    )
    _write_output("".join(board.to_line() + "\n" for board in boards), args.output)
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat count


def _add_count_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "count",
        help="count the solutions of every instance of a file, up to a limit",
        description="""\
For each line of FILE, one output line: the number of solutions that keep its
givens, counted up to --limit: '0', '1', ... or 'at least K'; 'TIMEOUT' when
-T ran out first, 'ERROR <reason>' for a line that cannot be read. One
incremental solver per line: solve, forbid that solution, solve again.
Exit 0, or 1 when a line was an ERROR.""",
        epilog=_EPILOG_FORMATS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="instance file, one board per line ('-': standard input)")
    parser.add_argument(
        "--limit",
        "--count-solutions",
        dest="limit",
        type=_positive_int,
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
    _add_solver_options(parser)


def _run_count(args: argparse.Namespace) -> int:
    from sudosat.board import Board
    from sudosat.incremental import check_encoding, count_solutions

    check_encoding(args.encoding)
    source = "<stdin>" if args.file == "-" else args.file
    answers, failed = [], False
    lines = _read_text(args.file).split("\n")
    if lines and not lines[-1]:
        lines.pop()  # the final line end starts no line
    for number, text in enumerate(lines, 1):
        text = text.removesuffix("\r")
        try:
            board = Board.parse(text, source=source, line=number)
            found = count_solutions(
                board, args.limit, solver=args.solver, encoding=args.encoding,
                time_limit_ms=args.time_limit_ms, seed=args.seed,
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
    _write_output("".join(line + "\n" for line in answers), args.output)
    return EXIT_BAD_INPUT if failed else EXIT_OK


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
stem>.results.csv; a .jsonl, .json or .ndjson name gives JSON lines), so an
interrupted run loses nothing finished: the same command with --resume
completes it, keeping only rows that match this input line and these options
(and whose boards check again). One run at a time per results table; a second is refused. A bad line
becomes an ERROR line and row; the others go on. Every output path is checked
before the first line is solved; a FIFO or a device is written in place.

Exit 0 when every line was answered (solved, UNSAT or TIMEOUT); 1 when some
line ended in ERROR, each such line named on standard error as FILE:LINE.""",
        epilog="examples:\n"
        "  sudosat solve data/course-example.txt -o solved.txt -T 10000\n"
        "  sudosat solve puzzles.txt -o out.txt --solver cdcl --solver zchaff -T 10000 -j 2\n"
        "  sudosat solve puzzles.txt -o out.txt -T 10000 --resume        # after an interruption\n"
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
        type=_solver_name,
        metavar="NAME",
        help="solver (repeatable; default cdcl): cdcl, dpll, dp, walksat, gsat, "
        "zchaff, pysat:NAME, exec:PROGRAM",
    )
    parser.add_argument(
        "--encoding",
        default="course",
        type=_encoding_name,
        metavar="NAME",
        help="encoding (default course; 'sudosat encode --list' shows all)",
    )
    parser.add_argument(
        "--results", metavar="FILE", help="results table (.csv; .jsonl, .json, .ndjson: JSON lines)"
    )
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
        type=_scheduler_address,
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
    parser.add_argument(
        "--incremental",
        action="store_true",
        help="load the rules once per worker and solve each line with its givens as "
        "assumptions (cdcl, pysat:NAME; others run one-shot; not the optimised encodings; "
        "fastest with --encoding extended)",
    )
    _add_solver_options(parser)


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
    from sudosat.encoding import DEFAULT_MAX_BYTES, check_resources

    limit = DEFAULT_MAX_BYTES if args.max_memory is None else args.max_memory
    try:
        check_resources(board, args.encoding, limit)
    except SudosatError as exc:
        raise exc.at(file="<stdin>" if source == "-" else source, line=line) from None


def _run_solve(args: argparse.Namespace) -> int:
    from sudosat.pipeline import BatchSettings, results_path, run_batch

    solvers = args.solvers or ["cdcl"]
    instances = _solve_input(args)
    extra = _incremental_options(solvers, args.encoding) if args.incremental else None
    if extra is not None and not extra:
        return EXIT_USAGE
    try:
        settings = BatchSettings(
            solvers=tuple(solvers),
            solver_options=extra,
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
        summary = run_batch(instances, args.output, settings)
    except KeyboardInterrupt:
        results = args.results or results_path(args.file, args.output)
        print(
            f"sudosat: interrupted; every finished row is in {results}: "
            "run the same command with --resume to complete it",
            file=sys.stderr,
        )
        return 130
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
        raise _UsageError("solve: reading standard input ('-') needs -o OUT to name the output")
    return "/dev/stdin"


def _incremental_options(solvers: list[str], encoding: str) -> dict:
    """``solver_options`` for ``solve --incremental``; empty (after a message) when refused."""
    from sudosat.errors import EncodingError
    from sudosat.incremental import check_encoding, incremental_support

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
    from sudosat.pipeline import probe_solver
    from sudosat.solvers import list_solvers

    for info in list_solvers([f"exec:{program}" for program in args.exec]):
        state = "available" if info.available else f"not available: {info.why_not}"
        if info.name == "zchaff" and args.zchaff:  # the binary given, passed as an option
            why = probe_solver("zchaff", zchaff=args.zchaff)
            state = "available" if why is None else f"not available: {why}"
        print(f"{info.name:22} {state}")
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# the parser and the entry points


class _UsageError(Exception):
    """Bad usage found after parsing (exit 2, one line)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (then exit 2).

    argparse prints the whole usage before the error; one line that names the
    command and points at ``--help`` is easier to read and to test.
    """

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``sudosat`` argument parser with every sub-command."""
    parser = _Parser(
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


def _guarded(action: Callable[[], int], program: str, subject: str | None = None) -> int:
    """Run `action`, turning every error into one line on standard error and an exit code.

    Bad input (a :class:`SudosatError`) exits 1, bad usage 2, and anything
    unexpected 3 with one line naming the stage and `subject` (the traceback
    too when ``SUDOSAT_DEBUG=1``).
    """

    def show_warning(message, category, filename, lineno, file=None, line=None):
        print(f"{program}: warning: {message}", file=sys.stderr)

    previous = warnings.showwarning
    warnings.showwarning = show_warning
    try:
        return action()
    except SudosatError as exc:
        print(f"{program}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except _UsageError as exc:
        print(f"{program}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of ours: still one line, unless the user asks for more
        if os.environ.get("SUDOSAT_DEBUG", "") not in ("", "0"):
            traceback.print_exc()
        print(_internal_error_line(program, exc, subject), file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        warnings.showwarning = previous


# The stage an unexpected error happened in, from the innermost sudosat frame:
# (module prefix, stage); a frame in a function whose name says decode wins.
_STAGES = (
    ("sudosat.solvers", "solving"),
    ("sudosat.encoding", "encoding"),
    ("sudosat.amo", "encoding"),
    ("sudosat.formulas", "encoding"),
    ("sudosat.generate", "generating"),
    ("sudosat.cnf", "reading"),
    ("sudosat.board", "reading"),
    ("sudosat.lines", "reading"),
    ("sudosat.pipeline", "running the batch on"),
    ("sudosat.batch", "running the batch on"),
)


def _stage_of(exc: BaseException) -> str:
    """What sudosat was doing when `exc` was raised: reading, encoding, solving, decoding ..."""
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        module = _module_of(frame.filename)
        if module is None or module == "sudosat.cli":
            continue
        if "decode" in frame.name:
            return "decoding"
        if frame.name.startswith(("to_", "write", "format")):
            return "writing the answer for"
        for prefix, stage in _STAGES:
            if module.startswith(prefix):
                return stage
    return "processing"


def _module_of(filename: str) -> str | None:
    """``sudosat.x.y`` for a file of the sudosat package, else None."""
    parts = os.path.normpath(filename).split(os.sep)
    if "sudosat" not in parts:
        return None
    tail = parts[len(parts) - 1 - parts[::-1].index("sudosat") :]
    return ".".join(tail).removesuffix(".py")


def _internal_error_line(program: str, exc: BaseException, subject: str | None) -> str:
    """One line: the program, what it was doing, to which input, and the error."""
    stage = _stage_of(exc)
    target = f" {subject}" if subject else ""
    text = " ".join(str(exc).split())
    detail = f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
    return (
        f"{program}: internal error while {stage}{target}: {detail} "
        "(a bug in sudosat; set SUDOSAT_DEBUG=1 for the traceback)"
    )


# ---------------------------------------------------------------------------------------
# SAT -Sn FILE


SAT_STRATEGIES = {1: ("dp", {}), 2: ("dpll", {}), 3: ("cdcl", {})}


def build_sat_sn_parser() -> argparse.ArgumentParser:
    """The parser of the course's ``SAT -Sn FILE`` program."""
    parser = _Parser(
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
    _add_memory_option(parser)
    return parser


def sat_sn_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``SAT -Sn FILE``."""
    args = build_sat_sn_parser().parse_args(argv)
    return _guarded(lambda: _run_sat_sn(args), "SAT", args.file)


def _run_sat_sn(args: argparse.Namespace) -> int:
    from sudosat.cnf import format_solution, parse_dimacs
    from sudosat.result import Status
    from sudosat.solvers import solve

    solver, options = SAT_STRATEGIES[args.strategy]
    cnf = parse_dimacs(_read_sat_input(args.file), args.file, max_bytes=args.max_memory)
    result = solve(cnf, solver, time_limit_ms=args.time_limit_ms, **options)
    out_path = f"{args.file}.out"
    words = {"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE", "UNKNOWN": "UNKNOWN"}
    print(f"s {words[result.status.value]}")
    if result.status is Status.UNKNOWN:
        # No answer must not look like UNSAT (an empty .out): write none, and remove a
        # previous run's, which would otherwise pass for this formula's answer.
        removed = Path(out_path).is_file()
        if removed:
            Path(out_path).unlink()
        print(f"SAT: no answer within the time limit: {out_path} not written"
              + (" (the previous one was removed)" if removed else ""), file=sys.stderr)
        return EXIT_OK
    # The assignment names only the variables the formula uses (729 of the rules' 999).
    used = set(map(abs, cnf.flat))
    model = [lit for lit in result.model or () if lit in used or -lit in used]
    _write_output(format_solution(result.status, model, cnf.num_vars, "units"), out_path)
    print(f"c solver {solver}, {result.elapsed_ms:.1f} ms; assignment written to {out_path}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
