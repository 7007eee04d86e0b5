"""A clause family and an encoding registered at run time: everything that reads them follows.

A family is declared once (``DECLARED`` in ``sudosat/sudoku/encoding/families.py``) and an
encoding names the families it writes once (``ENCODINGS`` in ``core.py``). Here a made-up
family, "every symbol at least once in every row", and an encoding that writes it beside the
course's families are registered as two lines in each file would register them, and the
encoder, the size estimates, the decoder, ``encode --list`` and the workbench (its switches,
labels, presets and counts, in the widget and on the live page) follow with no other line.
A family the workbench cannot show is refused in one line.
"""

from __future__ import annotations

import html

import pytest

from sudosat.cli import main
from sudosat.errors import EncodingError
from sudosat.sat.solvers import solve
from sudosat.sudoku.board import COURSE_EXAMPLE, Board, check_solution
from sudosat.sudoku.encoding import (
    ENCODINGS,
    EncodingSpec,
    clear_rules_cache,
    decode_model,
    encode,
    estimate,
    variable,
    written_families,
)
from sudosat.sudoku.encoding.families import DECLARED, Family, Rule, Shape
from sudosat.workbench import compute as workbench_run
from sudosat.workbench import formula, page, views, widgets
from sudosat.workbench.switches import (
    Switches,
    family_switches,
    matching_encoding,
    preset,
    verdict,
)

# The two lines of families.py and the two of core.py.
ROWS_COVERED = Family("presence", "presence in rows: every symbol at least once in every row",
                      Rule.AT_LEAST_ONE, Shape.UNITS, ("row",))
WITH_ROWS_COVERED = EncodingSpec("course-presence", "the course's families and presence in rows",
                                 ("completeness", "uniqueness", "validity", "presence", "givens"))
NAME = WITH_ROWS_COVERED.name

SMALL = "2 1000002000300004"


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch):
    """The made-up family and encoding, registered for one test (the rules cache emptied)."""
    clear_rules_cache()
    monkeypatch.setitem(DECLARED, ROWS_COVERED.name, ROWS_COVERED)
    monkeypatch.setitem(ENCODINGS, NAME, WITH_ROWS_COVERED)
    yield
    clear_rules_cache()


@pytest.mark.parametrize("line", [SMALL, COURSE_EXAMPLE])
def test_the_encoder_sizes_and_decoder_follow_a_new_family(registered, line):
    board = Board.parse(line)
    encoded = encode(board, NAME)
    course = encode(board, "course")
    size = board.size
    assert list(encoded.family_counts) == ["completeness", "uniqueness", "validity", "presence",
                                           "givens"]
    assert encoded.family_counts["presence"] == size * size  # a clause per row and symbol
    assert encoded.num_clauses == course.num_clauses + size * size
    first_row_holds_1 = tuple(variable(0, j, 1, board.order) for j in range(size))
    assert first_row_holds_1 in encoded.cnf.clauses
    sizes = estimate(board, NAME)
    assert (sizes["variables"], sizes["clauses"], sizes["literals"]) == (
        encoded.num_vars, encoded.num_clauses, encoded.cnf.num_literals)
    result = solve(encoded.cnf, "cdcl", time_limit_ms=20_000)
    solution = encoded.decode(result.model)
    assert check_solution(board, solution) is None
    assert decode_model(result.model, board.order, encoding=NAME, instance=board) == solution


def test_encode_list_names_the_new_encoding(registered, capsys):
    assert main(["encode", "--list"]) == 0
    assert NAME in capsys.readouterr().out
    assert "presence" in written_families()


