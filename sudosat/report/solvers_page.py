"""The solvers page: the measured cost of each component, the solvers' counters on two
puzzles, our CDCL solver's source, and a traced run of it.

The trace watches the real solver through its public observer hook
(``cdcl.Solver(cnf, observer=...)``): the solver calls ``decided`` on every
decision and ``learnt`` on every conflict it learns from, with signed DIMACS
literals, so nothing here reaches into the engine.
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.clocks import ClockFacts, Stopwatch, clock_facts
from sudosat.report.formats import and_join
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
from sudosat.report.reduction import variable_name
from sudosat.report.tables import HTML
from sudosat.sudoku.board import Board

if TYPE_CHECKING:
    from sudosat.sat.cnf import CNF

TRACE_COLUMNS = ("step", "event", "level", "literals", "meaning")
"""The columns of :func:`trace_cdcl`'s events."""

ENGINE_METHODS = ("propagate", "analyze")
"""The methods of :class:`sudosat.sat.solvers.cdcl.Engine` the page shows in full."""


def solver_comparison(
    puzzles: Mapping[str, str], solvers: Sequence[str], time_limit_ms: float = 30_000
) -> pd.DataFrame:
    """Each solver's answer, CPU time and counters on each puzzle (course encoding, T on the
    solver); ``solver wall ms`` beside it gives the run's wall-clock time."""
    from sudosat.run.runner import prepare, run_instance

    rows = []
    for label, line in puzzles.items():
        board = Board.parse(line)
        prepared = prepare(board, "course")  # built once, shared by the solvers
        for solver in solvers:
            outcome = run_instance(board, solver, prepared, time_limit_ms, limit_covers="solver")
            done = outcome.row
            rows.append(
                {
                    "puzzle": label,
                    "solver": solver,
                    "answer": str(done.status),
                    "solver CPU ms": round(done.solve_cpu_ms or 0.0, 1),
                    "solver wall ms": round(done.solve_wall_ms or 0.0, 1),
                    **{
                        k: pd.NA if done[k] is None else int(done[k])
                        for k in ("decisions", "propagations", "conflicts")
                    },
                }
            )
    return pd.DataFrame(rows).set_index(["puzzle", "solver"])


COMPONENTS = ("encoder", "DIMACS writer", "parser", "solver", "decoder", "check")
"""The components :func:`component_costs` times, in the order the pipeline runs them."""

COST_SUFFIX = " CPU ms"
"""The suffix of a component's column in :func:`component_costs`'s table: its CPU time."""


@dataclass(frozen=True)
class ComponentCosts:
    """The components' CPU times per order, the clocks' agreement, the first encode's cost.

    Attributes
    ----------
    table : DataFrame
        Index ``order``; givens, variables, clauses, literals, then one
        ``<component> CPU ms`` column each (:data:`COMPONENTS`).
    clocks : ClockFacts
        Wall-clock against CPU time over every call timed.
    first_encode : tuple of (order, CPU ms)
        The first encode of each order, which also builds the rule clauses that every
        later board of the order copies; the table's encoder time is a later one.
    """

    table: pd.DataFrame
    clocks: ClockFacts
    first_encode: tuple[tuple[int, float], ...]

    def first_encode_ms(self, order: int) -> float | None:
        """The CPU ms of the first encode of `order` (None: not measured)."""
        return dict(self.first_encode).get(order)


