"""The workbench's views: the board, the formula's counts, its first clauses, the answer.

Plain functions from an :class:`~sudosat.workbench.compute.Outcome` to HTML,
so that the live widget (:mod:`sudosat.workbench.widgets`), the tests and the
static page of the report read the same text. :func:`snapshot_html` renders
the views for given settings as one static block for the exported page; it
builds its own state and never touches a live workbench.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Mapping
from typing import Any

from sudosat.errors import SudosatError
from sudosat.run.results import Verdict
from sudosat.sudoku.board import Board, units
from sudosat.sudoku.board_view import BOARD_STYLE, EMPTY, board_table
from sudosat.sudoku.encoding import estimate
from sudosat.sudoku.encoding.families import DECLARED
from sudosat.workbench.compute import COURSE_EXAMPLE, CUSTOM, Outcome, compute
from sudosat.workbench.formula import Built, Reading, cnf_excerpt
from sudosat.workbench.switches import Switches, family_switches, preset, verdict

DOWNLOAD_LIMIT = 8_000_000  # bytes of DIMACS embedded in the page as a download link
# Above this many bytes (at least), the live workbench writes the DIMACS only when the
# reader asks: writing and sending megabytes on every change made order 5 slow.
EAGER_DOWNLOAD = 1_000_000


# -- views (plain HTML, so that tests and the static page read the same) ----------------

VIEW_STYLE = (
    f"<style>{BOARD_STYLE}"
    ".sudosat-ok{color:#060;font-weight:bold}.sudosat-no{color:#b00;font-weight:bold}"
    "table.sudosat-counts td,table.sudosat-counts th{padding:1px 8px;text-align:right}"
    "table.sudosat-counts td:first-child,table.sudosat-counts th:first-child{text-align:left}"
    "</style>"
)
"""The style sheet of the boards and the counts tables (one ``<style>`` element).

Each board carries the board's rules; a page shows this once for its other tables.
"""


def board_html(
    puzzle: Board, reading: Reading | None = None, clashing: frozenset[int] = frozenset()
) -> str:
    """`puzzle` (or the answer `reading` describes) as a table: givens bold, broken units shaded.

    Cells of a broken unit are shaded orange and carry ``data-units`` naming
    their broken units (``box 1`` ...); a symbol repeated in a unit is red; a
    cell that holds no symbol, several, or not its given is red, and so are
    the `clashing` givens. Rows and columns count from 1, as the reader does.
    The table (:func:`sudosat.sudoku.board_view.board_table`) sits in a box
    that scrolls sideways when the page is narrower.
    """
    broken: dict[int, list[str]] = {}
    if reading is not None:
        table = {(kind, number): members for kind, number, members in units(puzzle.order)}
        for kind, number in reading.broken_units:
            for cell in table[(kind, number)]:
                broken.setdefault(cell, []).append(f"{kind} {number}")
    texts, marks = [], []
    for cell, given in enumerate(puzzle.cells):
        held = reading.cells[cell] if reading is not None else (given,) if given else ()
        classes = ["given"] * bool(given) + ["broken"] * (cell in broken)
        if reading is not None and cell in reading.bad_cells:
            classes.append("bad")
        if cell in clashing or (reading is not None and cell in reading.clash_cells):
            classes.append("clash")
        if len(held) > 1:
            classes.append("many")
        texts.append("·".join(map(str, held)) if held else EMPTY)
        marks.append(classes)
    where = {cell: ", ".join(names) for cell, names in broken.items()}
    return (
        '<div class="sudosat-wb-scroll" style="overflow-x:auto;max-width:100%">'
        f"{board_table(puzzle.order, texts, marks, where)}</div>"
    )


def counts_html(outcome: Outcome) -> str:
    """Variables, clauses and literals per family, the totals, and the change from the course."""
    built = outcome.built
    if built is None:
        return ""
    rows = []
    for family in built.families:
        title = DECLARED[family.name].label if family.name in DECLARED else family.name
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
    cnf = built.cnf
    parts = [  # the sizes in words too: a page of several excerpts tells them apart
        f"<div><b>The CNF</b> (<code>p cnf {cnf.num_vars} {cnf.num_clauses}</code>) has "
        f"{cnf.num_vars:,} variables and {cnf.num_clauses:,} clauses; the first clauses of "
        "each family:</div>"
    ]
    for name, count, clauses in cnf_excerpt(built):
        lines = "\n".join(f"{dimacs:<28} {readable}" for readable, dimacs in clauses)
        more = f"\n… {count - len(clauses):,} more" if count > len(clauses) else ""
        parts.append(
            f"<div style='margin-top:0.3em'><i>{html.escape(name)}</i> ({count:,} clauses)</div>"
            # long clauses (25 literals at order 5) scroll in their own box, not the page
            "<div style='overflow-x:auto;max-width:100%'>"
            "<pre style='font-size:11px;line-height:1.3;margin:0;white-space:pre'>"
            f"{html.escape(lines + more)}</pre></div>"
        )
    return "".join(parts)


def dimacs_at_least(outcome: Outcome) -> int:
    """A lower bound on the DIMACS text's bytes, without writing it (0 without a formula).

    Every literal and every closing 0 takes at least two characters.
    """
    built = outcome.built
    return 0 if built is None else 2 * (built.cnf.num_literals + built.cnf.num_clauses)


def dimacs_name(built: Built) -> str:
    """The file name a formula's DIMACS is saved under: its order and its encoding."""
    return f"sudoku-order{built.board.order}-{built.label}.cnf"