@pytest.mark.parametrize("line", [SMALL, COURSE_EXAMPLE])
def test_the_workbench_switches_labels_and_counts_follow_a_new_family(registered, line):
    switches = {switch.name: switch for switch in family_switches()}
    assert list(switches)[-2:] == ["coverage", "presence"]  # in declared order
    assert switches["presence"].label == "presence in rows"
    assert switches["presence"].title == ROWS_COVERED.label
    assert "presence" not in Switches().on  # the course's switches stay the default
    rebuilt = preset(NAME)
    assert rebuilt is not None and "presence" in rebuilt.on
    assert matching_encoding(rebuilt) == NAME
    assert verdict(rebuilt)[0]
    board = Board.parse(line)
    built = formula.build(board, rebuilt)
    encoded = encode(board, NAME)
    assert built.cnf == encoded.cnf and built.label == NAME
    clauses = {family.name: family.clauses for family in built.families}
    assert clauses["presence"] == encoded.family_counts["presence"]
    assert formula.family_size(board, rebuilt)["presence"][1] == clauses["presence"]
    outcome = workbench_run.compute(line, rebuilt, NAME, "cdcl", 20_000)
    assert outcome.reading is not None and outcome.reading.valid
    counts = views.counts_html(outcome)
    assert f"title='{ROWS_COVERED.label}'>presence</td>" in counts
    assert f"<td>{clauses['presence']:,}</td>" in counts


def test_the_widget_offers_the_new_family_and_its_encoding(registered):
    bench = widgets.Workbench(solvers=["cdcl"], time_limit_ms=20_000)
    box = bench.switch["presence"]
    assert box.description == "presence in rows" and not box.value
    assert NAME in bench.encoding.options
    bench.encoding.value = NAME
    assert box.value and bench.outcome.built.label == NAME and bench.outcome.reading.valid
    assert "presence" in bench.counts.value
    bench.switch["uniqueness"].value = False
    assert bench.encoding.value == "custom"
    bench.switch["uniqueness"].value = True
    assert bench.encoding.value == NAME


def test_the_live_page_offers_the_new_family_and_its_encoding(registered):
    offered = page.choices()
    assert NAME in offered["encodings"]
    assert {"name": "presence", "label": "presence in rows",
            "title": ROWS_COVERED.label} in offered["families"]
    session = page.Session(time_limit_ms=20_000)
    answer = session.respond({"changed": "encoding", "encoding": NAME, "text": SMALL})
    state = answer["state"]
    assert state["encoding"] == NAME and state["switches"]["presence"] is True
    assert state["switches_enabled"] and "sudosat-valid" in answer["views"]["answer"]
    assert ">presence</td>" in answer["views"]["counts"]
    off = session.respond({**state, "changed": "switches",
                           "switches": {**state["switches"], "presence": False}})
    assert off["state"]["encoding"] == "course"


def test_a_family_the_workbench_cannot_show_is_refused_in_one_line(monkeypatch):
    """A second family of givens: the encoder writes it, the workbench says it cannot."""
    clear_rules_cache()
    clues = Family("clues", "clues: each given once more", Rule.AT_LEAST_ONE, Shape.GIVENS)
    monkeypatch.setitem(DECLARED, clues.name, clues)
    monkeypatch.setitem(ENCODINGS, "course-clues", EncodingSpec(
        "course-clues", "the course's families and the givens twice",
        ("completeness", "uniqueness", "validity", "givens", "clues")))
    board = Board.parse(SMALL)
    assert encode(board, "course-clues").family_counts["clues"] == board.num_givens
    assert "clues" not in [switch.name for switch in family_switches()]
    with pytest.raises(EncodingError) as refused:
        preset("course-clues")
    said = str(refused.value)
    assert "\n" not in said and "'clues'" in said and "course-clues" in said
    outcome = workbench_run.compute(SMALL, Switches(), "course-clues", "cdcl", 20_000)
    assert outcome.error == said and outcome.built is None
    assert html.escape(said) in views.verdict_html(Switches(), "course-clues")
    answer = page.Session().respond({"changed": "encoding", "encoding": "course-clues"})
    assert answer["state"] is None and answer["error"] == said
    with pytest.raises(EncodingError, match="no clause family 'clues' to switch"):
        Switches(clues=True)
    clear_rules_cache()
