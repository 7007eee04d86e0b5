"""The encoding workbench, driven without a front end: set values, read the views.

Also the switched formula itself (``sudosat.workbench.formula``): it rebuilds the
registered encodings clause for clause, and its verdict on every switch
combination agrees with a model count on the empty 4x4 board.
"""

from __future__ import annotations

import asyncio
import html
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.sat.solvers import solve
from sudosat.sudoku.board import COURSE_EXAMPLE, Board, check_solution
from sudosat.sudoku.encoding import ENCODINGS, encode
from sudosat.sudoku.encoding.families import DECLARED
from sudosat.workbench import compute as workbench_run
from sudosat.workbench import formula as workbench
from sudosat.workbench import views, widgets
from sudosat.workbench.switches import (
    GIVENS_MODES,
    Switches,
    family_switches,
    matching_encoding,
    preset,
    verdict,
)
from tests.conftest import COURSE_SOLUTION

COURSE = COURSE_EXAMPLE
SMALL = "2 1000002000300004"
EMPTY_3 = "3 " + "0" * 81


FAMILIES = [switch.name for switch in family_switches()]
"""The families switched, in the order the workbench writes them (from the declarations)."""


def switched(flags, **settings) -> Switches:
    """The switches with one flag per family of :data:`FAMILIES`, in order."""
    return Switches(**dict(zip(FAMILIES, flags, strict=True)), **settings)


@pytest.fixture
def bench() -> widgets.Workbench:
    return widgets.Workbench(solvers=["cdcl", "dpll", "pysat:minisat22"], time_limit_ms=10_000)


# -- the switched formula -------------------------------------------------------------


def family_clauses(built, written) -> dict[str, int]:
    """The built formula's clauses per family the encoding names (`written`), a family the
    workbench splits by unit kind (validity: rows, columns, boxes) summed back."""
    totals = dict.fromkeys(written, 0)
    for family in built.families:
        part = DECLARED[family.name]
        owner = family.name if family.name in totals else next(
            name for name in written
            if DECLARED[name].rule is part.rule and set(part.kinds) <= set(DECLARED[name].kinds))
        totals[owner] += family.clauses
    return totals


@pytest.mark.parametrize("name", list(ENCODINGS))
@pytest.mark.parametrize("line", [SMALL, COURSE])
def test_the_workbench_rebuilds_every_registered_encoding_clause_for_clause(name, line):
    board = Board.parse(line)
    encoded = encode(board, name)
    switches = preset(name)  # None: a reduced encoding, built by name only
    built = workbench.build(board, switches) if switches else workbench.build(board, encoding=name)
    assert built.cnf == encoded.cnf and built.cnf.num_vars == encoded.num_vars
    assert built.label == name and built.num_cell_vars == encoded.num_cell_vars
    assert family_clauses(built, encoded.family_counts) == encoded.family_counts
    assert sum(f.clauses for f in built.families) == built.cnf.num_clauses
    assert sum(f.literals for f in built.families) == built.cnf.num_literals
    if switches is not None:
        assert matching_encoding(switches) == name
        assert workbench.build(board, encoding=name).cnf == encoded.cnf
        assert switches.families()[-1] == "givens" and switches.amo == ENCODINGS[name].amo


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_every_registered_encoding_is_offered_with_its_families_switched(name):
    from sudosat.workbench import page

    offered = page.choices()
    assert name in offered["encodings"]
    labels = {family["name"]: family for family in offered["families"]}
    assert [family["name"] for family in offered["families"]] == FAMILIES
    written = set(ENCODINGS[name].families) - {"givens"}
    for family in written:  # each written family has a switch, or its parts have
        shown = [n for n in FAMILIES if n == family or (
            DECLARED[n].rule is DECLARED[family].rule
            and set(DECLARED[n].kinds) < set(DECLARED[family].kinds))]
        assert shown, family
        for part in shown:
            assert labels[part]["title"] == DECLARED[part].label
            assert labels[part]["label"] == DECLARED[part].switch_label


def test_family_sizes_without_building_match_the_built_formula():
    board = Board.parse(COURSE)
    for amo in ("pairwise", "seq", "product"):
        switches = Switches(coverage=True, amo=amo)
        built = workbench.build(board, switches)
        sizes = workbench.family_size(board, switches)
        assert [(f.auxiliary, f.clauses, f.literals) for f in built.families] == list(
            sizes.values()
        )


