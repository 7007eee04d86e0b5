"""The reduction page: the variables, the course encoding's clause families counted three
ways (formula, encoder, clause shape), the order-2 example as CNF, the encodings side by side.

The family formulas are the encoder's own: a family of at-most-one groups has
``amo_size`` clauses per group, the function :mod:`sudosat.sudoku.encoding` sizes its
encodings with, and their total is checked against :func:`sudosat.sudoku.encoding.estimate`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.clocks import Stopwatch, clock_facts
from sudosat.report.formats import and_join, ratio
from sudosat.report.io import read_instances
from sudosat.report.plots import (
    COLOURS,
    MARKERS,
    PAGE_WIDTH_IN,
    legend_outside,
    new_figure,
    note_zeros,
    styled,
    tidy_log_ticks,
)
from sudosat.report.tables import HTML, table
from sudosat.sat.amo import amo_size
from sudosat.sat.solvers.dpll import simplify
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import ENCODINGS, cell_of, encode, estimate

if TYPE_CHECKING:
    from sudosat.sat.cnf import CNF

COURSE_FAMILIES = ENCODINGS["course"].families
"""The course encoding's clause families, in the order it writes them.

:data:`sudosat.sudoku.encoding.FAMILIES` holds every family any encoding writes
(coverage too); this page is about the course encoding's four."""

RULE_FAMILIES = tuple(family for family in COURSE_FAMILIES if family != "givens")
"""The course families that hold for every board (the givens depend on the instance)."""


def formula_counts(order: int, givens: int = 0) -> dict[str, int]:
    """The clause count of each family of the course encoding, by the encoding's formulas.

    N⁴ cells each get one completeness clause and one at-most-one group
    (uniqueness); the 3·N² units each get one group per symbol (validity); a
    group of n literals has ``amo_size(method, n)`` clauses, (n² − n) / 2 for
    the course's pairwise method.
    """
    size = order * order
    pairs = amo_size(ENCODINGS["course"].amo, size)[1]
    return {
        "completeness": size * size,
        "uniqueness": size * size * pairs,
        "validity": 3 * size * size * pairs,
        "givens": givens,
    }


def classify_clause(clause: Sequence[int], order: int) -> str:
    """Which family of the course encoding a clause belongs to, by its shape: completeness (all
    positive), givens (a positive unit), uniqueness (two negative literals on one cell),
    validity (two negative literals with one symbol on two cells), else ``other``."""
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
    """Clauses per family of the course encoding for each order (the index): the formula's count
    and the encoder's count of an empty board up to `build_up_to` (empty above), then variables
    (N⁶), the formulas' total and the encoder's own estimate of it (:func:`estimate`)."""
    rows = []
    for order in orders:
        row: dict[str, Any] = {"order": order, "variables": order**6}
        expected = formula_counts(order)
        built = built_family_counts(order) if order <= build_up_to else None
        for family in RULE_FAMILIES:
            row[f"{family} (formula)"] = expected[family]
            row[f"{family} (built)"] = built[family] if built else pd.NA
        row["total (formula)"] = sum(expected.values())
        row["total (estimate)"] = estimate(Board.empty(order), "course")["clauses"]
        rows.append(row)
    return pd.DataFrame(rows).set_index("order").astype("Int64")


def built_family_counts(order: int, board: Board | None = None) -> dict[str, int]:
    """The course encoding's clauses per family, as the encoder counted them while building
    (the CNF is built in full: order 6, 3.3 million clauses, takes about a second)."""
    encoded = encode(board or Board.empty(order), "course")
    counts = dict.fromkeys(COURSE_FAMILIES, 0)
    counts.update(encoded.family_counts)
    return counts


def classified_family_counts(order: int, board: Board | None = None) -> dict[str, int]:
    """The course encoding's clauses per family, found again by classifying every clause."""
    encoded = encode(board or Board.empty(order), "course")
    counts = dict.fromkeys((*COURSE_FAMILIES, "other"), 0)
    for clause in encoded.cnf:
        counts[classify_clause(clause, order)] += 1
    return counts


def family_mismatches(table: pd.DataFrame) -> list[str]:
    """Every disagreement in :func:`family_table`: a built count against its formula, or the
    formulas' total against the encoder's estimate."""
    wrong = []
    for order, row in table.iterrows():
        for family in RULE_FAMILIES:
            built = row[f"{family} (built)"]
            if not pd.isna(built) and built != row[f"{family} (formula)"]:
                wrong.append(f"order {order} {family}: built {built}, "
                             f"formula {row[f'{family} (formula)']}")
        if "total (estimate)" in row and row["total (estimate)"] != row["total (formula)"]:
            wrong.append(f"order {order} total: formulas {row['total (formula)']}, "
                         f"estimate {row['total (estimate)']}")
    return wrong


