"""The results page: how hard the instances were, and where the time goes.

:func:`instance_facts` reads the conflicts of the order-3 instances (the
figures of :func:`~sudosat.report.tables.difficulty_table`) and, for the
report's own instance file, which lines were chosen as graded puzzles;
:func:`stage_facts` and :func:`plot_time_split` split the time into its parts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.io import DECIDED
from sudosat.report.plots import COLOURS, panels, styled
from sudosat.report.tables import HARD_CONFLICTS, difficulty_table, time_split_table
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


TIME_PARTS = ("encode", "load", "handover", "search", "solve", "decode")
"""The parts of an instance's time that :func:`stage_facts` and :func:`plot_time_split` name.

Where the solver's own search time is known, the time between encoding and
decoding is its search and the hand-over (``overhead_ms``): for a solver in
this process, loading the clauses (``load``) and the rest of the hand-over
(``handover``: the median overhead less the median load), for a program the
whole hand-over (writing its input, starting it, reading its answer back).
Elsewhere that time is one part, ``solve``.
"""

_PART_LABELS = {
    "encode": "encode",
    "load": "load into the solver",
    "handover": "rest of the hand-over",
    "search": "search",
    "solve": "solve (not split)",
    "decode": "decode",
}


def _known_parts(row: pd.Series) -> dict[str, float]:
    """The median parts (ms) of one :func:`time_split_table` row, in run order (see TIME_PARTS)."""
    values = {part: row.get(f"{part} ms", math.nan) for part in TIME_PARTS}
    overhead = row.get("overhead ms", math.nan)
    values["handover"] = math.nan
    if not pd.isna(values["search"]) and not pd.isna(overhead):
        load = 0.0 if pd.isna(values["load"]) else values["load"]
        values["handover"] = max(overhead - load, 0.0)
        values["solve"] = math.nan
    else:
        values["load"] = values["search"] = math.nan
    return {part: float(value) for part, value in values.items() if not pd.isna(value)}


@dataclass(frozen=True)
class StageFacts:
    """The largest part of the time of one solver at one order.

    Attributes
    ----------
    solver : str
    order : int
    part : str
        One of :data:`TIME_PARTS`.
    share : float
        The part's median as a share (0..1) of the median total.
    total_ms : float
        The median total.
    """

    solver: str
    order: int
    part: str
    share: float
    total_ms: float


def stage_facts(results: pd.DataFrame) -> list[StageFacts]:
    """Per solver and order, the largest part of the time (empty when nothing was decided).

    The parts are those :func:`plot_time_split` draws, from :func:`time_split_table`,
    each a median over the decided instances, as a share of the median total.
    """
    facts = []
    for _, row in time_split_table(results).iterrows():
        known = _known_parts(row)
        total = row["total ms"]
        if not known or not total or pd.isna(total):
            continue
        top = max(known, key=lambda part: known[part])
        facts.append(StageFacts(str(row["solver"]), int(row["order"]), top,
                                known[top] / float(total), float(total)))
    return facts


@styled
def plot_time_split(results: pd.DataFrame) -> Figure:
    """Where the time goes: the median parts of :func:`time_split_table`, one panel per order.

    Each panel has its own millisecond scale, so small orders stay readable
    beside large ones. A bar stacks, for one solver, the medians of the parts
    of :data:`TIME_PARTS`; a black tick marks the median total, of which
    :func:`stage_facts` takes shares.

    Returns
    -------
    Figure
        One panel per order, in increasing order (one empty panel when nothing was decided).
    """
    table = time_split_table(results)
    orders = sorted(table["order"].unique())
    figure, axes = panels(len(orders), width=max(3.6, 7.2 / max(len(orders), 1)), height=4.4)
    colours = {part: COLOURS[(k + 2) % len(COLOURS)] for k, part in enumerate(TIME_PARTS)}
    colours["handover"] = "#b0b0b0"  # a remainder, not a step of its own
    drawn: set[str] = set()
    for ax, order in zip(axes, orders, strict=False):
        rows = table[table["order"] == order].reset_index(drop=True)
        for x, row in rows.iterrows():
            bottom = 0.0
            for part, value in _known_parts(row).items():
                label = None if part in drawn else _PART_LABELS[part]
                drawn.add(part)
                ax.bar(x, value, bottom=bottom, color=colours[part], width=0.6, label=label)
                bottom += value
            label = None if "total" in drawn else "median total"
            drawn.add("total")
            ax.plot([x - 0.38, x + 0.38], [row["total ms"]] * 2, color="black", lw=1.5, label=label)
        names = [f"{r.solver}\n{_instances(int(r.instances))}" for r in rows.itertuples()]
        ax.set_xticks(range(len(rows)), names, fontsize=8)
        ax.set_title(f"order {order}")
        ax.set_xlabel("solver and instances decided")
        ax.grid(True, axis="y")
    axes[0].set_ylabel("median time per instance (ms)")
    figure.suptitle("Where the time goes, per order (own scale per panel)")
    if drawn:
        figure.legend(loc="outside lower center", ncols=min(len(drawn), 4))
    return figure


def _instances(count: int) -> str:
    return f"{count} instance" if count == 1 else f"{count} instances"

