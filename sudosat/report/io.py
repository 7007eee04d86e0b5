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

DECIDED = (Verdict.SAT.value, Verdict.UNSAT.value)
"""Statuses that are answers (a time-out or an error is not)."""

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

    Raises
    ------
    InstanceError
        The file cannot be read as a table.
    """
    return read_table(resolve(path))


def normalise_results(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` with :data:`RESULT_COLUMNS` present and typed (:func:`typed_frame`)."""
    return typed_frame(frame)


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
