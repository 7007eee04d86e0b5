"""What the report holds: its pages in run order, what one build uses, and the parameters
each notebook gets.

A notebook joins the report by a :class:`Page` in :data:`PAGES` (the order is
the run order) and, when it needs more than the common parameters
(``figures_dir``, ``quick``, ``instances``: each passed only if its
``parameters`` cell declares it), an entry in :func:`parameters_for`. Every
notebook shares one vocabulary of parameters (:data:`VOCABULARY`): the same
name has the same type on every page, and a parameters cell holds plain
literals only (:func:`parameter_problems`), as papermill needs.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudosat.run.options import encoding_name, positive_int, positive_ms, solver_name


@dataclass(frozen=True)
class Page:
    """One notebook of the report: its file stem, its title and what it answers."""

    name: str
    title: str
    summary: str


PAGES = (
    Page(
        "reduction",
        "The reduction: Sudoku to SAT",
        "Variables and their numbering, every clause family counted against its formula for "
        "orders 1 to 6, a complete order-2 example in CNF, the encodings side by side.",
    ),
    Page(
        "solvers",
        "The solvers: DPLL and CDCL",
        "How our solvers work (data structures, watched literals, learning, restarts), the "
        "asymptotic cost of each component with measurements, a traced run.",
    ),
    Page(
        "experiment",
        "The experiment",
        "Every instance of the instance file, every solver, the same time limit T: the run "
        "that produces the results table.",
    ),
    Page(
        "report",
        "The results",
        "Summary per solver, time of every instance in ms on the wall clock and on CPU time, our "
        "solver against the reference (search alone, the solver alone and around it on CPU time, "
        "end to end and overhead on both clocks), and every solved board beside its input.",
    ),
    Page(
        "explore",
        "The encoding workbench",
        "Switch clause families and at-most-one encodings on and off, edit a board, and see the "
        "formula, the solver's answer and any broken rule (live in JupyterLab and in your "
        "browser on the live page; the page itself holds a static snapshot).",
    ),
    Page(
        "scaling",
        "The scaling study",
        "Generated boards over order N and fill fraction alpha, three encodings, our solver and "
        "a reference under one budget of conflicts: where the hardest boards are, how time and "
        "size grow with N, where the course encoding stops being usable; orders 7 to 9.",
    ),
    Page(
        "heuristics",
        "The heuristics experiment",
        "A stated hypothesis on DPLL branching heuristics, tested on 200 generated puzzles with "
        "paired non-parametric tests, effect sizes and confidence intervals.",
    ),
)

DEFAULT_INSTANCES = "data/instances.txt"
DEFAULT_TIME_LIMIT_MS = 10_000.0
DEFAULT_SOLVERS = ("cdcl", "zchaff")
RESULTS_DIR = "reports/data"

VOCABULARY: dict[str, type | tuple[type, ...]] = {
    "instances": str,
    "time_limit_ms": float,
    "solvers": list,
    "solver": str,
    "encoding": str,
    "encodings": list,
    "figures_dir": str,
    "output_dir": str,
    "cache_dir": str,
    "results": str,
    "quick": bool,
    "seed": int,
    "max_order": int,
    "orders": list,
    "alphas": list,
}
"""Parameters that several notebooks declare, and the one type each has in every one of them."""


BUILD_PATHS = ("instances", "reports", "figures_dir", "build")
"""The build's paths (:class:`Settings`' fields): typed on the command line, or its own."""


@dataclass
class Settings:
    """What one build uses."""

    root: Path
    instances: str = DEFAULT_INSTANCES
    time_limit_ms: float = DEFAULT_TIME_LIMIT_MS
    solvers: list[str] = field(default_factory=lambda: list(DEFAULT_SOLVERS))
    encoding: str = "course"
    reports: Path = Path("reports")
    figures_dir: Path = Path("figures")
    build: Path = Path("build/notebooks")
    jobs: int = 1
    quick: bool = False
    pdf: bool = True
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)  # notebook -> parameters


def parameters_for(name: str, settings: Settings) -> dict[str, Any]:
    """The parameters a build passes to notebook `name` (filtered later by what it declares)."""
    results_dir = str(settings.reports / "data")
    common = {
        "figures_dir": str(settings.figures_dir),
        "quick": settings.quick,
        "instances": settings.instances,
    }
    table: dict[str, dict[str, Any]] = {
        "reduction": {
            "max_order": 6,
            "build_up_to": 3 if settings.quick else 5,
            "instances": settings.instances,
        },
        "solvers": {"max_order": 3 if settings.quick else 4},
        "experiment": {
            "instances": settings.instances,
            "time_limit_ms": float(settings.time_limit_ms),
            "solvers": list(settings.solvers),
            "encoding": settings.encoding,
            "output_dir": results_dir,
            "jobs": settings.jobs,
        },
        "report": {"results": f"{results_dir}/results.csv"},
        # the studies run their full grids (cached in .cache/studies); --quick shrinks them
        "scaling": {"quick": settings.quick},
        "heuristics": {"quick": settings.quick},
        "explore": {"instances": settings.instances},
    }
    return {**common, **table.get(name, {}), **settings.overrides.get(name, {})}


def declared_parameters(path: Path) -> set[str]:
    """The names a notebook's ``parameters`` cell declares."""
    import papermill

    return set(papermill.inspect_notebook(str(path)))


_SAVED = re.compile(r'save_and_show\([^"]*"([A-Za-z0-9_.+-]+)"')


