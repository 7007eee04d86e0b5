"""``sudosat sat`` (one DIMACS file, any solver, exit codes 10/20/0) and ``SAT -Sn FILE``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudosat.cli import SAT_SN_PROGRAM
from sudosat.cli.common import (
    BUDGET_FLAGS,
    EXIT_OK,
    add_budget_options,
    add_memory_option,
    add_solver_options,
    add_time_limit,
    budget_options,
    deadline_of,
    guard_outputs,
    heuristic_name,
    probability,
    read_sat_input,
    seed_number,
    solver_options_of,
    write_output,
)
from sudosat.cli.guard import guarded
from sudosat.errors import SudosatError
from sudosat.run.options import OneLineParser, positive_int, solver_name
from sudosat.sat.solvers.budget import BUDGET_STOPS

# ---------------------------------------------------------------------------------------
# sudosat sat


def add_sat_parser(subparsers) -> None:
    """Declare ``sudosat sat`` and its options on `subparsers`."""
    parser = subparsers.add_parser(
        "sat",
        help="solve any DIMACS CNF formula",
        description="Solve a DIMACS CNF formula (any formula, not only Sudoku) and print the "
        "answer in the course's solution format ('s cnf R V' then one 'v' line per variable; "
        "R = 1 satisfiable, 0 unsatisfiable, -1 no decision within the time limit or the work "
        "budget) or in the "
        "SAT competition's. Exit 10 SAT, 20 UNSAT, 0 unknown, 1 bad input.",
        epilog="solvers: cdcl (default), dpll, dp, walksat, gsat, zchaff, pysat:NAME,\n"
        "  exec:PROGRAM ('sudosat solvers' says which are available here)\n\n"
        "examples:\n  sudosat sat formula.cnf -T 5000\n"
        "  sudosat sat formula.cnf --solver zchaff --zchaff ~/bin/zchaff --format competition\n"
        "  sudosat sat php.cnf --proof php.drat --certify\n"
        "  sudosat sat php.cnf --solver dpll --max-conflicts 1000",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="DIMACS CNF file ('-' for standard input)")
    parser.add_argument(
        "--solver",
        default="cdcl",
        type=solver_name,
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
        "--heuristic", type=heuristic_name, metavar="NAME", help="branching heuristic for dpll"
    )
    parser.add_argument(
        "--noise", type=probability, metavar="P", help="walksat/gsat: noise probability (0.5)"
    )
    parser.add_argument(
        "--max-flips",
        type=positive_int,
        metavar="K",
        help="walksat/gsat: flips per try before a restart (walksat 100000, gsat 20000)",
    )
    parser.add_argument(
        "--max-tries",
        type=positive_int,
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
        "--stats", action="store_true",
        help="print the solver's statistics as 'c' lines (times in milliseconds, each named "
        "by its clock: search_cpu_ms, search_wall_ms ...)",
    )
    add_time_limit(parser, "from the command's start: reading and parsing the formula, "
                    "loading it into the solver and the search",
                    "the answer is unknown ('s cnf -1 V'; 's UNKNOWN' in the competition "
                    "format) with a 'c' line saying why, and the exit code 0")
    add_solver_options(parser)
    add_budget_options(parser)
    add_memory_option(parser)


def run_sat(args: argparse.Namespace) -> int:
    """Run ``sudosat sat`` with the parsed `args`; return the exit code."""
    from sudosat.sat.cnf import format_solution
    from sudosat.sat.result import Status
    from sudosat.sat.solvers import solve
    from sudosat.sat.solvers.budget import OutOfTime

    deadline = deadline_of(args, whole_command=True)
    guard_outputs([(args.file, "the formula")],
                   [(args.output, "the solution"), (args.proof, "the proof")])
    options = {**solver_options_of(args, args.solver), **budget_options(args, [args.solver])}
    if args.heuristic:
        options["heuristic"] = args.heuristic
    options.update(_local_search_options(args))
    wants_proof = bool(args.proof or args.certify)
    if wants_proof:
        if args.solver != "cdcl":
            raise SudosatError("--proof and --certify need --solver cdcl")
        options["proof"] = True
    style = "course" if args.format == "dartmouth" else args.format
    try:
        cnf = _read_formula(args, deadline)
    except OutOfTime:
        why = _why_no_decision(args, "time", "while reading the formula")
        write_output(format_solution(Status.UNKNOWN, None, _declared(args.file), style, [why]),
                      args.output)
        return Status.UNKNOWN.exit_code
    result = solve(cnf, args.solver, deadline=deadline, **options)
    comments = [f"solver {result.solver}, {result.elapsed_ms:.1f} ms"]
    if result.status is Status.UNKNOWN:  # why, as the solver's loop recorded it
        comments.append(_why_no_decision(args, str(result.stop)))
    if args.stats:
        if result.core:  # which implementation ran (cdcl: compiled or python)
            comments.append(f"core {result.core}")
        comments += [f"{key} {_for_people(value)}" for key, value in sorted(result.stats.items())]
    if wants_proof and result.status is Status.UNSAT:
        comments.append(_handle_proof(cnf, result, args))
    write_output(format_solution(result.status, result.model, cnf.num_vars, style, comments),
                  args.output)
    return result.status.exit_code


def _read_formula(args: argparse.Namespace, deadline):
    """The formula of ``args.file``, read and parsed within `deadline` (else OutOfTime)."""
    from sudosat.sat.cnf import parse_dimacs

    source = "<stdin>" if args.file == "-" else args.file
    check = None if deadline is None else deadline.check
    text = read_sat_input(args.file, args.max_memory, check=check)
    if args.format == "dartmouth":
        from sudosat.sat.dartmouth import parse_dartmouth

        return parse_dartmouth(text, source, check=check)
    return parse_dimacs(text, source, max_bytes=args.max_memory, check=check)


def _why_no_decision(args: argparse.Namespace, stop: str, when: str = "") -> str:
    """The comment that says why there is no answer: the limit that ran out, as typed.

    Examples
    --------
    >>> args = argparse.Namespace(time_limit_ms=500.0, max_conflicts=3)
    >>> _why_no_decision(args, "time", "while reading the formula")
    'no decision: the time limit ran out while reading the formula (-T 500)'
    >>> _why_no_decision(args, "conflicts")
    'no decision: the work budget ran out (--max-conflicts 3)'
    """
    for budget, flag in BUDGET_FLAGS.items():
        if BUDGET_STOPS[budget].value == stop:
            return f"no decision: the work budget ran out ({flag} {getattr(args, budget)})"
    if stop == "time":
        return (f"no decision: the time limit ran out{' ' + when if when else ''} "
                f"(-T {args.time_limit_ms:g})")
    if stop == "gave up":
        return "no decision: the solver gave up with time left"
    return f"no decision: the solver stopped ({stop})"


def _declared(path: str) -> int:
    """The variable count the file's header declares, when the rest could not be read in time."""
    from sudosat.sat.dimacs import declared_variables

    if path == "-":
        return 0
    try:
        with open(path, "rb") as stream:
            head = stream.read(1 << 16).decode("utf-8", errors="replace")
    except OSError:
        return 0
    return declared_variables(head) or 0