def component_costs(
    orders: Iterable[int] = (1, 2, 3, 4), alpha: float = 0.5, solver: str = "cdcl", seed: int = 0
) -> ComponentCosts:
    """Time each component of the pipeline on one generated board per order, on CPU time.

    Components (:data:`COMPONENTS`): encoder (board -> CNF), DIMACS writer,
    parser (DIMACS -> CNF), solver, decoder (model -> board) and the rules
    check. The sizes (variables, clauses, literals) let a reader set each
    time against the input it is linear in. The encoder's time is that of a
    board whose order was encoded before: the first encode of an order
    builds the rule clauses, which every later one copies (its time is kept
    apart, in ``first_encode``). CPU time does not depend on what else runs on
    the machine; the wall-clock time of the same calls is kept to compare.
    """
    from sudosat.run.generate import generate
    from sudosat.sat.cnf import parse_dimacs
    from sudosat.sat.solvers import solve
    from sudosat.sudoku.board import check_solution
    from sudosat.sudoku.encoding import clear_rules_cache, encode

    rows, first, watches = [], [], []
    boards = {order: generate(order, alpha, seed=seed) for order in orders}
    clear_rules_cache()  # generating encodes too: the first encode of each order is timed here
    for order, board in boards.items():
        building = Stopwatch()
        building.run("first encode", encode, board, "course")
        first.append((order, building.cpu_ms["first encode"]))
        watch = Stopwatch()
        encoded = watch.run("encoder", encode, board, "course")
        cnf = encoded.cnf
        text = watch.run("DIMACS writer", cnf.to_dimacs)
        watch.run("parser", parse_dimacs, text, "<memory>")
        result = watch.run("solver", solve, cnf, solver)
        decoded = watch.run("decoder", encoded.decode, result.model) if result.model else None
        if decoded is not None:
            watch.run("check", check_solution, board, decoded)
        watches += [building, watch]
        rows.append(
            {
                "order": order,
                "givens": board.num_givens,
                "variables": cnf.num_vars,
                "clauses": len(cnf),
                "literals": cnf.num_literals,
                **{f"{name}{COST_SUFFIX}": round(watch.cpu_ms.get(name, 0.0), 4)
                   for name in COMPONENTS},
            }
        )
    clocks = clock_facts((w.wall_ms[name], w.cpu_ms[name]) for w in watches for name in w.wall_ms)
    return ComponentCosts(pd.DataFrame(rows).set_index("order"), clocks, tuple(first))