def saved_figures(path: Path) -> list[str]:
    """The figure names a notebook saves: the name of each ``save_and_show`` call of its code.

    A page may save a figure only in some runs (the search-time scatter needs
    solvers that report their search time): the build removes the earlier
    run's file of such a figure when this run does not draw it again.

    Examples
    --------
    >>> import tempfile
    >>> code = 'report.save_and_show(figure, "report-cactus", figures_dir)'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     page = Path(folder) / "page.ipynb"
    ...     _ = page.write_text(json.dumps({"cells": [{"cell_type": "code", "source": code}]}))
    ...     saved_figures(page)
    ['report-cactus']
    """
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    code = "\n".join("".join(cell.get("source", "")) for cell in cells
                     if cell.get("cell_type") == "code")
    return sorted(set(_SAVED.findall(code)))


def parameters_cell(path: Path) -> str:
    """The source of a notebook's cell tagged ``parameters`` (empty when it has none)."""
    import nbformat

    notebook = nbformat.read(str(path), as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            return str(cell.source)
    return ""


def _fits(value: Any, wanted: type | tuple[type, ...]) -> bool:
    """Whether `value` has the vocabulary's type (an int is a float; a bool is not an int)."""
    if wanted is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if wanted is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, wanted)


def _type_name(wanted: type | tuple[type, ...]) -> str:
    return wanted.__name__ if isinstance(wanted, type) else " or ".join(t.__name__ for t in wanted)


def parameter_problems(source: str) -> list[str]:
    """What is wrong with a notebook's ``parameters`` cell: empty when it holds plain defaults.

    Papermill injects its values in a cell after this one, so a value derived
    in the parameters cell (``twice = a * 2``) keeps its default while ``a``
    changes. Every statement must be ``name = literal`` (numbers, strings,
    booleans, None, and lists, tuples or dicts of them), and a name of
    :data:`VOCABULARY` must have its type (an int literal is accepted where
    a float is wanted).

    Examples
    --------
    >>> parameter_problems("a = 1\\ntwice = a * 2")
    ['line 2: twice is not a plain literal']
    """
    problems = []
    for statement in ast.parse(source).body:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            problems.append(f"line {statement.lineno}: not a plain assignment to one name")
            continue
        name = statement.targets[0].id
        try:
            value = ast.literal_eval(statement.value)
        except ValueError:
            problems.append(f"line {statement.lineno}: {name} is not a plain literal")
            continue
        wanted = VOCABULARY.get(name)
        if wanted is not None and not _fits(value, wanted):
            problems.append(
                f"line {statement.lineno}: {name} is {type(value).__name__}, "
                f"every notebook gives it as {_type_name(wanted)}"
            )
    return problems


def value_problems(parameters: dict[str, Any]) -> list[str]:
    """The values a build would pass whose type is not the vocabulary's (empty when all fit)."""
    return [
        f"{key} = {value!r} is not {_type_name(VOCABULARY[key])}"
        for key, value in parameters.items()
        if key in VOCABULARY and not _fits(value, VOCABULARY[key])
    ]


def add_build_options(parser: argparse.ArgumentParser) -> None:
    """Declare the report build's options (``sudosat report``, ``make report``) on `parser`.

    They take the command line's own types (:mod:`sudosat.run.options`), so
    ``make report T=-5`` is refused as ``sudosat solve -T -5`` is: one line,
    exit 2, before anything runs. Declared here, beside the pages, so the
    command line reads them without importing the build.
    """
    # The paths default to None, "not typed": the build reads a typed one from the working
    # directory and fills the others with the project's own (Settings' defaults).
    parser.add_argument("--instances", help=f"instance file (default {DEFAULT_INSTANCES})")
    parser.add_argument(
        "--time-limit-ms",
        "-T",
        type=positive_ms,
        default=DEFAULT_TIME_LIMIT_MS,
        help="T in ms for every solver (default %(default)g)",
    )
    parser.add_argument(
        "--solvers",
        type=_solver_names,
        default=list(DEFAULT_SOLVERS),
        help="comma-separated solvers (default cdcl,zchaff; zchaff falls back to pysat:minisat22)",
    )
    parser.add_argument("--encoding", type=encoding_name, default="course")
    parser.add_argument(
        "--jobs",
        "-j",
        type=positive_int,
        default=None,
        help="timing workers for the experiment (default and most: the cores minus one)",
    )
    parser.add_argument(
        "--root", type=Path, default=None,
        help="project root, from which every relative path is then read (default: this "
        "checkout; a path typed without --root is read from the working directory)"
    )
    parser.add_argument("--reports", type=Path, help="the pages' folder (default reports)")
    parser.add_argument(
        "--figures-dir", "--figures", dest="figures_dir", type=Path,
        help="the figures' folder (default figures)",
    )
    parser.add_argument(
        "--build", type=Path, help="where the executed notebooks go (default build/notebooks)"
    )
    parser.add_argument(
        "--only", nargs="+", default=(), metavar="NAME", choices=[page.name for page in PAGES],
        help="run only these notebooks",
    )
    parser.add_argument("--quick", action="store_true", help="smaller settings for a fast check")
    parser.add_argument("--no-pdf", dest="pdf", action="store_false")


def _solver_names(text: str) -> list[str]:
    """A comma-separated list of solver names, each checked as ``--solver`` checks it."""
    names = [solver_name(name.strip()) for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"no solver named in {text!r}")
    return names
