"""The CNF container, the DIMACS reader and writer, and the solution formats."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sudosat.errors import DimacsError
from sudosat.sat.cnf import (
    CNF,
    DimacsWarning,
    format_solution,
    parse_dimacs,
    parse_solution,
    read_dimacs,
)
from sudosat.sat.result import Status
from tests.conftest import vu_rules_file

COURSE_CNF = "c Example formula in CNF\nc\np cnf 4 3\n1 3 -4 0\n4 0 2\n"


def test_course_example_keeps_its_last_clause_without_zero():
    cnf = parse_dimacs(COURSE_CNF)
    assert cnf.num_vars == 4
    assert cnf.clauses == ((1, 3, -4), (4,), (2,))


def test_clause_may_span_lines_and_lines_may_hold_several_clauses():
    cnf = parse_dimacs("p cnf 3 3\n1 2\n-3 0 2 0 -1\n 3 0\n")
    assert cnf.clauses == ((1, 2, -3), (2,), (-1, 3))


def test_comments_anywhere_as_whole_lines():
    cnf = parse_dimacs("c head\np cnf 2 2\nc between\n1 2 0\nc again\n-1 0\n")
    assert cnf.clauses == ((1, 2), (-1,))


def test_satlib_percent_ending_is_accepted():
    cnf = parse_dimacs("p cnf 3 2\n1 -2 3 0\n-1 2 0\n%\n0\n\n")
    assert cnf.clauses == ((1, -2, 3), (-1, 2))


def test_crlf_line_ends_are_accepted():
    assert parse_dimacs("p cnf 2 1\r\n1 -2 0\r\n").clauses == ((1, -2),)


def test_wrong_clause_count_is_a_warning_not_an_error():
    with pytest.warns(DimacsWarning, match="declares 3 clauses but the file holds 1"):
        cnf = parse_dimacs("p cnf 2 3\n1 2 0\n", "f.cnf")
    assert cnf.warnings == ["f.cnf:1: header declares 3 clauses but the file holds 1"]


def test_the_assignment_rules_file_reads_with_a_count_warning():
    path = vu_rules_file()  # our rules under the assignment file's header, which overstates
    with pytest.warns(DimacsWarning, match="12016 clauses but the file holds 11988"):
        cnf = read_dimacs(path)
    assert (cnf.num_vars, cnf.num_clauses) == (999, 11988)


def test_empty_clause_is_kept():
    cnf = parse_dimacs("p cnf 1 2\n1 0\n0\n")
    assert cnf.clauses == ((1,), ())
    assert cnf.has_empty_clause


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "f.cnf: empty file: no 'p cnf' header"),
        ("c only a comment\n", "f.cnf: no 'p cnf' header"),
        ("1 2 0\n", "f.cnf:1: clause before the 'p cnf' header: '1 2 0'"),
        (
            "p cnf 3\n1 0\n",
            "f.cnf:1: malformed header 'p cnf 3': expected 'p cnf VARIABLES CLAUSES'",
        ),
        ("p cnf x 2\n", "f.cnf:1: malformed header 'p cnf x 2'"),
        ("p dnf 2 1\n1 0\n", "f.cnf:1: malformed header 'p dnf 2 1'"),
        ("p cnf 2 1\n1 3 0\n", "f.cnf:2: literal 3 is beyond the 2 declared variables"),
        ("p cnf 2 1\n\n1 -3 0\n", "f.cnf:3: literal -3 is beyond the 2 declared variables"),
        ("p cnf 2 1\n1 two 0\n", "f.cnf:2: not an integer: 'two'"),
        ("p cnf 2 1\n1.5 0\n", "f.cnf:2: not an integer: '1.5'"),
        ("p cnf 2 1\n1 true 0\n", "f.cnf:2: not an integer: 'true'"),
        ("p cnf 2 1\n1e0 0\n", "f.cnf:2: not an integer: '1e0'"),
        ("p cnf 2 1\np cnf 2 1\n1 0\n", "f.cnf:2: a second 'p' header"),
    ],
)
def test_malformed_dimacs_is_reported_with_file_line_and_reason(text, message):
    with pytest.raises(DimacsError) as caught:
        parse_dimacs(text, "f.cnf")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_missing_file_is_a_dimacs_error(tmp_path):
    with pytest.raises(DimacsError, match="nothing.cnf: no such file"):
        read_dimacs(tmp_path / "nothing.cnf")


def test_from_clauses_is_the_formula_of_those_clauses():
    clauses = [[1, -2], [3], [-1, 2, -3]]
    cnf = CNF.from_clauses(clauses)
    assert cnf == CNF(clauses) and cnf.num_vars == 3 and cnf.num_clauses == 3
    assert cnf.clauses == ((1, -2), (3,), (-1, 2, -3))
    wider = CNF.from_clauses(iter(clauses), num_vars=5)  # any iterable, more variables declared
    assert wider.num_vars == 5 and wider.clauses == cnf.clauses
    assert CNF.from_clauses([[]]).has_empty_clause


def test_writer_is_strict_one_clause_per_line():
    cnf = CNF([[1, -2], [3], [-1, 2, -3]])
    assert (
        cnf.to_dimacs(["made by a test"]) == "c made by a test\np cnf 3 3\n1 -2 0\n3 0\n-1 2 -3 0\n"
    )


def test_writer_handles_empty_clauses_and_empty_formulas():
    assert CNF([[1], [], [-1]]).to_dimacs() == "p cnf 1 3\n1 0\n0\n-1 0\n"
    assert CNF(num_vars=4).to_dimacs() == "p cnf 4 0\n"


def test_num_vars_covers_unused_and_used_variables():
    assert CNF([[1, -5]]).num_vars == 5
    assert CNF([[1]], num_vars=9).num_vars == 9


def test_model_checking_names_the_broken_clause():
    cnf = CNF([[1, 2], [-1, 2], [-2, 3]])
    assert cnf.is_satisfied_by([1, 2, 3])
    assert cnf.first_falsified([1, 2, -3]) == 2
    with pytest.raises(ValueError, match="falsifies clause 3"):
        cnf.check_model([1, 2, -3])
    with pytest.raises(ValueError, match="exactly once"):
        cnf.check_model([1, 2])


clause_lists = st.integers(min_value=1, max_value=12).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.lists(
                st.integers(min_value=1, max_value=n).map(lambda v: v) | st.integers(-n, -1),
                min_size=0,
                max_size=6,
            ),
            max_size=25,
        ),
    )
)


@given(clause_lists)
def test_dimacs_round_trip(case):
    num_vars, clauses = case
    cnf = CNF(clauses, num_vars=num_vars)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = parse_dimacs(cnf.to_dimacs(["round trip"]))
    assert again == cnf
    assert again.clauses == tuple(map(tuple, clauses))


@given(clause_lists, st.integers(min_value=1, max_value=8))
def test_iteration_yields_every_clause_across_block_boundaries(case, block):
    """CNF.__iter__ converts the array a block at a time; tiny blocks cut through clauses."""
    import sudosat.sat.cnf as cnf_module

    num_vars, clauses = case
    cnf = CNF(clauses, num_vars=num_vars)
    whole = list(cnf)
    saved = cnf_module._ITER_BLOCK
    cnf_module._ITER_BLOCK = block
    try:
        assert list(cnf) == whole == [list(c) for c in clauses]
    finally:
        cnf_module._ITER_BLOCK = saved


@given(clause_lists)
def test_reader_accepts_clauses_spread_over_lines(case):
    num_vars, clauses = case
    tokens = [str(lit) for clause in clauses for lit in [*clause, 0]]
    text = f"p cnf {num_vars} {len(clauses)}\n" + "\n".join(
        " ".join(tokens[i : i + 3]) for i in range(0, len(tokens), 3)
    )
    assert parse_dimacs(text).clauses == tuple(map(tuple, clauses))


models = st.integers(min_value=0, max_value=30).flatmap(
    lambda n: st.lists(st.booleans(), min_size=n, max_size=n).map(
        lambda signs: [v if s else -v for v, s in enumerate(signs, start=1)]
    )
)


@pytest.mark.parametrize("style", ["course", "competition", "units"])
@given(model=models)
def test_solution_formats_round_trip(style, model):
    text = format_solution(Status.SAT, model, len(model), style, comments=["c line"])
    if not model and style == "units":
        return  # an empty model and an UNSAT answer write the same units file
    solution = parse_solution(text, num_vars=len(model))
    assert solution.status is Status.SAT
    assert solution.model == model


@pytest.mark.parametrize("status", [Status.UNSAT, Status.UNKNOWN])
def test_course_format_of_undecided_answers(status):
    text = format_solution(status, None, 7)
    assert text == f"s cnf {status.course_code} 7\n"
    assert parse_solution(text).status is status


def test_course_format_matches_the_spec_example():
    text = format_solution(Status.SAT, [1, 2, -3, 4], 4, comments=["Example solution", ""])
    assert text == "c Example solution\nc\ns cnf 1 4\nv 1\nv 2\nv -3\nv 4\n"


def test_competition_format_wraps_long_models():
    model = list(range(1, 50))
    text = format_solution(Status.SAT, model, 49, "competition")
    lines = text.splitlines()
    assert lines[0] == "s SATISFIABLE"
    assert all(line.startswith("v ") for line in lines[1:])
    assert lines[-1].endswith(" 0")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty solution"),
        ("s cnf 2 3\n", "malformed status line"),
        ("s cnf 1 2\nv 1\n", "gives no value to variable 2"),
        ("s cnf 1 2\nv 1\nv 3\n", "literal 3 is outside 1..2"),
        ("s cnf 1 1\nv 1\nv -1\n", "variable 1 is given both values"),
        ("s MAYBE\n", "unknown status 'MAYBE'"),
        ("hello\n", "not a solution line"),
    ],
)
def test_malformed_solutions_are_reported(text, message):
    with pytest.raises(DimacsError, match=message):
        parse_solution(text, "sol.txt")


def test_unsat_units_file_is_empty_of_clauses():
    assert format_solution(Status.UNSAT, None, 3, "units") == "p cnf 3 0\n"
    assert parse_solution("p cnf 3 0\n").status is Status.UNSAT


@given(clause_lists, st.randoms(use_true_random=False))
def test_first_falsified_agrees_with_its_definition(case, rng):
    num_vars, clauses = case
    cnf = CNF(clauses, num_vars=num_vars)
    model = [v if rng.random() < 0.5 else -v for v in range(1, cnf.num_vars + 1)]
    partial = model[: rng.randint(0, len(model))]  # unmentioned variables count as unassigned
    for assignment in (model, partial):
        expected = next(
            (i for i, clause in enumerate(clauses) if not set(assignment) & set(clause)), None
        )
        assert cnf.first_falsified(assignment) == expected


@pytest.mark.parametrize("model", [[1, 2, 3, 3], [1, 2, 4], [1, -1, 3], [0, 2, 3], [1, 2]])
def test_check_model_rejects_models_that_do_not_assign_each_variable_once(model):
    with pytest.raises(ValueError, match="exactly once"):
        CNF([[1, 2, 3]]).check_model(model)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(-30, 30).filter(bool), max_size=5), max_size=8),
    st.integers(0, 40),
    st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10),
             max_size=2),
)
def test_repr_rebuilds_the_formula(clauses, extra_vars, comments):
    cnf = CNF(clauses, num_vars=extra_vars, comments=comments)
    rebuilt = eval(repr(cnf), {"CNF": CNF})  # noqa: S307 - the repr's contract is to eval back
    assert rebuilt == cnf and rebuilt.comments == cnf.comments


# -- the bulk path of CNF.extend against add_clause, clause by clause ----------------------


class _IndexOnly:
    """A literal that reads as an integer only through ``__index__`` (unequal to every int)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"_IndexOnly({self.value})"


