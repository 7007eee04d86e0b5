"""Tests of sudosat.sudoku.board: formats, round trips, error messages, rules checks."""

from __future__ import annotations

import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.errors import InstanceError, SudosatError
from sudosat.sudoku.board import Board, check_solution, units
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION, ROOT, generated_lines, hard_puzzles

SOLVED_4X4 = "2 1234341221434321"


# -- strategies ------------------------------------------------------------------


@st.composite
def boards(draw, min_order: int = 1, max_order: int = 4, max_value: int | None = None) -> Board:
    """Boards of the given orders with any values (clashes included)."""
    order = draw(st.integers(min_order, max_order))
    top = order * order if max_value is None else min(order * order, max_value)
    # A seeded generator fills the cells: drawing N⁴ values from Hypothesis one
    # by one would make order-7 boards far too large for it to handle.
    rng = random.Random(draw(st.integers(0, 2**32)))
    empty_share = draw(st.sampled_from([0.0, 0.5, 0.9, 1.0]))
    cells = [0 if rng.random() < empty_share else rng.randint(1, top) for _ in range(order**4)]
    return Board(order, cells)


# -- round trips -----------------------------------------------------------------


@given(boards(1, 6))
def test_course_round_trip(board: Board) -> None:
    assert Board.parse(board.to_course()) == board
    assert Board.parse(board.to_line()) == board


@given(boards(1, 6, max_value=35), st.sampled_from([".", "0"]))
def test_grid_round_trip(board: Board, empty: str) -> None:
    assert Board.parse(board.to_grid(empty)) == board


@settings(max_examples=40, deadline=None)
@given(boards(1, 8), st.sampled_from([" ", ",", "-", ", ", " , ", "\t"]))
def test_numeric_round_trip(board: Board, sep: str) -> None:
    assert Board.parse(board.to_numbers(sep)) == board


@settings(max_examples=10, deadline=None)
@given(boards(7, 8))
def test_to_line_uses_numbers_beyond_order_6(board: Board) -> None:
    line = board.to_line()
    assert line.startswith(f"{board.order} ")
    assert Board.parse(line) == board


@given(boards(1, 4))
def test_repr_reproduces_the_board(board: Board) -> None:
    assert eval(repr(board), {"Board": Board}) == board


def _parse_or_instance_error(text: str) -> None:
    """Board.parse returns a well-formed board or raises InstanceError: nothing else."""
    try:
        board = Board.parse(text)
    except InstanceError as error:
        assert error.reason and "\n" not in str(error)
    else:
        assert len(board.cells) == board.order**4


@given(st.text(max_size=90))
def test_parse_of_any_text_fails_only_with_instance_error(text: str) -> None:
    _parse_or_instance_error(text)


@given(st.text(alphabet="0123456789.,- \t\r\nAaGgZz#é", max_size=120))
def test_parse_of_near_miss_lines_fails_only_with_instance_error(text: str) -> None:
    _parse_or_instance_error(text)


@given(boards(1, 4))
def test_pickle_round_trip(board: Board) -> None:
    assert pickle.loads(pickle.dumps(board)) == board


@given(boards(1, 4))
def test_first_conflict_agrees_with_a_plain_check(board: Board) -> None:
    clashes = []
    for kind, number, cells in units(board.order):
        values = [board.cells[k] for k in cells if board.cells[k]]
        if len(values) != len(set(values)):
            clashes.append(f"{kind} {number} ")
    found = board.first_conflict()
    if clashes:
        assert found is not None and found.startswith(clashes[0])
    else:
        assert found is None
    assert board.is_consistent() == (found is None)


