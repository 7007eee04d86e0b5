"""The encoding workbench: switch clause families, edit the board, see what the solver returns.

:class:`Workbench` is the live widget of ``notebooks/explore.ipynb``. Its
switches choose the clause families of the formula (:mod:`sudosat.workbench.formula`),
the at-most-one encoding, how the givens enter and the variable numbering; the
editable grid and the text line hold the puzzle, each following the other.
Every change shows the variables, clauses and literals of each family, the
first clauses of each in readable names, a download of the whole DIMACS, the
solver's answer and counters, and, when the switched-off families let the
solver return a board that breaks the rules, that board with its broken units
highlighted. Which switch combinations are still a correct encoding is stated
beside the switches.

The views are ``ipywidgets.HTML`` values computed by the plain functions of
:mod:`sudosat.workbench.views`, so the workbench works and is tested without a
browser; :func:`~sudosat.workbench.views.snapshot_html` renders them for given
settings as static HTML for the exported page.

Why ipywidgets and not anywidget: ipywidgets is already a dependency that
JupyterLab ships a front end for, the grid needs no JavaScript of ours, and
every control is driven from Python in plain pytest. The cost is one widget
model per cell (1,296 at order 6), which anywidget would avoid with one model
and our own rendering code; :mod:`sudosat.workbench.grid` keeps it to one model
per cell and no message per unchanged cell.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable, Mapping, Sequence

from sudosat.errors import MissingExtraError, SudosatError

try:
    import ipywidgets as widgets
except ImportError:  # the computation and the views need no widgets: sudosat.workbench.page
    raise MissingExtraError("the workbench's widgets", "widgets", "ipywidgets") from None
from sudosat.run.results import Verdict
from sudosat.sat.amo import AMO_METHODS
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import DEFAULT_MAX_BYTES
from sudosat.sudoku.numbering import NUMBERINGS
from sudosat.workbench.compute import (
    COURSE_EXAMPLE,
    CUSTOM,
    ORDERS,
    Outcome,
    RulesCache,
    available_solvers,
    compute,
    encoding_choices,
    order_of,
    puzzle_choices,
)
from sudosat.workbench.grid import GRID_CSS, Grid, parse_cell
from sudosat.workbench.switches import (
    GIVENS_MODES,
    Switches,
    family_switches,
    matching_encoding,
    preset,
)
from sudosat.workbench.views import (
    DOWNLOAD_LIMIT,
    EAGER_DOWNLOAD,
    VIEW_STYLE,
    answer_html,
    board_html,
    clashing_givens,
    counts_html,
    dimacs_at_least,
    download_html,
    excerpt_html,
    snapshot_html,
    status_html,
    verdict_html,
)

__all__ = [  # the views and the grid are read from here too (tests, notebooks)
    "DOWNLOAD_LIMIT",
    "ORDERS",
    "Debouncer",
    "Grid",
    "Workbench",
    "answer_html",
    "available_solvers",
    "board_html",
    "compute",
    "counts_html",
    "download_html",
    "excerpt_html",
    "parse_cell",
    "snapshot_html",
    "verdict_html",
]



# ipywidgets boxes scroll (overflow auto), and a flex parent may shrink a scrolling box
# below its content, hiding part of the board behind a scroll bar of its own. The boxes
# around the board neither clip nor grow past the page: the grid's own box scrolls.
def _unclipped() -> widgets.Layout:
    return widgets.Layout(overflow="visible", max_width="100%", min_width="0")


# -- the live widget ----------------------------------------------------------------


class Debouncer:
    """Run `action` once typing pauses for `delay_s`; at once where no event loop runs.

    In a kernel, widget callbacks run inside its asyncio loop: each call
    cancels the pending run and schedules a new one. Plain Python (a test, a
    script) has no running loop, and the action runs immediately.
    """

    def __init__(self, action: Callable[[], object], delay_s: float = 0.4) -> None:
        self.action, self.delay_s = action, delay_s
        self._pending: asyncio.TimerHandle | None = None

    def __call__(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self.delay_s <= 0:
            self.action()
            return
        if self._pending is not None:
            self._pending.cancel()
        self._pending = loop.call_later(self.delay_s, self._fire)

    def _fire(self) -> None:
        self._pending = None
        self.action()


class Workbench:
    """The encoding workbench: switches, an editable board, and what the formula gives.

    Parameters
    ----------
    puzzles : mapping of str to str, optional
        Extra labelled instance lines offered beside the samples.
    solvers : sequence of str, optional
        The solver names offered (default: every one available here).
    time_limit_ms : float
        The solver's wall-clock limit for each run.
    max_bytes : int
        The memory guard: formulas estimated above it are refused.
    debounce_s : float
        How long typing must pause before the workbench solves.

    Attributes
    ----------
    order, puzzle, text, encoding, solver, givens, amo, numbering : ipywidgets
    switch : dict of str to ipywidgets.Checkbox
        One per family (:func:`sudosat.workbench.switches.family_switches`).
    grid : Grid
        The editable board of the current order.
    counts, excerpt, download, answer, verdict, status : ipywidgets.HTML
    outcome : Outcome
        What the last update computed.
    """

    def __init__(
        self,
        puzzles: Mapping[str, str] | None = None,
        solvers: Sequence[str] | None = None,
        time_limit_ms: float = 10_000,
        max_bytes: int = DEFAULT_MAX_BYTES,
        debounce_s: float = 0.4,
    ) -> None:
        self.extra = dict(puzzles or {})
        self.max_bytes = max_bytes
        self.rules_cache = RulesCache()  # rules stay loaded while only the givens change
        self._quiet = False  # set while the code (not the reader) moves the controls
        self._schedule = Debouncer(self.update, debounce_s)
        self.order = widgets.Dropdown(options=list(ORDERS), value=3, description="order")
        self.puzzle = widgets.Dropdown(description="puzzle", layout=widgets.Layout(width="30em"))
        self.text = widgets.Text(
            description="line", layout=widgets.Layout(width="52em"), continuous_update=True
        )
        self.encoding = widgets.Dropdown(
            options=encoding_choices(), value="course", description="encoding"
        )
        course = Switches().on
        self.switch = {
            s.name: widgets.Checkbox(value=s.name in course, description=s.label, indent=False)
            for s in family_switches()
        }
        narrow = {"button_width": "6.5em"}  # three buttons (the at-most-one methods) on a line
        self.givens = widgets.ToggleButtons(
            options=list(GIVENS_MODES), description="givens", style=narrow
        )
        self.amo = widgets.ToggleButtons(
            options=list(AMO_METHODS), description="at-most-one", style=narrow
        )
        # another numbering registered in sudosat.sudoku.numbering appears here
        self.numbering = widgets.Dropdown(options=list(NUMBERINGS), description="numbering")
        offered = list(solvers) if solvers is not None else available_solvers()
        self.solver = widgets.Dropdown(options=offered, value=offered[0], description="solver")
        self.time_limit = widgets.BoundedIntText(
            value=int(time_limit_ms), min=100, max=3_600_000, step=1000, description="limit (ms)"
        )
        self.status = widgets.HTML()
        self.status.add_class("sudosat-status")
        self.verdict, self.counts, self.excerpt = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.excerpt.layout = widgets.Layout(max_width="100%", overflow="auto")
        self.download, self.answer = widgets.HTML(), widgets.HTML()
        # a large formula's DIMACS is written only on request (see EAGER_DOWNLOAD)
        self.prepare = widgets.Button(description="prepare the DIMACS download", icon="download")
        self.prepare.layout = widgets.Layout(width="auto", display="none")
        self.prepare.on_click(lambda _button: self._prepare_download())
        self._grids: dict[int, Grid] = {}
        self.grid = self._grid(3)
        self.grid_box = widgets.Box([self.grid.widget], layout=_unclipped())
        self.outcome = Outcome()
        self._wire()
        self.load(COURSE_EXAMPLE)

    # -- wiring ------------------------------------------------------------------

    def _wire(self) -> None:
        self.order.observe(self._on_order, names="value")
        self.puzzle.observe(self._on_puzzle, names="value")
        self.text.observe(self._on_text, names="value")
        self.encoding.observe(self._on_encoding, names="value")
        for control in (*self.switch.values(), self.givens, self.amo, self.numbering):
            control.observe(self._on_switch, names="value")
        for control in (self.solver, self.time_limit):
            control.observe(self._on_setting, names="value")

    def _grid(self, order: int, board: Board | None = None) -> Grid:
        """The grid of `order`: built once per order (1,296 cells at order 6), with `board`."""
        if order not in self._grids:
            self._grids[order] = Grid(order, self._on_cell, board)
        return self._grids[order]

    def _offer_puzzles(self, order: int) -> None:
        items = puzzle_choices(order, self.extra)
        self._quietly(lambda: setattr(self.puzzle, "options", items))

    def _quietly(self, change: Callable[[], None]) -> None:
        was, self._quiet = self._quiet, True
        try:
            change()
        finally:
            self._quiet = was

    def _on_order(self, change: dict) -> None:
        if self._quiet:
            return
        # building the grid comes before solving (1,296 cells at order 6): say so at once
        self.status.value = (
            f"<span style='color:#a60'>⏳ building the order-{change['new']} board…</span>"
        )
        self._offer_puzzles(change["new"])
        self.load(self.puzzle.options[0][1])

    def _on_puzzle(self, change: dict) -> None:
        if not self._quiet and change["new"]:
            self.load(change["new"])

    def _on_text(self, _change: dict) -> None:
        if not self._quiet:
            self._follow_text()
            self._schedule()

    def _on_cell(self, index: int, text: str) -> None:
        if self._quiet:
            return
        grid = self.grid
        try:
            value = parse_cell(text, grid.order**2)
        except ValueError as exc:
            grid.cells[index].add_class("sudosat-badcell")
            size = grid.order**2
            where = f"cell ({index // size + 1}, {index % size + 1})"
            self.status.value = f"<span class='sudosat-no'>{where}: {html.escape(str(exc))}</span>"
            return
        grid.cells[index].remove_class("sudosat-badcell")
        (grid.cells[index].add_class if value else grid.cells[index].remove_class)("sudosat-given")
        try:
            values = [parse_cell(c.value, grid.order**2) for c in grid.cells]
        except ValueError:
            return  # another cell is still wrong; its message stands
        line = Board(grid.order, values).to_line()
        self._quietly(lambda: setattr(self.text, "value", line))
        self._select_offered(line)
        self._schedule()

    def _on_encoding(self, change: dict) -> None:
        if self._quiet:
            return
        try:
            switches = preset(change["new"]) if change["new"] != CUSTOM else None
        except SudosatError:
            switches = None  # the switches cannot rebuild it: the update says why, in one line
        if switches is not None:
            self._quietly(lambda: self.set_switches(switches))
        self._enable_switches(change["new"] == CUSTOM or switches is not None)
        self._schedule()

    def _on_switch(self, _change: dict) -> None:
        if self._quiet:
            return
        name = matching_encoding(self.switches()) or CUSTOM
        self._quietly(lambda: setattr(self.encoding, "value", name))
        self._schedule()

    def _on_setting(self, _change: dict) -> None:
        if not self._quiet:
            self._schedule()

    def _enable_switches(self, enabled: bool) -> None:
        for control in (*self.switch.values(), self.givens, self.amo, self.numbering):
            control.disabled = not enabled

    # -- state -------------------------------------------------------------------

    def switches(self) -> Switches:
        """The switches as the controls set them."""
        return Switches(
            **{name: box.value for name, box in self.switch.items()},
            givens=self.givens.value,
            amo=self.amo.value,
            numbering=self.numbering.value,
        )

    def set_switches(self, switches: Switches) -> None:
        """Move the controls to `switches` (and the encoding drop-down to its name, if any)."""

        def move() -> None:
            for name, box in self.switch.items():
                box.value = name in switches.on
            self.givens.value, self.amo.value = switches.givens, switches.amo
            self.numbering.value = switches.numbering
            self.encoding.value = matching_encoding(switches) or CUSTOM
            self._enable_switches(True)

        self._quietly(move)

    def load(self, line: str) -> Outcome:
        """Show the puzzle `line` (text, grid, order, puzzle list) and solve it at once."""
        self._quietly(lambda: setattr(self.text, "value", line))
        self._follow_text()
        return self.update()

    def _follow_text(self) -> None:
        """Make the order, the puzzle list and the grid follow the text line."""
        try:
            board = Board.parse(self.text.value.strip(), source="<workbench>")
        except SudosatError:
            return  # update() shows the reason
        if board.order != self.grid.order or not self.puzzle.options:
            self._quietly(lambda: self._switch_order(board.order, board))
        self._select_offered(board.to_line())
        self._quietly(lambda: self.grid.show(board, None))

    def _switch_order(self, order: int, board: Board | None = None) -> None:
        self.order.value = order
        self._offer_puzzles(order)
        self.grid = self._grid(order, board)
        self.grid_box.children = [self.grid.widget]

    def _select_offered(self, line: str) -> None:
        lines = [value for _, value in self.puzzle.options]
        self._quietly(lambda: setattr(self.puzzle, "value", line if line in lines else None))

    def update(self) -> Outcome:
        """Recompute the formula, the answer and the views.

        The status says "solving…" meanwhile, for a line that parses only: a
        line still being typed (the debounce fires between two keys when the
        kernel lags) gets its reason at once, without a solve announced.
        """
        if order_of(self.text.value.strip()) is not None:
            self.status.value = "<span style='color:#a60'>⏳ solving…</span>"
        self.outcome = compute(
            self.text.value,
            self.switches(),
            self.encoding.value,
            self.solver.value,
            self.time_limit.value,
            self.max_bytes,
            self.rules_cache,
        )
        outcome = self.outcome
        self.verdict.value = verdict_html(outcome.switches or Switches(), outcome.encoding)
        self.counts.value = counts_html(outcome)
        self.excerpt.value = excerpt_html(outcome)
        self._offer_download(outcome)
        self.answer.value = answer_html(outcome)
        board = outcome.board
        if board is not None and board.order == self.grid.order:
            reading = outcome.reading
            solution = reading.board if reading is not None and reading.valid else None
            self._quietly(lambda: self.grid.show(board, solution))
            if outcome.status == Verdict.UNSAT:  # givens that clash are the reason: mark them
                for cell in clashing_givens(board):
                    self.grid.mark(cell, "sudosat-badcell", True)
        self.status.value = status_html(outcome)
        return outcome

    def _offer_download(self, outcome: Outcome) -> None:
        """The download link at once for a small formula; a button for a large one."""
        at_least = dimacs_at_least(outcome)
        if at_least <= EAGER_DOWNLOAD:
            self.download.value = download_html(outcome)
            self.prepare.layout.display = "none"
            return
        self.download.value = (
            f"<p>The DIMACS takes at least {at_least / 1e6:.0f} MB: the button writes it.</p>"
        )
        self.prepare.layout.display = None

    def _prepare_download(self) -> None:
        self.prepare.layout.display = "none"
        self.download.value = download_html(self.outcome)

    # -- display -----------------------------------------------------------------

    @property
    def widget(self) -> widgets.Widget:
        """The whole workbench as one widget to display."""
        puzzle = widgets.VBox([widgets.HBox([self.order, self.puzzle]), self.text])
        switches = widgets.VBox(
            [
                widgets.HTML("<b>Clause families</b>"),
                *self.switch.values(),
                self.givens,
                self.amo,
                self.numbering,
                self.verdict,
            ],
            layout=widgets.Layout(min_width="26em", max_width="34em"),
        )
        solving = widgets.HBox([self.encoding, self.solver, self.time_limit])
        board = widgets.VBox(  # never wider than the page: the grid scrolls inside instead
            [widgets.HTML("<b>Board</b> (type in a cell or in the line)"), self.grid_box],
            layout=_unclipped(),
        )
        views = widgets.HBox(
            [widgets.VBox([self.counts, self.download, self.prepare]), self.answer],
            layout=widgets.Layout(grid_gap="3em", flex_flow="row wrap"),
        )
        return widgets.VBox(
            [
                widgets.HTML(GRID_CSS + VIEW_STYLE),
                puzzle,
                solving,
                self.status,
                widgets.HBox(  # the switches go below a board too wide to leave them room
                    [board, switches],
                    layout=widgets.Layout(grid_gap="2em", flex_flow="row wrap", overflow="visible"),
                ),
                views,
                self.excerpt,
            ],
            layout=_unclipped(),
        )

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