def download_html(outcome: Outcome) -> str:
    """A link that downloads the whole DIMACS (embedded while it is small enough)."""
    built = outcome.built
    if built is None:
        return ""
    cnf = built.cnf
    name = dimacs_name(built)
    # skip writing a text that is bound to be too large (order 6 runs to tens of megabytes)
    at_least = dimacs_at_least(outcome)
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


VALID_RULE = "every row, column and box holds each symbol once; the givens are kept"
CORRECT_RULE = (
    "Correct exactly when (1) every cell gets one symbol: completeness with uniqueness or "
    "with a validity family, or uniqueness with at-least-once; and (2) rows, columns and "
    "boxes each keep validity or at-least-once."
)

STAT_LABELS = {
    "time (ms)": "solve time (ms, wall clock)",
    "load_cpu_ms": "loading the clauses (ms, CPU time)",
    "load_wall_ms": "loading the clauses (ms, wall clock)",
    "search_cpu_ms": "searching (ms, CPU time)",
    "search_wall_ms": "searching (ms, wall clock)",
    "cpu_ms": "solver CPU time, every call (ms)",
    "process_wall_ms": "solver process (ms, wall clock)",
    "decisions": "decisions (branching choices)",
    "propagations": "propagated literals",
    "conflicts": "conflicts",
    "restarts": "restarts",
    "learnt": "learnt clauses",
    "deleted": "learnt clauses deleted",
    "backjumped": "literals unassigned by backjumps",
    "levels_jumped": "decision levels undone by backjumps",
    "pure_literals": "pure literals set",
    "flips": "flips",
    "tries": "tries (fresh random assignments)",
    "fixed_by_propagation": "variables fixed by propagation first",
    "search_variables": "variables left to the search",
    "unsat_at_end": "clauses false at the end",
    "best_unsat_at_restart": "fewest clauses false at a try's end",
}
"""The solvers' counters in words; a counter not listed shows its key with blanks."""


def stat_label(key: str) -> str:
    """`key` of a solver's counters in words (:data:`STAT_LABELS`)."""
    return STAT_LABELS.get(key, key.replace("_", " "))


def clashing_givens(board: Board) -> frozenset[int]:
    """The cells (row-major indices) holding a symbol that a unit of theirs holds twice."""
    found: set[int] = set()
    for _, _, members in units(board.order):
        seen: dict[int, list[int]] = {}
        for cell in members:
            if board.cells[cell]:
                seen.setdefault(board.cells[cell], []).append(cell)
        found.update(c for cells in seen.values() if len(cells) > 1 for c in cells)
    return frozenset(found)


def clash_words(board: Board) -> str:
    """Why the givens clash, unit by unit (empty when they do not)."""
    clashes = board.clashes()
    if not clashes:
        return ""
    shown = "; ".join(clashes[:6]) + (f"; and {len(clashes) - 6} more" if len(clashes) > 6 else "")
    return f"the givens clash: {shown}"


def answer_html(outcome: Outcome, explain: bool = True) -> str:
    """The solver's answer, whether the board obeys the rules, the board, and the counters.

    With `explain` false, a valid board's message leaves out what "valid"
    means (:data:`VALID_RULE`): a page showing several answers says it once.
    """
    if outcome.error:
        return f"<p class='sudosat-no'>Error: {html.escape(outcome.error)}</p>"
    if outcome.board is None:
        return ""
    head = f"<b>{html.escape(outcome.solver)}: {html.escape(outcome.status)}</b>"
    reading = outcome.reading
    if reading is None:
        body = _no_model_html(outcome, outcome.board)
    elif reading.valid:
        rule = f" ({VALID_RULE})" if explain else ""
        body = (
            f"<p class='sudosat-ok sudosat-valid'>✓ the solver's board is a valid solution{rule}"
            "</p>" + board_html(outcome.board, reading)
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
        f"<tr><td title='{html.escape(str(k))}'>{html.escape(stat_label(str(k)))}</td>"
        f"<td>{_number(v)}</td></tr>"
        for k, v in outcome.stats.items()
    )
    return f"{head}{body}<table class='sudosat-counts sudosat-stats'>{stats}</table>"