@given(boards(1, 4))
def test_clashes_are_every_repeat_a_plain_count_finds(board: Board) -> None:
    expected = []
    for kind, number, cells in units(board.order):
        values = [board.cells[k] for k in cells if board.cells[k]]
        repeats = [v for i, v in enumerate(values) if v in values[:i]]  # in order of repeat
        for value in dict.fromkeys(repeats):
            expected.append((f"{kind} {number} holds {value} ", values.count(value)))
    found = board.clashes()
    assert len(found) == len(expected)
    for phrase, (start, holders) in zip(found, expected, strict=True):
        assert phrase.startswith(start) and phrase.count("(") == holders
    assert found[:1] == ([board.first_conflict()] if expected else [])


# -- the course example ------------------------------------------------------------


def test_course_example_solution_is_accepted() -> None:
    puzzle, solution = Board.parse(COURSE_EXAMPLE), Board.parse(COURSE_SOLUTION)
    assert puzzle.order == 3 and puzzle.num_givens == 27
    assert puzzle.is_consistent() and not puzzle.is_complete()
    assert solution.is_complete() and solution.is_consistent()
    assert check_solution(puzzle, solution) is None
    assert solution.to_course() == COURSE_SOLUTION


def test_the_course_example_file_holds_the_one_constant() -> None:
    # The README's commands read data/course-example.txt; the package, tests and notebooks
    # use sudosat.sudoku.board.COURSE_EXAMPLE. They must not drift apart.
    text = (ROOT / "data" / "course-example.txt").read_text(encoding="utf-8")
    assert text == COURSE_EXAMPLE + "\n"


def test_course_example_one_changed_cell_names_its_row() -> None:
    puzzle, solution = Board.parse(COURSE_EXAMPLE), Board.parse(COURSE_SOLUTION)
    # Row 2, column 1 holds 4; make it 7 (row 2 already has a 7 in column 3).
    broken = solution.with_value(1, 0, 7)
    assert check_solution(puzzle, broken) == "row 2 holds 7 twice, in cells (2, 1) and (2, 3)"


def test_a_changed_given_is_named_when_every_unit_is_fine() -> None:
    puzzle, solution = Board.parse(COURSE_EXAMPLE), Board.parse(COURSE_SOLUTION)
    swapped = Board(3, [{1: 2, 2: 1}.get(v, v) for v in solution.cells])  # still a Sudoku
    assert swapped.is_consistent()
    # The first given in reading order that holds 1 or 2 is cell (2, 2) = 2.
    assert check_solution(puzzle, swapped) == "cell (2, 2) changes the given 2 to 1"


def test_check_solution_names_an_empty_cell_and_an_order_mismatch() -> None:
    puzzle, solution = Board.parse(COURSE_EXAMPLE), Board.parse(COURSE_SOLUTION)
    assert check_solution(puzzle, solution.with_value(4, 6, 0)) == "cell (5, 7) is empty"
    assert check_solution(puzzle, Board.parse(SOLVED_4X4)) == (
        "the solution has order 2, the puzzle order 3"
    )


def test_check_solution_names_columns_and_boxes() -> None:
    # Rows all fine, columns broken: every row is 1 2 3 4.
    assert check_solution(Board.empty(2), Board.parse("2 " + "1234" * 4)) == (
        "column 1 holds 1 four times, in cells (1, 1), (2, 1), (3, 1) and (4, 1)"
    )
    # Rows and columns fine (a cyclic Latin square), boxes broken.
    latin = Board.parse("2 1234234134124123")
    assert check_solution(Board.empty(2), latin) == (
        "box 1 holds 2 twice, in cells (1, 2) and (2, 1)"
    )


# -- inconsistent givens -------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "conflict"),
    [
        ("2 1001000000000000", "row 1 holds 1 twice, in cells (1, 1) and (1, 4)"),
        ("2 0000300000003000", "column 1 holds 3 twice, in cells (2, 1) and (4, 1)"),
        ("2 0000000000400004", "box 4 holds 4 twice, in cells (3, 3) and (4, 4)"),
        ("." * 70 + "9" + "." * 9 + "9", "box 9 holds 9 twice, in cells (8, 8) and (9, 9)"),
    ],
)
def test_inconsistent_givens_parse_and_first_conflict_names_the_unit(
    line: str, conflict: str
) -> None:
    board = Board.parse(line)
    assert board.first_conflict() == conflict
    assert not board.is_consistent()


