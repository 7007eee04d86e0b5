"""``sudosat report``: build the report, what ``make report`` runs.

Its options are the build's own (:func:`sudosat.report.pages.add_build_options`),
read without importing the build; :func:`sudosat.report.build.run` does the work
once they are parsed. The report needs the ``notebooks`` extra (pandas,
matplotlib, papermill): without it the command names the extra in one line.
"""

from __future__ import annotations

import argparse


def add_report_parser(subparsers) -> None:
    """Declare ``sudosat report`` and its options on `subparsers`."""
    from sudosat.report.pages import add_build_options

    parser = subparsers.add_parser(
        "report",
        help="run the notebooks and write the report (reports/, figures/): make report",
        description="Run the report's notebooks with papermill on an instance file, all "
        "solvers under the same T, and write the reader's pages (reports/*.html, A4 PDFs "
        "with Debian's chromium, one report-complete.pdf) and figures (figures/). Every "
        "parameter, the instance file and the solvers are checked before any notebook "
        "runs; reports/ and figures/ change only if every page succeeds.",
        epilog="examples:\n"
        "  sudosat report                                   # the committed report, rebuilt\n"
        "  sudosat report --instances puzzles.txt -T 5000 --quick --only experiment report "
        "--no-pdf --reports out --figures out/figures   # your file, two pages, written here",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_build_options(parser)


def run_report(args: argparse.Namespace) -> int:
    """Run ``sudosat report`` with the parsed `args`; return the exit code."""
    from sudosat.report.build import run

    return run(args)
