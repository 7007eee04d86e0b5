"""The results page: how hard the instances were, where the time goes, our solver against
the reference.

:func:`difficulty_words` reads the conflicts of the order-3 instances (the figures of
:func:`difficulty_table`) and, for the report's own instance file, which lines were chosen
as graded puzzles, its wording branching on every count; :func:`plot_time_split` and
:func:`stage_words` split the CPU time of each solver's median instance into its parts;
:func:`comparison_words` says what the comparisons of :mod:`~sudosat.report.comparison`
show. The page's tables (difficulty, times, the time split) and plots (time per instance,
the scatter plots, the cactus plot) are here too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.clocks import CPU, WALL, clock_of
from sudosat.report.comparison import END_TO_END_WORDS, compared, decided_by_both
from sudosat.report.formats import and_join, line_ranges, plural, ratio
from sudosat.report.io import AROUND_CPU, OWN_CPU, in_process, solver_order
from sudosat.report.plots import (
    COLOURS,
    MARKERS,
    PAGE_WIDTH_IN,
    ReportFigure,
    legend_outside,
    new_figure,
    styled,
    tidy_log_ticks,
)
from sudosat.run.results import DECIDED
from sudosat.sudoku.board import COURSE_EXAMPLE, Board

GRADED_INSTANCES = "data/instances.txt"
"""The report's own instance file, whose order-3 puzzles ``data/make_data.py`` chose by grade."""


def _graded_lines(boards: Mapping[int, Board]) -> list[int]:
    """Lines of order-3 puzzles other than the course's example whose givens do not clash."""
    example = Board.parse(COURSE_EXAMPLE)
    return sorted(line for line, board in boards.items()
                  if board.order == 3 and board != example and board.is_consistent())


TIME_PARTS = ("encode", "load", "handover", "program", "search", "solve", "decode")
"""The parts of an instance's CPU time that :func:`instance_parts` names, in run order.

Where the solver's own search time is known, the time between encoding and
decoding is its search and the hand-over (``overhead_cpu_ms``): for a solver
in this process, loading the clauses (``load``) and the rest of the hand-over
(``handover``); for a program whose own CPU time is known (``process_cpu_ms``),
the rest of its process besides its search (``program``: starting, reading its
input, printing its answer) and our side of the hand-over (``handover``:
writing its input, starting it, reading its answer back, checking the model);
for a program without it, the whole hand-over. Elsewhere that time is one
part, ``solve``. The parts of an instance add up to its ``total_cpu_ms``.
"""

_PART_LABELS = {"encode": "encode", "load": "load into the solver",
                "handover": "rest of the hand-over (this process)",
                "program": "the program besides its search", "search": "search",
                "solve": "solve (not split)", "decode": "decode"}
"""How the legend of :func:`plot_time_split` names each part."""


def _ms(row: pd.Series, column: str) -> float | None:
    value = row.get(column)
    return None if value is None or pd.isna(value) else float(value)


def instance_parts(row: pd.Series) -> dict[str, float]:
    """The CPU milliseconds of each part (:data:`TIME_PARTS`) of one results row, in run order.

    The parts add up to the row's ``total_cpu_ms``: the hand-over (or, without
    a search time, the solve part) is what the total leaves after the others.
    Parts of 0 ms are left out; an empty dict when the row has no CPU total.
    """
    total = _ms(row, "total_cpu_ms")
    if total is None:
        return {}
    encode = _ms(row, "encode_cpu_ms") or 0.0
    decode = _ms(row, "decode_cpu_ms") or 0.0
    search = _ms(row, "search_cpu_ms")
    if search is None:
        parts = {"encode": encode, "solve": total - encode - decode, "decode": decode}
    else:
        load = _ms(row, "load_cpu_ms") or 0.0
        process = _ms(row, "process_cpu_ms")
        program = 0.0 if process is None else max(process - search, 0.0)
        rest = total - encode - decode - search - load - program
        parts = {"encode": encode, "load": load, "handover": rest, "program": program,
                 "search": search, "decode": decode}
    return {part: value for part, value in parts.items() if value > 0}