def test_inconsistent_givens_row_in_a_grid_string() -> None:
    board = Board.parse("55" + "." * 79)
    assert board.first_conflict() == "row 1 holds 5 twice, in cells (1, 1) and (1, 2)"


# -- bad inputs and their messages ----------------------------------------------------

BAD_INPUTS = [
    ("3 " + "0" * 80, "order 3 needs 81 symbols, got 80"),
    ("3 " + "0" * 82, "order 3 needs 81 symbols, got 82"),
    ("3 " + "0" * 11 + "#" + "0" * 69, "'#' at position 12 is not a symbol"),
    ("." * 11 + "#" + "." * 69, "'#' at position 12 is not a symbol"),
    ("." * 40 + "é" + "." * 40, "'é' at position 41 is not a symbol"),
    ("0 0", "order 0 is not an order (the course format takes 1..6)"),
    ("7 " + "0" * 2401, "order 7 is beyond the course format (1..6); use the numeric format"),
    ("", "empty line"),
    ("   \r\n", "empty line"),
    ("." * 80, "a grid string needs N⁴ symbols (order 3 needs 81), got 80"),
    ("." * 250, "a grid string needs N⁴ symbols (order 4 needs 256), got 250"),
    ("2 A000000000000000", "symbol 'A' (10) at position 1 is too big for order 2 (max 4)"),
    ("A" + "." * 80, "symbol 'A' (10) at position 1 is too big for order 3 (max 9)"),
    (
        "3 " + "." * 81,
        "symbol '.' (36) at position 1 is too big for order 3 (max 9)"
        " ('.' is 36 in the course format; write 0 for an empty cell)",
    ),
    ("2 " + " ".join(["0"] * 15), "order 2 needs 16 numbers, got 15"),
    ("2 " + "-".join(["0"] * 15 + ["5"]), "value 5 at position 16 is too big for order 2 (max 4)"),
    ("2 " + ",".join(["0"] * 3 + ["x"] + ["0"] * 12), "'x' at position 4 is not a number"),
    ("0 0 0", "order 0 is not an order (N >= 1)"),
    ("x 1 2", "'x' is not an order (a line is 'N T', 'N v v ...' or a grid string)"),
    ("-3 0", "'-' at the start of the line is not an order"),
    ("1 10", "value 10 at position 1 is too big for order 1 (max 1)"),
    ("1" * 30 + " 0", "order 111111111... is too large"),
    ("3 " + "0" * 80 + "\u00b2", "'²' at position 81 is not a symbol"),
]


@pytest.mark.parametrize(("line", "reason"), BAD_INPUTS)
def test_bad_input_gives_its_message(line: str, reason: str) -> None:
    with pytest.raises(InstanceError) as caught:
        Board.parse(line)
    assert caught.value.reason == reason
    assert isinstance(caught.value, ValueError)


def test_error_carries_file_and_line() -> None:
    with pytest.raises(InstanceError) as caught:
        Board.parse("3 123", source="puzzles.txt", line=7)
    error = caught.value
    assert (error.file, error.line) == ("puzzles.txt", 7)
    assert str(error) == "puzzles.txt:7: order 3 needs 81 symbols, got 3"
    assert error.__cause__ is None and error.__suppress_context__


@pytest.mark.parametrize("ending", ["\r\n", "\n", "\r", " \t\r\n"])
def test_line_ends_and_blanks_are_accepted(ending: str) -> None:
    assert Board.parse(COURSE_EXAMPLE + ending) == Board.parse(COURSE_EXAMPLE)
    grid = Board.parse(COURSE_EXAMPLE).to_grid()
    assert Board.parse("  " + grid + ending) == Board.parse(COURSE_EXAMPLE)


