"""Shared fixtures and test data the project ships or makes.

Every data file a test reads is in the repository (``data/``) or is made here by
the project's own code: the "SAT -Sn" assignment's rules file by ``sudosat encode
--format vu --with-rules``, puzzles by the generator with fixed seeds. A few
well-known hard 9x9 puzzles are written out literally below.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from sudosat.sat.solvers.cdcl.cores import CORE_VARIABLE, compiled_built
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from tests.hang_guard import pytest_timeout_set_timer  # noqa: F401  (a hook: pytest finds it here)

ROOT = Path(__file__).resolve().parent.parent

COURSE_SOLUTION = (
    "3 816435279427986135593217846974562381235198467168374592749821653651743928382659714"
)

# Hard 9x9 puzzles from the literature, each with exactly one solution ('.' empty): Arto
# Inkala's 2012 puzzle, his "AI Escargot", "Easter Monster", the first of the top95
# collection, and two from Peter Norvig's essay on solving every Sudoku.
HARD_9X9 = (
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
)

# The assignment's own rules file declares 12,016 clauses in its header and holds 11,988;
# the rules file below carries that header, so a test meets the warning a student meets.
VU_RULES_HEADER = "p cnf 999 12016"

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

# Ctrl-C as a terminal sends it. A suite started in the background of a non-interactive
# shell (`make test &` in a script) inherits SIGINT ignored; Python then installs no handler
# of its own, and every child a test starts would inherit the ignored signal and never see
# the Ctrl-C the test sends it (the child runs on, and the test waits in vain). A program a
# user starts in a terminal's foreground has SIGINT's default action: the children get it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(params=["python", "compiled"])
def cdcl_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test once on each cdcl core, chosen through ``SUDOSAT_CORE`` (subprocesses too).

    A cdcl test file takes it for every test (``pytestmark``), so a feature that exists
    in one core only fails a test. The compiled run skips where the twin is not built
    (test_cdcl_cores checks that it is wherever a C compiler works); a test marked
    ``reference_core`` runs on the Python core only: it reads that engine's own tables,
    or never reaches the twin (an Engine built directly, settings or an observer that
    fall back to the reference, or no core at all).
    """
    core = request.param
    if core == "compiled":
        if request.node.get_closest_marker("reference_core"):
            pytest.skip("runs the pure-Python core only (its internals, or what the twin hands it)")
        if not compiled_built():
            pytest.skip("the compiled cdcl core is not built here (no C compiler at install)")
    monkeypatch.setenv(CORE_VARIABLE, core)
    return core


@pytest.fixture
def python_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin cdcl to the pure-Python core: for tests that read its engine's own tables."""
    monkeypatch.setenv(CORE_VARIABLE, "python")


@functools.cache
def _scratch() -> Path:
    """One folder per test process for the files made below, removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="sudosat-tests-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@functools.cache
def vu_rules_file() -> Path:
    """The "SAT -Sn" assignment's 9x9 rules file (rcv numbering: 111..999), made by our code.

    ``sudosat encode --format vu --with-rules`` on an empty board writes the same 11,988
    clauses as the assignment's ``sudoku-rules-9x9.txt``, which ``tests/test_vu_workflow.py``
    checks against the rules' definition; the header is the assignment file's (see
    `VU_RULES_HEADER`).
    """
    from sudosat.cli import main

    board = _scratch() / "empty-9x9.txt"
    board.write_text(Board.empty(3).to_line() + "\n", encoding="utf-8")
    written = _scratch() / "written-rules.cnf"
    if main(["encode", "--format", "vu", "--with-rules", str(board), "-o", str(written)]) != 0:
        raise RuntimeError("sudosat encode --format vu --with-rules failed on an empty board")
    lines = [line for line in written.read_text(encoding="utf-8").splitlines()
             if not line.startswith(("c", "p"))]
    rules = _scratch() / "sudoku-rules-9x9.txt"
    rules.write_text("\n".join([VU_RULES_HEADER, *lines]) + "\n", encoding="utf-8")
    return rules


def hard_puzzles(count: int) -> list[str]:
    """`count` 9x9 puzzles of one solution as 81-character grid lines ('.' empty).

    First `HARD_9X9`, then the 48 minimal puzzles of ``data/instances.txt`` (lines 2-49,
    listed easiest first) from the last, then minimal puzzles of the project's generator
    with seeds 0, 1, ... (a few hundredths of a second each).
    """
    from sudosat.run.generate import generate

    puzzles = [*HARD_9X9, *graded_puzzles()][:count]
    seed = 0
    while len(puzzles) < count:
        puzzles.append(generate(3, 0.0, minimal=True, seed=seed).to_grid())
        seed += 1
    return puzzles


def graded_puzzles(count: int = 48) -> list[str]:
    """The `count` hardest of the 48 minimal 9x9 puzzles of ``data/instances.txt`` (lines
    2-49, listed easiest first), hardest first, as grid lines."""
    lines = (ROOT / "data" / "instances.txt").read_text(encoding="utf-8").splitlines()
    return [Board.parse(line).to_grid() for line in reversed(lines[1:49])][:count]


def generated_lines(order: int, count: int, alpha: float = 0.45, seed: int = 0) -> list[str]:
    """`count` feasible boards of `order` from the project's generator, as grid lines."""
    from sudosat.run.generate import generate_many

    return [board.to_grid() for board in generate_many(order, alpha, count, seed=seed)]


@pytest.fixture
def course_example() -> str:
    return COURSE_EXAMPLE


@pytest.fixture
def course_solution() -> str:
    return COURSE_SOLUTION
