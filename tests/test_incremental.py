"""Incremental solving: cdcl's Solver object, assumptions, cores, proofs."""

from __future__ import annotations

import pysat.solvers as pysat_solvers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status
from sudosat.sat.solvers import cdcl
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.cdcl import Solver, certify

# Every test runs on both cdcl cores: the pure-Python reference and its compiled twin.
pytestmark = pytest.mark.usefixtures("cdcl_core")


def reference(clauses: list[list[int]], assumptions: list[int]) -> bool:
    """PySAT's Minisat22 verdict on the clauses plus the assumptions as unit clauses."""
    with pysat_solvers.Solver(name="m22", bootstrap_with=clauses) as oracle:
        for lit in assumptions:
            oracle.add_clause([lit])
        return oracle.solve()


def literals(num_vars: int):
    return st.integers(1, num_vars).flatmap(lambda v: st.sampled_from([v, -v]))


def formulas(num_vars: int):
    return st.lists(st.lists(literals(num_vars), min_size=1, max_size=4), max_size=30)


def check_answer(clauses, assumptions, result, solver) -> None:
    """The answer agrees with the reference; a model keeps the assumptions; a core is UNSAT."""
    expected = reference(clauses, assumptions)
    assert result.status is (Status.SAT if expected else Status.UNSAT)
    if expected:
        model = set(solver.get_model())
        assert set(assumptions) <= model
        assert all(any(q in model for q in clause) for clause in clauses)
        assert solver.get_core() is None
    else:
        core = solver.get_core()
        assert set(core) <= set(assumptions)
        assert not reference(clauses, core)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(formulas(n), st.lists(literals(n), max_size=6))
    )
)
def test_assumptions_agree_with_units_and_cores_are_unsat(case):
    clauses, assumptions = case
    with Solver(CNF(clauses)) as solver:
        check_answer(clauses, assumptions, solver.solve(assumptions), solver)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(3, 12).flatmap(
        lambda n: st.lists(
            st.one_of(
                st.tuples(st.just("add"), st.lists(literals(n), min_size=1, max_size=4)),
                st.tuples(st.just("solve"), st.lists(literals(n), max_size=5)),
            ),
            min_size=1,
            max_size=25,
        )
    )
)
def test_many_calls_on_one_solver_interleaved_with_add_clause(steps):
    clauses: list[list[int]] = []
    solver = Solver()
    for kind, lits in steps:
        if kind == "add":
            solver.add_clause(lits)
            clauses.append(lits)
        else:
            check_answer(clauses, lits, solver.solve(lits), solver)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(20, 45), st.sampled_from([0, 1, 2]))
def test_calls_on_random_3sat_keep_agreeing(seed, num_clauses, chrono):
    """Bigger formulas (learnt clauses, restarts) and several assumption sets in a row,
    with each way of backtracking (chronological ones keep assumption levels' literals)."""
    import random

    rng = random.Random(seed)
    n = 12
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)]
               for _ in range(num_clauses)]
    solver = Solver(CNF(clauses), restart_first=2, reduce_first=10, chrono=chrono)
    for _ in range(6):
        assumptions = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), rng.randint(0, 4))]
        check_answer(clauses, assumptions, solver.solve(assumptions), solver)
        extra = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)]
        solver.add_clause(extra)
        clauses.append(extra)


def test_clashing_assumptions_form_the_core():
    solver = Solver(CNF([[1, 2]]))
    assert solver.solve([3, -1, -3]).is_unsat
    assert solver.get_core() == [3, -3]
    assert solver.solve([-1, -2]).is_unsat
    assert solver.get_core() == [-1, -2]
    assert solver.solve([-1]).is_sat  # the failed calls left nothing behind
    assert solver.get_model()[:2] == [-1, 2]


def test_unsat_clauses_give_an_empty_core_for_good():
    solver = Solver(CNF([[1, 2], [-1, 2], [1, -2], [-1, -2]]))
    assert solver.solve([1]).is_unsat
    assert solver.get_core() == []
    assert solver.solve().is_unsat