_LITERALS = st.one_of(
    st.integers(-6, 6),
    st.integers(-(2**31) - 2, 2**31 + 2),  # int32's ends and just beyond
    st.booleans(),
    st.sampled_from([1.0, 0.0, -2.5, "1", None, (1,)]),
    st.builds(_IndexOnly, st.integers(-3, 3)),
)
# A clause: its literals, what holds them (an iterator is read once), and often well-formed.
_CLAUSES = st.tuples(
    st.one_of(st.lists(st.integers(-9, 9).filter(bool), max_size=4),
              st.lists(_LITERALS, max_size=4)),
    st.sampled_from(["list", "tuple", "iterator"]),
)
_SPECS = st.tuples(st.lists(_CLAUSES, max_size=8), st.sampled_from(["list", "tuple", "generator"]))


def _materialise(spec):
    """Fresh clauses (and their container) as `spec` describes them: one per builder."""
    clauses, outer = spec
    made = [{"list": list, "tuple": tuple, "iterator": iter}[kind](lits) for lits, kind in clauses]
    if outer == "generator":
        return (clause for clause in made)
    return made if outer == "list" else tuple(made)


def _outcome(build, spec):
    """What building from `spec` raised (type and message) and the formula it left."""
    cnf = CNF(num_vars=2)
    error = None
    try:
        build(cnf, _materialise(spec))
    except Exception as exc:  # the outcome compared, whatever it is
        error = (type(exc), str(exc))
    return error, cnf.flat.tolist(), cnf.num_vars, len(cnf), cnf.has_empty_clause


