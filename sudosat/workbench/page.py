"""The workbench without widgets: the reader's settings in, every view out, as plain data.

The live page (``make live``, :mod:`sudosat.live`) runs this module in the
reader's browser through Pyodide: its script draws the controls and the
editable grid, sends each change here as a dict (JSON in the browser), and
puts the views it gets back into the page. The views are those of
:mod:`sudosat.workbench.views`, computed by :func:`sudosat.workbench.compute.compute`,
so the page shows what the JupyterLab widget (:mod:`sudosat.workbench.widgets`)
shows; nothing here needs ipywidgets.

A request names what the reader changed (``changed``) and carries the current
settings::

    {"changed": "switches", "text": "3 ...", "encoding": "custom",
     "switches": {"boxes": false, "amo": "pairwise", ...}, "solver": "cdcl",
     "time_limit_ms": 10000}

``changed`` is one of :data:`CHANGES`: choosing an encoding moves the switches
to its families, moving a switch names the encoding they rebuild (or
``custom``), a new order offers that order's puzzles and loads the first, a
cell edit (``cells``: the grid's texts, row by row) rewrites the line. A request
that changes no board (an encoding, a switch, a setting) may carry ``cells`` too:
the grid's edits not yet answered, which then win over ``text``. The
answer (:meth:`Session.respond`) holds the settled settings, the puzzles of
the order, the grid's contents and the views.

What the page cannot do within seconds is refused before any work, in words
naming its own controls: a board beyond :data:`~sudosat.workbench.compute.ORDERS`
(an order-7 board took the page well over half a minute) and a time limit
outside :data:`LIMIT_MS`. A large DIMACS is written on request, a slice at a
time (:meth:`Session.dimacs_parts`), for the page to save as a file.

Examples
--------
>>> session = Session(time_limit_ms=10_000)
>>> answer = session.respond({"changed": "start"})
>>> answer["state"]["encoding"], answer["board"]["order"]
('course', 3)
>>> "sudosat-valid" in answer["views"]["answer"]
True
>>> answer = session.respond({**answer["state"], "changed": "switches",
...                           "switches": {**answer["state"]["switches"], "boxes": False}})
>>> answer["state"]["encoding"], "not a correct encoding" in answer["views"]["verdict"]
('custom', True)
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping
from dataclasses import asdict
from typing import Any

from sudosat.errors import SudosatError
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
    parse_cell,
    puzzle_choices,
    unavailable_solvers,
)
from sudosat.workbench.switches import (
    GIVENS_MODES,
    SETTINGS,
    Switches,
    family_switches,
    matching_encoding,
    preset,
)
from sudosat.workbench.views import (
    EAGER_DOWNLOAD,
    VIEW_STYLE,
    answer_html,
    clashing_givens,
    counts_html,
    dimacs_at_least,
    dimacs_name,
    download_html,
    excerpt_html,
    status_html,
    verdict_html,
)

__all__ = ["CHANGES", "LIMIT_MS", "Session", "choices"]

CHANGES = ("start", "order", "puzzle", "text", "cell", "encoding", "switches", "setting")
"""What a request may say the reader changed (``setting``: the solver or the time limit)."""

_NEW_BOARD = ("start", "order", "puzzle", "text")  # changes that bring their own board

LIMIT_MS = {"min": 100, "max": 3_600_000, "default": 10_000}
"""The time limits the page accepts, in ms of wall-clock time (its label says so)."""


def choices() -> dict[str, Any]:
    """Every choice the page offers, with the labels JupyterLab's widget shows.

    ``unavailable`` names the solvers the workbench knows that cannot run here
    (in a browser: zChaff, the ``exec:`` programs and PySAT's compiled
    solvers), so the page can say so instead of leaving them out silently;
    ``style`` is the style sheet of the views
    (:data:`sudosat.workbench.views.VIEW_STYLE`).
    """
    return {
        "style": VIEW_STYLE,
        "orders": list(ORDERS),
        "encodings": encoding_choices(),
        "families": [asdict(switch) for switch in family_switches()],
        "givens": list(GIVENS_MODES),
        "amo": list(AMO_METHODS),
        "numberings": [
            {"name": name, "description": description}
            for name, description in NUMBERINGS.items()
        ],
        "solvers": available_solvers(),
        "unavailable": unavailable_solvers(),
        "limit_ms": dict(LIMIT_MS),
    }


class Session:
    """One reader's workbench: the rules kept loaded between edits, the last outcome.

    Parameters
    ----------
    puzzles : mapping of str to str, optional
        Extra labelled instance lines offered beside the samples of their order.
    time_limit_ms : float
        The default solver's wall-clock limit (a request may name another).
    max_bytes : int
        The memory guard: formulas estimated above it are refused.
    """

    def __init__(
        self,
        puzzles: Mapping[str, str] | None = None,
        time_limit_ms: float = 10_000,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.extra = dict(puzzles or {})
        self.time_limit_ms = time_limit_ms
        self.max_bytes = max_bytes
        self.rules_cache = RulesCache()
        self.outcome = Outcome()

    def respond(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Settle the settings `request` carries, compute them, and return every view.

        Returns
        -------
        dict
            ``state`` (the settled settings, to put back into the controls),
            ``puzzles`` (label, line) of the board's order and ``puzzle`` (the
            offered line shown, or None), ``board`` (``order``, ``given``,
            ``hint``: the solution's values for empty cells when the answer is
            valid, ``bad``: cells to mark), ``views`` (HTML by name:
            ``status``, ``verdict``, ``counts``, ``excerpt``, ``download``,
            ``answer``) and ``download_later`` (the DIMACS is large: the page
            asks :meth:`dimacs_parts` when the reader wants it), ``times`` (``build_ms``
            and ``solve_ms``: building the formula, the solver's wall-clock time).
            A request refused before any work (:meth:`_refused`) answers
            ``state`` None, ``error`` and ``views`` with the status alone.
        """
        changed = request.get("changed", "start")
        if changed not in CHANGES:
            raise ValueError(f"unknown change {changed!r}: one of {', '.join(CHANGES)}")
        encoding = str(request.get("encoding", "course"))
        try:
            switches = _switches(request.get("switches"))
        except (SudosatError, TypeError) as exc:
            return self._refused(request, f"switches: {exc}")
        solver = str(request.get("solver") or available_solvers()[0])
        limit = _limit(request.get("time_limit_ms"), self.time_limit_ms)
        if limit is None:
            low, high = LIMIT_MS["min"], LIMIT_MS["max"]
            return self._refused(
                request,
                f"the time limit must be a number of ms from {low:,} to {high:,}: "
                "type one in 'limit'",
            )
        if changed == "switches":
            encoding = matching_encoding(switches) or CUSTOM
        try:
            registered = None if encoding == CUSTOM else preset(encoding)
        except SudosatError as exc:  # an encoding the switches cannot rebuild
            return self._refused(request, str(exc))
        if changed in ("start", "encoding") and registered is not None:
            switches = registered
        enabled = encoding == CUSTOM or registered is not None
        text = self._text(changed, request)
        if isinstance(text, _Refusal):
            return self._refused(request, text.reason, bad=[text.cell])
        order = order_of(text)  # None: the line does not parse, and compute says why
        if order is not None and order > max(ORDERS):
            return self._refused(request, _too_large(order))
        self.outcome = compute(
            text, switches, encoding, solver, limit, self.max_bytes, self.rules_cache
        )
        state = {
            "text": text,
            "encoding": encoding,
            "switches": switches.settings(),
            "switches_enabled": enabled,
            "solver": solver,
            "time_limit_ms": limit,
        }
        return {"state": state, **self._views(self.outcome)}

    def dimacs_name(self) -> str:
        """The file name the last outcome's DIMACS is saved under ('' without a formula)."""
        built = self.outcome.built
        return "" if built is None else dimacs_name(built)

    def dimacs_parts(self) -> Iterator[str]:
        """The last outcome's whole DIMACS, as :meth:`CNF.to_dimacs` writes it, a slice at a time.

        The page joins the slices into a file in the browser (order 6 writes
        about 50 MB), so no single string holds the whole text. Nothing is
        yielded without a formula.
        """
        built = self.outcome.built
        if built is None:
            return
        cnf = built.cnf
        if cnf.has_empty_clause or not cnf.num_clauses:
            yield cnf.to_dimacs()
            return
        head = [f"c {text}".rstrip() for text in cnf.comments]
        yield "\n".join([*head, f"p cnf {cnf.num_vars} {cnf.num_clauses}"]) + "\n"
        yield from cnf.dimacs_clause_lines()

    def _text(self, changed: str, request: Mapping[str, Any]) -> str | _Refusal:
        """The puzzle line the change leads to."""
        if changed == "start":
            return str(request.get("text") or COURSE_EXAMPLE)
        if changed == "order":
            order = int(request["order"])
            return puzzle_choices(order, self.extra)[0][1]
        if changed == "cell" or (changed not in _NEW_BOARD and request.get("cells")):
            cells = [str(cell) for cell in request["cells"]]
            order = round(len(cells) ** 0.25)
            if order < 1 or order**4 != len(cells):
                return _Refusal(f"{len(cells)} cells make no board", 0)
            values = []
            for index, cell in enumerate(cells):
                try:
                    values.append(parse_cell(cell, order * order))
                except ValueError as exc:
                    where = f"cell ({index // order**2 + 1}, {index % order**2 + 1})"
                    return _Refusal(f"{where}: {exc}", index)
            return Board(order, values).to_line()
        return str(request.get("text", ""))

    def _views(self, outcome: Outcome) -> dict[str, Any]:
        board = outcome.board
        at_least = dimacs_at_least(outcome)
        later = at_least > EAGER_DOWNLOAD
        download = (
            f"<p>The DIMACS takes at least {at_least / 1e6:.0f} MB: the button writes it "
            "here and saves it as a file.</p>"
            if later
            else download_html(outcome)
        )
        views = {
            "status": status_html(outcome),
            "verdict": verdict_html(outcome.switches or Switches(), outcome.encoding),
            "counts": counts_html(outcome),
            "excerpt": excerpt_html(outcome),
            "download": download,
            "answer": answer_html(outcome),
        }
        grid = None
        offered: list[tuple[str, str]] = []
        if board is not None:
            reading = outcome.reading
            solution = reading.board if reading is not None and reading.valid else None
            bad = sorted(clashing_givens(board)) if outcome.status == Verdict.UNSAT else []
            grid = {
                "order": board.order,
                "given": list(board.cells),
                "hint": list(solution.cells) if solution is not None else None,
                "bad": bad,
            }
            offered = puzzle_choices(board.order, self.extra)
        line = board.to_line() if board is not None else None
        shown = line if any(line == offered_line for _, offered_line in offered) else None
        times = {"build_ms": outcome.encode_ms, "solve_ms": outcome.stats.get("time (ms)")}
        return {
            "board": grid,
            "times": times,
            "puzzles": offered,
            "puzzle": shown,
            "views": views,
            "download_later": later,
        }

    def _refused(
        self, request: Mapping[str, Any], reason: str, bad: list[int] | None = None
    ) -> dict[str, Any]:
        """The answer to a request that cannot be computed: the reason, nothing else changes."""
        status = f"<span class='sudosat-no'>{html.escape(reason)}</span>"
        return {"state": None, "error": reason, "bad": bad or [], "views": {"status": status}}


def _limit(given: Any, default: float) -> float | None:
    """The time limit a request names (its default when it names none); None when out of bounds."""
    if given is None or given == "":
        return default
    try:
        limit = float(given)
    except (TypeError, ValueError):
        return None
    return limit if LIMIT_MS["min"] <= limit <= LIMIT_MS["max"] else None


def _too_large(order: int) -> str:
    """Why a board of `order` is refused, in words naming the page's controls."""
    top = max(ORDERS)
    return (
        f"order {order} is beyond this page: it builds and solves orders 1 to {top} within "
        "seconds, and a larger board takes half a minute or more here; choose an order in "
        f"'order', or type a line of order {top} or less in 'line'"
    )


class _Refusal:
    """A cell the reader typed that is no symbol: why, and which cell."""

    def __init__(self, reason: str, cell: int) -> None:
        self.reason, self.cell = reason, cell


def _switches(given: Any) -> Switches:
    """Switches from a request's mapping (missing fields keep their defaults)."""
    if not given:
        return Switches()
    names = [*(switch.name for switch in family_switches()), *SETTINGS]
    return Switches(**{name: given[name] for name in names if name in given})