def test_assumptions_on_variables_no_clause_names():
    solver = Solver(CNF([[1]]))
    result = solver.solve([-7])
    assert result.is_sat
    assert result.model == [1, -2, -3, -4, -5, -6, -7]


def test_repeated_assumptions_take_more_levels_than_there_are_variables():
    # Each copy of an assumption already true takes an empty decision level, so the
    # conflicts of pigeonhole(4, 3) (12 variables) are analysed at levels above 12.
    solver = Solver(pigeonhole(4, 3))
    solver.add_clause([13, 14])
    result = solver.solve([13] * 30)
    assert result.is_unsat and result.stats["conflicts"] > 0
    assert solver.get_core() == []
    assert solver.solve().is_unsat


def test_learnt_clauses_and_activities_carry_over():
    solver = Solver(pigeonhole(6, 5))
    first = solver.solve()
    assert first.is_unsat and first.stats["conflicts"] > 0
    second = solver.solve()
    assert second.is_unsat and second.stats["conflicts"] == 0  # the empty clause is known


def test_a_timed_out_call_leaves_a_usable_solver():
    solver = Solver(pigeonhole(10, 9))
    assert solver.solve(deadline=Deadline(100)).is_unknown
    assert solver.solve([1, -1]).is_unsat  # level 0 again: the assumptions clash at once
    assert set(solver.get_core()) == {1, -1}


def test_a_bad_assumption_is_refused():
    with pytest.raises(SolverError, match="non-zero integer"):
        Solver(CNF([[1]])).solve([0])


def test_one_shot_solve_and_the_object_agree_on_stats():
    cnf = pigeonhole(6, 5)
    assert cdcl.solve(cnf).stats["conflicts"] == Solver(cnf).solve().stats["conflicts"]


# -- proofs across calls --------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([0, 2]))
def test_drat_proofs_after_several_calls_verify(seed, chrono):
    import random

    rng = random.Random(seed)
    n = 10
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)] for _ in range(30)]
    solver = Solver(CNF(clauses), proof=True, restart_first=2, reduce_first=10, chrono=chrono)
    checked = 0
    for _ in range(8):
        assumptions = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), rng.randint(0, 4))]
        result = solver.solve(assumptions)
        if result.is_unsat:
            ok, why = certify(solver.proof_formula(), result.proof)
            assert ok, why
            checked += 1
        extra = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)]
        solver.add_clause(extra)
    assert solver.solve([]).status in (Status.SAT, Status.UNSAT)


def test_drat_proof_of_pigeonhole_after_earlier_calls_verifies():
    cnf = pigeonhole(6, 5)
    solver = Solver(CNF(cnf.clauses[:-3]), proof=True)
    assert solver.solve([1]).is_sat
    assert solver.solve([-1, -2]).status is not Status.UNKNOWN
    solver.append_formula(cnf.clauses[-3:])
    result = solver.solve()
    assert result.is_unsat
    ok, why = certify(solver.proof_formula(), result.proof)
    assert ok, why


def test_proof_text_needs_proof_logging():
    with pytest.raises(SolverError, match="proof=True"):
        Solver(CNF([[1]])).proof_text()


# -- one clause of 100,000 literals ---------------------------------------------------------


def test_fault8_long_clause():
    """The loader is linear in a clause's length and reads the clock inside a huge one."""
    import time

    n = 100_000
    clause = [v if v % 2 else -v for v in range(1, n + 1)]
    cnf = CNF([clause, [-1], [2]], n)
    # CPU time, which a busy machine does not inflate: a quadratic loader would take minutes.
    started = time.process_time()
    result = cdcl.solve(cnf, deadline=Deadline(300))
    assert time.process_time() - started < 2.0
    assert result.status in (Status.SAT, Status.UNKNOWN)
    result = cdcl.solve(cnf)
    assert result.is_sat
    assert time.process_time() - started < 4.0
    tautology = CNF([[*clause, -clause[-1]]], n)
    assert cdcl.solve(tautology).is_sat


