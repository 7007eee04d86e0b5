"""The solvers page: the measured cost of each component, our CDCL solver's source, and a
traced run of it.

The trace watches the real solver through its public observer hook
(``cdcl.Solver(cnf, observer=...)``): the solver calls ``decided`` on every
decision and ``learnt`` on every conflict it learns from, with signed DIMACS
literals, so nothing here reaches into the engine.
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.plots import COLOURS, MARKERS, new_figure, note_zeros, styled
from sudosat.report.reduction import variable_name
from sudosat.report.tables import HTML
from sudosat.words import and_join

if TYPE_CHECKING:
    from sudosat.sat.cnf import CNF

TRACE_COLUMNS = ("step", "event", "level", "literals", "meaning")
"""The columns of :func:`trace_cdcl`'s events."""

ENGINE_METHODS = ("propagate", "analyze")
"""The methods of :class:`sudosat.sat.solvers.cdcl.Engine` the page shows in full."""


def growth_exponents(costs: pd.DataFrame, largest: int = 2) -> pd.DataFrame:
    """The growth exponent k of time ∝ literals^k of each component, over the largest orders.

    At the small orders fixed costs per call (imports, set-up, the clock itself)
    outweigh the formula, so a fit from order 1 would read as sub-linear; the fit
    uses only the `largest` largest orders of :func:`component_costs`'s table at
    which the component took measurable time (a least-squares line through
    log time against log literals; with two orders, the slope between them).

    Parameters
    ----------
    costs : DataFrame
        :func:`sudosat.report.component_costs` output: index ``order``, a
        ``literals`` column and one ``<component> ms`` column each.
    largest : int
        How many of the largest orders the fit uses (at least 2).

    Returns
    -------
    DataFrame
        Index ``component``; columns ``first order``, ``last order``,
        ``orders`` (how many were fitted), ``first ms``, ``last ms`` and ``k``.
        A component with fewer than two measurable times among those orders,
        or whose orders all have the same size, is left out.
    """
    if largest < 2:
        raise ValueError(f"a growth exponent needs at least 2 orders, not {largest}")
    top = costs.sort_values("literals").iloc[-largest:]
    literals = top["literals"].astype(float)
    rows = []
    for column in (c for c in costs.columns if c.endswith(" ms")):
        times = top[column].astype(float)
        usable = (times > 0) & (literals > 0)
        if usable.sum() < 2 or literals[usable].nunique() < 2:
            continue
        slope = np.polyfit(np.log(literals[usable]), np.log(times[usable]), 1)[0]
        orders = times[usable].index
        rows.append(
            {
                "component": column.removesuffix(" ms"),
                "first order": int(orders[0]),
                "last order": int(orders[-1]),
                "orders": int(usable.sum()),
                "first ms": float(times[orders[0]]),
                "last ms": float(times[orders[-1]]),
                "k": float(slope),
            }
        )
    columns = ["component", "first order", "last order", "orders", "first ms", "last ms", "k"]
    return pd.DataFrame(rows, columns=columns).set_index("component")


def components_comment(costs: pd.DataFrame, largest: int = 2) -> str:
    """How each component's time grew with the formula, read from :func:`component_costs`.

    The growth exponent k in time ∝ literals^k is fitted over the `largest`
    largest orders measured (:func:`growth_exponents`), and the sentence names
    them; k near 1 is linear in the formula's size.
    """
    top = costs.sort_values("literals").iloc[-largest:]
    orders = [str(int(order)) for order in top.index]
    if len(orders) < 2:
        return f"Only order {and_join(orders)} was measured: no growth exponent can be fitted."
    fits = growth_exponents(costs, largest)
    sizes = [f"{int(n):,}" for n in top["literals"]]
    sentences = []
    for component, fit in fits.iterrows():
        where = (
            ""
            if int(fit["orders"]) == len(orders)
            else f", orders {int(fit['first order'])} to {int(fit['last order'])} only"
        )
        times = f"{fit['first ms']:.2f} → {fit['last ms']:.2f} ms"
        sentences.append(f"{component} {times} (k ≈ {fit['k']:.2f}{where})")
    skipped = [
        c.removesuffix(" ms")
        for c in costs.columns
        if c.endswith(" ms") and c.removesuffix(" ms") not in fits.index
    ]
    smaller = [str(int(order)) for order in costs.index if str(int(order)) not in orders]
    how = "the slope between them" if len(orders) == 2 else "a least-squares line"
    text = (
        f"The exponent k of time ∝ literals^k (k ≈ 1: linear in the formula; k near 0: "
        f"independent of it) is fitted over orders {and_join(orders)}, the {len(orders)} largest "
        f"measured ({and_join(sizes)} literals), {how} on log-log axes."
    )
    if smaller:
        text += (
            f" Order{'s' if len(smaller) > 1 else ''} {and_join(smaller)} "
            f"{'are' if len(smaller) > 1 else 'is'} left out of the fit, so that the fixed "
            "cost of each call, which does not grow with the formula, weighs less in it."
        )
    if sentences:
        text += " Each component's time over those orders: " + "; ".join(sentences) + "."
    if skipped:
        text += (
            f" No exponent for {and_join(skipped)}: fewer than two of those orders took "
            "measurable time."
        )
    return text


