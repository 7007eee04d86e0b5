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

The views are ``ipywidgets.HTML`` values computed by plain functions, so the
workbench works and is tested without a browser. :func:`snapshot_html` renders
the same views for given settings as static HTML for the exported page; it
builds its own state and never touches a live workbench.

Why ipywidgets and not anywidget: ipywidgets is already a dependency that
JupyterLab ships a front end for, the grid needs no JavaScript of ours, and
every control is driven from Python in plain pytest. The cost is one widget
model per cell (1,296 at order 6), which anywidget would avoid with one model
and our own rendering code; at orders 1-6 the cells render in a few seconds.
"""

from __future__ import annotations

import asyncio
import base64
import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from sudosat.errors import SudosatError
from sudosat.run.results import Verdict
from sudosat.sudoku.board import Board, units
from sudosat.sudoku.encoding import DEFAULT_MAX_BYTES, estimate
from sudosat.workbench.compute import (
    COURSE_EXAMPLE,
    CUSTOM,
    Outcome,
    RulesCache,
    available_solvers,
    compute,
    encoding_choices,
    sample_puzzles,
)
from sudosat.workbench.formula import (
    FAMILY_LABELS,
    GIVENS_MODES,
    NUMBERINGS,
    Reading,
    Switches,
    cnf_excerpt,
    matching_encoding,
    preset,
    verdict,
)

ORDERS = (1, 2, 3, 4, 5, 6)
_FAMILY_SWITCHES = ("completeness", "uniqueness", "rows", "columns", "boxes", "coverage")
_SWITCH_LABELS = {
    "completeness": "completeness",
    "uniqueness": "uniqueness",
    "rows": "validity: rows",
    "columns": "validity: columns",
    "boxes": "validity: boxes",
    "coverage": "at least once per unit",
}
DOWNLOAD_LIMIT = 8_000_000  # bytes of DIMACS embedded in the page as a download link


# -- views (plain HTML, so that tests and the static page read the same) ----------------

_BOARD_STYLE = (
    "<style>"
    "table.sudosat-wb{border-collapse:collapse;border:2px solid #000;font-family:monospace;"
    "margin:0.4em 0}"
    "table.sudosat-wb td{border:1px solid #999;text-align:center;vertical-align:middle;"
    "padding:0;background:#fff;color:#000}"
    "table.sudosat-wb td.bt{border-top:2px solid #000}"
    "table.sudosat-wb td.bl{border-left:2px solid #000}"
    "table.sudosat-wb td.given{font-weight:bold}"
    "table.sudosat-wb td.broken{background:#ffe0b3}"
    "table.sudosat-wb td.bad{background:#f99;color:#700}"
    "table.sudosat-wb td.clash{color:#c00;font-weight:bold}"
    "table.sudosat-wb td.many{font-size:60%;line-height:1}"
    ".sudosat-ok{color:#060;font-weight:bold}.sudosat-no{color:#b00;font-weight:bold}"
    "table.sudosat-counts td,table.sudosat-counts th{padding:1px 8px;text-align:right}"
    "table.sudosat-counts td:first-child,table.sudosat-counts th:first-child{text-align:left}"
    "</style>"
)


def board_html(puzzle: Board, reading: Reading | None = None) -> str:
    """`puzzle` (or the answer `reading` describes) as a table: givens bold, broken units shaded.

    Cells of a broken unit are shaded orange and carry ``data-units`` naming
    their broken units (``box 1`` ...); a symbol repeated in a unit is red; a
    cell that holds no symbol, several, or not its given is red. Rows and
    columns count from 1, as the reader does.
    """
    n, size = puzzle.order, puzzle.size
    px = {1: 28, 2: 28, 3: 28, 4: 26, 5: 24}.get(n, 22)
    font = {1: 16, 2: 16, 3: 16, 4: 13, 5: 11}.get(n, 9)
    broken: dict[int, list[str]] = {}
    if reading is not None:
        table = {(kind, number): members for kind, number, members in units(n)}
        for kind, number in reading.broken_units:
            for cell in table[(kind, number)]:
                broken.setdefault(cell, []).append(f"{kind} {number}")
    rows = []
    for i in range(size):
        tds = []
        for j in range(size):
            cell = i * size + j
            held = reading.cells[cell] if reading is not None else _held(puzzle.cells[cell])
            classes = ["bt"] * (i > 0 and i % n == 0) + ["bl"] * (j > 0 and j % n == 0)
            classes += ["given"] * bool(puzzle.cells[cell])
            attrs = ""
            if cell in broken:
                classes.append("broken")
                attrs = f' data-units="{html.escape(", ".join(broken[cell]))}"'
            if reading is not None and cell in reading.bad_cells:
                classes.append("bad")
            if reading is not None and cell in reading.clash_cells:
                classes.append("clash")
            if len(held) > 1:
                classes.append("many")
            text = "·".join(map(str, held)) if held else "&nbsp;"
            tds.append(f'<td class="{" ".join(classes)}"{attrs}>{text}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    sizes = f"table.sudosat-wb.o{n} td{{width:{px}px;height:{px}px;font-size:{font}px}}"
    return (
        _BOARD_STYLE.replace("</style>", sizes + "</style>")
        + f'<table class="sudosat-wb o{n}">{"".join(rows)}</table>'
    )


def _held(value: int) -> tuple[int, ...]:
    return (value,) if value else ()


def counts_html(outcome: Outcome) -> str:
    """Variables, clauses and literals per family, the totals, and the change from the course."""
    built = outcome.built
    if built is None:
        return ""
    rows = []
    for family in built.families:
        title = FAMILY_LABELS.get(family.name, family.name)
        rows.append(
            f"<tr><td title='{html.escape(title)}'>{html.escape(family.name)}</td>"
            f"<td>{family.auxiliary:,}</td><td>{family.clauses:,}</td>"
            f"<td>{family.literals:,}</td></tr>"
        )
    cnf = built.cnf
    course = estimate(built.board, "course")["clauses"]
    delta = cnf.num_clauses - course
    more_or_fewer = "fewer" if delta < 0 else "more"
    change = "the same as" if delta == 0 else f"{abs(delta):,} {more_or_fewer} than"
    note = ""
    if (
        outcome.switches is not None
        and outcome.encoding == CUSTOM
        and (outcome.switches.givens == "simplify")
    ):
        note = "<br>givens: substituted (no clause of their own)"
    return (
        f"<div class='sudosat-counts-box'><b>Formula: {html.escape(built.label)}</b>"
        "<table class='sudosat-counts'><tr><th>family</th><th>aux. vars</th><th>clauses</th>"
        f"<th>literals</th></tr>{''.join(rows)}"
        f"<tr><td><b>total</b></td><td><b>{built.auxiliary:,}</b></td>"
        f"<td><b data-total-clauses='{cnf.num_clauses}'>{cnf.num_clauses:,}</b></td>"
        f"<td><b>{cnf.num_literals:,}</b></td></tr></table>"
        f"<div>{cnf.num_vars:,} variables ({built.num_cell_vars:,} cell variables + "
        f"{cnf.num_vars - built.num_cell_vars:,} auxiliary), built in {outcome.encode_ms:.1f} ms"
        f"<br><span class='sudosat-delta'>{change} the course encoding's "
        f"{course:,} clauses</span>{note}</div></div>"
    )


def excerpt_html(outcome: Outcome) -> str:
    """The first clauses of each family: x(r,c,d) names (1-based) beside the DIMACS numbers."""
    built = outcome.built
    if built is None:
        return ""
    parts = [
        f"<div><b>The CNF</b>: <code>p cnf {built.cnf.num_vars} {built.cnf.num_clauses}"
        "</code>; the first clauses of each family</div>"
    ]
    for name, count, clauses in cnf_excerpt(built):
        lines = "\n".join(f"{dimacs:<28} {readable}" for readable, dimacs in clauses)
        more = f"\n… {count - len(clauses):,} more" if count > len(clauses) else ""
        parts.append(
            f"<div style='margin-top:0.3em'><i>{html.escape(name)}</i> ({count:,} clauses)</div>"
            "<pre style='font-size:11px;line-height:1.3;margin:0;white-space:pre'>"
            f"{html.escape(lines + more)}</pre>"
        )
    return "".join(parts)


def download_html(outcome: Outcome) -> str:
    """A link that downloads the whole DIMACS (embedded while it is small enough)."""
    built = outcome.built
    if built is None:
        return ""
    cnf = built.cnf
    name = f"sudoku-order{built.board.order}-{built.label}.cnf"
    # every literal and every closing 0 takes at least two characters: skip writing
    # a text that is bound to be too large (order 6 runs to tens of megabytes)
    at_least = 2 * (cnf.num_literals + cnf.num_clauses)
    text = cnf.to_dimacs() if at_least <= DOWNLOAD_LIMIT else ""
    if not text:
        return (
            f"<p>The DIMACS is at least {at_least / 1e6:.0f} MB, too large to embed here: "
            "<code>workbench.build(...).cnf.write_dimacs(path)</code> writes it.</p>"
        )
    if len(text) > DOWNLOAD_LIMIT:
        return (
            f"<p>The DIMACS is {len(text) / 1e6:.0f} MB, too large to embed here: "
            "<code>workbench.build(...).cnf.write_dimacs(path)</code> writes it.</p>"
        )
    data = base64.b64encode(text.encode()).decode()
    return (
        f"<a class='sudosat-download' download='{name}' href='data:text/plain;base64,{data}'>"
        f"⬇ download the whole DIMACS ({len(text) / 1000:,.0f} kB, {name})</a>"
    )


def answer_html(outcome: Outcome) -> str:
    """The solver's answer, whether the board obeys the rules, the board, and the counters."""
    if outcome.error:
        return f"<p class='sudosat-no'>Error: {html.escape(outcome.error)}</p>"
    if outcome.board is None:
        return ""
    head = f"<b>{html.escape(outcome.solver)}: {html.escape(outcome.status)}</b>"
    reading = outcome.reading
    if reading is None:
        said = {
            "UNSAT": "the formula has no model: the puzzle has no solution under these clauses",
            Verdict.TIMEOUT: "no decision within the time limit: this is not UNSAT",
            Verdict.UNKNOWN: "no decision: the local search gave up with time left, which "
            "is not UNSAT",
        }.get(outcome.status, "")
        body = f"<p>{said}</p>" + board_html(outcome.board)
    elif reading.valid:
        body = (
            "<p class='sudosat-ok sudosat-valid'>✓ the solver's board is a valid solution"
            " (every row, column and box holds each symbol once; the givens are kept)</p>"
            + board_html(outcome.board, reading)
        )
    else:
        shown = reading.problems[:8]
        more = len(reading.problems) - len(shown)
        items = "".join(f"<li>{html.escape(p)}</li>" for p in shown)
        items += f"<li>… {more} more</li>" if more else ""
        body = (
            "<p class='sudosat-no sudosat-invalid'>✗ the formula is satisfied, but the board "
            "breaks the rules: the switched-off families were needed</p>"
            + board_html(outcome.board, reading)
            + f"<ul style='margin:0.2em 0'>{items}</ul>"
        )
    stats = "".join(
        f"<tr><td>{html.escape(str(k))}</td><td>{_number(v)}</td></tr>"
        for k, v in outcome.stats.items()
    )
    return f"{head}{body}<table class='sudosat-counts sudosat-stats'>{stats}</table>"


