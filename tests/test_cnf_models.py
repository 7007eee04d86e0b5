"""Model checks of formulas made by CNF.copy: the shared-prefix index agrees with the definition."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sudosat.sat.cnf as cnf_module
from sudosat.sat.cnf import CNF
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.sudoku.encoding import encode
from tests.conftest import COURSE_SOLUTION

MAX_VARS = 9


def first_broken(clauses: list[list[int]], model: list[int]) -> int | None:
    """The definition: the first clause no literal of `model` satisfies."""
    true = set(model)
    return next((i for i, clause in enumerate(clauses) if true.isdisjoint(clause)), None)


def assert_checks_agree(cnf: CNF, clauses: list[list[int]], model: list[int]) -> None:
    """first_falsified and check_model answer as the definition does."""
    expected = first_broken(clauses, model)
    assert cnf.first_falsified(model) == expected
    assert cnf.first_falsified(iter(model)) == expected  # any iterable, read once
    exact = sorted(map(abs, model)) == list(range(1, cnf.num_vars + 1))
    if not exact:
        with pytest.raises(ValueError, match="exactly once"):
            cnf.check_model(model)
    elif expected is None:
        cnf.check_model(model)
    else:
        message = f"the model falsifies clause {expected + 1}: {clauses[expected]}"
        with pytest.raises(ValueError) as caught:
            cnf.check_model(model)
        assert str(caught.value) == message


@st.composite
def planted_clauses(draw, planted: list[int], max_clauses: int = 12) -> list[list[int]]:
    """Clauses over 1..MAX_VARS, most of them holding a literal of `planted`."""
    lit = st.integers(1, MAX_VARS) | st.integers(-MAX_VARS, -1)
    clauses = []
    for _ in range(draw(st.integers(0, max_clauses))):
        clause = draw(st.lists(lit, max_size=4))
        if draw(st.integers(0, 9)):  # rarely none: then an empty clause or a broken one
            clause.insert(draw(st.integers(0, len(clause))), draw(st.sampled_from(planted)))
        clauses.append(clause)
    return clauses


@st.composite
def families(draw) -> tuple[list[int], list[CNF], list[list[list[int]]]]:
    """Formulas made by copy and extend (copies of copies, sources extended afterwards).

    Returns the planted model over 1..MAX_VARS, the formulas, and each one's clauses.
    """
    planted = [v if draw(st.booleans()) else -v for v in range(1, MAX_VARS + 1)]
    root = draw(planted_clauses(planted))
    formulas, clauses = [CNF(root)], [root]
    for _ in range(draw(st.integers(1, 8))):
        which = draw(st.integers(0, len(formulas) - 1))
        if draw(st.booleans()):
            formulas.append(formulas[which].copy())
            clauses.append(list(clauses[which]))
        else:
            more = draw(planted_clauses(planted, 4))
            formulas[which].extend(more)
            clauses[which].extend(more)
    return planted, formulas, clauses


@given(families(), st.lists(st.integers(1, MAX_VARS), max_size=3), st.randoms())
def test_copies_check_models_as_the_definition_says(family, flips, rng):
    planted, formulas, clauses = family
    for _ in range(3):  # the index is built at a second check through a shared prefix
        for cnf, own in zip(formulas, clauses, strict=True):
            n = cnf.num_vars
            model = planted[:n]
            flipped = [-lit if abs(lit) in flips else lit for lit in model]
            shuffled = rng.sample(model, len(model))
            partial = model[: rng.randint(0, n)]  # unmentioned variables count as unassigned
            both = model + [-lit for lit in model if abs(lit) in flips]
            extra = model + [n + 1, 0]
            for candidate in (model, flipped, shuffled, partial, both, extra):
                assert_checks_agree(cnf, own, candidate)


def test_copies_of_copies_share_one_index_built_at_the_second_check():
    source = CNF([[1, 2, 3], [-1, -2], [-2, -3]])
    first, second = source.copy(), source.copy().copy()
    first.add_clause([2])
    first.check_model([-1, 2, -3])
    assert source._shared.index is None  # one copy checked once pays nothing
    second.check_model([1, -2, -3])
    index = source._shared.index
    assert index is not None and second._shared is first._shared is source._shared
    source.add_clause([-1])  # the source grows: the shared prefix does not
    third = source.copy()
    with pytest.raises(ValueError, match=r"falsifies clause 4: \[-1\]"):
        third.check_model([1, -2, -3])
    assert third._shared.index is index


def test_a_prefix_changed_in_place_is_scanned_not_trusted():
    source = CNF([[1, 2], [-1, -2], [3, 4, 5]])
    honest, tampered = source.copy(), source.copy()
    honest.check_model([1, -2, 3, -4, -5])
    honest.check_model([1, -2, 3, -4, -5])  # builds the index
    tampered.flat[0] = -1  # against the contract of CNF.flat
    with pytest.raises(ValueError, match=r"falsifies clause 1: \[-1, 2\]"):
        tampered.check_model([1, -2, 3, -4, -5])


def test_formulas_with_empty_clauses_name_the_first_broken_clause():
    source = CNF([[1, 2], [-1]])
    copies = [source.copy() for _ in range(3)]
    copies[1].add_clause([])
    copies[2].extend([[2], [], [1]])
    for cnf in copies * 2:
        assert cnf.first_falsified([-1, 2]) == (None, 2, 3)[copies.index(cnf)]


def test_a_pickled_copy_travels_without_its_index():
    source = CNF([[1, 2], [-1, -2]])
    twin = source.copy()
    twin.check_model([1, -2])
    twin.check_model([1, -2])
    back = pickle.loads(pickle.dumps(twin))
    assert back == twin and back._shared is None
    assert back.first_falsified([1, 2]) == 1


def course_model(solution: Board) -> list[int]:
    """One literal per course variable: cell * size + d is true when the cell holds d."""
    size = solution.size
    return [
        cell * size + d if value == d else -(cell * size + d)
        for cell, value in enumerate(solution.cells)
        for d in range(1, size + 1)
    ]


@pytest.mark.parametrize("cell", [0, 1, 40, 80])
def test_a_course_model_with_one_cell_changed_is_refused_at_the_right_clause(cell):
    puzzle, solution = Board.parse(COURSE_EXAMPLE), Board.parse(COURSE_SOLUTION)
    right = course_model(solution)
    cells = list(solution.cells)
    cells[cell] = cells[cell] % solution.size + 1  # another value, still one per cell
    wrong = course_model(Board(solution.order, cells))
    for _ in range(3):  # the first check scans, the later ones read the rules' index
        cnf = encode(puzzle, "course").cnf
        clauses = cnf.clauses
        cnf.check_model(right)
        broken = first_broken(clauses, wrong)
        assert broken is not None
        with pytest.raises(ValueError) as caught:
            cnf.check_model(wrong)
        clause = list(clauses[broken])
        assert str(caught.value) == f"the model falsifies clause {broken + 1}: {clause}"
    assert cnf._shared is not None and cnf._shared.index is not None


def test_a_zero_in_the_model_satisfies_no_clause_appended_after_the_prefix():
    source = CNF([[1], [-1, -2]])
    for _ in range(2):
        cnf = source.copy()
        cnf.extend([[1, 2], [3], []])
        assert cnf.first_falsified([1, -2, -3, 0]) == 3
        assert cnf.first_falsified([0, 1, -2, 3]) == 4


def test_a_prefix_beyond_the_index_limit_is_scanned(monkeypatch):
    monkeypatch.setattr(cnf_module, "INDEX_MAX_ENTRIES", 5)
    source = CNF([[1, 2], [-1, -2]])  # 6 entries
    for model, broken in [([1, -2], None), ([1, 2], 1), ([-1, -2], 0)] * 2:
        assert source.copy().first_falsified(model) == broken
    assert source._shared.index is None