def test_byte_order_mark_is_ignored() -> None:
    assert Board.parse("\ufeff" + COURSE_EXAMPLE) == Board.parse(COURSE_EXAMPLE)


# -- formats ---------------------------------------------------------------------------


def test_letters_in_either_case_and_dot_as_36() -> None:
    lower = Board.parse("6 " + "a" + "0" * 1294 + ".")
    upper = Board.parse("6 " + "A" + "0" * 1294 + ".")
    assert lower == upper
    assert lower.cells[0] == 10 and lower.cells[-1] == 36
    assert Board.parse("g" + "." * 255).cells[0] == 16


def test_grid_string_reads_dot_and_zero_as_empty() -> None:
    a = Board.parse("." * 40 + "5" + "." * 40)
    b = Board.parse("0" * 40 + "5" + "0" * 40)
    assert a == b and a.givens() == [(4, 4, 5)]


def test_numeric_course_file_style() -> None:
    course = Board.parse(COURSE_EXAMPLE)
    dashed = "3 " + "-".join(str(v) for v in course.cells)
    assert Board.parse(dashed) == course
    assert Board.parse("3, " + ", ".join(str(v) for v in course.cells) + ",") == course
    assert Board.parse("3-" + "-".join(str(v) for v in course.cells)) == course


def test_order_one() -> None:
    for line in ["1 0", "1 1", "1", "0", ".", "1, 1", "1-0"]:
        board = Board.parse(line)
        assert board.order == 1
    assert Board.parse("1 1").is_complete()
    assert check_solution(Board.empty(1), Board.parse("1 1")) is None
    assert Board.parse("1 1").to_text() == "1"


def test_course_and_grid_refuse_what_they_cannot_write() -> None:
    with pytest.raises(InstanceError, match=r"order 7 is beyond the course format"):
        Board.empty(7).to_course()
    with pytest.raises(InstanceError, match=r"grid string writes values up to 35"):
        Board.empty(6).with_value(0, 0, 36).to_grid()
    assert Board.empty(6).with_value(0, 0, 35).to_grid()[0] == "Z"


def test_to_text_has_box_rules() -> None:
    text = Board.parse(COURSE_SOLUTION).to_text()
    lines = text.splitlines()
    assert lines[0] == "8 1 6 | 4 3 5 | 2 7 9"
    assert lines[3] == "------+-------+------"
    assert len(lines) == 11 and len({len(line) for line in lines}) == 1
    wide = Board.empty(4).with_value(0, 0, 16).to_text().splitlines()
    assert wide[0].startswith("16  . ") and len({len(line) for line in wide}) == 1


def test_to_html_marks_givens_and_changed_cells() -> None:
    puzzle, solution = Board.parse(COURSE_EXAMPLE), Board.parse(COURSE_SOLUTION)
    html = solution.to_html(puzzle)
    assert html.count("<td") == 81
    assert len(re.findall(r'class="[^"]*\bgiven\b', html)) == puzzle.num_givens
    assert "changed" not in html.split("</style>")[1]
    broken = solution.with_value(0, 3, 1)  # cell (1, 4) holds the given 4
    assert len(re.findall(r'class="[^"]*\bchanged\b', broken.to_html(puzzle))) == 1
    assert "given" not in puzzle.to_html().split("</style>")[1]
    assert puzzle._repr_html_() == puzzle.to_html()


def test_to_html_scales_to_large_orders() -> None:
    html = Board.empty(7).with_value(0, 0, 49).to_html()
    assert html.count("<td") == 7**4
    assert ">49<" in html and "font-size:9px" in html


# -- the model ---------------------------------------------------------------------------


