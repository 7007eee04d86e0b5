"""``sudosat encode``, ``decode`` and ``check``: boards to DIMACS, answers back to boards."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from sudosat.cli.common import (
    EPILOG_FORMATS,
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    add_memory_option,
    check_board_memory,
    check_encoding_memory,
    guard_outputs,
    instance_line,
    read_input_text,
    write_output,
)
from sudosat.errors import InstanceError, OutputError, SudosatError
from sudosat.lines import split_lines
from sudosat.run.options import encoding_name, positive_int
from sudosat.run.results import Verdict, format_output, parse_output

# ---------------------------------------------------------------------------------------
# sudosat encode


def add_encode_parser(subparsers) -> None:
    """Declare ``sudosat encode`` and its options on `subparsers`."""
    parser = subparsers.add_parser(
        "encode",
        help="translate a Sudoku instance into DIMACS CNF",
        description="Translate one instance line into a DIMACS CNF formula. With the course "
        "encoding, variable x(i,j,d) ('cell (i,j) holds d', 0-based i and j) is numbered "
        "i*N^4 + j*N^2 + d; with --numbering rcv it is named by the digits row, column, value "
        "(111..999 for 9x9; (N^2+1)^2*r + (N^2+1)*c + v from order 4). With -o DIR (an existing "
        "directory) every line of FILE (or --line K) becomes DIR/<stem>-<K>.cnf.",
        epilog=EPILOG_FORMATS
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
        type=positive_int,
        metavar="K",
        help="which line of FILE to encode (1-based; default 1, or every line with -o DIR)",
    )
    parser.add_argument(
        "--encoding",
        type=encoding_name,
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
    add_memory_option(parser)


def run_encode(args: argparse.Namespace) -> int:
    """Run ``sudosat encode`` with the parsed `args`; return the exit code."""
    from sudosat.sudoku.encoding import ENCODINGS, FORMAT_ENCODINGS

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
        _make_folder(args.output)  # "-o DIR/" names a directory, made when missing
    if args.output and Path(args.output).is_dir():
        return _encode_lines_to_directory(args)
    guard_outputs([(args.file, "the instance file")], [(args.output, "the formula")])
    line = args.line or 1
    write_output(_encoded_text(instance_line(args.file, line, args.max_memory), args, line),
                  args.output)
    return EXIT_OK


def _make_folder(path: str) -> None:
    """Make the folder ``-o DIR/`` names; one line when a file of that name is in the way."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError("exists and is not a folder (-o DIR/ names a folder)",
                          file=path) from None
    except OSError as exc:
        raise OutputError(f"cannot create the folder: {exc.strerror}", file=path) from None


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
    from sudosat.sat.dartmouth import to_dartmouth
    from sudosat.sudoku.encoding import ENCODINGS, encode, encode_numbered
    from sudosat.sudoku.numbering import get_numbering

    if args.encoding in ENCODINGS:
        check_encoding_memory(board, args, args.file, line)
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
    from sudosat.sudoku.board import Board

    source = "<stdin>" if args.file == "-" else args.file
    stem = "stdin" if args.file == "-" else Path(args.file).name.split(".")[0]
    lines = split_lines(read_input_text(args.file, args.max_memory))
    if args.line and args.line > len(lines):
        raise InstanceError(f"there is no line {args.line}: the file has {len(lines)} lines",
                            file=source)
    wanted = [args.line] if args.line else range(1, len(lines) + 1)
    numbers = [number for number in wanted if lines[number - 1].strip()]  # blank: no instance
    targets = {number: str(Path(args.output) / f"{stem}-{number}.cnf") for number in numbers}
    roles = [(target, f"the formula of line {number}") for number, target in targets.items()]
    guard_outputs([(args.file, "the instance file")], roles)
    written = failed = 0
    for number in numbers:
        try:
            board = Board.parse(lines[number - 1], source=source, line=number)
            text = _encoded_text(board, args, number)
        except SudosatError as exc:
            print(f"sudosat: {exc}", file=sys.stderr)
            failed += 1
            continue
        write_output(text, targets[number])
        written += 1
    failures = f"; {failed} line{'s' * (failed != 1)} not encoded" if failed else ""
    print(f"{written} file{'s' * (written != 1)} written to {args.output}{failures}",
          file=sys.stderr)
    return EXIT_BAD_INPUT if failed else EXIT_OK


# ---------------------------------------------------------------------------------------
# sudosat decode