def classification_check(orders: Iterable[int] = (2, 3)) -> pd.DataFrame:
    """Per order and family: the formula, the encoder's count, and the count by clause shape."""
    rows = []
    for order in orders:
        expected = formula_counts(order)
        built = built_family_counts(order)
        classified = classified_family_counts(order)
        for family in (*RULE_FAMILIES, "other"):  # a clause of no family: none by formula
            rows.append({"order": order, "family": family, "formula": expected.get(family, 0),
                         "encoder": built.get(family, 0), "by clause shape": classified[family]})
    return pd.DataFrame(rows).set_index(["order", "family"])


@styled
def plot_family_counts(table: pd.DataFrame) -> Figure:
    """Clauses per family against the order, log scale: formula as lines, built counts as dots."""
    figure, ax = new_figure(PAGE_WIDTH_IN, 4.0)
    orders = list(table.index)
    zeros = []
    for k, family in enumerate(RULE_FAMILIES):
        colour = COLOURS[k]
        formula = table[f"{family} (formula)"].astype(float)
        # a log scale has no 0 (order 1 has no pairs): such a count is left out, and said so
        zeros += [f"{family} at N={order}" for order in formula.index[formula <= 0]]
        ax.plot(orders, formula.where(formula > 0), color=colour, marker=".",
                label=f"{family} (formula)")
        built = table[f"{family} (built)"].dropna()
        built = built[built > 0]
        ax.scatter(list(built.index), built.astype(float), color=colour, marker="o", s=36,
                   facecolors="none", label=f"{family} (counted in the built CNF)")
    ax.plot(orders, table["variables"].astype(float), color="#555", linestyle="--",
            label="variables (N⁶)")
    note_zeros(ax, "0 clauses", zeros)
    ax.set_yscale("log")
    ax.set_xticks(orders)
    ax.set_xlabel("order N (the board is N² × N²)")
    ax.set_ylabel("count (log scale)")
    ax.set_title("Course encoding: clauses per family")
    ax.grid(True)
    tidy_log_ticks(ax)
    legend_outside(ax)
    return figure


def variable_name(var: int, order: int) -> str:
    """``x(r,c,d)`` with 1-based row and column, the way a reader counts cells."""
    i, j, d = cell_of(var, order)
    return f"x(r{i + 1},c{j + 1},{d})"


def numbering_table(order: int, limit: int = 12) -> pd.DataFrame:
    """The first `limit` variables of the course numbering: number, cell, symbol, formula."""
    rows = []
    n2, n4 = order**2, order**4
    for var in range(1, min(limit, order**6) + 1):
        i, j, d = cell_of(var, order)
        formula = f"{i}·{n4} + {j}·{n2} + {d} = {i * n4 + j * n2 + d}"
        rows.append({"variable": var, "name": variable_name(var, order), "row r": i + 1,
                     "column c": j + 1, "symbol d": d, "(r−1)·N⁴ + (c−1)·N² + d": formula})
    return pd.DataFrame(rows)


def cnf_listing(cnf: CNF, order: int, shown: int = 3) -> HTML:
    """A short excerpt of a course-encoded CNF: per family its first `shown` clauses in DIMACS
    (each ending in 0) and read with the variable names x(r,c,d), then how many are not shown."""
    groups: dict[str, list[list[int]]] = {family: [] for family in (*COURSE_FAMILIES, "other")}
    for clause in cnf:
        groups[classify_clause(clause, order)].append(list(clause))
    rows = []
    for family, clauses in groups.items():
        for k, clause in enumerate(clauses[:shown]):
            reading = " ∨ ".join(("¬" if lit < 0 else "") + variable_name(abs(lit), order)
                                 for lit in clause)
            rows.append({"family": family if k == 0 else "",
                         "DIMACS": " ".join(map(str, clause)) + " 0", "read as": reading})
        if len(clauses) > shown:
            rows.append({"family": "", "DIMACS": f"… and {len(clauses) - shown:,} more",
                         "read as": ""})
    header = (f"<p>The header <code>p cnf {cnf.num_vars} {len(cnf)}</code>: "
              f"{cnf.num_vars:,} variables, {len(cnf):,} clauses.</p>")
    return HTML(header + str(table(pd.DataFrame(rows))))


def model_words(status: object, model: Sequence[int], order: int, shown: int = 6) -> str:
    """A solver's answer on a course-numbered board: how many of the model's variables are true,
    the first `shown` of them named ``x(r,c,d)`` (rows and columns from 1)."""
    true = [lit for lit in model if lit > 0]
    named = ", ".join(variable_name(v, order) for v in true[:shown])
    more = f" and {len(true) - shown} more" if len(true) > shown else ""
    return f"{status}: {len(true)} of {len(model)} variables are true: {named}{more}."


def decided_by_propagation(cnf: CNF) -> bool:
    """True when the formula is decided without a decision (a conflict, or every clause
    satisfied) by :func:`sudosat.sat.solvers.dpll.simplify`'s unit propagation to a fixpoint
    and pure-literal rule."""
    simplified = simplify(cnf)
    return simplified is not None and (simplified.refuted or not simplified.clauses)


