"""Tables, plots and board pictures for the notebooks and the rendered report.

Everything the notebooks show is computed here, so that a notebook cell is a
call and a sentence. Three groups:

* the reduction: clause counts per family against the formulas of SPEC §3,
  the order-2 example as CNF, the encodings side by side;
* the experiment: reading the results table (DESIGN.md's columns), the summary
  per solver, the per-instance table, the comparative plots (per instance,
  scatter against the reference solver, cactus, stage breakdown);
* the boards: every solved instance's input beside its solution.

Plots are :class:`matplotlib.figure.Figure` objects built without pyplot, so
nothing is shown twice and nothing leaks between calls; :func:`save_figure`
writes each as PNG and SVG. Times are milliseconds everywhere.
"""

from __future__ import annotations

import html
import io
import json
import math
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.board import Board
from sudosat.errors import InstanceError
from sudosat.lines import read_text, split_lines
from sudosat.pipeline import COLUMNS as PIPELINE_COLUMNS

if TYPE_CHECKING:
    from sudosat.cnf import CNF

RESULT_COLUMNS = tuple(column for column in PIPELINE_COLUMNS if column != "output")
"""The results table's columns (DESIGN.md), in order."""

STAGES = ("encode_ms", "solve_ms", "decode_ms")
"""The timed stages of one instance, in the order they run."""

FAMILIES = ("completeness", "uniqueness", "validity", "givens")
"""The course encoding's clause families (SPEC §3), in the order the table lists them."""

DECIDED = ("SAT", "UNSAT")
"""Statuses that are answers (a time-out or an error is not)."""

_TEXT_COLUMNS = ("solver", "encoding", "status", "valid", "error", "output")
_NUMERIC = tuple(column for column in PIPELINE_COLUMNS if column not in _TEXT_COLUMNS)
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")

# -- paths -----------------------------------------------------------------------------


def project_root() -> Path | None:
    """The source checkout this package runs from (the folder with ``pyproject.toml``), if any."""
    candidate = Path(__file__).resolve().parent.parent
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
        raise InstanceError(
            f"cannot read the instance file: {exc.strerror}", file=str(path)
        ) from None
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
        words = line.split()
        if len(words) < 2 or words[0] == "ERROR" or words[1] in ("UNSAT", "TIMEOUT"):
            continue
        try:
            solved[number] = Board.parse(line)
        except InstanceError:
            continue
    return solved


def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a results table (CSV, or JSON lines when the name ends in ``.jsonl``).

    Numeric columns become numbers (missing ones NaN), ``valid`` a boolean,
    ``error`` a string; columns the table lacks are added empty, so every
    function of this module can rely on DESIGN.md's columns.

    Raises
    ------
    InstanceError
        The file cannot be read as a table.
    """
    source = resolve(path)
    try:
        if source.suffix == ".jsonl":
            frame = pd.read_json(source, lines=True)
        else:
            frame = pd.read_csv(source, keep_default_na=False, na_values=[""])
    except (OSError, ValueError) as exc:
        raise InstanceError(f"cannot read the results table: {exc}", file=str(path)) from None
    return normalise_results(frame)


def normalise_results(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` with DESIGN.md's columns present and typed."""
    frame = frame.copy()
    for column in RESULT_COLUMNS:
        if column not in frame.columns:
            frame[column] = pd.NA
    for column in _NUMERIC:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    frame["valid"] = frame["valid"].map(_as_bool)
    for column in ("error", "output"):
        if column in frame.columns:
            frame[column] = (
                frame[column].astype(object).where(frame[column].notna(), "").astype(str)
            )
    frame["status"] = frame["status"].fillna("ERROR").astype(str)
    frame["solver"] = frame["solver"].astype(str)
    return frame


def _as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value) if value is not None and value == value else False


def solver_order(results: pd.DataFrame) -> list[str]:
    """The solvers of a results table in their order of appearance."""
    return list(dict.fromkeys(results["solver"]))


# -- summaries and tables --------------------------------------------------------------


def summary_table(results: pd.DataFrame, time_column: str = "total_ms") -> pd.DataFrame:
    """One row per solver: how many instances it solved, refuted, ran out of time on.

    Parameters
    ----------
    results : DataFrame
        The results table.
    time_column : str
        Which time to summarise (``total_ms`` = encode + solve + decode).

    Returns
    -------
    DataFrame
        Index ``solver``; columns instances, solved (SAT, solution checked),
        unsat, timeouts, errors, then median, p90 and max milliseconds over the
        instances the solver decided (SAT or UNSAT).
    """
    rows = []
    for solver in solver_order(results):
        mine = results[results["solver"] == solver]
        decided = mine[mine["status"].isin(DECIDED)][time_column].dropna()
        rows.append(
            {
                "solver": solver,
                "instances": len(mine),
                "solved": int(((mine["status"] == "SAT") & mine["valid"]).sum()),
                "unsat": int((mine["status"] == "UNSAT").sum()),
                "timeouts": int((mine["status"] == "TIMEOUT").sum()),
                "errors": int((mine["status"] == "ERROR").sum()),
                "median ms": _quantile(decided, 0.5),
                "p90 ms": _quantile(decided, 0.9),
                "max ms": float(decided.max()) if len(decided) else math.nan,
            }
        )
    return pd.DataFrame(rows).set_index("solver")


def _quantile(values: pd.Series, q: float) -> float:
    return float(values.quantile(q)) if len(values) else math.nan


def times_table(results: pd.DataFrame, time_column: str = "total_ms") -> pd.DataFrame:
    """Per-instance times: one row per input line, one time column per solver.

    A time is shown for every status; the ``<solver> status`` column says
    whether it is an answer (SAT, UNSAT) or a time-out/error.

    Returns
    -------
    DataFrame
        Index ``line``; columns order, givens, then ``<solver> ms`` and
        ``<solver> status`` for every solver.
    """
    solvers = solver_order(results)
    base = results.drop_duplicates("line").set_index("line")[["order", "givens"]]
    table = base.copy()
    for solver in solvers:
        mine = results[results["solver"] == solver].drop_duplicates("line").set_index("line")
        table[f"{solver} ms"] = mine[time_column].round(1)
        table[f"{solver} status"] = mine["status"]
    table = table.sort_index()
    table["order"] = table["order"].astype("Int64")
    table["givens"] = table["givens"].astype("Int64")
    return table


def style_times(table: pd.DataFrame) -> Any:
    """A pandas Styler of :func:`times_table` output: times formatted, non-answers highlighted."""
    time_columns = [c for c in table.columns if c.endswith(" ms")]
    status_columns = [c for c in table.columns if c.endswith(" status")]

    def colour(value: Any) -> str:
        return {
            "UNSAT": "background:#eef",
            "TIMEOUT": "background:#fed",
            "ERROR": "background:#fcc",
        }.get(str(value), "")

    styler = table.style.format("{:.1f}", subset=time_columns, na_rep="-")
    return styler.map(colour, subset=status_columns)


# -- plots -----------------------------------------------------------------------------


