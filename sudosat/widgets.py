"""The ipywidgets explorer: a puzzle, an encoding and a solver, and what each gives.

:class:`Explorer` shows, for the puzzle in its text box, the clause count of
every family of the chosen encoding, the board, the solution with the givens
marked, and the solver's statistics; any change of the puzzle, the order, the
encoding or the solver recomputes them. Its outputs are written with
``Output.append_display_data`` (never ``with output:``), so the explorer works,
and is tested, without a browser front end. :meth:`Explorer.snapshot_html`
renders the current state as static HTML for the exported report, where live
widgets cannot run.
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from sudosat.board import Board
from sudosat.errors import SudosatError
from sudosat.generate import generate

COURSE_EXAMPLE = (
    "3 000400009020980030093000840000000000200008067160300002049000650600003000000059010"
)
"""The course's own example (SPEC §1.1)."""

DEFAULT_ENCODINGS = ("course", "minimal", "extended", "optimised")
DEFAULT_SOLVERS = ("cdcl", "dpll", "pysat:minisat22")
ORDERS = (1, 2, 3, 4, 5)
# fraction of cells given in the generated sample of each order: enough that
# our pure-Python solvers answer in well under a second on orders 4 and 5
_SAMPLE_ALPHA = {1: 0.0, 2: 0.4, 3: 0.4, 4: 0.55, 5: 0.7}


def sample_puzzles(order: int, seed: int = 0) -> dict[str, str]:
    """Puzzles offered for `order`: the course example for order 3, and a generated one.

    Returns
    -------
    dict of str to str
        Label -> instance line (course format).
    """
    puzzles = {}
    if order == 3:
        puzzles["course example"] = COURSE_EXAMPLE
    board = generate(order, _SAMPLE_ALPHA.get(order, 0.7), seed=seed)
    puzzles[f"generated (order {order}, {board.num_givens} givens, seed {seed})"] = board.to_line()
    return puzzles


@dataclass
class Outcome:
    """What the explorer computed for one setting (kept for tests and the snapshot)."""

    board: Board | None = None
    family_counts: dict[str, int] = field(default_factory=dict)
    num_vars: int = 0
    num_clauses: int = 0
    num_literals: int = 0
    encode_ms: float = 0.0
    status: str = ""
    solution: Board | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    error: str = ""


def compute(text: str, encoding: str, solver: str, time_limit_ms: float | None) -> Outcome:
    """Parse, encode, solve and decode one puzzle; errors become ``Outcome.error``.

    Parameters
    ----------
    text : str
        An instance line in any format :meth:`Board.parse` reads.
    encoding, solver : str
        Registered names.
    time_limit_ms : float or None
        The solver's wall-clock limit.
    """
    from sudosat.encoding import encode
    from sudosat.solvers.base import solve

    outcome = Outcome()
    try:
        outcome.board = Board.parse(text.strip(), source="<explorer>")
        started = time.perf_counter()
        encoded = encode(outcome.board, encoding)
        outcome.encode_ms = (time.perf_counter() - started) * 1000.0
        outcome.family_counts = dict(encoded.family_counts)
        outcome.num_vars, outcome.num_clauses = encoded.num_vars, encoded.num_clauses
        outcome.num_literals = encoded.cnf.num_literals
        result = solve(encoded.cnf, solver, time_limit_ms=time_limit_ms)
    except SudosatError as exc:
        outcome.error = str(exc)
        return outcome
    outcome.status = "TIMEOUT" if result.is_unknown else str(result.status)
    outcome.stats = {"time (ms)": round(result.elapsed_ms, 2), **result.stats}
    if result.is_sat:
        outcome.solution = encoded.decode(result.model)
    return outcome


def counts_html(outcome: Outcome, encoding: str) -> str:
    """The clause count of every family, and the formula's size, as an HTML table."""
    if outcome.board is None:
        return ""
    rows = "".join(
        f"<tr><td>{html.escape(family)}</td><td style='text-align:right'>{count:,}</td></tr>"
        for family, count in outcome.family_counts.items()
    )
    return (
        f"<b>Encoding {html.escape(encoding)}</b>"
        "<table class='sudosat-counts'><tr><th>family</th><th>clauses</th></tr>"
        f"{rows}<tr><td><b>total</b></td><td style='text-align:right'><b>{outcome.num_clauses:,}"
        f"</b></td></tr></table><p>{outcome.num_vars:,} variables, {outcome.num_literals:,} "
        f"literals, built in {outcome.encode_ms:.1f} ms</p>"
    )


def stats_html(outcome: Outcome, solver: str) -> str:
    """The solver's answer and its counters as an HTML table."""
    if outcome.error:
        return f"<p style='color:#b00'><b>Error:</b> {html.escape(outcome.error)}</p>"
    rows = "".join(
        f"<tr><td>{html.escape(str(k))}</td><td style='text-align:right'>{_number(v)}</td></tr>"
        for k, v in outcome.stats.items()
    )
    return (
        f"<b>{html.escape(solver)}: {html.escape(outcome.status)}</b>"
        f"<table class='sudosat-stats'>{rows}</table>"
    )


def _number(value: Any) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f}"
    if isinstance(value, int | float):
        return f"{int(value):,}"
    return html.escape(str(value))


def boards_html(outcome: Outcome) -> str:
    """The board and, when solved, its solution with the givens in bold, side by side."""
    if outcome.board is None:
        return ""
    if outcome.solution is not None:
        right = outcome.solution.to_html(puzzle=outcome.board)
    else:
        right = f"<p><i>no solution ({html.escape(outcome.status or 'not solved')})</i></p>"
    return (
        "<div style='display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start'>"
        f"<div><div>board ({outcome.board.num_givens} givens)</div>{outcome.board.to_html()}</div>"
        f"<div><div>solution</div>{right}</div></div>"
    )


