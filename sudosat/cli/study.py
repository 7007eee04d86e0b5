"""``sudosat study``: the scaling study over orders N and fill fractions alpha, from the shell.

It runs :func:`sudosat.studies.scaling.run_study`, prints the cell and ratio
tables, and optionally writes the rows (CSV) and the report's figures
(:func:`sudosat.report.study_plots.save_study_figures`). The study needs the
``notebooks`` extra (pandas, matplotlib): without it the command names the
extra in one line.
"""

from __future__ import annotations

import argparse
import sys

from sudosat.cli.common import (
    EXIT_OK,
    budget_options,
    guard_outputs,
    probability,
    seed_number,
    write_output,
)
from sudosat.errors import import_extra
from sudosat.run.options import encoding_name, positive_int, positive_ms, solver_name

STUDY_EXTRA = "notebooks"
"""The extra of ``pyproject.toml`` that installs what the study computes and draws with."""


def add_study_parser(subparsers) -> None:
    """Declare ``sudosat study`` and its options on `subparsers`."""
    from sudosat.studies.defaults import (  # the defaults only: no pandas
        DEFAULT_ALPHAS,
        DEFAULT_ENCODINGS,
        DEFAULT_ORDERS,
        DEFAULT_SOLVERS,
    )

    parser = subparsers.add_parser(
        "study",
        help="the scaling study: solvers and encodings over orders N and fill fractions alpha",
        description="The scaling study: generate boards over orders N x fill fractions alpha, "
        "solve them with each solver and encoding under the same limits (a conflict budget, "
        "the same on every machine, and a CPU-time limit), print the cell table and the "
        "solver/reference ratio (CPU times), and optionally write the rows (CSV) and figures. "
        f"Needs the '{STUDY_EXTRA}' extra (pandas, matplotlib).",
        epilog="examples:\n"
        "  sudosat study --orders 2 3 --alphas 0 0.5 --boards 1 --solvers cdcl --encodings course\n"
        "  sudosat study --orders 2 --boards 2 --max-conflicts 1000 --csv rows.csv --figures figs",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--orders", type=positive_int, nargs="+", default=list(DEFAULT_ORDERS),
                        metavar="N", help="orders N of the boards (N^2 x N^2 cells)")
    parser.add_argument("--alphas", type=probability, nargs="+", default=list(DEFAULT_ALPHAS),
                        metavar="A", help="fractions of the cells given, each 0..1")
    parser.add_argument("--boards", type=positive_int, default=3,
                        help="boards per cell (default 3)")
    parser.add_argument(
        "-T",
        "--time-limit",
        dest="time_limit_ms",
        type=positive_ms,
        default=60_000,
        metavar="MS",
        help="time limit of every solver call in ms of CPU time (default 60000); with "
        "--max-conflicts, set it far above what the budget takes: CPU time grows on a busy "
        "machine",
    )
    parser.add_argument(
        "--max-conflicts",
        type=positive_int,
        default=None,
        metavar="N",
        help="conflict budget of every solver call: which boards are decided is then the same "
        "on every machine and at every load (default: none)",
    )
    parser.add_argument("--solvers", type=solver_name, nargs="+",
                        default=list(DEFAULT_SOLVERS), metavar="NAME")
    parser.add_argument("--encodings", type=encoding_name, nargs="+",
                        default=list(DEFAULT_ENCODINGS), metavar="NAME")
    parser.add_argument("--seed", type=seed_number, default=0, help="generator seed (default 0)")
    parser.add_argument("--method", choices=("solution", "naive"), default="solution",
                        help="how boards are generated (see sudosat generate; default solution)")
    parser.add_argument("--csv", metavar="FILE", help="write every row here")
    parser.add_argument("--figures", metavar="DIR", help="save the figures here (PNG and SVG)")