def verdict_html(switches: Switches, encoding: str) -> str:
    """Whether the current switches still make a correct encoding, and why."""
    if encoding != CUSTOM and preset(encoding) is None:
        return (
            f"<p class='sudosat-ok sudosat-verdict'>{html.escape(encoding)}: a registered, "
            "correct encoding (the givens decide what they can before the solver starts; "
            "the switches do not apply)</p>"
        )
    correct, reason = verdict(switches)
    css = "sudosat-ok" if correct else "sudosat-no"
    rule = (
        "Correct exactly when (1) every cell gets one symbol: completeness with uniqueness or "
        "with a validity family, or uniqueness with at-least-once; and (2) rows, columns and "
        "boxes each keep validity or at-least-once."
    )
    return (
        f"<p class='{css} sudosat-verdict' style='margin:0.2em 0'>{html.escape(reason)}</p>"
        f"<p style='font-size:85%;color:#444;margin:0'>{rule}</p>"
    )


def _number(value: Any) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f}"
    if isinstance(value, int | float):
        return f"{int(value):,}"
    return html.escape(str(value))


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


_GRID_CSS = (
    "<style>"
    ".sudosat-cell input{text-align:center;font-family:monospace;padding:0!important;"
    "font-size:15px}"
    ".sudosat-cell.sudosat-given input{font-weight:bold}"
    ".sudosat-cell input::placeholder{color:#000;opacity:1;font-weight:normal}"
    ".sudosat-cell.sudosat-badcell input{background:#f99}"
    ".sudosat-box{border:2px solid #000;gap:0!important}"
    ".sudosat-status{font-weight:bold}"
    "</style>"
)


