"""The results page: how hard the instances were, and where the time goes.

:func:`instance_facts` reads the conflicts of the order-3 instances (the
figures of :func:`~sudosat.report.tables.difficulty_table`) and, for the
report's own instance file, which lines were chosen as graded puzzles
(:func:`difficulty_words` says so, its wording branching on every count);
:func:`stage_facts` and :func:`plot_time_split` split the CPU time of each solver's
median instance into its parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ConflictFacts:
    """Conflict counts of a set of decided instances, rounded as the difficulty table shows them.

    Attributes
    ----------
    instances : int
    least, most : int
    median : float
    hard : int
        How many needed more than `threshold` conflicts.
    threshold : int
        :data:`~sudosat.report.tables.HARD_CONFLICTS`, the difficulty table's bound.
    """

    instances: int
    least: int
    most: int
    median: float
    hard: int
    threshold: int = HARD_CONFLICTS


@dataclass(frozen=True)
class InstanceFacts:
    """How hard the order-3 instances of a run were for one solver.

    Attributes
    ----------
    solver : str
    graded_lines : tuple of int
        In the report's own file (:data:`GRADED_INSTANCES`, its boards given):
        the order-3 puzzles other than the course's example whose givens do not
        clash, the ones ``data/make_data.py`` chose by grade (empty for any other file).
    clashing_lines : tuple of int
        In the own file: the boards whose givens clash (the UNSAT path).
    order3 : ConflictFacts or None
        Every order-3 instance the solver decided (None: none decided).
    graded : ConflictFacts or None
        The graded lines alone (None: none of them decided).
    graded_order_kept : bool or None
        Whether this run's conflicts on the graded lines keep the file's
        easiest-first order (None without graded lines decided).
    """

    solver: str
    graded_lines: tuple[int, ...]
    clashing_lines: tuple[int, ...]
    order3: ConflictFacts | None
    graded: ConflictFacts | None
    graded_order_kept: bool | None


def instance_facts(
    results: pd.DataFrame,
    instances: str | None,
    solver: str = "cdcl",
    *,
    boards: Mapping[int, Board] | None = None,
) -> InstanceFacts:
    """The :class:`InstanceFacts` of `solver` in a run that read `instances` (its `boards`).

    The order-3 figures are :func:`difficulty_table`'s (same data, same
    rounding). The grades of the own file were taken with the ``cdcl`` of the
    day the file was written, which a later solver need not reproduce:
    ``graded_order_kept`` says whether it does.
    """
    own = bool(instances) and Path(str(instances)).as_posix().endswith(GRADED_INSTANCES)
    own = own and bool(boards)
    graded = _graded_lines(boards) if own and boards else []
    clashing = (sorted(line for line, b in boards.items() if not b.is_consistent())
                if own and boards else [])
    table = difficulty_table(results)
    row = table[(table["solver"] == solver) & (table["order"] == 3)]
    order3 = None
    if not row.empty and not pd.isna(row["median conflicts"].iloc[0]):
        first = row.iloc[0]
        order3 = ConflictFacts(int(first["instances"]), int(first["least conflicts"]),
                               int(first["most conflicts"]), float(first["median conflicts"]),
                               int(first[f"more than {HARD_CONFLICTS}"]))
    decided = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
    mine = decided[decided["line"].isin(graded)].sort_values("line")["conflicts"].dropna()
    graded_facts = None
    if len(mine):
        graded_facts = ConflictFacts(len(mine), int(mine.min()), int(mine.max()),
                                     float(mine.median()), int((mine > HARD_CONFLICTS).sum()))
    return InstanceFacts(
        solver=solver,
        graded_lines=tuple(graded),
        clashing_lines=tuple(clashing),
        order3=order3,
        graded=graded_facts,
        graded_order_kept=bool(mine.is_monotonic_increasing) if len(mine) else None,
    )


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


@dataclass(frozen=True)
class StageFacts:
    """The largest part of the time of one solver's median instance at one order.

    Attributes
    ----------
    solver : str
    order : int
    line : int
        The median instance (:func:`median_instances`).
    part : str
        One of :data:`TIME_PARTS`.
    share : float
        The part's share (0..1) of the instance's total CPU time.
    total_cpu_ms : float
        That total.
    """

    solver: str
    order: int
    line: int
    part: str
    share: float
    total_cpu_ms: float


def stage_facts(results: pd.DataFrame) -> list[StageFacts]:
    """Per solver and order, the largest part of its median instance's CPU time (empty when
    nothing was decided): what :func:`plot_time_split` draws."""
    facts = []
    for _, row in median_instances(results).iterrows():
        parts = instance_parts(row)
        total = float(row["total_cpu_ms"])
        if not parts or total <= 0:
            continue
        top = max(parts, key=lambda part: parts[part])
        facts.append(StageFacts(str(row["solver"]), int(row["order"]), int(row["line"]), top,
                                parts[top] / total, total))
    return facts


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


def _conflict_words(c: ConflictFacts, one: str, many: str) -> str:
    """Conflict counts as the difficulty table rounds them (a sentence's end)."""
    if c.instances == 1:
        return f"needed {c.least:,} conflicts on the one {one}."
    return (f"needed from {c.least:,} to {c.most:,} conflicts on the {c.instances:,} {many} "
            f"(median {c.median:,.1f}); {c.hard:,} of the {c.instances:,} needed more than "
            f"{c.threshold}.")


def difficulty_words(hard: InstanceFacts) -> str:
    """The results page's paragraph on how hard the instances were, from :func:`instance_facts`.

    Where the graded puzzles come from (the report's own file only), the clashing
    boards, and the conflicts of the order-3 instances, the graded ones apart unless
    their figures are the same; the wording branches on each of them.
    """
    text = ""
    if hard.graded_lines:
        text += (
            f"The order-3 puzzles on {line_ranges(hard.graded_lines)} of `{GRADED_INSTANCES}` "
            "are minimal puzzles with exactly one solution (no given can be removed without "
            "allowing a second one), made by `data/make_data.py` with the project's generator "
            "from a fixed seed and chosen from a larger batch by the conflicts `cdcl` needed on "
            "them when the file was written: half are the hardest of the batch, half spread "
            "evenly over the other grades (`data/README.md` gives the numbers). ")
    if hard.clashing_lines:
        holds = "holds a board" if len(hard.clashing_lines) == 1 else "hold boards"
        text += (f"{line_ranges(hard.clashing_lines).capitalize()} {holds} whose givens clash, "
                 "there for the UNSAT path (see the end of the page). ")
    if hard.order3 is None:
        return text + f"No order-3 instance was decided by {hard.solver} in this run."
    text += f"In this run {hard.solver} " + _conflict_words(
        hard.order3, "instance of order 3 it decided", "instances of order 3 it decided")
    if hard.graded is None:
        return text
    figures = [(c.least, c.most, c.median, c.hard) for c in (hard.graded, hard.order3)]
    if figures[0] == figures[1]:  # said once: the same figures, not the same sentence
        text += (f" The {hard.graded.instances:,} graded puzzles alone "
                 f"({line_ranges(hard.graded_lines)}) give the same figures.")
    else:
        text += (f" On the graded puzzles alone ({line_ranges(hard.graded_lines)}) it "
                 + _conflict_words(hard.graded, "graded puzzle it decided",
                                   "graded puzzles it decided"))
    kept = "keep" if hard.graded_order_kept else "do not keep"
    return text + (" The file lists them easiest first by the grades `cdcl` gave when it was "
                   f"written; this run's counts {kept} that order.")
