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
cell edit (``cells``: the grid's texts, row by row) rewrites the line. The
answer (:meth:`Session.respond`) holds the settled settings, the puzzles of
the order, the grid's contents and the views.

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
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any

from sudosat.errors import SudosatError
from sudosat.run.results import Verdict
from sudosat.sat.amo import AMO_METHODS
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import DEFAULT_MAX_BYTES
from sudosat.workbench.compute import (
    COURSE_EXAMPLE,
    CUSTOM,
    ORDERS,
    Outcome,
    RulesCache,
    available_solvers,
    compute,
    encoding_choices,
    parse_cell,
    puzzle_choices,
    unavailable_solvers,
)
from sudosat.workbench.formula import (
    FAMILY_LABELS,
    GIVENS_MODES,
    NUMBERINGS,
    Switches,
    matching_encoding,
    preset,
)
from sudosat.workbench.views import (
    EAGER_DOWNLOAD,
    FAMILY_SWITCHES,
    SWITCH_LABELS,
    VIEW_STYLE,
    answer_html,
    clashing_givens,
    counts_html,
    dimacs_at_least,
    download_html,
    excerpt_html,
    status_html,
    verdict_html,
)

__all__ = ["CHANGES", "Session", "choices"]

CHANGES = ("start", "order", "puzzle", "text", "cell", "encoding", "switches", "setting")
"""What a request may say the reader changed (``setting``: the solver or the time limit)."""


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
        "families": [
            {"name": name, "label": SWITCH_LABELS[name], "title": FAMILY_LABELS[name]}
            for name in FAMILY_SWITCHES
        ],
        "givens": list(GIVENS_MODES),
        "amo": list(AMO_METHODS),
        "numberings": [
            {"name": name, "description": numbering.description}
            for name, numbering in NUMBERINGS.items()
        ],
        "solvers": available_solvers(),
        "unavailable": unavailable_solvers(),
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
            asks :meth:`download` when the reader wants it), ``times`` (``build_ms``
            and ``solve_ms``: building the formula, the solver's wall-clock time).
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
        limit = float(request.get("time_limit_ms") or self.time_limit_ms)
        if changed in ("start", "encoding") and encoding != CUSTOM:
            switches = preset(encoding) or switches
        elif changed == "switches":
            encoding = matching_encoding(switches) or CUSTOM
        enabled = encoding == CUSTOM or preset(encoding) is not None
        text = self._text(changed, request)
        if isinstance(text, _Refusal):
            return self._refused(request, text.reason, bad=[text.cell])
        self.outcome = compute(
            text, switches, encoding, solver, limit, self.max_bytes, self.rules_cache
        )
        state = {
            "text": text,
            "encoding": encoding,
            "switches": asdict(switches),
            "switches_enabled": enabled,
            "solver": solver,
            "time_limit_ms": limit,
        }
        return {"state": state, **self._views(self.outcome)}

    def download(self) -> str:
        """The DIMACS download link of the last outcome (written now, however large)."""
        return download_html(self.outcome)

    def _text(self, changed: str, request: Mapping[str, Any]) -> str | _Refusal:
        """The puzzle line the change leads to."""
        if changed == "start":
            return str(request.get("text") or COURSE_EXAMPLE)
        if changed == "order":
            order = int(request["order"])
            return puzzle_choices(order, self.extra)[0][1]
        if changed == "cell":
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
            f"<p>The DIMACS takes at least {at_least / 1e6:.0f} MB: the button writes it.</p>"
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


class _Refusal:
    """A cell the reader typed that is no symbol: why, and which cell."""

    def __init__(self, reason: str, cell: int) -> None:
        self.reason, self.cell = reason, cell


def _switches(given: Any) -> Switches:
    """Switches from a request's mapping (missing fields keep their defaults)."""
    if not given:
        return Switches()
    known = {name: given[name] for name in asdict(Switches()) if name in given}
    return replace(Switches(), **known)