class Grid:
    """An editable board: one text cell per square, boxes framed; givens bold.

    Empty cells show the solver's value as a placeholder (normal weight, as a
    solved cell on the report pages), so what the reader typed stays the only
    input.
    """

    def __init__(self, order: int, on_edit: Callable[[int, str], None]) -> None:
        self.order = order
        size = order * order
        width = "2.1em" if size < 10 else "2.6em"
        self.cells = []
        for index in range(size * size):
            cell = widgets.Text(layout=widgets.Layout(width=width, height="2em", margin="0"))
            cell.add_class("sudosat-cell")
            cell.observe(lambda change, k=index: on_edit(k, change["new"]), names="value")
            self.cells.append(cell)
        boxes = []
        for _, _, members in units(order)[2 * size :]:
            box = widgets.GridBox(
                [self.cells[c] for c in members],
                layout=widgets.Layout(grid_template_columns=f"repeat({order}, {width})"),
            )
            box.add_class("sudosat-box")
            boxes.append(box)
        self.widget = widgets.GridBox(
            boxes,
            layout=widgets.Layout(
                grid_template_columns=f"repeat({order}, auto)", width="max-content"
            ),
        )

    def show(self, board: Board, solution: Board | None) -> None:
        """Put `board` in the cells (givens bold) and `solution`'s values as placeholders."""
        for index, cell in enumerate(self.cells):
            value = board.cells[index]
            cell.value = _symbol(value)
            (cell.add_class if value else cell.remove_class)("sudosat-given")
            cell.remove_class("sudosat-badcell")
            cell.placeholder = _symbol(solution.cells[index]) if solution is not None else ""