def _one_by_one(cnf: CNF, clauses) -> None:
    for clause in clauses:
        cnf.add_clause(clause)


@settings(max_examples=400, deadline=None)
@given(_SPECS, st.sampled_from([1, 2, 3, 1 << 16]))
@example(([([2], "list"), ([3, 2.0], "tuple")], "list"), 1 << 16)  # 2.0 hides behind 2 in a set
def test_extend_accepts_and_refuses_what_add_clause_does(spec, bulk):
    """Same error (type and message), same clauses kept before it, same variables."""
    import sudosat.sat.cnf as cnf_module

    saved = cnf_module._BULK_CLAUSES
    cnf_module._BULK_CLAUSES = bulk  # small blocks: a fault in a later block keeps earlier ones
    try:
        assert _outcome(CNF.extend, spec) == _outcome(_one_by_one, spec)
    finally:
        cnf_module._BULK_CLAUSES = saved


@pytest.mark.parametrize(
    ("clauses", "error", "message"),
    [
        ([[1, 2], [3, 0, -4]], ValueError, "cannot contain the literal 0"),
        ([[1], [False]], ValueError, "cannot contain the literal 0"),  # False reads as 0
        ([[1], [_IndexOnly(0)]], ValueError, "cannot contain the literal 0"),
        ([[1, 2.0]], TypeError, "float"),
        ([[2], [2.0]], TypeError, "float"),
        ([("1",)], TypeError, "str"),
        ([[None]], TypeError, "NoneType"),
        ([[2**31]], OverflowError, "greater than maximum"),
        ([[-(2**31) - 1]], OverflowError, "less than minimum"),
        ([[1], 5], TypeError, "int"),
    ],
)
def test_bad_literals_are_refused_with_the_reason(clauses, error, message):
    with pytest.raises(error, match=message):
        CNF(clauses)