def _for_people(value: float) -> str:
    """A statistic as people read it: a count whole, a time (ms) to a tenth.

    Examples
    --------
    >>> _for_people(65.41963), _for_people(12), _for_people(3.0)
    ('65.4', '12', '3')
    """
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _local_search_options(args: argparse.Namespace) -> dict:
    """--noise, --max-flips, --max-tries as solver options; refused for other solvers."""
    names = {"noise": "--noise", "max_flips": "--max-flips", "max_tries": "--max-tries"}
    given = {key: getattr(args, key) for key in names if getattr(args, key) is not None}
    if given and args.solver not in ("walksat", "gsat"):
        flags = ", ".join(names[key] for key in given)
        raise SudosatError(f"{flags}: only for --solver walksat or gsat, not {args.solver!r}")
    return given


def _handle_proof(cnf, result, args: argparse.Namespace) -> str:
    """Write and/or check the DRAT proof; return the comment line that reports it."""
    from sudosat.sat.solvers.cdcl import certify

    proof = result.proof or ""
    if args.proof:
        write_output(proof, args.proof)
    if not args.certify:
        return f"DRAT proof written to {args.proof}"
    ok, detail = certify(cnf, proof)
    if not ok:
        raise SudosatError(f"the DRAT proof of UNSAT failed to check: {detail}")
    return "UNSAT certified: DRAT proof verified by dratify"