def add_decode_parser(subparsers) -> None:
    """Declare ``sudosat decode`` and its options on `subparsers`."""
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
        "  SAT -S2 sudoku.cnf && sudosat decode sudoku.cnf.out --numbering rcv",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("solution", help="solution file ('-' for standard input)")
    parser.add_argument(
        "--order",
        type=positive_int,
        metavar="N",
        help="the board's order N (default: the instance's, else the one order whose models "
        "have the answer's variable count: 999 in rcv or 729 in course is order 3)",
    )
    parser.add_argument(
        "--instance", metavar="FILE", help="the instance file the formula came from"
    )
    parser.add_argument(
        "--line", type=positive_int, default=1, metavar="K", help="its line (default 1)"
    )
    parser.add_argument(
        "--encoding",
        type=encoding_name,
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
    add_memory_option(parser)


def run_decode(args: argparse.Namespace) -> int:
    """Run ``sudosat decode`` with the parsed `args`; return the exit code."""
    from sudosat.sat.assignment import read_assignment
    from sudosat.sat.result import Status, Stop
    from sudosat.sudoku.encoding import ENCODINGS, check_model_count, decode_model, get_encoding

    encoding = args.encoding = get_encoding(args.encoding or "course").name
    if get_encoding(encoding).reduced and not args.instance:
        print(f"sudosat decode: usage error: --encoding {encoding} needs --instance FILE "
              "[--line K]: that encoding numbers only the candidates the givens leave open, "
              "so its variables mean nothing without the puzzle", file=sys.stderr)
        return EXIT_USAGE
    numbering = args.numbering or ("rcv" if args.format == "dartmouth" else "course")
    source = "<stdin>" if args.solution == "-" else args.solution
    guard_outputs([(args.solution, "the solution"), (args.instance, "the instance file")],
                   [(args.output, "the board")])
    if args.order is not None:
        check_board_memory(args.order, args)
    text = read_input_text(args.solution, args.max_memory)
    answer = read_assignment(text, source, args.format, args.max_memory)
    instance = instance_line(args.instance, args.line, args.max_memory) if args.instance else None
    if instance is not None and encoding in ENCODINGS:
        check_encoding_memory(instance, args, args.instance, args.line)
    try:
        if args.order is None:
            args.order = _decoded_order(answer, encoding, numbering, instance)
            if args.order is None:
                print(f"sudosat decode: usage error: {source} declares no variable count and "
                      "gives no value, so its order cannot be told: pass --order N",
                      file=sys.stderr)
                return EXIT_USAGE
            check_board_memory(args.order, args)
        if answer.status is not Status.SAT:
            # An answer without a model still has to be about this encoding.
            if answer.num_vars is not None:
                check_model_count(answer.num_vars, args.order, encoding, numbering, instance,
                                  noun="answer")
            # A solution file says no more than "no decision" (R = -1): the course's word
            # for it, no decision within T, is TIMEOUT.
            stop = Stop.TIME if answer.status is Status.UNKNOWN else Stop.ANSWERED
            word = Verdict.of(answer.status, stop)
            write_output(format_output(word, order=args.order) + "\n", args.output)
            return EXIT_OK
        board = decode_model(answer.values, args.order, encoding=encoding, numbering=numbering,
                             instance=instance, num_vars=answer.num_vars)
    except SudosatError as exc:
        raise exc.at(file=source) from None
    write_output(board.to_line() + "\n", args.output)
    return EXIT_OK


def _decoded_order(answer, encoding: str, numbering: str, instance) -> int | None:
    """The order decode reads `answer` in without --order; None when nothing tells it.

    The instance's order when there is one; else the one order whose models
    have the answer's variable count (declared, else its largest variable):
    :func:`~sudosat.sudoku.encoding.model_order`. A count below every order's
    is bad input (the file fits no board), not a missing option.
    """
    from sudosat.sudoku.encoding import model_order, model_size

    if instance is not None:
        return instance.order
    count = answer.num_vars if answer.num_vars is not None else max(answer.values, default=None)
    if count is None:
        return None
    order = model_order(count, encoding, numbering)
    if order is None:
        raise SudosatError(f"the answer is over {count} variables, fewer than any board's: an "
                           f"order-1 {encoding} model in the {numbering} numbering has "
                           f"{model_size(1, encoding, numbering)} (wrong --numbering?)")
    return order


# ---------------------------------------------------------------------------------------
# sudosat check


def add_check_parser(subparsers) -> None:
    """Declare ``sudosat check`` and its options on `subparsers`."""
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


def run_check(args: argparse.Namespace) -> int:
    """Run ``sudosat check`` with the parsed `args`; return the exit code."""
    from sudosat.sudoku.board import Board, check_solution

    puzzles = split_lines(read_input_text(args.file))
    answers = split_lines(read_input_text(args.solutions))
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