def _no_model_html(outcome: Outcome, board: Board) -> str:
    """No board came back: why (UNSAT with the clashing givens named, or no decision)."""
    why: dict[str, str] = {
        Verdict.UNSAT: "the formula has no model: the puzzle has no solution under these clauses",
        Verdict.TIMEOUT: "no decision within the time limit: this is not UNSAT",
        Verdict.UNKNOWN: "no decision: the local search gave up with time left, which is not UNSAT",
    }
    said = why.get(outcome.status, "")
    clashing: frozenset[int] = frozenset()
    if outcome.status == Verdict.UNSAT:
        words = clash_words(board)
        if words:
            said = f"{said}; {words}"
            clashing = clashing_givens(board)
    css = " class='sudosat-clashes'" if clashing else ""
    return f"<p{css}>{html.escape(said)}</p>" + board_html(board, clashing=clashing)


def status_html(outcome: Outcome) -> str:
    """The status line: the solver's answer and the times to solve and to build, or the error."""
    if outcome.error:
        return f"<span class='sudosat-no'>{html.escape(outcome.error)}</span>"
    ms = outcome.stats.get("time (ms)", 0.0)
    why = clash_words(outcome.board) if outcome.status == Verdict.UNSAT and outcome.board else ""
    return (
        f"<span>{html.escape(outcome.solver)}: {html.escape(outcome.status)} "
        f"({ms:,.1f} ms to solve, {outcome.encode_ms:.1f} ms to build)"
        + (f": {html.escape(why)}" if why else "")
        + "</span>"
    )


def verdict_html(switches: Switches, encoding: str, explain: bool = True) -> str:
    """Whether the current switches still make a correct encoding, and why.

    With `explain` false, the rule that decides (:data:`CORRECT_RULE`) is left
    out: a page showing several verdicts states it once.
    """
    try:
        registered = None if encoding == CUSTOM else preset(encoding)
    except SudosatError as exc:  # an encoding the switches cannot rebuild: why, in one line
        return f"<p class='sudosat-no sudosat-verdict'>{html.escape(str(exc))}</p>"
    if encoding != CUSTOM and registered is None:
        return (
            f"<p class='sudosat-ok sudosat-verdict'>{html.escape(encoding)}: a registered, "
            "correct encoding (the givens decide what they can before the solver starts; "
            "the switches do not apply)</p>"
        )
    correct, reason = verdict(switches)
    css = "sudosat-ok" if correct else "sudosat-no"
    rule = f"<p style='font-size:85%;color:#444;margin:0'>{CORRECT_RULE}</p>" if explain else ""
    return (
        f"<p class='{css} sudosat-verdict' style='margin:0.2em 0'>{html.escape(reason)}</p>{rule}"
    )


def _number(value: Any) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f}"
    if isinstance(value, int | float):
        return f"{int(value):,}"
    return html.escape(str(value))


# -- the static page -----------------------------------------------------------------


def snapshot_html(settings: Iterable[Mapping[str, Any]], time_limit_ms: float = 10_000) -> str:
    """Static HTML of the workbench's views for several settings (for the exported page).

    Each setting may name ``text`` (default the course example), ``switches``
    (a dict of :class:`Switches` fields), ``encoding`` (default ``custom``, or
    ``course`` when no switch is given) and ``solver`` (default ``cdcl``). The
    views are computed afresh; no live workbench is involved.
    """
    parts = [  # what "correct" and "valid" mean, said once for every setting below
        f"<p style='font-size:85%;color:#444'>{CORRECT_RULE} A ✓ board is valid: {VALID_RULE}.</p>"
    ]
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
        course = Switches().on  # the families the course writes that these switch off
        off = [s.label for s in family_switches() if s.name in course and s.name not in switches.on]
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
            f"<div style='{rule}'>{header}{verdict_html(switches, encoding, explain=False)}"
            "<div style='display:flex;flex-wrap:wrap;gap:3em;align-items:flex-start'>"
            f"<div>{counts_html(outcome)}</div><div>{answer_html(outcome, explain=False)}</div>"
            "</div><details><summary>the CNF, clause by clause</summary>"
            f"{excerpt_html(outcome)}</details></div>"
        )
    return VIEW_STYLE + "".join(parts)