# -- the wrong-model guard of repeated checks -------------------------------------------------


@pytest.mark.reference_core
def test_a_wrong_model_fails_loudly_on_later_calls_too(monkeypatch):
    solver = Solver(CNF([[1, 2], [-1, 2], [3, 4, 5]]))
    assert solver.solve().is_sat  # the first check scans the formula in C
    assert solver.solve([1]).is_sat  # later ones use the index

    def all_false(self):
        return [-v for v in range(1, self.num_vars + 1)]

    monkeypatch.setattr(cdcl.Engine, "model", all_false)
    with pytest.raises(SolverError, match="wrong model"):
        solver.solve([2])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([0, 3, 10**9]))
def test_next_question_keeps_answers_whether_or_not_it_rescores(seed, rescore_conflicts):
    """Rescoring (always, on some calls, never) changes the search's order, never an answer."""
    import random

    rng = random.Random(seed)
    n = 14
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)] for _ in range(55)]
    solver = Solver(CNF(clauses), restart_first=2, rescore_conflicts=rescore_conflicts)
    for _ in range(6):
        assumptions = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), rng.randint(0, 5))]
        check_answer(clauses, assumptions, solver.solve(assumptions), solver)
        solver.next_question()


class FirstDecisions:
    """Records each call's first decision of the heuristic, with the JW products at that moment."""

    def __init__(self) -> None:
        self.engine: cdcl.Engine | None = None
        self.first: list[tuple[int, list[float], list[int]]] = []
        self.fresh_call = True

    def decided(self, literal, level, trail_size):
        if self.fresh_call:
            self.fresh_call = False
            engine = self.engine
            free = [v for v in range(1, engine.num_vars + 1) if not engine.val[2 * v]]
            self.first.append((abs(literal), engine.jw_products(), free))


def first_decisions_after_next_question(rescore_conflicts: float, seed: int):
    """Solve random 3-SAT once (conflicts accrue), then under assumptions after next_question."""
    import random

    rng = random.Random(seed)
    n = 40
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)] for _ in range(150)]
    observer = FirstDecisions()
    solver = Solver(CNF(clauses), observer=observer, rescore_conflicts=rescore_conflicts)
    observer.engine = solver._engine
    first = solver.solve()
    if not first.is_sat or solver.stats()["conflicts"] < 3:
        return None
    solver.next_question()
    observer.fresh_call = True
    model = solver.get_model()
    assumptions = rng.sample(model, 4)  # consistent with a model: the call needs decisions
    assert solver.solve(assumptions).is_sat
    return observer.first[-1] if len(observer.first) == 2 else None


def test_next_question_ranks_the_first_decision_by_jw_products():
    """After next_question, the first free decision takes the best JW product (ties: lowest
    variable), as a fresh solver's first decision does on its level-0 facts; without
    rescoring the old activities decide, and on these formulas they often disagree."""
    agreed = {0: 0, 10**9: 0}
    cases = 0
    for seed in range(40):
        found = {threshold: first_decisions_after_next_question(threshold, seed)
                 for threshold in agreed}
        if None in found.values():
            continue  # the first call was UNSAT or took almost no conflicts
        cases += 1
        for threshold, (var, products, free) in found.items():
            agreed[threshold] += var == max(free, key=lambda v: (products[v], -v))
    assert cases >= 10
    assert agreed[0] == cases  # rescored: always the best product
    assert agreed[10**9] < cases  # the test can tell: old activities pick others


@pytest.mark.reference_core
def test_rescoring_waits_for_costly_calls():
    """The default threshold rescores only once calls average enough conflicts."""
    easy = Solver(CNF([[1, 2], [-1, 3]]))
    easy.solve([1])
    easy.next_question()
    assert not easy._engine.rescore_next
    hard = Solver(pigeonhole(6, 5))
    hard.add_clause([100, 101])
    assert hard.solve([100]).is_unsat  # many conflicts: pigeonhole 6 into 5
    hard.next_question()
    assert hard._engine.rescore_next


