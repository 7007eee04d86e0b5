"""Fuzzing every reader: bytes and mutated near-valid inputs give a result or a one-line error.

The contract: each reader returns a parsed result or raises a
:class:`~sudosat.errors.SudosatError` that names the file (and the line, when the
fault is on one), never another exception and never a hang (a deadline per
example); a valid input gives the same result as a strict reference reading
written here independently of the readers.

The seed is fixed (``derandomize``): 2,000 examples per reader in the default
suite; ``-m slow`` runs 20,000.
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import sys
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudosat.cli import main, sat_sn_main
from sudosat.errors import DimacsError, SudosatError
from sudosat.limits import BYTES_PER_VARIABLE, DEFAULT_MAX_BYTES
from sudosat.sat.cnf import (
    DimacsWarning,
    format_solution,
    parse_dimacs,
    parse_int_token,
    parse_solution,
)
from sudosat.sat.result import Status
from sudosat.sudoku.board import Board

FAST, SLOW = 2000, 20000
CLI_FAST, CLI_SLOW = 300, 3000


HANG_SECONDS = 10  # CPU seconds: an example still running after this many is a hang


def fuzz(count: int):
    """A fixed seed, `count` examples, and a limit per example in CPU time.

    Hypothesis's own deadline is wall-clock, so a machine busy with other work
    would fail examples that are only waiting for a core; it is off. An example
    that never returns is interrupted instead by a CPU-time alarm (:func:`no_hang`),
    which a busy machine does not bring forward.
    """

    def wrap(test):
        settings_ = settings(
            max_examples=count,
            derandomize=True,  # a fixed seed: the same examples on every run
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        return settings_(test)

    return wrap


class Hang(Exception):
    """An example ran past HANG_SECONDS."""


@contextlib.contextmanager
def no_hang(seconds: float = HANG_SECONDS):
    def alarm(signum, frame):
        raise Hang(f"still running after {seconds} s of CPU time")

    # ITIMER_PROF counts the process's CPU time (user and system), not the wall clock.
    previous = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# -- the strict reference readings ----------------------------------------------------------

_REF_INT = re.compile(r"[+-]?[0-9]{1,18}")
_REF_BLANKS = re.compile(r"[ \t\r\x0b\x0c]+")
_REF_STRIP = " \t\r\x0b\x0c"


def ref_int(token: str) -> int | None:
    if not _REF_INT.fullmatch(token) or re.fullmatch(r"-0+", token):
        return None
    return int(token)


def ref_dimacs(text: str) -> tuple[int, list[list[int]]] | None:
    """(V, clauses) of strict DIMACS, or None when a strict reader must refuse it."""
    text = text.removeprefix("\ufeff")
    header: int | None = None
    clauses: list[list[int]] = []
    current: list[int] = []
    for raw in text.split("\n"):
        line = raw.strip(_REF_STRIP)
        if not line or line[0] == "c":
            continue
        if line[0] == "%":
            break
        if line[0] == "p":
            if header is not None:
                return None
            parts = [part for part in _REF_BLANKS.split(line) if part]
            if len(parts) != 4 or parts[:2] != ["p", "cnf"]:
                return None
            counts = [ref_int(part) for part in parts[2:]]
            if None in counts or min(counts) < 0:
                return None
            if counts[0] * BYTES_PER_VARIABLE > DEFAULT_MAX_BYTES:
                return None
            header = counts[0]
            continue
        if header is None:
            return None
        for token in _REF_BLANKS.split(line):
            if not token:
                continue
            lit = ref_int(token)
            if lit is None or abs(lit) > header:
                return None
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if header is None:
        return None
    if current:
        clauses.append(current)
    return header, clauses


_REF_NUMERIC = re.compile(r"[0-9]+(?:(?:[ \t]+|[ \t]*,[ \t]*|-)[0-9]+)*(?:[ \t]*,)?")


def ref_numeric_board(text: str) -> Board | None | str:
    """The board of a numeric line by the documented grammar; None if refused; 'n/a'
    when the line is not numeric-shaped (fewer than three numbers: course or grid). The
    line is not a file's first (check_board reads it as line 7), so a byte-order mark may
    not start it."""
    if text.lstrip(" \t").startswith("\ufeff"):
        return None
    line = text.strip(" \t\r\n").removeprefix("\ufeff").strip(" \t\r\n")
    if len([part for part in re.split(r"[ \t,\-]+", line) if part]) < 3:
        return "n/a"
    if not _REF_NUMERIC.fullmatch(line):
        return None
    tokens = re.findall(r"[0-9]+", line)
    if len(tokens[0]) > 9 or max(len(token) for token in tokens) > 18:
        return None
    order, *cells = map(int, tokens)
    if order < 1 or len(cells) != order**4 or max(cells) > order * order:
        return None
    return Board(order, cells)


# -- generators: valid inputs and their mutations ------------------------------------------

_INSERTS = [
    "0", "1", "9", "-", "+", " ", "  ", "\t", "\r", "\n", "\r\n", "\x00", "\ufeff", "\u0661",
    "\u0662", "\uff11", "\u2028", "\x0c", "\x0b", "\x1c", "\x85", "\xa0", "x", "%", "c", "p",
    ",", "_", ".", "e", "-0", "--", "99999999999999999999", "2147483648", "9" * 5000,
]


@st.composite
def mutated(draw, text: str) -> str:
    """`text` with up to four edits: inserted characters, deletions, swaps, truncation."""
    for _ in range(draw(st.integers(0, 4))):
        if not text:
            text = draw(st.sampled_from(_INSERTS))
            continue
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "insert", "delete", "swap", "truncate", "dup"]))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(_INSERTS)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 3)) :]
        elif kind == "swap":
            old, new = draw(st.sampled_from([(" ", "\t"), (" ", ","), (" ", "-"), ("\n", " "),
                                             ("-", " "), (",", ",,"), ("\n", "\r\n"),
                                             (" ", "\u2028"), ("\n", "\x0c")]))
            text = text.replace(old, new, draw(st.integers(1, 3)))
        elif kind == "truncate":
            text = text[:at]
        else:
            text = text[:at] + text[at : at + 2] + text[at:]
    return text


def decoded_bytes() -> st.SearchStrategy[str]:
    return st.binary(max_size=120).map(lambda raw: raw.decode("utf-8", errors="replace"))


@st.composite
def dimacs_texts(draw) -> str:
    num_vars = draw(st.integers(0, 8))
    literal = st.integers(1, max(num_vars, 1)).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(literal, max_size=4 if num_vars else 0), max_size=6))
    blank = draw(st.sampled_from([" ", "  ", "\t", " \t"]))
    plus = draw(st.booleans())
    lines = [f"c {draw(st.text(max_size=8))}".replace("\n", " ")] if draw(st.booleans()) else []
    declared = draw(st.sampled_from([len(clauses), len(clauses) + 1, 0]))
    lines.append(f"p cnf {num_vars} {declared}")

    def show(lit: int) -> str:
        return f"+{lit}" if plus and lit > 0 else str(lit)

    body = [blank.join([*map(show, clause), "0"]) for clause in clauses]
    if body and draw(st.booleans()):
        body[-1] = body[-1].removesuffix("0").rstrip()  # a last clause without its 0
    if draw(st.booleans()):
        lines.extend(body)
    else:
        lines.append(blank.join(body))
    if draw(st.booleans()):
        lines += ["%", "0"]
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines) + end
    return ("\ufeff" + text) if draw(st.booleans()) else text


def near_dimacs() -> st.SearchStrategy[str]:
    return st.one_of(dimacs_texts().flatmap(mutated), dimacs_texts(), decoded_bytes())


@st.composite
def boards(draw) -> Board:
    order = draw(st.integers(1, 3))
    size = order * order
    return Board(order, draw(st.lists(st.integers(0, size), min_size=size**2, max_size=size**2)))


@st.composite
def board_lines(draw) -> str:
    board = draw(boards())
    style = draw(st.sampled_from(["course", "numeric", "grid"]))
    if style == "course":
        return board.to_course()
    if style == "grid" and board.size <= 35:
        return board.to_grid(draw(st.sampled_from([".", "0"])))
    return board.to_numbers(draw(st.sampled_from([" ", ",", "-", ", ", "\t", "  "])))


def near_board_lines() -> st.SearchStrategy[str]:
    return st.one_of(board_lines().flatmap(mutated), board_lines(), decoded_bytes())


@st.composite
def solution_texts(draw) -> str:
    num_vars = draw(st.integers(0, 6))
    status = draw(st.sampled_from(list(Status)))
    model = [v if draw(st.booleans()) else -v for v in range(1, num_vars + 1)]
    style = draw(st.sampled_from(["course", "competition", "units"]))
    return format_solution(status, model if status is Status.SAT else None, num_vars, style)


def near_solutions() -> st.SearchStrategy[str]:
    return st.one_of(solution_texts().flatmap(mutated), solution_texts(), decoded_bytes())


def tokens() -> st.SearchStrategy[str]:
    plain = st.from_regex(r"\A[+-]?[0-9]{1,20}\Z")
    return st.one_of(plain, plain.flatmap(mutated), st.text(max_size=6))


# -- the contract, reader by reader ------------------------------------------------------------


def check_error(exc: SudosatError, source: str, line_required: bool = True) -> None:
    assert exc.file == source
    assert "\n" not in str(exc)
    # Faults of the whole file (or of a units file, whose clauses may span lines).
    whole_file = ("empty", "no 'p cnf' header", "the model gives no value", "is given both",
                  "expected unit clauses", "the formula's text holds")
    if line_required and not any(what in exc.reason for what in whole_file):
        assert exc.line is not None, str(exc)


def check_dimacs(text: str) -> None:
    expected = ref_dimacs(text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DimacsWarning)
            cnf = parse_dimacs(text, "fuzz.cnf")
    except SudosatError as exc:
        check_error(exc, "fuzz.cnf")
        assert expected is None, f"refused a valid formula: {exc}"
        return
    assert expected is not None, f"accepted what a strict reading refuses: {text!r}"
    assert (cnf.num_vars, list(cnf)) == expected


def check_board(text: str) -> None:
    expected = ref_numeric_board(text)
    try:
        board = Board.parse(text, source="fuzz.txt", line=7)
    except SudosatError as exc:
        assert str(exc).startswith("fuzz.txt:7: ") and "\n" not in str(exc)
        assert expected in (None, "n/a"), f"refused a valid numeric line: {exc}"
        return
    assert isinstance(board, Board)
    if expected != "n/a":
        assert board == expected, text
    # A board read from a line reads back from its own line.
    assert Board.parse(board.to_line()) == board


def check_solution(text: str) -> None:
    try:
        solution = parse_solution(text, "fuzz.sol")
    except SudosatError as exc:
        check_error(exc, "fuzz.sol")
        return
    assert solution.status in set(Status)
    if solution.status is Status.SAT:
        assert sorted(map(abs, solution.model)) == list(range(1, solution.num_vars + 1))
    for style in ("course", "competition"):
        again = parse_solution(
            format_solution(solution.status, solution.model, solution.num_vars, style)
        )
        assert again.status is solution.status and again.model == solution.model


def check_token(token: str) -> None:
    expected = ref_int(token)
    try:
        value = parse_int_token(token, source="t", line=1)
    except DimacsError as exc:
        assert str(exc).startswith("t:1: ")
        assert expected is None, str(exc)
        return
    assert value == expected


@fuzz(FAST)
@given(near_dimacs())
def test_fuzz_dimacs_reader(text):
    with no_hang():
        check_dimacs(text)


@fuzz(FAST)
@given(near_board_lines())
def test_fuzz_board_reader(text):
    with no_hang():
        check_board(text)


@fuzz(FAST)
@given(near_solutions())
def test_fuzz_solution_reader(text):
    with no_hang():
        check_solution(text)


@fuzz(FAST)
@given(tokens())
def test_fuzz_integer_tokens(token):
    with no_hang():
        check_token(token)


@pytest.mark.slow
@fuzz(SLOW)
@given(near_dimacs())
def test_fuzz_dimacs_reader_long(text):
    with no_hang():
        check_dimacs(text)


@pytest.mark.slow
@fuzz(SLOW)
@given(near_board_lines())
def test_fuzz_board_reader_long(text):
    with no_hang():
        check_board(text)


@pytest.mark.slow
@fuzz(SLOW)
@given(near_solutions())
def test_fuzz_solution_reader_long(text):
    with no_hang():
        check_solution(text)


# -- the command line in process -----------------------------------------------------------


def run_cli(entry, argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = entry(argv)
    except SystemExit as stop:
        code = stop.code
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def check_cli_sat(text: str, folder) -> None:
    expected = ref_dimacs(text)
    code, out, err = run_cli(main, ["sat", "-", "-T", "2000"], stdin=text)
    assert code in (0, 1, 10, 20), err
    errors = [line for line in err.splitlines() if "warning" not in line]
    if code == 1:
        assert expected is None, err
        assert len(errors) == 1 and errors[0].startswith("sudosat: <stdin>"), err
        return
    assert expected is not None and not errors, err
    if code == 10:
        model = {int(line.split()[1]) for line in out.splitlines() if line.startswith("v ")}
        assert all(model & set(clause) for clause in expected[1])
    path = folder / "f.cnf"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli(sat_sn_main, ["-S1", str(path), "-T", "2000"])
    assert code == 0 and out.startswith("s "), err


def check_cli_check(line: str, folder) -> None:
    puzzles = folder / "p.txt"
    answers = folder / "a.txt"
    puzzles.write_text(line + "\n", encoding="utf-8")
    answers.write_text(line + "\n", encoding="utf-8")
    code, out, err = run_cli(main, ["check", str(puzzles), str(answers)])
    assert code in (0, 1), err
    assert "internal error" not in err and "Traceback" not in err
    code, out, err = run_cli(main, ["encode", str(puzzles)])
    assert code in (0, 1), err
    if code == 1:
        assert len(err.splitlines()) == 1 and err.startswith(f"sudosat: {puzzles}:1: "), err


@fuzz(CLI_FAST)
@given(text=near_dimacs())
def test_fuzz_cli_sat_in_process(scratch, text):
    with no_hang():
        check_cli_sat(text, scratch)


@fuzz(CLI_FAST)
@given(line=near_board_lines())
def test_fuzz_cli_check_and_encode_in_process(scratch, line):
    with no_hang():
        check_cli_check(line, scratch)


@pytest.mark.slow
@fuzz(CLI_SLOW)
@given(text=near_dimacs())
def test_fuzz_cli_sat_in_process_long(scratch, text):
    with no_hang():
        check_cli_sat(text, scratch)
