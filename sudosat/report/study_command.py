"""The scaling study from the command line: ``python -m sudosat.report.study_command``.

It runs :func:`sudosat.studies.scaling.run_study`, prints the cell and ratio tables, and
optionally writes the rows (CSV) and the report's figures; it lives with the
report because the figures are the report's (one style, one ``save_figure``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sudosat.errors import SudosatError
from sudosat.report.study_plots import save_study_figures
from sudosat.studies.scaling import (
    DEFAULT_ALPHAS,
    DEFAULT_ENCODINGS,
    DEFAULT_ORDERS,
    DEFAULT_SOLVERS,
    StudySettings,
    cell_table,
    ratio_table,
    run_study,
)

# ---------------------------------------------------------------------------------------
# command line: python -m sudosat.report.study_command


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m sudosat.report.study_command``."""
    parser = argparse.ArgumentParser(
        prog="python -m sudosat.report.study_command",
        description="The scaling study: generate boards over orders N x fill fractions alpha, "
        "solve them with each solver and encoding under the same limits (a conflict budget, "
        "the same on every machine, and a CPU-time limit), print the cell table and the "
        "solver/reference ratio (CPU times), and optionally write the rows (CSV) and figures.",
    )
    parser.add_argument("--orders", type=int, nargs="+", default=list(DEFAULT_ORDERS), metavar="N")
    parser.add_argument(
        "--alphas", type=float, nargs="+", default=list(DEFAULT_ALPHAS), metavar="A"
    )
    parser.add_argument("--boards", type=int, default=3, help="boards per cell (default 3)")
    parser.add_argument(
        "-T",
        "--time-limit",
        dest="time_limit_ms",
        type=float,
        default=60_000,
        metavar="MS",
        help="solver time limit in ms of CPU time (default 60000); with --max-conflicts, set "
        "it far above what the budget takes: CPU time grows on a busy machine",
    )
    parser.add_argument(
        "--max-conflicts",
        type=int,
        default=None,
        metavar="N",
        help="conflict budget of every solver call: which boards are decided is then the same "
        "on every machine and at every load (default: none)",
    )
    parser.add_argument("--solvers", nargs="+", default=list(DEFAULT_SOLVERS), metavar="NAME")
    parser.add_argument("--encodings", nargs="+", default=list(DEFAULT_ENCODINGS), metavar="NAME")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--method", choices=("solution", "naive"), default="solution")
    parser.add_argument("--csv", metavar="FILE", help="write every row here")
    parser.add_argument("--figures", metavar="DIR", help="save the figures here (PNG and SVG)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study from the command line; return the exit code."""
    args = build_parser().parse_args(argv)

    def report(row: dict) -> None:
        print(
            f"N={row['order']} alpha={row['alpha']:.2f} board {row['board']} "
            f"{row['encoding']:>10} {row['solver']:>18} {row['status']:>7} "
            f"{row['total_cpu_ms']:10.1f} ms CPU",
            file=sys.stderr,
        )

    try:
        settings = StudySettings(
            orders=args.orders,
            alphas=args.alphas,
            boards=args.boards,
            time_limit_ms=args.time_limit_ms,
            max_conflicts=args.max_conflicts,
            solvers=args.solvers,
            encodings=args.encodings,
            seed=args.seed,
            method=args.method,
        )
        table = run_study(settings, on_row=report)
    except SudosatError as exc:
        print(f"sudosat.report.study_command: {exc}", file=sys.stderr)
        return 1
    if args.csv:
        table.to_csv(args.csv, index=False)
    print(cell_table(table).to_string())
    if len(args.solvers) == 2:
        print(ratio_table(table, *args.solvers).to_string())
    if args.figures:
        save_study_figures(table, args.figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