@pytest.mark.reference_core
def test_only_the_call_after_next_question_rescores(monkeypatch):
    """A call that ends before any free decision (here a failed assumption) uses up the
    rescoring: the call after it, the same question, keeps its activities."""
    rescored = []
    real = cdcl.Engine.rescore
    monkeypatch.setattr(cdcl.Engine, "rescore", lambda engine: rescored.append(1) or real(engine))
    solver = Solver(pigeonhole(5, 5), rescore_conflicts=0)  # satisfiable: decisions needed
    solver.add_clause([100, 101])
    solver.next_question()
    assert solver.solve([-100, -101]).is_unsat and solver.get_core() == [-100, -101]
    assert solver.solve([100]).is_sat
    assert rescored == []
    solver.next_question()
    assert solver.solve([100]).is_sat
    assert rescored == [1]


def test_forget_learnts_keeps_answers():
    solver = Solver(pigeonhole(5, 4))
    solver.add_clause([100, 101])
    assert solver.solve([-100]).is_unsat
    assert solver.forget_learnts() >= 0
    assert solver.solve().is_unsat and solver.get_core() == []


# -- other solvers behind the same interface ----------------------------------------------------

from sudosat.sudoku.incremental import (  # noqa: E402
    count_solutions,
    incremental_support,
    is_unique,
    open_solver,
)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 7).flatmap(lambda n: st.tuples(formulas(n), st.lists(literals(n), max_size=5)))
)
def test_pysat_and_one_shot_adapters_agree_with_the_reference(case):
    clauses, assumptions = case
    expected = reference(clauses, assumptions)
    for name in ("pysat:minisat22", "pysat:cadical195", "dpll"):
        loaded = open_solver(name, CNF(clauses))
        result = loaded.solve(assumptions)
        assert result.is_sat is expected, name
        if expected:
            assert set(assumptions) <= set(result.model)
        else:
            core = loaded.get_core()
            assert set(core) <= set(assumptions) and not reference(clauses, core)
        loaded.close()


def test_which_solvers_are_incremental():
    assert incremental_support("cdcl") == (True, "")
    assert incremental_support("pysat:minisat22") == (True, "")
    assert not incremental_support("zchaff")[0]
    assert "one-shot" in incremental_support("exec:minisat")[1]
    assert not open_solver("dpll", CNF([[1]])).native


# -- Sudoku: counting, the pipeline's incremental mode, the command line ---------------------

from sudosat.cli import main  # noqa: E402
from sudosat.run.pipeline import solve_line  # noqa: E402
from sudosat.sudoku.board import COURSE_EXAMPLE, Board, check_solution  # noqa: E402

EXAMPLE = COURSE_EXAMPLE
CLASH = "3 55" + "0" * 79


def test_count_solutions_answers_zero_one_and_at_least_k():
    assert count_solutions(Board.parse(EXAMPLE)) == 1
    assert count_solutions(Board.parse(CLASH)) == 0
    assert count_solutions(Board.parse("2 " + "0" * 16), limit=5) == 5
    assert count_solutions(Board.parse("2 1234" + "0" * 12), limit=100) == 12
    assert is_unique(Board.parse(EXAMPLE)) and not is_unique(Board.parse("3 " + "0" * 81))
    # the loaded rules forgot every puzzle's blocking clauses
    assert count_solutions(Board.parse("2 1234" + "0" * 12), limit=100) == 12