class ReportFigure(Figure):
    """A matplotlib Figure that shows itself as a PNG in a notebook, without pyplot."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100, metadata=FIGURE_METADATA["png"])
        return buffer.getvalue()


def _figure(width: float = 7.5, height: float = 4.2) -> tuple[Figure, Any]:
    figure = ReportFigure(figsize=(width, height), layout="constrained")
    return figure, figure.add_subplot()


def _style(solvers: Sequence[str]) -> dict[str, tuple[str, str]]:
    return {
        s: (_COLOURS[k % len(_COLOURS)], _MARKERS[k % len(_MARKERS)]) for k, s in enumerate(solvers)
    }


def _draw_time_limit(ax, time_limit_ms: float | None) -> None:
    """A dashed line at the time limit T, labelled for the legend (nothing without a limit)."""
    if time_limit_ms:
        ax.axhline(
            time_limit_ms,
            color="#555",
            linestyle="--",
            linewidth=1,
            label=f"limit T = {time_limit_ms:g} ms",
        )


def plot_per_instance(
    results: pd.DataFrame, time_limit_ms: float | None = None, time_column: str = "total_ms"
) -> Figure:
    """Time per instance for every solver, on a log scale, in the file's line order.

    Answers are filled markers; time-outs and errors are drawn as crosses; the
    time limit, when given, is a dashed line.
    """
    solvers = solver_order(results)
    style = _style(solvers)
    lines = sorted(results["line"].dropna().unique())
    position = {line: k for k, line in enumerate(lines)}
    figure, ax = _figure(max(7.5, min(14.0, 0.16 * len(lines) + 3)), 4.2)
    for solver in solvers:
        mine = results[results["solver"] == solver]
        colour, marker = style[solver]
        answered = mine[mine["status"].isin(DECIDED)]
        ax.scatter(
            [position[x] for x in answered["line"]],
            answered[time_column].clip(lower=0.01),
            color=colour,
            marker=marker,
            s=22,
            label=solver,
            alpha=0.85,
        )
        missed = mine[~mine["status"].isin(DECIDED)]
        if len(missed):
            ax.scatter(
                [position[x] for x in missed["line"]],
                missed[time_column].fillna(time_limit_ms or 1),
                color=colour,
                marker="x",
                s=40,
                label=f"{solver}: no answer",
            )
    _draw_time_limit(ax, time_limit_ms)
    ax.set_yscale("log")
    ax.set_xlabel("instance (line of the instance file)")
    ax.set_ylabel(f"{_stage_name(time_column)} (ms, log scale)")
    ax.set_title("Time per instance")
    step = max(1, len(lines) // 25)
    ax.set_xticks(
        range(0, len(lines), step),
        [str(int(lines[k])) for k in range(0, len(lines), step)],
        fontsize=8,
    )
    ax.grid(True, which="major", axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return figure


def plot_scatter(
    results: pd.DataFrame,
    own: str,
    reference: str,
    time_limit_ms: float | None = None,
    time_column: str = "total_ms",
) -> Figure:
    """Our solver's time against the reference solver's, one point per instance, log-log.

    Points above the diagonal are instances where our solver is slower.
    Instances without an answer are placed at the time limit (or their own
    time) and drawn as crosses. Colour says the order.
    """
    pair = _paired(results, own, reference, time_column)
    figure, ax = _figure(5.8, 5.2)
    orders = sorted(pair["order"].dropna().unique())
    for k, order in enumerate(orders):
        group = pair[pair["order"] == order]
        both = group["answered_x"] & group["answered_y"]
        colour = _COLOURS[k % len(_COLOURS)]
        ax.scatter(
            group[both]["x"],
            group[both]["y"],
            color=colour,
            s=24,
            alpha=0.85,
            label=f"order {int(order)}",
        )
        if (~both).any():
            ax.scatter(
                group[~both]["x"],
                group[~both]["y"],
                color=colour,
                marker="x",
                s=40,
                label=f"order {int(order)}, no answer by one",
            )
    values = pd.concat([pair["x"], pair["y"]]).dropna()
    low = max(0.01, float(values.min()) / 2) if len(values) else 0.1
    high = float(values.max()) * 2 if len(values) else 10.0
    ax.plot([low, high], [low, high], color="#555", linewidth=1, label="equal time")
    if time_limit_ms:
        ax.axhline(time_limit_ms, color="#999", linestyle=":", linewidth=1)
        ax.axvline(time_limit_ms, color="#999", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{reference}: {_stage_name(time_column)} (ms, log scale)")
    ax.set_ylabel(f"{own}: {_stage_name(time_column)} (ms, log scale)")
    ax.set_title(f"{own} against {reference}: {_stage_name(time_column)} per instance")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    return figure


def _paired(results: pd.DataFrame, own: str, reference: str, time_column: str) -> pd.DataFrame:
    def side(solver: str) -> pd.DataFrame:
        mine = results[results["solver"] == solver].drop_duplicates("line").set_index("line")
        return pd.DataFrame(
            {"t": mine[time_column], "ok": mine["status"].isin(DECIDED), "order": mine["order"]}
        )

    x, y = side(reference), side(own)
    pair = x.add_suffix("_x").join(y.add_suffix("_y"), how="inner")
    return pd.DataFrame(
        {
            "x": pair["t_x"].clip(lower=0.01),
            "y": pair["t_y"].clip(lower=0.01),
            "answered_x": pair["ok_x"],
            "answered_y": pair["ok_y"],
            "order": pair["order_x"],
        }
    )


def plot_cactus(
    results: pd.DataFrame, time_limit_ms: float | None = None, time_column: str = "total_ms"
) -> Figure:
    """The cactus plot: for each solver, how many instances it decides within a given time.

    Each solver's answered times are sorted; point k says "the k fastest
    answers each took at most this long". A curve further right decides more
    instances, a lower curve decides them faster.
    """
    solvers = solver_order(results)
    style = _style(solvers)
    figure, ax = _figure(7.0, 4.2)
    for solver in solvers:
        mine = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
        times = sorted(mine[time_column].dropna().clip(lower=0.01))
        colour, marker = style[solver]
        ax.plot(
            range(1, len(times) + 1),
            times,
            color=colour,
            marker=marker,
            markersize=3,
            linewidth=1.2,
            label=f"{solver} ({len(times)} decided)",
        )
    _draw_time_limit(ax, time_limit_ms)
    ax.set_yscale("log")
    ax.set_xlabel("number of instances decided")
    ax.set_ylabel(f"{_stage_name(time_column)} (ms, log scale)")
    ax.set_title("Cactus plot")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return figure


def stage_table(results: pd.DataFrame) -> pd.DataFrame:
    """Median milliseconds of each stage (encode, solve, decode) per solver and order."""
    answered = results[results["status"].isin(DECIDED)]
    table = answered.groupby(["solver", "order"], sort=False)[list(STAGES)].median()
    table.columns = [f"{_stage_name(c)} (median ms)" for c in STAGES]
    return table.round(2)


def plot_stages(results: pd.DataFrame) -> Figure:
    """Where the time goes: median encode, solve and decode time per solver and order, stacked."""
    table = stage_table(results)
    labels = [f"{solver}\norder {int(order)}" for solver, order in table.index]
    figure, ax = _figure(max(6.0, 0.9 * len(labels) + 2), 4.2)
    bottom = [0.0] * len(labels)
    for k, column in enumerate(table.columns):
        values = table[column].fillna(0).tolist()
        ax.bar(range(len(labels)), values, bottom=bottom, color=_COLOURS[k + 2], label=column)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_xlabel("solver and order")
    ax.set_ylabel("median time per instance (ms)")
    ax.set_title("Time per stage (instances decided)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    return figure


def _stage_name(column: str) -> str:
    return {
        "total_ms": "total time",
        "solve_ms": "solve time",
        "encode_ms": "encode time",
        "decode_ms": "decode time",
        "load_ms": "load time",
        "search_ms": "search time",
    }.get(column, column)


SVG_HASHSALT = "sudosat"
"""Fixed salt of the ids in SVG files: the same figure gives the same bytes on every build."""

FIGURE_METADATA = {
    "png": {"Software": None},
    "svg": {"Date": None, "Creator": None},
    "pdf": {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None},
}
"""Metadata left out of saved figures: no date, no tool version (they change with no data)."""


def save_figure(
    figure: Figure, name: str, folder: str | os.PathLike[str] = "figures"
) -> list[Path]:
    """Write `figure` as ``<folder>/<name>.png`` and ``.svg``; return the two paths.

    The files depend on the figure only: SVG ids use :data:`SVG_HASHSALT`
    and no date or version is written (:data:`FIGURE_METADATA`), so
    rebuilding a report whose numbers did not change leaves them byte for
    byte the same.
    """
    import matplotlib

    target = resolve(folder)
    target.mkdir(parents=True, exist_ok=True)
    paths = [target / f"{name}.png", target / f"{name}.svg"]
    with matplotlib.rc_context({"svg.hashsalt": SVG_HASHSALT}):
        figure.savefig(paths[0], dpi=110, metadata=FIGURE_METADATA["png"])
        figure.savefig(paths[1], metadata=FIGURE_METADATA["svg"])
    return paths


# -- boards ----------------------------------------------------------------------------


class HTML:
    """Rich HTML for notebooks without importing IPython here (``_repr_html_``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _repr_html_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def board_pair_html(puzzle: Board, solution: Board | None, caption: str = "") -> str:
    """The input board and its solution side by side as matrices, givens in bold.

    Parameters
    ----------
    puzzle : Board
    solution : Board or None
        None shows the input alone (an instance without a solution).
    caption : str
        A line above the pair (plain text; escaped).
    """
    right = solution.to_html(puzzle=puzzle) if solution is not None else "<p><i>no solution</i></p>"
    return (
        '<div class="sudosat-pair" style="margin:0.8em 0 1.4em 0">'
        f'<div style="font-weight:bold;margin-bottom:0.3em">{html.escape(caption)}</div>'
        '<div style="display:flex;flex-wrap:wrap;gap:2.5em;align-items:flex-start">'
        f'<div><div style="font-size:90%;color:#444">input ({puzzle.num_givens} givens)</div>'
        f"{puzzle.to_html()}</div>"
        f'<div><div style="font-size:90%;color:#444">solution (givens in bold)</div>{right}</div>'
        "</div></div>"
    )


def solved_boards_html(
    results: pd.DataFrame, instances: Mapping[int, Board], solutions: Mapping[int, Board]
) -> HTML:
    """Every instance solved by some solver: its input and solution, with each solver's time.

    Parameters
    ----------
    results : DataFrame
        The results table (for the times and statuses shown in each caption).
    instances : mapping line -> Board
        The input boards (:func:`read_instances`).
    solutions : mapping line -> Board
        The solved boards (:func:`read_solutions` merged over the solvers).
    """
    parts = []
    for line in sorted(solutions):
        puzzle = instances.get(line)
        if puzzle is None:
            continue
        rows = results[results["line"] == line]
        times = ", ".join(
            f"{r.solver} {r.status} in {r.total_ms:.1f} ms" for r in rows.itertuples()
        )
        caption = f"Line {line}: order {puzzle.order}, {puzzle.num_givens} givens. {times}"
        parts.append(board_pair_html(puzzle, solutions[line], caption))
    if not parts:
        parts.append("<p>No instance was solved.</p>")
    return HTML("".join(parts))


def unsolved_html(
    results: pd.DataFrame, instances: Mapping[int, Board], solutions: Mapping[int, Board]
) -> HTML:
    """The instances no solver solved, with what each solver answered (UNSAT, time-out ...)."""
    parts = []
    for line in sorted(set(results["line"].dropna().astype(int)) - set(solutions)):
        rows = results[results["line"] == line]
        answers = "; ".join(
            f"{r.solver}: {r.status}" + (f" ({r.error})" if r.error else "")
            for r in rows.itertuples()
        )
        puzzle = instances.get(line)
        if puzzle is None:
            parts.append(f"<p><b>Line {line}</b>: could not be read. {html.escape(answers)}</p>")
            continue
        why = puzzle.first_conflict()
        note = f" The givens already clash: {why}." if why and why not in answers else ""
        parts.append(board_pair_html(puzzle, None, f"Line {line}: {answers}.{note}"))
    return HTML("".join(parts) or "<p>Every instance was solved.</p>")


# -- the reduction ---------------------------------------------------------------------


def formula_counts(order: int, givens: int = 0) -> dict[str, int]:
    """The clause count of each family of the course encoding, by SPEC §3's formulas."""
    n4, n6, n8 = order**4, order**6, order**8
    return {
        "completeness": n4,
        "uniqueness": (n8 - n6) // 2,
        "validity": 3 * (n8 - n6) // 2,
        "givens": givens,
    }


def classify_clause(clause: Sequence[int], order: int) -> str:
    """Which family of the course encoding a clause belongs to (by its shape).

    A positive unit clause is a given; a positive clause is completeness; two
    negative literals on one cell are uniqueness; two negative literals with one
    symbol on two cells are validity; anything else is ``other``.
    """
    from sudosat.encoding import cell_of

    if all(lit > 0 for lit in clause) and len(clause) == order * order:
        return "completeness"  # checked first: for order 1 it is a unit clause too
    if len(clause) == 1 and clause[0] > 0:
        return "givens"
    if len(clause) == 2 and clause[0] < 0 and clause[1] < 0:
        (i1, j1, d1), (i2, j2, d2) = cell_of(-clause[0], order), cell_of(-clause[1], order)
        if (i1, j1) == (i2, j2):
            return "uniqueness"
        if d1 == d2:
            return "validity"
    return "other"


def family_table(orders: Iterable[int] = range(1, 7), build_up_to: int = 4) -> pd.DataFrame:
    """Clauses per family of the course encoding, built and by formula, for each order.

    The built counts come from encoding an empty board of each order up to
    `build_up_to` and classifying every clause; the formulas cover every order.

    Returns
    -------
    DataFrame
        Index ``order``; per family the formula's count and the built count
        (empty where not built), then variables (N⁶) and the total.
    """
    rows = []
    for order in orders:
        row: dict[str, Any] = {"order": order, "variables": order**6}
        expected = formula_counts(order)
        built = built_family_counts(order) if order <= build_up_to else None
        for family in ("completeness", "uniqueness", "validity"):
            row[f"{family} (formula)"] = expected[family]
            row[f"{family} (built)"] = built[family] if built else pd.NA
        row["total (formula)"] = sum(expected.values())
        rows.append(row)
    table = pd.DataFrame(rows).set_index("order")
    return table.astype("Int64")


def built_family_counts(order: int, board: Board | None = None) -> dict[str, int]:
    """The course encoding's clauses per family, as the encoder counted them while building.

    The encoder writes the families one after the other and counts each; the
    CNF is built in full (order 6: 3.3 million clauses, about a second).
    """
    from sudosat.encoding import encode

    encoded = encode(board or Board.empty(order), "course")
    counts = dict.fromkeys(FAMILIES, 0)
    counts.update(encoded.family_counts)
    return counts


def classified_family_counts(order: int, board: Board | None = None) -> dict[str, int]:
    """The course encoding's clauses per family, found again by classifying every clause."""
    from sudosat.encoding import encode

    encoded = encode(board or Board.empty(order), "course")
    counts = dict.fromkeys((*FAMILIES, "other"), 0)
    for clause in encoded.cnf:
        counts[classify_clause(clause, order)] += 1
    return counts


def family_mismatches(table: pd.DataFrame) -> list[str]:
    """Every (order, family) of :func:`family_table` whose built count differs from the formula."""
    wrong = []
    for order, row in table.iterrows():
        for family in ("completeness", "uniqueness", "validity"):
            built = row[f"{family} (built)"]
            if not pd.isna(built) and built != row[f"{family} (formula)"]:
                wrong.append(
                    f"order {order} {family}: built {built}, formula {row[f'{family} (formula)']}"
                )
    return wrong


def classification_check(orders: Iterable[int] = (2, 3)) -> pd.DataFrame:
    """Per order and family: the formula, the encoder's count, and the count by clause shape."""
    rows = []
    for order in orders:
        expected = formula_counts(order)
        built = built_family_counts(order)
        classified = classified_family_counts(order)
        for family in ("completeness", "uniqueness", "validity"):
            rows.append(
                {
                    "order": order,
                    "family": family,
                    "formula": expected[family],
                    "encoder": built[family],
                    "by clause shape": classified[family],
                }
            )
        rows.append(
            {
                "order": order,
                "family": "other",
                "formula": 0,
                "encoder": 0,
                "by clause shape": classified["other"],
            }
        )
    return pd.DataFrame(rows).set_index(["order", "family"])


def plot_family_counts(table: pd.DataFrame) -> Figure:
    """Clauses per family against the order, log scale: formula as lines, built counts as dots."""
    figure, ax = _figure(7.0, 4.4)
    orders = list(table.index)
    zeros = []
    for k, family in enumerate(("completeness", "uniqueness", "validity")):
        colour = _COLOURS[k]
        formula = table[f"{family} (formula)"].astype(float)
        # a log scale has no 0 (order 1 has no pairs): such a count is left out, and said so
        zeros += [f"{family} at N={order}" for order in formula.index[formula <= 0]]
        ax.plot(
            orders,
            formula.where(formula > 0),
            color=colour,
            marker=".",
            label=f"{family} (formula)",
        )
        built = table[f"{family} (built)"].dropna()
        built = built[built > 0]
        ax.scatter(
            list(built.index),
            built.astype(float),
            color=colour,
            marker="o",
            s=36,
            facecolors="none",
            label=f"{family} (counted in the built CNF)",
        )
    ax.plot(
        orders,
        table["variables"].astype(float),
        color="#555",
        linestyle="--",
        label="variables (N⁶)",
    )
    _note_zeros(ax, "0 clauses", zeros, corner="lower right")
    ax.set_yscale("log")
    ax.set_xticks(orders)
    ax.set_xlabel("order N (the board is N² × N²)")
    ax.set_ylabel("count (log scale)")
    ax.set_title("Course encoding: clauses per family")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return figure


def variable_name(var: int, order: int) -> str:
    """``x(r,c,d)`` with 1-based row and column, the way a reader counts cells."""
    from sudosat.encoding import cell_of

    i, j, d = cell_of(var, order)
    return f"x(r{i + 1},c{j + 1},{d})"


def numbering_table(order: int, limit: int = 12) -> pd.DataFrame:
    """The first `limit` variables of the course numbering: number, cell, symbol, formula."""
    from sudosat.encoding import cell_of

    rows = []
    n2, n4 = order**2, order**4
    for var in range(1, min(limit, order**6) + 1):
        i, j, d = cell_of(var, order)
        rows.append(
            {
                "variable": var,
                "name": variable_name(var, order),
                "row r": i + 1,
                "column c": j + 1,
                "symbol d": d,
                "(r−1)·N⁴ + (c−1)·N² + d": (
                    f"{i}·{n4} + {j}·{n2} + {d} = {i * n4 + j * n2 + d}"
                ),
            }
        )
    return pd.DataFrame(rows)


def cnf_listing(cnf: CNF, order: int, shown: int = 3) -> HTML:
    """A short excerpt of a course-encoded CNF, family by family, with a count of the rest.

    Each family shows its first `shown` clauses twice: in DIMACS (each clause
    ending in 0) and read with the variable names x(r,c,d), rows and columns
    counted from 1; then how many clauses of the family are not shown.
    """
    groups: dict[str, list[list[int]]] = {family: [] for family in (*FAMILIES, "other")}
    for clause in cnf:
        groups[classify_clause(clause, order)].append(list(clause))
    rows = []
    for family, clauses in groups.items():
        for k, clause in enumerate(clauses[:shown]):
            reading = " ∨ ".join(
                ("¬" if lit < 0 else "") + variable_name(abs(lit), order) for lit in clause
            )
            rows.append(
                {
                    "family": family if k == 0 else "",
                    "DIMACS": " ".join(map(str, clause)) + " 0",
                    "read as": reading,
                }
            )
        if len(clauses) > shown:
            rows.append(
                {"family": "", "DIMACS": f"… and {len(clauses) - shown:,} more", "read as": ""}
            )
    header = (
        f"<p>The header <code>p cnf {cnf.num_vars} {len(cnf)}</code>: "
        f"{cnf.num_vars:,} variables, {len(cnf):,} clauses.</p>"
    )
    return HTML(header + str(table(pd.DataFrame(rows))))


def family_sentence(counts: Mapping[str, int]) -> str:
    """The clauses of each family in words: ``64 completeness, 96 uniqueness, ...``."""
    return ", ".join(f"{count:,} {family}" for family, count in counts.items())


def stats_sentence(stats: Mapping[str, Any]) -> str:
    """A solver's counters in words (``59 decisions, 12 conflicts, ...``); times in ms."""
    words = []
    for key, value in stats.items():
        if key.endswith("_ms"):
            words.append(f"{_stage_name(key)} {float(value):.1f} ms")
        elif key.endswith("_s"):
            words.append(f"{key.removesuffix('_s').replace('_', ' ')} {float(value):.3f} s")
        else:
            words.append(f"{int(value):,} {key.replace('_', ' ')}")
    return ", ".join(words)


def decided_by_propagation(cnf: CNF) -> bool:
    """True when unit propagation alone decides `cnf`: a conflict, or every clause satisfied.

    No decision is made: the unit clauses are propagated to a fixpoint (each
    clause counts its false literals; one non-false literal left is forced).
    """
    forced = unit_propagate(cnf)
    return forced is None or _all_satisfied(cnf, forced)


def unit_propagate(cnf: CNF) -> dict[int, bool] | None:
    """The assignment unit propagation forces from the unit clauses; None on a conflict."""
    clauses = [list(clause) for clause in cnf]
    occurs: dict[int, list[int]] = {}
    for k, clause in enumerate(clauses):
        for lit in clause:
            occurs.setdefault(lit, []).append(k)
    if any(not clause for clause in clauses):
        return None
    value: dict[int, bool] = {}
    false_count = [0] * len(clauses)
    satisfied = [False] * len(clauses)
    queue = [clause[0] for clause in clauses if len(clause) == 1]
    while queue:
        lit = queue.pop()
        var, wanted = abs(lit), lit > 0
        if var in value:
            if value[var] != wanted:
                return None
            continue
        value[var] = wanted
        for k in occurs.get(lit, ()):
            satisfied[k] = True
        for k in occurs.get(-lit, ()):
            if satisfied[k]:
                continue
            false_count[k] += 1
            left = len(clauses[k]) - false_count[k]
            if left == 0:
                return None
            if left == 1:
                queue.extend(x for x in clauses[k] if abs(x) not in value)
    return value


def _all_satisfied(cnf: CNF, value: Mapping[int, bool]) -> bool:
    return all(any(value.get(abs(lit)) == (lit > 0) for lit in clause) for clause in cnf)


def encodings_table(boards: Sequence[Board], encodings: Sequence[str]) -> pd.DataFrame:
    """The encodings side by side over the same boards.

    Returns
    -------
    DataFrame
        Index ``encoding``; median variables, clauses and literals per board,
        median milliseconds to build, and the share of boards that unit
        propagation decides without search.
    """
    from sudosat.encoding import encode

    rows = []
    for name in encodings:
        sizes, build_ms, decided = [], [], 0
        for board in boards:
            started = time.perf_counter()
            encoded = encode(board, name)
            build_ms.append((time.perf_counter() - started) * 1000.0)
            cnf = encoded.cnf
            sizes.append((cnf.num_vars, len(cnf), cnf.num_literals))
            decided += bool(getattr(encoded, "decided_by_givens", False)) or decided_by_propagation(
                cnf
            )
        frame = pd.DataFrame(sizes, columns=["variables", "clauses", "literals"])
        rows.append(
            {
                "encoding": name,
                **frame.median().round().astype(int).to_dict(),
                "build ms (median)": round(float(pd.Series(build_ms).median()), 2),
                "decided by propagation": _share(decided, len(boards)),
            }
        )
    return pd.DataFrame(rows).set_index("encoding")


def spread(items: Sequence[Any], count: int) -> list[Any]:
    """At most `count` items taken evenly across `items` (first and last included when possible)."""
    if count >= len(items):
        return list(items)
    if count <= 1:
        return list(items[:count])
    step = (len(items) - 1) / (count - 1)
    return [items[round(k * step)] for k in range(count)]


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / max(1, whole):.0f}%)"


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