def test_simplified_givens_drop_their_units_and_the_clauses_they_satisfy():
    board = Board.parse(COURSE)
    units = workbench.build(board, Switches())
    simplified = workbench.build(board, Switches(givens="simplify"))
    names = [f.name for f in simplified.families]
    assert "givens" not in names
    # 27 givens satisfy their 27 completeness clauses; no at-most-one clause is satisfied
    assert simplified.cnf.num_clauses == units.cnf.num_clauses - 27 - 27
    result = solve(simplified.cnf, "cdcl", time_limit_ms=10_000)
    reading = workbench.read_model(simplified, result.model)
    assert reading.valid and check_solution(board, reading.board) is None


def test_excerpt_names_variables_from_one_and_auxiliaries_apart():
    built = workbench.build(Board.parse(COURSE), Switches(amo="seq"))
    excerpt = dict((name, clauses) for name, _, clauses in workbench.cnf_excerpt(built))
    assert excerpt["completeness"][0] == (
        " ∨ ".join(f"x(1,1,{d})" for d in range(1, 10)),
        "1 2 3 4 5 6 7 8 9 0",
    )
    assert excerpt["uniqueness"][0] == ("¬x(1,1,1) ∨ aux730", "-1 730 0")
    assert excerpt["givens"][0] == ("x(1,4,4)", "31 0")


def _count_models(cnf, cell_vars: int, limit: int) -> int:
    """Models of `cnf` that differ on the cell variables, counted up to `limit`."""
    from pysat.solvers import Solver

    found = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        while found < limit and solver.solve():
            found += 1
            model = solver.get_model()
            solver.add_clause([-lit for lit in model if abs(lit) <= cell_vars])
    return found


def test_verdict_agrees_with_a_model_count_for_every_switch_combination():
    empty = Board.empty(2)  # 288 solutions: a correct encoding has exactly 288 models
    for values in itertools.product((False, True), repeat=len(FAMILIES)):
        switches = switched(values)
        built = workbench.build(empty, switches)
        correct, reason = verdict(switches)
        models = _count_models(built.cnf, 64, 289)
        assert (models == 288) == correct, (switches, reason, models)


SOLVED_2 = Board.parse("2 1234341221434321")