@pytest.mark.parametrize("solver", ["cdcl", "pysat:minisat22", "dpll"])
def test_incremental_line_matches_the_default_line(solver):
    for text in (EXAMPLE, CLASH, "3 12"):
        default = solve_line(text, 1, solver)
        incremental = solve_line(text, 1, solver, incremental=True)
        assert incremental.output_line == default.output_line
        assert incremental.row["status"] == default.row["status"]
    # A puzzle of many solutions: each mode may find another one (the default
    # mode's first decisions are scored on the CNF its givens left, the
    # incremental mode's on the bare rules), and each must solve the puzzle.
    text = "2 1000000000000000"
    for incremental in (False, True):
        line = solve_line(text, 1, solver, incremental=incremental).output_line
        assert check_solution(Board.parse(text), Board.parse(line)) is None, (incremental, line)


def test_incremental_unsat_row_names_the_failed_givens():
    row = solve_line(CLASH, 1, "cdcl", incremental=True).row
    assert row["status"] == "UNSAT"
    assert "failed givens: (1, 1)=5 (1, 2)=5" in row["error"]


def test_incremental_refuses_an_encoding_built_from_the_givens(tmp_path, capsys):
    outcome = solve_line(EXAMPLE, 1, "cdcl", "optimised", incremental=True)
    assert outcome.row["status"] == "ERROR" and "built from the givens" in outcome.row["error"]
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EXAMPLE + "\n")
    argv = ["solve", str(puzzles), "--incremental", "--encoding", "optimised", "--no-progress"]
    assert main(argv) == 2
    assert "built from the givens" in capsys.readouterr().err
    assert not (tmp_path / "p.cdcl.txt").exists()


def test_incremental_with_a_one_shot_solver_says_so(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EXAMPLE + "\n")
    argv = ["solve", str(puzzles), "--incremental", "--solver", "dpll", "--no-progress"]
    assert main(argv) == 0
    assert "dpll has no incremental interface" in capsys.readouterr().err
    assert (tmp_path / "p.dpll.txt").read_text().startswith("3 8164")


def test_cli_count(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{EXAMPLE}\n3 {'0' * 81}\n{CLASH}\n3 12\n")
    assert main(["count", str(puzzles), "--limit", "3"]) == 1  # the bad line
    out, err = capsys.readouterr()
    assert out.split("\n")[:4] == ["1", "at least 3", "0", "ERROR order 3 needs 81 symbols, got 2"]
    assert f"{puzzles}:4:" in err
    assert main(["count", str(puzzles), "--encoding", "optimised"]) == 1
    assert "built from the givens" in capsys.readouterr().err


def _solve_both(tmp_path, count: int, capsys) -> None:
    puzzles = tmp_path / "puzzles.txt"
    argv = ["generate", "--order", "3", "--alpha", "0.4", "--unique", "--count", str(count),
            "--seed", "14", "-o", str(puzzles)]
    assert main(argv) == 0
    with puzzles.open("a") as stream:
        stream.write(f"{CLASH}\n3 12\n")
    for mode in ("default", "incremental"):
        argv = ["solve", str(puzzles), "-o", str(tmp_path / f"{mode}.txt"), "--no-progress",
                "--results", str(tmp_path / f"{mode}.csv")]
        assert main(argv + (["--incremental"] if mode == "incremental" else [])) == 1
    capsys.readouterr()
    default = (tmp_path / "default.txt").read_text()
    assert (tmp_path / "incremental.txt").read_bytes() == (tmp_path / "default.txt").read_bytes()
    lines = default.split("\n")
    assert len(lines) == count + 3 and lines[-3] == "3 UNSAT" and lines[-2].startswith("ERROR")


def test_incremental_and_default_outputs_are_identical(tmp_path, capsys):
    _solve_both(tmp_path, 60, capsys)


@pytest.mark.slow
def test_incremental_and_default_outputs_are_identical_on_1000_lines(tmp_path, capsys):
    _solve_both(tmp_path, 998, capsys)  # 998 generated, one clash and one bad line


def test_drat_proof_of_clashing_givens_on_loaded_sudoku_rules_verifies():
    from sudosat.sudoku.incremental import givens_as_assumptions, rules

    solver = Solver(rules(3, "course").cnf, proof=True)
    assert solver.solve(givens_as_assumptions(Board.parse(EXAMPLE))).is_sat
    assert solver.solve(givens_as_assumptions(Board.parse("3 " + "0" * 81))).is_sat
    # no unit holds a symbol twice, yet cell (1, 9) needs the 9 that column 9 already has
    hidden = Board.parse("3 123456780" + "000000009" + "0" * 63)
    assert hidden.is_consistent()
    result = solver.solve(givens_as_assumptions(hidden))
    assert result.is_unsat and 9 * 9 + 8 * 9 + 9 in solver.get_core()
    ok, why = certify(solver.proof_formula(), result.proof)
    assert ok, why
    result = solver.solve(givens_as_assumptions(Board.parse(CLASH)))
    assert result.is_unsat and solver.get_core() == [5, 14]
    ok, why = certify(solver.proof_formula(), result.proof)
    assert ok, why


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_calls_sharing_a_prefix_of_assumptions_keep_agreeing(seed):
    """Consecutive calls re-decide only from the first differing assumption: still exact."""
    import random

    rng = random.Random(seed)
    n = 14
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)] for _ in range(50)]
    solver = Solver(CNF(clauses), restart_first=3)
    prefix = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 6)]
    for _ in range(10):
        cut = rng.randint(0, len(prefix))
        assumptions = prefix[:cut] + [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 2)]
        check_answer(clauses, assumptions, solver.solve(assumptions), solver)
        if rng.random() < 0.2:
            extra = [rng.choice([v, -v]) for v in rng.sample(range(1, n + 1), 3)]
            solver.add_clause(extra)
            clauses.append(extra)