def _symbol(value: int) -> str:
    return str(value) if value else ""


def parse_cell(text: str, size: int) -> int:
    """The value a grid cell's text stands for: a number 1..N² or a course letter; blank is 0.

    Raises
    ------
    ValueError
        For anything else; the message names the text.
    """
    token = text.strip().upper()
    if token in ("", "0", "."):
        return 0
    if token.isdigit():
        value = int(token)
    elif len(token) == 1 and "A" <= token <= "Z":
        value = ord(token) - ord("A") + 10
    else:
        raise ValueError(f"{text!r} is not a symbol")
    if not 1 <= value <= size:
        raise ValueError(f"{text!r} is outside 1..{size}")
    return value


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
        One per family (see :data:`sudosat.workbench.formula.FAMILY_LABELS`).
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
        self.switch = {
            name: widgets.Checkbox(value=True, description=_SWITCH_LABELS[name], indent=False)
            for name in _FAMILY_SWITCHES
        }
        self.switch["coverage"].value = False
        narrow = {"button_width": "6.5em"}  # three buttons on one line
        self.givens = widgets.ToggleButtons(
            options=list(GIVENS_MODES), description="givens", style=narrow
        )
        self.amo = widgets.ToggleButtons(
            options=["pairwise", "seq", "product"], description="at-most-one", style=narrow
        )
        # one entry today; another numbering registered in sudosat.workbench.formula appears here
        self.numbering = widgets.Dropdown(options=list(NUMBERINGS), description="numbering")
        offered = list(solvers) if solvers is not None else available_solvers()
        self.solver = widgets.Dropdown(options=offered, value=offered[0], description="solver")
        self.time_limit = widgets.BoundedIntText(
            value=int(time_limit_ms), min=100, max=3_600_000, step=1000, description="limit (ms)"
        )
        self.status = widgets.HTML()
        self.status.add_class("sudosat-status")
        self.verdict, self.counts, self.excerpt = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.download, self.answer = widgets.HTML(), widgets.HTML()
        self._grids: dict[int, Grid] = {}
        self.grid = self._grid(3)
        self.grid_box = widgets.Box([self.grid.widget])
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

    def _grid(self, order: int) -> Grid:
        if order not in self._grids:  # built once per order: 1,296 cells at order 6
            self._grids[order] = Grid(order, self._on_cell)
        return self._grids[order]

    def _offer_puzzles(self, order: int) -> None:
        offered = sample_puzzles(order)
        offered.update({k: v for k, v in self.extra.items() if _order_of(v) == order})
        first_label: dict[str, str] = {}
        for label, line in offered.items():
            first_label.setdefault(line, label)
        items = [(label, line) for line, label in first_label.items()]
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
        switches = preset(change["new"]) if change["new"] != CUSTOM else None
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
                box.value = getattr(switches, name)
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
            self._quietly(lambda: self._switch_order(board.order))
        self._select_offered(board.to_line())
        self._quietly(lambda: self.grid.show(board, None))

    def _switch_order(self, order: int) -> None:
        self.order.value = order
        self._offer_puzzles(order)
        self.grid = self._grid(order)
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
        if _order_of(self.text.value.strip()) is not None:
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
        self.download.value = download_html(outcome)
        self.answer.value = answer_html(outcome)
        board = outcome.board
        if board is not None and board.order == self.grid.order:
            reading = outcome.reading
            solution = reading.board if reading is not None and reading.valid else None
            self._quietly(lambda: self.grid.show(board, solution))
        self.status.value = _status(outcome)
        return outcome

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
        board = widgets.VBox(
            [widgets.HTML("<b>Board</b> (type in a cell or in the line)"), self.grid_box]
        )
        views = widgets.HBox(
            [widgets.VBox([self.counts, self.download]), self.answer],
            layout=widgets.Layout(grid_gap="3em", flex_flow="row wrap"),
        )
        return widgets.VBox(
            [
                widgets.HTML(_GRID_CSS + _BOARD_STYLE),
                puzzle,
                solving,
                self.status,
                widgets.HBox([board, switches], layout=widgets.Layout(grid_gap="2em")),
                views,
                self.excerpt,
            ]
        )

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def _status(outcome: Outcome) -> str:
    if outcome.error:
        return f"<span class='sudosat-no'>{html.escape(outcome.error)}</span>"
    ms = outcome.stats.get("time (ms)", 0.0)
    return (
        f"<span>{html.escape(outcome.solver)}: {html.escape(outcome.status)} "
        f"({_number(ms)} ms to solve, {outcome.encode_ms:.1f} ms to build)</span>"
    )


