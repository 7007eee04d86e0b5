"""One setting of the encoding workbench, computed: parse, build, solve, read the answer.

:func:`compute` is what the live workbench (:mod:`sudosat.workbench.widgets`) and its
static page run for each setting: the formula from the clause-family switches
or a registered encoding (:mod:`sudosat.workbench.formula`), solved through
:func:`sudosat.run.runner.run_instance` with the time limit on the solver alone,
and the model read back cell by cell. :class:`RulesCache` keeps the rules
loaded in one solver while only the givens change, so typing in the grid
re-solves without writing the formula again. Nothing here needs ipywidgets.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sudosat.errors import SudosatError
from sudosat.run.generate import generate
from sudosat.run.results import Verdict
from sudosat.run.runner import Prepared, run_instance
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.sudoku.encoding import DEFAULT_MAX_BYTES, ENCODINGS
from sudosat.workbench.formula import Built, Reading, build, read_model, reuses_rules, with_givens
from sudosat.workbench.switches import Switches, preset

__all__ = [
    "COURSE_EXAMPLE",
    "CUSTOM",
    "ORDERS",
    "Outcome",
    "RulesCache",
    "available_solvers",
    "compute",
    "encoding_choices",
    "order_of",
    "parse_cell",
    "puzzle_choices",
    "sample_puzzles",
    "unavailable_solvers",
]

CUSTOM = "custom"
"""The encoding choice that means: the formula the switches describe."""

ORDERS = (1, 2, 3, 4, 5, 6)
"""The orders the workbench offers (each formula is checked against the memory guard)."""

# fraction of cells given in the generated sample of each order: enough that
# our pure-Python solvers answer within the default time limit
_SAMPLE_ALPHA = {1: 0.0, 2: 0.4, 3: 0.4, 4: 0.55, 5: 0.7, 6: 0.8}
_EXTERNAL = ("exec:minisat", "exec:picosat", "exec:cadical", "exec:kissat")


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
    board = generate(order, _SAMPLE_ALPHA.get(order, 0.8), seed=seed)
    puzzles[f"generated (order {order}, {board.num_givens} givens, seed {seed})"] = board.to_line()
    return puzzles


def puzzle_choices(order: int, extra: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """The puzzles offered at `order`: the samples, then the `extra` lines of that order.

    Returns
    -------
    list of (label, line)
        One entry per distinct line, under the first label that names it.
    """
    offered = sample_puzzles(order)
    offered.update({k: v for k, v in (extra or {}).items() if order_of(v) == order})
    first_label: dict[str, str] = {}
    for label, line in offered.items():
        first_label.setdefault(line, label)
    return [(label, line) for line, label in first_label.items()]


def order_of(line: str) -> int | None:
    """The order of the board `line` describes, or None when it does not parse."""
    try:
        return Board.parse(line).order
    except SudosatError:
        return None


def parse_cell(text: str, size: int) -> int:
    """The value a grid cell's text stands for: a number 1..N² or a course letter; blank is 0.

    Raises
    ------
    ValueError
        For anything else; the message names the text.

    Examples
    --------
    >>> parse_cell("B", 16), parse_cell(" ", 9)
    (11, 0)
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


def available_solvers() -> list[str]:
    """Every solver that runs here: ours, zChaff when found, PySAT's, Debian's binaries."""
    from sudosat.sat.solvers import list_solvers

    return [info.name for info in list_solvers(list(_EXTERNAL)) if info.available]


def unavailable_solvers() -> list[str]:
    """The solvers the workbench knows that cannot run here (``pysat:NAME`` without PySAT)."""
    from sudosat.sat.solvers import list_solvers

    return [info.name for info in list_solvers(list(_EXTERNAL)) if not info.available]


def encoding_choices() -> list[str]:
    """``custom`` (the switches) and every registered encoding."""
    return [CUSTOM, *ENCODINGS]


@dataclass
class Outcome:
    """What one setting gave: the formula, the answer, and what the answer breaks."""

    text: str = ""
    board: Board | None = None
    switches: Switches | None = None
    encoding: str = CUSTOM
    solver: str = ""
    built: Built | None = None
    encode_ms: float = 0.0
    status: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    reading: Reading | None = None
    error: str = ""

    @property
    def label(self) -> str:
        """The formula's name: a registered encoding, or ``custom``."""
        return self.built.label if self.built is not None else self.encoding