# ---------------------------------------------------------------------------------------
# SAT -Sn FILE


SAT_STRATEGIES: dict[int, tuple[str, dict[str, Any]]] = {
    1: ("dp", {}),
    2: ("dpll", {}),
    3: ("cdcl", {}),
}


def build_sat_sn_parser() -> argparse.ArgumentParser:
    """The parser of the course's ``SAT -Sn FILE`` program."""
    parser = OneLineParser(
        prog=SAT_SN_PROGRAM,
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
        type=seed_number,
        choices=sorted(SAT_STRATEGIES),
        required=True,
        metavar="n",
        help="1 = DP, 2 = DPLL with a heuristic, 3 = CDCL",
    )
    parser.add_argument("file", help="DIMACS CNF file")
    add_time_limit(parser, "from the command's start: reading, parsing and solving",
                    "it prints 's UNKNOWN', writes no FILE.out (and removes an old one) and "
                    "exits 0")
    add_memory_option(parser)
    return parser


def sat_sn_main(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Entry point of ``SAT -Sn FILE``; `started` is when the command began (see
    :func:`sudosat.cli.entry.main`)."""
    args = build_sat_sn_parser().parse_args(argv)
    args.started = started
    return guarded(lambda: _run_sat_sn(args), SAT_SN_PROGRAM, args.file)


def _run_sat_sn(args: argparse.Namespace) -> int:
    from sudosat.sat.cnf import format_solution, parse_dimacs
    from sudosat.sat.result import Status
    from sudosat.sat.solvers import solve
    from sudosat.sat.solvers.budget import OutOfTime

    deadline = deadline_of(args, whole_command=True)
    solver, options = SAT_STRATEGIES[args.strategy]
    out_path = f"{args.file}.out"
    guard_outputs([(args.file, "the formula")], [(out_path, "the assignment")])
    check = None if deadline is None else deadline.check
    try:
        text = read_sat_input(args.file, args.max_memory, check=check)
        cnf = parse_dimacs(text, args.file, max_bytes=args.max_memory, check=check)
        result = solve(cnf, solver, deadline=deadline, **options)
    except OutOfTime:  # while reading the formula
        result = None
    words = {Status.SAT: "SATISFIABLE", Status.UNSAT: "UNSATISFIABLE", Status.UNKNOWN: "UNKNOWN"}
    # FILE.out is the product: it is settled before anything is printed (a closed
    # standard output then costs the message only).
    if result is None or result.status is Status.UNKNOWN:
        # No answer must not look like UNSAT (an empty .out): write none, and remove a
        # previous run's, which would otherwise pass for this formula's answer.
        removed = Path(out_path).is_file()
        if removed:
            Path(out_path).unlink()
        print(f"s {words[Status.UNKNOWN]}")
        print(f"SAT: no answer within the time limit: {out_path} not written"
              + (" (the previous one was removed)" if removed else ""), file=sys.stderr)
        return EXIT_OK
    # The assignment names only the variables the formula uses (729 of the rules' 999).
    used = set(map(abs, cnf.flat))
    model = [lit for lit in result.model or () if lit in used or -lit in used]
    write_output(format_solution(result.status, model, cnf.num_vars, "units"), out_path)
    print(f"s {words[result.status]}")
    print(f"c solver {solver}, {result.elapsed_ms:.1f} ms; assignment written to {out_path}")
    return EXIT_OK