def _order_of(line: str) -> int | None:
    try:
        return Board.parse(line).order
    except SudosatError:
        return None


# -- the static page -----------------------------------------------------------------


def snapshot_html(settings: Iterable[Mapping[str, Any]], time_limit_ms: float = 10_000) -> str:
    """Static HTML of the workbench's views for several settings (for the exported page).

    Each setting may name ``text`` (default the course example), ``switches``
    (a dict of :class:`Switches` fields), ``encoding`` (default ``custom``, or
    ``course`` when no switch is given) and ``solver`` (default ``cdcl``). The
    views are computed afresh; no live workbench is involved.
    """
    parts = []
    for setting in settings:
        switched = dict(setting.get("switches", {}))
        encoding = setting.get("encoding", CUSTOM if switched else "course")
        switches = Switches(**switched)
        outcome = compute(
            setting.get("text", COURSE_EXAMPLE),
            switches,
            encoding,
            setting.get("solver", "cdcl"),
            time_limit_ms,
        )
        off = [
            _SWITCH_LABELS[name]
            for name in _FAMILY_SWITCHES
            if name != "coverage" and not getattr(switches, name)
        ]
        described = (
            f"encoding <b>{html.escape(outcome.label)}</b>"
            + (
                f", switched off: {html.escape(', '.join(off))}"
                if off and encoding == CUSTOM
                else ""
            )
            + f", at-most-one {switches.amo}, solver <b>{html.escape(outcome.solver)}</b>"
        )
        header = (
            f"<p><b>Puzzle</b> <code>{html.escape(outcome.text.strip()[:90])}</code>; "
            f"{described}</p>"
        )
        rule = "border-top:1px solid #ccc;padding-top:0.6em;margin-top:1em"
        parts.append(
            f"<div style='{rule}'>{header}{verdict_html(switches, encoding)}"
            "<div style='display:flex;flex-wrap:wrap;gap:3em;align-items:flex-start'>"
            f"<div>{counts_html(outcome)}</div><div>{answer_html(outcome)}</div></div>"
            f"<details><summary>the first clauses of each family</summary>"
            f"{excerpt_html(outcome)}</details></div>"
        )
    return _BOARD_STYLE + "".join(parts)