def _note_zeros(ax: Any, what: str, labels: Sequence[str], corner: str) -> None:
    """Say in a corner of a log-scale plot which points are zero, so none vanishes silently."""
    if not labels:
        return
    x, ha = (0.99, "right") if corner.endswith("right") else (0.01, "left")
    y, va = (0.02, "baseline") if corner.startswith("lower") else (0.99, "top")
    ax.text(x, y, f"{what}, not drawn on the log scale: " + ", ".join(labels),
            transform=ax.transAxes, fontsize=7, ha=ha, va=va, color="#555")

def table(frame: pd.DataFrame, decimals: int | Mapping[str, int] = 1) -> HTML:
    """A DataFrame as a reader's table: index as ordinary columns, one header row, no ``<NA>``.

    Row labels (the index, named or not) become the first columns; a default
    0..n index is dropped. Missing values show as an en dash, whole numbers
    with thousands separators and floats with `decimals` places (a mapping
    gives them per column).

    Parameters
    ----------
    frame : DataFrame
    decimals : int or mapping of column -> int

    Returns
    -------
    HTML
        Shown as a table in a notebook; ``str()`` gives the markup.
    """
    flat = _flat(frame)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in flat.columns)
    rows = []
    for values in flat.itertuples(index=False):
        cells = []
        for column, value in zip(flat.columns, values, strict=True):
            places = decimals.get(column, 1) if isinstance(decimals, Mapping) else decimals
            text, numeric = _cell_text(value, places)
            align = ' class="num"' if numeric else ""
            cells.append(f"<td{align}>{html.escape(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return HTML(
        f'{_TABLE_STYLE}<table class="sudosat-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


_TABLE_STYLE = (
    "<style>table.sudosat-table{border-collapse:collapse;margin:0.4em 0 1em 0;font-size:90%}"
    "table.sudosat-table th{border-bottom:2px solid #999;padding:0.25em 0.7em;text-align:left}"
    "table.sudosat-table td{border-bottom:1px solid #ddd;padding:0.2em 0.7em;text-align:left}"
    "table.sudosat-table td.num{text-align:right;font-variant-numeric:tabular-nums}</style>"
)


def _flat(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its index as columns (a plain 0..n index dropped) and one header row."""
    flat = frame.copy()
    if isinstance(flat.columns, pd.MultiIndex):
        flat.columns = [" ".join(str(p) for p in c if str(p)) for c in flat.columns]
    plain = isinstance(flat.index, pd.RangeIndex) and all(n is None for n in flat.index.names)
    return flat.reset_index(drop=plain)


def _cell_text(value: Any, decimals: int) -> tuple[str, bool]:
    """How one table cell reads, and whether it is a number (right-aligned)."""
    if pd.api.types.is_scalar(value) and pd.isna(value):
        return "–", False
    if pd.api.types.is_bool(value):
        return ("yes" if value else "no"), False
    if pd.api.types.is_integer(value):
        return f"{int(value):,}", True
    if pd.api.types.is_float(value):
        return f"{float(value):,.{decimals}f}", True
    return str(value), False


def html_table(frame: pd.DataFrame, decimals: int = 1) -> str:
    """The markup of :func:`table` (for pages written without a notebook, as the index)."""
    return str(table(frame, decimals))


# -- the experiment --------------------------------------------------------------------

REFERENCE_FALLBACK = "pysat:minisat22"
"""The reference solver that stands in for zChaff when no zChaff binary is found."""


ZCHAFF_NOTE = (
    "zChaff is not installed on the machine that built this report, so PySAT's MiniSat 2.2 "
    f"({REFERENCE_FALLBACK}), a CDCL solver of the same family, stands in for it as the "
    "reference solver. zChaff is in no package registry: to compare with zChaff itself, build "
    "it from Princeton's sources and give its path, as ZCHAFF=/path/to/zchaff in the "
    "environment (for example ZCHAFF=/path/to/zchaff make report) or --zchaff /path/to/zchaff "
    "on the command line."
)
"""The plain-words note a page shows (once) when MiniSat stands in for zChaff."""


def timing_workers(requested: int | None = None) -> int:
    """How many processes may time instances at once on this machine.

    One per core at most and never more than the cores minus one, so that
    every timed process has a core to itself while the notebook's kernel, the
    operating system and anything else keep one: at least 1.

    Examples
    --------
    >>> timing_workers(1)
    1
    """
    cores = os.cpu_count() or 1
    allowed = max(1, cores - 1)
    return allowed if requested is None else max(1, min(int(requested), allowed))


def machine_facts() -> dict[str, Any]:
    """The machine a run is timed on: processor, cores, Python, load when the run starts."""
    import platform

    facts: dict[str, Any] = {
        "cores": os.cpu_count() or 1,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.machine()}",
        "processor": _processor_name(),
    }
    if hasattr(os, "getloadavg"):
        facts["load_average"] = round(os.getloadavg()[0], 2)
    return facts


def _processor_name() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (Linux), else what platform says."""
    import platform

    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def method_text(manifest: Mapping[str, Any]) -> str:
    """How the times of a run were taken, in plain words, from its manifest (Markdown)."""
    machine = manifest.get("machine") or {}
    workers = manifest.get("jobs", 1)
    where = (
        f"{machine.get('processor', 'an unknown processor')}, {machine.get('cores', '?')} "
        f"cores, {machine.get('system', '')}, {machine.get('implementation', 'Python')} "
        f"{machine.get('python', '?')}"
    )
    load = machine.get("load_average")
    load_text = (
        f" The load average when the run started was {load:g}: other programs shared the "
        "machine, so single times can be inflated; the counters (conflicts, decisions) are not "
        "affected."
        if isinstance(load, int | float)
        else ""
    )
    worker_text = (
        "one worker process, so no two timed runs overlap"
        if workers == 1
        else f"{workers} worker processes, one per free core (at most the cores minus one)"
    )
    return (
        f"**Machine.** {where}.{load_text}\n\n"
        f"**Method.** Every (instance, solver) pair is timed by {worker_text}. The solvers are "
        "interleaved per instance (line 1 with every solver, then line 2, ...), so a change of "
        "load hits all of them alike. Times are wall-clock milliseconds: *encode* builds the "
        "CNF, *solve* runs the solver and checks its model, *decode* reads the board back and "
        "checks it; *total* is all three. For the solvers that run inside this Python process "
        "(our `cdcl` and PySAT's solvers) *solve* is split further into *load*, copying the "
        "clauses into the solver (for PySAT: from Python into C++), and *search*, the solving "
        "itself. External programs (zChaff, `exec:`) are timed as whole processes."
    )


def split_names(names: str | Sequence[str]) -> list[str]:
    """Solver names from a notebook parameter: a comma-separated string or a list."""
    if isinstance(names, str):
        names = names.split(",")
    return [name.strip() for name in names if name.strip()]


def choose_solvers(names: str | Sequence[str]) -> tuple[list[str], list[str]]:
    """The solvers to run, with zChaff replaced by PySAT's Minisat22 when it cannot run.

    Every name is probed on a one-clause formula; zChaff that cannot run is
    replaced by :data:`REFERENCE_FALLBACK`, any other solver that cannot run
    is dropped. Each change is explained in a note meant for the report.

    Returns
    -------
    (list of str, list of str)
        The solvers, and the notes.
    """
    from sudosat.pipeline import probe_solver

    chosen, notes = [], []
    for name in split_names(names):
        why = probe_solver(name)
        if why is None:
            chosen.append(name)
        elif name == "zchaff":
            chosen.append(REFERENCE_FALLBACK)
            notes.append(ZCHAFF_NOTE)
        else:
            notes.append(f"Solver {name} cannot run here and was left out: {why}.")
    return list(dict.fromkeys(chosen)), notes


def run_experiment(
    instances: str | os.PathLike[str],
    time_limit_ms: float,
    solvers: Sequence[str],
    encoding: str,
    output_dir: str | os.PathLike[str],
    *,
    jobs: int = 1,
    notes: Sequence[str] = (),
    progress: bool = False,
) -> pd.DataFrame:
    """Run every instance with every solver under the same T; write the results table.

    Writes ``results.csv`` (DESIGN.md's columns, then each output line), one
    output file per solver (``solutions.<solver>.txt``) and ``manifest.json``
    (the parameters, the notes, the machine and the number of workers) into
    `output_dir`. `jobs` is capped by :func:`timing_workers`, so timed runs
    never compete for a core.

    Returns
    -------
    DataFrame
        The results table.
    """
    from sudosat.pipeline import run_batch

    source = resolve(instances)
    folder = resolve(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    results = folder / "results.csv"
    jobs = timing_workers(jobs)
    machine = machine_facts()
    started = time.perf_counter()
    summary = run_batch(
        source,
        folder / "solutions.txt",
        solvers=list(solvers),
        encoding=encoding,
        time_limit_ms=time_limit_ms,
        results=results,
        jobs=jobs,
        progress=progress,
    )
    write_manifest(
        folder,
        instances=str(instances),
        time_limit_ms=time_limit_ms,
        solvers=list(solvers),
        encoding=encoding,
        jobs=jobs,
        machine=machine,
        notes=list(notes),
        wall_s=round(time.perf_counter() - started, 1),
        outputs={s: str(v.output) for s, v in summary.solvers.items()},
    )
    return load_results(results)


def solutions_from_results(results: pd.DataFrame) -> dict[int, Board]:
    """The solved board of every line some solver solved (first valid SAT row wins)."""
    solved: dict[int, Board] = {}
    if "output" not in results.columns:
        return solved
    for row in results[(results["status"] == "SAT") & results["valid"]].itertuples():
        line = int(row.line)
        if line not in solved:
            try:
                solved[line] = Board.parse(str(row.output))
            except InstanceError:
                continue
    return solved


# -- the solvers: measured costs and a traced run --------------------------------------


def component_costs(
    orders: Iterable[int] = (1, 2, 3, 4), alpha: float = 0.5, solver: str = "cdcl", seed: int = 0
) -> pd.DataFrame:
    """Time each component of the pipeline on one generated board per order.

    Components: encoder (board -> CNF), DIMACS writer, parser (DIMACS ->
    CNF), solver, decoder (model -> board) and the rules check. The sizes
    (variables, clauses, literals) let a reader set each time against the
    input it is linear in.

    Returns
    -------
    DataFrame
        Index ``order``; sizes, then one ``<component> ms`` column each.
    """
    from sudosat.board import check_solution
    from sudosat.cnf import parse_dimacs
    from sudosat.encoding import encode
    from sudosat.generate import generate
    from sudosat.solvers.base import solve

    rows = []
    for order in orders:
        board = generate(order, alpha, seed=seed)
        timer = _Stopwatch()
        encoded = timer.run("encoder", encode, board, "course")
        text = timer.run("DIMACS writer", encoded.cnf.to_dimacs)
        timer.run("parser", parse_dimacs, text, "<memory>")
        result = timer.run("solver", solve, encoded.cnf, solver)
        solution = timer.run("decoder", encoded.decode, result.model or [])
        timer.run("check", check_solution, board, solution)
        rows.append(
            {
                "order": order,
                "givens": board.num_givens,
                "variables": encoded.num_vars,
                "clauses": encoded.num_clauses,
                "literals": encoded.cnf.num_literals,
                **{f"{name} ms": round(ms, 4) for name, ms in timer.times.items()},
            }
        )
    return pd.DataFrame(rows).set_index("order")


def components_comment(costs: pd.DataFrame) -> str:
    """How each component's time grew with the formula, read from :func:`component_costs`.

    For each component, the growth exponent k in time ∝ literals^k between the
    smallest and the largest order where it took measurable time; k near 1 is
    linear in the formula's size.
    """
    literals = costs["literals"].astype(float)
    sentences = []
    for column in (c for c in costs.columns if c.endswith(" ms")):
        times = costs[column].astype(float)
        usable = times[(times > 0) & (literals > 0)]
        if len(usable) < 2 or literals[usable.index[-1]] == literals[usable.index[0]]:
            continue
        first, last = usable.index[0], usable.index[-1]
        exponent = math.log(usable[last] / usable[first]) / math.log(
            literals[last] / literals[first]
        )
        sentences.append(
            f"{column.removesuffix(' ms')} {usable[first]:.2f} → {usable[last]:.2f} ms "
            f"(k ≈ {exponent:.1f})"
        )
    first, last = costs.index[0], costs.index[-1]
    return (
        f"From order {first} to order {last} the formula grows from {int(literals[first]):,} "
        f"to {int(literals[last]):,} literals. Each component's time, with the exponent k of "
        "time ∝ literals^k (k ≈ 1: linear in the formula; k near 0: independent of it): "
        + "; ".join(sentences)
        + "."
    )


class _Stopwatch:
    """Runs calls and keeps each one's wall time in milliseconds, by name."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}

    def run(self, name: str, function: Any, *args: Any) -> Any:
        started = time.perf_counter()
        value = function(*args)
        self.times[name] = (time.perf_counter() - started) * 1000.0
        return value


def plot_component_costs(costs: pd.DataFrame) -> Figure:
    """Time of each component against the number of literals, log-log, with a linear guide."""
    figure, ax = _figure(7.0, 4.4)
    literals = costs["literals"].astype(float)
    columns = [c for c in costs.columns if c.endswith(" ms")]
    unmeasured = []
    for k, column in enumerate(columns):
        times = costs[column].astype(float)
        # a log scale has no 0: a time below the clock's resolution is left out, and said so
        zero = times <= 0
        unmeasured += [f"{column.removesuffix(' ms')} (N={n})" for n in costs.index[zero]]
        ax.plot(
            literals,
            times.where(~zero),
            marker=_MARKERS[k % len(_MARKERS)],
            color=_COLOURS[k % len(_COLOURS)],
            label=column.removesuffix(" ms"),
        )
    _note_zeros(ax, "0 ms", unmeasured, corner="upper left")
    top = costs["encoder ms"].iloc[-1] if "encoder ms" in costs else 1.0
    ax.plot(
        literals,
        top * literals / literals.iloc[-1],
        color="#999",
        linestyle=":",
        label="linear in literals (guide)",
    )
    for order, x in zip(costs.index, literals, strict=True):
        ax.annotate(
            f"N={order}",
            (x, ax.get_ylim()[0]),
            textcoords="offset points",
            xytext=(0, 4),
            fontsize=8,
            ha="center",
            color="#555",
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("literals in the CNF (log scale)")
    ax.set_ylabel("time (ms, log scale)")
    ax.set_title("Cost of each component, one generated board per order")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return figure


def trace_cdcl(cnf: CNF, *, order: int | None = None, limit: int = 40) -> tuple[str, pd.DataFrame]:
    """Run our CDCL solver on `cnf` and record its decisions and conflicts.

    The solver is the real one (:class:`sudosat.solvers.cdcl.Solver`), with an
    observer that writes down each decision (literal and new level) and each
    conflict (the learnt clause and the level the search jumps back to).

    Parameters
    ----------
    cnf : CNF
    order : int, optional
        For a course-encoded Sudoku, literals are also named ``x(r,c,d)``.
    limit : int
        Keep at most this many events (the run itself goes to the end).

    Returns
    -------
    (str, DataFrame)
        The status (SAT/UNSAT) and the events: step, event, level, literal(s), meaning.
    """
    from sudosat.solvers import cdcl

    events: list[dict[str, Any]] = []

    def name(lit: int) -> str:
        if order is None or abs(lit) > order**6:
            return str(lit)
        return ("¬" if lit < 0 else "") + variable_name(abs(lit), order)

    def note(**event: Any) -> None:
        if len(events) < limit:
            events.append({"step": len(events) + 1, **event})

    class Tracer:  # the solver's public observer hook (cdcl.Observer)
        def decided(self, literal: int, level: int, trail_size: int) -> None:
            note(event="decide", level=level, literals=str(literal),
                 meaning=f"try {name(literal)}; trail holds {trail_size} literals")

        def learnt(self, clause: list[int], backjump_level: int, level: int) -> None:
            note(event="conflict", level=level, literals=" ".join(map(str, clause)),
                 meaning=f"learn ({' ∨ '.join(map(name, clause))}), "
                 f"jump back to level {backjump_level}")

    status = cdcl.Solver(cnf, observer=Tracer()).solve().status
    return str(status), pd.DataFrame(
        events, columns=["step", "event", "level", "literals", "meaning"]
    )


# -- helpers the notebooks call --------------------------------------------------------

COURSE_EXAMPLE = (
    "3 000400009020980030093000840000000000200008067160300002049000650600003000000059010"
)
"""The course's own example instance (SPEC §1.1)."""


def plot_encodings(comparison: pd.DataFrame) -> Figure:
    """Median variables, clauses and literals of each encoding, side by side on a log scale."""
    figure, ax = _figure(7.0, 4.0)
    measures = ("variables", "clauses", "literals")
    width = 0.8 / len(measures)
    positions = range(len(comparison))
    for k, measure in enumerate(measures):
        ax.bar(
            [p + (k - 1) * width for p in positions],
            comparison[measure].astype(float),
            width,
            color=_COLOURS[k],
            label=measure,
        )
    ax.set_xticks(list(positions), list(comparison.index))
    ax.set_yscale("log")
    ax.set_xlabel("encoding")
    ax.set_ylabel("median count per board (log scale)")
    ax.set_title("Size of each encoding on the same order-3 boards")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    return figure


def encodings_comment(comparison: pd.DataFrame, reference: str = "course") -> str:
    """The encodings compared with `reference` in sizes and propagation, from the table."""
    if reference not in comparison.index:
        return ""
    base = comparison.loc[reference]
    sentences = []
    for name, row in comparison.iterrows():
        if name == reference:
            continue
        sentences.append(
            f"{name} has {row['clauses'] / base['clauses']:.2f} times the clauses and "
            f"{row['variables'] / base['variables']:.2f} times the variables of {reference}; "
            f"propagation alone decides {row['decided by propagation']} of its boards"
        )
    return (
        f"Against the {reference} encoding (propagation alone decides "
        f"{base['decided by propagation']} of its boards): " + "; ".join(sentences) + "."
    )


def solver_comparison(
    puzzles: Mapping[str, str], solvers: Sequence[str], time_limit_ms: float = 30_000
) -> pd.DataFrame:
    """Each solver's answer, time and counters on each puzzle (course encoding)."""
    from sudosat.encoding import encode
    from sudosat.solvers.base import solve

    rows = []
    for label, line in puzzles.items():
        cnf = encode(Board.parse(line), "course").cnf
        for solver in solvers:
            result = solve(cnf, solver, time_limit_ms=time_limit_ms)
            stats = result.stats
            rows.append(
                {
                    "puzzle": label,
                    "solver": solver,
                    "answer": "TIMEOUT" if result.is_unknown else str(result.status),
                    "solver ms": round(result.elapsed_ms, 1),
                    **{
                        k: int(stats[k]) if k in stats else pd.NA
                        for k in ("decisions", "propagations", "conflicts")
                    },
                }
            )
    return pd.DataFrame(rows).set_index(["puzzle", "solver"])


def own_and_reference(solvers: Sequence[str]) -> tuple[str, str | None]:
    """Our solver (``cdcl`` if it ran, else the first) and the reference it is compared with."""
    own = "cdcl" if "cdcl" in solvers else solvers[0]
    others = [s for s in solvers if s != own]
    preferred = [s for s in others if s == "zchaff" or s == REFERENCE_FALLBACK]
    return own, (preferred or others or [None])[0]


def scatter_comment(
    results: pd.DataFrame, own: str, reference: str, time_column: str = "total_ms"
) -> str:
    """One sentence on a scatter plot: on how many instances each solver was faster."""
    pair = _paired(results, own, reference, time_column)
    both = pair[pair["answered_x"] & pair["answered_y"]].dropna(subset=["x", "y"])
    faster = int((both["y"] < both["x"]).sum())
    ratio = (both["y"] / both["x"]).median() if len(both) else math.nan
    what = _stage_name(time_column)
    return (
        f"both solvers decided {len(both)} instances; {own} was faster on {faster} "
        f"of them and {reference} on {len(both) - faster}. The median ratio of {own}'s "
        f"{what} to {reference}'s is {ratio:.2f} (points below the diagonal: {own} faster)."
    )


def search_column(results: pd.DataFrame, solvers: Sequence[str]) -> str:
    """``search_ms`` when every one of `solvers` has it on its answers, else ``solve_ms``."""
    answered = results[results["status"].isin(DECIDED) & results["solver"].isin(solvers)]
    if len(answered) and answered["search_ms"].notna().all():
        return "search_ms"
    return "solve_ms"


def time_split_table(results: pd.DataFrame) -> pd.DataFrame:
    """Median ms of each part of the time, per solver and order, over decided instances.

    Columns: instances, then the medians ``encode ms``, ``load ms`` (into the
    solver), ``search ms``, ``solve ms`` (load + search + model check),
    ``decode ms`` and ``total ms``; load and search are empty for solvers that
    run as a separate program.
    """
    answered = results[results["status"].isin(DECIDED)]
    columns = ["encode_ms", "load_ms", "search_ms", "solve_ms", "decode_ms", "total_ms"]
    grouped = answered.groupby(["solver", "order"], sort=False)
    table = grouped[columns].median()
    table.insert(0, "instances", grouped.size())
    table.columns = ["instances", *(f"{c.removesuffix('_ms')} ms" for c in columns)]
    table = table.reset_index()
    table["order"] = table["order"].astype(int)
    return table


def comparison_text(results: pd.DataFrame, own: str, reference: str) -> str:
    """What the two comparisons of the page measure and what they show, from the data (Markdown).

    Total time is what a user waits for; for an in-process reference it
    includes copying the formula into it. Search time alone compares the
    solving procedures. The sentence on loading names the order where the
    reference's loading is the largest share of its total.
    """
    column = search_column(results, [own, reference])
    parts = [
        "**Total time** (encode + solve + decode) is what a user waits for: "
        + scatter_comment(results, own, reference, "total_ms"),
        f"**{_stage_name(column).capitalize()}** compares the solving procedures alone"
        + (
            ", without loading the formula into the solver: "
            if column == "search_ms"
            else " (the reference runs as a separate program, so its load cannot be split off): "
        )
        + scatter_comment(results, own, reference, column),
    ]
    mine = results[(results["solver"] == reference) & results["status"].isin(DECIDED)]
    if len(mine) and mine["load_ms"].notna().any():
        share = (mine["load_ms"] / mine["total_ms"]).groupby(mine["order"]).median()
        order = int(share.idxmax())
        parts.append(
            f"**Loading** the formula into {reference} takes a median "
            f"{100 * share.max():.0f}% of its total time on order {order} "
            f"(order {order} formulas have about "
            f"{int(mine[mine['order'] == order]['clauses'].median()):,} clauses)."
        )
    return "\n\n".join(parts)


def stage_comment(results: pd.DataFrame) -> str:
    """Where the time goes, per solver and order, read from the results (one paragraph)."""
    table = time_split_table(results)
    parts = {"encode": "encoding", "load": "loading", "search": "search", "decode": "decoding"}
    sentences = []
    for _, row in table.iterrows():
        known = {part: row[f"{part} ms"] for part in parts if not pd.isna(row[f"{part} ms"])}
        total = row["total ms"]
        if not known or not total:
            continue
        top = max(known, key=lambda part: known[part])
        sentences.append(
            f"{row['solver']}, order {row['order']}: {parts[top]} "
            f"({100 * known[top] / total:.0f}% of the median total of {total:.1f} ms)"
        )
    if not sentences:
        return "No instance was decided: there is no time to break down."
    return "The largest part of the time, per solver and order: " + "; ".join(sentences) + "."


def difficulty_table(results: pd.DataFrame) -> pd.DataFrame:
    """Conflicts per solver and order over the decided instances: least, median, most.

    Conflicts are a solver's own counter: unlike times, they do not depend on
    the machine or its load (empty for a solver that does not report them).
    """
    answered = results[results["status"].isin(DECIDED)]
    grouped = answered.groupby(["solver", "order"], sort=False)["conflicts"]
    table = pd.DataFrame(
        {
            "instances": grouped.size(),
            "least conflicts": grouped.min(),
            "median conflicts": grouped.median(),
            "most conflicts": grouped.max(),
            "more than 30": grouped.apply(_above_30),
        }
    ).reset_index()
    for column in ("order", "least conflicts", "most conflicts", "more than 30"):
        table[column] = table[column].astype("Int64")
    return table


def _above_30(conflicts: pd.Series) -> float:
    """How many counts exceed 30 (NaN when the solver reports no conflicts)."""
    return float((conflicts > 30).sum()) if conflicts.notna().any() else math.nan


GRADED_INSTANCES = "data/instances.txt"
"""The report's own instance file, whose order-3 puzzles are graded by ``data/make_data.py``."""


def instances_text(results: pd.DataFrame, instances: str | None, solver: str = "cdcl") -> str:
    """How hard the order-3 instances were for `solver`, computed from the results (Markdown).

    For the report's own instance file it also says how its puzzles were
    made and graded.
    """
    made = ""
    if instances and Path(str(instances)).as_posix().endswith(GRADED_INSTANCES):
        made = (
            f"The order-3 puzzles of `{GRADED_INSTANCES}` after the course's example are minimal "
            "puzzles with exactly one solution (no given can be removed without allowing a "
            "second one), made by `data/make_data.py` with the project's generator: it "
            "generates 1,500 of them from a fixed seed, grades each by the conflicts `cdcl` "
            "needs on its course encoding (seed 0), keeps the 24 hardest and 24 spread evenly "
            "over the other grades. "
        )
    mine = results[
        (results["solver"] == solver) & (results["order"] == 3) & results["status"].isin(DECIDED)
    ]["conflicts"].dropna()
    if mine.empty:
        return made + f"No order-3 instance was decided by {solver} in this run."
    return made + (
        f"In this run {solver} needed from {int(mine.min())} to {int(mine.max())} conflicts on "
        f"the {len(mine)} order-3 instances it decided (median {mine.median():.0f}); "
        f"{int((mine > 30).sum())} of them needed more than 30."
    )


def run_description(
    instances: Any,
    time_limit_ms: Any,
    solvers: Sequence[str],
    encoding: str,
    notes: Sequence[str] = (),
) -> str:
    """A Markdown paragraph naming what a run used, with the notes (e.g. zChaff's stand-in)."""
    limit = f"{float(time_limit_ms):g} ms" if time_limit_ms is not None else "none"
    text = (
        f"**Instance file** `{instances}` · **time limit T** {limit} for every solver · "
        f"**solvers** {', '.join(f'`{s}`' for s in solvers)} · **encoding** `{encoding}`"
    )
    return "\n\n".join([text, *(f"> **Note.** {note}" for note in notes)])
