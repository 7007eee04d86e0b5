"""The report's inputs: paths as notebooks give them, instance and solution files, the
results table and the manifest written beside it.

Every page reads through here, so that ``data/instances.txt`` means the same
file from the project root and from ``notebooks/``, and every table carries
the results table's columns (:data:`RESULT_COLUMNS`) with their types.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sudosat.errors import InstanceError, open_error_reason
from sudosat.lines import read_text, split_lines
from sudosat.run.results import COLUMNS as PIPELINE_COLUMNS
from sudosat.run.results import Verdict, parse_output, read_table, typed_frame
from sudosat.sudoku.board import Board

if TYPE_CHECKING:  # only in annotations: reading instances needs no pandas
    import pandas as pd

RESULT_COLUMNS = tuple(column for column in PIPELINE_COLUMNS if column != "output")
"""The results table's columns (:data:`sudosat.run.results.COLUMNS` but the output line), in
order."""

STAGES = ("encode_wall_ms", "solve_wall_ms", "decode_wall_ms")
"""The timed stages of one instance, in the order they run."""

# -- paths -----------------------------------------------------------------------------


def project_root() -> Path | None:
    """The source checkout this package runs from (the folder with ``pyproject.toml``), if any."""
    candidate = Path(__file__).resolve().parents[2]
    return candidate if (candidate / "pyproject.toml").is_file() else None


def resolve(path: str | os.PathLike[str]) -> Path:
    """A notebook parameter's path, read the same from the project root or from ``notebooks/``.

    Absolute paths and paths that exist from the working directory are kept.
    Otherwise, when the working directory lies inside the project (Jupyter
    starts a notebook's kernel in ``notebooks/``), the path is taken from the
    project root, so that ``data/instances.txt`` means the same file in
    papermill run from the root and in Jupyter.

    Parameters
    ----------
    path : str or PathLike

    Returns
    -------
    Path
    """
    given = Path(path)
    if given.is_absolute() or given.exists():
        return given
    root = project_root()
    cwd = Path.cwd().resolve()
    if root is not None and cwd != root and root in cwd.parents:
        return root / given
    return given


# -- instances and results -------------------------------------------------------------


def read_instances(path: str | os.PathLike[str]) -> dict[int, Board]:
    """Every readable board of an instance file, by 1-based line number.

    Blank lines and lines that do not parse are left out (the results table
    carries their error); the numbering is the file's own, so it matches the
    ``line`` column of the results table.

    Parameters
    ----------
    path : str or PathLike
        An instance file (course lines, numeric lines or grid strings).

    Raises
    ------
    InstanceError
        The file cannot be read.
    """
    source = resolve(path)
    try:
        text = read_text(source)
    except OSError as exc:
        raise InstanceError(open_error_reason(exc), file=str(path)) from None
    boards = {}
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        try:
            boards[number] = Board.parse(line, source=str(path), line=number)
        except InstanceError:
            continue
    return boards


def read_solutions(path: str | os.PathLike[str]) -> dict[int, Board]:
    """The solved boards of a batch output file (one line per input line), by line number.

    Lines that say ``UNSAT``, ``TIMEOUT`` or ``ERROR`` are left out.
    """
    solved = {}
    text = read_text(resolve(path))
    for number, line in enumerate(split_lines(text), start=1):
        if len(line.split()) < 2 or parse_output(line).verdict is not Verdict.SAT:
            continue
        try:
            solved[number] = Board.parse(line)
        except InstanceError:
            continue
    return solved


def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a results table (:func:`sudosat.run.results.read_table`: CSV or JSON lines by suffix).

    Numeric columns become numbers (missing ones NaN), ``valid`` a boolean,
    ``error`` a string; columns the table lacks are added empty, so every
    function of this module can rely on :data:`RESULT_COLUMNS`.

    The derived columns of :func:`with_own_times` are added.

    Raises
    ------
    InstanceError
        The file cannot be read as a table.
    """
    return with_own_times(read_table(resolve(path)))


def normalise_results(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` with :data:`RESULT_COLUMNS` present and typed (:func:`typed_frame`),
    and the derived columns of :func:`with_own_times`."""
    return with_own_times(typed_frame(frame))


OWN_CPU = "own_cpu_ms"
"""The solver's own work on CPU time (derived, see :func:`with_own_times`)."""
AROUND_CPU = "around_cpu_ms"
"""The rest of an instance's total CPU time: what this process spent around the solver."""


def in_process(solver: str) -> bool:
    """Whether `solver` searches inside this Python process (not zChaff, not ``exec:``)."""
    return solver != "zchaff" and not solver.startswith("exec:")


def with_own_times(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with two derived CPU times per row: the solver's own work, and around it.

    ``own_cpu_ms``: for a solver program, its process's CPU time as the operating
    system counts it (``process_cpu_ms``: starting, reading its input, searching,
    printing its answer); for a solver in this process, loading the clauses and
    searching (``load_cpu_ms + search_cpu_ms``, a missing load counting 0).
    ``around_cpu_ms``: ``total_cpu_ms`` less that, what this process spent around
    the solver (encoding, writing or handing over the formula, starting a program,
    reading its answer, checking and decoding). Empty where a part is not known
    (a program's table older than ``process_cpu_ms``).
    """
    out = frame.copy()
    process = out["process_cpu_ms"]
    inside = out["solver"].astype(str).map(in_process).astype(bool)
    here = out["search_cpu_ms"] + out["load_cpu_ms"].fillna(0.0)
    out[OWN_CPU] = process.where(process.notna(), here.where(inside))
    out[AROUND_CPU] = out["total_cpu_ms"] - out[OWN_CPU]
    return out


def solver_order(results: pd.DataFrame) -> list[str]:
    """The solvers of a results table in their order of appearance."""
    return list(dict.fromkeys(results["solver"]))


# -- the experiment's manifest ---------------------------------------------------------


def write_manifest(folder: str | os.PathLike[str], **facts: Any) -> Path:
    """Write ``manifest.json`` beside the results table: what was run, and how."""
    path = resolve(folder) / "manifest.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(facts, indent=2, default=str) + "\n", encoding="utf-8")
    return path


def read_manifest(results_path: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest written beside a results table, or an empty dict when there is none."""
    path = resolve(results_path).parent / "manifest.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def offered_puzzles(instances: str | os.PathLike[str], count: int) -> dict[str, str]:
    """The first `count` readable boards of an instance file, as ``{label: board line}``."""
    boards = list(read_instances(instances).items())[:count]
    return {f"line {number} of {instances}": board.to_line() for number, board in boards}