def test_a_bool_literal_reads_as_its_integer_as_it_always_has():
    # array("i") reads True as 1: add_clause always took it so, and the bulk path keeps that.
    assert CNF([[True, -2]]).clauses == ((1, -2),)


def test_the_bulk_path_keeps_counts_and_empty_clauses():
    cnf = CNF([[1, -5], (), (2,), []], num_vars=3)
    assert (cnf.num_vars, len(cnf), cnf.num_literals, cnf.has_empty_clause) == (5, 4, 3, True)
    assert cnf.flat.tolist() == [1, -5, 0, 0, 2, 0, 0]
    cnf.extend([(-7,)])
    assert (cnf.num_vars, len(cnf)) == (7, 5)


def test_clauses_is_a_read_only_snapshot():
    cnf = CNF([[1, -2], [2]])
    with pytest.raises(AttributeError):
        cnf.clauses.append((3,))  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        cnf.clauses[0][0] = 5  # type: ignore[index]
    assert cnf.clauses == ((1, -2), (2,)) and list(cnf) == [[1, -2], [2]]
    cnf.add_clause([3])
    assert cnf.clauses[-1] == (3,) and len(cnf) == 3


def test_a_shared_prefix_changed_in_place_is_noticed():
    """The kept text and the index answer only for the prefix they were made of."""
    source = CNF([[1, 2], [-1, -2], [1, 2, 3]])
    twin = source.copy()
    model = [1, -2, 3]
    for formula in (source, twin):  # the second check builds the index
        assert formula.first_falsified(model) is None
    assert b"".join(twin.dimacs_clause_bytes()) == b"1 2 0\n-1 -2 0\n1 2 3 0\n"
    shared = twin._shared
    assert shared is not None and shared.index is not None and shared.text is not None
    twin.flat[0] = -1  # against the contract: the shared prefix changed in place
    assert twin.first_falsified(model) == 0
    assert b"".join(twin.dimacs_clause_bytes()) == b"-1 2 0\n-1 -2 0\n1 2 3 0\n"
    twin.flat[0] = 1  # as it was: the index and the text answer again
    assert shared.holds(twin.flat) and twin.first_falsified(model) is None