# -- the rules load under the instance's deadline ----------------------------------------

from sudosat.sat.solvers.budget import OutOfTime  # noqa: E402
from sudosat.sudoku import incremental  # noqa: E402
from tests.clock import cpu_spent, late_by_at_most  # noqa: E402
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION  # noqa: E402


class CountingDeadline:
    """A deadline that expires at its `expire_at`-th look (None: never), counting the looks."""

    def __init__(self, expire_at: int | None) -> None:
        self.expire_at, self.looks = expire_at, 0

    limited = True

    def check(self) -> None:
        self.looks += 1
        if self.expire_at is not None and self.looks >= self.expire_at:
            raise OutOfTime


def test_chunks_cut_a_formula_between_clauses_and_lose_nothing():
    cnf = incremental.rules(2, "course").cnf
    for entries in (1, 7, 100, 10**6):
        chunks = list(incremental._chunks(cnf, entries))
        assert tuple(c for chunk in chunks for c in chunk.clauses) == cnf.clauses
        assert all(chunk.flat[-1] == 0 for chunk in chunks)
        assert all(len(chunk.flat) < entries + 10 for chunk in chunks)  # a clause at most over


def test_loading_the_rules_looks_at_the_deadline_between_chunks(monkeypatch):
    monkeypatch.setattr(incremental, "_LOAD_CHUNK", 2000)  # 9x9 course rules: ~18 chunks
    incremental.rules(3, "course")  # the rules are built already: only the load is left
    with incremental.LoadedRules() as cache:
        deadline = CountingDeadline(expire_at=6)
        with pytest.raises(OutOfTime):
            cache.get("cdcl", 3, "course", {"seed": 0}, 10**9, deadline)
        assert deadline.looks == 6 and len(cache) == 0  # stopped mid-load, nothing kept
        never = CountingDeadline(expire_at=None)
        loaded, encoded = cache.get("cdcl", 3, "course", {"seed": 0}, 10**9, never)
        assert never.looks > 10  # one look per chunk
        puzzle = Board.parse(COURSE_EXAMPLE)
        result = loaded.solve(incremental.givens_as_assumptions(puzzle))
        assert encoded.decode(result.model).to_line() == COURSE_SOLUTION