def cost_columns(costs: pd.DataFrame) -> list[str]:
    """The component columns of a :func:`component_costs` table, in its order."""
    return [c for c in costs.columns if c.endswith(COST_SUFFIX)]


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
        :func:`component_costs` output: index ``order``, a
        ``literals`` column and one ``<component> CPU ms`` column each.
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
    for column in cost_columns(costs):
        times = top[column].astype(float)
        usable = (times > 0) & (literals > 0)
        if usable.sum() < 2 or literals[usable].nunique() < 2:
            continue
        slope = np.polyfit(np.log(literals[usable]), np.log(times[usable]), 1)[0]
        orders = times[usable].index
        rows.append(
            {
                "component": column.removesuffix(COST_SUFFIX),
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


@dataclass(frozen=True)
class ComponentGrowth:
    """How the components' times grew with the formula over the largest orders measured.

    Attributes
    ----------
    orders : tuple of int
        The orders the fit uses (the `largest` largest measured); fewer than
        two means no exponent could be fitted.
    literals : tuple of int
        The literals of those orders' formulas.
    left_out : tuple of int
        The smaller orders measured but not fitted (their fixed costs per call
        would weigh in the fit).
    fits : tuple of ComponentFit
        One per component with at least two measurable times among `orders`.
    unfitted : tuple of str
        The components without one.
    """

    orders: tuple[int, ...]
    literals: tuple[int, ...]
    left_out: tuple[int, ...]
    fits: tuple[ComponentFit, ...]
    unfitted: tuple[str, ...]


@dataclass(frozen=True)
class ComponentFit:
    """One component's growth exponent k in time ∝ literals^k (:func:`growth_exponents`).

    ``orders`` is how many orders were fitted, ``first_order`` .. ``last_order``
    the first and last of them, with the times there.
    """

    component: str
    k: float
    orders: int
    first_order: int
    last_order: int
    first_ms: float
    last_ms: float


def component_growth(costs: pd.DataFrame, largest: int = 2) -> ComponentGrowth:
    """The :class:`ComponentGrowth` of a :func:`component_costs` table over its `largest` orders."""
    top = costs.sort_values("literals").iloc[-largest:]
    orders = tuple(int(order) for order in top.index)
    components = [c.removesuffix(COST_SUFFIX) for c in cost_columns(costs)]
    fits: tuple[ComponentFit, ...] = ()
    if len(orders) >= 2:
        table = growth_exponents(costs, largest)
        fits = tuple(
            ComponentFit(str(name), float(row["k"]), int(row["orders"]), int(row["first order"]),
                         int(row["last order"]), float(row["first ms"]), float(row["last ms"]))
            for name, row in table.iterrows()
        )
    fitted = {fit.component for fit in fits}
    return ComponentGrowth(
        orders=orders,
        literals=tuple(int(n) for n in top["literals"]),
        left_out=tuple(int(order) for order in costs.index if int(order) not in orders),
        fits=fits,
        unfitted=tuple(c for c in components if c not in fitted) if len(orders) >= 2 else (),
    )


@dataclass(frozen=True)
class SolverCounters:
    """One solver's counters on two puzzles: (measure, on the puzzle, on the other) each."""

    solver: str
    counters: tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class HarderFacts:
    """Which solvers needed more search on one puzzle than on another.

    Attributes
    ----------
    puzzle, against : str
        The two puzzle labels.
    puzzle_givens, against_givens : int
    solvers : tuple of SolverCounters
        Each solver that reports the counters, with its counts on both.
    harder : tuple of str
        The solvers for which every counter is higher on `puzzle`.
    """

    puzzle: str
    against: str
    puzzle_givens: int
    against_givens: int
    solvers: tuple[SolverCounters, ...]
    harder: tuple[str, ...]

    @property
    def harder_for_every_solver(self) -> bool:
        """True when the puzzle is harder for every solver that reports the counters."""
        return bool(self.harder) and len(self.harder) == len(self.solvers)


def harder_facts(
    comparison: pd.DataFrame,
    givens: Mapping[str, int],
    puzzle: str,
    against: str,
    measures: Sequence[str] = ("decisions", "conflicts"),
) -> HarderFacts:
    """The :class:`HarderFacts` of :func:`solver_comparison`'s table for `puzzle` and `against`.

    A solver counts only with the `measures` it reports on both puzzles; the
    puzzle is harder for it when every one of them is higher on `puzzle`.
    """
    solvers, harder = [], []
    for solver in dict.fromkeys(comparison.index.get_level_values("solver")):
        mine, theirs = comparison.loc[(puzzle, solver)], comparison.loc[(against, solver)]
        known = [m for m in measures if not (pd.isna(mine[m]) or pd.isna(theirs[m]))]
        if not known:
            continue
        counters = tuple((m, int(mine[m]), int(theirs[m])) for m in known)
        solvers.append(SolverCounters(str(solver), counters))
        if all(a > b for _, a, b in counters):
            harder.append(str(solver))
    return HarderFacts(puzzle, against, int(givens[puzzle]), int(givens[against]),
                       tuple(solvers), tuple(harder))


@dataclass(frozen=True)
class RerunFacts:
    """A separate run of a solver on a puzzle of :func:`solver_comparison`'s table.

    The counters repeat when the search is deterministic; the times do not quite.

    Attributes
    ----------
    puzzle, solver : str
    cpu_ms, wall_ms : float
        This run's CPU and wall-clock time.
    table_cpu_ms : float
        The table's solver CPU time for the same solver and puzzle.
    table_counters : tuple of (measure, count)
        The table's counters compared.
    same_counters : bool
        Whether this run reports every one of them with the same count.
    stats : dict
        This run's counters and times (``Result.stats``).
    """

    puzzle: str
    solver: str
    cpu_ms: float
    wall_ms: float
    table_cpu_ms: float
    table_counters: tuple[tuple[str, int], ...]
    same_counters: bool
    stats: dict[str, Any]


def rerun(cnf: CNF, solver: str = "cdcl") -> tuple[Any, float, float]:
    """Solve `cnf` with `solver` again; the result, its CPU and its wall-clock milliseconds."""
    from sudosat.sat.solvers import solve

    watch = Stopwatch()
    result = watch.run("solve", solve, cnf, solver)
    return result, watch.cpu_ms["solve"], watch.wall_ms["solve"]


def rerun_facts(
    result: Any,
    cpu_ms: float,
    wall_ms: float,
    comparison: pd.DataFrame,
    puzzle: str,
    solver: str = "cdcl",
    measures: Sequence[str] = ("decisions", "conflicts"),
) -> RerunFacts:
    """The :class:`RerunFacts` of `result` (:func:`rerun`), a run of `solver` on `puzzle`."""
    row = comparison.loc[(puzzle, solver)]
    same = all(
        m in result.stats and not pd.isna(row[m]) and int(result.stats[m]) == int(row[m])
        for m in measures
    )
    return RerunFacts(puzzle, solver, float(cpu_ms), float(wall_ms),
                      float(row["solver CPU ms"]), tuple((m, int(row[m])) for m in measures),
                      same, dict(result.stats))


@styled
def plot_component_costs(costs: pd.DataFrame) -> Figure:
    """CPU time of each component (a :func:`component_costs` table) against the number of
    literals, log-log, with a linear guide."""
    figure, ax = new_figure(PAGE_WIDTH_IN, 4.0)
    literals = costs["literals"].astype(float)
    unmeasured = []
    for k, column in enumerate(cost_columns(costs)):
        times = costs[column].astype(float)
        name = column.removesuffix(COST_SUFFIX)
        # a log scale has no 0: a time below the clock's resolution is left out, and said so
        zero = times <= 0
        unmeasured += [f"{name} (N={n})" for n in costs.index[zero]]
        ax.plot(
            literals,
            times.where(~zero),
            marker=MARKERS[k % len(MARKERS)],
            color=COLOURS[k % len(COLOURS)],
            label=name,
        )
    note_zeros(ax, "0 ms", unmeasured)
    encoder = f"encoder{COST_SUFFIX}"
    top = costs[encoder].iloc[-1] if encoder in costs else 1.0
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
    ax.set_ylabel("CPU time (ms, log scale)")
    ax.set_title("Cost of each component, one generated board per order")
    ax.grid(True)
    tidy_log_ticks(ax)
    legend_outside(ax)
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


# -- words: the page's sentences that branch on the figures -------------------------------


def growth_words(growth: ComponentGrowth) -> str:
    """The paragraph on the fitted growth exponents: over which orders, left out, each fit."""
    fitted = len(growth.orders)
    if fitted < 2:
        return (f"Only order {and_join(growth.orders)} was measured: no growth exponent can be "
                "fitted.")
    how = "the slope between them" if fitted == 2 else "a least-squares line"
    text = (
        "The exponent k of time ∝ literals^k (k ≈ 1: linear in the formula; k near 0: "
        f"independent of it) is fitted over orders {and_join(growth.orders)}, the {fitted} "
        f"largest measured ({and_join(f'{n:,}' for n in growth.literals)} literals), {how} on "
        "log-log axes.")
    if growth.left_out:
        many = len(growth.left_out) > 1
        text += (f" Order{'s' if many else ''} {and_join(growth.left_out)} "
                 f"{'are' if many else 'is'} left out of the fit, so that the fixed cost of each "
                 "call, which does not grow with the formula, weighs less in it.")
    if growth.fits:
        text += " Each component's time over those orders: " + "; ".join(
            f"{f.component} {f.first_ms:.2f} → {f.last_ms:.2f} ms (k ≈ {f.k:.2f}"
            + ("" if f.orders == fitted else f", orders {f.first_order} to {f.last_order} only")
            + ")" for f in growth.fits) + "."
    if growth.unfitted:
        text += (f" No exponent for {and_join(growth.unfitted)}: fewer than two of those orders "
                 "took measurable time.")
    return text


def counter_words(harder: HarderFacts) -> str:
    """What each solver needed on the puzzle against the other (``cdcl needed more decisions
    (12 against 3) and as many conflicts (0 against 0)``), solvers joined by semicolons."""

    def word(a: int, b: int) -> str:
        return "more" if a > b else "fewer" if a < b else "as many"

    return "; ".join(
        f"{s.solver} needed " + " and ".join(f"{word(a, b)} {m} ({a:,} against {b:,})"
                                             for m, a, b in s.counters)
        for s in harder.solvers)


def stats_words(stats: Mapping[str, Any]) -> list[str]:
    """A run's counters and times as a sentence lists them (``1.5 ms``, ``12 decisions``)."""
    said = []
    for key, value in stats.items():
        if key.endswith("_ms"):
            words = key.removesuffix("_ms").replace("_", " ").replace("cpu", "CPU")
            said.append(f"{words} time {float(value):.1f} ms")
        elif key.endswith("_s"):
            said.append(f"{key.removesuffix('_s').replace('_', ' ')} {float(value):.3f} s")
        else:
            said.append(f"{int(value):,} {key.replace('_', ' ')}")
    return said