def test_queries_and_with_value() -> None:
    board = Board.parse(COURSE_EXAMPLE)
    assert board.value(0, 3) == 4 and board.value(8, 7) == 1
    assert board.givens()[:2] == [(0, 3, 4), (0, 8, 9)]
    assert len(board.givens()) == board.num_givens == 27
    changed = board.with_value(0, 0, 8)
    assert changed.value(0, 0) == 8 and board.value(0, 0) == 0
    assert changed.with_value(0, 0, 0) == board
    assert len(list(board.rows())) == 9 and next(board.rows()) == (0, 0, 0, 4, 0, 0, 0, 0, 9)
    with pytest.raises(IndexError):
        board.value(9, 0)
    with pytest.raises(IndexError):
        board.with_value(0, -1, 1)
    with pytest.raises(InstanceError, match="value 10 is outside 0..9"):
        board.with_value(0, 0, 10)


def test_boards_are_values() -> None:
    a, b = Board.parse(COURSE_EXAMPLE), Board(3, Board.parse(COURSE_EXAMPLE).cells)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Board.parse(COURSE_SOLUTION) and a != "not a board"
    assert isinstance(a.cells, tuple) and a.size == 9


@pytest.mark.parametrize(
    ("order", "cells", "reason"),
    [
        (0, [], "order 0 is not an order (N >= 1)"),
        (True, [0], "order True is not an order (N >= 1)"),
        (2, [0] * 15, "order 2 needs 16 cells, got 15"),
        (2, [0] * 15 + [5], "value 5 in cell (4, 4) is outside 0..4 for order 2"),
        (2, [-1] + [0] * 15, "value -1 in cell (1, 1) is outside 0..4 for order 2"),
    ],
)
def test_constructor_checks(order: int, cells: list[int], reason: str) -> None:
    with pytest.raises(SudosatError) as caught:
        Board(order, cells)
    assert caught.value.reason == reason


@pytest.mark.parametrize("order", [1, 2, 3, 4, 7])
def test_units_cover_each_cell_three_times(order: int) -> None:
    size = order * order
    table = units(order)
    assert len(table) == 3 * size
    counts = [0] * size**2
    for _kind, _number, cells in table:
        assert len(cells) == size
        for k in cells:
            counts[k] += 1
    assert set(counts) == {3}
    assert units(order) is table  # cached


# -- grid files (.sdk and 16x16 collections) -------------------------------------------


@pytest.mark.parametrize(
    ("make", "order"),
    [(lambda: hard_puzzles(60), 3), (lambda: generated_lines(4, 20), 4)],
    ids=["hard-9x9", "generated-16x16"],
)
def test_grid_files_parse(tmp_path, make, order: int) -> None:
    # One puzzle a line as the public .sdk and 16x16 collections write them: '.' or '0' empty,
    # letters for 10 and above in either case.
    path = tmp_path / "puzzles.sdk"
    written = [line.lower() if k % 2 else line.replace(".", "0") for k, line in enumerate(make())]
    path.write_text("\n".join(written) + "\n")
    lines = path.read_text().splitlines()
    boards_read = [Board.parse(text, source=path.name, line=k) for k, text in enumerate(lines, 1)]
    assert len(boards_read) == len(written)
    assert {b.order for b in boards_read} == {order}
    assert all(b.is_consistent() for b in boards_read)
    for board, text in zip(boards_read, lines, strict=True):
        assert board.to_grid() == text.strip().upper().replace("0", ".")


def test_a_clash_names_every_cell_holding_the_repeated_symbol():
    # Line 57 of data/instances.txt repeats 5 three times in its first row: "twice" and two
    # cells understated it.
    board = Board.parse("2 1101000000000000")
    assert board.first_conflict() == "row 1 holds 1 three times, in cells (1, 1), (1, 2) and (1, 4)"
    board = Board.parse("3 " + "1" * 9 + "0" * 72)
    listed = ", ".join(f"(1, {c})" for c in range(1, 9)) + " and (1, 9)"
    assert board.first_conflict() == f"row 1 holds 1 nine times, in cells {listed}"
    board = Board.parse("4 " + "1" * 16 + "0" * 240)
    assert board.first_conflict().startswith("row 1 holds 1 16 times, in cells (1, 1), (1, 2)")