def test_a_huge_order_answers_timeout_within_the_limit_instead_of_loading_for_seconds():
    incremental.forget_loaded()
    from sudosat.run import pipeline  # imported before the clock starts, as the batch does

    assert pipeline is not None
    # Order 6: 3.3 million rule clauses, seconds to build and more to load into cdcl.
    with cpu_spent() as spent:
        outcome = pipeline.solve_instance(
            Board(6, [0] * 6**4), "cdcl", "course", 200, incremental=True
        )
    assert outcome.row["status"] == "TIMEOUT", outcome.row
    assert "building and loading the rules" in outcome.row["error"]
    # The promise is T + max(10 % of T, 100 ms), held on CPU time (tests/clock.py): loading
    # order 6 without looking at the clock takes seconds of CPU to build, more to load.
    assert spent.seconds < late_by_at_most(200), spent
    assert len(incremental.default_rules()) == 0
    assert incremental.count_solutions(Board(5, [0] * 5**4), deadline=Deadline(100)) is None


def test_counting_refuses_a_solver_that_gives_the_same_solution_twice(monkeypatch):
    """cdcl counts without its model check; the decoded boards must be new solutions instead."""
    from sudosat.sat.solvers.incremental import CdclSession

    real = CdclSession.solve
    answers = []

    def repeat_the_first(self, assumptions=(), **keywords):
        answers.append(real(self, assumptions, **keywords))
        return answers[0]

    monkeypatch.setattr(CdclSession, "solve", repeat_the_first)
    with incremental.LoadedRules() as cache, pytest.raises(SolverError, match="not a new solution"):
        incremental.count_solutions(Board.parse("2 " + "0" * 16), limit=3, cache=cache)
    monkeypatch.undo()
    with incremental.LoadedRules() as cache:
        assert incremental.count_solutions(Board.parse("2 " + "0" * 16), limit=3, cache=cache) == 3


# -- the loaded rules: a bounded cache its owner closes ------------------------------------


class ClosingLog:
    """Records which loaded solvers were closed, by wrapping close on the session classes."""

    def __init__(self, monkeypatch) -> None:
        from sudosat.sat.solvers import incremental as sessions

        self.closed: list[object] = []
        for cls in (sessions.CdclSession, sessions.OneShot):
            real = cls.close

            def close(loaded, _real=real):
                self.closed.append(loaded)
                _real(loaded)

            monkeypatch.setattr(cls, "close", close)


def test_the_rules_cache_is_bounded_and_closes_what_it_evicts(monkeypatch):
    log = ClosingLog(monkeypatch)
    cache = incremental.LoadedRules(capacity=2)
    first, _ = cache.get("cdcl", 2, "course")
    second, _ = cache.get("dpll", 2, "course")
    assert cache.get("cdcl", 2, "course")[0] is first and cache.loads == 2  # reused
    third, _ = cache.get("cdcl", 2, "extended")  # one too many: the least recently used goes
    assert len(cache) == 2 and log.closed == [second]
    cache.close()
    assert len(cache) == 0 and set(map(id, log.closed)) == {id(second), id(first), id(third)}


def test_the_owner_decides_the_life_of_its_loaded_rules(monkeypatch):
    log = ClosingLog(monkeypatch)
    board = Board.parse("2 " + "0" * 16)
    with incremental.LoadedRules() as mine:
        assert incremental.count_solutions(board, limit=3, cache=mine) == 3
        assert incremental.count_solutions(board, limit=3, cache=mine) == 3
        assert mine.loads == 1 and not log.closed  # one load, kept while the owner lives
    assert len(mine) == 0 and len(log.closed) == 1  # closed when its owner is done


def test_activation_variables_are_fresh_on_each_loaded_solver():
    with incremental.LoadedRules() as cache:
        for solver in ("cdcl", "dpll"):
            loaded, encoded = cache.get(solver, 2, "course")
            first = incremental.new_activation(loaded, encoded)
            assert first == encoded.num_vars + 1
            loaded.add_clause([-first, 1])
            second = incremental.new_activation(loaded, encoded)
            assert second == first + 1  # the state is the solver's own: its variable count
            loaded.add_clause([-second])


