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
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.report.plots import COLOURS, MARKERS, new_figure, note_zeros, styled
from sudosat.report.reduction import variable_name
from sudosat.report.tables import HTML

if TYPE_CHECKING:
    from sudosat.cnf import CNF

TRACE_COLUMNS = ("step", "event", "level", "literals", "meaning")
"""The columns of :func:`trace_cdcl`'s events."""

ENGINE_METHODS = ("propagate", "analyze")
"""The methods of :class:`sudosat.solvers.cdcl.Engine` the page shows in full."""


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
    """An observer of :class:`sudosat.solvers.cdcl.Solver`: keeps the first events in words."""

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

    The solver is the real one (:class:`sudosat.solvers.cdcl.Solver`), watched
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
    from sudosat.solvers import cdcl

    def name(lit: int) -> str:
        if order is None or abs(lit) > order**6:
            return str(lit)
        return ("¬" if lit < 0 else "") + variable_name(abs(lit), order)

    trace = _Trace(name, limit)
    result = cdcl.Solver(cnf, observer=trace).solve()
    return str(result.status), pd.DataFrame(trace.events, columns=list(TRACE_COLUMNS))


def engine_source(methods: Sequence[str] = ENGINE_METHODS) -> HTML:
    """The source of our CDCL engine's `methods`, as the solver runs them, in code blocks.

    Read with :func:`inspect.getsource` from :class:`sudosat.solvers.cdcl.Engine`,
    so the page shows the code that produced the traced run, not a copy.
    """
    from sudosat.solvers import cdcl

    blocks = []
    for method in methods:
        source = inspect.getsource(getattr(cdcl.Engine, method))
        lines = source.count("\n")
        blocks.append(
            f"<details open><summary><code>Engine.{method}</code> "
            f"({lines} lines, <code>sudosat/solvers/cdcl.py</code>)</summary>"
            f'<pre class="sudosat-source"><code class="language-python">{html.escape(source)}'
            "</code></pre></details>"
        )
    return HTML(_SOURCE_STYLE + "".join(blocks))


_SOURCE_STYLE = (
    "<style>pre.sudosat-source{font-size:78%;line-height:1.3;background:#f7f7f7;"
    "padding:0.6em 0.8em;border-left:3px solid #ccc;overflow-x:auto;white-space:pre}</style>"
)