def encodings_table(boards: Sequence[Board], encodings: Sequence[str]) -> pd.DataFrame:
    """The encodings (the index) side by side over the same boards: median variables, clauses
    and literals per board, median milliseconds to build on both clocks (a later board's: the
    first also builds the rule clauses the later ones copy), the boards, and how many of them
    unit propagation decides without search."""
    rows = []
    for name in encodings:
        sizes, cpu_ms, wall_ms, decided = [], [], [], 0
        for board in boards:
            watch = Stopwatch()
            encoded = watch.run("encode", encode, board, name)
            cpu_ms.append(watch.cpu_ms["encode"])
            wall_ms.append(watch.wall_ms["encode"])
            cnf = encoded.cnf
            sizes.append((cnf.num_vars, len(cnf), cnf.num_literals))
            given = bool(getattr(encoded, "decided_by_givens", False))
            decided += given or decided_by_propagation(cnf)
        frame = pd.DataFrame(sizes, columns=["variables", "clauses", "literals"])
        rows.append({"encoding": name, **frame.median().round().astype(int).to_dict(),
                     BUILD_CPU: round(float(pd.Series(cpu_ms).median()), 3),
                     BUILD_WALL: round(float(pd.Series(wall_ms).median()), 3),
                     "boards": len(boards), "decided by propagation": decided})
    return pd.DataFrame(rows).set_index("encoding")


BUILD_CPU, BUILD_WALL = "build CPU ms (median)", "build wall ms (median)"
"""The columns of :func:`encodings_table` that time the build, one per clock."""


def build_clock_words(comparison: pd.DataFrame) -> str:
    """Wall-clock against CPU time of the builds of :func:`encodings_table` (its medians): whether
    the machine was busy (empty when no build took measurable CPU time)."""
    clocks = clock_facts(zip(comparison[BUILD_WALL], comparison[BUILD_CPU], strict=True))
    if clocks.ratio is None:
        return ""
    state = "busy: other programs had the CPU" if clocks.busy else "quiet"
    return (f"**Wall against CPU time.** The builds took {ratio(clocks.ratio)} times as long on "
            f"the wall clock as on CPU (all the encodings together): the machine was {state}. The "
            "build times compared here are CPU times, which a busy machine inflates far less than "
            "wall time.")


def order3_sample(instances: str, count: int) -> list[Board]:
    """At most `count` consistent order-3 boards of an instance file, taken evenly across it."""
    boards = [b for b in read_instances(instances).values() if b.order == 3 and b.is_consistent()]
    return spread(boards, count)


def spread(items: Sequence[Any], count: int) -> list[Any]:
    """At most `count` items taken evenly across `items` (first and last included when possible)."""
    if count >= len(items):
        return list(items)
    if count <= 1:
        return list(items[:count])
    step = (len(items) - 1) / (count - 1)
    return [items[round(k * step)] for k in range(count)]


@styled
def plot_encodings(comparison: pd.DataFrame) -> Figure:
    """Median variables, clauses and literals of each encoding, side by side on a log scale.

    Each count is a marker, not a bar: a log scale has no zero for a bar to
    start from, so a bar's length would show where the axis happens to begin.
    """
    figure, ax = new_figure(PAGE_WIDTH_IN, 3.0)
    measures = ("variables", "clauses", "literals")
    width = 0.8 / len(measures)
    positions = range(len(comparison))
    for k, measure in enumerate(measures):
        ax.plot([p + (k - 1) * width for p in positions], comparison[measure].astype(float),
                linestyle="none", marker=MARKERS[k], markersize=7, color=COLOURS[k], label=measure)
    ax.set_xticks(list(positions), list(comparison.index))
    ax.set_yscale("log")
    ax.set_xlabel("encoding")
    ax.set_ylabel("median count per board (log scale)")
    ax.set_title("Size of each encoding on the same order-3 boards")
    ax.grid(True, axis="y")
    tidy_log_ticks(ax)
    legend_outside(ax)
    return figure


def ratios_sentence(comparison: pd.DataFrame, reference: str = "course") -> str:
    """Every encoding of :func:`encodings_table` against `reference` in two sentences: sizes, then
    boards decided by propagation alone (empty when `reference` is not in the table).

    Each fact is said once: the sizes name every other encoding against the reference, and
    encodings that propagation decides equally often are named together, so no clause of the
    text repeats another.
    """
    if reference not in comparison.index:
        return ""
    base = comparison.loc[reference]
    others = [str(name) for name in comparison.index if name != reference]
    sizes = "; ".join(
        f"{name} has {float(comparison.loc[name, 'clauses'] / base['clauses']):.2f} times its "
        f"clauses and {float(comparison.loc[name, 'variables'] / base['variables']):.2f} times "
        "its variables"
        for name in others
    )
    by_count: dict[tuple[int, int], list[str]] = {}
    for name in (reference, *others):
        row = comparison.loc[name]
        key = (int(row["decided by propagation"]), int(row["boards"]))
        by_count.setdefault(key, []).append(name)
    decided = "; ".join(
        f"{and_join(names)}: {count} of {boards}" for (count, boards), names in by_count.items()
    )
    head = f"Against the {reference} encoding, {sizes}. " if others else ""
    return f"{head}Boards that propagation alone decides, per encoding: {decided}."