class Explorer:
    """Pick or paste a puzzle, choose an order, an encoding and a solver; see the results.

    Parameters
    ----------
    puzzles : mapping of str to str, optional
        Extra labelled instance lines offered beside the generated samples.
    encodings, solvers : sequence of str
        The names offered in the drop-downs.
    time_limit_ms : float
        The solver's wall-clock limit for each run.
    order : int
        The order selected at the start.

    Attributes
    ----------
    order, puzzle, text, encoding, solver : ipywidgets
        The controls; setting their ``value`` updates the outputs.
    counts, board, stats : ipywidgets.Output
        Clause counts per family; board and solution; solver statistics.
    outcome : Outcome
        What the last update computed.
    """

    def __init__(
        self,
        puzzles: Mapping[str, str] | None = None,
        encodings: Sequence[str] = DEFAULT_ENCODINGS,
        solvers: Sequence[str] = DEFAULT_SOLVERS,
        time_limit_ms: float = 10_000,
        order: int = 3,
    ) -> None:
        self.extra = dict(puzzles or {})
        self.time_limit_ms = time_limit_ms
        self.order = widgets.Dropdown(options=list(ORDERS), value=order, description="order")
        self.puzzle = widgets.Dropdown(description="puzzle", layout=widgets.Layout(width="34em"))
        self.text = widgets.Textarea(
            description="or paste", layout=widgets.Layout(width="46em", height="4em")
        )
        self.encoding = widgets.Dropdown(
            options=list(encodings), value=encodings[0], description="encoding"
        )
        self.solver = widgets.Dropdown(
            options=list(solvers), value=solvers[0], description="solver"
        )
        self.counts, self.board, self.stats = widgets.Output(), widgets.Output(), widgets.Output()
        self.outcome = Outcome()
        self._offer_puzzles()
        self.order.observe(self._on_order, names="value")
        self.puzzle.observe(self._on_puzzle, names="value")
        for control in (self.text, self.encoding, self.solver):
            control.observe(self._on_change, names="value")
        self.update()

    def _offer_puzzles(self) -> None:
        order = self.order.value
        offered = sample_puzzles(order)
        offered.update(
            {label: line for label, line in self.extra.items() if _order_of(line) == order}
        )
        first_label: dict[str, str] = {}
        for label, line in offered.items():
            first_label.setdefault(line, label)  # one entry per line, under its first label
        items = [(label, line) for line, label in first_label.items()]
        self.puzzle.options = items
        self.puzzle.value = items[0][1]
        self.text.value = items[0][1]

    def _on_order(self, _change: dict) -> None:
        self._offer_puzzles()

    def _on_puzzle(self, change: dict) -> None:
        if change["new"]:
            self.text.value = change["new"]

    def _on_change(self, _change: dict) -> None:
        self.update()

    def update(self) -> Outcome:
        """Recompute everything for the current controls and rewrite the three outputs."""
        self.outcome = compute(
            self.text.value, self.encoding.value, self.solver.value, self.time_limit_ms
        )
        _show(self.counts, counts_html(self.outcome, self.encoding.value))
        _show(self.board, boards_html(self.outcome))
        _show(self.stats, stats_html(self.outcome, self.solver.value))
        return self.outcome

    @property
    def widget(self) -> widgets.Widget:
        """The whole explorer as one widget to display."""
        controls = widgets.VBox(
            [
                widgets.HBox([self.order, self.puzzle]),
                self.text,
                widgets.HBox([self.encoding, self.solver]),
            ]
        )
        self.counts.layout.margin = "0 3em 0 0"  # space between the two tables
        results = widgets.HBox([self.counts, self.stats])
        return widgets.VBox([controls, results, self.board])

    def snapshot_html(self) -> str:
        """The current state as static HTML (for the exported report, where widgets are dead)."""
        outcome = self.outcome
        header = (
            f"<p><b>Puzzle</b> <code>{html.escape(self.text.value.strip()[:90])}</code>; "
            f"encoding <b>{html.escape(self.encoding.value)}</b>, solver "
            f"<b>{html.escape(self.solver.value)}</b></p>"
        )
        return (
            header + "<div style='display:flex;flex-wrap:wrap;gap:3em'>"
            f"<div>{counts_html(outcome, self.encoding.value)}</div>"
            f"<div>{stats_html(outcome, self.solver.value)}</div></div>{boards_html(outcome)}"
        )

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def _order_of(line: str) -> int | None:
    try:
        return Board.parse(line).order
    except SudosatError:
        return None


def _show(output: widgets.Output, text: str) -> None:
    from IPython.display import HTML

    output.outputs = ()
    if text:
        output.append_display_data(HTML(text))


def output_html(output: widgets.Output) -> str:
    """The HTML an Output widget holds (what a test or a snapshot reads)."""
    return "".join(item.get("data", {}).get("text/html", "") for item in output.outputs)


def snapshot(explorer: Explorer, settings: Sequence[dict[str, Any]]) -> str:
    """Static HTML of the explorer in several settings, one after another.

    Parameters
    ----------
    explorer : Explorer
    settings : sequence of dict
        Each maps control names (``order``, ``text``, ``encoding``, ``solver``)
        to values, applied in that order before the snapshot is taken.
    """
    parts = []
    for setting in settings:
        for name in ("order", "text", "encoding", "solver"):
            if name in setting:
                getattr(explorer, name).value = setting[name]
        rule = "border-top:1px solid #ccc;padding-top:0.6em"
        parts.append(f"<div style='{rule}'>{explorer.snapshot_html()}</div>")
    return "".join(parts)