def harder_sentence(
    comparison: pd.DataFrame,
    givens: Mapping[str, int],
    puzzle: str,
    against: str,
    measures: Sequence[str] = ("decisions", "conflicts"),
) -> str:
    """Which solvers needed more search on `puzzle` than on `against`, read from the table.

    Parameters
    ----------
    comparison : DataFrame
        :func:`sudosat.report.solver_comparison` output (index puzzle, solver).
    givens : mapping of puzzle label -> number of givens
    puzzle, against : str
        The two puzzle labels compared.
    measures : sequence of str
        The counters compared; the puzzle is "harder" for a solver when every
        one of them is higher on `puzzle` than on `against`.

    Returns
    -------
    str
        The givens of each, each solver's counters on both, and the solvers
        for which `puzzle` is harder.
    """
    clauses, harder = [], []
    for solver in dict.fromkeys(comparison.index.get_level_values("solver")):
        mine, theirs = comparison.loc[(puzzle, solver)], comparison.loc[(against, solver)]
        known = [m for m in measures if not (pd.isna(mine[m]) or pd.isna(theirs[m]))]
        if not known:
            continue
        words = []
        for m in known:
            a, b = int(mine[m]), int(theirs[m])
            word = "more" if a > b else "fewer" if a < b else "as many"
            words.append(f"{word} {m} ({a:,} against {b:,})")
        clauses.append(f"{solver} needed " + " and ".join(words))
        if all(int(mine[m]) > int(theirs[m]) for m in known):
            harder.append(solver)
    verdict = (
        f"By these counters it is harder than the {against} for {and_join(harder)} only."
        if harder
        else f"By these counters it is harder than the {against} for none of the solvers."
    )
    if len(harder) == len(clauses) and harder:
        verdict = f"By these counters it is harder than the {against} for every solver."
    return (
        f"The {puzzle} has {givens[puzzle]} givens, the {against} {givens[against]}. "
        f"On the {puzzle}, against the {against}: " + "; ".join(clauses) + f". {verdict}"
    )


def rerun_caption(
    result: Any,
    comparison: pd.DataFrame,
    puzzle: str,
    solver: str = "cdcl",
    measures: Sequence[str] = ("decisions", "conflicts"),
) -> str:
    """The caption of a separate run of `solver` on `puzzle`, set against the table's run.

    The table (:func:`sudosat.report.solver_comparison`) and this run are
    separate runs of the same solver: the counters repeat when the search is
    deterministic, the wall-clock time does not. The caption gives both times
    and says whether the counters agree.

    Parameters
    ----------
    result : Result
        The separate run (``elapsed_ms`` and ``stats``).
    comparison : DataFrame
        The table (index puzzle, solver; ``solver ms`` and the `measures`).
    puzzle, solver : str
        The row of the table this run repeats.
    measures : sequence of str
        The counters compared.
    """
    from sudosat.report.tables import stats_sentence

    row = comparison.loc[(puzzle, solver)]
    same = all(
        m in result.stats and not pd.isna(row[m]) and int(result.stats[m]) == int(row[m])
        for m in measures
    )
    counters = " and ".join(f"{int(row[m]):,} {m}" for m in measures)
    agreement = (
        f"the same {counters} as the table's run; only the wall-clock time differs between runs"
        if same
        else f"the table's run had {counters}: the runs took different paths"
    )
    return (
        f"{puzzle.capitalize()}, solved again by {solver} in a run of its own (without the "
        f"trace's observer): {result.elapsed_ms:.1f} ms here, {float(row['solver ms']):.1f} ms "
        f"for the same solver and puzzle in the table above, with {agreement}. This run's "
        f"counters: {stats_sentence(result.stats)}"
    )


