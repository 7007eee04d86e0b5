"""The results page: how hard the instances were, and where the time goes.

:func:`difficulty_words` reads the conflicts of the order-3 instances (the figures of
:func:`~sudosat.report.tables.difficulty_table`) and, for the report's own instance file,
which lines were chosen as graded puzzles, its wording branching on every count;
:func:`plot_time_split` and :func:`stage_words` split the CPU time of each solver's median
instance into its parts."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.formats import line_ranges
from sudosat.report.plots import COLOURS, PAGE_WIDTH_IN, ReportFigure, styled
from sudosat.report.tables import HARD_CONFLICTS, difficulty_table
from sudosat.run.results import DECIDED
from sudosat.sudoku.board import COURSE_EXAMPLE, Board

GRADED_INSTANCES = "data/instances.txt"
"""The report's own instance file, whose order-3 puzzles ``data/make_data.py`` chose by grade."""


def _graded_lines(boards: Mapping[int, Board]) -> list[int]:
    """Lines of order-3 puzzles other than the course's example whose givens do not clash."""
    example = Board.parse(COURSE_EXAMPLE)
    return sorted(
        line for line, board in boards.items()
        if board.order == 3 and board != example and board.is_consistent()
    )


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

_PART_LABELS = {
    "encode": "encode",
    "load": "load into the solver",
    "handover": "rest of the hand-over (this process)",
    "program": "the program besides its search",
    "search": "search",
    "solve": "solve (not split)",
    "decode": "decode",
}


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
    """Where the CPU time goes: per order, each solver's median instance with its parts stacked.

    Each bar is one real instance, the decided one of median total CPU time
    (:func:`median_instances`), so its parts (:data:`TIME_PARTS`) add up to
    the total written above it. Each panel has its own millisecond scale, so
    small orders stay readable beside large ones.

    Returns
    -------
    Figure
        One panel per order, in increasing order (one empty panel when nothing was decided).
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