@settings(max_examples=40, deadline=None)
@given(
    flags=st.lists(st.booleans(), min_size=len(FAMILIES), max_size=len(FAMILIES)),
    givens=st.sampled_from(sorted(GIVENS_MODES)),
    amo=st.sampled_from(["pairwise", "seq", "product"]),
    kept=st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_switched_formulas_keep_their_promises(flags, givens, amo, kept):
    """Sizes add up; a correct combination always yields a valid board; givens modes agree."""
    puzzle = Board(2, [v if keep else 0 for v, keep in zip(SOLVED_2.cells, kept, strict=True)])
    switches = switched(flags, givens=givens, amo=amo)
    built = workbench.build(puzzle, switches)
    assert sum(f.clauses for f in built.families) == built.cnf.num_clauses
    assert sum(f.literals for f in built.families) == built.cnf.num_literals
    result = solve(built.cnf, "cdcl", time_limit_ms=10_000)
    assert result.is_sat  # the puzzle is a subset of a solution, which satisfies every family
    reading = workbench.read_model(built, result.model)
    if verdict(switches)[0]:
        assert reading.valid and check_solution(puzzle, reading.board) is None
    assert all(puzzle.cells[c] in held for c, held in enumerate(reading.cells) if puzzle.cells[c])


# -- computing and reading ----------------------------------------------------------


def test_a_time_out_reads_timeout_not_unsat():
    outcome = widgets.compute(
        "4 " + "0" * 256, Switches(), "course", "dpll", time_limit_ms=1
    )
    assert outcome.status == "TIMEOUT"
    assert "not UNSAT" in widgets.answer_html(outcome)


def test_no_decision_with_time_left_reads_unknown_not_timeout_or_unsat(monkeypatch):
    # A local search that gave up with time left says so (stop "gave up"): the word for it
    # is UNKNOWN, never TIMEOUT or UNSAT.
    from sudosat.run import runner
    from sudosat.sat.result import Result, Status, Stop

    real = runner.solve

    def gives_up(cnf, name, **options):
        answer = real(cnf, name, **options)
        return Result(Status.UNKNOWN, None, answer.stats, answer.elapsed_ms, answer.solver,
                      stop=Stop.GAVE_UP)

    monkeypatch.setattr(runner, "solve", gives_up)
    outcome = widgets.compute("2 " + "0" * 16, Switches(), "course", "walksat", None)
    assert outcome.status == "UNKNOWN", outcome
    shown = widgets.answer_html(outcome)
    assert "gave up with time left" in shown and "not UNSAT" in shown


def test_the_memory_guard_refuses_before_building():
    outcome = widgets.compute(
        "6 " + "0" * 1296, Switches(), "course", "cdcl", None, max_bytes=50_000_000
    )
    assert outcome.built is None and "the limit is 50 MB" in outcome.error
    assert "Error:" in widgets.answer_html(outcome)


def test_debouncer_runs_once_after_typing_pauses():
    calls = []
    debounced = widgets.Debouncer(lambda: calls.append(1), delay_s=0.05)

    async def type_three_keys() -> int:
        for _ in range(3):
            debounced()
            await asyncio.sleep(0.01)
        during = len(calls)
        await asyncio.sleep(0.15)
        return during

    assert asyncio.run(type_three_keys()) == 0
    assert calls == [1]
    debounced()  # no running loop: at once
    assert calls == [1, 1]


# -- the live widget ------------------------------------------------------------------


def test_starts_on_the_course_example_with_the_course_encoding(bench):
    assert bench.text.value == COURSE and bench.puzzle.value == COURSE
    assert bench.encoding.value == "course" and bench.order.value == 3
    assert bench.outcome.reading.valid
    assert "Formula: course" in bench.counts.value and "11,772" in bench.counts.value
    assert bench.grid.cells[3].value == "4" and "sudosat-given" in bench.grid.cells[3]._dom_classes
    assert bench.grid.cells[0].value == "" and bench.grid.cells[0].placeholder == "8"
    assert "cdcl: SAT" in bench.status.value


def test_switching_off_uniqueness_drops_2916_clauses_and_still_solves(bench):
    before = bench.outcome.built.cnf.num_clauses
    bench.switch["uniqueness"].value = False
    assert before - bench.outcome.built.cnf.num_clauses == 2916
    assert bench.encoding.value == "minimal"  # the switches match a registered encoding
    assert "2,916 fewer than the course encoding" in bench.counts.value
    assert "sudosat-valid" in bench.answer.value
    assert "correct encoding" in bench.verdict.value and "not a" not in bench.verdict.value


def test_switching_off_box_validity_on_an_empty_board_highlights_a_broken_box(bench):
    bench.text.value = EMPTY_3
    bench.switch["boxes"].value = False
    assert "not a correct encoding" in bench.verdict.value
    reading = bench.outcome.reading
    assert ("box", 1) in reading.broken_units and not reading.valid
    assert "sudosat-invalid" in bench.answer.value
    assert 'data-units="box 1"' in bench.answer.value
    assert "box 1 holds" in bench.answer.value
    assert reading.clash_cells and " clash" in bench.answer.value  # the repeated symbols in red


@pytest.mark.parametrize("amo", ["seq", "product"])
def test_scalable_at_most_one_shows_auxiliaries_and_still_solves(bench, amo):
    bench.amo.value = amo
    built = bench.outcome.built
    assert bench.encoding.value == f"course-{amo}" and built.auxiliary > 0
    assert built.cnf.num_clauses < 11_772
    assert f"{built.auxiliary:,}</b>" in bench.counts.value
    assert "aux" in bench.excerpt.value
    assert bench.outcome.reading.valid


def test_a_combination_without_a_registered_name_is_custom(bench):
    bench.switch["coverage"].value = True
    bench.switch["completeness"].value = False
    assert bench.encoding.value == "custom"
    assert "completeness follows from uniqueness and coverage" in bench.verdict.value
    assert bench.outcome.reading.valid


def test_choosing_a_registered_encoding_moves_the_switches(bench):
    bench.encoding.value = "course-product"
    assert bench.amo.value == "product" and bench.outcome.built.auxiliary > 0
    bench.encoding.value = "optimised"
    assert bench.switch["rows"].disabled
    assert bench.outcome.built.cnf.num_clauses < 11_772 and bench.outcome.reading.valid


def test_editing_a_cell_rewrites_the_line_and_solves_again(bench):
    bench.grid.cells[0].value = "8"  # the course example's solution has 8 there
    assert bench.text.value.startswith("3 800400009")
    assert bench.puzzle.value is None  # no longer an offered puzzle
    assert "sudosat-given" in bench.grid.cells[0]._dom_classes
    assert bench.outcome.board.num_givens == 28 and bench.outcome.reading.valid
    bench.grid.cells[1].value = "8"  # a clash: the formula is unsatisfiable
    assert bench.outcome.status == "UNSAT"


def test_typing_givens_reuses_one_loaded_solver(bench, monkeypatch):
    """While only the givens change, the rules are neither rebuilt nor reloaded."""
    builds = []

    def counted_build(*args, **kwargs):
        builds.append(args)
        return workbench.build(*args, **kwargs)

    monkeypatch.setattr(workbench_run, "build", counted_build)
    loads = bench.rules_cache.loads
    solution = Board.parse(COURSE_SOLUTION)
    for cell in (0, 1, 2):  # givens typed one after another, each from the solution
        if not bench.grid.cells[cell].value:
            bench.grid.cells[cell].value = str(solution.cells[cell])
            assert bench.outcome.reading.valid and not bench.outcome.error
    assert bench.rules_cache.loads == loads and builds == []
    fresh = widgets.compute(bench.text.value, bench.switches(), "course", "cdcl", 10_000)
    assert list(fresh.built.cnf) == list(bench.outcome.built.cnf)  # the same formula
    assert [f.clauses for f in fresh.built.families] == [
        f.clauses for f in bench.outcome.built.families
    ]
    bench.switch["coverage"].value = True  # another formula: built and loaded once more
    assert bench.rules_cache.loads == loads + 1 and bench.outcome.reading.valid


def test_a_bad_cell_is_named_and_nothing_is_solved(bench):
    line = bench.text.value
    bench.grid.cells[10].value = "12"
    assert "cell (2, 2)" in bench.status.value and "outside 1..9" in bench.status.value
    assert bench.text.value == line
    assert "sudosat-badcell" in bench.grid.cells[10]._dom_classes


def test_the_order_and_the_grid_follow_a_pasted_line(bench):
    bench.text.value = SMALL
    assert bench.order.value == 2 and bench.grid.order == 2 and len(bench.grid.cells) == 16
    assert [c.value for c in bench.grid.cells[:6]] == ["1", "", "", "", "", ""]
    assert bench.outcome.reading.valid
    bench.text.value = COURSE
    assert bench.order.value == 3 and bench.puzzle.value == COURSE


def test_changing_the_order_offers_a_puzzle_of_that_order(bench):
    bench.order.value = 2
    assert bench.outcome.board.order == 2 and bench.grid.order == 2
    assert bench.text.value == bench.puzzle.value
    assert bench.outcome.reading.valid


def test_a_bad_line_shows_the_reason_not_a_traceback(bench):
    bench.text.value = "2 12x"
    assert "Error:" in bench.answer.value and "workbench" in bench.answer.value
    assert bench.counts.value == ""


def test_a_line_still_being_typed_is_not_announced_as_solving(bench):
    shown = []
    bench.status.observe(lambda change: shown.append(change["new"]), names="value")
    for partial in ("2 ", "2 10000020"):
        bench.text.value = partial  # no event loop here: each update runs at once
        assert "sudosat-no" in bench.status.value  # the reason, at once
    assert not [value for value in shown if "solving" in value], shown
    bench.text.value = "2 1000002000300004"
    assert [value for value in shown if "solving" in value] == [shown[-2]]
    assert "cdcl: SAT" in shown[-1]


def test_every_available_solver_is_offered():
    offered = widgets.available_solvers()
    assert offered[:5] == ["cdcl", "dpll", "dp", "walksat", "gsat"]
    assert any(name.startswith("pysat:") for name in offered)


def test_snapshot_is_computed_apart_from_the_live_widget(bench):
    page = widgets.snapshot_html(
        [
            {"text": COURSE, "encoding": "course"},
            {"text": COURSE, "switches": {"uniqueness": False}},
            {"text": EMPTY_3, "switches": {"boxes": False}},
        ]
    )
    assert page.count("<b>Puzzle</b>") == 3
    assert "2,916 fewer" in page and 'data-units="box 1"' in page
    assert bench.text.value == COURSE and bench.encoding.value == "course"


def test_the_widget_holds_every_control_and_view(bench):
    seen, todo = set(), [bench.widget]
    while todo:
        item = todo.pop()
        seen.add(id(item))
        todo.extend(getattr(item, "children", ()))
    for control in (
        bench.text,
        bench.order,
        bench.solver,
        bench.counts,
        bench.answer,
        bench.excerpt,
        bench.download,
        bench.verdict,
        bench.status,
        *bench.switch.values(),
        bench.grid.cells[0],
    ):
        assert id(control) in seen


def test_the_download_holds_the_whole_dimacs(bench, monkeypatch):
    import base64
    import re

    link = re.search(r"base64,([A-Za-z0-9+/=]+)'", bench.download.value)
    text = base64.b64decode(link.group(1)).decode()
    assert "p cnf 729 11772" in text and text.count(" 0\n") == 11_772
    monkeypatch.setattr(views, "DOWNLOAD_LIMIT", 10_000)
    assert "too large to embed" in widgets.download_html(bench.outcome)


def test_rcv_numbering_names_variables_by_digits_and_solves_the_same():
    """The rcv numbering writes the same families over the names 111..999 and decodes alike."""
    board = Board.parse(COURSE)
    course = workbench.build(board, Switches())
    rcv = workbench.build(board, Switches(numbering="rcv"))
    assert [(f.name, f.clauses) for f in rcv.families] == [
        (f.name, f.clauses) for f in course.families
    ]
    used = {abs(lit) for clause in rcv.cnf for lit in clause}
    assert min(used) == 111 and max(used) == 999 and len(used) == 729
    assert matching_encoding(Switches(numbering="rcv")) is None
    result = solve(rcv.cnf, "cdcl")
    reading = workbench.read_model(rcv, result.model)
    assert reading.board == workbench.read_model(course, solve(course.cnf, "cdcl").model).board
    assert check_solution(board, reading.board) is None


# -- clashes, counters in words, the largest boards --------------------------------------


def test_clashing_givens_are_named_and_marked(bench):
    bench.grid.cells[0].value = "4"  # the course example holds 4 in row 1, column 4
    assert bench.outcome.status == "UNSAT"
    said = "row 1 holds 4 twice, in cells (1, 1) and (1, 4)"
    assert said in bench.status.value and said in bench.answer.value
    assert "the givens clash" in bench.answer.value
    assert widgets.clashing_givens(bench.outcome.board) == {0, 3}
    for cell in (0, 3):
        assert "sudosat-badcell" in bench.grid.cells[cell]._dom_classes
    assert "sudosat-badcell" not in bench.grid.cells[1]._dom_classes
    bench.grid.cells[0].value = ""  # consistent again: the marks go
    assert bench.outcome.reading.valid and "clash" not in bench.status.value
    assert "sudosat-badcell" not in bench.grid.cells[3]._dom_classes


def test_an_unsat_formula_with_consistent_givens_names_no_clash():
    board = Board.parse(SMALL)
    assert views.clash_words(board) == "" and views.clashing_givens(board) == frozenset()


@pytest.mark.parametrize("solver", ["cdcl", "dpll", "walksat", "pysat:minisat22"])
def test_counters_are_shown_in_words(solver):
    outcome = widgets.compute(COURSE, Switches(), "course", solver, 10_000)
    shown = widgets.answer_html(outcome)
    for key in outcome.stats:
        assert key in views.STAT_LABELS, f"{solver} reports {key!r}, which has no words"
        assert f">{html.escape(views.STAT_LABELS[key])}<" in shown
    assert ">search_cpu_ms<" not in shown and ">decisions<" not in shown


def test_a_snapshot_states_its_rules_once():
    page = widgets.snapshot_html(
        [{"text": COURSE, "encoding": "course"}, {"text": COURSE, "switches": {"amo": "seq"}}]
    )
    assert page.count(views.CORRECT_RULE) == 1 and page.count(views.VALID_RULE) == 1
    assert page.count("sudosat-valid") == 2


def _widget_count() -> int:
    from ipywidgets.widgets import widget

    return len(widget._instances)


def test_an_order_change_builds_one_widget_model_per_cell(bench, monkeypatch):
    """The work of an order change: one widget model per cell, one message per changed cell.

    Three models per cell (a Text with its own Layout and style), a message per
    cell per change and the DIMACS written on every change made an order change
    slow in JupyterLab; the counts here bound that work on any machine.
    """
    import ipywidgets

    sent = []
    monkeypatch.setattr(ipywidgets.Widget, "_send", lambda self, msg, buffers=None: sent.append(1))
    written = []
    original = workbench.CNF.to_dimacs
    monkeypatch.setattr(
        workbench.CNF, "to_dimacs", lambda self, *a, **k: written.append(1) or original(self)
    )
    before = _widget_count()
    bench.order.value = 5
    assert bench.outcome.reading.valid and len(bench.grid.cells) == 625
    assert _widget_count() - before <= 625 + 25 + 10  # cells, boxes, a few shared ones
    empty = 625 - bench.outcome.board.num_givens
    assert len(sent) <= empty + 60  # the solution in the empty cells, and the views
    assert written == []  # 5 MB of DIMACS: written only when the reader asks
    assert "the button writes it" in bench.download.value
    bench.prepare.click()
    assert "too large to embed" in bench.download.value or "sudosat-download" in (
        bench.download.value
    )
    sent.clear()
    bench.order.value = 3  # back: the grid of order 3 is kept, no model is built
    before = _widget_count()
    bench.order.value = 5
    assert _widget_count() == before