@styled
def plot_component_costs(costs: pd.DataFrame) -> Figure:
    """Time of each component against the number of literals, log-log, with a linear guide."""
    figure, ax = new_figure(7.0, 4.4)
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
            marker=MARKERS[k % len(MARKERS)],
            color=COLOURS[k % len(COLOURS)],
            label=column.removesuffix(" ms"),
        )
    note_zeros(ax, "0 ms", unmeasured, corner="upper left")
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
    ax.grid(True)
    ax.legend()
    return figure


class _Trace:
    """An observer of :class:`sudosat.sat.solvers.cdcl.Solver`: keeps the first events in words."""

    def __init__(self, name: Callable[[int], str], limit: int) -> None:
        self.name = name
        self.limit = limit
        self.events: list[dict[str, Any]] = []

    def _note(self, **event: Any) -> None:
        if len(self.events) < self.limit:
            self.events.append({"step": len(self.events) + 1, **event})

    def decided(self, literal: int, level: int, trail_size: int) -> None:
        """The solver decided `literal`, opening decision `level`."""
        self._note(
            event="decide",
            level=level,
            literals=str(literal),
            meaning=f"try {self.name(literal)}; trail holds {trail_size} literals",
        )

    def learnt(self, clause: list[int], backjump_level: int, level: int) -> None:
        """A conflict at `level` taught `clause`; the search goes back to `backjump_level`."""
        reading = " ∨ ".join(self.name(lit) for lit in clause)
        self._note(
            event="conflict",
            level=level,
            literals=" ".join(map(str, clause)),
            meaning=f"learn ({reading}), jump back to level {backjump_level}",
        )


def trace_cdcl(cnf: CNF, *, order: int | None = None, limit: int = 40) -> tuple[str, pd.DataFrame]:
    """Run our CDCL solver on `cnf` and record its decisions and conflicts.

    The solver is the real one (:class:`sudosat.sat.solvers.cdcl.Solver`), watched
    through its observer hook: each decision (literal and new level) and each
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
    from sudosat.sat.solvers import cdcl

    def name(lit: int) -> str:
        if order is None or abs(lit) > order**6:
            return str(lit)
        return ("¬" if lit < 0 else "") + variable_name(abs(lit), order)

    trace = _Trace(name, limit)
    result = cdcl.Solver(cnf, observer=trace).solve()
    return str(result.status), pd.DataFrame(trace.events, columns=list(TRACE_COLUMNS))


def engine_source(methods: Sequence[str] = ENGINE_METHODS) -> HTML:
    """The source of our CDCL engine's `methods`, as the solver runs them, in code blocks.

    Read with :func:`inspect.getsource` from :class:`sudosat.sat.solvers.cdcl.Engine`,
    so the page shows the code that produced the traced run, not a copy.
    """
    from sudosat.sat.solvers import cdcl

    blocks = []
    for method in methods:
        function = getattr(cdcl.Engine, method)
        source = inspect.getsource(function)
        lines = source.count("\n")
        path = "sudosat/" + function.__module__.split(".", 1)[1].replace(".", "/") + ".py"
        blocks.append(
            f"<details open><summary><code>Engine.{method}</code> "
            f"({lines} lines, <code>{path}</code>)</summary>"
            f'<pre class="sudosat-source"><code class="language-python">{html.escape(source)}'
            "</code></pre></details>"
        )
    return HTML(_SOURCE_STYLE + "".join(blocks))


_SOURCE_STYLE = (
    "<style>pre.sudosat-source{font-size:78%;line-height:1.3;background:#f7f7f7;"
    "padding:0.6em 0.8em;border-left:3px solid #ccc;overflow-x:auto;white-space:pre}</style>"
)
