"""``sudosat sat`` (one DIMACS file, any solver, exit codes 10/20/0) and ``SAT -Sn FILE``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudosat.cli.common import (
    EXIT_OK,
    _add_budget_options,
    _add_memory_option,
    _add_solver_options,
    _add_time_limit,
    _budget_options,
    _deadline,
    _guard_outputs,
    _heuristic_name,
    _Parser,
    _positive_int,
    _probability,
    _read_sat_input,
    _seed,
    _solver_name,
    _solver_options,
    _write_output,
)
from sudosat.cli.guard import _guarded
from sudosat.errors import SudosatError

# ---------------------------------------------------------------------------------------
# sudosat sat


def _add_sat_parser(subparsers) -> None:
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
        "--stats", action="store_true",
        help="print the solver's statistics as 'c' lines (times in milliseconds, each named "
        "by its clock: search_cpu_ms, search_wall_ms ...)",
    )
    _add_time_limit(parser, "for the solver's call",
                    "the answer is unknown ('s cnf -1 V'; 's UNKNOWN' in the competition "
                    "format) and the exit code 0")
    _add_solver_options(parser)
    _add_budget_options(parser)
    _add_memory_option(parser)


def _run_sat(args: argparse.Namespace) -> int:
    from sudosat.sat.cnf import format_solution, parse_dimacs
    from sudosat.sat.result import Status
    from sudosat.sat.solvers import solve
    from sudosat.sat.solvers.budget import BUDGET_STOPS

    source = "<stdin>" if args.file == "-" else args.file
    _guard_outputs([(args.file, "the formula")],
                   [(args.output, "the solution"), (args.proof, "the proof")])
    text = _read_sat_input(args.file, args.max_memory)
    if args.format == "dartmouth":
        from sudosat.sat.dartmouth import parse_dartmouth

        cnf = parse_dartmouth(text, source)
        args.format = "course"
    else:
        cnf = parse_dimacs(text, source, max_bytes=args.max_memory)
    options = {**_solver_options(args, args.solver), **_budget_options(args)}
    if args.heuristic:
        options["heuristic"] = args.heuristic
    options.update(_local_search_options(args))
    wants_proof = bool(args.proof or args.certify)
    if wants_proof:
        if args.solver != "cdcl":
            raise SudosatError("--proof and --certify need --solver cdcl")
        options["proof"] = True
    result = solve(cnf, args.solver, deadline=_deadline(args), **options)
    comments = [f"solver {result.solver}, {result.elapsed_ms:.1f} ms"]
    if result.status is Status.UNKNOWN:  # why, as the solver's loop recorded it
        budget = next((name for name, stop in BUDGET_STOPS.items() if stop is result.stop), None)
        why = f"{budget}={options[budget]} ran out" if budget else f"stopped for {result.stop}"
        comments.append(f"no decision: {why}")
    if args.stats:
        comments += [f"{key} {_for_people(value)}" for key, value in sorted(result.stats.items())]
    if wants_proof and result.status is Status.UNSAT:
        comments.append(_handle_proof(cnf, result, args))
    _write_output(
        format_solution(result.status, result.model, cnf.num_vars, args.format, comments),
        args.output,
    )
    return result.status.exit_code


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
        _write_output(proof, args.proof)
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
        type=_seed,
        choices=sorted(SAT_STRATEGIES),
        required=True,
        metavar="n",
        help="1 = DP, 2 = DPLL with a heuristic, 3 = CDCL",
    )
    parser.add_argument("file", help="DIMACS CNF file")
    _add_time_limit(parser, "for the solver's call",
                    "it prints 's UNKNOWN', writes no FILE.out (and removes an old one) and "
                    "exits 0")
    _add_memory_option(parser)
    return parser


def sat_sn_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``SAT -Sn FILE``."""
    args = build_sat_sn_parser().parse_args(argv)
    return _guarded(lambda: _run_sat_sn(args), "SAT", args.file)


def _run_sat_sn(args: argparse.Namespace) -> int:
    from sudosat.sat.cnf import format_solution, parse_dimacs
    from sudosat.sat.result import Status
    from sudosat.sat.solvers import solve

    solver, options = SAT_STRATEGIES[args.strategy]
    out_path = f"{args.file}.out"
    _guard_outputs([(args.file, "the formula")], [(out_path, "the assignment")])
    text = _read_sat_input(args.file, args.max_memory)
    cnf = parse_dimacs(text, args.file, max_bytes=args.max_memory)
    result = solve(cnf, solver, deadline=_deadline(args), **options)
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