def median_instances(results: pd.DataFrame) -> pd.DataFrame:
    """Per solver and order, the decided instance of median total CPU time (the faster of the
    two middle ones for an even count), with ``instances``, how many were decided.

    Its parts (:func:`instance_parts`) add up to its total, which medians of
    each part taken apart do not: that is what :func:`plot_time_split` draws.
    """
    decided = results[results["status"].isin(DECIDED) & results["total_cpu_ms"].notna()]
    rows = []
    for _, group in decided.groupby(["solver", "order"], sort=False):
        ranked = group.sort_values(["total_cpu_ms", "line"]).reset_index(drop=True)
        middle = ranked.iloc[(len(ranked) - 1) // 2].copy()
        middle["instances"] = len(ranked)
        rows.append(middle)
    frame = pd.DataFrame(rows).reset_index(drop=True)
    if frame.empty:
        return pd.DataFrame(columns=[*results.columns, "instances"])
    frame["order"] = frame["order"].astype(int)
    return frame.sort_values("order", kind="stable").reset_index(drop=True)


PART_WORDS = {"encode": "encoding", "load": "loading", "handover": "the rest of the hand-over",
              "program": "the program besides its search", "search": "search",
              "solve": "solving", "decode": "decoding"}
"""How a sentence names each part of :data:`TIME_PARTS`."""


def stage_words(results: pd.DataFrame) -> str:
    """Per solver and order, the largest part of its median instance's CPU time: what
    :func:`plot_time_split` draws, in one sentence (or that nothing was decided)."""
    said = []
    for _, row in median_instances(results).iterrows():
        parts = instance_parts(row)
        total = float(row["total_cpu_ms"])
        if not parts or total <= 0:
            continue
        top = max(parts, key=lambda part: parts[part])
        share = parts[top] / total
        said.append(f"{row['solver']}, order {int(row['order'])} (line {int(row['line'])}): "
                    f"{PART_WORDS[top]} ({100 * share:.0f}% of its total of {total:.1f} ms)")
    if not said:
        return "No instance was decided: there is no time to break down."
    return "The largest part of the CPU time, per solver and order: " + "; ".join(said) + "."


TIME_SPLIT_COLUMNS = 3
"""Panels per row of :func:`plot_time_split`: more orders go on further rows."""


@styled
def plot_time_split(results: pd.DataFrame) -> Figure:
    """Where the CPU time goes: one panel per order (one empty panel when nothing was decided),
    each solver's median instance with its parts stacked.

    Each bar is one real instance, the decided one of median total CPU time
    (:func:`median_instances`), so its parts (:data:`TIME_PARTS`) add up to
    the total written above it. Each panel has its own millisecond scale, so
    small orders stay readable beside large ones.
    """
    table = median_instances(results)
    orders = sorted(table["order"].unique())
    columns = max(1, min(TIME_SPLIT_COLUMNS, len(orders)))
    rows = max(1, -(-len(orders) // columns))
    figure = ReportFigure(figsize=(PAGE_WIDTH_IN, 0.6 + 3.0 * rows), layout="constrained")
    axes = list(figure.subplots(rows, columns, squeeze=False).flat)
    for ax in axes[max(len(orders), 1):]:
        ax.set_visible(False)
    colours = {part: COLOURS[(k + 2) % len(COLOURS)] for k, part in enumerate(TIME_PARTS)}
    colours["handover"] = "#b0b0b0"  # a remainder, not a step of its own
    drawn: set[str] = set()
    for ax, order in zip(axes, orders, strict=False):
        mine = table[table["order"] == order].reset_index(drop=True)
        for x, row in mine.iterrows():
            bottom = 0.0
            for part, value in instance_parts(row).items():
                label = None if part in drawn else _PART_LABELS[part]
                drawn.add(part)
                ax.bar(x, value, bottom=bottom, color=colours[part], width=0.6, label=label)
                bottom += value
            ax.annotate(f"{_ms_label(bottom)} ms", (x, bottom), textcoords="offset points",
                        xytext=(0, 2), ha="center", va="bottom", fontsize=8)
        ax.margins(y=0.15)
        names = [f"{_wrapped(str(r.solver))}\nline {int(r.line)}\n({int(r.instances)} decided)"
                 for r in mine.itertuples()]
        ax.set_xticks(range(len(mine)), names, fontsize=8)
        ax.set_xlim(-0.6, max(len(mine), 2) - 0.4)
        ax.set_title(f"order {order}")
        ax.set_xlabel("solver: its median instance")
        ax.grid(True, axis="y")
    for ax in axes[::columns]:
        ax.set_ylabel("CPU time (ms)")
    figure.suptitle("Where the CPU time goes: each solver's median instance, per order")
    if drawn:
        figure.legend(loc="outside lower center", ncols=min(len(drawn), 3))
    return figure


def _ms_label(value: float) -> str:
    """Milliseconds as a bar's label: three figures at most, never in scientific notation."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def _wrapped(solver: str) -> str:
    """A solver's name on two lines after its kind (``pysat:`` / ``minisat22``): bars stay apart."""
    kind, colon, name = solver.partition(":")
    return f"{kind}{colon}\n{name}" if colon else solver


# -- words: the paragraph on how hard the instances were ----------------------------------


def _conflict_words(counts: tuple[int, int, int, float, int], one: str, many: str) -> str:
    """Conflict counts (instances, least, most, median, hard) as the difficulty table rounds
    them (a sentence's end)."""
    instances, least, most, median, hard = counts
    if instances == 1:
        return f"needed {least:,} conflicts on the one {one}."
    return (f"needed from {least:,} to {most:,} conflicts on the {instances:,} {many} "
            f"(median {median:,.1f}); {hard:,} of the {instances:,} needed more than "
            f"{HARD_CONFLICTS}.")


def difficulty_words(
    results: pd.DataFrame, instances: str | None, boards: Mapping[int, Board], solver: str = "cdcl"
) -> str:
    """The results page's paragraph on how hard the instances were for `solver`, in a run that
    read `instances` (its `boards`).

    For the report's own file (:data:`GRADED_INSTANCES`) only: where its graded puzzles
    come from, and its clashing boards. Then the conflicts of the order-3 instances, as
    :func:`difficulty_table` gives them, and of the graded puzzles apart unless their
    figures are the same. The grades were taken with the ``cdcl`` of the day the file was
    written, which a later solver need not reproduce: the paragraph says whether it does.
    """
    own = bool(instances and boards) and Path(str(instances)).as_posix().endswith(
        GRADED_INSTANCES)
    graded = _graded_lines(boards) if own else []
    clashing = sorted(line for line, b in boards.items() if not b.is_consistent()) if own else []
    text = ""
    if graded:
        text += (
            f"The order-3 puzzles on {line_ranges(graded)} of `{GRADED_INSTANCES}` "
            "are minimal puzzles with exactly one solution (no given can be removed without "
            "allowing a second one), made by `data/make_data.py` with the project's generator "
            "from a fixed seed and chosen from a larger batch by the conflicts `cdcl` needed on "
            "them when the file was written: half are the hardest of the batch, half spread "
            "evenly over the other grades (`data/README.md` gives the numbers). ")
    if clashing:
        holds = "holds a board" if len(clashing) == 1 else "hold boards"
        text += (f"{line_ranges(clashing).capitalize()} {holds} whose givens clash, "
                 "there for the UNSAT path (see the end of the page). ")
    table = difficulty_table(results)
    row = table[(table["solver"] == solver) & (table["order"] == 3)]
    if row.empty or pd.isna(row["median conflicts"].iloc[0]):
        return text + f"No order-3 instance was decided by {solver} in this run."
    first = row.iloc[0]
    order3 = (int(first["instances"]), int(first["least conflicts"]),
              int(first["most conflicts"]), float(first["median conflicts"]),
              int(first[f"more than {HARD_CONFLICTS}"]))
    text += f"In this run {solver} " + _conflict_words(
        order3, "instance of order 3 it decided", "instances of order 3 it decided")
    decided = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
    mine = decided[decided["line"].isin(graded)].sort_values("line")["conflicts"].dropna()
    if not len(mine):
        return text
    counts = (len(mine), int(mine.min()), int(mine.max()), float(mine.median()),
              int((mine > HARD_CONFLICTS).sum()))
    if counts[1:] == order3[1:]:  # said once: the same figures, not the same sentence
        text += (f" The {counts[0]:,} graded puzzles alone "
                 f"({line_ranges(graded)}) give the same figures.")
    else:
        text += (f" On the graded puzzles alone ({line_ranges(graded)}) it "
                 + _conflict_words(counts, "graded puzzle it decided",
                                   "graded puzzles it decided"))
    kept = "keep" if mine.is_monotonic_increasing else "do not keep"
    return text + (" The file lists them easiest first by the grades `cdcl` gave when it was "
                   f"written; this run's counts {kept} that order.")


# -- tables of the results ------------------------------------------------------------


TOTALS = ("total_wall_ms", "total_cpu_ms")
"""The total times of an instance, one per clock, as :func:`times_table` shows them."""


def times_table(results: pd.DataFrame) -> pd.DataFrame:
    """Per input line (the index): order, givens, then per solver its total on both clocks
    (``<solver> wall ms``, ``<solver> CPU ms``) and its ``<solver> status``, for every status.

    For a solver program whose own CPU time is known (``process_cpu_ms``), the CPU total
    is split too: ``<solver> own CPU ms``, its process as the operating system counts it,
    and ``<solver> around CPU ms``, what this process spent around it
    (:func:`sudosat.report.io.with_own_times`).
    """
    table = results.drop_duplicates("line").set_index("line")[["order", "givens"]].copy()
    for solver in solver_order(results):
        mine = results[results["solver"] == solver].drop_duplicates("line").set_index("line")
        for column in TOTALS:
            table[f"{solver} {clock_of(column)} ms"] = mine[column].round(1)
        if "process_cpu_ms" in mine and mine["process_cpu_ms"].notna().any():
            table[f"{solver} own CPU ms"] = mine[OWN_CPU].round(1)
            table[f"{solver} around CPU ms"] = mine[AROUND_CPU].round(1)
        table[f"{solver} status"] = mine["status"]
    table = table.sort_index()
    table["order"] = table["order"].astype("Int64")
    table["givens"] = table["givens"].astype("Int64")
    return table


SPLIT_COLUMNS = ("encode_cpu_ms", "load_cpu_ms", "search_cpu_ms", "process_cpu_ms",
                 "overhead_cpu_ms", "solve_cpu_ms", "decode_cpu_ms", "total_cpu_ms",
                 "total_wall_ms")
"""The times :func:`time_split_table` takes medians of: the parts on CPU time, and the total
on both clocks."""


def time_split_table(results: pd.DataFrame) -> pd.DataFrame:
    """Per solver and order, the instances decided and the median of each time of
    :data:`SPLIT_COLUMNS` over them, each header naming its clock.

    Load is empty for a solver program, process for a solver in this process, search and
    overhead for a program that reports no time of its own; a column empty for every solver
    is left out. Medians taken apart do not add up to the median total.
    """
    answered = results[results["status"].isin(DECIDED)]
    grouped = answered.groupby(["solver", "order"], sort=False)
    columns = [c for c in SPLIT_COLUMNS if answered[c].notna().any()]
    table = grouped[columns].median()
    table.insert(0, "instances", grouped.size())
    table.columns = ["instances", *(column_words(c) for c in columns)]
    table = table.reset_index()
    table["order"] = table["order"].astype(int)
    return table


def column_words(column: str) -> str:
    """A time column as a table header names it: ``search_cpu_ms`` is ``search CPU ms``."""
    return f"{column.split('_')[0]} {clock_of(column)} ms"


HARD_CONFLICTS = 30
"""A puzzle needing more conflicts than this counts as hard in the difficulty figures."""


def difficulty_table(results: pd.DataFrame) -> pd.DataFrame:
    """Conflicts per solver and order over the decided instances: least, median, most.

    Conflicts are a solver's own counter: unlike times, they do not depend on
    the machine or its load (empty for a solver that does not report them).
    """
    answered = results[results["status"].isin(DECIDED)]
    grouped = answered.groupby(["solver", "order"], sort=False)["conflicts"]
    table = pd.DataFrame({
        "instances": grouped.size(), "least conflicts": grouped.min(),
        "median conflicts": grouped.median(), "most conflicts": grouped.max(),
        f"more than {HARD_CONFLICTS}": grouped.apply(_above_hard),
    }).reset_index()
    for column in ("order", "least conflicts", "most conflicts", f"more than {HARD_CONFLICTS}"):
        table[column] = table[column].astype("Int64")
    return table


def _above_hard(conflicts: pd.Series) -> float:
    """How many counts exceed HARD_CONFLICTS (NaN when the solver reports no conflicts)."""
    return float((conflicts > HARD_CONFLICTS).sum()) if conflicts.notna().any() else math.nan


_TIME_WORDS = {"total": "total time", "solve": "solve time", "encode": "encode time",
               "decode": "decode time", "load": "load time", "search": "own search time",
               "overhead": "overhead (hand-over) time", "process": "program's own time",
               "own": "solver's own time", "around": "time around the solver"}


def time_name(column: str) -> str:
    """A time column in words, with its clock: ``search_cpu_ms`` is "own search CPU time".

    Examples
    --------
    >>> time_name("total_wall_ms"), time_name("overhead_cpu_ms")
    ('total wall-clock time', 'overhead (hand-over) CPU time')
    """
    words = _TIME_WORDS.get(column.split("_")[0], column)
    clock = "wall-clock" if clock_of(column) == WALL else CPU
    return words.replace(" time", f" {clock} time")


# -- plots of the results -------------------------------------------------------------


def solver_style(solvers: Sequence[str]) -> dict[str, tuple[str, str]]:
    """A (colour, marker) pair per solver, by position, the same on every plot of a page."""
    return {s: (COLOURS[k % len(COLOURS)], MARKERS[k % len(MARKERS)])
            for k, s in enumerate(solvers)}


def draw_time_limit(ax, time_limit_ms: float | None) -> None:
    """A dashed line at the time limit T, labelled for the legend (nothing without a limit)."""
    if time_limit_ms:
        ax.axhline(time_limit_ms, color="#555", linestyle="--", linewidth=1,
                   label=f"limit T = {time_limit_ms:g} ms")


LINE_LABELS = 16
"""At most this many line numbers label the axis of :func:`plot_per_instance` (every k-th
line), so that they stay apart at the width of a printed page."""


@styled
def plot_per_instance(
    results: pd.DataFrame, time_limit_ms: float | None = None, time_column: str = "total_wall_ms"
) -> Figure:
    """Time per instance for every solver, on a log scale, in the file's line order.

    Answers are filled markers; time-outs and errors are drawn as crosses; the
    time limit, when given, is a dashed line.
    """
    solvers = solver_order(results)
    style = solver_style(solvers)
    lines = sorted(results["line"].dropna().unique())
    position = {line: k for k, line in enumerate(lines)}
    figure, ax = new_figure(PAGE_WIDTH_IN, 3.8)
    for solver in solvers:
        mine = results[results["solver"] == solver]
        colour, marker = style[solver]
        answered = mine[mine["status"].isin(DECIDED)]
        ax.scatter([position[x] for x in answered["line"]], answered[time_column].clip(lower=0.01),
                   color=colour, marker=marker, s=22, label=solver, alpha=0.85)
        missed = mine[~mine["status"].isin(DECIDED)]
        if len(missed):
            ax.scatter([position[x] for x in missed["line"]],
                       missed[time_column].fillna(time_limit_ms or 1), color=colour, marker="x",
                       s=40, label=f"{solver}: no answer")
    draw_time_limit(ax, time_limit_ms)
    ax.set_yscale("log")
    ax.set_xlabel("instance (line of the instance file)")
    ax.set_ylabel(f"{time_name(time_column)} (ms, log scale)")
    ax.set_title("Time per instance")
    step = max(1, -(-len(lines) // LINE_LABELS))
    ax.set_xticks(range(0, len(lines), step),
                  [str(int(lines[k])) for k in range(0, len(lines), step)], fontsize=8)
    ax.grid(True, which="major", axis="y")
    tidy_log_ticks(ax)
    legend_outside(ax)
    return figure


@styled
def plot_scatter(results: pd.DataFrame, own: str, reference: str | None,
                 time_limit_ms: float | None = None, time_column: str = "total_wall_ms") -> Figure:
    """Our solver's time against the reference solver's, one point per instance, log-log.

    Points above the diagonal are instances where our solver is slower.
    Instances without an answer are placed at the time limit (or their own
    time) and drawn as crosses. Colour says the order.
    """
    if reference is None:  # one solver ran: say so instead of drawing an empty plot
        figure, ax = new_figure(5.4, 1.2)
        ax.axis("off")
        ax.text(0.5, 0.5, f"only {own} ran: no reference to compare with", ha="center")
        return figure
    pair = paired(results, own, reference, time_column)
    figure, ax = new_figure(5.4, 3.9)
    orders = sorted(pair["order"].dropna().unique())
    for k, order in enumerate(orders):
        group = pair[pair["order"] == order]
        both = group["answered_x"] & group["answered_y"]
        colour = COLOURS[k % len(COLOURS)]
        ax.scatter(group[both]["x"], group[both]["y"], color=colour, s=24, alpha=0.85,
                   label=f"order {int(order)}")
        if (~both).any():
            ax.scatter(group[~both]["x"], group[~both]["y"], color=colour, marker="x", s=40,
                       label=f"order {int(order)}, no answer by one")
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
    # Wrapped to the axes' size (square, beside the legend): a long label would run past the
    # axes, the y label up into the title.
    ax.set_xlabel(_label_lines(f"{reference}: {time_name(time_column)} (ms, log scale)"))
    ax.set_ylabel(_label_lines(f"{own}: {time_name(time_column)} (ms, log scale)"))
    ax.set_title(_label_lines(f"{own} against {reference}: {time_name(time_column)} per instance",
                              LABEL_CHARS + 12))
    ax.grid(True)
    tidy_log_ticks(ax)
    legend_outside(ax)
    return figure


LABEL_CHARS = 34
"""The longest line of an axis label of :func:`plot_scatter` (its axes are about 2.6 inches
square at the page's width, beside the legend)."""


def _label_lines(text: str, width: int = LABEL_CHARS) -> str:
    """`text` wrapped at `width` characters, never at a hyphen."""
    import textwrap

    return textwrap.fill(text, width, break_on_hyphens=False)


def paired(results: pd.DataFrame, own: str, reference: str, time_column: str) -> pd.DataFrame:
    """Per line both solvers ran: the reference's time (``x``) and ours (``y``), each at least
    0.01 ms (a log scale has no 0), whether each answered, and the order."""

    def side(solver: str) -> pd.DataFrame:
        mine = results[results["solver"] == solver].drop_duplicates("line").set_index("line")
        return pd.DataFrame({"t": mine[time_column], "ok": mine["status"].isin(DECIDED),
                             "order": mine["order"]})

    pair = side(reference).add_suffix("_x").join(side(own).add_suffix("_y"), how="inner")
    return pd.DataFrame({"x": pair["t_x"].clip(lower=0.01), "y": pair["t_y"].clip(lower=0.01),
                         "answered_x": pair["ok_x"], "answered_y": pair["ok_y"],
                         "order": pair["order_x"]})


@styled
def plot_cactus(
    results: pd.DataFrame, time_limit_ms: float | None = None, time_column: str = "total_wall_ms"
) -> Figure:
    """The cactus plot: for each solver, how many instances it decides within a given time.

    Each solver's answered times are sorted; point k says "the k fastest
    answers each took at most this long". A curve further right decides more
    instances, a lower curve decides them faster.
    """
    solvers = solver_order(results)
    style = solver_style(solvers)
    figure, ax = new_figure(PAGE_WIDTH_IN, 3.8)
    for solver in solvers:
        mine = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
        times = sorted(mine[time_column].dropna().clip(lower=0.01))
        colour, marker = style[solver]
        ax.plot(range(1, len(times) + 1), times, color=colour, marker=marker, markersize=3,
                linewidth=1.2, label=f"{solver} ({len(times)} decided)")
    draw_time_limit(ax, time_limit_ms)
    ax.set_yscale("log")
    ax.set_xlabel("number of instances decided")
    ax.set_ylabel(f"{time_name(time_column)} (ms, log scale)")
    ax.set_title("Cactus plot")
    ax.grid(True)
    tidy_log_ticks(ax)
    legend_outside(ax)
    return figure


# -- words: our solver against the reference ---------------------------------------------

CLOCK_WORDS = {WALL: "on the wall clock", CPU: "on CPU time"}
"""How a sentence names each clock."""

LEADS = {"search": "Search alone", "solver alone": "The solver alone",
         "around the solver": "Around the solver", "end to end": "End to end",
         "overhead": "Overhead"}
"""How a sentence opens on each compared time."""

_WHY_NOT = {
    ("search", CPU): "no search time of its own (a search is never set against a whole process)",
    ("solver alone", CPU): "no CPU time of its own work (a program's, from the operating "
                           "system; in this process, its search)",
    ("around the solver", CPU): "no CPU time of its own work, so what surrounds it cannot be "
                                "told apart",
    ("overhead", WALL): "its search on CPU time only, so its wall-clock hand-over cannot be told "
                        "apart",
    ("overhead", CPU): "no search time, so its hand-over cannot be told apart",
}


def _who(facts: Mapping[str, Any], own: str, reference: str) -> str:
    """Which solver was faster on how many of the instances both decided."""
    n, ties = facts["both"], facts["ties"]
    mine, theirs = facts["own_faster"], facts["reference_faster"]
    everyone = "it" if n == 1 else f"all {n}"
    if mine == theirs:
        return (f"they tied on {everyone}" if ties == n else
                f"each was faster on {mine} of the {n}"
                + (f", and they tied on {ties}" if ties else ""))
    winner, other, won, lost = ((own, reference, mine, theirs) if mine > theirs else
                                (reference, own, theirs, mine))
    if won == n:
        return f"{winner} was faster on {everyone}"
    return (f"{winner} was faster on {won} of the {n}" + (f", {other} on {lost}" if lost else "")
            + (f", and they tied on {ties}" if ties else ""))


def comparison_words(
    versus: Mapping[tuple[str, str], dict[str, Any]], own: str, reference: str | None
) -> list[str]:
    """The page's paragraphs on the comparisons of
    :func:`~sudosat.report.comparison.comparison_facts`: each made, and why any other is not.

    Which solver was faster, on how many instances, and the median ratio, for every
    comparison of :data:`~sudosat.report.comparison.MEASURES`; the wording branches on the
    counts (ties, one instance, a clean sweep), so it is a function, where the tests read it.
    """
    if reference is None:
        return ["Only one solver ran: there is nothing to compare it with."]
    shared = decided_by_both(versus)
    if not shared:
        return ["No instance was decided by both solvers: there is nothing to compare."]
    said = [f"Each comparison is made on the {plural(shared, 'instance')} both solvers "
            f"decided; a ratio above 1 means {own} took longer. {END_TO_END_WORDS}"]
    for (name, clock), facts in versus.items():
        if facts["lacking"]:
            continue
        lead, words = LEADS[name], CLOCK_WORDS[clock]
        # The ratio's clause names its measure too: two measures may share a ratio, and the
        # clause must still say which one it is about when read alone.
        share = ("" if facts["median_ratio"] is None else f"; the median ratio of {own}'s time "
                 f"to {reference}'s ({lead.lower()} {words}) is {ratio(facts['median_ratio'])}")
        said.append(f"**{lead} {words}**: {_who(facts, own, reference)}{share}.")
    for (name, clock), facts in versus.items():
        if lacking := facts["lacking"]:
            has = "has" if len(lacking) == 1 else "have"
            said.append(f"{LEADS[name]} {CLOCK_WORDS[clock]} is not compared: "
                        f"{and_join(lacking)} {has} {_WHY_NOT[(name, clock)]}.")
    pair = (own, reference)
    reported = [s for s in pair if not in_process(s)]
    timed = [s for s in pair if in_process(s)]
    if compared(versus, "search", CPU) is not None:
        how = ([f"{and_join(reported)} {'reports' if len(reported) == 1 else 'report'} it"]
               if reported else []) + ([f"the search of {and_join(timed)} is timed in this "
                                        "process"] if timed else [])
        said.append(f"Every search time is CPU time: {'; '.join(how)}.")
    return said
