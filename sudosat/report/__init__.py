"""The report: what the notebooks show, and the build that renders them.

Each page has its module, which computes the page's tables and figures. A page's fixed
sentences are written in its notebook; where a sentence branches (zero counts, verdicts, a
busy machine), it is a function in the page's module that reads the page's rows itself, and
the tests reach every branch:

* :mod:`~sudosat.report.reduction`: the reduction page (clause families, the encodings);
* :mod:`~sudosat.report.solvers_page`: the solvers page (costs, counters, the engine, a trace);
* :mod:`~sudosat.report.run`, :mod:`~sudosat.report.modes` and
  :mod:`~sudosat.report.comparison`: the experiment page (a timed run and its record, the
  rules loaded once, our solver against the reference);
* :mod:`~sudosat.report.results_page`: the results page (difficulty, where the time goes, its
  tables and plots), with :mod:`~sudosat.report.run` and :mod:`~sudosat.report.comparison`;
* :mod:`~sudosat.report.scaling_page` and :mod:`~sudosat.report.heuristics_page`: the studies;
* :mod:`~sudosat.report.study_plots`: the measuring study's figures (``sudosat study``).

Under them: :mod:`~sudosat.report.io` (paths, instance, solution and results
files, the manifest), :mod:`~sudosat.report.clocks` (wall-clock against CPU time:
whether the machine was busy), :mod:`~sudosat.report.tables` (the reader's table, the
results table's summary), :mod:`~sudosat.report.plots` (the figure style, making and
saving figures), :mod:`~sudosat.report.boards` (boards as HTML) and
:mod:`~sudosat.report.formats` (how a number reads in a sentence). The build is
:mod:`~sudosat.report.pages`, :mod:`~sudosat.report.export` and
:mod:`~sudosat.report.build` (``sudosat report``, ``make report``), imported on its own.

This package exports what the notebooks call through it (:data:`__all__`), the
things several pages share: the reader's table, HTML and a Markdown bullet list,
the figure style and saving, boards, the results table's readers and summary. A page's
own tables, figures and words are imported from its module.
"""

from __future__ import annotations

import importlib
from typing import Any

# What this package exports, by the module each name lives in: the one list. The names are
# imported on first use, so a command that only needs the build
# (``sudosat report``) checks its parameters without paying for pandas and
# matplotlib first.
_EXPORTS = {
    "boards": (
        "board_html", "board_pair_html", "solutions_from_results", "solved_boards_html",
        "unsolved_html",
    ),
    "io": ("offered_puzzles", "read_manifest", "resolve", "solver_order"),
    "plots": ("save_and_show", "use_style"),
    "tables": ("HTML", "bullets", "summary_table", "table"),
}
_HOMES = {name: home for home, names in _EXPORTS.items() for name in names}


def __getattr__(name: str) -> Any:
    """Import an exported name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's own names and every exported one (completion in a notebook)."""
    return sorted({*globals(), *_HOMES})


__all__ = sorted(_HOMES)