def test_a_batch_in_this_process_closes_its_loaded_rules_at_the_end(tmp_path, monkeypatch):
    from sudosat.run.batch import run_batch

    log = ClosingLog(monkeypatch)
    instances = tmp_path / "in.txt"
    instances.write_text(f"{COURSE_EXAMPLE}\n{COURSE_EXAMPLE}\n")
    default_before = len(incremental.default_rules())
    run_batch(instances, tmp_path / "out.txt", solver_options={"cdcl": {"incremental": True}},
              progress=False)
    assert (tmp_path / "out.txt").read_text() == f"{COURSE_SOLUTION}\n" * 2
    assert len(log.closed) == 1  # one load for both lines, closed by the run that owned it
    assert len(incremental.default_rules()) == default_before  # the process's cache untouched


def test_budgets_in_the_incremental_mode_give_unknown_rows():
    from sudosat.run.pipeline import solve_instance

    hard = Board.parse(
        "....23...8.....4........1..1..8..6.........7...4.......5..6..2..2.....35...4.....")
    for incremental_mode in (False, True):
        outcome = solve_instance(hard, "dpll", "course", incremental=incremental_mode,
                                 max_conflicts=3)
        assert outcome.output_line == "3 UNKNOWN", outcome.row
        assert outcome.row["status"] == "UNKNOWN"
        assert outcome.row["error"] == "the work budget ran out (max_conflicts=3)"
        assert outcome.row["conflicts"] == 3


# -- the model check under the deadline --------------------------------------------------

from sudosat.sat.result import Stop  # noqa: E402
from sudosat.sat.solvers.cdcl.model_check import INDEX_BLOCK, ModelChecker  # noqa: E402
from sudosat.sudoku.encoding import encode  # noqa: E402


def test_the_checkers_index_is_built_a_block_at_a_time_and_goes_on_where_it_stopped():
    formula = encode(Board.empty(3), "extended").cnf
    looks = []

    def twice() -> bool:  # in time for two blocks, then out of time
        looks.append(1)
        return len(looks) <= 2

    checker = ModelChecker()
    assert not checker.catch_up(formula, twice)
    assert 0 < checker.read <= 2 * INDEX_BLOCK + 100 and checker.read < len(formula.flat)
    assert checker.catch_up(formula)  # no clock: the rest, from where it stopped
    whole = ModelChecker()
    whole.catch_up(formula)
    assert (checker.implied, checker.others) == (whole.implied, whole.others)
    model = cdcl.solve(formula).model
    assert checker.first_broken(model) is None
    wrong = [-lit if abs(lit) == 1 else lit for lit in model]
    assert checker.first_broken(wrong) is not None


def test_a_quick_answer_whose_check_meets_t_is_a_time_out_not_a_late_answer():
    # An empty order-5 board is answered without a conflict (a few ms of CPU compiled, about
    # 0.1 s in Python), but indexing its formula for the second call's check costs about half
    # a second: under a 200 ms limit the index is cut short, the answer is not given
    # unchecked, and a later call with time goes on from where the index stopped.
    formula = encode(Board.empty(5), "extended").cnf
    solver = Solver(formula)
    assert solver.solve().status is Status.SAT  # the first check: one scan of the formula
    with cpu_spent() as spent:
        late = solver.solve(deadline=Deadline(200, clock="cpu"))
    assert (late.status, late.model, late.stop) == (Status.UNKNOWN, None, Stop.TIME)
    assert spent.seconds < late_by_at_most(200), spent
    read = solver._checker.read
    assert 0 < read < len(formula.flat)
    answer = solver.solve()
    assert answer.status is Status.SAT and answer.model_checked
    assert solver._checker.read == len(formula.flat)