class RulesCache:
    """The last setting's rules (the formula of the empty board), loaded into one solver.

    While only the givens change (typing in the grid or the line), the
    formula of each puzzle is the rules plus one unit clause per given
    (:func:`sudosat.workbench.formula.with_givens`): the workbench then copies the
    rules instead of writing every family again, and re-solves through the
    solver that already holds them, the givens as assumptions. Any other
    change (order, switches, encoding, solver) builds and loads afresh.

    Attributes
    ----------
    loads : int
        How many times rules were built and loaded (for tests and curious readers).
    """

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.rules: Built | None = None
        self.loaded: Any = None
        self.loads = 0

    def get(self, key: tuple, board: Board, switches: Switches, solver: str, max_bytes: int):
        """(rules, loaded solver) for `key`, built and loaded when the key changed."""
        from sudosat.sudoku.incremental import open_solver

        if key != self.key:
            self.close()
            rules = build(Board.empty(board.order), switches, max_bytes=max_bytes)
            self.loaded = open_solver(solver, rules.cnf)
            self.key, self.rules = key, rules
            self.loads += 1
        return self.rules, self.loaded

    def close(self) -> None:
        """Let the loaded solver go."""
        if self.loaded is not None:
            self.loaded.close()
        self.key = self.rules = self.loaded = None


def compute(
    text: str,
    switches: Switches,
    encoding: str,
    solver: str,
    time_limit_ms: float | None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    cache: RulesCache | None = None,
) -> Outcome:
    """Parse, build, solve and read one setting; errors become ``Outcome.error``.

    Parameters
    ----------
    text : str
        An instance line in any format :meth:`Board.parse` reads.
    switches : Switches
        Used when `encoding` is ``custom``.
    encoding : str
        ``custom`` or a registered encoding name (which overrides the switches).
    solver : str
    time_limit_ms : float or None
        The solver's wall-clock limit (building the formula is not counted);
        running out reads TIMEOUT, never UNSAT.
    max_bytes : int
        The memory guard: a formula estimated above it is refused before building.
    cache : RulesCache, optional
        Keep the rules loaded between calls that differ only in the givens
        (the live workbench passes its own).
    """
    outcome = Outcome(text=text, switches=switches, encoding=encoding, solver=solver)
    try:
        outcome.board = Board.parse(text.strip(), source="<workbench>")
        started = time.perf_counter()
        prepared = _prepare(outcome.board, switches, encoding, solver, max_bytes, cache)
        outcome.built = prepared.formula
        outcome.encode_ms = (time.perf_counter() - started) * 1000.0
    except SudosatError as exc:
        outcome.error = str(exc)
        return outcome
    done = run_instance(
        outcome.board,
        solver,
        replace(prepared, encode_wall_ms=outcome.encode_ms),
        time_limit_ms,
        limit_covers="solver",
    )
    result = done.result
    if result is None:  # the solver did not run or failed: the row says why
        outcome.error = done.row.error or "the solver gave no answer"
        return outcome
    # The solver's own answer (SAT even where switched-off families let its board break
    # the rules); without a decision, the word for why it stopped: TIMEOUT or UNKNOWN.
    outcome.status = str(Verdict.of(result.status, result.stop))
    outcome.stats = {"time (ms)": round(result.elapsed_ms, 2), **result.stats}
    if result.is_sat and result.model is not None:  # the model was checked against the CNF
        outcome.reading = read_model(outcome.built, result.model)
    return outcome


def _prepare(
    board: Board,
    switches: Switches,
    encoding: str,
    solver: str,
    max_bytes: int,
    cache: RulesCache | None,
) -> Prepared:
    """The formula of one setting; from the cached rules when only the givens changed."""
    chosen = switches if encoding == CUSTOM else preset(encoding)
    if cache is None or chosen is None or not reuses_rules(chosen):
        if encoding == CUSTOM:
            return Prepared(build(board, switches, max_bytes=max_bytes))
        return Prepared(build(board, encoding=encoding, max_bytes=max_bytes))
    key = (board.order, chosen, solver, max_bytes)
    rules, loaded = cache.get(key, board, chosen, solver, max_bytes)
    built, givens = with_givens(rules, board)
    return Prepared(built, loaded=loaded, assumptions=tuple(givens))