def run_study_command(args: argparse.Namespace) -> int:
    """Run ``sudosat study``: the study, its tables on standard output, its rows and figures.

    Everything that would fail after the work is refused before it, in one
    line (exit 1): an output path that cannot be written (:func:`check_study_outputs`),
    a budget a solver cannot honour, a solver that cannot run here, a grid
    that cannot fit in memory (:func:`sudosat.studies.scaling.check_grid`).
    """
    import_extra("pandas", STUDY_EXTRA, "the scaling study (sudosat study)")
    import_extra("matplotlib", STUDY_EXTRA, "the scaling study (sudosat study)")
    from sudosat.report.study_plots import save_study_figures
    from sudosat.studies.scaling import (
        StudySettings,
        cell_table,
        check_grid,
        ratio_table,
        run_study,
    )

    check_study_outputs(args.csv, args.figures)
    budgets = budget_options(args, args.solvers)
    check_solvers(args.solvers, budgets)
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
    check_grid(settings)
    table = run_study(settings, on_row=_print_row)
    if args.csv:
        write_output(table.to_csv(index=False), args.csv)
    print(cell_table(table).to_string())
    if len(args.solvers) == 2:
        print(ratio_table(table, *args.solvers).to_string())
    if args.figures:
        save_study_figures(table, args.figures)
    return EXIT_OK


STUDY_FIGURES = tuple(f"scaling-{name}.{kind}" for name in (
    "time-vs-order", "time-vs-alpha", "clauses-vs-order", "clauses-vs-alpha")
    for kind in ("png", "svg"))
"""The files ``--figures DIR`` receives (those
:func:`sudosat.report.study_plots.save_study_figures` writes)."""


def check_study_outputs(csv: str | None, figures: str | None) -> None:
    """Refuse, before any work, a ``--csv`` or ``--figures`` the study could not write.

    The CSV as every command's output (:func:`~sudosat.cli.common.guard_outputs`);
    the figures' folder must be a folder (or one that can be made: nothing
    on its path is a file), not the CSV, and each figure file must be
    writable there (a read-only folder, ``/proc``, a figure's name taken by a
    folder are refused). Nothing is written.

    Parameters
    ----------
    csv : str or None
        ``--csv``: the rows' file (``-``: standard output).
    figures : str or None
        ``--figures``: the folder of the figures (:data:`STUDY_FIGURES`).

    Raises
    ------
    OutputError
        One line naming the path and the cause.
    """
    from sudosat.errors import OutputError
    from sudosat.outputs import file_kind, output_target
    from sudosat.report.io import resolve

    outputs: list[tuple[str | None, str]] = [(csv, "the rows (--csv)")]
    if figures is not None:
        if figures == "":
            raise OutputError("the figures' folder (--figures): an empty name", file="''")
        folder = resolve(figures)
        kind = file_kind(folder)
        if kind.startswith("unreadable"):  # a path under a file, a loop of symlinks ...
            raise OutputError(f"--figures needs a folder; none can be here: {kind[12:-1]}",
                              file=figures)
        if kind not in ("directory", "missing"):
            what = "file" if kind == "regular file" else kind
            raise OutputError(f"--figures needs a folder; this is a {what}", file=figures)
        if csv is not None and csv != "-":
            rows = output_target(csv)
            if rows == output_target(folder) or rows in output_target(folder).parents:
                raise OutputError("--figures would be made where the rows (--csv) are written",
                                  file=figures)
        outputs += [(str(folder / name), "a figure (--figures)") for name in STUDY_FIGURES]
    guard_outputs([], outputs)


def check_solvers(solvers: list[str], budgets: dict[str, int]) -> None:
    """Refuse, before any work, a solver that cannot run here (each answers a one-clause formula).

    Parameters
    ----------
    solvers : list of str
        ``--solvers``.
    budgets : dict
        The work budgets every call gets (``max_conflicts``), already checked
        against the solvers (:func:`~sudosat.cli.common.budget_options`).

    Raises
    ------
    SolverNotFoundError
        One line naming the solver and why (a missing program, an unknown PySAT name ...).
    """
    from sudosat.errors import SolverNotFoundError
    from sudosat.run.batch import probe_solver

    for solver in dict.fromkeys(solvers):
        why = probe_solver(solver, **budgets)
        if why is not None:
            raise SolverNotFoundError(f"--solvers: {solver} cannot run here: {why}")


def _print_row(row: dict) -> None:
    """One line on standard error per solver call, as the study goes."""
    print(
        f"N={row['order']} alpha={row['alpha']:.2f} board {row['board']} "
        f"{row['encoding']:>10} {row['solver']:>18} {row['status']:>7} "
        f"{row['total_cpu_ms']:10.1f} ms CPU",
        file=sys.stderr,
    )
